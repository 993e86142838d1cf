"""Connectionist temporal classification loss: the forward-backward algorithm in log space, vectorised over the
batch and the label positions, with a loop over time only.

The gradient is torch's: with respect to ``log_probs`` read as the log_softmax of logits, i.e.
``exp(log_probs) - posterior``, which is the gradient of the logits (torch, like cuDNN, folds the softmax
in). It has no derivative of its own, as in torch."""
from __future__ import annotations

import numpy as np

from ..amp import full_precision
from ..._core.function import Op
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..elementwise.clamp import where
from .reduction import check_reduction, reduce_loss
from ..._core.samples import F, leaf, idx

_NEG_INF = -np.inf


def _logsumexp(*terms):
    """Elementwise log(sum(exp(terms))), -inf where every term is -inf."""
    top = np.maximum.reduce(terms)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(sum(np.exp(t - safe) for t in terms)) + safe


def _shift(a, k):
    """``a`` moved ``k`` places along the last axis: right for k > 0 (filling -inf), left for k < 0."""
    out = np.full_like(a, _NEG_INF)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


def extended_labels(targets: np.ndarray, blank: int) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2L+1) labels with blanks around and between the targets, and where a transition may skip one
    position (onto a label differing from the one two back)."""
    n, length = targets.shape
    ext = np.full((n, 2 * length + 1), blank, np.int64)
    ext[:, 1::2] = targets
    skip = np.zeros(ext.shape, bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    return ext, skip


class CtcLoss(Op):
    """Per-sample negative log-likelihoods of ``targets`` (N, L) under ``log_probs`` (T, N, C). ``kept``: the
    tensor the targets were read from, saved only to check its version, as torch's node does."""

    @staticmethod
    def forward(ctx, log_probs, targets, input_lengths, target_lengths, *kept, blank=0, zero_infinity=False):
        lp = log_probs.astype(np.float64)
        steps, n, _ = lp.shape
        ext, skip = extended_labels(targets, blank)
        emit = np.take_along_axis(lp, np.broadcast_to(ext, (steps,) + ext.shape), axis=2)  # (T, N, S)
        no_skip = np.where(skip, 0.0, _NEG_INF)
        alpha = np.full(emit.shape, _NEG_INF)
        alpha[0, :, 0] = emit[0, :, 0]
        alpha[0, :, 1] = np.where(target_lengths > 0, emit[0, :, 1], _NEG_INF)
        for t in range(1, steps):
            prev = alpha[t - 1]
            alpha[t] = _logsumexp(prev, _shift(prev, 1), _shift(prev, 2) + no_skip) + emit[t]
        rows = np.arange(n)
        last = np.maximum(input_lengths - 1, 0)
        end = 2 * target_lengths
        final = alpha[last, rows]
        nll = -_logsumexp(final[rows, end], np.where(end > 0, final[rows, np.maximum(end - 1, 0)], _NEG_INF))
        nll = np.where(input_lengths > 0, nll, np.where(target_lengths > 0, np.inf, 0.0))

        beta = np.full(emit.shape, _NEG_INF)
        start = np.full((n, ext.shape[1]), _NEG_INF)
        start[rows, end] = 0.0
        start[rows[end > 0], end[end > 0] - 1] = 0.0
        skip_next = np.where(_shift(skip, -2), 0.0, _NEG_INF)  # may position s + 2 be reached from s?
        following = np.full((n, ext.shape[1]), _NEG_INF)
        for t in range(steps - 1, -1, -1):
            rec = _logsumexp(following, _shift(following, -1), _shift(following, -2) + skip_next)
            rec = np.where((t == last)[:, None], start, rec)
            beta[t] = np.where((t <= last)[:, None], rec + emit[t], _NEG_INF)
            following = beta[t]
        ctx.zero_infinity = zero_infinity
        ctx.save_for_backward(log_probs, ext, alpha + beta, nll, input_lengths, *kept)
        return nll.astype(log_probs.dtype)

    @staticmethod
    def backward(ctx, g):
        log_probs, ext, ab, nll, input_lengths, *kept = ctx.saved_tensors
        grad = _CtcLossGrad.apply(g, log_probs, ext, ab, nll, input_lengths, zero_infinity=ctx.zero_infinity)
        return (grad,) + (None,) * (3 + len(kept))


