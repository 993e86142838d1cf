"""Reparameterized standard-gamma samples: numpy's sampler (minitorch's generator) and the implicit gradient.

For x ~ Gamma(alpha, 1) with CDF P(alpha, x), the pathwise derivative is
dx/dalpha = -(dP/dalpha)(alpha, x) / p(x; alpha). dP/dalpha comes from the series
P(alpha, x) = e^-x sum_n x^(alpha+n) / Gamma(alpha+n+1), differentiated term by term.
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from ..random import numpy_generator
from .._ops.elementwise.special import _digamma, _lgamma


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """dx/dalpha for standard-gamma samples ``x`` of concentrations ``alpha`` (float64 arrays)."""
    alpha = np.asarray(alpha, np.float64)
    x = np.maximum(np.asarray(x, np.float64), np.finfo(np.float64).tiny)
    log_x = np.log(x)
    term = np.exp(alpha * log_x - x - _lgamma(alpha + 1.0))
    psi = _digamma(alpha + 1.0)
    total = np.zeros_like(x)
    dP = np.zeros_like(x)
    k = alpha + 1.0
    active = np.ones(x.shape, bool)
    for n in range(100000):
        total = total + term
        dP = dP + term * (log_x - psi)
        # next term: multiply by x / (alpha + n + 1); psi(alpha + n + 2) = psi(alpha + n + 1) + 1 / (alpha + n + 1)
        psi = psi + 1.0 / k
        term = term * x / k
        k = k + 1.0
        active = (term > 1e-17 * total) | (k < x + 1)
        if not active.any():
            break
    log_pdf = (alpha - 1.0) * log_x - x - _lgamma(alpha)
    return -dP / np.exp(log_pdf)


class StandardGamma(Op, name="StandardGammaBackward0"):
    @staticmethod
    def forward(ctx, alpha):
        x = numpy_generator(None).standard_gamma(alpha.astype(np.float64))
        x = np.maximum(x, np.finfo(alpha.dtype).tiny).astype(alpha.dtype)
        ctx.save_for_backward(alpha, standard_gamma_grad(alpha, x).astype(alpha.dtype))
        return x

    @staticmethod
    def backward(ctx, g):
        _, grad_alpha = ctx.saved_tensors
        return g * grad_alpha


def standard_gamma(alpha):
    """Gamma(alpha, 1) samples, differentiable w.r.t. ``alpha`` (implicit reparameterization)."""
    return StandardGamma.apply(alpha)
