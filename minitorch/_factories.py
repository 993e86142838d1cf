"""Tensor creation: tensor, as_tensor, from_numpy, zeros/ones/full/empty, arange,
linspace, eye and the ``*_like`` forms, the ``new_*`` methods and the legacy constructors (random tensors are in
``_random_factories``)."""
from __future__ import annotations

import functools
import math
import os
import warnings

import numpy as np

from . import _dtype
from ._core.registry import register
from ._core.shape import int_list, type_name
from ._core.shape import Size
from ._core.tensor import Tensor, _tensor_options
from ._device import _check_device
from ._core.out import _out, signature_with_out
from ._core.grad_mode import state
from ._rng.fma import fma32, fma64


def _with_out(factory):
    """A factory with torch's ``out=``: the result takes ``out``'s dtype (unless ``dtype`` is given) and is
    written into ``out``."""
    @functools.wraps(factory)
    def with_out_argument(*args, out=None, **kwargs):
        if out is None:
            return factory(*args, **kwargs)
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = out.dtype
        return _out(factory(*args, **kwargs), out, factory.__name__.rstrip("_"))
    with_out_argument.__signature__ = signature_with_out(factory)
    return with_out_argument


def _leaf(arr: np.ndarray, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor; ``requires_grad`` checked as torch's factories check it."""
    t = Tensor._wrap(arr)
    if requires_grad:
        if arr.dtype.kind not in "fcV":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    if state.inference:
        t._is_inference = True
    return t


def _size(size, fn: str, position: int = 1) -> tuple:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` and ``f(Size)`` all mean shape (2, 3); other values raise torch's
    TypeError for the ``size`` argument of factory ``fn``."""
    return int_list(size, fn, "size", position)


def _checked_size(size, fn: str, named: bool = False, position: int = 1) -> tuple:
    """The shape, refusing negative sizes with torch's message (``named``: where it names the factory)."""
    shape = _size(size, fn, position)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"{fn}: Dimension size must be non-negative." if named else
                               f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    return shape


def _np_dtype(dtype, default=None) -> np.dtype:
    if dtype is None:
        return (default or _dtype.get_default_dtype()).np
    return _dtype.to_dtype(dtype).np


def _infer(data, dtype=None) -> np.ndarray:
    """Python data as a numpy array of ``dtype``, or with torch's dtype inference (floats give the default dtype)."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (np.ndarray, np.generic)):
        arr = np.asarray(data)
        _dtype.from_numpy_dtype(arr.dtype)  # unsupported dtypes raise here
        return arr
    if data is None:
        raise RuntimeError("Could not infer dtype of NoneType")
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if isinstance(data, (list, tuple)):
        data = _unwrap_items(data)
    try:
        arr = np.array(data, dtype=None if dtype is None else _np_dtype(dtype))
    except ValueError:
        raise _ragged_error(data) from None
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
    if dtype is not None:
        return arr
    if arr.dtype == np.float64 and not _has_numpy_float64(data):
        arr = arr.astype(_dtype.get_default_dtype().np)
    elif arr.dtype == np.complex128 and not _has_numpy_scalars(data):
        arr = arr.astype(_dtype.default_complex().np)
    elif arr.dtype.kind in "iu" and arr.dtype != np.int64 and not _has_numpy_scalars(data):
        if arr.dtype == np.uint64:  # Python ints beyond int64
            raise ValueError("Overflow when unpacking long long")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind in "SUV":  # torch reads strings as sequences of characters
        if _only_strings(data):
            raise ValueError("too many dimensions 'str'")
        raise TypeError("new(): invalid data type 'str'")
    elif arr.dtype == object:
        if _has_big_int(data):
            raise ValueError("Overflow when unpacking long long")
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    return arr


def _only_strings(data) -> bool:
    if isinstance(data, (list, tuple)):
        return all(_only_strings(d) for d in data)
    return isinstance(data, str)


def _has_big_int(data) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_big_int(d) for d in data)
    return isinstance(data, int) and not -2**63 <= data < 2**63


def _unwrap_items(data):
    return [_unwrap_items(d) if isinstance(d, (list, tuple)) else
            (d._data if d._data.ndim else d._data[()]) if isinstance(d, Tensor) else d for d in data]


def _has_numpy_float64(data) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_numpy_float64(d) for d in data)
    return isinstance(data, (np.floating, np.ndarray)) and np.asarray(data).dtype == np.float64


def _has_numpy_scalars(data) -> bool:
    if isinstance(data, (list, tuple)):
        return any(_has_numpy_scalars(d) for d in data)
    return isinstance(data, (np.generic, np.ndarray))


def _ragged_error(data) -> Exception:
    """torch's error for nested sequences of unequal lengths (or a number where a sequence belongs)."""
    def walk(x, dim):
        if isinstance(x, (list, tuple)) and x and isinstance(x[0], (list, tuple)):
            n = len(x[0])
            for item in x:
                if not isinstance(item, (list, tuple)):
                    return TypeError("not a sequence")
                if len(item) != n:
                    return ValueError(f"expected sequence of length {n} at dim {dim + 1} (got {len(item)})")
                found = walk(item, dim + 1)
                if found:
                    return found
        return None
    return walk(data, 0) or ValueError("could not build a tensor from ragged data")


def tensor(data, *, dtype=None, device=None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, numbers, numpy arrays, tensors)."""
    _check_device(device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
                      "sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    arr = _infer(data, dtype)
    arr = np.array(arr, dtype=None if dtype is None else _np_dtype(dtype), copy=True)
    return _leaf(arr, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with ``data`` when no conversion is needed."""
    _check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype is _dtype.to_dtype(dtype) else data.to(dtype)
    arr = _infer(data)
    if dtype is not None:
        arr = arr.astype(_np_dtype(dtype), copy=False)
    return _leaf(arr)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` as a tensor: shares memory with a tensor or numpy array where no conversion is needed (``copy=True``:
    never; ``copy=False``: always, or an error); ``requires_grad`` given is set on a shared tensor in place."""
    _check_device(device)
    if isinstance(obj, Tensor):
        if requires_grad is None and obj.requires_grad:
            _warn_asarray_requires_grad()
        if requires_grad is not None:
            obj.requires_grad_(requires_grad)
        converts = dtype is not None and _dtype.to_dtype(dtype) is not obj.dtype
        if converts and copy is False:
            raise _alias_error(obj.dtype, dtype)
        if converts:
            return obj.to(dtype)
        return obj.clone() if copy else obj
    if copy is False and not isinstance(obj, (np.ndarray, np.generic)):
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    arr = _infer(obj, None if isinstance(obj, (np.ndarray, np.generic)) else dtype)
    if dtype is not None and arr.dtype != _np_dtype(dtype):
        if copy is False:
            raise _alias_error(_dtype.from_numpy_dtype(arr.dtype), dtype)
        arr = arr.astype(_np_dtype(dtype))
    elif copy and arr is obj:
        arr = arr.copy()
    return _leaf(arr, bool(requires_grad))


def _alias_error(have, want) -> ValueError:
    return ValueError(f"can't alias tensor with dtype '{_dtype.C_NAMES[have]}' into dtype "
                      f"'{_dtype.C_NAMES[_dtype.to_dtype(want)]}'.")


@functools.cache
def _warn_asarray_requires_grad() -> None:  # (once per process, as torch's)
    warnings.warn("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. Pass "
                  "requires_grad=False explicitly to get the old behavior and silence this warning.", UserWarning,
                  stacklevel=3)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with a numpy array (same dtype)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    _dtype.from_numpy_dtype(ndarray.dtype)
    return _leaf(ndarray)


def _shape_arg(args: tuple, size, fn: str) -> tuple:
    """The shape of ``fn(2, 3)``, ``fn((2, 3))`` or ``fn(size=(2, 3))``, as ``_checked_size`` takes it."""
    if size is None:
        return args
    if args:
        raise TypeError(f"{fn}() got multiple values for argument 'size'")
    return (size,)


def _filled(fill, size, dtype, device, requires_grad, fn, default=None, named=False):
    _check_device(device)
    shape = _checked_size(size, fn, named)
    dt = _np_dtype(dtype, default)
    arr = np.empty(shape, dt) if fill is None else np.full(shape, _dtype.wrap_int(fill, dt), dt)
    return _leaf(arr, requires_grad)


@_with_out
def zeros(*args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
          requires_grad: bool = False) -> Tensor:
    """A tensor of zeros."""
    return _filled(0, _shape_arg(args, size, "zeros"), dtype, device, requires_grad, "zeros", named=True)


@_with_out
def ones(*args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
         requires_grad: bool = False) -> Tensor:
    """A tensor of ones."""
    return _filled(1, _shape_arg(args, size, "ones"), dtype, device, requires_grad, "ones")


@_with_out
def empty(*args, size=None, dtype=None, layout=None, device=None, requires_grad: bool = False,
          pin_memory: bool = False, memory_format=None) -> Tensor:
    """An uninitialised tensor."""
    return _filled(None, _shape_arg(args, size, "empty"), dtype, device, requires_grad, "empty")


@_with_out
def full(size, fill_value, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
         requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value`` (its dtype inferred from the value unless given)."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    default = (_dtype.bool if isinstance(fill_value, bool) else _dtype.int64 if isinstance(fill_value, int) else
               _dtype.default_complex() if isinstance(fill_value, complex) else None)
    return _filled(fill_value, (size,), dtype, device, requires_grad, "full", default)


def _like(fn, input, dtype, requires_grad, *args, **kwargs):
    """``fn`` (``zeros``, ...) with the shape of ``input`` and, unless given, its dtype: ``fn``'s ``_like`` form."""
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn.__name__}_like(): argument 'input' (position 1) must be Tensor, not {type_name(input)}")
    return fn(input._data.shape, *args, dtype=dtype or input.dtype, requires_grad=requires_grad, **kwargs)


