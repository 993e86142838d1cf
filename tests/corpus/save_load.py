"""Saving and loading models: a state_dict, a general checkpoint with the optimizer, and a whole pickled model."""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

rng = np.random.default_rng(0)


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = TheModelClass()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.standard_normal(p.shape).astype(np.float32) * 0.5))
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.from_numpy(rng.standard_normal((5, 4)).astype(np.float32))
y = torch.tensor([0, 1, 2, 1, 0])
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
print("Model's state_dict:")
for name, tensor in model.state_dict().items():
    print(name, "\t", list(tensor.size()))
print("Optimizer's state_dict:", optimizer.state_dict()["param_groups"])

torch.save(model.state_dict(), "model_weights.pth")
restored = TheModelClass()
print(restored.load_state_dict(torch.load("model_weights.pth", weights_only=True)))
restored.eval()
print(torch.equal(restored(x), model(x)))

torch.save({"epoch": 1, "model_state_dict": model.state_dict(), "optimizer_state_dict": optimizer.state_dict(),
            "loss": loss.item()}, "checkpoint.tar")
checkpoint = torch.load("checkpoint.tar", weights_only=True)
model2 = TheModelClass()
optimizer2 = optim.SGD(model2.parameters(), lr=0.5)
model2.load_state_dict(checkpoint["model_state_dict"])
optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
print("epoch", checkpoint["epoch"], "loss", round(checkpoint["loss"], 4), "lr", optimizer2.param_groups[0]["lr"])
for opt, m in ((optimizer, model), (optimizer2, model2)):
    opt.zero_grad()
    nn.functional.cross_entropy(m(x), y).backward()
    opt.step()
print(all(torch.allclose(a, b) for a, b in zip(model.parameters(), model2.parameters())))

torch.save(model, "model.pth")
try:
    torch.load("model.pth")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[-3][:60])
whole = torch.load("model.pth", weights_only=False)
whole.eval()
print(type(whole).__name__, torch.equal(whole(x), model(x)))
