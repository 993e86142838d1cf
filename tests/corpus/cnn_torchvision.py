"""A small CNN on synthetic images through torchvision transforms (PIL images, ToTensor, Normalize, a flip)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms

device = "cuda" if torch.cuda.is_available() else "cpu"
rng = np.random.default_rng(0)


class Stripes(Dataset):
    """16x16 RGB images: class 0 has horizontal stripes, class 1 vertical ones, over numpy noise."""

    def __init__(self, n, transform=None):
        self.labels = rng.integers(0, 2, n)
        stripes = (np.arange(16) % 4 < 2) * 160
        self.images = []
        for label in self.labels:
            pattern = stripes[:, None] if label == 0 else stripes[None, :]
            pixels = np.broadcast_to(pattern, (16, 16))[..., None] + rng.integers(0, 90, (16, 16, 3))
            self.images.append(Image.fromarray(pixels.astype(np.uint8)))
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        if self.transform:
            image = self.transform(image)
        return image, int(self.labels[idx])


transform = transforms.Compose([
    transforms.RandomHorizontalFlip(p=1.0),
    transforms.ToTensor(),
    transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
])
trainset, testset = Stripes(64, transform), Stripes(32, transform)
trainloader = DataLoader(trainset, batch_size=16, shuffle=False)
testloader = DataLoader(testset, batch_size=16, shuffle=False)
images, labels = next(iter(trainloader))
print(images.shape, images.dtype, labels[:8])
print(f"mean {images.mean().item():.4f} min {images.min().item():.4f} max {images.max().item():.4f}")
classes = ("horizontal", "vertical")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 8, 3)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


net = Net().to(device)
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.uniform(-0.3, 0.3, p.shape).astype(np.float32)))
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for epoch in range(3):
    running_loss = 0.0
    for i, (inputs, labels) in enumerate(trainloader):
        optimizer.zero_grad()
        loss = criterion(net(inputs), labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"[{epoch + 1}] loss: {running_loss / len(trainloader):.4f}")
print("Finished Training")

correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for images, labels in testloader:
        _, predictions = torch.max(net(images), 1)
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    print(f"Accuracy for class: {classname:10s} is {100 * float(correct_count) / total_pred[classname]:.1f} %")
