"""``randn``/``normal_``: PyTorch's three Box-Muller paths, chosen by size, layout and dtype.

- fewer than 16 values, or a non-contiguous tensor: pairs in float64 from libm, one value of each pair kept in
  the generator's cache for the next draw;
- float32 (and float16), 16 values or more: the vectorised float32 kernel over chunks of 16, the last partial
  chunk recomputed from 16 fresh uniforms;
- float64, 16 values or more: the same chunking in float64 with libm.
"""
from __future__ import annotations

import math

import numpy as np

from . import TWO_PI, cast, libm, u24, u53
from .box_muller import box_muller32
from .fma import fma64

_CHUNK = 16


def normal(gen, n: int, dt: np.dtype, mean: float = 0.0, std: float = 1.0, contiguous: bool = True) -> np.ndarray:
    """``n`` normal samples of float dtype ``dt`` (complex: real and imaginary parts each of variance std**2 / 2)."""
    if dt.kind == "c":
        part = np.dtype(np.float64 if dt == np.complex128 else np.float32)
        return normal(gen, 2 * n, part, mean, std / math.sqrt(2.0), contiguous).view(dt)
    if n < _CHUNK or not contiguous:
        return cast(_scalar(gen, n, mean, std), dt)
    if dt == np.float64:
        return _chunked(n, u53(gen, n), lambda: u53(gen, _CHUNK), lambda d: _box_muller64(d, mean, std))
    d = u24(gen, n if dt == np.float32 else n - n % _CHUNK)  # float16 draws chunk by chunk
    return _chunked(n, d, lambda: u24(gen, _CHUNK), lambda d: box_muller32(d, mean, std)).astype(dt)


def _chunked(n: int, d: np.ndarray, fresh_chunk, kernel) -> np.ndarray:
    """``n`` values: the kernel over the full chunks of the uniforms ``d``; a partial last chunk is replaced by
    a kernel run over 16 fresh uniforms written onto the last 16 positions."""
    full = n - n % _CHUNK
    out = np.empty(n, d.dtype)
    out[:full] = kernel(d[:full])
    if full != n:
        out[n - _CHUNK:] = kernel(fresh_chunk())
    return out


def _box_muller64(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """The float64 chunk kernel: in each chunk of 16, value j and j + 8 are the pair made from d[j] and d[j + 8]."""
    pairs = d.reshape(-1, 2, _CHUNK // 2)
    r = np.sqrt(-2.0 * libm(math.log, 1.0 - pairs[:, 0]))
    theta = TWO_PI * pairs[:, 1]
    out = np.stack([r * libm(math.cos, theta), r * libm(math.sin, theta)], axis=1).reshape(-1)
    return out if (mean, std) == (0.0, 1.0) else fma64(out, std, mean)


def _scalar(gen, n: int, mean: float, std: float) -> np.ndarray:
    """The scalar path in float64: the cached value first, then new pairs (cosine now, sine cached)."""
    values = []
    if n and gen._normal is not None:
        values.append(gen._normal)
        gen._normal = None
    pairs = (n - len(values) + 1) // 2
    if pairs:
        u = u53(gen, 2 * pairs).reshape(pairs, 2)
        r = np.sqrt(-2.0 * libm(math.log1p, -u[:, 1]))
        theta = TWO_PI * u[:, 0]
        drawn = np.stack([r * libm(math.cos, theta), r * libm(math.sin, theta)], axis=1).reshape(-1)
        if len(values) + len(drawn) > n:
            gen._normal = float(drawn[-1])
            drawn = drawn[:-1]
        values.extend(drawn.tolist())
    out = np.array(values, np.float64)
    return out if (mean, std) == (0.0, 1.0) else fma64(out, std, mean)
