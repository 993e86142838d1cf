"""Convolution in 1, 2 and 3 dims, as three ops that are each other's gradients:

- ``Convolution``: y = conv(x, w) + b;
- ``ConvTranspose``: the adjoint of conv in x, i.e. conv_transpose (and conv's input gradient);
- ``ConvWeightGrad``: the adjoint of conv in w (conv's weight gradient).

All three are bilinear, so each one's backward is written with the other two and
higher-order gradients come for free. The numpy kernels use strided window views
(im2col without Python loops over pixels) and one batched BLAS matmul; depthwise
convolutions (one input channel per group) use multiply-adds over the kernel
positions instead, and 1x1 convolutions skip the window copy.

The kernels are 2-d: a 1-d convolution is a 2-d one of height 1, and a 3-d one the sum over
its depth kernel positions of 2-d convolutions of the depth slices (each (N, C, D, H, W) slice
read as N * D images).

The functional forms (``conv1d`` .. ``conv_transpose3d``, ``convolution``, ``conv_tbc``) check
their arguments with torch's messages and build the ``Geometry``.
"""
from __future__ import annotations

import warnings

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..amp import lower_precision
from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import _C_TYPE_NAMES, Tensor
from ..._core.function import Op
from ..._core.parallel import parallel_copy, parallel_rows
from . import winograd
from .geometry import Geometry, Taps, _pad, _window_slice, _windows
from ..shape.joins import cat


def _is_depthwise(channels: int, channels_per_group: int, g: Geometry) -> bool:
    """One input channel per group: multiply-adds beat many tiny matmuls."""
    return g.groups == channels and channels_per_group == 1 and g.groups > 1


# The im2col matrix is built and consumed in tiles of whole images, each tile small enough to
# stay in the L2 cache between the copy that builds it and the matmul that reads it; on this
# kind of machine that halves the time of small-channel convolutions compared with building
# the whole matrix at once. Deep layers on small maps give an image only a few dozen columns,
# and a GEMM that narrow runs well below BLAS speed (512 channels at 7x7: 1.2-1.6x slower), so
# there a tile holds as many images as fit in _MIN_COLUMNS columns instead; small-K products
# are memory-bound and keep the L2 rule.
_TILE_BYTES = 1 << 21
_MIN_COLUMNS = 1024
_MIN_K = 256


