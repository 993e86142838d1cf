"""Vector norms: ``linalg.vector_norm`` and ``norm``, (sum |x|^p)^(1/p) over some dims, with the
limits p = inf (max |x|), -inf (min |x|) and 0 (the count of nonzeros). The gradient is PyTorch's
subgradient: 0 where the norm is 0, and shared equally among ties for the infinite orders."""
from __future__ import annotations

import math

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.function import Op
from ..elementwise.clamp import where
from ..._core.out import _out
from .sums import _axis, _restore, normalize_dims
from ..elementwise.unary import abs as abs_
from ..elementwise.unary import sign


class LinalgVectorNorm(Op):
    @staticmethod
    def forward(ctx, a, ord=2.0, dims=None, keepdim=False):  # noqa: A002
        ctx.ord, ctx.dims, ctx.keepdim, ctx.in_shape = ord, dims, keepdim, a.shape
        axis, m = _axis(dims), np.abs(a)
        if ord == math.inf:
            r = m.max(axis=axis, keepdims=keepdim) if m.size else np.zeros(())
        elif ord == -math.inf:
            r = m.min(axis=axis, keepdims=keepdim)
        elif ord == 0:
            r = (m != 0).sum(axis=axis, keepdims=keepdim).astype(a.dtype)
        elif ord == 1:
            r = m.sum(axis=axis, keepdims=keepdim)
        elif ord == 2:
            r = np.sqrt((a * a).sum(axis=axis, keepdims=keepdim))
        else:
            r = (m ** ord).sum(axis=axis, keepdims=keepdim) ** (1.0 / ord)
        r = np.asarray(r, a.dtype)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        return norm_backward(g, a, r, ctx.ord, ctx.dims, ctx.keepdim)


def norm_backward(g, a, r, p: float, dims, keepdim: bool):
    """The gradient of the ``p``-norm ``r`` of ``a`` over ``dims`` given its gradient ``g`` (arrays or tensors)."""
    shape = a.shape
    g, r = _restore(g, shape, dims, keepdim), _restore(r, shape, dims, keepdim)
    if p == 0:  # piecewise constant: no gradient, as in torch
        return None
    if p == 1:
        return g * sign(a)
    zero = r == 0
    safe = where(zero, 1.0, r)  # no 0/0 (and no numpy warning) where the norm, hence the gradient, is 0
    if p == 2:
        return where(zero, 0.0, g * a / safe)
    if math.isinf(p):
        hit = abs_(a) == r
        count = _restore(LinalgVectorNorm.apply(hit * 1.0, ord=0.0, dims=dims, keepdim=keepdim), shape, dims, keepdim)
        return g * sign(a) * hit / count
    return where(zero, 0.0, g * sign(a) * abs_(a) ** (p - 1) / safe ** (p - 1))


def vector_norm(input, ord=2, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A002
    """The ``ord``-norm of ``input`` over ``dim`` (all elements by default), as ``torch.linalg.vector_norm``."""
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if input._data.dtype.kind not in "fV":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_dtype.C_NAMES[input.dtype].capitalize()}")
    return LinalgVectorNorm.apply(input, ord=float(ord), dims=normalize_dims(dim, input.dim()), keepdim=keepdim)


@register
def norm(input, p="fro", dim=None, keepdim: bool = False, out=None, dtype=None):
    """The vector norm of ``input`` over ``dim`` (``p`` a number, ``'fro'`` for 2), or the nuclear norm of the
    matrices in ``dim`` (``'nuc'``)."""
    if p == "nuc":
        from ..linalg.factorizations import matrix_norm  # (built on this module)
        return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype, out=out)
    result = vector_norm(input, 2 if p == "fro" or p is None else p, dim, keepdim, dtype=dtype)
    return _out(result, out)
