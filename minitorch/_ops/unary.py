"""Elementwise functions of one tensor: exp, log, sqrt, trigonometry, activations, rounding.

Float-valued functions of integer tensors compute in the default float dtype, as in torch.
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .broadcast import floating


class Neg(Op):
    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        return np.negative(a)

    @staticmethod
    def backward(ctx, g):
        return -g


class Exp(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.exp(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


class Log(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / a


class Log1p(Op, name="Log1PBackward0"):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log1p(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a + 1.0)


class Expm1(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.expm1(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r + 1.0)


class Log2(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log2(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a * float(np.log(2.0)))


class Log10(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log10(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a * float(np.log(10.0)))


class Sqrt(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.sqrt(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g / (r * 2.0)


class Rsqrt(Op):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        r = np.reciprocal(np.sqrt(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * r * r * -0.5


class Reciprocal(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.reciprocal(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return -g * r * r


class Abs(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * sign(a)


class Sign(Op):
    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:
            return a.copy()
        r = np.sign(a)
        if r.dtype.kind == "f":
            np.copyto(r, 0, where=np.isnan(r))  # torch: sign(nan) is 0
        return r

    @staticmethod
    def backward(ctx, g):
        return g * 0.0


class Sin(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.sin(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * cos(a)


class Cos(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.cos(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return -g * sin(a)


class Tan(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.tan(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r * r + 1.0)


class Tanh(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.tanh(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (1.0 - r * r)


class Sigmoid(Op):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        # with e = exp(-|a|) (never overflows): 1 / (1 + e) for a >= 0, e / (1 + e) below
        e = np.exp(-np.abs(a))
        r = np.reciprocal(e + 1.0)
        np.multiply(r, e, out=r, where=a < 0)
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * (1.0 - r)


class Relu(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.maximum(a, 0) if a.dtype != np.bool_ else a.copy()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r > 0)


class _ZeroGrad(Op):
    """Piecewise-constant functions: the gradient is zero almost everywhere."""

    @staticmethod
    def backward(ctx, g):
        return g * 0.0


class Floor(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.floor(a) if a.dtype.kind == "f" else a.copy()


class Ceil(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.ceil(a) if a.dtype.kind == "f" else a.copy()


class Trunc(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.trunc(a) if a.dtype.kind == "f" else a.copy()


class Round(_ZeroGrad):
    @staticmethod
    def forward(ctx, a, decimals=0):
        return np.round(a, decimals) if a.dtype.kind == "f" else a.copy()


neg = Neg.function()
exp = Exp.function()
log = Log.function()
log1p = Log1p.function()
expm1 = Expm1.function()
log2 = Log2.function()
log10 = Log10.function()
sqrt = Sqrt.function()
rsqrt = Rsqrt.function()
reciprocal = Reciprocal.function()
abs = Abs.function()
sign = Sign.function()
sin = Sin.function()
cos = Cos.function()
tan = Tan.function()
tanh = Tanh.function()
sigmoid = Sigmoid.function()
relu = Relu.function()
floor = Floor.function()
ceil = Ceil.function()
trunc = Trunc.function()
negative = neg
absolute = abs  # noqa: A001
fix = trunc


def round(input, *, decimals: int = 0):  # noqa: A001
    return Round.apply(input, decimals=decimals)


def frac(input):
    return input - trunc(input)


neg_ = Neg.inplace_function()
exp_ = Exp.inplace_function()
log_ = Log.inplace_function()
sqrt_ = Sqrt.inplace_function()
abs_ = Abs.inplace_function()
sin_ = Sin.inplace_function()
cos_ = Cos.inplace_function()
tanh_ = Tanh.inplace_function()
sigmoid_ = Sigmoid.inplace_function()
relu_ = Relu.inplace_function()
floor_ = Floor.inplace_function()
ceil_ = Ceil.inplace_function()
round_ = Round.inplace_function()
reciprocal_ = Reciprocal.inplace_function()
