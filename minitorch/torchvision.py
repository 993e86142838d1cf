"""The ``torchvision`` namespace as minitorch lays it out (what ``import torchvision`` gives under
``python -m minitorch``): ``datasets``, ``transforms`` and ``utils`` (``image_utils``) from
``minitorch.datasets``, ``models`` from ``minitorch.models``, ``ops`` from ``minitorch.models.ops``."""
from . import datasets, models  # noqa: F401
from .models import ops  # noqa: F401
from .datasets import image_utils as utils  # noqa: F401
from .datasets import transforms  # noqa: F401

__version__ = "0.28.0"  # the torchvision whose model zoo and transforms minitorch follows
