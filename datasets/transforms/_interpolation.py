"""``InterpolationMode``, on its own: it imports nothing, so that the torch copy of the models used by the
benchmarks and tests (``benchmarks/models_in_torch.py``) takes this very file in a Python without minitorch."""
from enum import Enum


class InterpolationMode(Enum):
    """Interpolation methods, with torchvision's names and values."""

    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"
