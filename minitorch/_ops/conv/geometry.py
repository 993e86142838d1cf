"""Window geometry shared by convolution and pooling: strides, padding and dilation (``Geometry``),
padded copies, strided window views, and ``Taps`` (one contiguous view per kernel position).
Plain numpy: this module imports no op module.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..._core.parallel import parallel_copy, parallel_rows


@dataclass(frozen=True)
class Geometry:
    stride: tuple[int, int]
    pads: tuple[tuple[int, int], tuple[int, int]]  # (top, bottom), (left, right)
    dilation: tuple[int, int]
    groups: int
    depth: tuple | None = None  # 3-d: the depth axis's (stride, (front, back) padding, dilation)

    def plane(self) -> "Geometry":
        """The (H, W) part of a 3-d geometry."""
        return replace(self, depth=None)

    def depth_taps(self, k: int, out: int) -> list[slice]:
        """Where each of ``k`` depth kernel positions reads the depth-padded input, for ``out`` outputs."""
        s, _, d = self.depth
        return [slice(i * d, i * d + s * (out - 1) + 1, s) for i in range(k)]

    def out_size(self, h: int, w: int, kh: int, kw: int) -> tuple[int, int]:
        (pt, pb), (pl, pr) = self.pads
        return ((h + pt + pb - self.dilation[0] * (kh - 1) - 1) // self.stride[0] + 1,
                (w + pl + pr - self.dilation[1] * (kw - 1) - 1) // self.stride[1] + 1)


def _pad(x: np.ndarray, pads, slack: int = 0, value=0) -> np.ndarray:
    """Pad the last two axes with ``value`` (or, for negative amounts, crop them). With ``slack``,
    the result is C-contiguous and followed in its buffer by that many spare elements, for
    windows that overrun."""
    if not slack and not any(p for pair in pads for p in pair):
        return x
    (pt, pb), (pl, pr) = pads
    h, w = x.shape[-2:]
    x = x[..., max(-pt, 0):h - max(-pb, 0), max(-pl, 0):w - max(-pr, 0)]
    shape = x.shape[:-2] + (x.shape[-2] + max(pt, 0) + max(pb, 0), x.shape[-1] + max(pl, 0) + max(pr, 0))
    size = int(np.prod(shape))
    buffer = np.zeros(size + slack, x.dtype) if value == 0 else np.full(size + slack, value, x.dtype)
    out = buffer[:size].reshape(shape)
    parallel_copy(out[..., max(pt, 0):max(pt, 0) + x.shape[-2], max(pl, 0):max(pl, 0) + x.shape[-1]], x)
    return out


def _windows(xp: np.ndarray, kh: int, kw: int, oh: int, ow: int, g: Geometry) -> np.ndarray:
    """Read-only view (N, C, kh, kw, oh, ow): element [n, c, i, j, y, x] is the input under
    kernel position (i, j) for output pixel (y, x)."""
    sn, sc, sh, sw = xp.strides
    (dh, dw), (th, tw) = g.dilation, g.stride
    return as_strided(xp, xp.shape[:2] + (kh, kw, oh, ow), (sn, sc, sh * dh, sw * dw, sh * th, sw * tw),
                      writeable=False)


def _window_slice(i: int, j: int, oh: int, ow: int, g: Geometry):
    """Where kernel position (i, j) reads in the padded input, for all output pixels."""
    (dh, dw), (th, tw) = g.dilation, g.stride
    return (slice(None), slice(None), slice(i * dh, i * dh + th * (oh - 1) + 1, th),
            slice(j * dw, j * dw + tw * (ow - 1) + 1, tw))


class Taps:
    """The kernel windows of a convolution or pooling over P planes, as shifted flat views.

    The padded input is split into its stride phases ``padded[:, a::sh, b::sw]`` (just one for
    stride 1), each stored as P grids of one shape (Hg, Wg), back to back in a flat buffer with
    some spare elements after. Kernel position k (a "tap") then reads, for all planes at once, the
    buffer of its phase from one offset on: a (P, Hg * Wg) view whose rows are contiguous, so every
    pass over a window is a long run through memory. Element (p, y * Wg + x) is the input under
    tap k for output pixel (y, x) of plane p when y < oh and x < ow; the rest of each grid is junk
    that results drop (``off_grid``) and gradients leave at zero (``on_grid``).
    """

    def __init__(self, in_hw, kernel, g: Geometry, out_hw):
        (pt, pb), (pl, pr) = g.pads
        self.in_hw, self.g, (self.oh, self.ow) = tuple(in_hw), g, out_hw
        (sh, sw), (dh, dw) = g.stride, g.dilation
        self.grid = (-(-(in_hw[0] + pt + pb) // sh), -(-(in_hw[1] + pl + pr) // sw))
        self.taps = []  # per kernel position, row-major: (its phase, its offset in the phase's grid)
        for i in range(kernel[0]):
            for j in range(kernel[1]):
                (y0, a), (x0, b) = divmod(dh * i, sh), divmod(dw * j, sw)
                self.taps.append(((a, b), y0 * self.grid[1] + x0))
        self.slack = max(offset for _, offset in self.taps)

    def _grids(self, buffer: np.ndarray, planes: int) -> np.ndarray:
        return buffer[:planes * self.grid[0] * self.grid[1]].reshape((planes,) + self.grid)

    def _phase(self, a: int, b: int) -> tuple:
        """Where phase (a, b) of the padded input sits: (grid slice, input slice), per axis."""
        out = []
        for start, pad, stride, size in zip((a, b), (self.g.pads[0][0], self.g.pads[1][0]), self.g.stride,
                                            self.in_hw):
            first = max(0, -(-(pad - start) // stride))  # the first grid index on a real input element
            src = start + stride * first - pad
            count = max(0, -(-(size - src) // stride))
            out.append((slice(first, first + count), slice(src, src + stride * (count - 1) + 1, stride)))
        return out

    def split(self, x: np.ndarray, fill=0) -> dict:
        """The phase buffers of (P, H, W) planes ``x``, padded with ``fill``."""
        size = x.shape[0] * self.grid[0] * self.grid[1] + self.slack
        buffers = {}
        for phase, _ in self.taps:
            if phase not in buffers:
                buf = np.zeros(size, x.dtype) if fill == 0 else np.full(size, fill, x.dtype)
                (gy, sy), (gx, sx) = self._phase(*phase)
                parallel_copy(self._grids(buf, x.shape[0])[:, gy, gx], x[:, sy, sx])
                buffers[phase] = buf
        return buffers

    def by_planes(self, planes: int, fn) -> None:
        """``fn(b, e)`` over planes ``[0, planes)``, split across the threads at plane boundaries: a kernel's
        pass over the taps for some planes computes each of their elements whatever the split."""
        parallel_rows(planes, self.grid[0] * self.grid[1], fn)

    def windows(self, buffers: dict, planes: int) -> list[np.ndarray]:
        """One (P, Hg * Wg) view per tap (writable when the buffers are)."""
        n = self.grid[0] * self.grid[1]
        return [as_strided(buffers[phase][offset:], (planes, n), (n * buffers[phase].itemsize,
                                                                  buffers[phase].itemsize))
                for phase, offset in self.taps]

    def on_grid(self, a: np.ndarray) -> np.ndarray:
        """(P, oh, ow) values as (P, Hg * Wg), zero on the junk."""
        out = np.zeros((a.shape[0],) + self.grid, a.dtype)
        parallel_copy(out[:, :self.oh, :self.ow], a)
        return out.reshape(a.shape[0], -1)

    def off_grid(self, a: np.ndarray) -> np.ndarray:
        """(..., Hg * Wg) results as a new C-contiguous (..., oh, ow) array, the junk dropped."""
        view = a.reshape(a.shape[:-1] + self.grid)[..., :self.oh, :self.ow]
        out = np.empty(view.shape, view.dtype)
        parallel_copy(out, view)
        return out

    def scatter(self, values_at, planes: int, dtype) -> np.ndarray:
        """The adjoint of reading the windows: (P, H, W) zeros into whose tap-k window the (rows, Hg * Wg)
        array ``values_at(k, rows)`` (zero on the junk) is added, for every tap, the planes split across the
        threads. A tap's window of the last plane of a split runs into the next plane's grid only on junk:
        each split stops at its last plane's end, so no two write the same element."""
        n = self.grid[0] * self.grid[1]
        buffers = {phase: np.zeros(planes * n + self.slack, dtype) for phase, _ in self.taps}

        def add(b: int, e: int) -> None:
            for k, (phase, offset) in enumerate(self.taps):
                target = buffers[phase][b * n + offset:e * n]
                target += values_at(k, slice(b, e)).reshape(-1)[:target.size]
        self.by_planes(planes, add)
        out = np.zeros((planes,) + self.in_hw, dtype)
        for phase, buf in buffers.items():
            (gy, sy), (gx, sx) = self._phase(*phase)
            parallel_copy(out[:, sy, sx], self._grids(buf, planes)[:, gy, gx])
        return out
