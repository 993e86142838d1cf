"""``minitorch.mps``: no Metal device; seeding is accepted (see ``minitorch._device.absent``)."""
from ._device.absent import device_count, empty_cache, is_available, manual_seed  # noqa: F401
