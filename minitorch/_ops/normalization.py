"""Normalisation, y = (x - mean) / sqrt(var + eps) * weight + bias: batch_norm with statistics
per channel (dim 1), layer_norm and group_norm with statistics over some axes of a (possibly
regrouped) view of x. The backward passes differentiate through statistics taken from the
batch; BatchNorm's running statistics (in eval mode) are constants.
"""
from __future__ import annotations

import math

import numpy as np

from .._core.function import Op
from .._core.out import _out, _outs
from .._core.registry import functional_op, register
from .._core.tensor import Tensor
from .conv.padding import pad
from .conv.pooling_functions import avg_pool2d
from .elementwise.clamp import clamp
from .elementwise.unary import rsqrt
from .linalg.products import einsum
from .reduction.sums import mean
from .reduction.sums import sum as sum_
from .._core.parallel import parallel_rows


def _per_channel(a):
    """(N, C, ...) -> (N, C, rest): channel statistics reduce axes 0 and 2."""
    return a.reshape(a.shape[0], a.shape[1], -1)


class ChannelDot(Op):
    """Per-channel dot product of two (N, C, L) arrays: the sum of ``a * b`` over axes 0 and 2."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.vecdot(a, b).sum(0)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        g = g.reshape(1, -1, 1)
        return (b * g if need_a else None), (a * g if need_b else None)


channel_dot = ChannelDot.apply


def channel_stats(x3):
    """Per-channel mean, deviations from it and biased variance of (N, C, L) ``x3`` (an array, or a
    tensor when backward differentiates through the statistics)."""
    count = x3.shape[0] * x3.shape[2]
    m = sum_(x3, (0, 2)) / count
    centered = x3 - m.reshape(-1, 1)
    return m, centered, channel_dot(centered, centered) / count


def _channel_shape(ndim: int) -> tuple:
    """Where per-channel values broadcast against an (N, C, ...) array."""
    return (1, -1) + (1,) * (ndim - 2)


_SHORT_ROWS = 8  # (N, C, L) arrays with L below this are reduced and combined the plain numpy way


def _spread(v, a3):
    """Per-channel values ``v`` to combine with (N, C, L) ``a3``: repeated along L for a contiguous pass
    (numpy's loop over rows with a per-row scalar is ~1.7x slower), unless N or L is too small to repay that."""
    v = np.asarray(v, a3.dtype).reshape(1, -1, 1)
    return v if a3.shape[0] < 4 or a3.shape[2] < _SHORT_ROWS else np.broadcast_to(v, (1,) + a3.shape[1:]).copy()


def _channel_sum(a3):
    """Per-channel sum (float64) of (N, C, L) ``a3``: BLAS row sums, ~3x faster than ``sum((0, 2))``
    unless the rows are too short to repay a call each."""
    if a3.shape[2] < _SHORT_ROWS:
        return a3.sum((0, 2), dtype=np.float64)
    return (a3 @ np.ones(a3.shape[2], a3.dtype)).sum(0, dtype=np.float64)


def _channel_dot(a3, b3):
    """Per-channel sum (float64) of ``a3 * b3``, both (N, C, L)."""
    if a3.shape[2] < _SHORT_ROWS:
        return (a3 * b3).sum((0, 2), dtype=np.float64)
    return np.vecdot(a3, b3).sum(0, dtype=np.float64)


def _centered_dot(x3, m, b3=None):
    """``x3 - m`` (per-channel ``m``) and ``_channel_dot`` of ``b3`` (default: itself) with it, both in one pass
    over each image, the images split across the threads."""
    spread = _spread(m, x3)
    if x3.shape[2] < _SHORT_ROWS:
        centered = x3 - spread
        return centered, _channel_dot(centered if b3 is None else b3, centered)
    centered, dots = np.empty(x3.shape, x3.dtype), np.empty(x3.shape[:2], x3.dtype)

    def images(b: int, e: int) -> None:
        c = np.subtract(x3[b:e], spread, out=centered[b:e])
        np.vecdot(c if b3 is None else b3[b:e], c, out=dots[b:e])
    _by_image(images, x3)
    return centered, dots.sum(0, dtype=np.float64)


def _by_image(fn, a3) -> None:
    """``fn(b, e)`` on the images ``b..e`` of (N, C, L) ``a3``, split across the threads."""
    parallel_rows(a3.shape[0], a3[0].size, fn)


class NativeBatchNorm(Op):
    """batch_norm: with ``training``, by the batch's per-channel statistics, which also update
    ``running`` (the running mean and variance arrays, in place, by ``momentum``, with the unbiased
    variance); else by ``running``. Fused the way PyTorch's CPU kernel is: y = x * a + b with
    per-channel a and b, and a backward made of two per-channel reductions and one affine map of
    g and x - mean."""

    @staticmethod
    def forward(ctx, x, weight, bias, running=None, training=True, momentum=0.1, eps=1e-5):
        x3 = _per_channel(x)
        if training:
            n = x3.shape[0] * x3.shape[2]
            m = _channel_sum(x3) / n
            centered, var = _centered_dot(x3, m)  # two passes: var from sums of squares would lose digits
            var /= n
            if running is not None:
                running_mean, running_var = running
                running_mean *= 1 - momentum
                running_mean += momentum * m
                running_var *= 1 - momentum
                running_var += (momentum * n / max(n - 1, 1)) * var
        else:
            m, var = running
        m = m.astype(x.dtype)  # a copy: the running mean may change before backward reads it
        invstd = (1.0 / np.sqrt(var + eps)).astype(x.dtype, copy=False)
        ctx.training, ctx.eps = training, eps
        ctx.save_for_backward(x, weight, m, invstd)
        scale = invstd if weight is None else invstd * weight
        a = _spread(scale, x3)
        if training:  # y = (x - mean) * a + bias, in x - mean's buffer
            out, b = centered, None if bias is None else _spread(bias, x3)
        else:  # y = x * a + b
            out, b = np.empty(x3.shape, np.result_type(x3, a)), _spread(-m * scale if bias is None else bias - m * scale, x3)

        def images(i: int, j: int) -> None:
            y = np.multiply(out[i:j] if training else x3[i:j], a, out=out[i:j])
            if b is not None:
                y += b
        _by_image(images, x3)
        return out.reshape(x.shape)

    @staticmethod
    def backward(ctx, g):
        if ctx._as_tensors:
            return _batch_norm_backward_graph(ctx, g)
        x, weight, m, invstd = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        x3, g3 = _per_channel(x), _per_channel(g)
        count = x3.shape[0] * x3.shape[2]
        sum_g = _channel_sum(g3)
        if ctx.training or need_w:
            # (dot(g, x) - mean * sum(g) would save this pass, at ~10x torch's error when |mean| >> std)
            centered, sum_gc = _centered_dot(x3, m, g3)
        gx = None
        if need_x:
            a = _spread(invstd if weight is None else invstd * weight, x3)
            if ctx.training:  # a * (g - mean(g) - (x - mean) * invstd**2 * mean(g * (x - mean))), in one buffer
                gx = centered
                k, mean_g = _spread(-invstd * invstd * sum_gc / count, x3), _spread(sum_g / count, x3)

                def images(i: int, j: int) -> None:
                    part = gx[i:j]
                    part *= k
                    part += g3[i:j]
                    part -= mean_g
                    part *= a
            else:
                gx = np.empty(g3.shape, np.result_type(g3, a))

                def images(i: int, j: int) -> None:
                    np.multiply(g3[i:j], a, out=gx[i:j])
            _by_image(images, x3)
            gx = gx.reshape(g.shape)
        return gx, (sum_gc * invstd if need_w else None), (sum_g if need_b else None)


def _batch_norm_backward_graph(ctx, g):
    """NativeBatchNorm's backward on tensors, for higher-order gradients: with ``training``, the
    statistics are recomputed as functions of x."""
    x, weight, m, invstd = ctx.saved_tensors
    need_x, need_w, need_b = ctx.needs_input_grad
    x3, g3 = _per_channel(x), _per_channel(g)
    count = x3.shape[0] * x3.shape[2]
    if ctx.training:
        m, centered, var = channel_stats(x3)
        invstd = rsqrt(var + ctx.eps)
    else:
        centered = x3 - m.reshape(-1, 1)
    sum_g = sum_(g3, (0, 2))
    sum_gc = channel_dot(g3, centered)
    gx = None
    if need_x:
        shape = _channel_shape(len(g.shape))
        a = invstd if weight is None else invstd * weight
        gx = g * a.reshape(shape)
        if ctx.training:  # the statistics' share
            gx += (centered * (-a * invstd * invstd * sum_gc / count).reshape(-1, 1)).reshape(g.shape)
            gx -= (a * sum_g / count).reshape(shape)
    return gx, (sum_gc * invstd if need_w else None), (sum_g if need_b else None)


def _rows(a: np.ndarray, axes: tuple) -> np.ndarray:
    """``a`` as (rows, L): its trailing ``axes`` (L elements each) flattened, the dims before them as rows."""
    return a.reshape(-1, math.prod(a.shape[a.ndim - len(axes):]))


def _normalized_rows(v: np.ndarray, eps: float) -> tuple:
    """Per row of (R, L) ``v``: its mean, 1 / sqrt(biased variance + eps) (both (R, 1)) and the row normalised
    by them; the rows split across the threads."""
    m, invstd, out = np.empty((v.shape[0], 1), v.dtype), np.empty((v.shape[0], 1), v.dtype), np.empty_like(v)

    def rows(b: int, e: int) -> None:
        m[b:e] = v[b:e].mean(-1, keepdims=True)
        centered = np.subtract(v[b:e], m[b:e], out=out[b:e])
        invstd[b:e] = 1.0 / np.sqrt(np.mean(centered * centered, -1, keepdims=True) + eps)
        centered *= invstd[b:e]
    parallel_rows(v.shape[0], v.shape[1], rows)
    return m, invstd, out


def _normalized_grad_rows(v: np.ndarray, m: np.ndarray, invstd: np.ndarray, gxhat: np.ndarray | None) -> tuple:
    """Per row of (R, L) ``v`` with its statistics (R, 1): the normalised row ``xhat`` and, given the gradient
    ``gxhat`` with respect to it, the row's input gradient; the rows split across the threads."""
    xhat, gx = np.empty_like(v), None if gxhat is None else np.empty_like(gxhat)

    def rows(b: int, e: int) -> None:
        xh = np.subtract(v[b:e], m[b:e], out=xhat[b:e])
        xh *= invstd[b:e]
        if gx is not None:
            gh = gxhat[b:e]
            d = gh - gh.mean(-1, keepdims=True) - xh * np.mean(gh * xh, -1, keepdims=True)
            np.multiply(d, invstd[b:e], out=gx[b:e])
    parallel_rows(v.shape[0], v.shape[1], rows)
    return xhat, gx


class _Normalization(Op):
    """Normalise ``x`` (viewed as ``view_shape``) over ``axes`` (the view's trailing dims) by its own statistics;
    scale/shift by weight/bias reshaped to ``param_shape``."""

    keeps_bias = False

    @staticmethod
    def forward(ctx, x, weight, bias, eps=1e-5, axes=(), view_shape=None, param_shape=None):
        view = x.reshape(view_shape) if view_shape else x
        stats_shape = view.shape[:view.ndim - len(axes)] + (1,) * len(axes)
        m, invstd, out = _normalized_rows(_rows(view, axes), eps)
        m, invstd = m.reshape(stats_shape), invstd.astype(x.dtype, copy=False).reshape(stats_shape)
        ctx.eps, ctx.axes, ctx.view_shape, ctx.param_shape = eps, axes, view_shape, param_shape
        ctx.bias_shape = None if bias is None else bias.shape
        # layer norm's bias only to check its version, as torch's node does
        ctx.save_for_backward(x, weight, bias if type(ctx).keeps_bias else None, m.astype(x.dtype, copy=False),
                              invstd)
        out = out.reshape(x.shape)
        if weight is not None:
            out *= weight.reshape(param_shape)
        if bias is not None:
            out += bias.reshape(param_shape)
        return out

    @staticmethod
    def backward(ctx, g):
        x, weight, _, m, invstd = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        shape, axes, view_shape, param_shape = x.shape, ctx.axes, ctx.view_shape, ctx.param_shape
        view = x.reshape(view_shape) if view_shape else x
        gxhat = None
        if need_x:
            gxhat = g * weight.reshape(param_shape) if weight is not None else g
            gxhat = gxhat.reshape(view_shape) if view_shape else gxhat
        if ctx._as_tensors:  # differentiate through the statistics again
            m = mean(view, axes, keepdim=True)
            centered = view - m
            invstd = rsqrt(mean(centered * centered, axes, keepdim=True) + ctx.eps)
            xhat_view = (view - m) * invstd
            gx = None
            if need_x:
                gxhat = gxhat - mean(gxhat, axes, keepdim=True) - xhat_view * mean(gxhat * xhat_view, axes,
                                                                                    keepdim=True)
                gx = (gxhat * invstd).reshape(shape)
            xhat = xhat_view.reshape(shape)
        else:  # the same formulas, row by row
            xhat, gx = _normalized_grad_rows(_rows(view, axes), _rows(m, axes), _rows(invstd, axes),
                                             None if gxhat is None else _rows(gxhat, axes))
            xhat, gx = xhat.reshape(shape), None if gx is None else gx.reshape(shape)
        param_axes = tuple(i for i, s in enumerate(_broadcast_shape(param_shape, len(shape))) if s == 1)
        gw = sum_(g * xhat, param_axes).reshape(weight.shape) if need_w else None
        gb = sum_(g, param_axes).reshape(ctx.bias_shape) if need_b else None
        return gx, gw, gb


def _broadcast_shape(param_shape, ndim):
    return (1,) * (ndim - len(param_shape)) + tuple(param_shape)


class NativeLayerNorm(_Normalization):
    keeps_bias = True


class NativeGroupNorm(_Normalization):
    pass


class CrossMapLrn2d(Op, name="CrossMapLRN2dBackward"):
    """torch's legacy cross-channel LRN of (N, C, H, W) input, as torch computes it: ``x * scale ** -beta``,
    ``scale = k + alpha / size * S`` with S the sums of squares over channel windows that torch builds
    incrementally (so channel 0 stays in every window), and torch's own backward formula, whose window is
    channels ``c - (size + 1) // 2 .. c - (size + 1) // 2 + size - 1``. Neither is the other's derivative:
    reproducing torch is the point of this layer."""

    @staticmethod
    def forward(ctx, x, size=5, alpha=1e-4, beta=0.75, k=1.0):
        channels = x.shape[1]
        pre = (size - 1) // 2 + 1
        prefix = np.concatenate([np.zeros_like(x[:, :1]), np.cumsum(x * x, axis=1)], axis=1)
        c = np.arange(channels)
        window = prefix[:, np.minimum(c + pre, channels)]
        late = c > pre
        window[:, late] -= prefix[:, c[late] - pre + 1] - prefix[:, 1:2]
        scale = k + alpha / size * window
        first = c - (size + 1) // 2  # the first channel of the backward window of channel c
        band = ((c >= first[:, None]) & (c < first[:, None] + size)).astype(x.dtype)
        out = x * scale ** -beta
        ctx.factor, ctx.beta = 2 * alpha * beta / size, beta
        ctx.save_for_backward(x, out, scale, band)
        return out

    @staticmethod
    def backward(ctx, g):
        x, out, scale, band = ctx.saved_tensors
        accum = einsum("cj,njhw->nchw", band, g * (out / scale))
        return g * scale ** -ctx.beta - accum * (x * ctx.factor)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
@functional_op
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5) -> Tensor:
    """Normalise each channel (dim 1) by batch statistics (training, updating the running ones) or
    by the running statistics (eval)."""
    channels = input.shape[1]
    if training and input.numel() // channels <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
        if t is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    running = None if running_mean is None else (running_mean._data, running_var._data)
    return NativeBatchNorm.apply(input, weight, bias, running=running, training=training, momentum=momentum,
                                 eps=eps)


