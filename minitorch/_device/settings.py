"""Process-wide settings of PyTorch's top level that a CPU-only numpy framework accepts as they are:
the default device (only the CPU), matmul precision and determinism (numpy's kernels are
deterministic and float32 matmuls are float32), and ``compile`` (PyTorch's disabled path)."""
from __future__ import annotations

from . import _check_device, device

_state = {"matmul_precision": "highest", "deterministic": False, "warn_only": False}


def get_default_device() -> device:
    return device("cpu")


def set_default_device(device) -> None:
    """Accepted for the CPU; another device gets PyTorch's error for a device this build lacks."""
    if device is not None:
        _check_device(device)


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid float32 matmul precision: {precision}")  # torch's check of the value
    _state["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _state["matmul_precision"]


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Accepted: every minitorch kernel is deterministic already."""
    _state["deterministic"], _state["warn_only"] = bool(mode), bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _state["deterministic"]


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode: int | str) -> None:
    """0/'default': off; 1/'warn': warn on nondeterministic ops; 2/'error': refuse them (the same switch as
    ``use_deterministic_algorithms``; every minitorch kernel is deterministic)."""
    if not isinstance(debug_mode, (int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not are_deterministic_algorithms_enabled():
        return 0
    return 1 if is_deterministic_algorithms_warn_only_enabled() else 2


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _state["warn_only"]


def compile(model=None, **kwargs):  # noqa: A001
    """PyTorch's compiler is not available: ``model`` (a module or function) is returned unchanged.
    Used as a decorator with arguments (``@compile(mode=...)``), it returns the identity decorator."""
    if model is None:
        return lambda fn: fn
    return model