def _tiles(n: int, bytes_per_image: int, columns: int, k: int) -> list[slice]:
    """Slices of the batch, one per tile: ``columns`` per image in the GEMM, of a matrix with ``k`` rows
    (the im2col's C/groups * kh * kw, or an output gradient's O/groups)."""
    step = max(1, _TILE_BYTES // max(bytes_per_image, 1))
    if k >= _MIN_K:
        step = max(step, _MIN_COLUMNS // max(columns, 1))
    return [slice(s, min(s + step, n)) for s in range(0, n, step)]


def _by_group(u: np.ndarray, groups: int) -> np.ndarray:
    """(N, O, H, W) -> (groups, O/groups, N * H * W), the layout of a matmul against columns."""
    return u.transpose(1, 0, 2, 3).reshape(groups, u.shape[1] // groups, -1)


class _Im2col:
    """The im2col matrix of a convolution's input, (groups, C/groups * kh * kw, N * oh * width),
    rows in weight order (c, i, j) and columns in pixel order (n, y, x), built tile by tile.

    With stride 1 a window's row is read across the whole padded width (``width`` > ``ow``), so
    that each (c, i, j, n) block of the matrix is one contiguous run of the padded input and the
    copy is a handful of long memcpys; the extra ``width - ow`` columns per row are junk that
    the products drop (their reads overrun into the padded buffer's spare tail). A weight gradient
    multiplies the junk by zero gradients, so there an input with NaN or inf is read window by window
    (``junk_free``), as torch reads it: 0 * NaN would reach every weight."""

    def __init__(self, x: np.ndarray, kernel: tuple[int, int], g: Geometry, out_hw: tuple[int, int] | None = None,
                 junk_free: bool = False):
        self.n, self.c = x.shape[:2]
        self.kh, self.kw = kernel
        self.g = g
        # a weight gradient may use fewer output pixels than fit (conv_transpose's output_padding)
        self.oh, self.ow = out_hw or g.out_size(x.shape[2], x.shape[3], *kernel)
        self.flat = g.stride == (1, 1) and not (junk_free and not np.isfinite(x).all())
        xp = _pad(x, g.pads, slack=g.dilation[1] * (self.kw - 1) if self.flat else 0)
        self.xp = np.ascontiguousarray(xp) if self.flat else xp
        self.width = self.xp.shape[3] if self.flat else self.ow
        columns = self.oh * self.width
        self.tiles = _tiles(self.n, self.c * self.kh * self.kw * columns * self.xp.itemsize, columns,
                            self.c // g.groups * self.kh * self.kw)

    def columns(self, t: slice) -> np.ndarray:
        xp, g, kh, kw = self.xp[t], self.g, self.kh, self.kw
        if self.flat:
            sn, sc, sh, sw = xp.strides
            win = as_strided(xp, (self.c, kh, kw, xp.shape[0], self.oh * self.width),
                             (sc, sh * g.dilation[0], sw * g.dilation[1], sn, sw), writeable=False)
        else:
            win = _windows(xp, kh, kw, self.oh, self.ow, g).transpose(1, 2, 3, 0, 4, 5)
        shape = (g.groups, self.c // g.groups * kh * kw, -1)
        try:
            return win.reshape(shape, copy=False)
        except ValueError:  # the gather: one copy, split across the threads
            gathered = np.empty(win.shape, win.dtype)
            parallel_copy(gathered, win)
            return gathered.reshape(shape)

    def images(self, product: np.ndarray) -> np.ndarray:
        """A matmul's (..., N * oh * width) result for a tile, as (N, O, oh, ow) images."""
        out = product.reshape(-1, product.shape[-1] // (self.oh * self.width), self.oh, self.width)
        return out[..., :self.ow].transpose(1, 0, 2, 3)

    def pixels(self, u: np.ndarray) -> np.ndarray:
        """(N, O, oh, ow) gradients for a tile in the columns' layout, zero on the junk columns."""
        if not self.flat:
            return _by_group(u, self.g.groups)
        rows = np.zeros((u.shape[1], u.shape[0], self.oh, self.width), u.dtype)
        parallel_copy(rows[..., :self.ow], u.transpose(1, 0, 2, 3))
        return rows.reshape(self.g.groups, u.shape[1] // self.g.groups, -1)


def _conv(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """y[n, o] = sum over c, i, j of w[o, c, i, j] * x_padded[n, c, window]."""
    n, c = x.shape[:2]
    o, cg, kh, kw = w.shape
    dtype = np.result_type(x, w)
    if winograd.suits(x, o, (kh, kw), g):
        return winograd.conv(x, w, g)
    if _is_depthwise(c, cg, g):
        return _depthwise(x, w, g)
    cols = _Im2col(x, (kh, kw), g)
    wg = w.reshape(g.groups, o // g.groups, cg * kh * kw)
    out = np.empty((n, o, cols.oh, cols.ow), dtype)
    for t in cols.tiles:
        parallel_copy(out[t], cols.images(wg @ cols.columns(t)))
    return out


def _plane_weights(w: np.ndarray, n: int, c: int) -> np.ndarray:
    """A depthwise weight (C * m, 1, kh, kw) for each plane of N images of C channels: (N * C, m, kh * kw, 1)."""
    taps = w.shape[2] * w.shape[3]
    per_image = w.reshape(1, c, w.shape[0] // c, taps)
    return np.broadcast_to(per_image, (n,) + per_image.shape[1:]).reshape(n * c, -1, taps, 1)


def _depthwise(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """A depthwise convolution (``m`` filters per channel): one multiply-add per tap, in place, the planes
    split across the threads."""
    n, c = x.shape[:2]
    o, _, kh, kw = w.shape
    out_hw = g.out_size(x.shape[2], x.shape[3], kh, kw)
    taps = Taps(x.shape[2:], (kh, kw), g, out_hw)
    windows = taps.windows(taps.split(x.reshape((n * c,) + x.shape[2:])), n * c)
    wk = _plane_weights(w, n, c)
    out = np.zeros((n * c, o // c, windows[0].shape[1]), np.result_type(x, w))

    def planes(b: int, e: int) -> None:
        term = np.empty_like(out[b:e])
        for k, win in enumerate(windows):
            out[b:e] += np.multiply(win[b:e, None], wk[b:e, :, k], out=term)
    taps.by_planes(n * c, planes)
    return taps.off_grid(out).reshape((n, o) + out_hw)


def _conv_transpose(u: np.ndarray, w: np.ndarray, g: Geometry, out_hw: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in x: scatter each output pixel back through the kernel."""
    n, o, oh, ow = u.shape
    _, cg, kh, kw = w.shape
    groups, c = g.groups, cg * g.groups
    (pt, pb), (pl, pr) = g.pads
    if g.stride == (1, 1) and np.isfinite(w).all():
        # With stride 1 the scatter is a correlation with the flipped kernel, channels swapped (not for a
        # weight with NaN or inf: the correlation multiplies it by the zero border, torch's scatter does not).
        wt = w.reshape(groups, o // groups, cg, kh, kw).transpose(0, 2, 1, 3, 4)[..., ::-1, ::-1]
        reach = (g.dilation[0] * (kh - 1), g.dilation[1] * (kw - 1))
        pads = ((reach[0] - pt, out_hw[0] - oh + pt), (reach[1] - pl, out_hw[1] - ow + pl))
        return _conv(u, wt.reshape(c, o // groups, kh, kw), Geometry((1, 1), pads, g.dilation, groups))
    if _is_depthwise(c, cg, g):
        taps = Taps(out_hw, (kh, kw), g, (oh, ow))
        ug = taps.on_grid(u.reshape(n * o, oh, ow)).reshape(n * c, o // c, -1)
        wk = _plane_weights(w, n, c)

        def values_at(k: int, rows: slice) -> np.ndarray:  # the sum over each channel's m filters, in order
            v = ug[rows, 0] * wk[rows, 0, k]
            for j in range(1, o // c):
                v += ug[rows, j] * wk[rows, j, k]
            return v
        gx = taps.scatter(values_at, n * c, np.result_type(u, w))
        return gx.reshape((n, c) + tuple(out_hw))
    zp = np.zeros((n, c, out_hw[0] + pt + pb, out_hw[1] + pl + pr), np.result_type(u, w))
    wt = w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1)
    for t in _tiles(n, c * kh * kw * oh * ow * zp.itemsize, oh * ow, o // groups):
        cols = (wt @ _by_group(u[t], groups)).reshape(c, kh, kw, -1, oh, ow).transpose(3, 0, 1, 2, 4, 5)
        zt = zp[t]

        def scatter(b: int, e: int) -> None:  # images b..e, every kernel position in the same order
            for i in range(kh):
                for j in range(kw):
                    zt[b:e][_window_slice(i, j, oh, ow, g)] += cols[b:e, :, i, j]
        parallel_rows(zt.shape[0], zt[0].size, scatter)
    return zp[:, :, pt:pt + out_hw[0], pl:pl + out_hw[1]]


def _conv_weight_grad(x: np.ndarray, u: np.ndarray, g: Geometry, kernel: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in w: correlate the input windows with the output gradient."""
    n, c = x.shape[:2]
    o, oh, ow = u.shape[1:]
    kh, kw = kernel
    groups, cg = g.groups, c // g.groups
    if winograd.suits_weight_grad(x, u, kernel, g):
        return winograd.weight_grad(x, u, g)
    if _is_depthwise(c, cg, g):
        taps = Taps(x.shape[2:], kernel, g, (oh, ow))
        windows = taps.windows(taps.split(x.reshape((n * c,) + x.shape[2:])), n * c)
        ug = taps.on_grid(u.reshape(n * o, oh, ow)).reshape(n, c, o // c, -1)
        gw = np.empty((c, o // c, kh * kw), np.result_type(x, u))

        def channels(b: int, e: int) -> None:  # each weight's dot products with the images, added in image order
            for k, win in enumerate(windows):
                dots = np.vecdot(win.reshape(n, c, 1, -1)[:, b:e], ug[:, b:e])
                gw[b:e, :, k] = dots[0]
                for image in dots[1:]:
                    gw[b:e, :, k] += image
        parallel_rows(c, n * ug[0].size // c, channels)
        return gw.reshape(o, 1, kh, kw)
    cols = _Im2col(x, kernel, g, (oh, ow), junk_free=True)
    gw = np.zeros((groups, o // groups, cg * kh * kw), np.result_type(x, u))
    for t in cols.tiles:
        gw += cols.pixels(u[t]) @ cols.columns(t).transpose(0, 2, 1)
    return gw.reshape(o, cg, kh, kw)


def _bias_grad(g):
    return g.sum(axis=tuple(i for i in range(g.ndim) if i != 1))


def _2d(*arrays):
    """1-D convolutions run as 2-D ones of height 1: (N, C, L) -> (N, C, 1, L)."""
    return tuple(None if a is None else a[:, :, None] if a.ndim == 3 else a for a in arrays)


def _like(out: np.ndarray, ref: np.ndarray) -> np.ndarray:
    return out[:, :, 0] if ref.ndim == 3 else out


def _by_depth(a: np.ndarray) -> np.ndarray:
    """(N, C, D, H, W) -> (N * D, C, H, W)."""
    return a.transpose(0, 2, 1, 3, 4).reshape((-1, a.shape[1]) + a.shape[3:])


def _volumes(a: np.ndarray, n: int) -> np.ndarray:
    """(N * D, C, H, W) -> (N, C, D, H, W)."""
    return a.reshape((n, -1) + a.shape[1:]).transpose(0, 2, 1, 3, 4)


def _depth_stacked(x: np.ndarray, g: Geometry, kd: int, od: int) -> np.ndarray:
    """The depth windows of (N, C, D, H, W) as images (N * od, groups * kd * C/groups, H, W): output depth
    position d reads, per group, its kd input slices; a 3-d convolution is then one 2-d convolution of these
    with the weight (O, kd * C/groups, kh, kw) (``_depth_weight``)."""
    n, c = x.shape[:2]
    stride, _, dilation = g.depth
    xp = np.pad(x, ((0, 0), (0, 0), g.depth[1], (0, 0), (0, 0)))
    sn, sc, sd, sh, sw = xp.strides
    win = as_strided(xp, (n, od, g.groups, c // g.groups, kd) + xp.shape[3:],
                     (sn, sd * stride, sc * (c // g.groups), sc, sd * dilation, sh, sw), writeable=False)
    return win.transpose(0, 1, 2, 4, 3, 5, 6).reshape((n * od, -1) + xp.shape[3:])


def _depth_weight(w: np.ndarray) -> np.ndarray:
    """(O, C/groups, kd, kh, kw) -> (O, kd * C/groups, kh, kw), the channel order of ``_depth_stacked``."""
    return w.transpose(0, 2, 1, 3, 4).reshape((w.shape[0], -1) + w.shape[3:])


def _conv_nd(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    if x.ndim < 5:
        return _like(_conv(*_2d(x, w), g), x)
    kd = w.shape[2]
    od = (x.shape[2] + sum(g.depth[1]) - g.depth[2] * (kd - 1) - 1) // g.depth[0] + 1
    return _volumes(_conv(_depth_stacked(x, g, kd, od), _depth_weight(w), g.plane()), x.shape[0])


def _conv_transpose_nd(u: np.ndarray, w: np.ndarray, g: Geometry, out_size: tuple) -> np.ndarray:
    if u.ndim < 5:
        return _like(_conv_transpose(*_2d(u, w), g, out_size), u)
    n, od, (front, back) = u.shape[0], u.shape[2], g.depth[1]
    _, cg, kd = w.shape[:3]
    stacked = _conv_transpose(_by_depth(u), _depth_weight(w), g.plane(), out_size[1:])
    # (N * od, groups * kd * C/groups, H, W) -> per depth tap, (N, C, od, H, W) added at its slices
    taps = stacked.reshape((n, od, g.groups, kd, cg) + tuple(out_size[1:])).transpose(3, 0, 2, 4, 1, 5, 6)
    out = np.zeros((n, g.groups * cg, out_size[0] + front + back) + tuple(out_size[1:]), stacked.dtype)
    for i, sl in enumerate(g.depth_taps(kd, od)):
        out[:, :, sl] += taps[i].reshape((n, g.groups * cg) + taps.shape[4:])
    return out[:, :, front:front + out_size[0]]


def _conv_weight_grad_nd(x: np.ndarray, u: np.ndarray, g: Geometry, kernel: tuple) -> np.ndarray:
    if x.ndim < 5:
        return _like(_conv_weight_grad(*_2d(x, u), g, (1,) * (2 - len(kernel)) + tuple(kernel)), x)
    kd, od = kernel[0], u.shape[2]
    gw = _conv_weight_grad(_depth_stacked(x, g, kd, od), _by_depth(u), g.plane(), kernel[1:])
    return gw.reshape((gw.shape[0], kd, -1) + gw.shape[2:]).transpose(0, 2, 1, 3, 4)


def _add_bias(out: np.ndarray, b) -> np.ndarray:
    if b is not None:
        out += b.reshape((1, -1) + (1,) * (out.ndim - 2))
    return out


class Convolution(Op):
    """conv1d/2d/3d(x, w, b) (``b`` may be None)."""

    @staticmethod
    def forward(ctx, x, w, b, geometry=None):
        ctx.geometry = geometry
        ctx.save_for_backward(x, w)
        return np.ascontiguousarray(_add_bias(_conv_nd(x, w, geometry), b))  # (the kernels may leave a view)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        geo = ctx.geometry
        gx = ConvTranspose.apply(g, w, None, geometry=geo, out_size=_spatial(x)) if need_x else None
        gw = ConvWeightGrad.apply(x, g, geometry=geo, kernel=tuple(w.shape[2:])) if need_w else None
        return gx, gw, (_bias_grad(g) if need_b else None)


class ConvTranspose(Op, name="ConvolutionBackward0"):
    """conv_transpose1d/2d/3d(u, w, b): the gradient of the convolution with respect to its input, plus a bias."""

    @staticmethod
    def forward(ctx, u, w, b, geometry=None, out_size=(0, 0)):
        ctx.geometry = geometry
        ctx.save_for_backward(u, w)
        return np.ascontiguousarray(_add_bias(_conv_transpose_nd(u, w, geometry, out_size), b))

    @staticmethod
    def backward(ctx, gz):
        u, w = ctx.saved_tensors
        need_u, need_w, need_b = ctx.needs_input_grad
        geo = ctx.geometry
        gu = _conv_like(gz, w, geo, u) if need_u else None
        gw = ConvWeightGrad.apply(gz, u, geometry=geo, kernel=tuple(w.shape[2:])) if need_w else None
        return gu, gw, (_bias_grad(gz) if need_b else None)


class ConvWeightGrad(Op, name="ConvolutionBackwardBackward0"):
    """The gradient of the convolution with respect to its weight, as a differentiable op."""

    @staticmethod
    def forward(ctx, x, u, geometry=None, kernel=(1, 1)):
        ctx.geometry = geometry
        ctx.save_for_backward(x, u)
        return _conv_weight_grad_nd(x, u, geometry, tuple(kernel))

    @staticmethod
    def backward(ctx, gw):
        x, u = ctx.saved_tensors
        need_x, need_u = ctx.needs_input_grad
        geo = ctx.geometry
        gx = ConvTranspose.apply(u, gw, None, geometry=geo, out_size=_spatial(x)) if need_x else None
        gu = _conv_like(x, gw, geo, u) if need_u else None
        return gx, gu


def _conv_like(x, w, geo, like):
    """The convolution of x with w cut to ``like``'s size: conv_transpose's output_padding adds rows and
    columns that the convolution back maps to one output row or column more than ``like`` has."""
    out = Convolution.apply(x, w, None, geometry=geo)
    return out if out.shape == like.shape else out[(...,) + tuple(slice(0, s) for s in like.shape[2:])]


def _spatial(x) -> tuple:
    """The spatial size of an input, 1-D inputs having height 1."""
    shape = tuple(x.shape[2:])
    return (1,) + shape if len(shape) == 1 else shape


# ---- the functional forms ---------------------------------------------------------------------------------
def _ntuple(v, dims: int) -> tuple:
    if isinstance(v, (tuple, list)):
        return tuple(int(e) for e in v) if len(v) != 1 else (int(v[0]),) * dims
    return (int(v),) * dims


def _conv_tuple(v, dims: int, name: str) -> tuple:
    """``_ntuple`` with torch's check that a convolution argument has one value per spatial dim."""
    if isinstance(v, (tuple, list)) and len(v) not in (1, dims):
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dims} values to match the "
                           f"convolution dimensions, but got {name}={list(v)}")
    return _ntuple(v, dims)


def _geometry(stride, pads, dilation, groups) -> Geometry:
    """A Geometry from per-dim stride, (before, after) pads and dilation (1, 2 or 3 dims)."""
    if len(stride) == 1:
        return Geometry((1,) + stride, ((0, 0),) + tuple(pads), (1,) + dilation, groups)
    if len(stride) == 2:
        return Geometry(stride, tuple(pads), dilation, groups)
    return Geometry(stride[1:], tuple(pads[1:]), dilation[1:], groups, depth=(stride[0], pads[0], dilation[0]))


def _batched(input, dims: int, name: str):
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {list(input.shape)}")
    return (input.unsqueeze(0), True) if input.dim() == dims + 1 else (input, False)


def _check_bias(weight, bias, given: str, channels: int | None = None) -> None:
    """A bias must hold one value per output channel (``given``: what torch's message adds for a transposed one)."""
    channels = weight.shape[0] if channels is None else channels
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != channels):
        raise RuntimeError(f"Given {given}weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{channels} elements, but got bias of size {list(bias.shape)} instead")


def _check_dtypes(input, weight, bias):
    if input.dtype != weight.dtype:
        raise RuntimeError(f"expected scalar type {_dtype.C_NAMES[input.dtype]} but found "
                           f"{_dtype.C_NAMES[weight.dtype]}")
    if bias is not None and bias.dtype != weight.dtype:
        raise RuntimeError(f"expected scalar type {_dtype.C_NAMES[weight.dtype]} but found "
                           f"{_dtype.C_NAMES[bias.dtype]}")


def _spatial_dims(weight, stride, dims: int) -> None:
    """torch counts the spatial dims of a convolution from the weight: refused where the call has others."""
    if weight.dim() - 2 != dims:
        raise RuntimeError(f"expected stride to be a single integer value or a list of {weight.dim() - 2} values to "
                           f"match the convolution dimensions, but got stride={list(_ntuple(stride, dims))}")


def _check_steps(stride, padding) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")


def _same_padding(dilation, kernel) -> tuple:
    """The (before, after) pads of padding='same'; torch warns where they differ (an even kernel, odd dilation)."""
    pads = tuple((d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2) for d, k in zip(dilation, kernel))
    if any(a != b for a, b in pads):
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                      "of the input be created", UserWarning, stacklevel=4)
    return pads


def _convolve(input, weight, bias, stride, padding, dilation, groups, dims):
    name = f"conv{dims}d"
    x, unbatched = _batched(input, dims, name)
    _spatial_dims(weight, stride, dims)
    stride, dilation = _conv_tuple(stride, dims, "stride"), _conv_tuple(dilation, dims, "dilation")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        _check_steps(stride, ())
    else:
        _check_steps(stride, _conv_tuple(padding, dims, "padding"))
    if bias is not None and bias.dtype != x.dtype:
        raise RuntimeError(f"Input type ({_C_TYPE_NAMES[x.dtype]}) and bias type ({_C_TYPE_NAMES[bias.dtype]}) should "
                           "be the same")
    _check_dtypes(x, weight, bias)
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{list(weight.shape)}] instead")
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(x.shape)} to have {weight.shape[1] * groups} channels, but got "
                           f"{x.shape[1]} channels instead")
    _check_bias(weight, bias, "")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")
    kernel, size = tuple(weight.shape[2:]), tuple(x.shape[2:])
    if padding == "valid":
        pads = ((0, 0),) * dims
    elif padding == "same":
        pads = _same_padding(dilation, kernel)
    else:
        pads = tuple((p, p) for p in _conv_tuple(padding, dims, "padding"))
    padded = [s + a + b for s, (a, b) in zip(size, pads)]
    if any(p < d * (k - 1) + 1 for p, d, k in zip(padded, dilation, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual "
                           "input size")
    out = Convolution.apply(x, weight, bias, geometry=_geometry(stride, pads, dilation, groups))
    return out.squeeze(0) if unbatched else out


@register(method=False, functional=True)
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """1-D cross-correlation over (N, C, L) inputs; padding may be 'same' or 'valid'."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _convolve(input, weight, bias, stride, padding, dilation, groups, 1)


@register(method=False, functional=True)
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """2-D cross-correlation over (N, C, H, W) inputs; padding may be 'same' or 'valid'."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _convolve(input, weight, bias, stride, padding, dilation, groups, 2)


@register(method=False, functional=True)
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """3-D cross-correlation over (N, C, D, H, W) inputs; padding may be 'same' or 'valid'."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _convolve(input, weight, bias, stride, padding, dilation, groups, 3)


def _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, dims):
    x, unbatched = _batched(input, dims, f"conv_transpose{dims}d")
    if isinstance(padding, str):
        raise TypeError(f"conv_transpose{dims}d(): argument 'padding' must be tuple of ints, not str")
    _spatial_dims(weight, stride, dims)
    stride, padding, output_padding, dilation = (_conv_tuple(v, dims, name) for v, name in (
        (stride, "stride"), (padding, "padding"), (output_padding, "output_padding"), (dilation, "dilation")))
    _check_steps(stride, padding)
    _check_dtypes(x, weight, bias)
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input{list(x.shape)} "
                           f"to have {weight.shape[0]} channels, but got {x.shape[1]} channels instead")
    _check_bias(weight, bias, "transposed=1, ", weight.shape[1] * groups)
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        axes = ("depth", "height", "width")[-max(dims, 2):]
        lifted = [(lead,) + v if dims == 1 else v for v, lead in ((output_padding, 0), (stride, 1), (dilation, 1))]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
            f"{what}_{axis}: {v}" for what, vs in zip(("output_padding", "stride", "dilation"), lifted)
            for axis, v in zip(axes, vs)))
    size = tuple((x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (weight.shape[2 + i] - 1)
                 + output_padding[i] + 1 for i in range(dims))
    geometry = _geometry(stride, tuple((p, p) for p in padding), dilation, groups)
    out = ConvTranspose.apply(x, weight, bias, geometry=geometry, out_size=(1,) + size if dims == 1 else size)
    return out.squeeze(0) if unbatched else out


@register(method=False, functional=True)
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transpose (gradient) of conv1d: (N, C_in, L) -> (N, C_out, L')."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


@register(method=False, functional=True)
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transpose (gradient) of conv2d: upsamples (N, C_in, H, W) to (N, C_out, H', W')."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


@register(method=False, functional=True)
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transpose (gradient) of conv3d: (N, C_in, D, H, W) -> (N, C_out, D', H', W')."""
    input, weight, bias = lower_precision(input, weight, bias)
    return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


@register(method=False)
def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride, padding, dilation, transposed: bool,
                output_padding, groups: int) -> Tensor:
    """A convolution or transposed convolution with as many spatial dims as the weight has."""
    dims = weight.dim() - 2
    if transposed:
        return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, dims)
    return _convolve(input, weight, bias, stride, padding, dilation, groups, dims)


@register(method=False, functional=True)
def conv_tbc(input: Tensor, weight: Tensor, bias: Tensor, pad: int = 0) -> Tensor:
    """1-D convolution of a (time, batch, channels) input with a (kernel, in, out) weight."""
    input, weight, bias = lower_precision(input, weight, bias)
    for t, dims, message in ((input, 3, "Input must have 3 dims: time, batch, in_channel"),
                             (weight, 3, "Weight tensor must have 3 dims: kernel_width, in_channels, out_channels."),
                             (bias, 1, "Bias must be 1-D")):
        if t.dim() != dims:
            raise RuntimeError(message)
    if input.shape[2] != weight.shape[1]:
        raise RuntimeError("Input dim 2 (input channels) is not == dim 1 in the weight tensor")
    if bias.shape[0] != weight.shape[2]:
        raise RuntimeError("Bias size must equal dim 2 in the weight tensor (output channels).")
    (steps, batch, _), (width, _, channels) = input.shape, weight.shape
    out_steps = steps + 2 * pad - width + 1
    if out_steps < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {out_steps}: "
                           f"[{out_steps}, {batch}, {channels}]")
    out = bias.expand(out_steps, batch, channels)
    for k in range(width):  # step t reads input step t + k - pad where there is one: no products with padding
        first, last = max(0, pad - k), min(out_steps, steps + pad - k)
        if first < last:
            term = input[first + k - pad:last + k - pad].matmul(weight[k])
            zeros = [term.new_zeros((n, batch, channels)) for n in (first, out_steps - last)]
            out = out + cat([zeros[0], term, zeros[1]])
    return out
