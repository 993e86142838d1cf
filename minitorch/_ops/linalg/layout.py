"""The memory layout of LAPACK's results: LAPACK reads and writes matrices column by column, and PyTorch returns
the matrices its factorizations and solvers compute in that order (batch dims outermost)."""
from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from ..shape.joins import cat


def column_major(a, rows: int | None = None):
    """``a`` (an array or a tensor) with each matrix (its last two dims) stored column by column: the transpose of
    a C-contiguous copy of its transpose; ``a`` itself when already so. ``rows``: a matrix is the first rows of a
    taller one, as the least-squares solvers leave the solution in the buffer of the right-hand side."""
    if a.ndim < 2:
        return a
    if isinstance(a, Tensor):
        if rows is not None and rows > a.shape[-2]:
            pad = a.new_zeros(tuple(a.shape[:-2]) + (rows - a.shape[-2], a.shape[-1]))
            return column_major(cat([a, pad], -2)).narrow(-2, 0, a.shape[-2])
        return a if a.mT.is_contiguous() else a.mT.contiguous().mT
    return np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2)
