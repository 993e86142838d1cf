"""Datasets and transforms in torchvision's form: ``import minitorch.datasets as datasets``.

- ``transforms``: Compose, ToTensor, Normalize, Resize, crops, flips, ColorJitter, ...
- synthetic tasks rendered on the fly: ``SyntheticShapes`` (pretraining), ``SyntheticGlyphs`` (finetuning)
- real data read from a local root: ``ImageFolder``/``DatasetFolder``, ``MNIST``/``FashionMNIST``, ``CIFAR10``
  (``download=True`` fetches the official archives)
"""
from . import transforms, utils
from .cifar import CIFAR10
from .folder import IMG_EXTENSIONS, DatasetFolder, ImageFolder, default_loader, pil_loader
from .mnist import MNIST, FashionMNIST
from .synthetic import GLYPHS, SHAPES, SyntheticGlyphs, SyntheticShapes
from .vision import StandardTransform, VisionDataset

__all__ = ["CIFAR10", "DatasetFolder", "FashionMNIST", "GLYPHS", "IMG_EXTENSIONS", "ImageFolder", "MNIST", "SHAPES",
           "StandardTransform", "SyntheticGlyphs", "SyntheticShapes", "VisionDataset", "default_loader",
           "pil_loader", "transforms", "utils"]
