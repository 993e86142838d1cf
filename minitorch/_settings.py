"""PyTorch's top-level types and settings that are not ops: ``finfo``/``iinfo``, the ``layout`` and
``memory_format`` constants, torch's exception classes, ``broadcast_shapes``, the tensor predicates
of the ``minitorch.*`` namespace, and the process-wide switches (warn-always, interop threads,
denormals, the legacy default tensor type; determinism is in ``_device.settings``)."""
from __future__ import annotations

import operator
import os
import warnings

import numpy as np

from . import _dtype


class _Constant:
    """A named constant of a torch enum type: ``minitorch.strided``; users cannot make new ones."""

    __slots__ = ("_name",)

    def __new__(cls, *args, **kwargs):
        raise TypeError(f"cannot create 'minitorch.{cls.__name__}' instances")

    @classmethod
    def _make(cls, name: str):
        obj = object.__new__(cls)
        obj._name = name
        return obj

    def __repr__(self) -> str:
        return "minitorch." + self._name

    def __reduce__(self):
        return (_constant, (self._name,))


class layout(_Constant):
    """How a tensor's elements are stored: minitorch has dense, strided tensors only (``minitorch.strided``)."""

    __slots__ = ()


class memory_format(_Constant):
    """The memory order asked of a new tensor (``contiguous_format``, ``channels_last``, ...)."""

    __slots__ = ()


def _constant(name: str):
    """The constant named ``name`` (how pickle finds one again)."""
    return globals()[name]


layout.__module__ = memory_format.__module__ = "minitorch"
strided = layout._make("strided")
contiguous_format = memory_format._make("contiguous_format")
preserve_format = memory_format._make("preserve_format")
channels_last = memory_format._make("channels_last")
channels_last_3d = memory_format._make("channels_last_3d")


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
        info = np.finfo(d.np)
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


# ---- shapes and predicates ----------------------------------------------------------------------
def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` (ints or sequences of ints) broadcast to."""
    from ._tensor import Size
    result: list = []
    for i, given in enumerate(shapes):
        shape = (given,) if isinstance(given, int) else tuple(given)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for k in range(1, len(shape) + 1):
            s = shape[-k]
            if s == 1 or s == result[-k]:
                continue
            if result[-k] != 1 or s < 0:
                had = shape if isinstance(given, int) else given  # as given: (3, 2), [3, 2] or Size([3, 2])
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s} at {-k}! Mismatching "
                                   f"argument at index {i} had {had}; but expected shape should be broadcastable "
                                   f"to {result}")
            result[-k] = s
    return Size(result)


_HEAP_TYPE = 1 << 9  # the flag of a class defined in Python: errors name it bare, C types with their module


def type_name(value) -> str:
    """The type of ``value`` as Python's own errors name it: ``float``, ``Tensor``, ``numpy.float64``."""
    t = type(value)
    return t.__name__ if t.__module__ == "builtins" or t.__flags__ & _HEAP_TYPE else f"{t.__module__}.{t.__name__}"


def int_list(args, fn: str, arg: str, position: int = 1, overloaded: bool = False) -> tuple:
    """The ints of a list-of-ints argument given as ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(Size)``, with the
    TypeErrors of torch's argument parser for other values: ``fn`` and ``arg`` name the function and the argument
    (``position`` its place), ``overloaded`` says ``fn`` has a signature taking something else first (``view``)."""
    packed = len(args) == 1 and isinstance(args[0], (tuple, list))
    values = args[0] if packed else args
    try:
        return tuple(v if type(v) is int else operator.index(v) for v in values)
    except TypeError:
        pass
    bad = next(k for k, v in enumerate(values) if not _is_index(v))
    name = type_name(values[bad])
    if bad and (packed or len(args) > 1):
        raise TypeError(f"{fn}(): argument '{arg}' failed to unpack the object at pos {bad + 1} with error \"type must "
                        f"be tuple of ints,but got {name}\"")
    if packed:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, but found element of "
                        f"type {name} at pos 0")
    if overloaded:
        raise TypeError(f"{fn}() received an invalid combination of arguments - got "
                        f"({', '.join(type_name(a) for a in args)}), but expected one of:")
    if len(args) > 1:
        raise TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, not {name}")


def _is_index(value) -> bool:
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def broadcast_shape(*shapes) -> tuple:
    """The shape that elementwise ops broadcast ``shapes`` to, or torch's error for the first pair that does not
    broadcast. The one check of the ops: ``Op.apply`` also reads numpy's broadcasting errors through it."""
    shape = ()
    for s in shapes:
        try:
            shape = np.broadcast_shapes(shape, s)
        except ValueError:
            raise shape_mismatch(shape, s) from None
    return shape


def shape_mismatch(sa, sb) -> RuntimeError:
    """torch's error for shapes ``sa`` and ``sb`` that do not broadcast (the last mismatching dim)."""
    sa, sb = tuple(sa), tuple(sb)
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for d in range(n - 1, -1, -1):
        if pa[d] != pb[d] and pa[d] != 1 and pb[d] != 1:
            return RuntimeError(f"The size of tensor a ({pa[d]}) must match the size of tensor b ({pb[d]}) "
                                f"at non-singleton dimension {d}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast together")


def output_mismatch(out_shape, shape) -> RuntimeError:
    """torch's error for an in-place or ``out=`` result of ``shape`` that does not fit its output's ``out_shape``."""
    return RuntimeError(f"output with shape {list(out_shape)} doesn't match the broadcast shape {list(shape)}")


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


def resize_as_(input, the_template, *, memory_format=None):
    """``input.resize_as_(the_template)``."""
    return input.resize_as_(the_template)


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
    from .autograd.grad_mode import state
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
