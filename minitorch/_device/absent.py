"""What PyTorch answers about a device this build lacks (CUDA, Metal, XPU, an accelerator).

Queries say there is none, seeding and cache calls are accepted and do nothing, and a call that needs the device
raises PyTorch's ``AssertionError: Torch not compiled with CUDA enabled``. The entry modules under PyTorch's names
(``minitorch.cuda``, ``minitorch.mps``, ...) pick the functions their PyTorch counterparts have.
"""
from __future__ import annotations

from . import NOT_COMPILED


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def device_count() -> int:
    return 0


def current_accelerator(check_available: bool = False) -> None:
    return None


def version() -> None:
    return None


def manual_seed(seed: int) -> None:
    """Accepted: there is no generator of this device to seed."""


def manual_seed_all(seed: int) -> None:
    """Accepted: there is no generator of this device to seed."""


def seed() -> None:
    """Accepted: there is no generator of this device to seed."""


def seed_all() -> None:
    """Accepted: there is no generator of this device to seed."""


def empty_cache() -> None:
    """Accepted: there is no cache of this device."""


def memory_allocated(device=None) -> int:
    return 0


def max_memory_allocated(device=None) -> int:
    return 0


def memory_reserved(device=None) -> int:
    return 0


def max_memory_reserved(device=None) -> int:
    return 0


def reset_peak_memory_stats(device=None) -> None:
    """Accepted: no device memory is tracked."""


def needs_device(*args, **kwargs):
    """What every call that needs a CUDA device does here."""
    raise AssertionError(NOT_COMPILED)
