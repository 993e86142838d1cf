"""The ``torchvision`` namespace as minitorch lays it out (what ``import torchvision`` gives under
``python -m minitorch``): ``datasets`` and ``transforms`` from ``minitorch.datasets``, ``models``
from ``minitorch.models``."""
from . import datasets, models  # noqa: F401
from .datasets import transforms  # noqa: F401

__version__ = "0.1.0"
