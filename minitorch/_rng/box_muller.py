"""PyTorch's float32 vectorised Box-Muller kernel (x86-64 AVX2/AVX-512), bit for bit.

``R = sqrt(-2 log u1)`` and ``(sin, cos)(2 pi u2)`` are computed with the Cephes float32 ``logf`` and
``sincosf`` polynomials, with exactly the multiply-adds the compiled kernel fuses (see the RNG specification, 3b).
"""
from __future__ import annotations

import numpy as np

from .fma import MIDPOINT, MIDPOINT_MASK, fma32

_BLOCK = 1 << 15  # values per block: whole-array temporaries are fresh mmaps that page-fault


def _f32(bits: int) -> np.float32:
    return np.array(bits, np.uint32).view(np.float32)[()]


_SQRTHF = _f32(0x3F3504F3)
_LOG_P = [_f32(b) for b in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A, 0xBDFE5D4F, 0x3E11E9BF,
                            0xBE2AAE50, 0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA)]
_LOG_Q1 = _f32(0xB95E8083)
_LOG_Q2 = _f32(0x3F318000)
_TWO_PI = _f32(0x40C90FDB)
_FOPI = _f32(0x3FA2F983)
_DP = [_f32(b) for b in (0xBF490000, 0xB97DA000, 0xB3222169)]
_COS_C = [_f32(b) for b in (0x37CCF5CE, 0xBAB6061A, 0x3D2AAAA5)]
_SIN_S = [_f32(b) for b in (0xB94CA1F9, 0x3C08839E, 0xBE2AAAA3)]
_SIGN = np.uint32(0x80000000)


class _Kernel:
    """Scratch buffers for one block of ``n`` pairs, and the kernel's operations on them."""

    def __init__(self, n: int):
        self.s = np.empty(n, np.float64)
        self.bits = self.s.view(np.uint64)
        self.low = np.empty(n, np.uint64)
        self.tie = np.empty(n, bool)

    def fma(self, a, b, c, out: np.ndarray) -> np.ndarray:
        """``out = fma(a, b, c)`` in float32: the float64 sum is right unless it is a float32 midpoint."""
        s = self.s[:out.size]
        np.multiply(a, b, out=s, dtype=np.float64)
        np.add(s, c, out=s)
        np.bitwise_and(self.bits[:out.size], MIDPOINT_MASK, out=self.low[:out.size])
        tie = np.equal(self.low[:out.size], MIDPOINT, out=self.tie[:out.size])
        if not tie.any():
            out[...] = s
            return out
        idx = np.nonzero(tie)[0]
        # out may alias a, b or c: redo the midpoints before overwriting.
        fixed = fma32(*(np.broadcast_to(v, out.shape)[idx] for v in (a, b, c)))
        out[...] = s
        out[idx] = fixed
        return out

    def fma_no_midpoints(self, a, b, c, out: np.ndarray) -> np.ndarray:
        """``out = fma(a, b, c)`` for the steps inside ``log`` and ``sincos``: their float64 sums are never a
        float32 midpoint (checked over all 2**24 inputs of each function), so rounding the sum is exact."""
        s = self.s[:out.size]
        np.multiply(a, b, out=s, dtype=np.float64)
        np.add(s, c, out=s)
        out[...] = s
        return out

    def log(self, x: np.ndarray) -> np.ndarray:
        """Cephes ``logf`` for x in (0, 1], as the kernel evaluates it."""
        bits = x.view(np.uint32)
        e = ((bits >> 23).astype(np.int32) - 126).astype(np.float32)
        m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(np.float32)
        small = (m < _SQRTHF).astype(np.float32)
        e -= small
        mp = m - np.float32(1)
        mp += m * small  # (m - 1) + m below sqrt(1/2), exact either way
        z = mp * mp
        y = np.empty_like(mp)
        self.fma_no_midpoints(_LOG_P[0], mp, _LOG_P[1], y)
        for p in _LOG_P[2:]:
            self.fma_no_midpoints(y, mp, p, y)
        y *= mp
        self.fma_no_midpoints(y, z, e * _LOG_Q1, y)
        z *= np.float32(0.5)
        y -= z
        y += mp
        e *= _LOG_Q2
        y += e
        return y

    def sincos(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Cephes ``sincosf`` for x >= 0, as the kernel evaluates it."""
        j = (x * _FOPI).astype(np.int32)
        j += 1
        j &= ~1
        y = j.astype(np.float32)
        # The first reduction step is exact in float64: |y * DP1| and x share a 2**-24 grid below 8.
        s = self.s[:x.size]
        np.multiply(y, _DP[0], out=s, dtype=np.float64)
        s += x
        x = s.astype(np.float32)
        self.fma_no_midpoints(y, _DP[1], x, x)
        self.fma_no_midpoints(y, _DP[2], x, x)
        z = x * x
        c = np.empty_like(x)
        self.fma_no_midpoints(_COS_C[0], z, _COS_C[1], c)
        self.fma_no_midpoints(c, z, _COS_C[2], c)
        c *= z
        self.fma_no_midpoints(c, z, -(z * np.float32(0.5)), c)
        c += np.float32(1)
        sn = np.empty_like(x)
        self.fma_no_midpoints(_SIN_S[0], z, _SIN_S[1], sn)
        self.fma_no_midpoints(sn, z, _SIN_S[2], sn)
        sn *= z
        self.fma_no_midpoints(sn, x, x, sn)
        swap = (j & 2) != 0
        sin = np.where(swap, c, sn)
        cos = np.where(swap, sn, c)
        sin.view(np.uint32)[...] ^= ((j & 4) != 0).astype(np.uint32) * _SIGN
        cos.view(np.uint32)[...] ^= (((j - 2) & 4) == 0).astype(np.uint32) * _SIGN
        return sin, cos

    def chunks(self, d: np.ndarray, std: np.float32, mean: np.float32, out: np.ndarray) -> None:
        """Transform the chunks of 16 uniforms ``d`` (shape (k, 16)) into normals in ``out``."""
        u1 = (np.float32(1) - d[:, :8]).ravel()
        radius = self.log(u1)
        radius *= np.float32(-2)
        np.sqrt(radius, out=radius)
        sin, cos = self.sincos((_TWO_PI * d[:, 8:]).ravel())
        for trig, half in ((cos, out[:, :8]), (sin, out[:, 8:])):
            trig *= radius
            if mean == 0 and std != 0:
                # fma(t, std, +0) is the rounded product, except that a zero t gives +0
                zero = trig == 0
                trig *= std
                trig[zero] = 0
            else:
                self.fma(trig, std, mean, trig)
            half[...] = trig.reshape(half.shape)


def box_muller32(d: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Normals ``mean + std * N(0, 1)`` from float32 uniforms ``d`` (length a multiple of 16), chunk by chunk.

    In each chunk of 16, ``u1 = 1 - d[j]`` and ``u2 = d[j + 8]`` (j < 8) give ``d[j]`` (cosine) and ``d[j + 8]`` (sine).
    """
    d = np.asarray(d, np.float32)
    if d.ndim != 1 or d.size % 16:
        raise ValueError(f"box_muller32 needs a 1-D array whose length is a multiple of 16, got shape {d.shape}")
    out = np.empty_like(d)
    kernel = _Kernel(min(d.size, _BLOCK) // 2)
    std32, mean32 = np.float32(std), np.float32(mean)
    for start in range(0, d.size, _BLOCK):
        stop = min(start + _BLOCK, d.size)
        kernel.chunks(d[start:stop].reshape(-1, 16), std32, mean32, out[start:stop].reshape(-1, 16))
    return out
