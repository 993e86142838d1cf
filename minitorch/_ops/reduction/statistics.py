"""NaN-skipping reductions (nansum, nanmean), aminmax, quantiles, covariance and correlation, dist and renorm."""
from __future__ import annotations

import warnings

import numpy as np

from ..amp import full_precision, lower_precision
from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.function import Op
from ..elementwise.arithmetic import lerp
from ..elementwise.clamp import clamp, where
from ..shape.copying import copy_
from ..shape.indexing import gather
from .norm import LinalgVectorNorm, norm_backward, vector_norm
from .sums import _dims_and_keep, _kept_shape, _restore, mean
from ..return_types import _return_type, return_types
from .sums import sum as sum_
from .sorting import sort
from ..elementwise.unary import sqrt

return_types.aminmax = _return_type("aminmax", ("min", "max"))


class Nansum(Op):
    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        ctx.save_for_backward(a)
        return np.asarray(np.nansum(a, axis=dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(a != a, 0.0, _restore(g, ctx.in_shape, ctx.dims, ctx.keepdim))  # x != x: x is NaN


@register(out=True)
def nansum(input, dim=None, keepdim: bool = False, *, dtype=None):
    """``sum`` with NaN counted as zero."""
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if input._data.dtype.kind not in "fV":
        return sum_(input, dim, keepdim)
    dims, keep, _ = _dims_and_keep(dim, keepdim, None, None, input._data.ndim)
    return Nansum.apply(input, dims=dims, keepdim=keep)


@register(out=True)
def nanmean(input, dim=None, keepdim: bool = False, *, dtype=None):
    """``mean`` of the non-NaN values."""
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if input._data.dtype.kind not in "fV":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           + _dtype.C_NAMES[input.dtype].capitalize())
    counted = sum_(Tensor._wrap(~np.isnan(input._data)), dim, keepdim)
    return nansum(input, dim, keepdim) / counted


class Aminmax(Op):
    """``(amin, amax)`` in one node; each shares its gradient among the elements equal to it."""

    @staticmethod
    def forward(ctx, a, dims=None, keepdim=False):
        ctx.in_shape, ctx.dims, ctx.keepdim = a.shape, dims, keepdim
        low, high = np.asarray(a.min(axis=dims, keepdims=keepdim)), np.asarray(a.max(axis=dims, keepdims=keepdim))
        ctx.save_for_backward(a, low, high)
        return low, high

    @staticmethod
    def backward(ctx, g_low, g_high):
        a, low, high = ctx.saved_tensors
        grad = None
        for g, r in ((g_low, low), (g_high, high)):
            if g is not None:
                hit = a == _restore(r, ctx.in_shape, ctx.dims, ctx.keepdim)
                part = _restore(g, ctx.in_shape, ctx.dims, ctx.keepdim) * hit / sum_(hit, ctx.dims, keepdim=True)
                grad = part if grad is None else grad + part
        return grad


@register(out=True)
def aminmax(input, *, dim: int | None = None, keepdim: bool = False):
    """``(amin, amax)`` over ``dim`` (all elements by default)."""
    a = input._data
    if dim is None:
        if a.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        dims = None
    else:
        d = _wrap_dim(dim, a.ndim)
        if a.ndim and a.shape[d] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        dims = (d,) if a.ndim else ()
    return return_types.aminmax(*Aminmax.apply(input, dims=dims, keepdim=keepdim))


# ---- quantiles --------------------------------------------------------------------------------------------
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, skip_nan):
    name = "nanquantile()" if skip_nan else "quantile()"
    a = input._data
    if a.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if a.dtype.kind not in "fV":
        raise RuntimeError(f"{name} input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q._data.ndim > 1:
            raise RuntimeError(f"{name} q must be a scalar or 1D tensor")
        if q._data.dtype != a.dtype:
            raise RuntimeError(f"{name} q tensor must be same dtype as the input tensor")
        qs, scalar = q._data.reshape(-1).astype(np.float64), q._data.ndim == 0
    else:
        qs, scalar = np.asarray([float(q)]), True
    bad = qs[(qs < 0) | (qs > 1)]
    if bad.size:
        raise RuntimeError(f"{name} q " + ("values must be in the range [0, 1]" if not scalar or isinstance(q, Tensor)
                                           else f"must be in the range [0, 1] but got {bad[0]:g}"))
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name} interpolation must be one of linear, lower, higher, midpoint or nearest, but got "
                           f"{interpolation}")
    if dim is None:
        lines, kept = input.reshape(-1), (1,) * a.ndim
    else:
        d = _wrap_dim(dim, a.ndim)
        lines, kept = input.movedim(d, -1) if a.ndim else input.reshape(1), _kept_shape(a.shape, (d,))
    values = sort(lines, -1).values  # NaN sorts last
    n = values._data.shape[-1]
    nan_count = np.isnan(values._data).sum(-1, keepdims=True)
    if skip_nan:  # rank = q * scale + offset, per line
        scale, offset = np.maximum(n - nan_count - 1, 0), 0
    else:  # a NaN in the line: the (NaN) last value
        scale, offset = np.where(nan_count > 0, 0, n - 1), np.where(nan_count > 0, n - 1, 0)
    ranks = qs * scale + offset  # (*lines, len(q)): each line's quantiles side by side in memory, as torch's
    if interpolation == "nearest":
        ranks = np.round(ranks)
    low, high = np.floor(ranks).astype(np.int64), np.ceil(ranks).astype(np.int64)
    if interpolation == "higher":
        out = gather(values, -1, Tensor._wrap(high))
    elif interpolation in ("lower", "nearest"):
        out = gather(values, -1, Tensor._wrap(low))
    else:
        if interpolation == "midpoint":
            weight = 0.5
        elif isinstance(q, Tensor):  # in the graph: q gets its gradient through the weight
            fixed = (nan_count > 0) & (not skip_nan)  # ranks that do not depend on q
            weight = where(fixed, (ranks - low).astype(a.dtype), q * scale.astype(a.dtype) + (offset - low).astype(a.dtype))
        else:
            weight = Tensor._wrap((ranks - low).astype(a.dtype))
        out = lerp(gather(values, -1, Tensor._wrap(low)), gather(values, -1, Tensor._wrap(high)), weight)
    if keepdim:
        shape = kept
    else:
        shape = () if dim is None else a.shape[:d] + a.shape[d + 1:]
    return out.reshape(shape) if scalar else out.reshape(shape + (len(qs),)).movedim(-1, 0)


