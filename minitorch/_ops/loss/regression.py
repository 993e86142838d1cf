"""Regression and distribution losses: mse, l1, smooth_l1 and huber (elementwise losses of ``input - target``,
ops with their reduction fused in, as torch's loss nodes are; l1 composed, as in torch), KL divergence and the
Poisson and Gaussian negative log-likelihoods (composed)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import full_precision
from ..._core.function import Op
from ..._core.registry import functional_op, register
from ..._core.tensor import Tensor
from ..elementwise.broadcast import result_dtype
from ..elementwise.clamp import where
from ..elementwise.unary import sign
from .reduction import REDUCTIONS, check_reduction, legacy_reduction, reduce_loss, size_warning, spread

class _ElementwiseLoss(Op):
    """A loss of (input, target) that is a sum or mean of an elementwise function.

    Subclasses give ``elementwise(d, ctx)`` on ``d = input - target`` and its derivative ``slope``."""

    @classmethod
    def forward(cls, ctx, x, y, reduction="mean", **params):
        shape = np.broadcast_shapes(x.shape, y.shape)
        ctx.reduction, ctx.params, ctx.count = reduction, params, math.prod(shape)
        ctx.save_for_backward(x, y)
        dt = result_dtype(x, y)  # torch's promotion: a float32 input with integer targets stays float32
        return reduce_loss(cls.elementwise(x.astype(dt, copy=False) - y.astype(dt, copy=False), **params), reduction)

    @classmethod
    def backward(cls, ctx, g):
        x, y = ctx.saved_tensors
        g = spread(g, ctx.reduction, ctx.count)
        need_x, need_y = ctx.needs_input_grad
        # the target's as torch: the slope at y - x (+0.0 where they are equal, not -0.0)
        return (g * cls.slope(x - y, **ctx.params) if need_x else None), \
            (g * cls.slope(y - x, **ctx.params) if need_y else None)


class MseLoss(_ElementwiseLoss):
    @staticmethod
    def elementwise(d):
        return d * d

    @staticmethod
    def slope(d):
        return d * 2.0


class SmoothL1Loss(_ElementwiseLoss):
    @staticmethod
    def elementwise(d, beta=1.0):
        a = np.abs(d)
        if beta == 0:
            return a
        return np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta).astype(d.dtype, copy=False)

    @staticmethod
    def slope(d, beta=1.0):
        if beta == 0:
            return sign(d)
        return where(d < -beta, -1.0, where(d > beta, 1.0, d * (1.0 / beta)))  # NaN: d / beta


class HuberLoss(_ElementwiseLoss):
    @staticmethod
    def elementwise(d, delta=1.0):
        a = np.abs(d)
        return np.where(a <= delta, 0.5 * d * d, delta * (a - 0.5 * delta)).astype(d.dtype, copy=False)

    @staticmethod
    def slope(d, delta=1.0):
        return where(d < -delta, -delta, where(d > delta, delta, d))  # NaN: d


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
def _weighted(errors: Tensor, input, weight, reduction: str) -> Tensor:
    """Elementwise ``errors`` times ``weight`` (of the input's size); the mean is over the weights' sum."""
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    errors = errors * weight
    if reduction == "none":
        return errors
    return errors.sum() if reduction == "sum" else errors.sum() / weight.sum()


@functional_op
def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None) -> Tensor:
    """Mean (or sum) of squared differences (each times ``weight``, the mean then over the weights' sum)."""
    input, target = full_precision(input, target)
    size_warning(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        return _weighted((input - target) ** 2, input, weight, reduction)
    return MseLoss.apply(input, target, reduction=reduction)


@functional_op
def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None) -> Tensor:
    """Mean (or sum) of absolute differences (each times ``weight``, the mean then over the weights' sum)."""
    input, target = full_precision(input, target)
    size_warning(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    if weight is not None:
        return _weighted((input - target).abs(), input, weight, reduction)
    return reduce_loss((input - target).abs(), reduction)


@functional_op
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Quadratic below ``beta``, linear above."""
    input, target = full_precision(input, target)
    size_warning(input, target)
    return SmoothL1Loss.apply(input, target, reduction=legacy_reduction(size_average, reduce, reduction), beta=beta)


@functional_op
def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    input, target = full_precision(input, target)
    size_warning(input, target)
    return HuberLoss.apply(input, target, reduction=legacy_reduction(None, None, reduction), delta=delta)


@functional_op
def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    """Pointwise KL divergence ``target * (log(target) - input)`` (``input`` holds log-probabilities);
    'batchmean' divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, "mean")
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      stacklevel=2)
    if reduction != "batchmean":
        check_reduction(reduction)
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input, target, reduction, log_target):
    input, target = full_precision(input, target)
    if log_target:
        losses = target.exp() * (target - input)
    else:  # (xlogy's gradient in its second argument, self / other, is NaN at a zero target, as in torch)
        losses = target.xlogy(target) - target * input
    if reduction == "batchmean":  # the sum over the batch size
        return reduce_loss(losses, "mean", input.shape[0]) if input.dim() else reduce_loss(losses, "sum")
    return reduce_loss(losses, reduction)


@functional_op
def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` under Poisson(rate), rate = exp(input) or input."""
    input, target = full_precision(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    losses = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:  # computed everywhere, as in torch: the target's gradient is NaN where it is <= 0 (0 * log 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        losses = losses + stirling.masked_fill(target <= 1, 0.0)
    return reduce_loss(losses, reduction)


@functional_op
def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
    """``0.5 * (log(var) + (input - target)^2 / var)``, var clamped at ``eps`` (the clamp passes gradients)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = Tensor._wrap(np.full(tuple(input.shape), var, input._data.dtype))
    elif (var._data < 0).any():
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var + Tensor._wrap(np.maximum(var._data, eps) - var._data)  # clamp values, identity gradient
    losses = (var.log() + (input - target) ** 2 / var) * 0.5
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return reduce_loss(losses, reduction)


@register(name="kl_div", method=False)
def kl_div_aten(input: Tensor, target: Tensor, reduction: int = 0, *, log_target: bool = False) -> Tensor:
    """Pointwise KL divergence; reduction 1 is the plain mean (no 'batchmean' here)."""
    return _kl_div(input, target, REDUCTIONS[reduction], log_target)


@register(name="poisson_nll_loss", method=False)
def poisson_nll_loss_aten(input: Tensor, target: Tensor, log_input: bool, full: bool, eps: float,
                     reduction: int) -> Tensor:
    return poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=REDUCTIONS[reduction])
