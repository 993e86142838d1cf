"""``minitorch.accelerator``: there is none; the CPU is the only device (see ``minitorch._device.absent``)."""
from ._device.absent import current_accelerator, device_count, is_available  # noqa: F401