@functional_op
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims of each sample."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    axes = tuple(range(input.dim() - len(shape), input.dim()))
    return NativeLayerNorm.apply(input, weight, bias, eps=eps, axes=axes, param_shape=shape)


@functional_op
def group_norm(input, num_groups: int, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalise each group of channels of each sample."""
    n, c = input.shape[:2]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    return NativeGroupNorm.apply(input, weight, bias, eps=eps, axes=(2,), view_shape=(n, num_groups, -1),
                                 param_shape=(1, c) + (1,) * (input.dim() - 2))


@functional_op
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample over its spatial dims: batch_norm of the (1, N * C, ...) view."""
    if use_input_stats:
        size = tuple(input.shape)
        if math.prod(size[2:]) == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    n, c = input.shape[:2]
    x = input.reshape(1, n * c, *input.shape[2:])
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    rm = None if running_mean is None else Tensor._wrap(np.tile(running_mean._data, n))
    rv = None if running_var is None else Tensor._wrap(np.tile(running_var._data, n))
    out = batch_norm(x, rm, rv, w, b, use_input_stats, momentum, eps)
    if use_input_stats:
        for running, tiled in ((running_mean, rm), (running_var, rv)):
            if running is not None:
                running._data[...] = tiled._data.reshape(n, c).mean(0)
    return out.reshape(input.shape)


@register(method=False, functional=True)
def rms_norm(input, normalized_shape, weight=None, eps: float | None = None) -> Tensor:
    """``input / sqrt(mean(input^2) + eps) * weight`` over the trailing ``normalized_shape`` dims."""
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*"
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    out = input * (mean(input * input, dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


@functional_op
def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """``input / (k + alpha * mean of squares over ``size`` neighbouring channels) ** beta``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    n, c = input.shape[:2]
    sq = (input * input).reshape(n, 1, c, -1)
    sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(sq, (size, 1), stride=1).squeeze(1).reshape(input.shape)
    return input / (div * alpha + k) ** beta


@functional_op
def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim`` (the norm's gradient is 0 where it is 0, as torch's)."""
    return _out(input / clamp(input.norm(p, dim, keepdim=True), min=eps).expand_as(input), out)


def _stats(x: np.ndarray, axes: tuple, eps: float, dtype) -> tuple[Tensor, Tensor]:
    """(mean, 1 / sqrt(biased variance + eps)) over ``axes``, kept as size-1 dims: saved statistics, outside
    autograd as in torch."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(x64.var(axis=axes, keepdims=True) + eps)
    return Tensor._wrap(mean.astype(dtype)), Tensor._wrap(rstd.astype(dtype))


@register(name="batch_norm", method=False)
def batch_norm_aten(input: Tensor, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float,
               cudnn_enabled: bool) -> Tensor:
    """Batch normalisation over dim 1 (see ``nn.functional.batch_norm``)."""
    return batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


@register(method=False)
def native_batch_norm(input: Tensor, weight, bias, running_mean, running_var, training: bool, momentum: float,
                      eps: float, *, out=None) -> tuple[Tensor, Tensor, Tensor]:
    """(output, batch mean, batch 1/std) in training; (output, empty, empty) in eval."""
    if out is not None and not isinstance(out, (tuple, list)):
        raise TypeError(f"native_batch_norm(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    result = batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        empty = Tensor._wrap(np.empty((0,), input._data.dtype))
        return _outs((result, empty, empty.clone()), out)
    axes = (0,) + tuple(range(2, input.dim()))
    mean, rstd = _stats(input._data, axes, eps, input._data.dtype)
    return _outs((result, mean.reshape(-1), rstd.reshape(-1)), out)


@register(name="layer_norm", method=False)
def layer_norm_aten(input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enable: bool = True) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims (see ``nn.functional.layer_norm``)."""
    return layer_norm(input, normalized_shape, weight, bias, eps)


@register(method=False)
def native_layer_norm(input: Tensor, normalized_shape, weight, bias, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(output, mean, 1/std), the statistics of shape ``input.shape[:axis] + (1,) * len(normalized_shape)``."""
    out = layer_norm(input, normalized_shape, weight, bias, eps)
    axes = tuple(range(input.dim() - len(tuple(normalized_shape)), input.dim()))
    return (out, *_stats(input._data, axes, eps, input._data.dtype))


@register(name="group_norm", method=False)
def group_norm_aten(input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enabled: bool = True) -> Tensor:
    """Normalise each group of channels of each sample (see ``nn.functional.group_norm``)."""
    return group_norm(input, num_groups, weight, bias, eps)


@register(method=False)
def native_group_norm(input: Tensor, weight, bias, N: int, C: int, HxW: int, group: int,  # noqa: N803
                      eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(output, mean, 1/std), the statistics (N, group), differentiable as in torch."""
    out = group_norm(input, group, weight, bias, eps)
    grouped = input.reshape(N, group, -1)
    mean = grouped.mean(2)
    rstd = ((grouped - mean.unsqueeze(2)) ** 2).mean(2).add(eps).rsqrt()
    return out, mean, rstd


@register(name="instance_norm", method=False)
def instance_norm_aten(input: Tensor, weight, bias, running_mean, running_var, use_input_stats: bool, momentum: float,
                  eps: float, cudnn_enabled: bool) -> Tensor:
    """Normalise each channel of each sample (see ``nn.functional.instance_norm``)."""
    return instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


@register(method=False)
def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm over every dim but ``dim`` (kept, the others size 1); over everything for dim -1."""
    if dim == -1:
        return v.norm(pow)
    dims = tuple(d for d in range(v.dim()) if d != dim)
    return v.norm(pow, dims, keepdim=True)
