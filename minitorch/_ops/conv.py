"""2-D convolution (1-D convolutions are 2-D ones of height 1), as three ops that are each
other's gradients:

- ``Convolution``: y = conv(x, w) + b;
- ``ConvTranspose``: the adjoint of conv in x, i.e. conv_transpose (and conv's input gradient);
- ``ConvWeightGrad``: the adjoint of conv in w (conv's weight gradient).

All three are bilinear, so each one's backward is written with the other two and
higher-order gradients come for free. The numpy kernels use strided window views
(im2col without Python loops over pixels) and one batched BLAS matmul; depthwise
convolutions (one input channel per group) use multiply-adds over the kernel
positions instead, and 1x1 convolutions skip the window copy.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..autograd.function import Op
from .geometry import Geometry, Taps, _pad, _window_slice, _windows


def _is_depthwise(channels: int, channels_per_group: int, g: Geometry) -> bool:
    """One input channel per group: multiply-adds beat many tiny matmuls."""
    return g.groups == channels and channels_per_group == 1 and g.groups > 1


# The im2col matrix is built and consumed in tiles of whole images, each tile small enough to
# stay in the L2 cache between the copy that builds it and the matmul that reads it; on this
# kind of machine that halves the time of small-channel convolutions compared with building
# the whole matrix at once.
_TILE_BYTES = 1 << 21


def _tiles(n: int, bytes_per_image: int) -> list[slice]:
    step = max(1, _TILE_BYTES // max(bytes_per_image, 1))
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
    the products drop (their reads overrun into the padded buffer's spare tail)."""

    def __init__(self, x: np.ndarray, kernel: tuple[int, int], g: Geometry, out_hw: tuple[int, int] | None = None):
        self.n, self.c = x.shape[:2]
        self.kh, self.kw = kernel
        self.g = g
        # a weight gradient may use fewer output pixels than fit (conv_transpose's output_padding)
        self.oh, self.ow = out_hw or g.out_size(x.shape[2], x.shape[3], *kernel)
        self.flat = g.stride == (1, 1)
        xp = _pad(x, g.pads, slack=g.dilation[1] * (self.kw - 1) if self.flat else 0)
        self.xp = np.ascontiguousarray(xp) if self.flat else xp
        self.width = self.xp.shape[3] if self.flat else self.ow
        self.tiles = _tiles(self.n, self.c * self.kh * self.kw * self.oh * self.width * self.xp.itemsize)

    def columns(self, t: slice) -> np.ndarray:
        xp, g, kh, kw = self.xp[t], self.g, self.kh, self.kw
        if self.flat:
            sn, sc, sh, sw = xp.strides
            win = as_strided(xp, (self.c, kh, kw, xp.shape[0], self.oh * self.width),
                             (sc, sh * g.dilation[0], sw * g.dilation[1], sn, sw), writeable=False)
        else:
            win = _windows(xp, kh, kw, self.oh, self.ow, g).transpose(1, 2, 3, 0, 4, 5)
        return win.reshape(g.groups, self.c // g.groups * kh * kw, -1)

    def images(self, product: np.ndarray) -> np.ndarray:
        """A matmul's (..., N * oh * width) result for a tile, as (N, O, oh, ow) images."""
        out = product.reshape(-1, product.shape[-1] // (self.oh * self.width), self.oh, self.width)
        return out[..., :self.ow].transpose(1, 0, 2, 3)

    def pixels(self, u: np.ndarray) -> np.ndarray:
        """(N, O, oh, ow) gradients for a tile in the columns' layout, zero on the junk columns."""
        if not self.flat:
            return _by_group(u, self.g.groups)
        rows = np.zeros((u.shape[1], u.shape[0], self.oh, self.width), u.dtype)
        rows[..., :self.ow] = u.transpose(1, 0, 2, 3)
        return rows.reshape(self.g.groups, u.shape[1] // self.g.groups, -1)


def _conv(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """y[n, o] = sum over c, i, j of w[o, c, i, j] * x_padded[n, c, window]."""
    n, c = x.shape[:2]
    o, cg, kh, kw = w.shape
    dtype = np.result_type(x, w)
    if _is_depthwise(c, cg, g):
        return _depthwise(x, w, g)
    cols = _Im2col(x, (kh, kw), g)
    wg = w.reshape(g.groups, o // g.groups, cg * kh * kw)
    out = np.empty((n, o, cols.oh, cols.ow), dtype)
    for t in cols.tiles:
        out[t] = cols.images(wg @ cols.columns(t))
    return out


def _depthwise(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """A depthwise convolution (``m`` filters per channel): one multiply-add per tap, in place."""
    n, c = x.shape[:2]
    o, _, kh, kw = w.shape
    out_hw = g.out_size(x.shape[2], x.shape[3], kh, kw)
    taps = Taps(x.shape[2:], (kh, kw), g, out_hw)
    windows = taps.windows(taps.split(x.reshape((n * c,) + x.shape[2:])), n * c)
    wk = w.reshape(1, c, o // c, kh * kw, 1)
    out = np.zeros((n, c, o // c, windows[0].shape[1]), np.result_type(x, w))
    term = np.empty_like(out)
    for k, win in enumerate(windows):
        out += np.multiply(win.reshape(n, c, 1, -1), wk[:, :, :, k], out=term)
    return taps.off_grid(out).reshape((n, o) + out_hw)


def _conv_transpose(u: np.ndarray, w: np.ndarray, g: Geometry, out_hw: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in x: scatter each output pixel back through the kernel."""
    n, o, oh, ow = u.shape
    _, cg, kh, kw = w.shape
    groups, c = g.groups, cg * g.groups
    (pt, pb), (pl, pr) = g.pads
    if g.stride == (1, 1):
        # With stride 1 the scatter is a correlation with the flipped kernel, channels swapped.
        wt = w.reshape(groups, o // groups, cg, kh, kw).transpose(0, 2, 1, 3, 4)[..., ::-1, ::-1]
        reach = (g.dilation[0] * (kh - 1), g.dilation[1] * (kw - 1))
        pads = ((reach[0] - pt, out_hw[0] - oh + pt), (reach[1] - pl, out_hw[1] - ow + pl))
        return _conv(u, wt.reshape(c, o // groups, kh, kw), Geometry((1, 1), pads, g.dilation, groups))
    if _is_depthwise(c, cg, g):
        taps = Taps(out_hw, (kh, kw), g, (oh, ow))
        ug = taps.on_grid(u.reshape(n * o, oh, ow)).reshape(n, c, o // c, -1)
        wk = w.reshape(c, o // c, kh * kw)
        gx = taps.scatter(lambda k: np.einsum("ncmp,cm->ncp", ug, wk[:, :, k]).reshape(n * c, -1), n * c,
                          np.result_type(u, w))
        return gx.reshape((n, c) + tuple(out_hw))
    zp = np.zeros((n, c, out_hw[0] + pt + pb, out_hw[1] + pl + pr), np.result_type(u, w))
    wt = w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1)
    for t in _tiles(n, c * kh * kw * oh * ow * zp.itemsize):
        cols = (wt @ _by_group(u[t], groups)).reshape(c, kh, kw, -1, oh, ow).transpose(3, 0, 1, 2, 4, 5)
        zt = zp[t]
        for i in range(kh):
            for j in range(kw):
                zt[_window_slice(i, j, oh, ow, g)] += cols[:, :, i, j]
    return zp[:, :, pt:pt + out_hw[0], pl:pl + out_hw[1]]


def _conv_weight_grad(x: np.ndarray, u: np.ndarray, g: Geometry, kernel: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in w: correlate the input windows with the output gradient."""
    n, c = x.shape[:2]
    o, oh, ow = u.shape[1:]
    kh, kw = kernel
    groups, cg = g.groups, c // g.groups
    if _is_depthwise(c, cg, g):
        taps = Taps(x.shape[2:], kernel, g, (oh, ow))
        windows = taps.windows(taps.split(x.reshape((n * c,) + x.shape[2:])), n * c)
        ug = taps.on_grid(u.reshape(n * o, oh, ow)).reshape(n, c, o // c, -1)
        gw = np.stack([np.vecdot(win.reshape(n, c, 1, -1), ug).sum(0) for win in windows], axis=-1)
        return gw.reshape(o, 1, kh, kw)
    cols = _Im2col(x, kernel, g, (oh, ow))
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


class Convolution(Op):
    """conv2d(x, w, b) (``b`` may be None)."""

    @staticmethod
    def forward(ctx, x, w, b, geometry=None):
        ctx.geometry = geometry
        ctx.save_for_backward(x, w)
        out = _conv(*_2d(x, w), geometry)
        if b is not None:
            out += b.reshape(1, -1, 1, 1)
        return _like(out, x)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        geo = ctx.geometry
        gx = ConvTranspose.apply(g, w, None, geometry=geo, out_hw=_spatial(x)) if need_x else None
        gw = ConvWeightGrad.apply(x, g, geometry=geo, kernel=tuple(w.shape[2:])) if need_w else None
        return gx, gw, (_bias_grad(g) if need_b else None)


class ConvTranspose(Op, name="ConvolutionBackward0"):
    """conv_transpose2d(u, w, b): the gradient of conv2d with respect to its input, plus a bias."""

    @staticmethod
    def forward(ctx, u, w, b, geometry=None, out_hw=(0, 0)):
        ctx.geometry = geometry
        ctx.save_for_backward(u, w)
        out = _conv_transpose(*_2d(u, w), geometry, out_hw)
        if b is not None:
            out += b.reshape(1, -1, 1, 1)
        return _like(out, u)

    @staticmethod
    def backward(ctx, gz):
        u, w = ctx.saved_tensors
        need_u, need_w, need_b = ctx.needs_input_grad
        geo = ctx.geometry
        gu = _conv_like(gz, w, geo, u) if need_u else None
        gw = ConvWeightGrad.apply(gz, u, geometry=geo, kernel=tuple(w.shape[2:])) if need_w else None
        return gu, gw, (_bias_grad(gz) if need_b else None)


class ConvWeightGrad(Op, name="ConvolutionBackwardBackward0"):
    """The gradient of conv2d with respect to its weight, as a differentiable op."""

    @staticmethod
    def forward(ctx, x, u, geometry=None, kernel=(1, 1)):
        ctx.geometry = geometry
        ctx.save_for_backward(x, u)
        kernel = kernel if len(kernel) == 2 else (1,) + tuple(kernel)
        return _like(_conv_weight_grad(*_2d(x, u), geometry, kernel), x)

    @staticmethod
    def backward(ctx, gw):
        x, u = ctx.saved_tensors
        need_x, need_u = ctx.needs_input_grad
        geo = ctx.geometry
        gx = ConvTranspose.apply(u, gw, None, geometry=geo, out_hw=_spatial(x)) if need_x else None
        gu = _conv_like(x, gw, geo, u) if need_u else None
        return gx, gu


def _conv_like(x, w, geo, like):
    """conv2d(x, w) cut to ``like``'s size: conv_transpose's output_padding adds rows and columns
    that the convolution back maps to one output row or column more than ``like`` has."""
    out = Convolution.apply(x, w, None, geometry=geo)
    return out if out.shape == like.shape else out[(...,) + tuple(slice(0, s) for s in like.shape[2:])]


def _spatial(x) -> tuple[int, int]:
    """(H, W) of an input, 1-D inputs having height 1."""
    shape = tuple(x.shape[2:])
    return (1,) + shape if len(shape) == 1 else shape