class _CtcLossGrad(Op, name="NotImplemented"):
    """torch's gradient: ``exp(lp) - exp(logsumexp_{s: ext[s] = c} (alpha + beta) + nll - lp)``, zero past each
    sample's input length, and for infinite losses under ``zero_infinity``."""

    @staticmethod
    def forward(ctx, g, log_probs, ext, ab, nll, input_lengths, zero_infinity=False):
        # (log_probs is an input for its values and for an edge, which double backward's error needs)
        lp = log_probs.astype(np.float64)
        steps, n, classes = lp.shape
        top = ab.max(axis=2, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        summed = np.zeros((steps, n * classes))
        flat = (np.arange(n)[:, None] * classes + ext).reshape(-1)
        np.add.at(summed, (slice(None), flat), np.exp(ab - top).reshape(steps, -1))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            occupancy = np.log(summed.reshape(steps, n, classes)) + top
            grad = np.exp(lp) - np.exp(occupancy + nll[:, None] - lp)
        valid = (np.arange(steps)[:, None] < input_lengths) & ~(zero_infinity & np.isinf(nll))
        grad = np.where(valid[:, :, None], grad, 0.0) * g.astype(np.float64)[:, None]
        return grad.astype(log_probs.dtype)

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


def _lengths(v) -> np.ndarray:
    return np.atleast_1d(np.asarray(v._data if isinstance(v, Tensor) else v, np.int64))


@register(method=False, top_level=False, functional=True, double_backward=False,
          sample=(lambda a: F.ctc_loss(a.log_softmax(2), idx([1, 2], [3, 3]), [6, 5], [2, 2]),
                  lambda: (leaf(6, 2, 4),)))
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The CTC loss of (T, N, C) (or unbatched (T, C)) log-probabilities against targets padded to (N, S) or
    concatenated in 1-D; 'mean' divides each loss by its target length before averaging."""
    log_probs = full_precision(log_probs)
    unbatched = log_probs.dim() == 2
    lp = log_probs.unsqueeze(1) if unbatched else log_probs
    steps, n, classes = lp.shape
    il, tl = _lengths(input_lengths), _lengths(target_lengths)
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if il.size != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if tl.size != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    if il.size and il.max() > steps:
        raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {il.max()} "
                           "(while checking arguments for ctc_loss_allocate_outputs)")
    tg = targets._data.astype(np.int64)
    width = int(tl.max()) if tl.size else 0
    if tg.ndim == 1 and not unbatched:  # concatenated: sample i's labels follow sample i-1's
        index = np.cumsum(tl) - tl
        index = index[:, None] + np.arange(width)
        padded = np.where(np.arange(width) < tl[:, None], tg[np.minimum(index, max(tg.size - 1, 0))], blank)
    else:
        padded = tg.reshape(n, -1)[:, :width]
        if padded.shape[1] < width:
            raise RuntimeError(f"Expected tensor to have size at least {width} at dimension 1, but got size "
                               f"{padded.shape[1]} for argument #2 'targets' (while checking arguments for "
                               "ctc_loss_cpu)")
    nll = CtcLoss.apply(lp, padded, il, tl, targets, blank=blank, zero_infinity=zero_infinity)
    if zero_infinity:
        nll = where(Tensor._wrap(np.isinf(nll._data)), 0.0, nll)
    check_reduction(reduction)
    if reduction == "mean":  # each loss over its target length first, as in torch
        nll = nll / Tensor._wrap(np.maximum(tl, 1).astype(nll._data.dtype))
    elif reduction == "none" and unbatched:
        nll = nll.squeeze(0)
    return reduce_loss(nll, reduction)
