"""Margin and embedding losses, composed of tensor ops: margin_ranking, hinge_embedding, cosine_embedding and the
triplet losses."""
from __future__ import annotations

from ..amp import full_precision
from ..._core.registry import functional_op, register
from ..._core.tensor import Tensor
from ..elementwise.clamp import where
from ..linalg.distance import pairwise_distance
from ..reduction.sums import sum as _sum
from .reduction import REDUCTIONS, legacy_reduction, reduce_loss
from ..._core.samples import mt, F, leaf, triple

@functional_op(sample=(lambda a, b: F.margin_ranking_loss(a, b, mt.tensor([1.0, -1.0, 1.0, -1.0],
                                                                                 dtype=mt.float64), margin=2.0),
                              lambda: (leaf(4), leaf(4, seed=1))))
def margin_ranking_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``."""
    input1, input2 = full_precision(input1, input2)
    reduction = legacy_reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return reduce_loss((-target * (input1 - input2) + margin).clamp_min(0), reduction)


@functional_op(sample=(lambda a: F.hinge_embedding_loss(a, mt.tensor([[1.0, -1.0, 1.0, -1.0]] * 3,
                                                                             dtype=mt.float64), margin=2.0),
                               lambda: (leaf(3, 4),)))
def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """``input`` where target is 1, ``max(0, margin - input)`` where it is -1."""
    input = full_precision(input)
    reduction = legacy_reduction(size_average, reduce, reduction)
    margin_part = where(target != 1, (margin - input).clamp_min(0), 0.0)
    self_part = where(target != -1, input, 0.0)
    return reduce_loss(margin_part + self_part, reduction)


@functional_op(sample=(lambda a, b: F.cosine_embedding_loss(a, b, mt.tensor([1.0, -1.0, 1.0],
                                                                                     dtype=mt.float64)),
                                lambda: (leaf(3, 4, low=-1.0, high=1.0), leaf(3, 4, low=-1.0, high=1.0, seed=1))))
def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(input1, input2)`` where target is 1, ``max(0, cos - margin)`` where it is -1."""
    input1, input2 = full_precision(input1, input2)
    reduction = legacy_reduction(size_average, reduce, reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod = _sum(input1 * input2, targ_dim)
    mag1 = _sum(input1 * input1, targ_dim) + 1e-12
    mag2 = _sum(input2 * input2, targ_dim) + 1e-12
    cos = prod / (mag1 * mag2).sqrt()
    losses = where(target == 1, 1 - cos, 0.0) + where(target == -1, (cos - margin).clamp_min(0), 0.0)
    return reduce_loss(losses, reduction)


def _check_triplet(margin: float, anchor, positive, negative) -> None:
    """The triplet losses' argument checks, with torch's errors."""
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")


@functional_op(sample=(lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=3.0, swap=True),
                              lambda: (leaf(3, 4), leaf(3, 4, seed=1), leaf(3, 4, seed=2))))
def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))``, d the pairwise p-distance."""
    anchor, positive, negative = full_precision(anchor, positive, negative)
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_triplet(margin, anchor, positive, negative)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return reduce_loss((d_pos - d_neg + margin).clamp_min(0), reduction)


@functional_op(sample=(
        lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, margin=3.0, swap=True,
                                                            distance_function=lambda u, v: (u - v).abs().sum(-1)),
        triple))
def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` for any distance ``d`` (default
    pairwise_distance)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check_triplet(margin, anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    d_pos, d_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        d_neg = d_neg.minimum(distance(positive, negative))
    return reduce_loss((margin + d_pos - d_neg).clamp_min(0), reduction)


@register(name="cosine_embedding_loss", method=False,
          sample=(lambda a, b: mt.cosine_embedding_loss(a, b, mt.tensor([1.0, -1.0, 1.0],
                                                                                    dtype=mt.float64), 0.1, 0),
                              lambda: (leaf(3, 4, low=-1.0, high=1.0), leaf(3, 4, low=-1.0, high=1.0, seed=1))))
def cosine_embedding_loss_aten(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    return cosine_embedding_loss(input1, input2, target, margin, reduction=REDUCTIONS[reduction])


@register(name="hinge_embedding_loss", method=False,
          sample=(lambda a: mt.hinge_embedding_loss(a, mt.tensor([[1.0, -1.0, 1.0, -1.0]] * 3,
                                                                            dtype=mt.float64), 2.0, 2),
                             lambda: (leaf(3, 4),)))
def hinge_embedding_loss_aten(input: Tensor, target: Tensor, margin: float = 1.0, reduction: int = 0) -> Tensor:
    return hinge_embedding_loss(input, target, margin, reduction=REDUCTIONS[reduction])


@register(name="margin_ranking_loss", method=False,
          sample=(lambda a, b: mt.margin_ranking_loss(a, b, mt.tensor([1.0, -1.0, 1.0, -1.0],
                                                                                dtype=mt.float64), 2.0, 0),
                            lambda: (leaf(4), leaf(4, seed=1))))
def margin_ranking_loss_aten(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    return margin_ranking_loss(input1, input2, target, margin, reduction=REDUCTIONS[reduction])


@register(name="triplet_margin_loss", method=False,
          sample=(lambda a, p, n: mt.triplet_margin_loss(a, p, n, 3.0, 2.0, 1e-6, True, 2), triple))
def triplet_margin_loss_aten(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2.0,
                        eps: float = 1e-6, swap: bool = False, reduction: int = 0) -> Tensor:
    return triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                    reduction=REDUCTIONS[reduction])
