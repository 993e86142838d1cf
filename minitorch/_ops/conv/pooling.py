"""The pooling and resampling ops: max_pool2d, avg_pool2d (1-d ones run as 2-d ones of height 1),
3-d max pooling by window argmax, adaptive pooling and linear interpolation as separable matrix
products, max_unpool, nearest upsampling and padding. The functional forms are in
``pooling_functions``.

Windows are strided views (no copies of the input per window); gradients go back
through the same windows, by index (max, nearest, pad) or evenly (average).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..._core.function import Op
from .convolution import _conv_nd, _conv_transpose_nd
from .geometry import Geometry, Taps, _window_slice, _windows
from ..shape.indexing import Index, Made, along


def pooled_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """Output length of a pooling window sweep, with torch's ceil_mode rule (the last
    window must start inside the input or the left padding)."""
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_geometry(shape, kernel, stride, padding, dilation, ceil_mode):
    """Output size, and a Geometry whose bottom/right padding also covers ceil_mode's extra windows."""
    h, w = shape[-2:]
    oh = pooled_size(h, kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    ow = pooled_size(w, kernel[1], stride[1], padding[1], dilation[1], ceil_mode)
    if oh < 1 or ow < 1:
        c = shape[-3]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{oh}x{ow}). "
                           "Output size is too small")
    extra_h = max(0, (oh - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1 - (h + 2 * padding[0]))
    extra_w = max(0, (ow - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1 - (w + 2 * padding[1]))
    pads = ((padding[0], padding[0] + extra_h), (padding[1], padding[1] + extra_w))
    return oh, ow, Geometry(tuple(stride), pads, tuple(dilation), 1)


class MaxPlan:
    """The geometry of one max_pool2d (Python values only): the pooling, which also finds the tap (kernel
    position, 0 .. kh*kw-1) holding each maximum (``arg``), the gradient's scatter back to those taps and
    its adjoint, the gather from them: one pass per tap over the contiguous window views of ``conv.Taps``."""

    def __init__(self, shape, kernel, stride, padding, dilation, ceil_mode):
        self.in_shape, self.kernel, self.padding, self.dilation = tuple(shape), tuple(kernel), padding, dilation
        self.oh, self.ow, geo = _pool_geometry(shape, kernel, stride, padding, dilation, ceil_mode)
        self.taps = Taps(shape[-2:], kernel, geo, (self.oh, self.ow))

    def _out(self, a: np.ndarray) -> np.ndarray:
        """(P, Hg * Wg) results as (..., oh, ow), contiguous as torch's (not a view skipping the junk)."""
        return self.taps.off_grid(a).reshape(self.in_shape[:-2] + (self.oh, self.ow))

    def pool(self, x: np.ndarray, track: bool = True) -> tuple:
        """The maxima, and (with ``track``: needed for a gradient or the indices) their taps, else None;
        the planes split across the threads."""
        fill = -np.inf if x.dtype.kind in "fV" else np.iinfo(x.dtype).min
        planes = _planes(x)
        windows = self.taps.windows(self.taps.split(planes, fill), planes.shape[0])
        values = np.empty(windows[0].shape, x.dtype)
        arg = np.zeros(values.shape, np.uint8 if len(windows) < 256 else np.int64) if track else None

        def maxima(b: int, e: int) -> None:
            v = values[b:e]
            np.copyto(v, windows[0][b:e])
            for w in windows[1:]:
                np.maximum(v, w[b:e], out=v)  # propagates NaN, as torch does
            if track:
                a = arg[b:e]
                for k in reversed(range(len(windows))):  # the first maximum wins: arg = k where equal
                    a += (windows[k][b:e] == v) * (k - a)
                if v.dtype.kind in "fV" and np.isnan(v).any():  # in torch the last NaN of a window wins
                    for k, w in enumerate(windows):
                        np.copyto(a, k, where=np.isnan(w[b:e]))
        self.taps.by_planes(planes.shape[0], maxima)
        return self._out(values), arg

    def indices(self, arg: np.ndarray) -> np.ndarray:
        """Flat (H*W) index into the unpadded input of each maximum, as torch returns them."""
        ki, kj = np.divmod(self._out(arg).astype(np.int64), self.kernel[1])
        stride = self.taps.g.stride
        rows = np.arange(self.oh)[:, None] * stride[0] + ki * self.dilation[0] - self.padding[0]
        cols = np.arange(self.ow)[None, :] * stride[1] + kj * self.dilation[1] - self.padding[1]
        return rows * self.in_shape[-1] + cols

    def scatter(self, g: np.ndarray, arg: np.ndarray) -> np.ndarray:
        """Each output gradient added at its window's maximum (tap ``arg``)."""
        g4 = _planes(g)
        grid = self.taps.on_grid(g4.reshape(-1, self.oh, self.ow))
        return self.taps.scatter(lambda k, rows: _masked(grid[rows], arg[rows] == k), grid.shape[0],
                                 g.dtype).reshape(self.in_shape)

    def gather(self, gg: np.ndarray, arg: np.ndarray) -> np.ndarray:
        """The adjoint of ``scatter``: each output reads the input at its window's maximum (tap ``arg``)."""
        planes = _planes(gg)
        sources = self.taps.windows(self.taps.split(planes), planes.shape[0])
        out = np.zeros(arg.shape, gg.dtype)

        def read(b: int, e: int) -> None:
            for k, source in enumerate(sources):
                out[b:e] += _masked(source[b:e], arg[b:e] == k)
        self.taps.by_planes(planes.shape[0], read)
        return self._out(out)


def _masked(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``values`` where ``mask`` holds, +0.0 elsewhere (infinities and NaN included), computed
    branch-free on the bits: ``np.where`` on an irregular mask is tens of times slower."""
    bits = values.view(np.dtype(f"u{values.itemsize}"))
    return (bits & -mask.astype(bits.dtype)).view(values.dtype)


def _planes(a: np.ndarray) -> np.ndarray:
    """(..., H, W) as (planes, H, W)."""
    return a.reshape((-1,) + a.shape[-2:])


class MaxPool2d(Op, name="MaxPool2DWithIndicesBackward0"):
    """Max over each window; with ``return_indices``, also the flat (H*W) index of each maximum.
    ``track``: whether a gradient may be asked for (the maxima's taps are found and saved only then, with
    ``x``, saved only to check its version, as torch's node does)."""

    @staticmethod
    def forward(ctx, x, return_indices=False, track=True, **geometry):
        ctx.plan = plan = MaxPlan(x.shape, **geometry)
        values, arg = plan.pool(x, track or return_indices)
        if track:
            ctx.save_for_backward(x, arg)
        return (values, plan.indices(arg)) if return_indices else values

    @staticmethod
    def backward(ctx, g, g_indices=None):
        _, arg = ctx.saved_tensors
        return MaxPool2dScatter.apply(g, arg, plan=ctx.plan)


class _Adjoint(Op):
    """One of a pair of linear ops that are each other's gradient, both computed by a plan of Python values
    (``MaxPlan``, ``AvgPlan``) and arrays given after the input (the maxima's taps, the divisors), which
    are saved: forward is ``plan.<method>(x, *arrays)``, backward the other op of the pair (``adjoint``).
    ``keeps_input``: ``x`` is saved too, only to check its version, as torch's node does."""

    method = ""
    adjoint: type[Op]
    keeps_input = False

    @classmethod
    def forward(cls, ctx, x, *arrays, plan=None):
        ctx.plan = plan
        ctx.save_for_backward(*((x,) + arrays if cls.keeps_input else arrays))
        return getattr(plan, cls.method)(x, *arrays)

    @classmethod
    def backward(cls, ctx, g):
        arrays = ctx.saved_tensors[1:] if cls.keeps_input else ctx.saved_tensors
        return (cls.adjoint.apply(g, *arrays, plan=ctx.plan), *(None,) * len(arrays))


class MaxPool2dScatter(_Adjoint, name="MaxPool2DWithIndicesBackwardBackward0"):
    """max_pool2d's gradient: each output gradient goes to its window's maximum."""

    method = "scatter"


class MaxPool2dGather(_Adjoint, name="MaxPool2DWithIndicesBackwardBackwardBackward0"):
    method = "gather"


MaxPool2dScatter.adjoint, MaxPool2dGather.adjoint = MaxPool2dGather, MaxPool2dScatter


class AvgPlan:
    """The geometry of one avg_pool2d (Python values only): the pooling ``apply`` and its adjoint ``spread``,
    both given the per-window divisors (``divisor()``)."""

    def __init__(self, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
        self.in_shape, self.kernel, self.padding = tuple(shape), tuple(kernel), tuple(padding)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        self.oh, self.ow, self.geo = _pool_geometry(shape, kernel, stride, padding, (1, 1), ceil_mode)

    def divisor(self):
        """Per output, the number the window's sum is divided by (an array, or one number)."""
        h, w = self.in_shape[-2:]
        return _avg_divisor(h, w, self.kernel, self.padding, self.geo, self.oh, self.ow, self.count_include_pad,
                            self.divisor_override)

    def apply(self, x: np.ndarray, divisor) -> np.ndarray:
        h, w = self.in_shape[-2:]
        xp = np.pad(x.reshape((-1, 1, h, w)), ((0, 0), (0, 0)) + self.geo.pads)
        sums = _windows(xp, self.kernel[0], self.kernel[1], self.oh, self.ow, self.geo).sum(axis=(2, 3))
        return (sums / divisor).astype(x.dtype, copy=False).reshape(self.in_shape[:-2] + (self.oh, self.ow))

    def spread(self, g: np.ndarray, divisor) -> np.ndarray:
        h, w = self.in_shape[-2:]
        (pt, pb), (pl, pr) = self.geo.pads
        share = (g / divisor).astype(g.dtype, copy=False).reshape((-1, 1, self.oh, self.ow))
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


class AvgPool2d(_Adjoint, name="AvgPool2DBackward0"):
    """Average over each window (``AvgPlan``, and its divisors)."""

    method, keeps_input = "apply", True


class AvgPool2dSpread(_Adjoint, name="AvgPool2DBackwardBackward0"):
    """avg_pool2d's gradient: each output gradient spread evenly over its window."""

    method = "spread"


AvgPool2d.adjoint, AvgPool2dSpread.adjoint = AvgPool2dSpread, AvgPool2d


class AvgPlan3d:
    """One avg_pool3d (Python values only): window sums by a one-channel convolution of each (D, H, W) plane,
    over the per-window ``divisor`` (an array of the output's spatial shape); ``spread`` is the adjoint."""

    def __init__(self, shape, kernel, geometry: Geometry):
        self.in_shape, self.kernel, self.geo = tuple(shape), tuple(kernel), geometry

    def apply(self, x: np.ndarray, divisor: np.ndarray) -> np.ndarray:
        ones = np.ones((1, 1) + self.kernel, x.dtype)
        sums = _conv_nd(x.reshape((-1, 1) + self.in_shape[-3:]), ones, self.geo)
        return (sums / divisor).astype(x.dtype, copy=False).reshape(self.in_shape[:-3] + divisor.shape)

    def spread(self, g: np.ndarray, divisor: np.ndarray) -> np.ndarray:
        share = (g / divisor).astype(g.dtype, copy=False).reshape((-1, 1) + divisor.shape)
        ones = np.ones((1, 1) + self.kernel, g.dtype)
        return _conv_transpose_nd(share, ones, self.geo, self.in_shape[-3:]).reshape(self.in_shape)


class AvgPool3d(_Adjoint, name="AvgPool3DBackward0"):
    method, keeps_input = "apply", True


class AvgPool3dSpread(_Adjoint, name="AvgPool3DBackwardBackward0"):
    method = "spread"


AvgPool3d.adjoint, AvgPool3dSpread.adjoint = AvgPool3dSpread, AvgPool3d


def _adaptive_matrix(size: int, out: int, dtype) -> np.ndarray:
    """(out, size) averaging matrix: row i averages inputs floor(i*size/out) .. ceil((i+1)*size/out)."""
    m = np.zeros((out, size), dtype)
    for i in range(out):
        start, end = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return m


class Separable(Op):
    """A linear map along each of the last ``len(matrices)`` dims: y = x multiplied by ``matrices[i]`` (or, with
    ``transpose``, its transpose) along dim ``-len(matrices) + i`` (adaptive average pooling, interpolation).
    The matrices are given as ``Made`` recipes, made when used, of (matrix, support) pairs: the support is (entries
    read, entries read with weight 0) in torch's loops, so that a NaN or inf reaches the outputs that read it, not
    every output of its row. ``keeps_input``: ``x`` is saved, only to check its version, as torch's node does."""

    keeps_input = False

    @classmethod
    def forward(cls, ctx, x, matrices=(), transpose=False):
        ctx.matrices, ctx.transpose = matrices, transpose
        if cls.keeps_input:
            ctx.save_for_backward(x)
        finite = x.dtype.kind not in "fV" or bool(np.isfinite(x).all())
        first = x.ndim - len(matrices)
        for axis, recipe in enumerate(matrices, first):
            m, support = recipe.fn(*recipe.args)
            if transpose:
                m, support = np.ascontiguousarray(m.T), tuple(_t(s) for s in support)
            if finite:
                x = m @ x if axis == x.ndim - 2 else np.moveaxis(np.moveaxis(x, axis, -1) @ m.T, -1, axis)
            else:
                x = np.moveaxis(_taps_product(np.moveaxis(x, axis, -1), m.T, *(_t(s) for s in support)), -1, axis)
        return x

    @classmethod
    def backward(cls, ctx, g):
        if cls.keeps_input:
            ctx.check_saved()
        return Separable.apply(g, matrices=ctx.matrices, transpose=not ctx.transpose)


def _t(mask):
    return None if mask is None else mask.T


def _taps_product(x: np.ndarray, m: np.ndarray, reads: np.ndarray, zero_reads) -> np.ndarray:
    """``x @ m`` for an ``x`` with NaN or inf, as a loop over the entries ``reads`` of ``m`` computes it: the finite
    part by a product, then NaN where a NaN is read (or an inf with weight 0, in ``zero_reads``) or +inf meets
    -inf, and +-inf where only one of them is read."""
    y = np.where(np.isfinite(x), x, 0) @ m
    nan = np.isnan(x) @ reads
    if zero_reads is not None:
        nan |= np.isinf(x) @ zero_reads
    up = (np.isposinf(x) @ (m > 0)) | (np.isneginf(x) @ (m < 0))
    down = (np.isneginf(x) @ (m > 0)) | (np.isposinf(x) @ (m < 0))
    return np.where(nan | (up & down), np.nan, np.where(up, np.inf, np.where(down, -np.inf, y))).astype(y.dtype)


class AdaptiveAvgPool2d(Separable, name="AdaptiveAvgPool2DBackward0"):
    keeps_input = True


class AdaptiveAvgPool3d(Separable, name="AdaptiveAvgPool3DBackward0"):
    keeps_input = True


UpsampleBilinear2d = Separable.named("UpsampleBilinear2d", "UpsampleBilinear2DBackward0")


def adaptive_plan(size: int, out: int, dtype) -> tuple:
    """``Separable``'s (matrix, support) for adaptive average pooling of one dim."""
    m = _adaptive_matrix(size, out, dtype)
    return m, (m != 0, None)


def adaptive_avg_matrices(sizes, outs, dtype) -> tuple:
    return tuple(Made(adaptive_plan, n, o, dtype) for n, o in zip(sizes, outs))


def _nearest(size: int, scale: float, n: int, axis: int, ndim: int) -> np.ndarray:
    """The source positions of ``size`` outputs, ``scale`` inputs apart, in a dim of ``n`` inputs, along ``axis``
    of ``ndim`` broadcasting axes."""
    return np.minimum((np.arange(size) * scale).astype(np.int64), n - 1).reshape((-1,) + (1,) * (ndim - axis - 1))


# Nearest-neighbour resize of the last two dims: output pixel (y, x) copies input (floor(y * scale_h), floor(x *
# scale_w)), with torch's scales (in/out, or 1/scale_factor).
UpsampleNearest2d = Index.named("UpsampleNearest2d", "UpsampleNearest2DBackward0")


def nearest_index(shape, size, scales) -> tuple:
    """``UpsampleNearest2d``'s index template for an input of ``shape``."""
    return (Ellipsis, *(Made(_nearest, size[k], scales[k], shape[k - 2], k, 2) for k in range(2)))


class _WindowMax(Index):
    """The maxima of pooling windows, gathered by the coordinates of each (found from the input's values,
    given as the index arrays); the input is saved too, only to check its version, as torch's node does.
    Windows may overlap: gradients add."""

    keeps_input = True


AdaptiveMaxPool2D = _WindowMax.named("AdaptiveMaxPool2D", "AdaptiveMaxPool2DBackward0")
AdaptiveMaxPool3D = _WindowMax.named("AdaptiveMaxPool3D", "AdaptiveMaxPool3DBackward0")
MaxPool3D = _WindowMax.named("MaxPool3D", "MaxPool3DWithIndicesBackward0")
FractionalMaxPool2D = _WindowMax.named("FractionalMaxPool2D", "FractionalMaxPool2DBackward0")
FractionalMaxPool3D = _WindowMax.named("FractionalMaxPool3D", "FractionalMaxPool3DBackward0")


class MaxUnpool(Op):
    """Values written at their flat per-plane ``indices`` (max_pool's) into zeros of ``shape``, whose last
    ``dims`` dims are the planes'."""

    @staticmethod
    def forward(ctx, x, indices, shape=(), dims=2):
        ctx.in_shape, ctx.shape, ctx.dims = x.shape, shape, dims
        ctx.save_for_backward(indices)
        planes, size = math.prod(shape[:-dims]), math.prod(x.shape[-dims:])
        out = np.zeros((planes, math.prod(shape[-dims:])), x.dtype)
        np.put_along_axis(out, indices.reshape(planes, size), x.reshape(planes, size), 1)
        return out.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        (indices,) = ctx.saved_tensors
        planes, size = math.prod(ctx.shape[:-ctx.dims]), math.prod(ctx.in_shape[-ctx.dims:])
        template, arrays = along(indices.reshape(planes, size), 1)
        return Index.apply(g.reshape(planes, -1), *arrays, index=template).reshape(ctx.in_shape), None


MaxUnpool1D = MaxUnpool.named("MaxUnpool1D", "MaxUnpool1DBackward0")
MaxUnpool2D = MaxUnpool.named("MaxUnpool2D", "MaxUnpool2DBackward0")
MaxUnpool3D = MaxUnpool.named("MaxUnpool3D", "MaxUnpool3DBackward0")


def window_argmax(a: np.ndarray, kernel, stride, padding, dilation, ceil_mode):
    """For (P, *S) planes ``a``: the coordinates (in S) of each pooling window's first maximum (the last NaN
    where there is one, as in torch), as one (P, *out) array per dim."""
    size = a.shape[1:]
    out = [pooled_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d in zip(size, kernel, stride, padding, dilation)]
    if min(out) < 1:
        c = a.shape[0]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (c,) + size))}). Calculated output size: "
                           f"({'x'.join(map(str, [c] + out))}). Output size is too small")
    extra = [max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
             for n, o, k, s, p, d in zip(size, out, kernel, stride, padding, dilation)]
    fill = -np.inf if a.dtype.kind in "fV" else np.iinfo(a.dtype).min
    ap = np.pad(a, ((0, 0),) + tuple((p, p + e) for p, e in zip(padding, extra)), constant_values=fill)
    steps = ap.strides[1:]
    view = as_strided(ap, (a.shape[0], *out, *kernel), (ap.strides[0], *(t * s for t, s in zip(steps, stride)),
                                                       *(t * d for t, d in zip(steps, dilation))), writeable=False)
    arg = window_max_position(view.reshape(a.shape[0], *out, -1))
    grid = np.indices(out, sparse=True)
    return tuple(o * s + k * d - p for o, k, s, p, d in
                 zip(grid, np.unravel_index(arg, kernel), stride, padding, dilation))


