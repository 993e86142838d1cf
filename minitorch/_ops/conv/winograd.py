"""Winograd kernels for stride-1, dilation-1, ungrouped 3x3 convolutions with many channels.

F(m x m, 3 x 3) computes each m x m output tile from an (m + 2) x (m + 2) input tile d as
A^T [(G w G^T) * (B^T d B)] A: the channel sum becomes one GEMM per tile position (a batched matmul over the
(m + 2)^2 positions) and the transforms are matmuls with Kronecker products of the small matrices. The weight
gradient is that computation's exact adjoint in w. F(2x2) is as accurate as the direct sum; F(4x4) does
2.25x fewer multiplies than F(2x2) but rounds ~20-40x worse (~1e-5 relative in float32), so it is used only on
large maps. The work goes in chunks of whole images through buffers allocated once per call.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..._core.parallel import parallel_copy
from ...backends import winograd as _switch
from .geometry import Geometry

# (B^T, G, A^T) of F(2x2, 3x3) and F(4x4, 3x3), interpolation points 0, +-1 (, +-2) and infinity.
_F2 = (np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], float),
       np.array([[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]]),
       np.array([[1, 1, 1, 0], [0, 1, -1, -1]], float))
_F4 = (np.array([[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
                 [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]], float),
       np.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
                 [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]]),
       np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0], [0, 1, -1, 8, -8, 1]], float))

# Measured on resnet18's 3x3 layers (64@56 .. 512@7, batch 4 and 16) against the im2col kernels, 2 BLAS threads.
_MIN_CHANNELS = 128  # 64 channels: 0.8-0.9x in forward and input gradient
_F4_MIN_SIDE = 28  # F(4x4) on output maps at least this tall and wide (F(2x2) won at 14 and 7)
_MIN_WEIGHT_GRAD_SIDE = 14  # the weight gradient on 7x7 maps: 0.8-1.0x
# A chunk's transformed input is kept near the L2 cache's size, but with at least _MIN_TILES tiles (GEMM columns):
# 512 KB beat 1-4 MB by 1.1-1.4x on 128@28 and 256@14.
_CHUNK_BYTES = 1 << 19
_MIN_TILES = 64


def suits(x: np.ndarray, out_channels: int, kernel: tuple, g: Geometry) -> bool:
    """Whether a 2-d convolution of x (N, C, H, W) to ``out_channels`` channels takes the Winograd path."""
    return (_switch.enabled and tuple(kernel) == (3, 3) and g.stride == (1, 1) and g.dilation == (1, 1)
            and g.groups == 1 and min(x.shape[1], out_channels) >= _MIN_CHANNELS
            and x.dtype in (np.float32, np.float64) and min(p for pair in g.pads for p in pair) >= 0)


def suits_weight_grad(x: np.ndarray, u: np.ndarray, kernel: tuple, g: Geometry) -> bool:
    """Whether the weight gradient of a convolution of x giving the output gradient u takes the Winograd path."""
    return suits(x, u.shape[1], kernel, g) and min(u.shape[2:]) >= _MIN_WEIGHT_GRAD_SIDE


def _part(buffer: np.ndarray, shape: tuple) -> np.ndarray:
    """The front of a flat buffer as a contiguous array of ``shape`` (a chunk smaller than the largest)."""
    return buffer[:int(np.prod(shape))].reshape(shape)


class _Plan:
    """The tiling of one convolution: algorithm, tile grid, chunks of images and their padded input buffer."""

    def __init__(self, x: np.ndarray, channels: int, g: Geometry, out_hw: tuple[int, int], dtype):
        self.n, self.c, h, w = x.shape
        self.oh, self.ow = out_hw
        bt, gm, at = _F4 if min(out_hw) >= _F4_MIN_SIDE else _F2
        self.m, self.a = at.shape
        self.input_t = np.kron(bt, bt).astype(dtype)  # (a^2, a^2): d -> B^T d B, flattened
        self.weight_t = np.kron(gm, gm).astype(dtype)  # (a^2, 9)
        self.output_t = np.kron(at, at).astype(dtype)  # (m^2, a^2)
        self.th, self.tw = -(-self.oh // self.m), -(-self.ow // self.m)
        tiles = self.th * self.tw
        self.step = max(-(-_MIN_TILES // tiles),
                        _CHUNK_BYTES // (self.a ** 2 * max(self.c, channels) * tiles * np.dtype(dtype).itemsize))
        k = min(self.step, self.n)
        (pt, _), (pl, _) = g.pads
        rows, cols = self.th * self.m + 2, self.tw * self.m + 2
        self.xp = np.zeros((k, self.c, rows, cols), dtype)
        self.inside = (slice(pt, min(pt + h, rows)), slice(pl, min(pl + w, cols)))
        self.x = x[..., :self.inside[0].stop - pt, :self.inside[1].stop - pl]
        self.most = k * tiles  # tiles in the largest chunk
        self.windows = np.empty(self.a ** 2 * self.c * self.most, dtype)
        self.v = np.empty(self.a ** 2 * self.c * self.most, dtype)

    def chunks(self):
        return [slice(s, min(s + self.step, self.n)) for s in range(0, self.n, self.step)]

    def transformed(self, t: slice) -> np.ndarray:
        """B^T d B of every input tile of the images ``t``, (a^2, C, tiles)."""
        k, p = t.stop - t.start, (t.stop - t.start) * self.th * self.tw
        xp = self.xp[:k]
        parallel_copy(xp[(...,) + self.inside], self.x[t])
        sn, sc, sh, sw = xp.strides
        win = as_strided(xp, (self.a, self.a, self.c, k, self.th, self.tw),
                         (sh, sw, sc, sn, sh * self.m, sw * self.m), writeable=False)
        d = _part(self.windows, win.shape)
        parallel_copy(d, win)
        # (OpenBLAS's sgemm is erratic, up to 100x slower, with a transposed operand of 9-36 rows: both stay
        # C-contiguous here and below.)
        v = np.matmul(self.input_t, d.reshape(self.a ** 2, -1), out=_part(self.v, (self.a ** 2, self.c * p)))
        return v.reshape(self.a ** 2, self.c, p)

    def tiled(self, u: np.ndarray, buffer: np.ndarray, out: np.ndarray) -> np.ndarray:
        """(k, O, oh, ow) output gradients as (m^2, O * tiles) tiles, zero past the map's edge."""
        k, o = u.shape[:2]
        grid = buffer[:k]
        parallel_copy(grid[..., :self.oh, :self.ow], u)
        tiles = _part(out, (self.m, self.m, o, k, self.th, self.tw))
        parallel_copy(tiles, grid.reshape(k, o, self.th, self.m, self.tw, self.m).transpose(3, 5, 1, 0, 2, 4))
        return tiles.reshape(self.m ** 2, -1)


