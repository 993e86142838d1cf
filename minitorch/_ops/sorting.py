"""Sorting and selection: sort, argsort, topk. Each returns the values picked along ``dim`` (and
their indices); the gradient of the values goes back to the positions they were picked from."""
from __future__ import annotations

import numpy as np

from .._registry import register
from .._tensor import _wrap_dim
from ..autograd.function import Op
from .indexing import IndexScatter, _along
from .reduction import return_types


class _Picked(Op):
    """Values taken from ``a`` at ``index`` (an int64 array along ``dim``), with those indices."""

    @staticmethod
    def forward(ctx, a, index=None, dim=-1):
        ctx.shape, ctx.dim, ctx.index = a.shape, dim, index  # the index: a constant of the graph
        return np.take_along_axis(a, index, dim) if a.ndim else a.copy(), index

    @staticmethod
    def backward(ctx, g, g_indices=None):
        if not ctx.shape:
            return g
        return IndexScatter.apply(g, shape=ctx.shape, index=_along(ctx.index, ctx.dim), accumulate=False)


class Sort(_Picked, name="SortBackward0"):
    pass


class SortStable(_Picked, name="SortBackward1"):
    """``sort`` called with ``stable=`` (torch's other overload; minitorch's sort is always stable)."""


class Topk(_Picked, name="TopkBackward0"):
    pass


def _order(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Stable ascending or descending order of ``a`` along ``dim``; NaN sorts as the largest, as in torch."""
    if not a.ndim:
        return np.zeros((), np.int64)
    if descending:  # stable descending: the reversed stable order of the reversed array, re-indexed
        n = a.shape[dim]
        flipped = np.flip(a, dim)
        return (n - 1 - np.flip(np.argsort(flipped, axis=dim, kind="stable"), dim)).astype(np.int64)
    return np.argsort(a, axis=dim, kind="stable").astype(np.int64)


@register
def sort(input, dim: int = -1, descending: bool = False, stable: bool | None = None):
    """Values along ``dim`` in order, and where each came from (ties keep their order)."""
    d = _wrap_dim(dim, input.dim())
    op = Sort if stable is None else SortStable
    values, indices = op.apply(input, index=_order(input._data, d, descending), dim=d)
    return return_types.sort(values, indices)


@register
def argsort(input, dim: int = -1, descending: bool = False, stable: bool = False):
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending).indices


@register
def topk(input, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The ``k`` largest (or smallest) values along ``dim`` and their indices."""
    d = _wrap_dim(dim, input.dim())
    size = input.shape[d] if input.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    order = _order(input._data, d, largest)
    index = np.take(order, np.arange(k), axis=d) if input.dim() else order
    values, indices = Topk.apply(input, index=index, dim=d)
    return return_types.topk(values, indices)


@register
def median(input, dim: int | None = None, keepdim: bool = False):
    """The lower median of all elements, or along ``dim`` with the index it came from."""
    if dim is None:
        flat = input.reshape(-1)
        return sort(flat).values[(flat.numel() - 1) // 2]
    d = _wrap_dim(dim, input.dim())
    values, indices = sort(input, d)
    middle = (input.shape[d] - 1) // 2 if input.dim() else 0
    values, indices = values.select(d, middle), indices.select(d, middle)
    if keepdim:
        values, indices = values.unsqueeze(d), indices.unsqueeze(d)
    return return_types.median(values, indices)
