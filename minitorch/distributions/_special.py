"""Special functions the distributions need and minitorch has no op for: lgamma, digamma, polygamma.

Differentiable ops (numpy forward, backward with ops), numerically sound without scipy:
lgamma by the C library's (math.lgamma, elementwise), digamma and
polygamma by the recurrence up to x >= 10 and then their asymptotic series.
"""
from __future__ import annotations

import math

import numpy as np

from ..autograd.function import Op

# Bernoulli numbers B_2, B_4, ..., B_16
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _float(a):
    a = np.asarray(a)
    return a if a.dtype.kind == "f" else a.astype(np.float32)


def _lgamma_scalar(v: float) -> float:
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):  # poles at 0, -1, -2, ...
        return math.inf if not math.isnan(v) else math.nan


_lgamma_vec = np.vectorize(_lgamma_scalar, otypes=[np.float64])


def _lgamma(x: np.ndarray) -> np.ndarray:
    return np.asarray(_lgamma_vec(x.astype(np.float64)), dtype=x.dtype)


def _polygamma(n: int, x: np.ndarray) -> np.ndarray:
    """psi^(n)(x): n = 0 is digamma."""
    x64 = x.astype(np.float64)
    refl = x64 < 0.5 if n == 0 else np.zeros(x64.shape, bool)
    z = np.where(refl, 1.0 - x64, x64)
    acc = np.zeros_like(z)
    # recurrence: shift z up to >= 10
    for _ in range(10):
        low = z < 10
        if not low.any():
            break
        if n == 0:
            acc = acc - np.where(low, 1.0 / z, 0.0)
        else:
            acc = acc + np.where(low, 1.0 / z ** (n + 1), 0.0)
        z = np.where(low, z + 1.0, z)
    if n == 0:
        series = np.log(z) - 0.5 / z
        z2 = z * z
        zk = z2
        for k, b in enumerate(_BERNOULLI, start=1):
            series = series - b / (2 * k * zk)
            zk = zk * z2
        out = acc + series
        with np.errstate(all="ignore"):
            out = np.where(refl, out - math.pi / np.tan(math.pi * x64), out)
        out = np.where((x64 <= 0) & (x64 == np.floor(x64)), np.nan, out)
    else:
        fact = math.factorial(n)
        series = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
        for k, b in enumerate(_BERNOULLI, start=1):
            series = series + b * math.factorial(2 * k + n - 1) / (math.factorial(2 * k) * z ** (2 * k + n))
        out = (-1) ** (n + 1) * (fact * acc + series)
        out = np.where(x64 <= 0, np.nan, out)
    return out.astype(x.dtype, copy=False)


class Lgamma(Op):
    @staticmethod
    def forward(ctx, a):
        a = _float(a)
        ctx.save_for_backward(a)
        return _lgamma(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * digamma(a)


class Digamma(Op):
    @staticmethod
    def forward(ctx, a):
        a = _float(a)
        ctx.save_for_backward(a)
        return _polygamma(0, a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * polygamma(1, a)


class Polygamma(Op):
    @staticmethod
    def forward(ctx, a, n=1):
        a = _float(a)
        ctx.save_for_backward(a)
        ctx.n = n
        return _polygamma(n, a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * polygamma(ctx.n + 1, a)


def lgamma(input):
    """log |Gamma(input)|, elementwise."""
    return Lgamma.apply(input)


def digamma(input):
    """d/dx lgamma(x), elementwise."""
    return Digamma.apply(input)


def polygamma(n: int, input):
    """The n-th derivative of digamma, elementwise (n >= 1; n = 0 is digamma)."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return Digamma.apply(input) if n == 0 else Polygamma.apply(input, n=n)
