"""``minitorch.cuda``: what ``torch.cuda`` answers on a machine without CUDA (the answers live in
``minitorch._device.absent``).

Queries say there is no device (``is_available()`` is False, ``device_count()`` is 0), seeding and
cache calls are accepted and do nothing, and anything that needs a device raises PyTorch's
``AssertionError: Torch not compiled with CUDA enabled``. So the device boilerplate of tutorials
(``device = "cuda" if torch.cuda.is_available() else "cpu"``) picks the CPU and runs.
"""
from .._device import NOT_COMPILED  # noqa: F401
from .._device.absent import (device_count, empty_cache, is_available, is_bf16_supported,  # noqa: F401
                              is_initialized, manual_seed, manual_seed_all, max_memory_allocated, max_memory_reserved,
                              memory_allocated, memory_reserved, reset_peak_memory_stats, seed, seed_all)
from .._device.absent import needs_device as _needs_device
from . import amp  # noqa: F401

current_device = get_device_name = get_device_capability = get_device_properties = synchronize = _needs_device
set_device = get_rng_state = set_rng_state = get_rng_state_all = set_rng_state_all = _needs_device
