"""softmax and log_softmax along a dim, computed stably (the maximum subtracted first)."""
from __future__ import annotations

import numpy as np

from ... import _dtype
from ..._core.function import Op
from ..._core.registry import register
from ..._core.tensor import _wrap_dim
from ..elementwise.unary import exp
from .sums import sum as sum_


class Softmax(Op):
    @staticmethod
    def forward(ctx, a, dim=-1):
        ctx.dim = dim
        e = np.exp(a - a.max(axis=dim, keepdims=True))
        e /= e.sum(axis=dim, keepdims=True)
        ctx.save_for_backward(e)
        return e

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return y * (g - sum_(g * y, ctx.dim, keepdim=True))  # torch's form: -0.0 where y is 0 and g below the sum


class LogSoftmax(Op):
    @staticmethod
    def forward(ctx, a, dim=-1):
        ctx.dim = dim
        shifted = a - a.max(axis=dim, keepdims=True)
        shifted -= np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        ctx.save_for_backward(shifted)
        return shifted

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g - exp(y) * sum_(g, ctx.dim, keepdim=True)


def _softmax_input(input, dim, dtype, name):
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f"\"{name}_lastdim_kernel_impl\" not implemented for "
                                  f"'{_dtype.C_NAMES[input.dtype]}'")
    return input, _wrap_dim(dim, input._data.ndim)


@register(out=True)
def softmax(input, dim: int, dtype=None):
    """``exp(x) / sum(exp(x), dim)``, computed stably."""
    input, d = _softmax_input(input, dim, dtype, "softmax")
    return Softmax.apply(input, dim=d)


@register(out=True)
def log_softmax(input, dim: int, dtype=None):
    """``x - logsumexp(x, dim)``, computed stably."""
    input, d = _softmax_input(input, dim, dtype, "log_softmax")
    return LogSoftmax.apply(input, dim=d)
