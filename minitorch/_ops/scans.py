"""Scans along a dim: cumprod, cummax/cummin, logcumsumexp, the in-place cumsum_/cumprod_, and the
compositions built on running sums and differences (diff, trapezoid, cumulative_trapezoid, gradient)."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from .._registry import register
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Op
from .arithmetic import where
from .indexing import IndexScatter, _along, narrow
from .reduction import Cumsum, ProdDim, _return_type, cumsum, return_types
from .reduction import sum as sum_
from .unary import exp, log
from .view import cat, flip

return_types.cummax = _return_type("cummax")
return_types.cummin = _return_type("cummin")
_ndarray = np.ndarray


def _reverse_cumsum(x, dim):
    return flip(cumsum(flip(x, dim), dim), dim)


def _scan_dim(input, dim) -> int:
    return _wrap_dim(dim, max(np.ndim(input), 1))


class Cumprod(Op):
    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.dim = dim
        out = np.cumprod(a, axis=dim, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype).reshape(a.shape)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        d = ctx.dim
        arr = a if type(a) is _ndarray else a._data
        if arr.ndim == 0:
            return g
        if not (arr == 0).any():
            return _reverse_cumsum(g * out, d) / a
        # With zeros: before the first zero of a line the usual formula holds; at the first zero the gradient
        # is (product of what precedes it) x sum over later outputs of g times the product of the factors after
        # the zero; after it every derivative holds that zero factor.
        zeros = np.cumsum(arr == 0, axis=d)
        before, first = zeros == 0, (zeros == 1) & (arr == 0)
        after = zeros >= 1
        safe = where(before, a, 1.0)
        grad_before = where(before, _reverse_cumsum(where(before, g * out, 0.0), d) / safe, 0.0)
        tail = cumprod(where(after & ~first, a, 1.0), d)
        at_zero = ProdDim.apply(safe, dim=d, keepdim=True) * sum_(where(after, g * tail, 0.0), d, keepdim=True)
        return grad_before + where(first, at_zero, 0.0)


_Cumprod_, _Cumsum_ = Cumprod.inplace_variant(), Cumsum.inplace_variant()


def _scan_input(input, dtype):
    return input if dtype is None else input.to(_dtype.to_dtype(dtype))


@register
def cumprod(input, dim: int, *, dtype=None):
    """Running products along ``dim``."""
    return Cumprod.apply(_scan_input(input, dtype), dim=_scan_dim(input, dim))


@register(top_level=False)
def cumprod_(input, dim: int, *, dtype=None):
    return _Cumprod_.apply(input, dim=_scan_dim(input, dim))


@register(top_level=False)
def cumsum_(input, dim: int, *, dtype=None):
    return _Cumsum_.apply(input, dim=_scan_dim(input, dim))


class _CumExtremum(Op):
    """cummax/cummin: running extremes and the (latest) index where each was reached; NaN propagates."""

    ufunc = None

    @classmethod
    def forward(cls, ctx, a, dim=0):
        ctx.shape, ctx.dim = a.shape, dim
        work = a.reshape(1) if a.ndim == 0 else a
        values = cls.ufunc.accumulate(work, axis=dim) if work.shape[dim] else work.copy()
        hit = work == values
        if a.dtype.kind == "f":
            hit |= np.isnan(work)
        positions = np.arange(work.shape[dim]).reshape((-1,) + (1,) * (work.ndim - dim - 1))
        indices = np.maximum.accumulate(np.where(hit, positions, 0), axis=dim) if work.size else hit.astype(np.int64)
        ctx.index = indices
        return values.reshape(a.shape), indices.astype(np.int64).reshape(a.shape)

    @staticmethod
    def backward(ctx, g, g_indices=None):
        shape = ctx.index.shape
        r = IndexScatter.apply(g.reshape(shape), shape=shape, index=_along(ctx.index, ctx.dim), accumulate=True)
        return r.reshape(ctx.shape)


class Cummax(_CumExtremum):
    ufunc = np.maximum


class Cummin(_CumExtremum):
    ufunc = np.minimum


@register
def cummax(input, dim: int):
    """Running maximum along ``dim`` and the index where each was reached (ties: the latest)."""
    return return_types.cummax(*Cummax.apply(input, dim=_scan_dim(input, dim)))


@register
def cummin(input, dim: int):
    """Running minimum along ``dim`` and the index where each was reached (ties: the latest)."""
    return return_types.cummin(*Cummin.apply(input, dim=_scan_dim(input, dim)))


class Logcumsumexp(Op):
    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.dim = dim
        out = np.logaddexp.accumulate(a, axis=dim) if a.ndim else a.copy()
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, g):
        # d out_j / d a_i = exp(a_i - out_j) for j >= i: summed in log space, positive and negative g apart
        a, out = ctx.saved_tensors
        d = ctx.dim
        if np.ndim(a) == 0:
            return g

        def part(mask):
            log_g = where(mask, log(where(mask, abs(g), 1.0)), float("-inf"))
            return exp(a + flip(Logcumsumexp.apply(flip(log_g - out, d), dim=d), d))
        return part(g > 0) - part(g < 0)


@register
def logcumsumexp(input, dim: int):
    """``log(cumsum(exp(input), dim))``, computed stably."""
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_dtype.C_NAMES[input.dtype]}'")
    return Logcumsumexp.apply(input, dim=_scan_dim(input, dim))


# ---- differences and integrals ------------------------------------------------------------------------
@register
def diff(input, n: int = 1, dim: int = -1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (after concatenating ``prepend`` and ``append``)."""
    if input._data.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _wrap_dim(dim, input._data.ndim)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], d)
    for _ in range(n):
        length = input._data.shape[d]
        if length == 0:
            break
        hi, lo = narrow(input, d, 1, length - 1), narrow(input, d, 0, length - 1)
        input = hi ^ lo if input._data.dtype == np.bool_ else hi - lo
    return input


def _trapezoid_parts(y, x, dx, dim):
    """Per interval along ``dim``: the width (a number or a tensor) and the sum of the two ends."""
    d = _wrap_dim(dim, y._data.ndim)
    n = y._data.shape[d]
    ends = narrow(y, d, 1, n - 1) + narrow(y, d, 0, n - 1) if n else narrow(y, d, 0, 0)
    if x is None:
        return d, (1.0 if dx is None else dx), ends
    if not isinstance(x, Tensor):
        return d, float(x), ends
    if x._data.ndim == 1:
        if x._data.shape[0] != n:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        x = x.reshape((-1,) + (1,) * (y._data.ndim - d - 1))
        return d, diff(x, dim=0) if n else 0.0, ends
    return d, diff(x, dim=d) if n else 0.0, ends


@register(method=False)
def trapezoid(y, x=None, *, dx=None, dim: int = -1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    d, width, ends = _trapezoid_parts(y, x, dx, dim)
    return sum_(width * ends, d) / 2


@register(method=False)
def trapz(y, x=None, *, dx=None, dim: int = -1):
    """Alias of ``trapezoid``."""
    return trapezoid(y, x, dx=dx, dim=dim)


@register(method=False)
def cumulative_trapezoid(y, x=None, *, dx=None, dim: int = -1):
    """Running integrals of ``y`` along ``dim`` by the trapezoidal rule (one fewer than the samples)."""
    d, width, ends = _trapezoid_parts(y, x, dx, dim)
    return cumsum(width * ends / 2, d)
