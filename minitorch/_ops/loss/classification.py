"""Losses: NllLoss, MseLoss, SmoothL1Loss, HuberLoss, BinaryCrossEntropy,
BinaryCrossEntropyWithLogits and SoftMarginLoss are ops with their reduction fused in, as torch's loss nodes
are; l1_loss and parts of cross_entropy are composed from tensor ops, as in torch. All
reduce through ``reduce`` (and its derivative ``spread``)."""
from __future__ import annotations

import math

import numpy as np

from ..._core.function import Op
from ..._core.grad_mode import is_grad_enabled
from ..elementwise.clamp import where
from ..elementwise.broadcast import result_dtype
from ..shape.indexing import ARRAY, IndexScatter, Made, axis_range
from ..elementwise.unary import exp, log, sigmoid, sign


def reduce(losses, reduction: str, total=None):
    """'none': ``losses``; 'sum': their sum; 'mean': their mean, or with ``total``, their sum
    over ``total`` (nll's weighted mean: the total weight of the counted targets). Arrays (in an
    op's forward) or tensors (a composed loss)."""
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return losses.mean() if total is None else losses.sum() / _nonzero(total)


def spread(g, reduction: str, count):
    """The derivative of ``reduce``: each loss's share of the gradient ``g`` of the reduced
    loss; ``count``: the number of losses, or ``total``."""
    return g / _nonzero(count) if reduction == "mean" else g


def _nonzero(total):
    """A zero total (every target ignored) gives torch's nan loss, without numpy's 0/0 warning."""
    return total if total else math.nan


def _weighted(elementwise, weight):
    """The elementwise loss (or its gradient) times the per-element ``weight``, when there is one."""
    return elementwise if weight is None else elementwise * weight


def target_weights(target: np.ndarray, weight, ignore_index: int, dtype):
    """For class indices ``target``: each one's class weight (1 without ``weight``), 0 where it is
    ``ignore_index``, and the targets with ``ignore_index`` replaced by class 0."""
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    return (valid.astype(dtype) if weight is None else weight[safe] * valid), safe


def refuse_grad(function: str, argument: str, tensor) -> None:
    """torch's error for an argument its ``function`` does not differentiate (a weight, a target) when it
    requires grad and grad mode is on."""
    if tensor is not None and tensor.requires_grad and is_grad_enabled():
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument '{argument}'. "
                           "This input cannot have requires_grad True.")


def check_reduction(reduction: str) -> None:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


class _ElementwiseLoss(Op):
    """A loss of (input, target) that is a sum or mean of an elementwise function.

    Subclasses give ``elementwise(d, ctx)`` on ``d = input - target`` and its derivative ``slope``."""

    @classmethod
    def forward(cls, ctx, x, y, reduction="mean", **params):
        shape = np.broadcast_shapes(x.shape, y.shape)
        ctx.reduction, ctx.params, ctx.count = reduction, params, math.prod(shape)
        ctx.save_for_backward(x, y)
        dt = result_dtype(x, y)  # torch's promotion: a float32 input with integer targets stays float32
        return reduce(cls.elementwise(x.astype(dt, copy=False) - y.astype(dt, copy=False), **params), reduction)

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


class NllLoss(Op):
    """-weight[t] * logp[n, t] for each row n of (N, C) log-probabilities and class t = target[n];
    rows whose target is ``ignore_index`` count for nothing and get no gradient. ``logp`` is saved only to
    check its version, as torch's node does."""

    @staticmethod
    def forward(ctx, logp, target, weight, ignore_index=-100, reduction="mean"):
        coef, safe = target_weights(target, weight, ignore_index, logp.dtype)
        rows = np.arange(target.shape[0])
        total = float(coef.sum())
        ctx.shape = logp.shape
        # d loss / d logp[n, t]; 0 for ignored rows, also when all are (then the others' is nan, as in torch)
        slope = np.where(target != ignore_index, -spread(coef, reduction, total), 0.0)
        ctx.save_for_backward(logp, target, weight, slope, safe)
        return reduce(-logp[rows, safe] * coef, reduction, total)

    @staticmethod
    def backward(ctx, g):
        _, _, _, slope, safe = ctx.saved_tensors
        rows = Made(axis_range, ctx.shape[0], 0, 1)
        return IndexScatter.apply(g * slope, safe, shape=ctx.shape, index=(rows, ARRAY), accumulate=False), None, None


class NllLoss2d(NllLoss, name="NllLoss2DBackward0"):
    """nll_loss of an (N, C, H, W) input (flattened to rows first)."""


class BinaryCrossEntropy(Op):
    """-w * (y log(x) + (1 - y) log(1 - x)), with the logs clamped at -100 as in torch."""

    @staticmethod
    def forward(ctx, x, y, weight, reduction="mean"):
        for values, name in ((x, "input"), (y, "target")):
            if not np.all((values >= 0) & (values <= 1)):  # NaN fails the test
                raise RuntimeError(f"all elements of {name} should be between 0 and 1")
        ctx.reduction, ctx.count = reduction, x.size
        ctx.save_for_backward(x, y, weight)
        with np.errstate(divide="ignore"):
            log_x, log_1mx = np.maximum(np.log(x), -100), np.maximum(np.log1p(-x), -100)
        elementwise = -(y * log_x + (1 - y) * log_1mx)
        return reduce(_weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y, weight = ctx.saved_tensors
        need_x, need_y, _ = ctx.needs_input_grad
        g = _weighted(spread(g, ctx.reduction, ctx.count), weight)
        gx = g * (x - y) / where(x * (1.0 - x) > 1e-12, x * (1.0 - x), 1e-12) if need_x else None
        gy = g * (log(1.0 - x) - log(x)) if need_y else None
        return gx, gy, None


class BinaryCrossEntropyWithLogits(Op):
    """BCE of sigmoid(x), computed stably: (1 - y) x + (1 + (pw - 1) y) softplus(-x), times weight."""

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction="mean"):
        ctx.reduction, ctx.count = reduction, x.size
        ctx.save_for_backward(x, y, weight, pos_weight)
        softplus_neg = np.logaddexp(0, -x)
        scale = 1 + (pos_weight - 1) * y if pos_weight is not None else 1
        elementwise = (1 - y) * x + scale * softplus_neg
        return reduce(_weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y, weight, pw = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad[:2]
        g = _weighted(spread(g, ctx.reduction, ctx.count), weight)
        scale = (y * (pw - 1.0) + 1.0) if pw is not None else 1.0
        gx = g * ((1.0 - y) - sigmoid(-x) * scale) if need_x else None
        gy = None
        if need_y:
            softplus_neg = log(sigmoid(x)) * -1.0
            gy = g * (softplus_neg * (pw - 1.0) - x if pw is not None else x * -1.0)
        return gx, gy, None, None


class SoftMarginLoss(Op):
    """log(1 + exp(-y x)), reduced; computed as torch does, through exp(-y x): inf where that overflows, and a NaN
    gradient (inf / inf) there."""

    @staticmethod
    def forward(ctx, x, y, reduction="mean"):
        ctx.reduction, ctx.count = reduction, math.prod(np.broadcast_shapes(x.shape, y.shape))
        ctx.save_for_backward(x, y)
        with np.errstate(over="ignore"):
            return reduce(np.log1p(np.exp(-(x * y))).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad
        with np.errstate(over="ignore", invalid="ignore"):
            z = exp(y * x * -1.0)
            slope = spread(g, ctx.reduction, ctx.count) * (z / (z + 1.0)) * -1.0  # d/dt log1p(exp(-t)) at t = x y
        return (slope * y if need_x else None), (slope * x if need_y else None)
