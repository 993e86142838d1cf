"""Train a small MLP on three interleaved spirals, the classic PyTorch way.

The dataset is made here (no download): points on three noisy spiral arms, one
class per arm. The loop is exactly PyTorch's:

    for x, y in loader:
        opt.zero_grad(); loss = F.cross_entropy(model(x), y); loss.backward(); opt.step()

Run: python examples/train_mlp.py [--epochs 40] [--hidden 64] [--lr 0.01]
"""
from __future__ import annotations

import argparse
import math

from tqdm import tqdm

import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
from minitorch.utils.data import DataLoader, TensorDataset, random_split


def spirals(n_per_class: int, classes: int = 3, noise: float = 0.15, generator=None):
    """Points (x, y) on ``classes`` spiral arms; the label is the arm."""
    radius = torch.rand(classes, n_per_class, generator=generator)
    angle = (torch.arange(classes).reshape(-1, 1) * (2 * math.pi / classes) + radius * 4.0
             + torch.randn(classes, n_per_class, generator=generator) * noise)
    points = torch.stack([radius * angle.cos(), radius * angle.sin()], dim=-1).reshape(-1, 2)
    labels = torch.arange(classes).reshape(-1, 1).expand(classes, n_per_class).reshape(-1)
    return points, labels


def accuracy(model: nn.Module, loader: DataLoader) -> float:
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    model.train()
    return correct / total


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--samples", type=int, default=600, help="points per class")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    points, labels = spirals(args.samples, generator=torch.Generator().manual_seed(args.seed))
    train_set, test_set = random_split(TensorDataset(points, labels), [0.8, 0.2],
                                       generator=torch.Generator().manual_seed(args.seed))
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=args.workers)
    test_loader = DataLoader(test_set, batch_size=256)

    model = nn.Sequential(nn.Linear(2, args.hidden), nn.ReLU(), nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                          nn.Linear(args.hidden, 3))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)

    for epoch in (bar := tqdm(range(args.epochs), desc="training", unit="epoch", disable=None)):
        total = 0.0
        for x, y in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
        scheduler.step()
        bar.set_postfix(loss=f"{total / len(train_set):.4f}")

    result = {"train_accuracy": accuracy(model, train_loader), "test_accuracy": accuracy(model, test_loader)}
    print(f"train accuracy: {result['train_accuracy']:.3f}")
    print(f"test accuracy:  {result['test_accuracy']:.3f}")
    return result


if __name__ == "__main__":
    main()