def zeros_like(input, *, dtype=None, layout=None, device=None, pin_memory: bool = False, requires_grad: bool = False,
               memory_format=None) -> Tensor:
    return _like(zeros, input, dtype, requires_grad, device=device)


def ones_like(input, *, dtype=None, layout=None, device=None, pin_memory: bool = False, requires_grad: bool = False,
              memory_format=None) -> Tensor:
    return _like(ones, input, dtype, requires_grad, device=device)


def empty_like(input, *, dtype=None, layout=None, device=None, pin_memory: bool = False, requires_grad: bool = False,
               memory_format=None) -> Tensor:
    return _like(empty, input, dtype, requires_grad, device=device)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(full, input, dtype, requires_grad, fill_value, device=device)


@_with_out
def arange(start, end=None, step=1, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
           requires_grad: bool = False) -> Tensor:
    """Values ``start, start+step, ...`` below ``end`` (int64 for integer arguments)."""
    _check_device(device)
    if end is None:
        start, end = 0, start
    args = [a.item() if isinstance(a, Tensor) else a for a in (start, end, step)]
    is_float = any(isinstance(a, float) for a in args)
    dt = _np_dtype(dtype, None if is_float else _dtype.int64)
    if is_float and dt.kind not in "fV":  # an integer dtype truncates the arguments first
        args = [int(a) for a in args]
        if args[2] == 0:
            raise ValueError("step must be nonzero")
    start, end, step = args
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = max(0, math.ceil((end - start) / step))
    if dt.kind in "fV":
        values = (start + np.arange(n, dtype=np.float64) * step).astype(dt)
    else:
        values = (start + np.arange(n, dtype=np.int64) * int(step)).astype(dt)
    return _leaf(values, requires_grad)


