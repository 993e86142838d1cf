"""Embedding lookup: rows of a weight matrix picked by integer indices; the max-norm renormalisation."""
from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from ..._core.function import Op
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
