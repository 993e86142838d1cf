"""Transfer learning: a torchvision resnet18 frozen with requires_grad_(False), a new fc head, two training steps."""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim import lr_scheduler
from torchvision import models

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(0)


def init_from_numpy(model):
    """He-normal conv and linear weights drawn by numpy (batch-norm layers keep their ones and zeros)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                w = rng.standard_normal(m.weight.shape) * np.sqrt(2 / m.weight[0].numel())
                m.weight.copy_(torch.from_numpy(w.astype(np.float32)))
                if m.bias is not None:
                    m.bias.zero_()


model_conv = models.resnet18(weights=None)
init_from_numpy(model_conv)
print("parameters:", sum(p.numel() for p in model_conv.parameters()))
model_conv.requires_grad_(False)
for param in model_conv.layer4.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
init_from_numpy(model_conv.fc)
model_conv = model_conv.to(device)
print(model_conv.fc, num_ftrs)
print("trainable:", [name for name, p in model_conv.named_parameters() if p.requires_grad])

criterion = nn.CrossEntropyLoss()
optimizer_conv = optim.SGD(model_conv.fc.parameters(), lr=0.01, momentum=0.9)
exp_lr_scheduler = lr_scheduler.StepLR(optimizer_conv, step_size=1, gamma=0.1)
inputs = torch.from_numpy(rng.uniform(-1, 1, (4, 3, 64, 64)).astype(np.float32)).to(device)
labels = torch.tensor([0, 1, 0, 1], device=device)

model_conv.train()
for step in range(2):
    optimizer_conv.zero_grad()
    with torch.set_grad_enabled(True):
        outputs = model_conv(inputs)
        _, preds = torch.max(outputs, 1)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer_conv.step()
    exp_lr_scheduler.step()
    print(f"step {step} loss: {loss.item():.4f} preds: {preds.tolist()} lr: {exp_lr_scheduler.get_last_lr()[0]:.4f}")

print("with grads:", [name for name, p in model_conv.named_parameters() if p.grad is not None])
print("conv1 grad:", model_conv.conv1.weight.grad, "fc grad shape:", tuple(model_conv.fc.weight.grad.shape))
print("bn1 running mean:", [round(v, 4) for v in model_conv.bn1.running_mean[:3].tolist()],
      "batches tracked:", model_conv.bn1.num_batches_tracked.item())
model_conv.eval()
with torch.no_grad():
    probs = torch.softmax(model_conv(inputs), dim=1)
print("eval probabilities:", [[round(v, 4) for v in row] for row in probs.tolist()])
print("state_dict keys:", len(model_conv.state_dict()), list(model_conv.state_dict())[:6])
