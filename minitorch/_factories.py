"""Tensor creation: tensor, as_tensor, from_numpy, zeros/ones/full/empty, arange,
linspace, eye, random tensors and the ``*_like`` forms."""
from __future__ import annotations

import functools
import math
import os
import warnings

import numpy as np

from . import _dtype
from ._core.registry import register
from ._core.shape import broadcast_shape, int_list, type_name
from ._core.shape import Size
from ._core.tensor import Tensor, _tensor_options
from ._device import _check_device
from ._core.out import _out, signature_with_out
from ._ops.shape.copying import Fill
from ._ops.shape.view import expanded_shape
from ._core.function import NoDerivative
from ._core.grad_mode import state
from ._rng import distributions as _rng_dist
from ._rng import cast, in_memory_order, memory_axes
from ._rng import integers as _rng_integers
from ._rng.fma import fma32, fma64
from ._rng.normal import normal as _rng_normal
from ._rng.uniform import uniform as _rng_uniform
from .random import Generator, default_generator, numpy_generator


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


asarray = as_tensor


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


# ---- random -----------------------------------------------------------------------------------------
# Every draw goes through minitorch._rng, which reproduces PyTorch's CPU streams word for word.
def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


def _floating(dt: np.dtype, kernel: str) -> None:
    if dt.kind not in "fcV":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype.C_NAMES[_dtype.from_numpy_dtype(dt)]}'")


def _random_factory(fn: str, kernel: str, size, generator, dtype, requires_grad: bool, draw) -> Tensor:
    """A new tensor of ``size`` filled by ``draw(generator, numel, numpy dtype)``."""
    shape = _checked_size(size, fn)
    dt = _np_dtype(dtype)
    _floating(dt, kernel)
    return _leaf(draw(_gen(generator), math.prod(shape), dt).reshape(shape), requires_grad)


@_with_out
def rand(*args, size=None, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1)."""
    _check_device(device)
    return _random_factory("rand", "check_uniform_bounds", _shape_arg(args, size, "rand"), generator, dtype,
                           requires_grad, _rng_uniform)


@_with_out
def randn(*args, size=None, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples."""
    _check_device(device)
    return _random_factory("randn", "normal_kernel_cpu", _shape_arg(args, size, "randn"), generator, dtype,
                           requires_grad, _rng_normal)


def _check_range(low: int, high: int) -> None:
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")


@_with_out
def randint(low=0, high=None, size=None, *, generator=None, dtype=None, layout=None, device=None,
            pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """Random integers in ``[low, high)``: ``randint(low, high, size)``, ``randint(high, size)`` (from 0)."""
    _check_device(device)
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=...)
        low, high = 0, low
    if high is None or size is None:
        raise TypeError("randint() missing required argument 'size'")
    low, high = int(low), int(high)
    _check_range(low, high)
    shape = _checked_size((size,), "randint", position=2)
    dt = _np_dtype(dtype, _dtype.int64)
    return _leaf(_rng_integers.randint(_gen(generator), math.prod(shape), low, high, dt).reshape(shape),
                 requires_grad)


@_with_out
def randperm(n: int, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0..n-1``."""
    _check_device(device)
    _checked_size((n,), "randperm")
    return _leaf(_rng_integers.randperm(_gen(generator), n).astype(_np_dtype(dtype, _dtype.int64)), requires_grad)


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(rand, input, dtype, requires_grad, generator=generator, device=device)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
               requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(randn, input, dtype, requires_grad, generator=generator, device=device)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 pin_memory: bool = False, requires_grad: bool = False, memory_format=None) -> Tensor:
    """Random integers in ``[low, high)`` (``randint_like(x, high)`` starts at 0), shaped and typed like ``input``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, generator=generator, dtype=dtype or input.dtype, device=device,
                   requires_grad=requires_grad)


def _check_std(std: float) -> None:
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


@_with_out
def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, device=None,
           pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """Normal samples with the given mean and std (numbers with ``size``, or tensors, broadcast together)."""
    _check_device(device)
    gen = _gen(generator)
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_t or std_t):
        _check_std(std)
        shape = _size((size,), "normal", 3)
        dt = _np_dtype(dtype)
        return _leaf(_rng_normal(gen, math.prod(shape), dt, mean, std).reshape(shape), requires_grad)
    if std_t:
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        _check_std(std)
    shape = np.broadcast_shapes(mean.shape if mean_t else (), std.shape if std_t else ())
    dt = (mean if mean_t else std)._data.dtype
    # As torch: a standard normal scaled by a std tensor, or a normal of std drawn directly, then shifted.
    z = _rng_normal(gen, math.prod(shape), dt, 0.0, 1.0 if std_t else std).reshape(shape)
    if std_t:
        z = z * std._data.astype(dt)
    return _leaf(np.asarray(z + (mean._data.astype(dt) if mean_t else mean), dt))


