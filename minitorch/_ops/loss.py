"""Loss functions with their reduction ('mean', 'sum' or 'none') fused in, as torch's
loss nodes are: NllLoss, MseLoss, SmoothL1Loss, HuberLoss, BinaryCrossEntropy,
BinaryCrossEntropyWithLogits."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .arithmetic import where
from .indexing import IndexScatter
from .unary import log, sigmoid, sign


def reduce(elementwise: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(elementwise.mean(), elementwise.dtype)
    if reduction == "sum":
        return np.asarray(elementwise.sum(), elementwise.dtype)
    return elementwise


def spread(g, shape: tuple, reduction: str):
    """The gradient of each element of the unreduced loss."""
    if reduction == "mean":
        return g / float(np.prod(shape))
    return g


def _weighted(elementwise, weight):
    """The elementwise loss (or its gradient) times the per-element ``weight``, when there is one."""
    return elementwise if weight is None else elementwise * weight


def check_reduction(reduction: str) -> None:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


class _ElementwiseLoss(Op):
    """A loss of (input, target) that is a sum or mean of an elementwise function.

    Subclasses give ``elementwise(d, ctx)`` on ``d = input - target`` and its derivative ``slope``."""

    @classmethod
    def forward(cls, ctx, x, y, reduction="mean", **params):
        ctx.reduction, ctx.params, ctx.shape = reduction, params, np.broadcast_shapes(x.shape, y.shape)
        ctx.save_for_backward(x, y)
        d = x - y
        return reduce(cls.elementwise(d, **params), reduction)

    @classmethod
    def backward(cls, ctx, g):
        x, y = ctx.saved_tensors
        gd = spread(g, ctx.shape, ctx.reduction) * cls.slope(x - y, **ctx.params)
        need_x, need_y = ctx.needs_input_grad
        return (gd if need_x else None), (-gd if need_y else None)


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
        return where(abs(d) < beta, d * (1.0 / beta), sign(d))


class HuberLoss(_ElementwiseLoss):
    @staticmethod
    def elementwise(d, delta=1.0):
        a = np.abs(d)
        return np.where(a <= delta, 0.5 * d * d, delta * (a - 0.5 * delta)).astype(d.dtype, copy=False)

    @staticmethod
    def slope(d, delta=1.0):
        return where(abs(d) <= delta, d, sign(d) * delta)


class NllLoss(Op):
    """-weight[t] * logp[n, t] for each row n of (N, C) log-probabilities and class t = target[n]."""

    @staticmethod
    def forward(ctx, logp, target=None, weight=None, ignore_index=-100, reduction="mean"):
        rows = np.arange(target.shape[0])
        valid = target != ignore_index
        safe = np.where(valid, target, 0)
        coef = (weight[safe] if weight is not None else np.ones(target.shape, logp.dtype)) * valid
        picked = -logp[rows, safe] * coef
        denominator = coef.sum() if reduction == "mean" else 1.0
        ctx.index, ctx.shape, ctx.reduction = (rows, safe), logp.shape, reduction
        ctx.coef = (coef / denominator).astype(logp.dtype, copy=False)
        if reduction == "none":
            return picked.astype(logp.dtype, copy=False)
        return np.asarray(picked.sum() / denominator, logp.dtype)

    @staticmethod
    def backward(ctx, g):
        return IndexScatter.apply(g * -ctx.coef, shape=ctx.shape, index=ctx.index, accumulate=False)


class NllLoss2d(NllLoss, name="NllLoss2DBackward0"):
    """nll_loss of an (N, C, H, W) input (flattened to rows first)."""


class BinaryCrossEntropy(Op):
    """-w * (y log(x) + (1 - y) log(1 - x)), with the logs clamped at -100 as in torch."""

    @staticmethod
    def forward(ctx, x, y, weight=None, reduction="mean"):
        if np.any((x < 0) | (x > 1)):
            raise RuntimeError("all elements of input should be between 0 and 1")
        ctx.weight, ctx.reduction = weight, reduction
        ctx.save_for_backward(x, y)
        with np.errstate(divide="ignore"):
            log_x, log_1mx = np.maximum(np.log(x), -100), np.maximum(np.log1p(-x), -100)
        elementwise = -(y * log_x + (1 - y) * log_1mx)
        return reduce(_weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad
        g = _weighted(spread(g, x.shape, ctx.reduction), ctx.weight)
        gx = g * (x - y) / where(x * (1.0 - x) > 1e-12, x * (1.0 - x), 1e-12) if need_x else None
        gy = g * (log(1.0 - x) - log(x)) if need_y else None
        return gx, gy


class BinaryCrossEntropyWithLogits(Op):
    """BCE of sigmoid(x), computed stably: (1 - y) x + (1 + (pw - 1) y) softplus(-x), times weight."""

    @staticmethod
    def forward(ctx, x, y, weight=None, pos_weight=None, reduction="mean"):
        ctx.weight, ctx.pos_weight, ctx.reduction = weight, pos_weight, reduction
        ctx.save_for_backward(x, y)
        softplus_neg = np.logaddexp(0, -x)
        scale = 1 + (pos_weight - 1) * y if pos_weight is not None else 1
        elementwise = (1 - y) * x + scale * softplus_neg
        return reduce(_weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad
        g = _weighted(spread(g, x.shape, ctx.reduction), ctx.weight)
        pw = ctx.pos_weight
        scale = (y * (pw - 1.0) + 1.0) if pw is not None else 1.0
        gx = g * ((1.0 - y) - sigmoid(-x) * scale) if need_x else None
        gy = None
        if need_y:
            softplus_neg = log(sigmoid(x)) * -1.0
            gy = g * ((softplus_neg * (pw - 1.0) if pw is not None else 0.0) - x)
        return gx, gy
