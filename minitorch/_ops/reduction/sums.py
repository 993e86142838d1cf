"""Reductions over dims: sum, mean, prod, var/std, logsumexp, all/any, count_nonzero, and cumsum along a dim (max
and min are in ``extrema.py``, softmax in ``softmax.py``).

Gradients flow back through ``_restore``: the reduced gradient gets its
reduced dims back (size 1) and is broadcast to the input's shape.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from ..amp import full_precision
from ... import _dtype
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.function import Op
from ..elementwise.clamp import where
from ..elementwise.broadcast import floating
from ..elementwise.unary import exp
from ..shape.view import dims_arg, expand, flip
from ..._core.registry import register

_ndarray = np.ndarray


def normalize_dims(dim, ndim: int):
    """``dim`` (None, int or sequence) as a sorted tuple of non-negative dims, or None for all."""
    if dim is None:
        return None
    dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
    if not dims:
        return None
    out = tuple(_wrap_dim(int(d), ndim) for d in dims)
    for d in out:
        if out.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(out)) if ndim else ()  # dim 0 (or -1) of a 0-dim tensor is the tensor itself


def _axis(dims):
    return None if dims is None else dims


def _kept_shape(in_shape, dims):
    """``in_shape`` with the reduced dims set to 1."""
    if dims is None:
        return (1,) * len(in_shape)
    return tuple(1 if i in dims else s for i, s in enumerate(in_shape))


def _restore(g, in_shape, dims, keepdim):
    """Broadcast a reduced gradient back to the input's shape."""
    if not keepdim:
        g = g.reshape(_kept_shape(in_shape, dims))
    return expand(g, in_shape)


def _dims_and_keep(dim, keepdim, axis, keepdims, ndim):
    if axis is not None:
        dim = axis
    if keepdims is not None:
        keepdim = keepdims
    return normalize_dims(dim, ndim), bool(keepdim), dim is not None


def _int_accumulator(a):
    """torch sums and multiplies integers and bools as int64."""
    if a.dtype.kind in "biu" and a.dtype != np.int64:
        return a.astype(np.int64)
    return a


