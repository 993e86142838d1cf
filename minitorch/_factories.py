"""Tensor creation: tensor, as_tensor, from_numpy, zeros/ones/full/empty, arange,
linspace, eye, random tensors and the ``*_like`` forms."""
from __future__ import annotations

import functools
import math
import os
import warnings

import numpy as np

from . import _dtype
from ._registry import register
from ._tensor import Size, Tensor, _check_device
from ._ops.broadcast import _out
from ._ops.copying import Fill
from .autograd.function import NoDerivative
from .autograd.grad_mode import state
from .random import numpy_generator


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
    return with_out_argument


def _leaf(arr: np.ndarray, requires_grad: bool = False) -> Tensor:
    """A new leaf tensor; ``requires_grad`` checked as torch's factories check it."""
    t = Tensor._wrap(arr)
    if requires_grad:
        if arr.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    if state.inference:
        t._is_inference = True
    return t


def _size(size) -> tuple:
    """``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` and ``f(Size)`` all mean shape (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    shape = tuple(int(s) for s in size)
    return shape


def _checked_size(size, name=None) -> tuple:
    """The shape, refusing negative sizes with torch's message (``name`` only where torch names the factory)."""
    shape = _size(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"{name}: Dimension size must be non-negative." if name else
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


def _filled(fill, size, dtype, device, requires_grad, name=None, default=None):
    _check_device(device)
    shape = _checked_size(size, name)
    dt = _np_dtype(dtype, default)
    arr = np.empty(shape, dt) if fill is None else np.full(shape, _dtype.wrap_int(fill, dt), dt)
    return _leaf(arr, requires_grad)


@_with_out
def zeros(*size, dtype=None, device=None, requires_grad: bool = False, layout=None) -> Tensor:
    """A tensor of zeros."""
    return _filled(0, size, dtype, device, requires_grad, "zeros")


@_with_out
def ones(*size, dtype=None, device=None, requires_grad: bool = False, layout=None) -> Tensor:
    """A tensor of ones."""
    return _filled(1, size, dtype, device, requires_grad)


@_with_out
def empty(*size, dtype=None, device=None, requires_grad: bool = False, layout=None, memory_format=None,
          pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor."""
    return _filled(None, size, dtype, device, requires_grad)


@_with_out
def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False, layout=None) -> Tensor:
    """A tensor filled with ``fill_value`` (its dtype inferred from the value unless given)."""
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    default = (_dtype.bool if isinstance(fill_value, bool) else _dtype.int64 if isinstance(fill_value, int) else
               _dtype.default_complex() if isinstance(fill_value, complex) else None)
    return _filled(fill_value, (size,) if isinstance(size, int) else tuple(size), dtype, device, requires_grad,
                   default=default)


def _like(fn, input, dtype, requires_grad, **kwargs):
    return fn(input._data.shape, dtype=dtype or input.dtype, requires_grad=requires_grad, **kwargs)


def zeros_like(input, *, dtype=None, device=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(zeros, input, dtype, requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(ones, input, dtype, requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(empty, input, dtype, requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad: bool = False,
              memory_format=None) -> Tensor:
    return full(input._data.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


@_with_out
def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Values ``start, start+step, ...`` below ``end`` (int64 for integer arguments)."""
    _check_device(device)
    if end is None:
        start, end = 0, start
    args = [a.item() if isinstance(a, Tensor) else a for a in (start, end, step)]
    is_float = any(isinstance(a, float) for a in args)
    dt = _np_dtype(dtype, None if is_float else _dtype.int64)
    if is_float and dt.kind != "f":  # an integer dtype truncates the arguments first
        args = [int(a) for a in args]
        if args[2] == 0:
            raise ValueError("step must be nonzero")
    start, end, step = args
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = max(0, math.ceil((end - start) / step))
    if dt.kind == "f":
        values = (start + np.arange(n, dtype=np.float64) * step).astype(dt)
    else:
        values = (start + np.arange(n, dtype=np.int64) * int(step)).astype(dt)
    return _leaf(values, requires_grad)


@_with_out
def linspace(start, end, steps: int, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    _check_device(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _leaf(np.linspace(float(start), float(end), int(steps)).astype(_np_dtype(dtype)), requires_grad)


@_with_out
def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    _check_device(device)
    return _leaf(np.logspace(float(start), float(end), int(steps), base=base).astype(_np_dtype(dtype)), requires_grad)


@_with_out
def eye(n: int, m: int | None = None, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An ``n x m`` identity matrix."""
    _check_device(device)
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _leaf(np.eye(n, m, dtype=_np_dtype(dtype)), requires_grad)


@_with_out
def range_(start, end, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
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
    shape, stride = _checked_size((size,)), tuple(int(s) for s in stride)
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
    shape, order = _checked_size((size,)), tuple(int(d) for d in physical_layout)
    if len(order) != len(shape):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; "
                           f"i.e. len(size) = {len(shape)} is not equal to len(physical_layout) = {len(order)}")
    if sorted(order) != list(range(len(shape))):
        raise RuntimeError("Duplicate dim not allowed")
    arr = np.empty([shape[d] for d in order], _np_dtype(dtype)).transpose(np.argsort(order))
    return _leaf(arr, requires_grad)


def _triangle_indices(which, row: int, col: int, offset: int, dtype, device) -> Tensor:
    _check_device(device)
    for name, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")
    dt = _dtype.int64 if dtype is None else _dtype.to_dtype(dtype)
    if dt.is_floating_point or dt is _dtype.bool:
        raise NotImplementedError(f'"{which.__name__}" not implemented for \'{_dtype.C_NAMES[dt].capitalize()}\'')
    return _leaf(np.stack(which(row, offset, col)).astype(dt.np))


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the lower triangle of a ``row x col`` matrix (on and below ``offset``)."""
    return _triangle_indices(np.tril_indices, row, col, offset, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The (row, column) indices of the upper triangle of a ``row x col`` matrix (on and above ``offset``)."""
    return _triangle_indices(np.triu_indices, row, col, offset, dtype, device)


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
def _random_float(sample, size, generator, dtype, requires_grad, name):
    dt = _np_dtype(dtype)
    if dt.kind not in "fc":
        raise NotImplementedError(f"\"{name}\" not implemented for '{_dtype.C_NAMES[_dtype.from_numpy_dtype(dt)]}'")
    arr = _samples(sample, numpy_generator(generator), _checked_size(size), dt, name == "normal_kernel_cpu")
    return _leaf(arr.astype(dt, copy=False), requires_grad)


def _samples(sample, gen, shape: tuple, dt: np.dtype, normal: bool) -> np.ndarray:
    """``sample(gen, shape, float dtype)``; for a complex ``dt``, independent real and imaginary parts (normal
    ones each of half the variance, as torch's complex normal samples)."""
    if dt.kind != "c":
        return sample(gen, shape, np.float64 if dt == np.float64 else np.float32)
    parts = sample(gen, (2,) + shape, np.float64)
    return (parts[0] + 1j * parts[1]) / (np.sqrt(2.0) if normal else 1.0)


@_with_out
def rand(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1)."""
    _check_device(device)
    return _random_float(lambda g, s, dt: g.random(s, dtype=dt), size, generator, dtype, requires_grad,
                         "check_uniform_bounds")


@_with_out
def randn(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Standard normal samples."""
    _check_device(device)
    return _random_float(lambda g, s, dt: g.standard_normal(s, dtype=dt), size, generator, dtype, requires_grad,
                         "normal_kernel_cpu")


@_with_out
def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """Random integers in ``[low, high)`` (``randint(high, size)`` starts at 0)."""
    _check_device(device)
    if size is None:
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'size'")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    dt = _np_dtype(dtype, _dtype.int64)
    arr = numpy_generator(generator).integers(low, high, size=_checked_size((size,) if isinstance(size, int) else size))
    return _leaf(arr.astype(dt), requires_grad)


@_with_out
def randperm(n: int, *, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0..n-1``."""
    _check_device(device)
    _checked_size((n,))
    return _leaf(numpy_generator(generator).permutation(n).astype(_np_dtype(dtype, _dtype.int64)), requires_grad)


def rand_like(input, *, dtype=None, generator=None, requires_grad: bool = False) -> Tensor:
    return rand(input._data.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, generator=None, requires_grad: bool = False) -> Tensor:
    return randn(input._data.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint_like(input, low, high=None, *, dtype=None, generator=None) -> Tensor:
    """Random integers in ``[low, high)`` (``randint_like(x, high)`` starts at 0), shaped and typed like ``input``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, generator=generator, dtype=dtype or input.dtype)


@_with_out
def normal(mean, std=1.0, size=None, *, generator=None, dtype=None) -> Tensor:
    """Normal samples with the given mean and std (numbers with ``size``, or tensors)."""
    m = mean._data if isinstance(mean, Tensor) else mean
    s = std._data if isinstance(std, Tensor) else std
    if size is None:
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    else:
        shape = _size((size,) if isinstance(size, int) else size)
    dt = next((x._data.dtype for x in (mean, std) if isinstance(x, Tensor)), _np_dtype(dtype))
    arr = numpy_generator(generator).standard_normal(shape) * s + m
    return _leaf(np.asarray(arr, dtype=dt))


@register
def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """0/1 samples with probabilities ``input`` (or ``p``); recorded with a zero gradient, as torch does."""
    prob = input._data if p is None else p
    draws = numpy_generator(generator).random(input._data.shape) < prob
    return _DRAWS["Bernoulli"].apply(input, values=draws)


@register
def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input`` (a floating tensor); recorded with a zero gradient."""
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_dtype.C_NAMES[input.dtype]}'")
    return _DRAWS["Poisson"].apply(input, values=numpy_generator(generator).poisson(input._data))


@register(method=False)
def binomial(count, prob, generator=None) -> Tensor:
    """Binomial samples: successes in ``count`` trials of probability ``prob`` (floating tensors)."""
    if count._data.dtype.kind != "f":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{_dtype.C_NAMES[count.dtype]}")
    n, p = np.broadcast_arrays(count._data, prob._data)
    draws = numpy_generator(generator).binomial(n.astype(np.int64), p)
    return _BinomialDraw.apply(count, prob, values=draws)


@register
def multinomial(input, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices sampled from the rows of ``input`` (unnormalised probabilities)."""
    probs = np.atleast_2d(input._data.astype(np.float64))
    gen = numpy_generator(generator)
    if replacement:  # inverse CDF: the first category whose cumulative probability exceeds a uniform draw
        cdf = np.cumsum(probs, axis=1)
        u = gen.random((probs.shape[0], num_samples, 1)) * cdf[:, None, -1:]
        out = np.minimum((u >= cdf[:, None, :]).sum(-1), probs.shape[1] - 1)
    else:  # exponential race: the categories whose draws divided by their probability are smallest
        with np.errstate(divide="ignore"):
            keys = gen.exponential(size=probs.shape) / probs
        out = np.argsort(keys, axis=1, kind="stable")[:, :num_samples]
    out = out.astype(np.int64)
    return _leaf(out if input._data.ndim == 2 else out[0])


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


def _fill_random(t, kind: str, values):
    return _FILLS[kind].apply(t, values=values)


def _check_positive(name: str, what: str, value: float) -> None:
    if not value > 0.0:
        raise RuntimeError(f"{name} expects {what} > 0.0, but found {what}={value:g}")


@register(top_level=False)
def uniform_(self, a: float = 0.0, b: float = 1.0, *, generator=None):
    return _fill_random(self, "Uniform", _samples(lambda g, s, dt: g.uniform(a, b, s), numpy_generator(generator),
                                                  self._data.shape, self._data.dtype, False))


@register(top_level=False)
def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
    shift = mean * (1 + 1j) if self._data.dtype.kind == "c" else mean  # torch shifts both parts of complex ones
    return _fill_random(self, "Normal", _samples(lambda g, s, dt: g.normal(0.0, std, s), numpy_generator(generator),
                                                 self._data.shape, self._data.dtype, True) + shift)


@register(top_level=False)
def bernoulli_(self, p: float = 0.5, *, generator=None):
    return _fill_random(self, "Bernoulli", numpy_generator(generator).random(self._data.shape) < p)


@register(top_level=False)
def random_(self, from_: int = 0, to: int | None = None, *, generator=None):
    if to is None:
        from_, to = 0, (from_ if from_ else 2 ** 24 if self._data.dtype.kind == "f" else np.iinfo(np.int64).max)
    return _fill_random(self, "Random", numpy_generator(generator).integers(from_, to, self._data.shape))


@register(top_level=False)
def exponential_(self, lambd: float = 1.0, *, generator=None):
    return _fill_random(self, "Exponential", numpy_generator(generator).exponential(1.0 / lambd, self._data.shape))


@register(top_level=False)
def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *, generator=None):
    _check_positive("cauchy_", "sigma", sigma)
    draws = median + sigma * numpy_generator(generator).standard_cauchy(self._data.shape)
    return _fill_random(self, "Cauchy", draws)


@register(top_level=False)
def log_normal_(self, mean: float = 1.0, std: float = 2.0, *, generator=None):
    _check_positive("log_normal_", "std", std)
    return _fill_random(self, "LogNormal", numpy_generator(generator).lognormal(mean, std, self._data.shape))


@register(top_level=False)
def geometric_(self, p: float, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return _fill_random(self, "Geometric", numpy_generator(generator).geometric(p, self._data.shape))


# ---- factories from an existing tensor (Tensor methods) ----------------------------------------------
@register(top_level=False)
def new_tensor(self, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_zeros(self, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return zeros(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_ones(self, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return ones(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_empty(self, *size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return empty(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


@register(top_level=False)
def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False) -> Tensor:
    return full(size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


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
    return _leaf(np.empty(_size(args), dtype.np))


def _legacy(dt):
    def constructor(*args, **kwargs):
        return legacy_new(args, kwargs, dt)
    constructor.__name__ = dt.legacy_name.split(".")[-1]
    return constructor


FloatTensor = _legacy(_dtype.float32)
DoubleTensor = _legacy(_dtype.float64)
HalfTensor = _legacy(_dtype.float16)
LongTensor = _legacy(_dtype.int64)
IntTensor = _legacy(_dtype.int32)
ShortTensor = _legacy(_dtype.int16)
CharTensor = _legacy(_dtype.int8)
ByteTensor = _legacy(_dtype.uint8)
BoolTensor = _legacy(_dtype.bool)
