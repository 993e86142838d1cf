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

from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..autograd.function import Op


@dataclass(frozen=True)
class Geometry:
    stride: tuple[int, int]
    pads: tuple[tuple[int, int], tuple[int, int]]  # (top, bottom), (left, right)
    dilation: tuple[int, int]
    groups: int

    def out_size(self, h: int, w: int, kh: int, kw: int) -> tuple[int, int]:
        (pt, pb), (pl, pr) = self.pads
        return ((h + pt + pb - self.dilation[0] * (kh - 1) - 1) // self.stride[0] + 1,
                (w + pl + pr - self.dilation[1] * (kw - 1) - 1) // self.stride[1] + 1)


def _pad(x: np.ndarray, g: Geometry) -> np.ndarray:
    if g.pads == ((0, 0), (0, 0)):
        return x
    return np.pad(x, ((0, 0), (0, 0)) + g.pads)


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


def _is_depthwise(channels: int, channels_per_group: int, g: Geometry) -> bool:
    """One input channel per group: multiply-adds beat many tiny matmuls."""
    return g.groups == channels and channels_per_group == 1 and g.groups > 1


def _conv(x: np.ndarray, w: np.ndarray, g: Geometry) -> np.ndarray:
    """y[n, o] = sum over c, i, j of w[o, c, i, j] * x_padded[n, c, window]."""
    n, c = x.shape[:2]
    o, cg, kh, kw = w.shape
    oh, ow = g.out_size(x.shape[2], x.shape[3], kh, kw)
    xp = _pad(x, g)
    if _is_depthwise(c, cg, g):
        wd = w.reshape(c, o // c, kh, kw)
        out = np.zeros((n, c, o // c, oh, ow), np.result_type(x, w))
        for i in range(kh):
            for j in range(kw):
                out += xp[_window_slice(i, j, oh, ow, g)][:, :, None] * wd[None, :, :, i, j, None, None]
        return out.reshape(n, o, oh, ow)
    if kh == kw == 1:
        cols = xp[:, :, ::g.stride[0], ::g.stride[1]][:, :, :oh, :ow].reshape(n, c, oh * ow)
    else:
        cols = _windows(xp, kh, kw, oh, ow, g).reshape(n, c * kh * kw, oh * ow)
    groups = g.groups
    out = w.reshape(groups, o // groups, cg * kh * kw) @ cols.reshape(n, groups, cg * kh * kw, oh * ow)
    return out.reshape(n, o, oh, ow)


def _conv_transpose(u: np.ndarray, w: np.ndarray, g: Geometry, out_hw: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in x: scatter each output pixel back through the kernel."""
    n, o, oh, ow = u.shape
    _, cg, kh, kw = w.shape
    c = cg * g.groups
    (pt, pb), (pl, pr) = g.pads
    zp = np.zeros((n, c, out_hw[0] + pt + pb, out_hw[1] + pl + pr), np.result_type(u, w))
    if _is_depthwise(c, cg, g):
        ud = u.reshape(n, c, o // c, oh, ow)
        wd = w.reshape(c, o // c, kh, kw)
        for i in range(kh):
            for j in range(kw):
                zp[_window_slice(i, j, oh, ow, g)] += np.einsum("ncmyx,cm->ncyx", ud, wd[:, :, i, j])
    else:
        groups = g.groups
        wg = w.reshape(groups, o // groups, cg * kh * kw)
        cols = (wg.transpose(0, 2, 1) @ u.reshape(n, groups, o // groups, oh * ow)).reshape(n, c, kh, kw, oh, ow)
        for i in range(kh):
            for j in range(kw):
                zp[_window_slice(i, j, oh, ow, g)] += cols[:, :, i, j]
    return zp[:, :, pt:pt + out_hw[0], pl:pl + out_hw[1]]


def _conv_weight_grad(x: np.ndarray, u: np.ndarray, g: Geometry, kernel: tuple[int, int]) -> np.ndarray:
    """The adjoint of ``_conv`` in w: correlate the input windows with the output gradient."""
    n, c = x.shape[:2]
    o, oh, ow = u.shape[1:]
    kh, kw = kernel
    xp = _pad(x, g)
    groups, cg = g.groups, c // g.groups
    if _is_depthwise(c, cg, g):
        ud = u.reshape(n, c, o // c, oh, ow)
        gw = np.empty((c, o // c, kh, kw), np.result_type(x, u))
        for i in range(kh):
            for j in range(kw):
                gw[:, :, i, j] = np.einsum("ncyx,ncmyx->cm", xp[_window_slice(i, j, oh, ow, g)], ud)
        return gw.reshape(o, 1, kh, kw)
    cols = _windows(xp, kh, kw, oh, ow, g).reshape(n, groups, cg * kh * kw, oh * ow)
    gw = (u.reshape(n, groups, o // groups, oh * ow) @ cols.transpose(0, 1, 3, 2)).sum(0)
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
        gu = Convolution.apply(gz, w, None, geometry=geo) if need_u else None
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
        gu = Convolution.apply(x, gw, None, geometry=geo) if need_u else None
        return gx, gu


def _spatial(x) -> tuple[int, int]:
    """(H, W) of an input, 1-D inputs having height 1."""
    shape = tuple(x.shape[2:])
    return (1,) + shape if len(shape) == 1 else shape