class Sum(Op):
    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        return np.asarray(a.sum(axis=_axis(dims), keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        return _restore(g, ctx.in_shape, ctx.dims, ctx.keepdim)


SumDim = Sum.named("SumDim", "SumBackward1")


@register(out=True)
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):  # noqa: A001
    """Sum over all elements or over ``dim``."""
    dims, keep, given = _dims_and_keep(dim, keepdim, axis, keepdims, np.ndim(input))
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fcV":
        return Tensor._wrap(np.asarray(_int_accumulator(input._data).sum(axis=_axis(dims), keepdims=keep)))
    return (SumDim if given or keep else Sum).apply(input, dims=dims, keepdim=keep)


class Mean(Op):
    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        ctx.count = a.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
        return np.asarray(a.mean(axis=_axis(dims), keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        return _restore(g / ctx.count, ctx.in_shape, ctx.dims, ctx.keepdim)


MeanDim = Mean.named("MeanDim", "MeanBackward1")


@register(out=True)
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None, keepdims=None):
    """Mean over all elements or over ``dim`` (floating-point tensors only)."""
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if isinstance(input, Tensor) and input._data.dtype.kind not in "fcV":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                           f"complex dtype. Got: {_dtype.C_NAMES[input.dtype]}")
    dims, keep, given = _dims_and_keep(dim, keepdim, axis, keepdims, np.ndim(input))
    return (MeanDim if given or keep else Mean).apply(input, dims=dims, keepdim=keep)


class Prod(Op):
    @staticmethod
    def forward(ctx, a, dim=None, keepdim=False):
        ctx.in_shape, ctx.dim, ctx.keepdim = a.shape, dim, keepdim
        r = np.asarray(a.prod(axis=dim, keepdims=keepdim))
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        dims = None if ctx.dim is None else (ctx.dim,)
        g_full = _restore(g, ctx.in_shape, dims, ctx.keepdim)
        arr = a if type(a) is _ndarray else a._data
        if not (arr == 0).any():
            return g_full * _restore(r, ctx.in_shape, dims, ctx.keepdim) / a
        # exact where some factors are zero; in the graph under create_graph
        return g_full * (_prod_of_others_in_graph(a, ctx.dim) if ctx._as_tensors else _prod_of_others(arr, ctx.dim))


ProdDim = Prod.named("ProdDim", "ProdBackward1")


def _prod_of_others(a, dim):
    """For each element, the product of the other elements in its reduction (zeros handled exactly)."""
    flat = a.reshape(-1) if dim is None else np.moveaxis(a, dim, -1)
    ones = np.ones(flat.shape[:-1] + (1,), a.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    right = np.cumprod(np.concatenate([ones, flat[..., :0:-1]], -1), -1)[..., ::-1]
    out = left * right
    return out.reshape(a.shape) if dim is None else np.moveaxis(out, -1, dim)


def _prod_of_others_in_graph(a, dim):
    """``_prod_of_others`` as tensor ops (n x n per reduction: only the create_graph path with zeros uses it)."""
    flat = a.reshape(-1) if dim is None else a.movedim(dim, -1)
    n = flat.shape[-1]
    out = where(Tensor._wrap(np.eye(n, dtype=bool)), 1.0, flat.unsqueeze(-2)).prod(-1)
    return out.reshape(a.shape) if dim is None else out.movedim(-1, dim)


@register(out=True)
@register
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """Product of all elements or along one ``dim``."""
    input = full_precision(input)
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if input._data.dtype.kind not in "fV":
        return Tensor._wrap(np.asarray(_int_accumulator(input._data).prod(
            axis=None if dim is None else _wrap_dim(dim, input.ndim), keepdims=keepdim)))
    if dim is None:
        return Prod.apply(input)
    return ProdDim.apply(input, dim=_wrap_dim(dim, input._data.ndim), keepdim=keepdim)


# ---- statistics -------------------------------------------------------------------------------
class Var(Op):
    @staticmethod
    def forward(ctx, a, dims=None, correction=1, keepdim=False):
        _note_reduction(ctx, a, dims, correction, keepdim)
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(a.var(axis=dims, ddof=correction, keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        a = ctx.saved_tensors[0]
        centered = a - mean(a, ctx.dims, keepdim=True)
        return _restore(g, ctx.in_shape, ctx.dims, ctx.keepdim) * centered * (2.0 / ctx.denominator)


class Std(Op):
    @staticmethod
    def forward(ctx, a, dims=None, correction=1, keepdim=False):
        _note_reduction(ctx, a, dims, correction, keepdim)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.asarray(a.std(axis=dims, ddof=correction, keepdims=keepdim))
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        centered = a - mean(a, ctx.dims, keepdim=True)
        scale = where(r == 0, 0.0, g / (r * ctx.denominator))  # torch: no gradient where the std is 0
        return _restore(scale, ctx.in_shape, ctx.dims, ctx.keepdim) * centered


def _note_reduction(ctx, a, dims, correction, keepdim):
    ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
    ctx.count = a.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
    ctx.denominator = _denominator(ctx.count, correction)


class _WithMean(Op):
    """A statistic and the mean in one node (``var_mean``, ``std_mean``), as torch records them."""

    statistic = Var

    @classmethod
    def forward(cls, ctx, a, dims=None, correction=1, keepdim=False):
        return cls.statistic.forward(ctx, a, dims, correction, keepdim), np.asarray(a.mean(axis=dims, keepdims=keepdim))

    @classmethod
    def backward(cls, ctx, g_statistic, g_mean):
        grad = None if g_statistic is None else cls.statistic.backward(ctx, g_statistic)
        if g_mean is not None:
            g_m = _restore(g_mean / ctx.count, ctx.in_shape, ctx.dims, ctx.keepdim)
            grad = g_m if grad is None else grad + g_m
        return grad


class VarMean(_WithMean):
    statistic = Var


class StdMean(_WithMean):
    statistic = Std


def _denominator(n, correction):
    if n - correction <= 0:
        warnings.warn("var(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).", UserWarning, stacklevel=4)
    return builtins.max(n - correction, 0) or float("nan")


def _var_args(input, dim, unbiased, keepdim, correction):
    if input._data.dtype.kind not in "fV":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, builtins.bool):  # var(x, False): the legacy unbiased argument
        unbiased, dim = dim, None
    if correction is None:
        correction = 1 if unbiased else 0
    return dict(dims=normalize_dims(dim, input._data.ndim), correction=correction, keepdim=keepdim)


@register(out=True)
def var(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """Variance, with Bessel's correction by default (``correction=1``)."""
    return Var.apply(input, **_var_args(input, dim, unbiased, keepdim, correction))


@register(out=True)
def std(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """Standard deviation, with Bessel's correction by default (``correction=1``)."""
    return Std.apply(input, **_var_args(input, dim, unbiased, keepdim, correction))


@register(out=True, method=False)
def var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(var, mean)`` over the same dims."""
    return VarMean.apply(input, **_var_args(input, dim, unbiased, keepdim, correction))


@register(out=True, method=False)
def std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None):
    """``(std, mean)`` over the same dims."""
    return StdMean.apply(input, **_var_args(input, dim, unbiased, keepdim, correction))


class Logsumexp(Op):
    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        a = floating(a)
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        m = a.max(axis=dims, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)
        s = np.exp(a - m).sum(axis=dims, keepdims=True)
        with np.errstate(divide="ignore"):
            r = np.log(s) + m
        if not keepdim:
            r = np.asarray(r.squeeze(dims))
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        if not ctx.keepdim:
            kept = _kept_shape(ctx.in_shape, ctx.dims)
            g, r = g.reshape(kept), r.reshape(kept)
        return g * exp(a - r)


@register(out=True)
def logsumexp(input, dim, keepdim=False):
    """``log(sum(exp(input), dim))``, computed stably."""
    return Logsumexp.apply(input, dims=normalize_dims(dim, input._data.ndim) or tuple(range(input.ndim)),
                           keepdim=keepdim)


class Cumsum(Op):
    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.dim = dim
        return np.cumsum(a, axis=dim, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype).reshape(a.shape)

    @staticmethod
    def backward(ctx, g):
        return flip(cumsum(flip(g, ctx.dim), ctx.dim), ctx.dim)


@register(out=True)
def cumsum(input, dim: int, *, dtype=None):
    """Running sums along ``dim``."""
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    return Cumsum.apply(input, dim=_wrap_dim(dim, np.ndim(input)))


@register(differentiable=False, out=True)
def all(input, dim=None, keepdim=False):  # noqa: A001
    dims = normalize_dims(dim, input._data.ndim)
    return Tensor._wrap(np.asarray(np.all(input._data, axis=dims, keepdims=keepdim)))


@register(differentiable=False, out=True)
def any(input, dim=None, keepdim=False):  # noqa: A001
    dims = normalize_dims(dim, input._data.ndim)
    return Tensor._wrap(np.asarray(np.any(input._data, axis=dims, keepdims=keepdim)))


@register(differentiable=False)
def count_nonzero(input, *args, dim=None):
    dims = normalize_dims(dims_arg(args, dim, "count_nonzero"), input._data.ndim)
    return Tensor._wrap(np.asarray(np.count_nonzero(input._data, axis=dims)).astype(np.int64))
