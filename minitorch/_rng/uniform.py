"""``uniform_(a, b)`` and ``rand``: one 24-bit uniform per float32 value, one 53-bit uniform per float64 value,
scaled with a fused multiply-add; a value that rounds up to ``b`` becomes ``a``."""
from __future__ import annotations

import numpy as np

from . import BLOCK, u24, u53
from .fma import fma32, fma64


def uniform(gen, n: int, dt: np.dtype, a: float = 0.0, b: float = 1.0) -> np.ndarray:
    """``n`` uniforms in [a, b) of float dtype ``dt`` (complex: real and imaginary parts each uniform)."""
    if dt.kind == "c":
        part = np.dtype(np.float64 if dt == np.complex128 else np.float32)
        return uniform(gen, 2 * n, part, a, b).view(dt)
    if dt == np.float64:
        v = u53(gen, n)
        if (a, b) != (0.0, 1.0):
            v = fma64(v, b - a, a)
        return np.where(v == b, a, v) if n else v
    lo, hi = np.float32(a), np.float32(b)
    v = u24(gen, n)
    if (lo, hi) != (0, 1):
        span = np.float32(hi - lo)
        for start in range(0, n, BLOCK):
            v[start:start + BLOCK] = fma32(v[start:start + BLOCK], span, lo)
    v = v.astype(dt, copy=False)
    top, bottom = hi.astype(dt), lo.astype(dt)
    return np.where(v == top, bottom, v) if n else v
