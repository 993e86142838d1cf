"""PyTorch's top-level types and settings that are not ops: ``finfo``/``iinfo``, torch's exception classes, the
tensor predicates of the ``minitorch.*`` namespace, and the process-wide switches (warn-always, interop threads,
denormals, the legacy default tensor type; determinism is in ``_device.settings``). Shapes and layouts are in
``minitorch._core.shape``."""
from __future__ import annotations

import os
import warnings

import ml_dtypes
import numpy as np

from . import _dtype
from ._core.grad_mode import state


# ---- exceptions with torch's bases ----------------------------------------------------------------
class AcceleratorError(RuntimeError):
    """An error reported by an accelerator (never raised by CPU-only minitorch)."""


class OutOfMemoryError(RuntimeError):
    """A device ran out of memory (never raised by CPU-only minitorch)."""


class FatalError(Exception):
    """An unrecoverable internal error."""


class JITException(Exception):
    """An error raised from TorchScript code (torch's ``jit.Error``)."""


# ---- finfo / iinfo ------------------------------------------------------------------------------------
class finfo:
    """Machine limits of a floating point dtype (default: the default dtype)."""

    def __init__(self, type=None):  # noqa: A002
        d = _dtype.get_default_dtype() if type is None else _dtype.to_dtype(type)
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = ml_dtypes.finfo(d.np) if d is _dtype.bfloat16 else np.finfo(d.np)
        self.bits = info.bits
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision
        self.dtype = d.name

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    __hash__ = None

    def __repr__(self) -> str:
        fields = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")
        return "finfo(" + "".join(f"{f}={getattr(self, f):g}, " for f in fields) + f"dtype={self.dtype})"


class iinfo:
    """Machine limits of an integer dtype."""

    def __init__(self, type):  # noqa: A002
        d = _dtype.to_dtype(type)
        if d is _dtype.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(d.np)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), d.name

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    __hash__ = None

    def __repr__(self) -> str:
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


# ---- predicates ------------------------------------------------------------------------------------
def is_nonzero(input) -> bool:
    """Whether the single element of ``input`` is nonzero."""
    return input.is_nonzero()


def is_same_size(input, other) -> bool:
    """Whether both tensors have the same shape."""
    return input.is_same_size(other)


def is_signed(input) -> bool:
    """Whether ``input``'s dtype holds negative numbers."""
    return input.is_signed()


def is_inference(input) -> bool:
    """Whether ``input`` was made under ``inference_mode``."""
    return input.is_inference()


def get_device(input) -> int:
    """The device index of ``input``: -1, the CPU."""
    return input.get_device()


# ---- process-wide switches ------------------------------------------------------------------------
_state = {"warn_always": False, "interop_threads": None}


def set_warn_always(b: bool) -> None:
    """Torch's switch from warn-once to warn-always. minitorch warns through Python's ``warnings`` module,
    whose filters decide repetition, so the flag is only kept for ``is_warn_always_enabled``."""
    _state["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _state["warn_always"]


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off for the rest of the process (as ``autograd.set_detect_anomaly``)."""
    state.anomaly, state.anomaly_check_nan = bool(enabled), bool(check_nan)


def get_num_interop_threads() -> int:
    """The number of threads for running independent ops at once (the number of CPUs unless set)."""
    return _state["interop_threads"] or os.cpu_count() or 1


def set_num_interop_threads(num: int) -> None:
    """Set the number of inter-op threads, once. minitorch runs ops one after another; the number is kept."""
    if not isinstance(num, int):
        raise RuntimeError(f"set_num_interop_threads expects an int, but got {type(num).__name__}")
    if num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _state["interop_threads"] is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    _state["interop_threads"] = num


def init_num_threads() -> None:
    """Initialise the thread pools of the calling thread: numpy's BLAS needs nothing."""


def set_flush_denormal(mode: bool) -> bool:
    """Whether flushing denormal floats to zero could be set: numpy gives no control over the CPU's
    flush-to-zero mode, so this returns False and nothing changes."""
    return False


def thread_safe_generator():
    """The generator of the calling DataLoader thread worker: minitorch's workers are processes, so this is
    None, which makes random functions use the default generator (as torch in process workers)."""
    return None


def set_default_tensor_type(t, /) -> None:
    """Deprecated: set the default dtype from a tensor type (``minitorch.DoubleTensor`` or its name)."""
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
                  UserWarning, stacklevel=2)
    name = (t if isinstance(t, str) else getattr(t, "__name__", "")).rsplit(".", 1)[-1]
    d = next((d for d in _dtype._BY_NP.values() if d.legacy_name.rsplit(".", 1)[-1] == name), None)
    if d is None:
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_dtype(d)
