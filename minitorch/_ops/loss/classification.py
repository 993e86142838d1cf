"""Classification losses: nll_loss, binary_cross_entropy (with logits) and soft_margin_loss are ops with their
reduction fused in, as torch's loss nodes are; cross_entropy, the multi-label and multi-class margin losses and
linear_cross_entropy are composed of tensor ops, as in torch."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import full_precision
from ... import _dtype
from ..._core.function import Op
from ..._core.registry import functional_op, register
from ..._core.shape import broadcast_shape, broadcast_shapes
from ..._core.tensor import Tensor
from ..elementwise.activation import logsigmoid
from ..elementwise.clamp import where
from ..elementwise.unary import exp, log, sigmoid
from ..linalg.products import linear
from ..reduction.softmax import log_softmax as _log_softmax
from ..reduction.sums import sum as _sum
from ..shape.indexing import ARRAY, IndexScatter, Made, axis_range
from ..shape.view import reshape
from .reduction import (REDUCTIONS, legacy_reduction, reduce_loss, refuse_grad, spread, target_weights,
                        weighted)


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
        return reduce_loss(-logp[rows, safe] * coef, reduction, total)

    @staticmethod
    def backward(ctx, g):
        _, _, _, slope, safe = ctx.saved_tensors
        rows = Made(axis_range, ctx.shape[0], 0, 1)
        return IndexScatter.apply(g * slope, safe, shape=ctx.shape, index=(rows, ARRAY), accumulate=False), None, None


# nll_loss of an (N, C, H, W) input (flattened to rows first).
NllLoss2d = NllLoss.named("NllLoss2d", "NllLoss2DBackward0")


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
        return reduce_loss(weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y, weight = ctx.saved_tensors
        need_x, need_y, _ = ctx.needs_input_grad
        g = weighted(spread(g, ctx.reduction, ctx.count), weight)
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
        return reduce_loss(weighted(elementwise, weight).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y, weight, pw = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad[:2]
        g = weighted(spread(g, ctx.reduction, ctx.count), weight)
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
            return reduce_loss(np.log1p(np.exp(-(x * y))).astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        need_x, need_y = ctx.needs_input_grad
        with np.errstate(over="ignore", invalid="ignore"):
            z = exp(y * x * -1.0)
            slope = spread(g, ctx.reduction, ctx.count) * (z / (z + 1.0)) * -1.0  # d/dt log1p(exp(-t)) at t = x y
        return (slope * y if need_x else None), (slope * x if need_y else None)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
def _check_nll_args(input, target, weight):
    """torch's checks of nll_loss's target and weight, in torch's order."""
    dims, target_dims = input.dim(), target.dim()
    if dims < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {dims})")
    batch = target.shape[0] if target_dims else 0
    if dims != 1 and input.shape[0] != batch:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({batch}).")
    if (dims == 3 or dims > 4) and tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0], *input.shape[2:]]}, got {list(target.shape)}")
    if dims <= 2 and target_dims > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if dims == 4 and target_dims != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target_dims}")
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_dtype.C_NAMES[target.dtype]}")
    if dims == 1 and target_dims == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    classes = input.shape[0 if dims == 1 else 1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}" if dims <= 2 else
                           "weight tensor should be defined either for all or no classes")
    if dims == 4 and tuple(target.shape) != (input.shape[0], *input.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")


@functional_op
def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of class ``target`` under log-probabilities ``input`` (N, C, ...)."""
    input, weight = full_precision(input, weight)
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_nll_args(input, target, weight)
    refuse_grad("nll_loss2d_forward" if input.dim() > 2 else "nll_loss_forward", "weight", weight)
    if input.dim() == 1:  # a single sample
        out = nll_loss(input.unsqueeze(0), target.reshape(1), weight, ignore_index=ignore_index,
                       reduction=reduction)
        return out.squeeze(0) if reduction == "none" else out
    classes = input.shape[1]
    rest = tuple(input.shape[2:])
    flat_in = input if not rest else reshape(input.movedim(1, -1), -1, classes)
    t = target._data.reshape(-1)
    bad = t[(t != ignore_index) & ((t < 0) | (t >= classes))]
    if bad.size:
        raise IndexError(f"Target {bad[0]} is out of bounds.")
    op = NllLoss2d if rest else NllLoss
    out = op.apply(flat_in, target if target.dim() == 1 else target.reshape(-1), weight, ignore_index=ignore_index,
                   reduction=reduction)
    return out.reshape(tuple(target.shape)) if reduction == "none" and rest else out


def _class_weighted(per_class, weight, class_dim):
    """``per_class`` (classes along ``class_dim``) times each class's weight, when there are weights."""
    if weight is None:
        return per_class
    return per_class * weight.reshape((-1,) + (1,) * (per_class.dim() - class_dim - 1))


@functional_op
def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """log_softmax followed by nll_loss; ``target`` holds class indices or class probabilities."""
    input, target, weight = full_precision(input, target, weight)
    reduction = legacy_reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    logp = _log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if tuple(target.shape) == tuple(input.shape):  # torch reads class probabilities by shape, not by dtype
        if target._data.dtype.kind not in "fV":
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{_dtype.C_NAMES[target.dtype]}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        losses = -_sum(_class_weighted(logp * target, weight, class_dim), class_dim)
        return reduce_loss(losses, reduction, losses.numel())  # torch: sum / count, not mean
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    ignored = Tensor._wrap(target._data == ignore_index)
    smooth = where(ignored, 0.0, -_sum(_class_weighted(logp, weight, class_dim), class_dim))
    counted, _ = target_weights(target._data, None if weight is None else weight._data, ignore_index,
                                      logp._data.dtype)
    smooth = reduce_loss(smooth, reduction, float(counted.sum()))
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / classes)


