"""Sorting and selection: sort, argsort, topk. Each returns the values picked along ``dim`` (and
their indices); the gradient of the values goes back to the positions they were picked from."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.tensor import _wrap_dim
from ..._core.function import Op
from ..shape.indexing import put_along
from ..return_types import _return_type, return_types


class _Picked(Op):
    """Values taken from ``a`` at ``index`` (an int64 array along ``dim``, computed from ``a``), with those
    indices: the indices returned are saved for backward."""

    @staticmethod
    def forward(ctx, a, index, dim=-1):
        ctx.shape, ctx.dim = a.shape, dim
        ctx.save_for_backward(index)
        return np.take_along_axis(a, index, dim) if a.ndim else a.copy(), index

    @staticmethod
    def backward(ctx, g, g_indices=None):
        if not ctx.shape:
            return g, None
        (index,) = ctx.saved_tensors
        return put_along(g, index, ctx.shape, ctx.dim), None


Sort = _Picked.named("Sort", "SortBackward0")
# ``sort`` called with ``stable=`` (torch's other overload; minitorch's sort is always stable).
SortStable = _Picked.named("SortStable", "SortBackward1")
Topk = _Picked.named("Topk", "TopkBackward0")


def _order(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Stable ascending or descending order of ``a`` along ``dim``; NaN sorts as the largest, as in torch."""
    if not a.ndim:
        return np.zeros((), np.int64)
    if descending:  # stable descending: the reversed stable order of the reversed array, re-indexed
        n = a.shape[dim]
        flipped = np.flip(a, dim)
        return (n - 1 - np.flip(np.argsort(flipped, axis=dim, kind="stable"), dim)).astype(np.int64)
    return np.argsort(a, axis=dim, kind="stable").astype(np.int64)


@register(out=True)
def sort(input, dim: int = -1, descending: bool = False, *, stable: bool | None = None):
    """Values along ``dim`` in order, and where each came from (ties keep their order)."""
    d = _wrap_dim(dim, input.dim())
    op = Sort if stable is None else SortStable
    values, indices = op.apply(input, _order(input._data, d, descending), dim=d)
    return return_types.sort(values, indices)


@register(differentiable=False, out=True)
def argsort(input, dim: int = -1, descending: bool = False, *, stable: bool = False):
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending).indices