def window_max_position(windows: np.ndarray) -> np.ndarray:
    """The position along the last axis of each window's maximum: the first one, or the last NaN (as torch)."""
    arg = windows.argmax(-1)
    if windows.dtype.kind in "fV":
        nan = np.isnan(windows)
        if nan.any():
            arg = np.where(nan.any(-1), nan.shape[-1] - 1 - nan[..., ::-1].argmax(-1), arg)
    return arg


def adaptive_max_index(a: np.ndarray, bounds):
    """For (..., *S) ``a`` and, per dim of S, the windows' (start, end) bounds: the coordinates in S of each
    window's first maximum (one array per dim), and its flat (prod(S)) position as torch returns it."""
    k = len(bounds)
    lead, size = a.shape[:-k], a.shape[-k:]
    planes = a.reshape((-1,) + size)
    outs = tuple(len(b) for b in bounds)
    coords = [np.empty((planes.shape[0],) + outs, np.int64) for _ in range(k)]
    for cell in itertools.product(*(range(o) for o in outs)):
        box = [bounds[d][i] for d, i in enumerate(cell)]
        win = planes[(slice(None),) + tuple(slice(b0, b1) for b0, b1 in box)].reshape(planes.shape[0], -1)
        flat = window_max_position(win)
        for d, offset in enumerate(np.unravel_index(flat, [b1 - b0 for b0, b1 in box])):
            coords[d][(slice(None),) + cell] = box[d][0] + offset
    coords = [c.reshape(lead + outs) for c in coords]
    return tuple(coords), np.ravel_multi_index(coords, size)
