"""Bernoulli, exponential, Cauchy, geometric, log-normal and multinomial draws as PyTorch makes them."""
from __future__ import annotations

import math

import numpy as np

from . import cast, libm, u24, u53
from .normal import normal


def bernoulli_scalar(gen, n: int, p: float) -> np.ndarray:
    """``n`` booleans ``U53 < p`` (``bernoulli_(p)`` and dropout masks)."""
    return u53(gen, n) < p


def bernoulli_tensor(gen, p: np.ndarray) -> np.ndarray:
    """One boolean per probability in the flat ``p``: 53-bit uniforms for float64 ``p``, 24-bit otherwise."""
    if p.dtype == np.float64:
        return u53(gen, p.size) < p
    return u24(gen, p.size) < p.astype(np.float32)


def exponential(gen, n: int, lambd: float = 1.0) -> np.ndarray:
    """``-1/lambd * log1p(-u)`` in float64 (``u = 0`` gives -0.0, as in torch)."""
    return (-1.0 / lambd) * libm(math.log1p, -u53(gen, n))


def cauchy(gen, n: int, median: float, sigma: float) -> np.ndarray:
    return median + sigma * libm(math.tan, math.pi * (u53(gen, n) - 0.5))


def geometric(gen, n: int, p: float) -> np.ndarray:
    return np.ceil(libm(math.log, u53(gen, n)) / math.log1p(-p))


def log_normal(gen, n: int, mean: float, std: float) -> np.ndarray:
    """``exp`` of the scalar-path normal (PyTorch takes that path for every size)."""
    return libm(math.exp, normal(gen, n, np.dtype(np.float64), mean, std, contiguous=False))


def multinomial(gen, probs: np.ndarray, k: int, replacement: bool) -> np.ndarray:
    """``k`` category indices per row of the 2-D ``probs`` (int64).

    One draw, or draws without replacement: the k largest ``p / q`` for exponential ``q`` (one per entry,
    in ``probs``' dtype). With replacement: per row and sample, the first category whose normalised running
    sum reaches a 53-bit uniform.
    """
    if k == 1 or not replacement:
        q = cast(exponential(gen, probs.size, 1.0), probs.dtype).reshape(probs.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            score = probs / q
        if k == 1:
            return np.argmax(score, axis=1)[:, None]
        return np.argsort(-score, axis=1, kind="stable")[:, :k]
    cum = np.cumsum(probs, axis=1, dtype=probs.dtype)
    cum = cum / cum[:, -1:]
    cum[:, -1] = 1.0
    u = u53(gen, probs.shape[0] * k).reshape(probs.shape[0], k)
    return np.stack([np.searchsorted(row.astype(np.float64), draws, side="left") for row, draws in zip(cum, u)])
