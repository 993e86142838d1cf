"""Comparisons, logical and bitwise ops, and value tests (isnan, allclose, ...): no gradients."""
from __future__ import annotations

import builtins

import numpy as np

from .._tensor import Tensor
from .._dtype import wrap_int
from .broadcast import _scalar, binary, broadcast_shape, shape_mismatch
from .._registry import register

_ndarray = np.ndarray


def _array_of(x):
    return x._data if isinstance(x, Tensor) else x


def _compare(ufunc):
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        if type(b) is not _ndarray:
            b = _scalar(b)
            if type(b) is int and a.dtype.kind in "iu" and not _fits(b, a.dtype):
                b = wrap_int(b, a.dtype)  # torch compares in the tensor's dtype: -1 is 255 for uint8
        try:
            return Tensor._wrap(np.asarray(ufunc(a, b)))
        except ValueError as e:
            raise shape_mismatch(np.shape(a), np.shape(b)) from e
    op.__name__ = ufunc.__name__
    return op


def _fits(value: int, dt: np.dtype) -> bool:
    info = np.iinfo(dt)
    return info.min <= value <= info.max


eq = register(_compare(np.equal), name="eq")
ne = register(_compare(np.not_equal), name="ne", aliases=("not_equal",))
lt = register(_compare(np.less), name="lt", aliases=("less",))
le = register(_compare(np.less_equal), name="le", aliases=("less_equal",))
gt = register(_compare(np.greater), name="gt", aliases=("greater",))
ge = register(_compare(np.greater_equal), name="ge", aliases=("greater_equal",))
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne
logical_and = register(_compare(np.logical_and), name="logical_and")
logical_or = register(_compare(np.logical_or), name="logical_or")
logical_xor = register(_compare(np.logical_xor), name="logical_xor")


def _bitwise(ufunc, name):
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        if np.result_type(a).kind == "f" or (type(b) is not _ndarray and isinstance(b, float)):
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Float'")
        return Tensor._wrap(np.asarray(binary(ufunc, a, b)))
    return op


bitwise_and = register(_bitwise(np.bitwise_and, "bitwise_and"), name="bitwise_and")
bitwise_or = register(_bitwise(np.bitwise_or, "bitwise_or"), name="bitwise_or")
bitwise_xor = register(_bitwise(np.bitwise_xor, "bitwise_xor"), name="bitwise_xor")


@register
def logical_not(input):
    return Tensor._wrap(np.logical_not(input._data))


@register
def bitwise_not(input):
    if input._data.dtype.kind == "f":
        raise NotImplementedError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return Tensor._wrap(np.invert(input._data))


@register
def isnan(input):
    return Tensor._wrap(np.isnan(input._data))


@register
def isinf(input):
    return Tensor._wrap(np.isinf(input._data))


@register
def isfinite(input):
    return Tensor._wrap(np.isfinite(input._data))


@register
def isposinf(input):
    return Tensor._wrap(np.isposinf(input._data))


@register
def isneginf(input):
    return Tensor._wrap(np.isneginf(input._data))


@register
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (tensors of one dtype)."""
    a, b = _same_dtype(input, other)
    return Tensor._wrap(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


@register
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True when ``|input - other| <= atol + rtol * |other|`` everywhere."""
    a, b = _same_dtype(input, other)
    return builtins.bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _same_dtype(input, other):
    """The arrays of two tensors that must share a dtype and broadcast together, with torch's errors."""
    a, b = input._data, other._data
    if a.dtype != b.dtype:
        from .._dtype import C_NAMES, from_numpy_dtype
        raise RuntimeError(f"{C_NAMES[from_numpy_dtype(a.dtype)]} did not match {C_NAMES[from_numpy_dtype(b.dtype)]}")
    broadcast_shape(a.shape, b.shape)
    return a, b


@register
def equal(input, other) -> bool:
    """True when both tensors have the same shape and elements."""
    return input._data.shape == other._data.shape and builtins.bool(np.array_equal(input._data, other._data))


@register
def signbit(input):
    return Tensor._wrap(np.signbit(input._data))
