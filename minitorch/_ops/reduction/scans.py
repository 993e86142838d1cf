"""Scans along a dim: cumprod, cummax/cummin, logcumsumexp, the in-place cumsum_/cumprod_, and the
compositions built on running sums and differences (diff, trapezoid, cumulative_trapezoid, gradient)."""
from __future__ import annotations

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.function import Op
from ..elementwise.clamp import where
from ..shape.indexing import narrow, put_along
from .sums import Cumsum, ProdDim, cumsum
from ..return_types import _return_type, return_types
from .sums import sum as sum_
from ..elementwise.unary import exp, log
from ..shape.view import flip
from ..shape.joins import cat

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
        if ctx._as_tensors:  # zeros, under create_graph: every product of the others, in the graph (n x n a line)
            return _cumprod_grad_in_graph(g, a, d)
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


def _cumprod_grad_in_graph(g, a, d):
    """sum over j >= i of g_j times the product of a_0..a_j without a_i, as tensor ops."""
    lines = a.movedim(d, -1)
    n = lines.shape[-1]
    others = cumprod(where(Tensor._wrap(np.eye(n, dtype=bool)), 1.0, lines.unsqueeze(-2)), -1)  # [.., i, j]
    later = Tensor._wrap(np.triu(np.ones((n, n), bool)))
    return sum_(where(later, others * g.movedim(d, -1).unsqueeze(-2), 0.0), -1).movedim(-1, d)


_Cumprod_, _Cumsum_ = Cumprod.inplace_variant(), Cumsum.inplace_variant()


def _scan_input(input, dtype):
    return input if dtype is None else input.to(_dtype.to_dtype(dtype))


@register(out=True)
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
        ctx.dim = dim
        work = a.reshape(1) if a.ndim == 0 else a
        values = cls.ufunc.accumulate(work, axis=dim) if work.shape[dim] else work.copy()
        hit = work == values
        if a.dtype.kind in "fV":
            hit |= np.isnan(work)
        positions = np.arange(work.shape[dim]).reshape((-1,) + (1,) * (work.ndim - dim - 1))
        indices = np.maximum.accumulate(np.where(hit, positions, 0), axis=dim) if work.size else hit
        indices = indices.astype(np.int64).reshape(a.shape)
        ctx.save_for_backward(a, indices)  # ``a`` only to check its version, as torch's node does
        return values.reshape(a.shape), indices

    @staticmethod
    def backward(ctx, g, g_indices=None):
        a, indices = ctx.saved_tensors
        shape = np.shape(a) or (1,)  # a 0-dim input scans as a vector of one element
        grad = put_along(g.reshape(shape), indices.reshape(shape), shape, ctx.dim, accumulate=True)
        return grad.reshape(np.shape(a))


class Cummax(_CumExtremum):
    ufunc = np.maximum


class Cummin(_CumExtremum):
    ufunc = np.minimum


@register(out=True)
def cummax(input, dim: int):
    """Running maximum along ``dim`` and the index where each was reached (ties: the latest)."""
    return return_types.cummax(*Cummax.apply(input, dim=_scan_dim(input, dim)))


@register(out=True)
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

        lowest = float(np.finfo((a if type(a) is _ndarray else a._data).dtype).min) / 2  # not -inf: no inf - inf

        def part(mask):
            log_g = where(mask, log(where(mask, abs(g), 1.0)), lowest)
            return exp(a + flip(Logcumsumexp.apply(flip(log_g - out, d), dim=d), d))
        return part(g > 0) - part(g < 0)


@register(out=True)
def logcumsumexp(input, dim: int):
    """``log(cumsum(exp(input), dim))``, computed stably."""
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_dtype.C_NAMES[input.dtype]}'")
    return Logcumsumexp.apply(input, dim=_scan_dim(input, dim))


# ---- differences and integrals ------------------------------------------------------------------------
@register(out=True)
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
        return d, dx, ends
    if dx != 1:  # torch's overloads take x or dx, not both
        raise TypeError("trapezoid() received an invalid combination of arguments: x and dx given together")
    if not isinstance(x, Tensor):
        return d, float(x), ends
    if x._data.ndim == 1:
        if x._data.shape[0] != n:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        x = x.reshape((-1,) + (1,) * (y._data.ndim - d - 1))
        return d, diff(x, dim=0) if n else 0.0, ends
    return d, diff(x, dim=d) if n else 0.0, ends


