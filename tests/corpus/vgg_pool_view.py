# Style: torchvision's VGG (a cfg list through make_layers) shrunk for 28x28 digits, as in course notebooks.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
cfg = [8, "M", 16, "M"]


def make_layers(cfg, batch_norm=False):
    layers, in_channels = [], 1
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)] if batch_norm else [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


class SmallVGG(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = make_layers(cfg, batch_norm=True)
        self.classifier = nn.Sequential(nn.Linear(16 * 3 * 3, 32), nn.ReLU(True), nn.Dropout(), nn.Linear(32, num_classes))

    def forward(self, x):
        x = self.features(x)  # 28x28 -> 7x7
        x = F.max_pool2d(x, 2)  # 7x7 -> 3x3
        x = x.view(x.size(0), -1)
        return self.classifier(x)


model = SmallVGG()
print(model.features)
x = torch.randn(8, 1, 28, 28)
y = torch.randint(0, 10, (8,))
pooled = F.max_pool2d(model.features(x), 2)
print(pooled.shape, pooled.is_contiguous(), pooled.stride())

activations = {}
model.features[5].register_forward_hook(lambda m, inp, out: activations.__setitem__("conv2", out.detach()))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
print("conv2 activations", activations["conv2"].shape, f"{activations['conv2'].mean().item():.4f}")
model.eval()
with torch.no_grad():
    feats = model.features(x[:2])
    print(feats.flatten(1).shape, torch.flatten(F.adaptive_avg_pool2d(feats, (1, 1)), 1)[:, :4])