def conv(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """The forward convolution, as ``conv._conv``."""
    o = w.shape[0]
    dtype = np.result_type(x, w)
    out_hw = g.out_size(x.shape[2], x.shape[3], 3, 3)
    plan = _Plan(x, o, g, out_hw, dtype)
    a2, m = plan.a ** 2, plan.m
    u = (plan.weight_t @ np.ascontiguousarray(w.reshape(-1, 9).T, dtype)).reshape(a2, o, plan.c)
    out = np.empty((plan.n, o) + out_hw, dtype)
    prod = np.empty(a2 * o * plan.most, dtype)
    tiles = np.empty(m ** 2 * o * plan.most, dtype)
    for t in plan.chunks():
        v = plan.transformed(t)
        p = v.shape[2]
        mp = np.matmul(u, v, out=_part(prod, (a2, o, p)))
        y = np.matmul(plan.output_t, mp.reshape(a2, -1), out=_part(tiles, (m ** 2, o * p)))
        y = y.reshape(m, m, o, -1, plan.th, plan.tw).transpose(3, 2, 4, 0, 5, 1)
        parallel_copy(out[t], y.reshape(y.shape[0], o, plan.th * m, plan.tw * m)[..., :out_hw[0], :out_hw[1]])
    return out


def weight_grad(x: np.ndarray, u: np.ndarray, g: Geometry) -> np.ndarray:
    """The weight gradient, as ``conv._conv_weight_grad``: the adjoint in w of ``conv``'s computation."""
    o = u.shape[1]
    dtype = np.result_type(x, u)
    plan = _Plan(x, o, g, u.shape[2:], dtype)
    a2, m = plan.a ** 2, plan.m
    grid = np.zeros((plan.xp.shape[0], o, plan.th * m, plan.tw * m), dtype)
    tiles = np.empty(m ** 2 * o * plan.most, dtype)
    output_adjoint = np.ascontiguousarray(plan.output_t.T)
    grad = np.empty(a2 * o * plan.most, dtype)
    s = np.zeros((a2, o, plan.c), dtype)
    for t in plan.chunks():
        v = plan.transformed(t)
        p = v.shape[2]
        dm = np.matmul(output_adjoint, plan.tiled(u[t], grid, tiles), out=_part(grad, (a2, o * p)))
        s += dm.reshape(a2, o, p) @ v.transpose(0, 2, 1)
    gw = np.ascontiguousarray(plan.weight_t.T) @ s.reshape(a2, -1)
    return np.ascontiguousarray(gw.reshape(3, 3, o, plan.c).transpose(2, 3, 0, 1))
