"""'What is torch.nn really?': logistic regression on MNIST-shaped data, refactored step by step.
Synthetic 28x28 images (noisy copies of ten class prototypes) stand in for MNIST; every random draw is numpy's."""
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
prototypes = rng.uniform(0, 1, (10, 784))
labels = rng.integers(0, 10, 320)
images = (0.3 * prototypes[labels] + 0.7 * rng.uniform(0, 1, (320, 784))).astype(np.float32)
x_train, y_train, x_valid, y_valid = map(torch.tensor, (images[:256], labels[:256], images[256:], labels[256:]))
n, c = x_train.shape
print(x_train.shape, y_train.min(), y_train.max(), x_train.dtype, y_train.dtype)

weights = torch.tensor(rng.standard_normal((784, 10)) / math.sqrt(784), dtype=torch.float32)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs, lr, epochs = 64, 0.1, 2
loss_func = nll
xb, yb = x_train[0:bs], y_train[0:bs]
print(f"{loss_func(model(xb), yb).item():.4f}", f"{accuracy(model(xb), yb).item():.4f}")
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        xb, yb = x_train[i * bs:(i + 1) * bs], y_train[i * bs:(i + 1) * bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{F.cross_entropy(xb @ weights + bias, yb).item():.4f}", f"{accuracy(model(xb), yb).item():.4f}")


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, p.shape).astype(np.float32)))
    return module


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.4f}")


class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)


train_dl = DataLoader(TensorDataset(x_train, y_train), batch_size=bs, shuffle=False)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
logistic = init(Mnist_Logistic())
fit(epochs, logistic, F.cross_entropy, optim.SGD(logistic.parameters(), lr=lr), train_dl, valid_dl)


class Mnist_CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 10, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.avg_pool2d(xb, 7)
        return xb.view(-1, xb.size(1))


cnn = init(Mnist_CNN())
print(cnn)
fit(epochs, cnn, F.cross_entropy, optim.SGD(cnn.parameters(), lr=0.1, momentum=0.9), train_dl, valid_dl)
xb = x_valid[:4].view(-1, 1, 28, 28)
by_hand = F.conv2d(xb, cnn.conv1.weight, cnn.conv1.bias, stride=2, padding=1)
print(tuple(by_hand.shape), torch.allclose(by_hand, cnn.conv1(xb)))
