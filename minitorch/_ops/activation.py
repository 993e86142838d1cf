"""Activation functions beyond the elementwise basics: hardtanh/relu6, leaky_relu, gelu,
silu, hardswish, hardsigmoid, elu/selu/celu, softplus, logsigmoid, mish, threshold, hardshrink,
softshrink, glu, prelu; and erf.

Gradients at the kinks follow torch (e.g. hardtanh passes no gradient at its bounds), and so does NaN: each
function tests its input as torch's scalar CPU kernel does (``x <= bound`` rather than ``x > bound``), so a NaN
takes the same branch. (torch's vectorized kernels disagree with its scalar ones on NaN for hardtanh, the
shrinks and elu; see tests/test_edge_values.py.)
"""
from __future__ import annotations

import math

import numpy as np

from ..autograd.function import Op
from .arithmetic import where
from .broadcast import floating
from .unary import exp, log1p, sigmoid, tanh

_SQRT_2 = math.sqrt(2.0)
_SQRT_2_PI = math.sqrt(2.0 / math.pi)


# erf in single precision: near 0 its Taylor series (7 terms: the next is below 3e-8 for |x| < 1/2), elsewhere
# 1 - erfc with erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2), and P the degree-9 Chebyshev fit of Numerical
# Recipes' erfcc (fractional error below 1.2e-7): within 3 ulp of float32, in float32 arithmetic
_ERFC_P = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587,
           -0.82215223, 0.17087277]
_ERF_TAYLOR = [2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(7)]


def _horner(x: np.ndarray, coefficients) -> np.ndarray:
    """The polynomial with ``coefficients`` (lowest degree first) at ``x``, in place in one buffer."""
    result = x * coefficients[-1]
    result += coefficients[-2]
    for c in reversed(coefficients[:-2]):
        result *= x
        result += c
    return result


def _erf_single(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    a = np.abs(x)
    t = 1 / (1 + dt(0.5) * a)
    far = 1 - t * np.exp(_horner(t, [dt(c) for c in _ERFC_P]) - a * a)
    np.copysign(far, x, out=far)
    near = _horner(x * x, [dt(c) for c in _ERF_TAYLOR]) * x
    return np.where(a < 0.5, near, far)  # (near keeps the sign of a zero)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf: in single (or half) precision by ``_erf_single``; in double precision by the Taylor series for
    |x| < 3 and a continued fraction for erfc beyond."""
    if x.dtype.kind in "fV" and x.dtype.itemsize <= 4:
        return _erf_single(x)
    x64 = np.asarray(x, np.float64)
    out = np.empty_like(x64)
    small = np.abs(x64) < 3
    xs = x64[small]
    term, total, x2 = xs.copy(), xs.copy(), xs * xs
    for n in range(1, 60):
        term *= -x2 / n
        total += term / (2 * n + 1)
    out[small] = np.copysign(total * (2 / math.sqrt(math.pi)), xs)  # erf(-0.0) is -0.0
    xl = np.abs(x64[~small])
    frac = xl.copy()  # erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + (2/2) / (x + (3/2) / ...)))
    for k in range(60, 0, -1):
        frac = xl + (k / 2) / frac
    out[~small] = np.sign(x64[~small]) * (1 - np.exp(-xl * xl) / (math.sqrt(math.pi) * frac))
    return out.astype(x.dtype, copy=False)


class Erf(Op):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        ctx.save_for_backward(a)
        return _erf(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * exp(a * a * -1.0) * (2 / math.sqrt(math.pi))


erf = Erf.function()


class Hardtanh(Op):
    @staticmethod
    def forward(ctx, a, min_val=-1.0, max_val=1.0):
        ctx.save_for_backward(a)
        ctx.bounds = (min_val, max_val)
        return np.clip(a, min_val, max_val)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        return where((a <= lo) | (a >= hi), 0.0, g)


class LeakyRelu(Op):
    @staticmethod
    def forward(ctx, a, negative_slope=0.01):
        ctx.slope = negative_slope
        ctx.save_for_backward(a)
        return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(a > 0, g, g * ctx.slope)


class Gelu(Op):
    """x * Phi(x) (Phi the standard normal CDF), or its tanh approximation."""

    @staticmethod
    def forward(ctx, a, approximate="none"):
        ctx.approximate = approximate
        ctx.save_for_backward(a)
        if approximate == "tanh":
            return 0.5 * a * (1 + np.tanh(_SQRT_2_PI * (a + 0.044715 * (a * a * a))))
        return 0.5 * a * (1 + _erf(a / _SQRT_2))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if ctx.approximate == "tanh":
            inner = (a + a * a * a * 0.044715) * _SQRT_2_PI
            t = tanh(inner)
            d_inner = (a * a * (3 * 0.044715) + 1.0) * _SQRT_2_PI
            return g * ((t + 1.0) * 0.5 + a * 0.5 * (1.0 - t * t) * d_inner)
        cdf = (erf(a * (1 / _SQRT_2)) + 1.0) * 0.5
        pdf = exp(a * a * -0.5) * (1 / math.sqrt(2 * math.pi))
        return g * (cdf + a * pdf)


class Silu(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * sigmoid(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        s = sigmoid(a)
        return g * s * (a * (1.0 - s) + 1.0)


class Hardswish(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.clip(a + 3, 0, 6) / 6

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * where(a <= -3.0, 0.0, where(a < 3.0, a / 3.0 + 0.5, 1.0))


class Hardsigmoid(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.clip(a / 6 + 0.5, 0, 1)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * ((a > -3.0) & (a < 3.0)) * (1 / 6)


class Elu(Op):
    """scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1)); selu fixes the constants."""

    @staticmethod
    def forward(ctx, a, alpha=1.0, scale=1.0, input_scale=1.0):
        ctx.params = (alpha, scale, input_scale)
        ctx.save_for_backward(a)
        negative = a <= 0
        curve = np.expm1(np.where(negative, a, 0) * input_scale) * (alpha * scale)  # -0.0 stays -0.0
        return np.where(negative, curve, a * scale).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        alpha, scale, input_scale = ctx.params
        negative = a <= 0
        slope = exp(where(negative, a, 0.0) * input_scale) * (alpha * scale * input_scale)
        return g * where(negative, slope, scale)


class Celu(Elu):
    pass


class Softplus(Op):
    """log(1 + exp(beta * x)) / beta, linear above ``threshold``."""

    @staticmethod
    def forward(ctx, a, beta=1.0, threshold=20.0):
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(a)
        z = a * beta
        return np.where(z > threshold, a, np.logaddexp(0, z) / beta).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        z = a * ctx.beta
        return g * where(z > ctx.threshold, 1.0, sigmoid(z))


class LogSigmoid(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return (np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))).astype(a.dtype, copy=False)  # 0 at inf, not -0

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * sigmoid(-a)


class Mish(Op):
    """x * tanh(softplus(x))."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.tanh(np.logaddexp(0, a)).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        t = tanh(log1p(exp(a)))
        return g * (t + a * sigmoid(a) * (1.0 - t * t))


