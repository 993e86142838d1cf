"""Embedding lookup: rows of a weight matrix picked by integer indices."""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .arithmetic import where
from .indexing import IndexScatter


class Embedding(Op):
    """``weight[indices]``; the row at ``padding_idx`` gets no gradient."""

    @staticmethod
    def forward(ctx, weight, indices=None, padding_idx=None):
        ctx.weight_shape, ctx.indices, ctx.padding_idx = weight.shape, indices, padding_idx
        return weight[indices]

    @staticmethod
    def backward(ctx, g):
        if ctx.padding_idx is not None:
            g = where(np.expand_dims(ctx.indices == ctx.padding_idx, -1), 0.0, g)
        return IndexScatter.apply(g, shape=ctx.weight_shape, index=(ctx.indices,), accumulate=True)
