"""Diagonals: ``diagonal`` (a view-like read of the entries i, i + offset), ``diag_embed`` (vectors onto
the diagonal of zero matrices), ``diag`` (either, by the input's dims) and ``trace``. Built from indexing
and broadcasting ops, so their gradients come from those."""
from __future__ import annotations

import numpy as np

from ..amp import full_precision
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from .indexing import Index, IndexPut, Made, axis_range
from .view import movedim


def _diagonal_index(rows: int, cols: int, offset: int) -> tuple[Made, Made]:
    """The (row, column) positions of the ``offset`` diagonal of a rows x cols matrix, as index recipes."""
    n = max(0, min(rows - max(0, -offset), cols - max(0, offset)))
    return Made(axis_range, n, 0, 1, max(0, -offset)), Made(axis_range, n, 0, 1, max(0, offset))


class Diagonal(Index, name="DiagonalBackward0"):
    """The entries (i, i + offset) of the last two dims as a view (strided, as torch's), its gradient
    ``Index``'s scatter back to those entries (``index`` their positions)."""

    view = True
    accumulate = False

    @classmethod
    def forward(cls, ctx, a, index=(), offset=0):
        ctx.in_shape, ctx.index = a.shape, index
        part = a[..., :, offset:] if offset >= 0 else a[..., -offset:, :]
        return np.lib.stride_tricks.as_strided(part, part.shape[:-2] + (min(part.shape[-2:]),),
                                               part.strides[:-2] + (part.strides[-2] + part.strides[-1],))


@register
def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """The entries (i, i + offset) of dims ``dim1`` and ``dim2``, as the last dim."""
    nd = input.dim()
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    moved = movedim(input, (d1, d2), (-2, -1))
    rows, cols = moved.shape[-2:]
    return Diagonal.apply(moved, index=(Ellipsis, *_diagonal_index(rows, cols, offset)), offset=offset)


_diagonal = diagonal  # (diag's argument is called diagonal, as torch's is)


@register
def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """Each vector (the last dim) on the ``offset`` diagonal of a matrix of zeros in dims ``dim1``, ``dim2``."""
    n = input.shape[-1] + abs(offset)
    rows, cols = _diagonal_index(n, n, offset)
    zeros = Tensor._wrap(np.zeros(tuple(input.shape[:-1]) + (n, n), input._data.dtype))
    out = IndexPut.apply(zeros, input, index=(slice(None),) * (input.dim() - 1) + (rows, cols))
    nd = out.dim()
    return movedim(out, (-2, -1), (_wrap_dim(dim1, nd), _wrap_dim(dim2, nd)))


@register(out=True)
def diag(input, diagonal: int = 0):
    """A vector onto a diagonal matrix, or the diagonal of a matrix as a vector."""
    if input.dim() == 1:
        return diag_embed(input, diagonal)
    if input.dim() == 2:
        return _diagonal(input, diagonal).clone()  # a new tensor, as torch's (diagonal is a view)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.dim()}D")


@register
def trace(input):
    """The sum of the main diagonal of a matrix."""
    input = full_precision(input)
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    return diagonal(input).sum()
