"""``minitorch.cuda``: what ``torch.cuda`` answers on a machine without CUDA.

Queries say there is no device (``is_available()`` is False, ``device_count()`` is 0), seeding and
cache calls are accepted and do nothing, and anything that needs a device raises PyTorch's
``AssertionError: Torch not compiled with CUDA enabled``. So the device boilerplate of tutorials
(``device = "cuda" if torch.cuda.is_available() else "cpu"``) picks the CPU and runs.
"""
from __future__ import annotations

from . import amp

NOT_COMPILED = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Accepted: there is no CUDA generator to seed."""


def manual_seed_all(seed: int) -> None:
    """Accepted: there is no CUDA generator to seed."""


def seed() -> None:
    """Accepted: there is no CUDA generator to seed."""


def seed_all() -> None:
    """Accepted: there is no CUDA generator to seed."""


def empty_cache() -> None:
    """Accepted: there is no CUDA cache."""


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


def _no_device(*args, **kwargs):
    raise AssertionError(NOT_COMPILED)


current_device = get_device_name = get_device_capability = get_device_properties = synchronize = _no_device
set_device = get_rng_state = set_rng_state = get_rng_state_all = set_rng_state_all = _no_device
