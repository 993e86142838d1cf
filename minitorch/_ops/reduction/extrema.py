"""Extrema: max/min (over everything, or values and indices along a dim), amax/amin and argmax/argmin. Ties share
the gradient of a full reduction; along a dim the gradient goes to the returned index."""
from __future__ import annotations

import numpy as np

from ..._core.function import Op
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..elementwise.clamp import maximum, minimum
from ..return_types import return_types
from ..shape.indexing import put_along
from .sums import _kept_shape, _restore, normalize_dims
from .sums import sum as sum_


class _Extremum(Op):
    """Full max/min (and amax/amin): the gradient is shared equally among tied elements."""

    fn = None
    op_name = ""
    nan_wins = False  # max()/min() send the gradient to NaN inputs when the result is NaN (amax/amin do not)

    @classmethod
    def forward(cls, ctx, a, dims=None, keepdim=False):
        if a.size == 0 and dims is None:
            raise RuntimeError(f"{cls.op_name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        for d in dims or ():
            if a.shape[d] == 0:
                raise IndexError(f"{cls.op_name}(): Expected reduction dim {d} to have non-zero size.")
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        r = np.asarray(cls.fn(a, axis=dims, keepdims=keepdim))
        ctx.save_for_backward(a, r)
        return r

    @classmethod
    def backward(cls, ctx, g):
        a, r = ctx.saved_tensors
        r = _restore(r, ctx.in_shape, ctx.dims, ctx.keepdim)
        hit = a == r
        if cls.nan_wins and (r != r).any():  # a NaN result (x != x: x is NaN): the NaN inputs get the gradient
            hit = hit | (a != a)
        count = sum_(hit, ctx.dims, keepdim=True)
        return _restore(g, ctx.in_shape, ctx.dims, ctx.keepdim) * hit / count


class Max(_Extremum, name="MaxBackward1"):
    fn, op_name, nan_wins = staticmethod(np.max), "max", True


class Min(_Extremum, name="MinBackward1"):
    fn, op_name, nan_wins = staticmethod(np.min), "min", True


class Amax(_Extremum):
    fn, op_name = staticmethod(np.max), "amax"


class Amin(_Extremum):
    fn, op_name = staticmethod(np.min), "amin"


class _ExtremumDim(Op):
    """max/min along a dim: values and indices; the gradient goes to the returned index."""

    arg = None

    @classmethod
    def forward(cls, ctx, a, dim=0, keepdim=False):
        ctx.in_shape, ctx.dim = a.shape, dim
        work = _as_vector_if_0d(a)
        idx = np.expand_dims(cls.arg(work, axis=dim), dim)
        values = np.take_along_axis(work, idx, dim)
        shape = _kept_shape(a.shape, (dim,)) if keepdim else a.shape[:dim] + a.shape[dim + 1:]
        indices = idx.reshape(shape).astype(np.int64)
        ctx.save_for_backward(indices)
        return values.reshape(shape), indices

    @staticmethod
    def backward(ctx, g, g_indices=None):
        (indices,) = ctx.saved_tensors
        shape = ctx.in_shape or (1,)  # a 0-dim input reduces as a vector of one element
        kept = shape[:ctx.dim] + (1,) + shape[ctx.dim + 1:]
        return put_along(g.reshape(kept), indices.reshape(kept), shape, ctx.dim).reshape(ctx.in_shape)


def _as_vector_if_0d(a):
    """A 0-dim array reduces along dim 0 as a vector of one element."""
    return a if a.ndim else a.reshape(1)


class MaxDim(_ExtremumDim, name="MaxBackward0"):
    arg = staticmethod(np.argmax)


class MinDim(_ExtremumDim, name="MinBackward0"):
    arg = staticmethod(np.argmin)


def _extremum(full_op, dim_op, binary_op, result_type, input, dim, keepdim, other):
    if isinstance(dim, Tensor):
        other, dim = dim, None
    if other is not None:
        return binary_op(input, other)
    if dim is None:
        return full_op.apply(input)
    if input._data.ndim and input._data.shape[_wrap_dim(dim, input._data.ndim)] == 0:
        raise IndexError(f"{result_type.__name__}(): Expected reduction dim {dim} to have non-zero size.")
    values, indices = dim_op.apply(input, dim=_wrap_dim(dim, input._data.ndim), keepdim=keepdim)
    return result_type(values, indices)


@register(out=True)
def max(input, dim=None, keepdim=False, *, other=None):  # noqa: A001
    """The largest element; with ``dim``, (values, indices) along it; with a tensor, the elementwise maximum."""
    return _extremum(Max, MaxDim, maximum, return_types.max, input, dim, keepdim, other)


@register(out=True)
def min(input, dim=None, keepdim=False, *, other=None):  # noqa: A001
    """The smallest element; with ``dim``, (values, indices) along it; with a tensor, the elementwise minimum."""
    return _extremum(Min, MinDim, minimum, return_types.min, input, dim, keepdim, other)


@register(out=True)
def amax(input, dim=(), keepdim=False):
    """Largest values over ``dim`` (all dims by default); ties share the gradient."""
    return Amax.apply(input, dims=normalize_dims(dim, input._data.ndim), keepdim=keepdim)


@register(out=True)
def amin(input, dim=(), keepdim=False):
    """Smallest values over ``dim`` (all dims by default); ties share the gradient."""
    return Amin.apply(input, dims=normalize_dims(dim, input._data.ndim), keepdim=keepdim)


@register(differentiable=False, out=True)
def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (of the flattened tensor when ``dim`` is None)."""
    return _arg(np.argmax, input, dim, keepdim)


@register(differentiable=False, out=True)
def argmin(input, dim=None, keepdim=False):
    """Index of the smallest element (of the flattened tensor when ``dim`` is None)."""
    return _arg(np.argmin, input, dim, keepdim)


def _arg(fn, input, dim, keepdim):
    a = input._data
    name = fn.__name__
    if dim is None and a.size == 0:
        raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
    if dim is not None and a.ndim and a.shape[_wrap_dim(dim, a.ndim)] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    if dim is None:
        r = np.asarray(fn(a))
        return Tensor._wrap(r.reshape((1,) * a.ndim) if keepdim else r)
    d = _wrap_dim(dim, a.ndim)
    r = np.asarray(fn(_as_vector_if_0d(a), axis=d, keepdims=keepdim)).astype(np.int64)
    return Tensor._wrap(r if a.ndim else r.reshape(()))
