"""Joins, splits and products built from the shape ops: atleast_Nd, column/row/depth stacking, h/v/dsplit,
fliplr, block_diag, broadcast_tensors, cartesian_prod, combinations and diagflat. Each is a composition of
differentiable ops, so each has their gradient."""
from __future__ import annotations

import functools
import itertools

import numpy as np

from ..._dtype import promote_types
from ..._core.registry import register
from ..._core.tensor import Tensor
from . import view
from .diagonal import diag
from ..elementwise.broadcast import broadcast_shape


def _tensors(tensors) -> tuple:
    """``f(a, b)`` and ``f([a, b])`` both give ``(a, b)``."""
    return tuple(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tuple(tensors)


def _atleast(tensors, nd: int, reshape):
    """Each tensor with fewer than ``nd`` dims reshaped by ``reshape``; one tensor alone comes back bare."""
    out = tuple(reshape(t) if t.dim() < nd else t for t in _tensors(tensors))
    return out[0] if len(tensors) == 1 and isinstance(tensors[0], Tensor) else out


def _as_2d(t):
    return view.reshape(t, 1, -1)


def _as_3d(t):
    return view.reshape(t, (1, 1, 1) if t.dim() == 0 else (1, -1, 1) if t.dim() == 1 else (*t.shape, 1))


@register(method=False)
def atleast_1d(*tensors):
    """Each input viewed with at least one dim (a 0-dim tensor becomes shape (1,))."""
    return _atleast(tensors, 1, lambda t: view.reshape(t, 1))


@register(method=False)
def atleast_2d(*tensors):
    """Each input viewed with at least two dims (shape (n,) becomes (1, n))."""
    return _atleast(tensors, 2, _as_2d)


@register(method=False)
def atleast_3d(*tensors):
    """Each input viewed with at least three dims ((n,) becomes (1, n, 1); (m, n) becomes (m, n, 1))."""
    return _atleast(tensors, 3, _as_3d)


def _nonempty(tensors, name: str, fill: str | None = None) -> list:
    """The tensors of ``name`` (``hstack``, ...), which refuses an empty list with the error of ``fill`` or itself."""
    tensors = view.joined(tensors, name)
    if not tensors:
        raise RuntimeError(f"{fill or name} expects a non-empty TensorList")
    return tensors


@register(method=False)
def hstack(tensors):
    """The tensors (0-dim ones as 1-dim) joined along dim 1, or dim 0 if they are 1-dim."""
    tensors = atleast_1d(_nonempty(tensors, "hstack"))
    return view.cat(tensors, 0 if tensors[0].dim() == 1 else 1)


@register(method=False)
def vstack(tensors):
    """The tensors (0-dim and 1-dim ones as rows) joined along dim 0."""
    return view.cat(atleast_2d(_nonempty(tensors, "vstack")), 0)


@register(method=False)
def row_stack(tensors):
    """Alias of ``vstack``."""
    return view.cat(atleast_2d(_nonempty(tensors, "row_stack", "vstack")), 0)


@register(method=False)
def column_stack(tensors):
    """The tensors side by side as columns (0-dim and 1-dim ones become columns first)."""
    tensors = _nonempty(tensors, "column_stack")
    return hstack([view.reshape(t, -1, 1) if t.dim() <= 1 else t for t in tensors])


@register(method=False)
def dstack(tensors):
    """The tensors joined along the third dim (after ``atleast_3d``)."""
    return view.cat(atleast_3d(_nonempty(tensors, "dstack")), 2)


def _split_along(name: str, dim: int, min_dims: int):
    def split(input, indices_or_sections):
        nd = input.dim()
        if nd < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor "
                               f"with {nd} dimensions!")
        d = 0 if name == "hsplit" and nd == 1 else dim
        if isinstance(indices_or_sections, int):
            size = input.shape[d]
            if indices_or_sections == 0 or size % indices_or_sections:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the "
                                   f"dimension {size} is not divisible by the split_size {indices_or_sections}!")
        return view.tensor_split(input, indices_or_sections, d)

    split.__name__ = split.__qualname__ = name
    split.__doc__ = f"``tensor_split`` along dim {dim}" + (" (dim 0 of a 1-dim tensor)" if name == "hsplit" else "") \
        + "; an int number of sections must divide that dim."
    return register(split)


hsplit = _split_along("hsplit", 1, 1)
vsplit = _split_along("vsplit", 0, 2)
dsplit = _split_along("dsplit", 2, 3)


@register
def fliplr(input):
    """``input`` flipped left-right (along dim 1)."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return view.flip(input, 1)


@register(method=False)
def block_diag(*tensors):
    """The tensors (0, 1 or 2 dims, seen as matrices) along the diagonal of one matrix, zeros elsewhere."""
    from ..._factories import zeros
    mats = []
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
        mats.append(t if t.dim() == 2 else view.reshape(t, 1, -1))
    dtype = functools.reduce(promote_types, (m.dtype for m in mats)) if mats else None
    width = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        h, w = m.shape
        rows.append(view.cat([zeros(h, left, dtype=dtype), m, zeros(h, width - left - w, dtype=dtype)], 1))
        left += w
    return view.cat(rows, 0) if rows else zeros(1, 0)


@register(method=False)
def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded (as views) to their common broadcast shape."""
    tensors = _tensors(tensors)
    shape = broadcast_shape(*(t.shape for t in tensors))
    return tuple(view.expand(t, shape) for t in tensors)


def _check_1d(t) -> None:
    if t.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


@register(method=False)
def cartesian_prod(*tensors):
    """All tuples of one element from each 1-D tensor, as the rows of a matrix (one tensor: itself)."""
    for t in tensors:
        _check_1d(t)
    if len(tensors) == 1:
        return tensors[0]
    if len({t.dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    return view.stack([view.reshape(g, -1) for g in view.meshgrid(*tensors, indexing="ij")], 1)


@register(method=False)
def combinations(input, r: int = 2, with_replacement: bool = False):
    """The length-``r`` combinations of the elements of a 1-D tensor, one per row, in lexicographic order."""
    _check_1d(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.fromiter(itertools.chain.from_iterable(pick(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    return input[Tensor._wrap(index)]


@register
def diagflat(input, offset: int = 0):
    """The elements of ``input`` (flattened) on diagonal ``offset`` of a square matrix."""
    return diag(view.reshape(input, -1), offset)