@_with_out
def linspace(start, end, steps: int, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    _check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _leaf(_linspace(start, end, int(steps), _np_dtype(dtype)), requires_grad)


def _linspace(start, end, steps: int, dtype: np.dtype) -> np.ndarray:
    """torch's CPU kernel, bit for bit: ``start + step * i`` for the first half, ``end - step * (steps - 1 - i)``
    for the second; fused multiply-adds in float32 and float64 (complex: per part), float64 then truncation for
    integers, a rounding after every operation in float16 and bfloat16 (c10's Half and BFloat16 arithmetic)."""
    if steps <= 1:
        return np.full(steps, start.item() if isinstance(start, Tensor) else start).astype(dtype)
    if dtype.kind == "b":
        raise NotImplementedError('"linspace_cpu" not implemented for \'Bool\'')
    if dtype.kind == "c":
        start, end, part = complex(start), complex(end), np.dtype(np.float32 if dtype == np.complex64 else np.float64)
        return _linspace(start.real, end.real, steps, part) + 1j * _linspace(start.imag, end.imag, steps, part)
    integral, half_type = dtype.kind in "iu", dtype.kind in "fV" and dtype.itemsize == 2
    half = steps // 2
    up, down = np.arange(half), np.arange(steps - half - 1, -1, -1)
    if half_type:
        def r(a):
            return np.asarray(a, np.float32).astype(dtype).astype(np.float32)
        first, last = r(float(start)), r(float(end))
        step = r(r(last - first) / r(steps - 1))
        return np.concatenate([r(first + r(step * r(up))), r(last - r(step * r(down)))]).astype(dtype)
    work = np.float64 if integral else dtype.type
    first, last = (np.array(int(v) if integral else float(v), dtype).astype(work) for v in (start, end))
    step = (last - first) / work(steps - 1)
    fma = fma64 if work is np.float64 else fma32
    values = np.concatenate([fma(step, up.astype(work), first), fma(-step, down.astype(work), last)])
    return (np.trunc(values) if integral else values).astype(dtype)


@_with_out
def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, layout=None, device=None,
             pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    _check_device(device)
    return _leaf(np.logspace(float(start), float(end), int(steps), base=base).astype(_np_dtype(dtype)), requires_grad)


@_with_out
def eye(n: int, m: int | None = None, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
        requires_grad: bool = False) -> Tensor:
    """An ``n x m`` identity matrix."""
    _check_device(device)
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _leaf(np.eye(n, m, dtype=_np_dtype(dtype)), requires_grad)


@_with_out
def range_(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
           requires_grad: bool = False) -> Tensor:
    """``minitorch.range`` (named so here not to hide Python's ``range`` in this module). Deprecated: values ``start, start+step, ...`` up to ``end`` inclusive (default dtype unless given)."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    _check_device(device)
    start, end, step = (a.item() if isinstance(a, Tensor) else a for a in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int(math.floor((end - start) / step)) + 1
    return _leaf((start + np.arange(n, dtype=np.float64) * step).astype(_np_dtype(dtype)), requires_grad)


range_.__name__ = range_.__qualname__ = "range"


def scalar_tensor(s, *, dtype=None, device=None, requires_grad: bool = False, layout=None,
                  pin_memory: bool = False) -> Tensor:
    """A 0-dim tensor holding the number ``s`` (of the default dtype unless given)."""
    _check_device(device)
    return _leaf(np.array(s.item() if isinstance(s, Tensor) else s, _np_dtype(dtype)), requires_grad)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad: bool = False, layout=None,
                  pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor of shape ``size`` with the given strides (in elements)."""
    _check_device(device)
    shape, stride = _checked_size((size,), "empty_strided"), tuple(int(s) for s in stride)
    if len(shape) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
                           f"({len(stride)})")
    dt = _np_dtype(dtype)
    extent = 0 if 0 in shape else 1 + sum((n - 1) * st for n, st in zip(shape, stride))
    arr = np.lib.stride_tricks.as_strided(np.empty(extent, dt), shape, [st * dt.itemsize for st in stride])
    return _leaf(arr, requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, device=None, requires_grad: bool = False, layout=None,
                   pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor of shape ``size`` whose dims lie in memory in the order ``physical_layout``
    (outermost first)."""
    _check_device(device)
    shape, order = _checked_size((size,), "empty_permuted"), tuple(int(d) for d in physical_layout)
    if len(order) != len(shape):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; "
                           f"i.e. len(size) = {len(shape)} is not equal to len(physical_layout) = {len(order)}")
    if sorted(order) != list(range(len(shape))):
        raise RuntimeError("Duplicate dim not allowed")
    arr = np.empty([shape[d] for d in order], _np_dtype(dtype)).transpose(np.argsort(order))
    return _leaf(arr, requires_grad)


def _triangle_indices(which, row: int, col: int, offset: int, dtype, device, requires_grad: bool) -> Tensor:
    _check_device(device)
    for name, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")
    dt = _dtype.int64 if dtype is None else _dtype.to_dtype(dtype)
    if dt.is_floating_point or dt is _dtype.bool:
        raise NotImplementedError(f'"{which.__name__}" not implemented for \'{_dtype.C_NAMES[dt].capitalize()}\'')
    return _leaf(np.stack(which(row, offset, col)).astype(dt.np), requires_grad)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None,
                 pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The (row, column) indices of the lower triangle of a ``row x col`` matrix (on and below ``offset``)."""
    return _triangle_indices(np.tril_indices, row, col, offset, dtype, device, requires_grad)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None,
                 pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The (row, column) indices of the upper triangle of a ``row x col`` matrix (on and above ``offset``)."""
    return _triangle_indices(np.triu_indices, row, col, offset, dtype, device, requires_grad)


def unravel_index(indices: Tensor, shape) -> tuple:
    """The coordinates in a tensor of ``shape`` of the flat (C-order) ``indices``: one int64 tensor per dim.
    Indices out of range wrap around, as in torch (each coordinate is taken modulo its size)."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for s in shape:
        if not isinstance(s, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(s)}")
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if indices.dtype.kind != _dtype.INT:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if 0 in shape:
        raise RuntimeError("ZeroDivisionError")
    rest, coords = indices._data.astype(np.int64), []
    for s in reversed(shape):
        coords.append(rest % s)
        rest = rest // s
    return tuple(_leaf(c) for c in reversed(coords))


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor sharing memory with an object of the buffer protocol (``count`` elements after ``offset``
    bytes; -1: all the rest)."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    dt = _np_dtype(dtype)
    length = view.nbytes
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % dt.itemsize:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({dt.itemsize})")
        count = (length - offset) // dt.itemsize
    elif offset + count * dt.itemsize > length:
        raise ValueError(f"requested buffer length ({count} * {dt.itemsize} bytes) after offset ({offset} bytes) "
                         f"must not be greater than actual buffer length ({length} bytes)")
    if view.readonly:
        warnings.warn("The given buffer is not writable: minitorch's tensor of it is read-only too. You may want to "
                      "copy the buffer or make it writable before converting it to a tensor.", UserWarning,
                      stacklevel=2)
    return _leaf(np.frombuffer(view.cast("B"), dt, count, offset), requires_grad)


def from_file(filename: str, shared: bool | None = None, size: int = 0, *, dtype=None, layout=None,
              device=None, pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor of the first ``size`` elements stored in the binary file ``filename`` (native byte order),
    read into memory (``shared=True``, mapping the file, is not supported)."""
    _check_device(device)
    if shared:
        raise RuntimeError("minitorch.from_file: shared=True (mapping the file into memory) is not supported; "
                           "use shared=False")
    dt = _np_dtype(dtype)
    try:
        with open(filename, "rb") as f:
            nbytes = os.fstat(f.fileno()).st_size
            if nbytes < size * dt.itemsize:
                raise RuntimeError(f"file <{filename}> size <{nbytes}> is smaller than the required mapping size "
                                   f"<{size * dt.itemsize}>")
            arr = np.fromfile(f, dt, size)
    except OSError as e:
        raise RuntimeError(f"unable to open file <{filename}> in read-only mode: {e.strerror} ({e.errno})") from None
    return _leaf(arr, requires_grad)


# ---- factories from an existing tensor (Tensor methods) ----------------------------------------------
@register(differentiable=False, top_level=False)
def new_tensor(self, data, dtype=None, device=None, requires_grad=False, pin_memory: bool = False) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new_zeros(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad=False) -> Tensor:
    return zeros(_size(_shape_arg(args, size, "new_zeros"), "new_zeros"), dtype=dtype or self.dtype, device=device,
                 requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new_ones(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad=False) -> Tensor:
    return ones(_size(_shape_arg(args, size, "new_ones"), "new_ones"), dtype=dtype or self.dtype, device=device,
                requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new_empty(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad=False) -> Tensor:
    return empty(_size(_shape_arg(args, size, "new_empty"), "new_empty"), dtype=dtype or self.dtype, device=device,
                 requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad=False) -> Tensor:
    return full(_size((size,), "new_full"), fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
                      requires_grad: bool = False) -> Tensor:
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(differentiable=False, top_level=False)
def new(self, *args, **kwargs) -> Tensor:
    """Legacy: ``new(*sizes)`` is uninitialised, ``new(data)`` copies ``data``; both of this dtype."""
    if len(args) == 1 and isinstance(args[0], Tensor) and args[0].dtype is not self.dtype:
        raise TypeError(f"expected {_tensor_options(self.dtype)} (got {_tensor_options(args[0].dtype)})")
    return legacy_new(args, kwargs, self.dtype)


# ---- legacy constructors ------------------------------------------------------------------------------
def legacy_new(args, kwargs, dtype=None) -> Tensor:
    """``Tensor(data)`` copies data; ``Tensor(*sizes)`` is uninitialised."""
    dtype = dtype or _dtype.get_default_dtype()
    if not args:
        return _leaf(np.empty((0,), dtype.np))
    if len(args) == 1 and not isinstance(args[0], (int, Size)):
        data = args[0]
        if isinstance(data, Tensor):
            return data
        return _leaf(np.array(_infer(data), dtype=dtype.np))
    return _leaf(np.empty(_size(args, "new"), dtype.np))


def _legacy(dt):
    def constructor(*args, **kwargs):
        return legacy_new(args, kwargs, dt)
    constructor.__name__ = dt.legacy_name.split(".")[-1]
    return constructor


FloatTensor = _legacy(_dtype.float32)
DoubleTensor = _legacy(_dtype.float64)
HalfTensor = _legacy(_dtype.float16)
BFloat16Tensor = _legacy(_dtype.bfloat16)
LongTensor = _legacy(_dtype.int64)
IntTensor = _legacy(_dtype.int32)
ShortTensor = _legacy(_dtype.int16)
CharTensor = _legacy(_dtype.int8)
ByteTensor = _legacy(_dtype.uint8)
BoolTensor = _legacy(_dtype.bool)
