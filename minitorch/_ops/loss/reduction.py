"""How a loss is reduced, the one way for every loss: ``reduce_loss`` (and its derivative ``spread``) on the
per-element losses, arrays inside an op's forward or tensors in a composed loss; and the argument checks the
losses share (torch's legacy ``size_average``/``reduce`` arguments, the integer reductions of the ``minitorch.*``
forms, targets' class weights, arguments that get no gradient)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..._core.grad_mode import is_grad_enabled

REDUCTIONS = ("none", "mean", "sum")  # the integer reductions of the minitorch.* forms (torch's enum)


def reduce_loss(losses, reduction: str, total=None):
    """'none': ``losses``; 'sum': their sum; 'mean': their mean, or with ``total``, their sum
    over ``total`` (nll's weighted mean: the total weight of the counted targets). Arrays (in an
    op's forward) or tensors (a composed loss)."""
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return losses.mean() if total is None else losses.sum() / _nonzero(total)


def spread(g, reduction: str, count):
    """The derivative of ``reduce_loss``: each loss's share of the gradient ``g`` of the reduced
    loss; ``count``: the number of losses, or ``total``."""
    return g / _nonzero(count) if reduction == "mean" else g


def _nonzero(total):
    """A zero total (every target ignored) gives torch's nan loss, without numpy's 0/0 warning."""
    return total if total else math.nan


def weighted(elementwise, weight):
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


def legacy_reduction(size_average, reduce, reduction):
    """The reduction meant by torch's deprecated ``size_average``/``reduce`` arguments when either is given, else the
    checked ``reduction``."""
    if size_average is not None or reduce is not None:
        reduce = True if reduce is None else reduce
        size_average = True if size_average is None else size_average
        return "none" if not reduce else "mean" if size_average else "sum"
    check_reduction(reduction)
    return reduction


def size_warning(input, target):
    """torch's warning for a target whose shape differs from the input's (it broadcasts, likely by mistake)."""
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=3)