@register(out=True)
def quantile(input, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear"):
    """The ``q``-th quantiles (``q`` a number or 1-D tensor in [0, 1]) of all elements or along ``dim``;
    NaN where a line holds a NaN."""
    input, q = full_precision(input, q)
    return _quantile(input, q, dim, keepdim, interpolation, False)


@register(out=True)
def nanquantile(input, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear"):
    """``quantile`` of the non-NaN values."""
    input, q = full_precision(input, q)
    return _quantile(input, q, dim, keepdim, interpolation, True)


# ---- covariance ------------------------------------------------------------------------------------------
def _check_weights(w, name, n):
    if w is None:
        return
    if w._data.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                           f"{w._data.ndim} dimensions")
    if w._data.size != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the input "
                           f"but got {w._data.size} != {n}")
    if name == "fweights" and w._data.dtype.kind not in "iu":
        raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                           f"{_dtype.C_NAMES[w.dtype]} dtype")
    if name == "aweights" and w._data.dtype.kind not in "fV":
        raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                           f"{_dtype.C_NAMES[w.dtype]} dtype")
    if not (w._data >= 0).all():  # (a NaN weight fails too, as in torch)
        raise RuntimeError(f"cov(): {name} cannot be negative")


@register
def cov(input, *, correction: int = 1, fweights=None, aweights=None):
    """Covariance matrix of the variables in the rows of ``input`` (observations in the columns), optionally
    weighted by observation counts ``fweights`` and importance weights ``aweights``."""
    input = lower_precision(input)  # (torch's cov reaches autocast through its matrix product)
    if input._data.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input._data.ndim} dimensions")
    if input._data.dtype.kind not in "fV":
        input = input.to(_dtype.get_default_dtype())
    x = input.reshape(1, -1) if input._data.ndim < 2 else input
    n = x._data.shape[1]
    _check_weights(fweights, "fweights", n)
    _check_weights(aweights, "aweights", n)
    w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        w_sum, avg = n, mean(x, 1)
        factor = n - correction
    else:
        w = w.to(x.dtype)
        w_sum = sum_(w)
        avg = sum_(x * w, 1) / w_sum
        factor = w_sum - correction if aweights is None else w_sum - correction * sum_(w * aweights) / w_sum
    if (factor._data if isinstance(factor, Tensor) else np.asarray(factor)) <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        factor = clamp(factor, min=0) if isinstance(factor, Tensor) else 0
    centered = x - avg.unsqueeze(1)
    weighted = centered if w is None else centered * w
    return (weighted @ centered.t() / factor).squeeze()


@register
def corrcoef(input):
    """Pearson correlation coefficients of the variables in the rows of ``input``."""
    c = cov(input)
    if c._data.ndim == 0:
        return c / c
    std = sqrt(c.diagonal())
    return clamp(c / std.unsqueeze(1) / std.unsqueeze(0), -1, 1)


# ---- norms -----------------------------------------------------------------------------------------------
@register
def dist(input, other, p: float = 2):
    """The ``p``-norm of ``input - other``."""
    return vector_norm(input - other, p)


class Renorm(Op):
    """Each slice along ``dim`` times ``maxnorm / (norm + 1e-7)`` where its ``p``-norm exceeds ``maxnorm``. One op,
    as in torch: a slice left alone (a NaN norm too) passes its gradient unchanged."""

    @staticmethod
    def forward(ctx, x, p=2.0, dims=(), maxnorm=1.0):
        ctx.p, ctx.dims, ctx.maxnorm = p, dims, maxnorm
        ctx.save_for_backward(x)
        norm = LinalgVectorNorm.apply(x, ord=p, dims=dims, keepdim=True)
        return (x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        p, dims, maxnorm = ctx.p, ctx.dims, ctx.maxnorm
        norm = LinalgVectorNorm.apply(x, ord=p, dims=dims, keepdim=True)
        through_norm = norm_backward(sum_(x * g, dims, keepdim=True), x, norm, p, dims, True)
        inverse = 1.0 / (norm + 1e-7)
        factor = inverse * maxnorm
        return where(norm > maxnorm, factor * g - factor * inverse * through_norm, g)


def _renormed(input, p, dim, maxnorm):
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    d = _wrap_dim(dim, input._data.ndim)
    return Renorm.apply(input, p=float(p), dims=tuple(k for k in range(input._data.ndim) if k != d), maxnorm=maxnorm)


@register(out=True)
def renorm(input, p: float, dim: int, maxnorm: float):
    """``input`` with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to ``maxnorm``."""
    return _renormed(input, p, dim, maxnorm)


@register(top_level=False)
def renorm_(input, p: float, dim: int, maxnorm: float):
    return copy_(input, _renormed(input.clone(), p, dim, maxnorm))

