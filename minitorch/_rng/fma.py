"""Fused multiply-add with a single rounding, as the vectorised CPU kernels compute it.

numpy has no fma, and ``a * b + c`` rounds twice, which changes about half of the values of
``uniform_(-b, b)``. Both functions return the correctly rounded ``a * b + c`` elementwise.
"""
from __future__ import annotations

import numpy as np

MIDPOINT_MASK = np.uint64((1 << 29) - 1)   # float64 significand bits below float32's
MIDPOINT = np.uint64(1 << 28)              # ...that make a float64 lie halfway between two float32


def _two_sum_error(s: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The exact rounding error of ``s = a + b`` (Knuth's TwoSum)."""
    bb = s - a
    return (a - (s - bb)) + (b - bb)


def _round_to_odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """``s`` moved one ulp towards its rounding error ``err`` where the addition was inexact and ``s`` is even."""
    bits = s.view(np.uint64)
    nudge = (err != 0) & ((bits & np.uint64(1)) == 0)
    if not nudge.any():
        return s
    return np.where(nudge, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def fma32(a, b, c) -> np.ndarray:
    """Single-rounded float32 ``a * b + c``.

    The float64 product of two float32 is exact, so only the float64 sum rounds before the cast to float32;
    that double rounding is wrong only where the sum lands exactly halfway between two float32 numbers.
    Those rare positions are redone with the sum rounded to odd, which makes the second rounding correct.
    """
    p = np.multiply(a, b, dtype=np.float64)
    c64 = np.asarray(c, np.float64)
    s = p + c64
    tie = (s.view(np.uint64) & MIDPOINT_MASK) == MIDPOINT
    if tie.any():
        idx = np.nonzero(tie)
        pt, ct = np.broadcast_to(p, s.shape)[idx], np.broadcast_to(c64, s.shape)[idx]
        s[idx] = _round_to_odd(s[idx], _two_sum_error(s[idx], pt, ct))
    return s.astype(np.float32)


def _split(a: np.ndarray):
    """Veltkamp's split of float64 values into two halves of 26 significant bits."""
    t = a * 134217729.0  # 2**27 + 1
    hi = t - (t - a)
    return hi, a - hi


def fma64(a, b, c) -> np.ndarray:
    """Single-rounded float64 ``a * b + c`` (Dekker's exact product, then Boldo and Melquiond's
    round-to-odd sum of the low parts)."""
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    ph = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    pl = ((ah * bh - ph) + ah * bl + al * bh) + al * bl
    th = c + ph
    tl = _two_sum_error(th, c, ph)
    v = tl + pl
    return th + _round_to_odd(np.asarray(v), _two_sum_error(v, tl, pl))