def _check_probabilities(p: np.ndarray) -> None:
    if not ((p >= 0) & (p <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")


def _bernoulli_draws(gen, like: np.ndarray, p, axes: list[int]) -> np.ndarray:
    """0/1 draws shaped like ``like``, made in the memory order ``axes``: a float ``p`` for all, or per-element
    probabilities ``p`` (a tensor, each draw compared with the probability at its own index)."""
    if isinstance(p, Tensor):
        probs = np.broadcast_to(p._data, expanded_shape(p, like.shape))  # with torch's error for p's shape
        _check_probabilities(probs)
        flat = probs.transpose(axes).reshape(-1)
        return in_memory_order(_rng_dist.bernoulli_tensor(gen, flat), like, axes)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    return in_memory_order(_rng_dist.bernoulli_scalar(gen, like.size, p), like, axes)


@register
def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """0/1 samples with probabilities ``input`` (or ``p`` for every element); recorded with a zero gradient."""
    # torch's output is a new row-major tensor, whatever the input's layout
    draws = _bernoulli_draws(_gen(generator), input._data, input if p is None else p, list(range(input.dim())))
    return _DRAWS["Bernoulli"].apply(input, values=draws)


@register
def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input`` (a floating tensor); recorded with a zero gradient."""
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_dtype.C_NAMES[input.dtype]}'")
    if not (input._data >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _DRAWS["Poisson"].apply(input, values=numpy_generator(generator).poisson(input._data))


@register(method=False)
def binomial(count, prob, generator=None) -> Tensor:
    """Binomial samples: successes in ``count`` trials of probability ``prob`` (floating tensors)."""
    if count._data.dtype.kind not in "fV":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{_dtype.C_NAMES[count.dtype]}")
    shape = broadcast_shape(count._data.shape, prob._data.shape)
    n, p = np.broadcast_to(count._data, shape), np.broadcast_to(prob._data, shape)
    draws = numpy_generator(generator).binomial(n.astype(np.int64), p)
    return _BinomialDraw.apply(count, prob, values=draws)


@register
def multinomial(input, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices sampled from the rows of ``input`` (unnormalised probabilities)."""
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind not in "fV":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.C_NAMES[input.dtype]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = np.atleast_2d(probs)
    if not (np.isfinite(rows) & (rows >= 0)).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    out = _rng_dist.multinomial(_gen(generator), rows, num_samples, replacement).astype(np.int64)
    return _leaf(out if probs.ndim == 2 else out[0])


# ---- in-place random fills (Tensor methods) -----------------------------------------------------------
class _RandomFill(Fill):
    """An in-place random fill: the new values do not depend on the old ones (zero gradient)."""

    @staticmethod
    def forward(ctx, a, values=None):
        return np.asarray(values, a.dtype)


_FILLS = {kind: type(kind, (_RandomFill,), {}, name=kind + suffix).inplace_variant()
          for kind, suffix in (("Uniform", "Backward0"), ("Normal", "Backward0"), ("Bernoulli", "Backward2"),
                               ("Random", "Backward2"), ("Exponential", "Backward0"), ("Cauchy", "Backward0"),
                                              ("Geometric", "Backward0"), ("LogNormal", "Backward0"))}


_DRAWS = {kind: type(kind, (_RandomFill,), {}, name=kind + "Backward0") for kind in ("Bernoulli", "Poisson")}


class _BinomialDraw(NoDerivative):
    """``binomial(count, prob)``: torch records it without a derivative."""

    aten = "binomial"

    @staticmethod
    def forward(ctx, count, prob, values=None):
        return np.asarray(values, count.dtype)


def _fill_random(t, kind: str, draw):
    """Fill ``t`` in place with ``draw(generator_words_consumer)``: ``draw(n)`` gives ``t.numel()`` values in
    the order of ``t``'s memory, as torch fills it."""
    return _FILLS[kind].apply(t, values=cast(in_memory_order(draw(t._data.size), t._data), t._data.dtype))


def _continuous(t, name: str) -> None:
    if t._data.dtype.kind not in "fcV":
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_dtype.C_NAMES[t.dtype]}")


def _check_positive(name: str, what: str, value: float) -> None:
    if not value > 0.0:
        raise RuntimeError(f"{name} expects {what} > 0.0, but found {what}={value:g}")


@register(top_level=False)
def uniform_(self, from_: float = 0.0, to: float = 1.0, *, generator=None):
    """Uniform samples in ``[from, to)`` (torch's keyword ``from`` is a Python keyword: pass it by position)."""
    _floating(self._data.dtype, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    return _fill_random(self, "Uniform", lambda n: _rng_uniform(_gen(generator), n, self._data.dtype, from_, to))


@register(top_level=False)
def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
    _floating(self._data.dtype, "normal_kernel_cpu")
    _check_std(std)
    contiguous = self._data.flags.c_contiguous
    return _fill_random(self, "Normal", lambda n: _rng_normal(_gen(generator), n, self._data.dtype, mean, std,
                                                              contiguous))


@register(top_level=False)
def bernoulli_(self, p=0.5, *, generator=None):
    draws = _bernoulli_draws(_gen(generator), self._data, p, memory_axes(self._data))
    return _FILLS["Bernoulli"].apply(self, values=draws)


_UNSET = object()


@register(top_level=False)
def random_(self, from_=_UNSET, to=_UNSET, *, generator=None):
    """``random_()``: integers the dtype holds exactly; ``random_(to)``: [0, to); ``random_(from_, to)``:
    [from_, to), with ``to=None`` meaning up to the dtype's largest value."""
    dt, gen = self._data.dtype, _gen(generator)
    if from_ is _UNSET:
        return _fill_random(self, "Random", lambda n: _rng_integers.random_full(gen, n, dt))
    if to is _UNSET:
        from_, to = 0, from_
    elif to is None:
        to = _rng_integers.to_inclusive_max(dt) + 1
    _check_range(from_, to)
    return _fill_random(self, "Random", lambda n: _rng_integers.randint(gen, n, from_, to, dt))


@register(top_level=False)
def exponential_(self, lambd: float = 1.0, *, generator=None):
    _continuous(self, "Exponential")
    _check_positive("exponential_", "lambda", lambd)
    return _fill_random(self, "Exponential", lambda n: _rng_dist.exponential(_gen(generator), n, lambd))


@register(top_level=False)
def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *, generator=None):
    _continuous(self, "Cauchy")
    _check_positive("cauchy_", "sigma", sigma)
    return _fill_random(self, "Cauchy", lambda n: _rng_dist.cauchy(_gen(generator), n, median, sigma))


@register(top_level=False)
def log_normal_(self, mean: float = 1.0, std: float = 2.0, *, generator=None):
    _continuous(self, "LogNormal")
    _check_positive("log_normal_", "std", std)
    return _fill_random(self, "LogNormal", lambda n: _rng_dist.log_normal(_gen(generator), n, mean, std))


@register(top_level=False)
def geometric_(self, p: float, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return _fill_random(self, "Geometric", lambda n: _rng_dist.geometric(_gen(generator), n, p))


# ---- factories from an existing tensor (Tensor methods) ----------------------------------------------
@register(top_level=False)
def new_tensor(self, data, dtype=None, device=None, requires_grad=False, pin_memory: bool = False) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_zeros(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad=False) -> Tensor:
    return zeros(_size(_shape_arg(args, size, "new_zeros"), "new_zeros"), dtype=dtype or self.dtype, device=device,
                 requires_grad=requires_grad)


@register(top_level=False)
def new_ones(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad=False) -> Tensor:
    return ones(_size(_shape_arg(args, size, "new_ones"), "new_ones"), dtype=dtype or self.dtype, device=device,
                requires_grad=requires_grad)


@register(top_level=False)
def new_empty(self, *args, size=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad=False) -> Tensor:
    return empty(_size(_shape_arg(args, size, "new_empty"), "new_empty"), dtype=dtype or self.dtype, device=device,
                 requires_grad=requires_grad)


@register(top_level=False)
def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad=False) -> Tensor:
    return full(_size((size,), "new_full"), fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory: bool = False,
                      requires_grad: bool = False) -> Tensor:
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
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