class Threshold(Op):
    @staticmethod
    def forward(ctx, a, threshold=0.0, value=0.0):
        ctx.save_for_backward(a)
        ctx.threshold = threshold
        return np.where(a <= threshold, np.asarray(value, a.dtype), a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(a <= ctx.threshold, 0.0, g)


def _inplace(op: type[Op], node_name: str | None = None) -> type[Op]:
    variant = op.inplace_variant()
    variant.__name__ = node_name or variant.__name__
    return variant


# The in-place forms (``inplace=True``), made once so that every call's node has the same type. torch writes
# some in-place derivatives from the result instead of the input, and names their nodes ``...Backward1``.
INPLACE = {Hardtanh: _inplace(Hardtanh), LeakyRelu: _inplace(LeakyRelu, "LeakyReluBackward1"),
           Silu: _inplace(Silu), Hardswish: _inplace(Hardswish), Hardsigmoid: _inplace(Hardsigmoid),
           Elu: _inplace(Elu, "EluBackward1"), Celu: _inplace(Celu, "CeluBackward1"), Mish: _inplace(Mish),
           Threshold: _inplace(Threshold, "ThresholdBackward1")}


class Hardshrink(Op):
    """x where |x| > lambd, else 0."""

    @staticmethod
    def forward(ctx, a, lambd=0.5):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return np.where(_inside(a, lambd), np.zeros((), a.dtype), a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(_inside(a, ctx.lambd), 0.0, g)


def _inside(a, lambd):
    """Where ``-lambd <= a <= lambd`` (not NaN): the shrinks' zero region."""
    return (a >= -lambd) & (a <= lambd)


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0 (x * 0: a negative x gives -0.0, NaN stays)."""

    @staticmethod
    def forward(ctx, a, lambd=0.5):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, a * 0)).astype(a.dtype, copy=False)


class Glu(Op):
    """a * sigmoid(b), ``a`` and ``b`` the halves of the input along ``dim``."""

    @staticmethod
    def forward(ctx, x, dim=-1):
        ctx.dim = dim % x.ndim
        ctx.save_for_backward(x)
        first, second = np.split(x, 2, axis=ctx.dim)
        return (first * (0.5 + 0.5 * np.tanh(0.5 * second))).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        from .indexing import narrow
        from .view import Cat
        (x,) = ctx.saved_tensors
        half = x.shape[ctx.dim] // 2
        first, s = narrow(x, ctx.dim, 0, half), sigmoid(narrow(x, ctx.dim, half, half))
        return Cat.apply(g * s, g * first * s * (1.0 - s), dim=ctx.dim)


class Prelu(Op, name="PreluKernelBackward0"):
    """x where x > 0, else weight * x (``weight`` broadcast against ``x``)."""

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return np.where(x > 0, x, x * weight).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        x, weight = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad
        positive = x > 0
        return (where(positive, g, g * weight) if need_x else None), (where(positive, 0.0, g * x) if need_w else None)
