"""The ``minitorch.*`` forms of nn.functional's ops, with ATen's signatures: positional flags
(``batch_norm(..., training, momentum, eps, cudnn_enabled)``), integer reductions (0 none, 1 mean, 2 sum; torch's
Python bindings default them to 0, whatever the schema says),
``embedding(weight, indices)``. Each calls nn.functional's implementation, imported on first use
(nn.functional is built after this module's registry entries)."""
from __future__ import annotations

import numpy as np

from .._core.registry import register
from .._core.tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _F():
    from ..nn import functional
    return functional


def _stats(x: np.ndarray, axes: tuple, eps: float, dtype) -> tuple[Tensor, Tensor]:
    """(mean, 1 / sqrt(biased variance + eps)) over ``axes``, kept as size-1 dims: saved statistics, outside
    autograd as in torch."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(x64.var(axis=axes, keepdims=True) + eps)
    return Tensor._wrap(mean.astype(dtype)), Tensor._wrap(rstd.astype(dtype))


# ---- normalisation ----------------------------------------------------------------------------------------
@register(method=False)
def batch_norm(input: Tensor, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float,
               cudnn_enabled: bool) -> Tensor:
    """Batch normalisation over dim 1 (see ``nn.functional.batch_norm``)."""
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


@register(method=False)
def native_batch_norm(input: Tensor, weight, bias, running_mean, running_var, training: bool, momentum: float,
                      eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(output, batch mean, batch 1/std) in training; (output, empty, empty) in eval."""
    out = _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        empty = Tensor._wrap(np.empty((0,), input._data.dtype))
        return out, empty, empty.clone()
    axes = (0,) + tuple(range(2, input.dim()))
    mean, rstd = _stats(input._data, axes, eps, input._data.dtype)
    return out, mean.reshape(-1), rstd.reshape(-1)


@register(method=False)
def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enable: bool = True) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` dims (see ``nn.functional.layer_norm``)."""
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


@register(method=False)
def native_layer_norm(input: Tensor, normalized_shape, weight, bias, eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(output, mean, 1/std), the statistics of shape ``input.shape[:axis] + (1,) * len(normalized_shape)``."""
    out = _F().layer_norm(input, normalized_shape, weight, bias, eps)
    axes = tuple(range(input.dim() - len(tuple(normalized_shape)), input.dim()))
    return (out, *_stats(input._data, axes, eps, input._data.dtype))


@register(method=False)
def group_norm(input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enabled: bool = True) -> Tensor:
    """Normalise each group of channels of each sample (see ``nn.functional.group_norm``)."""
    return _F().group_norm(input, num_groups, weight, bias, eps)


@register(method=False)
def native_group_norm(input: Tensor, weight, bias, N: int, C: int, HxW: int, group: int,  # noqa: N803
                      eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(output, mean, 1/std), the statistics (N, group), differentiable as in torch."""
    out = _F().group_norm(input, group, weight, bias, eps)
    grouped = input.reshape(N, group, -1)
    mean = grouped.mean(2)
    rstd = ((grouped - mean.unsqueeze(2)) ** 2).mean(2).add(eps).rsqrt()
    return out, mean, rstd


@register(method=False)
def instance_norm(input: Tensor, weight, bias, running_mean, running_var, use_input_stats: bool, momentum: float,
                  eps: float, cudnn_enabled: bool) -> Tensor:
    """Normalise each channel of each sample (see ``nn.functional.instance_norm``)."""
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


@register(method=False)
def rms_norm(input: Tensor, normalized_shape, weight=None, eps: float | None = None) -> Tensor:
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims."""
    return _F().rms_norm(input, normalized_shape, weight, eps)


@register(method=False)
def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm over every dim but ``dim`` (kept, the others size 1); over everything for dim -1."""
    if dim == -1:
        return v.norm(pow)
    dims = tuple(d for d in range(v.dim()) if d != dim)
    return v.norm(pow, dims, keepdim=True)


# ---- activations ---------------------------------------------------------------------------------------------
@register(method=False)
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    return _F().celu(input, alpha)


@register(method=False)
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place ``celu``."""
    return _F().celu(input, alpha, True)


@register(method=False)
def selu(input: Tensor) -> Tensor:
    return _F().selu(input)


@register(method=False)
def selu_(input: Tensor) -> Tensor:
    """In-place ``selu``."""
    return _F().selu(input, True)


@register(method=False)
def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``input`` where it exceeds ``threshold``, else ``value``."""
    return _F().threshold(input, threshold, value)


@register(method=False)
def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place ``threshold``."""
    return _F().threshold(input, threshold, value, True)


@register(method=False)
def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          generator=None) -> Tensor:
    """Randomized leaky ReLU (see ``nn.functional.rrelu``); slopes from ``generator`` in training."""
    return _F()._rrelu(input, lower, upper, training, False, generator)


@register(method=False)
def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
           generator=None) -> Tensor:
    """In-place ``rrelu``."""
    return _F()._rrelu(input, lower, upper, training, True, generator)


@register
def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0."""
    return _F().hardshrink(input, lambd)


@register
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``input`` where positive, else ``weight * input`` (one slope, or one per channel)."""
    return _F().prelu(input, weight)


# ---- shape, distance and embedding ops --------------------------------------------------------------------------
@register(method=False)
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r)."""
    return _F().pixel_shuffle(input, upscale_factor)


@register(method=False)
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W)."""
    return _F().pixel_unshuffle(input, downscale_factor)


@register(method=False, aliases=("native_channel_shuffle",))
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Regroup the channels: (N, g * k, *) read as (N, k, g, *)."""
    return _F().channel_shuffle(input, groups)


@register(method=False)
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    return _F().cosine_similarity(x1, x2, dim, eps)


@register(method=False)
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    return _F().pairwise_distance(x1, x2, p, eps, keepdim)


@register(method=False)
def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """The p-norm distances between all pairs of rows ``i < j``."""
    return _F().pdist(input, p)


@register(method=False)
def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias=None) -> Tensor:
    """``input1 @ weight[o] @ input2 + bias[o]`` for each output ``o``."""
    return _F().bilinear(input1, input2, weight, bias)


@register(method=False)
def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by ``indices``; a negative ``padding_idx`` means none."""
    return _F().embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                          scale_grad_by_freq=scale_grad_by_freq)


# ---- losses ---------------------------------------------------------------------------------------------------------
@register(method=False)
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None, pos_weight=None,
                                     reduction: int = 0) -> Tensor:
    return _F().binary_cross_entropy_with_logits(input, target, weight, reduction=_REDUCTIONS[reduction],
                                                 pos_weight=pos_weight)


@register(method=False)
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    return _F().cosine_embedding_loss(input1, input2, target, margin, reduction=_REDUCTIONS[reduction])


@register(method=False)
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, reduction: int = 0) -> Tensor:
    return _F().hinge_embedding_loss(input, target, margin, reduction=_REDUCTIONS[reduction])


@register(method=False)
def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *, log_target: bool = False) -> Tensor:
    """Pointwise KL divergence; reduction 1 is the plain mean (no 'batchmean' here)."""
    return _F()._kl_div(input, target, _REDUCTIONS[reduction], log_target)


@register(method=False)
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    return _F().margin_ranking_loss(input1, input2, target, margin, reduction=_REDUCTIONS[reduction])


@register(method=False)
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float,
                     reduction: int) -> Tensor:
    return _F().poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_REDUCTIONS[reduction])


@register(method=False)
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2.0,
                        eps: float = 1e-6, swap: bool = False, reduction: int = 0) -> Tensor:
    return _F().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                    reduction=_REDUCTIONS[reduction])
