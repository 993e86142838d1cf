"""An MLP classifier: train/validation split, accuracy, a learning-rate schedule, checkpoints saved and loaded."""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Subset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(0)


class Blobs(Dataset):
    """Three Gaussian blobs in 4 dimensions."""

    def __init__(self, n):
        centers = np.array([[2, 0, 0, 1], [0, 2, 0, -1], [0, 0, 2, 0]], dtype=np.float32)
        self.y = rng.integers(0, 3, n)
        self.x = (centers[self.y] + rng.standard_normal((n, 4))).astype(np.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


class MLP(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.fc1 = nn.Linear(4, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 3)
        self.dropout = nn.Dropout(0.0)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.dropout(F.relu(self.fc2(x)))
        return self.out(x)


def init_from_numpy(model):
    with torch.no_grad():
        for p in model.parameters():
            bound = 1 / np.sqrt(p.shape[-1])
            p.copy_(torch.from_numpy(rng.uniform(-bound, bound, p.shape).astype(np.float32)))


def train(model, loader, optimizer, epoch):
    model.train()
    total = 0.0
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(data)
    print(f"Train Epoch: {epoch} lr: {optimizer.param_groups[0]['lr']:.4f} loss: {total / len(loader.dataset):.4f}")


def test(model, loader):
    model.eval()
    test_loss, correct = 0.0, 0
    with torch.no_grad():
        for data, target in loader:
            output = model(data)
            test_loss += F.cross_entropy(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    n = len(loader.dataset)
    print(f"Validation: Average loss: {test_loss / n:.4f}, Accuracy: {correct}/{n} ({100. * correct / n:.0f}%)")
    return correct


dataset = Blobs(240)
perm = rng.permutation(len(dataset))
train_set, val_set = Subset(dataset, perm[:180].tolist()), Subset(dataset, perm[180:].tolist())
train_loader = DataLoader(train_set, batch_size=32, shuffle=False)
val_loader = DataLoader(val_set, batch_size=64)
model = MLP().to(device)
init_from_numpy(model)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters() if p.requires_grad))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(1, 5):
    train(model, train_loader, optimizer, epoch)
    test(model, val_loader)
    scheduler.step()

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "mlp.pt")
    torch.save(model.state_dict(), path)
    restored = MLP()
    print(restored.load_state_dict(torch.load(path, weights_only=True)))
    restored.eval()
    print("restored agrees:", torch.equal(restored(val_set[0][0]), model(val_set[0][0])))
    checkpoint = os.path.join(tmp, "checkpoint.tar")
    torch.save({"epoch": 4, "model_state_dict": model.state_dict(),
                "optimizer_state_dict": optimizer.state_dict(), "scheduler": scheduler.state_dict()}, checkpoint)
    state = torch.load(checkpoint)
    optimizer2 = torch.optim.Adam(restored.parameters(), lr=0.01)
    optimizer2.load_state_dict(state["optimizer_state_dict"])
    print("epoch", state["epoch"], "keys", list(state["model_state_dict"].keys()))
    print("optimizer state:", sorted(optimizer2.state_dict()["state"][0].keys()), optimizer2.param_groups[0]["lr"])
    print("scheduler:", state["scheduler"]["last_epoch"], state["scheduler"]["_last_lr"])
    test(restored, val_loader)