@register(method=False)
def trapezoid(y, x=None, *, dx=1, dim: int = -1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``)."""
    d, width, ends = _trapezoid_parts(y, x, dx, dim)
    n = y._data.shape[d]
    if isinstance(width, Tensor) or not n:
        return sum_(width * ends, d) / 2
    # a constant step: torch's sum minus half the two ends (inf at one end and -inf inside give NaN)
    return (sum_(y, d) - (narrow(y, d, 0, 1) + narrow(y, d, n - 1, 1)).squeeze(d) * 0.5) * width


@register(method=False)
def trapz(y, x=None, *, dx=1, dim: int = -1):
    """Alias of ``trapezoid``."""
    return trapezoid(y, x, dx=dx, dim=dim)


@register(method=False)
def cumulative_trapezoid(y, x=None, *, dx=1, dim: int = -1):
    """Running integrals of ``y`` along ``dim`` by the trapezoidal rule (one fewer than the samples)."""
    d, width, ends = _trapezoid_parts(y, x, dx, dim)
    return cumsum(width * ends / 2, d)


def _gradient_coefficients(x, edge_order):
    """Weights of (f[i-1], f[i], f[i+1]) for the derivative at interior sample points ``x`` (numpy's
    second-order formula, exact for quadratics) and of the first/last three samples at the two ends."""
    dx1, dx2 = x[1:-1] - x[:-2], x[2:] - x[1:-1]
    interior = (-dx2 / (dx1 * (dx1 + dx2)), (dx2 - dx1) / (dx1 * dx2), dx1 / (dx2 * (dx1 + dx2)))
    if edge_order == 1:
        h0, h1 = x[1] - x[0], x[-1] - x[-2]
        return interior, (-1 / h0, 1 / h0, 0.0), (0.0, -1 / h1, 1 / h1)
    a, b = x[1] - x[0], x[2] - x[1]
    first = (-(2 * a + b) / (a * (a + b)), (a + b) / (a * b), -a / (b * (a + b)))
    a, b = x[-2] - x[-3], x[-1] - x[-2]
    last = (b / (a * (a + b)), -(a + b) / (a * b), (2 * b + a) / (b * (a + b)))
    return interior, first, last


def _derivative(f, d, x, edge_order):
    n = f._data.shape[d]
    interior, first, last = _gradient_coefficients(np.asarray(x, np.float64), edge_order)
    along = (-1,) + (1,) * (f._data.ndim - d - 1)
    dtype = f._data.dtype

    def weighted(weights, starts, length):
        terms = []
        for w, s in zip(weights, starts):
            w = np.asarray(w, dtype)
            if w.ndim or w != 0:
                terms.append(narrow(f, d, s, length) * (w.reshape(along) if w.ndim else w.item()))
        return terms[0] + terms[1] + (terms[2] if len(terms) > 2 else 0)
    ends = (0, 1, 2) if edge_order == 2 else (0, 1, 1)
    return cat([weighted(first, ends, 1), weighted(interior, (0, 1, 2), n - 2),
                weighted(last, (n - 3, n - 2, n - 1) if edge_order == 2 else (n - 2, n - 2, n - 1), 1)], d)


@register(method=False)
def gradient(input, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:
    """The derivative of the samples ``input`` along each of ``dim`` (all dims by default) by central
    differences, one-sided at the ends (``edge_order`` 1 or 2); ``spacing``: a step, one per dim, or the
    sample coordinates (1-D tensors), one per dim."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    ndim = input._data.ndim
    dims = list(range(ndim)) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [_wrap_dim(k, ndim) for k in dims]
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(steps) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {len(steps)} "
                           f"and a dim argument of length {len(dims)}.")
    if input._data.dtype.kind not in "fV":
        input = input.to(_dtype.get_default_dtype())
    out = []
    for d, step in zip(dims, steps):
        n = input._data.shape[d]
        if n < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
        if isinstance(step, Tensor) and step._data.ndim:
            out.append(_derivative(input, d, step._data, edge_order))
        else:
            out.append(_uniform_derivative(input, d, float(step._data if isinstance(step, Tensor) else step),
                                           edge_order))
    return tuple(out)


def _uniform_derivative(f, d, h, edge_order):
    """torch's formulas for a constant step ``h``: (f[i+1] - f[i-1]) / h / 2 inside (no f[i] term, so a NaN there
    stays put), one-sided differences at the ends."""
    n = f._data.shape[d]

    def at(start, length=1):
        return narrow(f, d, start, length)
    if edge_order == 1:
        first, last = (at(1) - at(0)) / h, (at(n - 1) - at(n - 2)) / h
    else:
        first = (at(0) * -1.5 + at(1) * 2.0 - at(2) * 0.5) / h
        last = (at(n - 3) * 0.5 - at(n - 2) * 2.0 + at(n - 1) * 1.5) / h
    return cat([first, (at(2, n - 2) - at(0, n - 2)) / h / 2, last], d)
