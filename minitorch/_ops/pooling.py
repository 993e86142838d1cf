"""Pooling and resampling over the last two dims: max_pool2d, avg_pool2d,
adaptive_avg_pool2d, nearest upsampling and padding.

Windows are strided views (no copies of the input per window); gradients go back
through the same windows, by index (max, nearest, pad) or evenly (average).
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .conv import Geometry, _window_slice, _windows
from .indexing import Index, IndexScatter


def pooled_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """Output length of a pooling window sweep, with torch's ceil_mode rule (the last
    window must start inside the input or the left padding)."""
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_geometry(h, w, kernel, stride, padding, dilation, ceil_mode):
    """Output size, and a Geometry whose bottom/right padding also covers ceil_mode's extra windows."""
    oh = pooled_size(h, kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    ow = pooled_size(w, kernel[1], stride[1], padding[1], dilation[1], ceil_mode)
    extra_h = max(0, (oh - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1 - (h + 2 * padding[0]))
    extra_w = max(0, (ow - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1 - (w + 2 * padding[1]))
    pads = ((padding[0], padding[0] + extra_h), (padding[1], padding[1] + extra_w))
    return oh, ow, Geometry(tuple(stride), pads, tuple(dilation), 1)


def _flat(x: np.ndarray) -> np.ndarray:
    """(..., H, W) as (batch*channels, H*W)."""
    return x.reshape(-1, x.shape[-2] * x.shape[-1])


class MaxPool2d(Op, name="MaxPool2DWithIndicesBackward0"):
    """Max over each window; also returns the flat (H*W) index of each maximum."""

    @staticmethod
    def forward(ctx, x, kernel=(1, 1), stride=(1, 1), padding=(0, 0), dilation=(1, 1), ceil_mode=False):
        lead, (h, w) = x.shape[:-2], x.shape[-2:]
        x4 = x.reshape((-1, 1, h, w))
        oh, ow, geo = _pool_geometry(h, w, kernel, stride, padding, dilation, ceil_mode)
        fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        xp = np.pad(x4, ((0, 0), (0, 0)) + geo.pads, constant_values=fill)
        windows = _windows(xp, kernel[0], kernel[1], oh, ow, geo).reshape(x4.shape[0], kernel[0] * kernel[1], oh, ow)
        arg = windows.argmax(axis=1)
        values = np.take_along_axis(windows, arg[:, None], 1)[:, 0]
        # flat index into the unpadded input of the window element that won
        ki, kj = np.divmod(arg, kernel[1])
        rows = np.arange(oh)[:, None] * stride[0] + ki * dilation[0] - padding[0]
        cols = np.arange(ow)[None, :] * stride[1] + kj * dilation[1] - padding[1]
        indices = (rows * w + cols).astype(np.int64)
        ctx.in_shape, ctx.indices = x.shape, indices
        return values.reshape(lead + (oh, ow)), indices.reshape(lead + (oh, ow))

    @staticmethod
    def backward(ctx, g, g_indices=None):
        n = ctx.indices.shape[0]
        index = (np.arange(n)[:, None], ctx.indices.reshape(n, -1))
        h, w = ctx.in_shape[-2:]
        gx = IndexScatter.apply(g.reshape((n, -1)), shape=(n, h * w), index=index, accumulate=True)
        return gx.reshape(ctx.in_shape)


class AvgPlan:
    """The geometry of one avg_pool2d: the pooling ``apply`` and its adjoint ``spread``."""

    def __init__(self, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
        h, w = shape[-2:]
        self.in_shape, self.kernel = tuple(shape), tuple(kernel)
        self.oh, self.ow, self.geo = _pool_geometry(h, w, kernel, stride, padding, (1, 1), ceil_mode)
        self.divisor = _avg_divisor(h, w, kernel, padding, self.geo, self.oh, self.ow, count_include_pad,
                                    divisor_override)

    def apply(self, x: np.ndarray) -> np.ndarray:
        h, w = self.in_shape[-2:]
        xp = np.pad(x.reshape((-1, 1, h, w)), ((0, 0), (0, 0)) + self.geo.pads)
        sums = _windows(xp, self.kernel[0], self.kernel[1], self.oh, self.ow, self.geo).sum(axis=(2, 3))
        return (sums / self.divisor).astype(x.dtype, copy=False).reshape(self.in_shape[:-2] + (self.oh, self.ow))

    def spread(self, g: np.ndarray) -> np.ndarray:
        h, w = self.in_shape[-2:]
        (pt, pb), (pl, pr) = self.geo.pads
        share = (g / self.divisor).astype(g.dtype, copy=False).reshape((-1, 1, self.oh, self.ow))
        gp = np.zeros((share.shape[0], 1, h + pt + pb, w + pl + pr), g.dtype)
        for i in range(self.kernel[0]):
            for j in range(self.kernel[1]):
                gp[_window_slice(i, j, self.oh, self.ow, self.geo)] += share
        return gp[:, :, pt:pt + h, pl:pl + w].reshape(self.in_shape)


def _avg_divisor(h, w, kernel, padding, geo, oh, ow, count_include_pad, divisor_override):
    """Per-output divisor: the window size, or the number of real (non-padding) elements in it."""
    if divisor_override:
        return float(divisor_override)
    if count_include_pad:
        region = np.ones((1, 1, h + 2 * padding[0], w + 2 * padding[1]))
        pads = ((0, geo.pads[0][1] - padding[0]), (0, geo.pads[1][1] - padding[1]))  # ceil_mode overhang
    else:
        region = np.ones((1, 1, h, w))
        pads = geo.pads
    counted = np.pad(region, ((0, 0), (0, 0)) + pads)
    return _windows(counted, kernel[0], kernel[1], oh, ow, geo).sum(axis=(2, 3))[0, 0]


class AvgPool2d(Op, name="AvgPool2DBackward0"):
    @staticmethod
    def forward(ctx, x, plan=None):
        ctx.plan = plan
        return plan.apply(x)

    @staticmethod
    def backward(ctx, g):
        return AvgPool2dSpread.apply(g, plan=ctx.plan)


class AvgPool2dSpread(Op, name="AvgPool2DBackwardBackward0"):
    """avg_pool2d's gradient: each output gradient spread evenly over its window."""

    @staticmethod
    def forward(ctx, g, plan=None):
        ctx.plan = plan
        return plan.spread(g)

    @staticmethod
    def backward(ctx, gg):
        return AvgPool2d.apply(gg, plan=ctx.plan)


def _adaptive_matrix(size: int, out: int, dtype) -> np.ndarray:
    """(out, size) averaging matrix: row i averages inputs floor(i*size/out) .. ceil((i+1)*size/out)."""
    m = np.zeros((out, size), dtype)
    for i in range(out):
        start, end = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return m


class AdaptiveAvgPool2d(Op, name="AdaptiveAvgPool2DBackward0"):
    """Average pooling to a fixed output size: separable, y = A_h @ x @ A_w^T."""

    @staticmethod
    def forward(ctx, x, output_size=(1, 1)):
        ah = _adaptive_matrix(x.shape[-2], output_size[0], x.dtype)
        aw = _adaptive_matrix(x.shape[-1], output_size[1], x.dtype)
        ctx.save_for_backward(ah, aw)
        return ah @ x @ aw.T

    @staticmethod
    def backward(ctx, g):
        ah, aw = ctx.saved_tensors
        return ah.mT @ g @ aw


class UpsampleNearest2d(Op, name="UpsampleNearest2DBackward0"):
    """Nearest-neighbour resize of the last two dims: output pixel (y, x) copies input
    (floor(y * scale_h), floor(x * scale_w)), with torch's scales (in/out, or 1/scale_factor)."""

    @staticmethod
    def forward(ctx, x, size=(1, 1), scales=(1.0, 1.0)):
        rows = np.minimum((np.arange(size[0]) * scales[0]).astype(np.int64), x.shape[-2] - 1)
        cols = np.minimum((np.arange(size[1]) * scales[1]).astype(np.int64), x.shape[-1] - 1)
        ctx.in_shape, ctx.index = x.shape, (Ellipsis, rows[:, None], cols[None, :])
        return x[ctx.index]

    @staticmethod
    def backward(ctx, g):
        return IndexScatter.apply(g, shape=ctx.in_shape, index=ctx.index, accumulate=True)


def pad_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """Source positions for a dim padded by ``before``/``after`` in reflect, replicate or circular mode."""
    i = np.arange(-before, size + after)
    if mode == "reflect":
        period = 2 * (size - 1)
        i = np.abs(i) % period if period else np.zeros_like(i)
        return np.where(i >= size, period - i, i)
    if mode == "replicate":
        return np.clip(i, 0, size - 1)
    return i % size  # circular


class ConstantPadNd(Op):
    @staticmethod
    def forward(ctx, x, pads=(), value=0.0):
        ctx.crop = tuple(slice(b, x.shape[d] + b) for d, (b, _) in enumerate(pads))
        if any(b < 0 or a < 0 for b, a in pads):
            raise NotImplementedError("negative padding (cropping) is not supported")
        return np.pad(x, pads, constant_values=value)

    @staticmethod
    def backward(ctx, g):
        return Index.apply(g, index=ctx.crop)


class IndexPad(Index):
    """reflect / replicate / circular padding: a gather with a per-dim index map."""


class ReflectionPad2D(IndexPad, name="ReflectionPad2DBackward0"):
    pass


class ReplicationPad2D(IndexPad, name="ReplicationPad2DBackward0"):
    pass


class CircularPad2D(IndexPad, name="CircularPad2DBackward0"):
    pass
