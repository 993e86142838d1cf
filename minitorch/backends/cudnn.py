"""``minitorch.backends.cudnn``: no cuDNN here (see ``minitorch._device.absent``); the flags are kept for code that
sets them, with PyTorch's defaults, and change nothing."""
from .._device.absent import is_available, version  # noqa: F401

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True
