"""Distances and similarities, composed of tensor ops: cdist, pdist, pairwise_distance, cosine_similarity."""
from __future__ import annotations

import numpy as np

from ..amp import full_precision
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..elementwise.clamp import clamp
from ..reduction.norm import vector_norm
from ..reduction.sums import sum as _sum
from ..._core.samples import mt, leaf, pair

@register(method=False,
          sample=(lambda a, b: mt.cdist(a, b), lambda: (leaf(3, 4), leaf(2, 4, low=2.0, high=3.0, seed=1))))
def cdist(x1, x2, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary"):
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2`` (batched)."""
    x1, x2 = full_precision(x1, x2)
    return vector_norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, -1)


@register(method=False, functional=True, sample=(None, pair))
def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8) -> Tensor:
    dot = _sum(x1 * x2, dim)
    n1 = _sum(x1 * x1, dim).sqrt()
    n2 = _sum(x2 * x2, dim).sqrt()
    return dot / clamp(n1 * n2, min=eps)


@register(method=False, functional=True, sample=(None, pair))
def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The p-norm of ``x1 - x2 + eps`` over the last dim."""
    dim = max(x1.dim(), x2.dim()) - 1
    return (x1 - x2 + eps).norm(p, dim, keepdim)


@register(method=False, functional=True, sample=(lambda a: mt.pdist(a, 3.0), lambda: (leaf(4, 3),)))
def pdist(input, p: float = 2) -> Tensor:
    """The p-norm distances between all pairs of rows ``i < j`` of an (N, M) input, in row-major pair order."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = np.triu_indices(input.shape[0], 1)
    return (input[Tensor._wrap(i)] - input[Tensor._wrap(j)]).norm(p, 1)
