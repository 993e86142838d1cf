"""Embedding lookup: rows of a weight matrix picked by integer indices; the max-norm renormalisation."""
from __future__ import annotations

import numpy as np

from ..._core.function import Op
from ..._core.registry import functional_op, register
from ..._core.tensor import Tensor
from ..elementwise.clamp import where
from ..shape.indexing import ARRAY, IndexScatter


class Embedding(Op):
    """``weight[indices]``; the row at ``padding_idx`` gets no gradient, and with ``scale_grad_by_freq`` each
    row's gradient is divided by how often its index occurs. ``kept``: the tensors ``indices`` was made from
    (embedding_bag's), saved with it only to check their versions, as torch's node does; with ``keep_weight``,
    ``weight`` too."""

    @staticmethod
    def forward(ctx, weight, indices, *kept, padding_idx=None, scale_grad_by_freq=False, keep_weight=False):
        ctx.weight_shape, ctx.padding_idx, ctx.scale_grad_by_freq = weight.shape, padding_idx, scale_grad_by_freq
        ctx.save_for_backward(indices, *kept, *((weight,) if keep_weight else ()))
        return weight[indices]

    @staticmethod
    def backward(ctx, g):
        indices = ctx.saved_tensors[0]
        at = indices if type(indices) is np.ndarray else indices._data
        if ctx.padding_idx is not None:
            g = where(np.expand_dims(at == ctx.padding_idx, -1), 0.0, g)
        if ctx.scale_grad_by_freq:
            _, inverse, counts = np.unique(at, return_inverse=True, return_counts=True)
            g = g * np.expand_dims(1.0 / counts[inverse.reshape(at.shape)], -1).astype(g.dtype)
        grad = IndexScatter.apply(g, indices, shape=ctx.weight_shape, index=(ARRAY,), accumulate=True)
        return (grad,) + (None,) * (len(ctx.next_functions) - 1)


def embedding_renorm_(input: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """Scale, in place and outside autograd, the rows of ``input`` (an embedding table) picked by ``indices`` whose ``norm_type``-norm
    exceeds ``max_norm`` down to norm ``max_norm`` (torch's ``1e-7`` guard included)."""
    rows = np.unique(indices._data)
    w = input._data
    norms = np.linalg.norm(w[rows].astype(np.float64), ord=norm_type, axis=1)
    big = norms > max_norm
    w[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None].astype(w.dtype)
    input._bump("embedding_renorm_")
    return input


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
@functional_op
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``."""
    idx = input._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        embedding_renorm_(weight, input, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)


_BAG_MODES = ("sum", "mean", "max")


@functional_op
def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type: float = 2, scale_grad_by_freq: bool = False,
                  mode: str = "mean", sparse: bool = False, per_sample_weights=None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """Sums, means or maxima of bags of embedding rows: the rows of each row of a 2-D ``input``, or the runs of a
    1-D ``input`` that start at ``offsets``. Indices equal to ``padding_idx`` are left out; empty bags give 0."""
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    idx = input._data
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type "
                             f"{str(type(offsets)).replace('minitorch._core.tensor.', 'minitorch.')}")
        starts, include_last_offset = np.arange(0, idx.size, max(idx.shape[1], 1)), False
        idx = idx.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        starts = offsets._data.astype(np.int64)
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if max_norm is not None:
        embedding_renorm_(weight, Tensor._wrap(idx), max_norm, norm_type)
    end = idx.size
    if include_last_offset:  # the last offset closes the last bag
        starts, end = starts[:-1], starts[-1]
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    bags, dim = len(starts), weight.shape[1]
    position = np.arange(idx.size)
    bag = np.searchsorted(starts, position, side="right") - 1  # the bag of each index
    used = (bag >= 0) & (position < end)
    if padding_idx is not None:
        used &= idx != padding_idx
    idx, bag = idx[used], bag[used]
    kept = [t for t in (input, offsets, per_sample_weights) if t is not None]
    rows = Embedding.apply(weight, idx, *kept, scale_grad_by_freq=scale_grad_by_freq, keep_weight=True)
    if mode == "max":
        return _bag_max(rows, bag, bags)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[Tensor._wrap(np.flatnonzero(used))].unsqueeze(1)
    out = IndexScatter.apply(rows, bag, shape=(bags, dim), index=(ARRAY,), accumulate=True)
    if mode == "mean":
        counts = np.maximum(np.bincount(bag, minlength=bags), 1).astype(weight._data.dtype)
        out = out / Tensor._wrap(counts[:, None])
    return out


def _bag_max(rows, bag, bags):
    """Per bag and column, the largest of ``rows`` (bags are contiguous runs of ``bag``); 0 for empty bags."""
    out_shape = (bags, rows.shape[1])
    if not bag.size:
        return IndexScatter.apply(rows, bag, shape=out_shape, index=(ARRAY,), accumulate=True)
    vals = rows._data
    starts = np.flatnonzero(np.r_[True, bag[1:] != bag[:-1]])
    top = np.maximum.reduceat(vals, starts, axis=0)
    is_top = vals == top[np.searchsorted(starts, np.arange(bag.size), side="right") - 1]
    first = np.minimum.reduceat(np.where(is_top, np.arange(bag.size)[:, None], bag.size), starts, axis=0)
    picked = rows.gather(0, Tensor._wrap(first))
    return IndexScatter.apply(picked, bag[starts], shape=out_shape, index=(ARRAY,), accumulate=True)


@functional_op(differentiable=False)
def one_hot(tensor, num_classes: int = -1) -> Tensor:
    """(..., num_classes) int64 one-hot encoding of an integer tensor."""
    idx = tensor._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    if idx.size and (idx.min() < 0 or idx.max() >= num_classes):
        raise RuntimeError("Class values must be smaller than num_classes." if idx.max() >= num_classes
                           else "Class values must be non-negative.")
    return Tensor._wrap((idx[..., None] == np.arange(num_classes)).astype(np.int64))


@register(name="embedding", method=False)
def embedding_aten(weight: Tensor, indices: Tensor, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by ``indices``; a negative ``padding_idx`` means none."""
    return embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                          scale_grad_by_freq=scale_grad_by_freq)