@register(out=True)
def topk(input, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The ``k`` largest (or smallest) values along ``dim`` and their indices."""
    d = _wrap_dim(dim, input.dim())
    size = input.shape[d] if input.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    order = _order(input._data, d, largest)
    index = np.take(order, np.arange(k), axis=d) if input.dim() else order
    values, indices = Topk.apply(input, index, dim=d)
    return return_types.topk(values, indices)


@register(out=True)
def msort(input):
    """``input`` sorted along its first dim."""
    return sort(input, 0).values


class _Selected(_Picked):
    """One value per line along ``dim`` (``index`` has size 1 there), kept as a dim of 1 or dropped."""

    @staticmethod
    def forward(ctx, a, index, dim=-1, keepdim=False):
        values, index = _Picked.forward(ctx, a, index, dim)
        if not keepdim and a.ndim:
            values, index = values.squeeze(dim), index.squeeze(dim)
            ctx.save_for_backward(index)
        return values, index

    @staticmethod
    def backward(ctx, g, g_indices=None):
        if not ctx.shape:
            return g, None
        (index,) = ctx.saved_tensors
        kept = ctx.shape[:ctx.dim] + (1,) + ctx.shape[ctx.dim + 1:]
        return put_along(g.reshape(kept), index.reshape(kept), ctx.shape, ctx.dim), None


class Kthvalue(_Selected):
    pass


class Mode(_Selected):
    pass


MedianDim = _Selected.named("MedianDim", "MedianBackward1")
NanmedianDim = _Selected.named("NanmedianDim", "NanmedianBackward1")


return_types.kthvalue = _return_type("kthvalue")
return_types.mode = _return_type("mode")
return_types.nanmedian = _return_type("nanmedian")


def _select(op, result_type, input, dim, keepdim, position):
    """``op`` picking, along ``dim``, the element at ``position(sorted_values, order, dim)`` of each sorted line."""
    a = input._data
    d = _wrap_dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise IndexError(f"{result_type.__name__}(): Expected reduction dim {d} to have non-zero size.")
    order = _order(a, d, False)
    if not a.ndim:
        return result_type(*op.apply(input, order, dim=d, keepdim=keepdim))
    at = position(np.take_along_axis(a, order, d), order, d)
    return result_type(*op.apply(input, np.take_along_axis(order, at, d), dim=d, keepdim=keepdim))


def _middle(skip_nan: bool):
    """The lower middle of each sorted line: of its non-NaN values, or (not ``skip_nan``) its first NaN."""
    def position(values, order, d):
        valid = np.sum(~np.isnan(values), axis=d, keepdims=True) if values.dtype.kind in "fV" else None
        n = values.shape[d]
        if valid is None:
            return np.full(_one_along(values.shape, d), (n - 1) // 2)
        if skip_nan:
            return np.maximum(valid - 1, 0) // 2
        return np.where(valid < n, valid, (n - 1) // 2)
    return position


def _one_along(shape, d):
    return shape[:d] + (1,) + shape[d + 1:]


class _FullMedian(Op):
    """The lower median of all elements; ties (and NaN, for a NaN result) share the gradient evenly."""

    skip_nan = False

    @classmethod
    def forward(cls, ctx, a):
        flat = np.sort(a.reshape(-1))
        valid = flat.size - int(np.isnan(flat).sum()) if a.dtype.kind in "fV" else flat.size
        if not flat.size or (valid == 0):
            r = np.asarray(np.nan if a.dtype.kind in "fV" else 0, a.dtype)
        elif cls.skip_nan or valid == flat.size:
            r = np.asarray(flat[(valid - 1) // 2])
        else:
            r = np.asarray(np.nan, a.dtype)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        hit = (a == r) | ((a != a) & (r != r))  # x != x: x is NaN
        return g * hit / hit.sum()


class Median(_FullMedian):
    pass


class Nanmedian(_FullMedian):
    skip_nan = True


@register(out=True)
def median(input, dim: int | None = None, keepdim: bool = False):
    """The lower median of all elements (NaN if any), or along ``dim`` with the index it came from."""
    if dim is None:
        return Median.apply(input)
    return _select(MedianDim, return_types.median, input, dim, keepdim, _middle(False))


@register(out=True)
def nanmedian(input, dim: int | None = None, keepdim: bool = False):
    """``median`` of the non-NaN values (NaN where there are none)."""
    if dim is None:
        return Nanmedian.apply(input)
    return _select(NanmedianDim, return_types.nanmedian, input, dim, keepdim, _middle(True))


@register(out=True)
def kthvalue(input, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest value along ``dim`` and its index (ties: the index in a stable sort)."""
    d = _wrap_dim(dim, input.dim())
    size = input._data.shape[d] if input._data.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return _select(Kthvalue, return_types.kthvalue, input, dim, keepdim,
                   lambda values, order, d: np.full(_one_along(values.shape, d), k - 1))


def _mode_position(values, order, d):
    """The end of the first longest run of equal sorted values: the smallest most frequent value, at the
    latest of its positions (as torch picks)."""
    v = np.moveaxis(values, d, -1)
    n = v.shape[-1]
    change = v[..., 1:] != v[..., :-1]
    edge = np.ones(v.shape[:-1] + (1,), bool)
    positions = np.arange(n)
    start = np.maximum.accumulate(np.where(np.concatenate([edge, change], -1), positions, 0), -1)
    end = np.minimum.accumulate(np.where(np.concatenate([change, edge], -1), positions, n)[..., ::-1], -1)[..., ::-1]
    best = np.argmax(end - start, -1)[..., None]
    return np.moveaxis(np.take_along_axis(end, best, -1), -1, d)


@register(out=True)
def mode(input, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` (the smallest of equally frequent ones) and its last index."""
    return _select(Mode, return_types.mode, input, dim, keepdim, _mode_position)
