"""``minitorch.backends.mps``: no Metal here (see ``minitorch._device.absent``)."""
from .._device.absent import is_available, is_built  # noqa: F401
