"""The imports of torchvision-based tutorials, and a tiny pipeline through them."""
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from PIL import Image
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,), (0.5,))])
image = Image.fromarray(np.arange(16, dtype=np.uint8).reshape(4, 4) * 16)
x = transform(image)
print("transformed:", tuple(x.shape), round(float(x.sum()), 4))
root = sys.argv[1]
dataset = datasets.ImageFolder(root, transform=transform)
loader = DataLoader(dataset, batch_size=2, shuffle=False)
print("classes:", dataset.classes, "batches:", len(loader))
model = models.resnet18(num_classes=2)
print("resnet18 fc:", model.fc)
print("same classes:", isinstance(model, nn.Module), F.relu is torch.nn.functional.relu,
      torchvision.models.resnet18 is models.resnet18)
