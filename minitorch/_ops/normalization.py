"""Normalisation: batch_norm, layer_norm and group_norm share one op,
y = (x - mean) / sqrt(var + eps) * weight + bias, with statistics over some axes of a
(possibly regrouped) view of x. When the statistics come from the batch, the backward
pass differentiates through them (the fused formula below); when they are running
statistics (BatchNorm in eval mode), they are constants.
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .reduction import mean, sum as sum_
from .unary import rsqrt


def batch_stats(view: np.ndarray, axes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Mean and biased variance over ``axes`` (kept as size-1 dims)."""
    m = view.mean(axis=axes, keepdims=True)
    centered = view - m
    return m, np.mean(centered * centered, axis=axes, keepdims=True)


def _per_channel(a: np.ndarray) -> np.ndarray:
    """(N, C, ...) -> (N, C, rest): channel statistics reduce axes 0 and 2."""
    return a.reshape(a.shape[0], a.shape[1], -1)


def channel_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """BatchNorm's per-channel mean and biased variance of an (N, C, ...) array, shaped (C,)."""
    x3 = _per_channel(x)
    count = x3.shape[0] * x3.shape[2]
    m = x3.sum(axis=(0, 2)) / count
    centered = x3 - m[:, None]
    return m, np.vecdot(centered, centered).sum(0) / count


class _Normalization(Op):
    """Normalise ``x`` (viewed as ``view_shape``) over ``axes``; scale/shift by weight/bias
    reshaped to ``param_shape``. ``stats``: (mean, var) broadcastable to the view;
    ``from_batch``: whether they were computed from ``x`` itself."""

    @staticmethod
    def forward(ctx, x, weight, bias, stats=None, from_batch=True, eps=1e-5, axes=(), view_shape=None,
                param_shape=None):
        view = x.reshape(view_shape) if view_shape else x
        m, var = stats if stats is not None else batch_stats(view, axes)
        invstd = (1.0 / np.sqrt(var + eps)).astype(x.dtype, copy=False)
        ctx.from_batch, ctx.eps, ctx.axes, ctx.view_shape, ctx.param_shape = from_batch, eps, axes, view_shape, param_shape
        ctx.bias_shape = None if bias is None else bias.shape
        ctx.save_for_backward(x, weight, m.astype(x.dtype, copy=False), invstd)
        out = view - m
        out *= invstd
        out = out.reshape(x.shape)
        if weight is not None:
            out *= weight.reshape(param_shape)
        if bias is not None:
            out += bias.reshape(param_shape)
        return out

    @staticmethod
    def backward(ctx, g):
        x, weight, m, invstd = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        shape, axes, view_shape, param_shape = x.shape, ctx.axes, ctx.view_shape, ctx.param_shape
        view = x.reshape(view_shape) if view_shape else x
        if ctx.from_batch and ctx._as_tensors:  # differentiate through the statistics again
            m = mean(view, axes, keepdim=True)
            centered = view - m
            invstd = rsqrt(mean(centered * centered, axes, keepdim=True) + ctx.eps)
        xhat_view = (view - m) * invstd
        xhat = xhat_view.reshape(shape)
        param_axes = tuple(i for i, s in enumerate(_broadcast_shape(param_shape, len(shape))) if s == 1)
        gw = sum_(g * xhat, param_axes).reshape(weight.shape) if need_w else None
        gb = sum_(g, param_axes).reshape(ctx.bias_shape) if need_b else None
        gx = None
        if need_x:
            gxhat = g * weight.reshape(param_shape) if weight is not None else g
            gxhat = gxhat.reshape(view_shape) if view_shape else gxhat
            if ctx.from_batch:
                gxhat = (gxhat - mean(gxhat, axes, keepdim=True)
                         - xhat_view * mean(gxhat * xhat_view, axes, keepdim=True))
            gx = (gxhat * invstd).reshape(shape)
        return gx, gw, gb


class NativeBatchNorm(_Normalization):
    """BatchNorm: statistics per channel (dim 1), as (C,) arrays. The first-order passes are
    fused the way PyTorch's CPU kernel fuses them: y = x * a + b with per-channel a and b, and
    a backward made of two per-channel reductions and one affine map of g and x - mean."""

    @staticmethod
    def forward(ctx, x, weight, bias, stats=None, from_batch=True, eps=1e-5, axes=(), view_shape=None,
                param_shape=None):
        m, var = (s.reshape(-1) for s in stats)
        invstd = (1.0 / np.sqrt(var + eps)).astype(x.dtype, copy=False)
        ctx.from_batch, ctx.eps, ctx.axes, ctx.view_shape, ctx.param_shape = from_batch, eps, axes, None, param_shape
        ctx.bias_shape = None if bias is None else bias.shape
        m = m.astype(x.dtype, copy=False)
        ctx.save_for_backward(x, weight, m.reshape(param_shape), invstd.reshape(param_shape))
        scale = invstd if weight is None else invstd * weight
        shift = -m * scale if bias is None else bias - m * scale
        out = x * scale.reshape(param_shape)
        out += shift.reshape(param_shape)
        return out

    @staticmethod
    def backward(ctx, g):
        if ctx._as_tensors:
            return _Normalization.backward(ctx, g)
        x, weight, m, invstd = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        m, invstd = m.reshape(-1), invstd.reshape(-1)
        g3, x3 = _per_channel(g), _per_channel(x)
        count = g3.shape[0] * g3.shape[2]
        sum_g = g3.sum(axis=(0, 2))
        centered = x3 - m[:, None]
        sum_gc = np.vecdot(g3, centered).sum(0)
        gw = (sum_gc * invstd).astype(g.dtype, copy=False) if need_w else None
        gx = None
        if need_x:
            shape = ctx.param_shape
            a = invstd if weight is None else invstd * weight
            gx = g * a.reshape(shape)
            if ctx.from_batch:  # the statistics' share
                gx += (centered * (-a * invstd * invstd * sum_gc / count)[:, None]).reshape(g.shape)
                gx -= (a * sum_g / count).reshape(shape)
        return gx, gw, (sum_g if need_b else None)


def _broadcast_shape(param_shape, ndim):
    return (1,) * (ndim - len(param_shape)) + tuple(param_shape)


class NativeLayerNorm(_Normalization):
    pass


class NativeGroupNorm(_Normalization):
    pass
