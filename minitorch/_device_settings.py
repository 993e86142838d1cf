"""Process-wide settings of PyTorch's top level that a CPU-only numpy framework accepts as they are:
the default device (only the CPU), matmul precision and determinism (numpy's kernels are
deterministic and float32 matmuls are float32), and ``compile`` (PyTorch's disabled path)."""
from __future__ import annotations

from ._core.tensor import _check_device, device

_state = {"matmul_precision": "highest", "deterministic": False, "warn_only": False}


def get_default_device() -> device:
    return device("cpu")


def set_default_device(d) -> None:
    """Accepted for the CPU; another device gets PyTorch's error for a device this build lacks."""
    if d is not None:
        _check_device(d)


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


def compile(model=None, **kwargs):  # noqa: A001
    """PyTorch's compiler is not available: ``model`` (a module or function) is returned unchanged.
    Used as a decorator with arguments (``@compile(mode=...)``), it returns the identity decorator."""
    if model is None:
        return lambda fn: fn
    return model