@functional_op
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """BCE between probabilities ``input`` and ``target``."""
    input, target, weight = full_precision(input, target, weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_dtype.C_NAMES[target.dtype]} but expected {_dtype.C_NAMES[input.dtype]}")
    refuse_grad("binary_cross_entropy", "weight", weight)
    if weight is not None:
        broadcast_shapes(target.shape, weight.shape)  # torch's error where its expand would fail
    return BinaryCrossEntropy.apply(input, target, weight, reduction=legacy_reduction(size_average, reduce, reduction))


@functional_op
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """BCE of sigmoid(input), computed stably; ``pos_weight`` weighs positive examples per class."""
    input, target, weight, pos_weight = full_precision(input, target, weight, pos_weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if target.dtype is _dtype.bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if not target.is_floating_point():  # torch works in place in a tensor of the target's dtype
        raise RuntimeError(f"result type {_dtype.C_NAMES[_dtype.promote_types(input.dtype, target.dtype)]} can't "
                           f"be cast to the desired output type {_dtype.C_NAMES[target.dtype]}")
    if target.dtype is not input.dtype:
        input = input.to(target.dtype)
    refuse_grad("binary_cross_entropy_with_logits", "weight", weight)
    refuse_grad("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    broadcast_shape(*(a.shape for a in (pos_weight, input, weight) if a is not None))  # torch's order of the operands
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight,
                                                    reduction=legacy_reduction(size_average, reduce, reduction))


@functional_op
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``."""
    input, target = full_precision(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    refuse_grad("soft_margin_loss", "target", target)
    return SoftMarginLoss.apply(input, target, reduction=reduction)


@functional_op
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of sigmoid(input) per class, averaged over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.dim() - 1
    losses = losses.sum(class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return reduce_loss(losses, reduction)


def _margin_loss_input(input, target, name):
    """(N, C) logits and (N,) targets from batched or single-sample input, with torch's shape checks."""
    if input.dim() > 2 or input.numel() == 0 and input.dim() != 2:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    expected = x.shape[0]
    if name == "multi_margin_loss" and (target.dim() > 1 or target.numel() != expected):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{expected}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    return x


@functional_op
def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight=None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss: ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C``, weighted by ``weight[y]``."""
    input, weight = full_precision(input, weight)
    reduction = legacy_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x = _margin_loss_input(input, target, "multi_margin_loss")
    refuse_grad("multi_margin_loss", "weight", weight)
    classes = x.shape[1]
    rows = target.reshape(-1, 1)  # a view: its version is checked in backward, as torch's node checks target's
    t = rows._data
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise RuntimeError("target out of range")
    z = margin - x.gather(1, rows) + x
    hinge = where(z > 0, z, 0.0)  # torch adds only the positive terms: a NaN one counts for nothing
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight.gather(0, rows.reshape(-1)).reshape(-1, 1)
    losses = where(Tensor._wrap(t == np.arange(classes)), 0.0, hinge).sum(1) / classes
    if input.dim() < 2 and reduction == "none":
        losses = losses.reshape(target.shape)
    return reduce_loss(losses, reduction)


@functional_op
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss: for each target class ``j`` (``target`` lists them, ended by the first -1) and each
    non-target class ``i``, ``max(0, 1 - (x[j] - x[i]))``, summed and divided by C."""
    input = full_precision(input)
    reduction = legacy_reduction(size_average, reduce, reduction)
    x = _margin_loss_input(input, target, "multilabel_margin_loss")
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    t = target._data.reshape(x.shape)
    n, classes = x.shape
    if t.size and (t.min() < -1 or t.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    valid = np.cumprod(t != -1, axis=1).astype(bool)  # the targets before the first -1
    is_target = np.zeros((n, classes), bool)
    is_target[np.nonzero(valid)[0], t[valid]] = True
    picked = x.gather(1, Tensor._wrap(np.where(valid, t, 0)))
    hinge = (1 - picked.unsqueeze(2) + x.unsqueeze(1)).clamp_min(0)
    mask = Tensor._wrap(valid[:, :, None] & ~is_target[:, None, :])
    losses = where(mask, hinge, 0.0).sum((1, 2)) / classes
    if input.dim() < 2:
        losses = losses.reshape(())
    return reduce_loss(losses, reduction)


@functional_op
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction: str = "mean",
                         ignore_index: int | None = None, label_smoothing: float = 0.0, options=None) -> Tensor:
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``; a (C, d_1, ..., d_K, in)
    ``linear_weight`` gives K-dimensional logits (N, C, d_1, ..., d_K). ``options`` (torch's chunking, a memory
    strategy) do not change the values: minitorch always computes the logits whole."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batch, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), got "
                           f"{in_features} and {linear_weight.shape[-1]}, respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if out_features and not batch:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires "
                           f"batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    if tuple(target.shape) == (*batch, classes, *out_features) and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if options is not None and (out_features or reduction not in ("mean", "sum", "none") or label_smoothing != 0.0
                                or target.dtype != _dtype.int64):
        warnings.warn("linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum',"
                      "'none'}, label_smoothing == 0, target.dtype == int64, out_features == (). Got "
                      f"reduction={reduction!r}, label_smoothing={label_smoothing}, target.dtype="
                      f"{str(target.dtype).replace('minitorch.', 'torch.')}, out_features={out_features}, "
                      "tracing=False, linear_bias.shape="
                      f"{tuple(linear_bias.shape) if linear_bias is not None else None}.", stacklevel=2)
    flat_bias = None if linear_bias is None else linear_bias.reshape(-1)
    logits = linear(input, linear_weight.reshape(-1, in_features), flat_bias).reshape(*batch, classes, *out_features)
    return cross_entropy(logits, target, weight, ignore_index=-100 if ignore_index is None else ignore_index,
                         reduction=reduction, label_smoothing=label_smoothing)


@register(name="binary_cross_entropy_with_logits", method=False)
def binary_cross_entropy_with_logits_aten(input: Tensor, target: Tensor, weight=None, pos_weight=None,
                                     reduction: int = 0) -> Tensor:
    return binary_cross_entropy_with_logits(input, target, weight, reduction=REDUCTIONS[reduction],
                                                 pos_weight=pos_weight)
