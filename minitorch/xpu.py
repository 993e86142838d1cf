"""``minitorch.xpu``: no XPU device; seeding is accepted (see ``minitorch._device.absent``)."""
from ._device.absent import device_count, is_available, manual_seed  # noqa: F401
