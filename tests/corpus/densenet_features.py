# Style: "feature extraction with a torchvision model" blog posts: densenet121's features as an image embedding.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import models

torch.manual_seed(0)
model = models.densenet121(weights=None)
print(f"params: {sum(p.numel() for p in model.parameters()):,}", type(model.features).__name__,
      len(model.features), list(dict(model.features.named_children()))[:5])
print(model.classifier, model.features.denseblock1.denselayer1.conv1)


class FeatureExtractor(nn.Module):
    """The conv trunk, then global average pooling: one 1024-d vector per image."""

    def __init__(self, backbone):
        super().__init__()
        self.features = backbone.features

    def forward(self, x):
        x = F.relu(self.features(x), inplace=True)
        x = F.adaptive_avg_pool2d(x, (1, 1))
        return torch.flatten(x, 1)


extractor = FeatureExtractor(model).eval()
images = torch.rand(2, 3, 32, 32)
with torch.no_grad():
    embeddings = extractor(images)
print(embeddings.shape, f"{embeddings.mean().item():.6f} {embeddings.std().item():.6f}", embeddings[0, :4])
similarity = F.cosine_similarity(embeddings[:, None], embeddings[None], dim=-1)
print(similarity)

activation = {}


def get_activation(name):
    def hook(module, input, output):
        activation[name] = output.detach()
    return hook


model.features.transition1.register_forward_hook(get_activation("transition1"))
model.classifier = nn.Identity()
with torch.no_grad():
    out = model(images[:1])
print(out.shape, torch.allclose(out, embeddings[:1], atol=1e-6), activation["transition1"].shape)

for param in model.parameters():
    param.requires_grad = False
head = nn.Linear(1024, 2)
optimizer = torch.optim.SGD(head.parameters(), lr=0.05)
labels = torch.tensor([0, 1])
for step in range(3):
    loss = F.cross_entropy(head(embeddings), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
