"""Writing into regions of a tensor: index_add/index_copy/index_fill/index_reduce along a dim, scatter_reduce and
segment_reduce, masked_scatter, put, the ``*_scatter`` ops (a copy with a select, slice, diagonal or strided
region replaced), the strided views as_strided and unfold, fill_diagonal_ and the Python-callable apply_/map_/map2_.

Most are ``IndexPut`` (``a[index] = v``, or ``+=``) under torch's node name, with a numpy index built here:
their gradients are IndexPut's (the old values lose the overwritten positions, the values get what was read
there). ``ScatterReduce`` carries the reductions (sum, prod, mean, amax, amin) and their gradients."""
from __future__ import annotations

import numpy as np

from ..._dtype import C_NAMES
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.function import Op
from ..elementwise.clamp import where
from .view import expand, expanded_shape
from .indexing import (ARRAY, Index, IndexPut, IndexScatter, Made, MaskedFill, MaskedFillTensor, _check_index, along,
                       as_vector, axis_range, fill, grid, select)

_ndarray = np.ndarray


def _array(x):
    return x if type(x) is _ndarray else x._data


# ---- index_add / index_copy / index_fill / index_reduce -------------------------------------------------------
class IndexAdd(IndexPut):
    keeps_values = True


class IndexCopy(IndexPut):
    keeps_values = True


def _slices_mask(shape, index, dim):
    """Where the slices ``index`` (an array or tensor) along ``dim`` lie in a tensor of ``shape``
    (broadcastable to it)."""
    mask = np.zeros(shape[dim] if shape else 1, bool)
    mask[_array(index)] = True
    return mask.reshape((-1,) + (1,) * (len(shape) - dim - 1)) if shape else mask.reshape(())


class IndexFill(MaskedFill):
    """``a`` with the slices ``index`` along ``dim`` set to the number ``value``."""

    @staticmethod
    def forward(ctx, a, index, value=0, dim=0):
        ctx.dim = dim
        r = MaskedFill.forward(ctx, a, _slices_mask(a.shape, index, dim), value)
        ctx.save_for_backward(index)
        return r

    @staticmethod
    def backward(ctx, g):
        (index,) = ctx.saved_tensors
        return where(_slices_mask(np.shape(g), index, ctx.dim), 0.0, g), None


class IndexFillTensor(MaskedFillTensor, name="IndexFillBackward1"):
    """``a`` with the slices ``index`` along ``dim`` set to the 0-dim tensor ``value``."""

    @staticmethod
    def forward(ctx, a, value, index, dim=0):
        ctx.dim = dim
        r = MaskedFillTensor.forward(ctx, a, value, _slices_mask(a.shape, index, dim))
        ctx.save_for_backward(index)
        return r

    @staticmethod
    def backward(ctx, g):
        (index,) = ctx.saved_tensors
        mask = _slices_mask(np.shape(g), index, ctx.dim)
        need_a, need_v, _ = ctx.needs_input_grad
        return (where(mask, 0.0, g) if need_a else None), (where(mask, g, 0.0) if need_v else None), None


_IndexAdd_, _IndexCopy_ = IndexAdd.inplace_variant(), IndexCopy.inplace_variant()
_IndexFill_, _IndexFillTensor_ = IndexFill.inplace_variant(), IndexFillTensor.inplace_variant()


_ADD_ERRORS = {
    "dtype": (RuntimeError, "{name}(): Expected dtype int32/int64 for index but got: {dtype}"),
    "ndim": (IndexError, "{name}(): Index is supposed to be a vector, but got dim: {ndim} with type: {dtype} and size: "
                         "{size}"),
    "bounds": (RuntimeError, "index {i} is out of bounds for dimension {d} with size {n}"),
    "count": (RuntimeError, "{name}(): Number of indices ({k}) should be equal to source.size(dim): ({m}), for dim: "
                            "{d}"),
    "slices": (RuntimeError, "source tensor shape must match self tensor shape, excluding the specified dimension. "
                             "Got self.shape = {shape} source.shape = {src}"),
    "scalar": (RuntimeError, "{name}(): self ({self}) and source ({source}) must have the same scalar type"),
}
# torch's index_* ops word their checks differently: each one's texts, where they differ from index_add_'s
_INDEX_ERRORS = {
    "index_add_": _ADD_ERRORS,
    "index_reduce_": {**_ADD_ERRORS, "bounds": (IndexError, "index out of range in self")},
    "index_fill_": {**_ADD_ERRORS, "bounds": (IndexError, "index {i} is out of bounds for dimension {d} with size {n}")},
    "index_copy_": {
        "dtype": (RuntimeError, "{name}(): Expected a long tensor for index, but got {dtype}"),
        "ndim": (IndexError, "{name}(): Index should have dimension 1 or 0 (got {ndim})"),
        "bounds": (IndexError, "{name}(): index {i} is out of bounds for dimension {d} with size {n}"),
        "count": (IndexError, "{name}(): Number of indices ({k}) should be equal to source.size(dim) ({m})"),
        "slices": (RuntimeError, "{name}(): Source/destination tensor must have same slice shapes. Destination slice "
                                 "shape: {mine} at dimension {at} and source slice shape: {theirs} at dimension {at}."),
        "scalar": (RuntimeError, "{name}(): self and source expected to have the same dtype, but got (self) {self} and "
                                 "(source) {source}"),
    },
}


def _fail(name, check, **details):
    exc, text = _INDEX_ERRORS[name][check]
    raise exc(text.format(name=name, **details))


def _vector_index(name, input, dim, index):
    """The checked index array (as 1-D) along ``dim`` (as torch's index_* ops check it) and the wrapped dim."""
    idx = index._data
    if idx.dtype.kind not in "iu":
        _fail(name, "dtype", dtype=C_NAMES[index.dtype])
    if idx.ndim > 1:
        _fail(name, "ndim", ndim=idx.ndim, dtype=C_NAMES[index.dtype], size=list(idx.shape))
    shape = input._data.shape or (1,)
    d = _wrap_dim(dim, len(shape))
    idx = idx.reshape(-1)
    bad = idx[(idx >= shape[d]) | (idx < -shape[d])]
    if bad.size:
        _fail(name, "bounds", i=bad[0], d=d, n=shape[d])
    return idx, d


def _source_index(name, input, dim, index, source):
    """The index template of the slices ``index`` along ``dim`` (its array: ``as_vector(index)``), checked
    against ``source``; and the wrapped dim."""
    idx, d = _vector_index(name, input, dim, index)
    shape, src = input._data.shape, source._data.shape
    count = src[d] if len(src) > d else 1
    if count != idx.size:
        _fail(name, "count", k=idx.size, m=count, d=d)
    mine, theirs = shape[:d] + shape[d + 1:], src[:d] + src[d + 1:]
    if mine != theirs:
        at = next((k for k, (p, q) in enumerate(zip(mine, theirs)) if p != q), 0)
        _fail(name, "slices", shape=list(shape), src=list(src), at=at, mine=mine[at] if mine else 1,
              theirs=theirs[at] if theirs else 1)
    if source._data.dtype != input._data.dtype:
        _fail(name, "scalar", self=C_NAMES[input.dtype], source=C_NAMES[source.dtype])
    return (slice(None),) * d + (ARRAY,), d


def _index_add(op, input, dim, index, source, alpha):
    at, _ = _source_index("index_add_", input, dim, index, source)
    return op.apply(input, source, as_vector(index), index=at, accumulate=True, alpha=alpha)


@register(out=True)
def index_add(input, dim: int, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added at the positions ``index`` along ``dim``."""
    return _index_add(IndexAdd, input, dim, index, source, alpha)


@register(top_level=False)
def index_add_(input, dim: int, index, source, *, alpha=1):
    return _index_add(_IndexAdd_, input, dim, index, source, alpha)


def _index_copy(op, input, dim, index, source):
    at, _ = _source_index("index_copy_", input, dim, index, source)
    return op.apply(input, source, as_vector(index), index=at, accumulate=False)


@register(out=True)
def index_copy(input, dim: int, index, source):
    """A copy of ``input`` with the slices of ``source`` written at the positions ``index`` along ``dim``."""
    return _index_copy(IndexCopy, input, dim, index, source)


@register(top_level=False)
def index_copy_(input, dim: int, index, source):
    return _index_copy(_IndexCopy_, input, dim, index, source)


def _index_fill(ops, input, dim, index, value):
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    _, d = _vector_index("index_fill_", input, dim, index)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return ops[1].apply(input, value, as_vector(index), dim=d)
    return ops[0].apply(input, as_vector(index), value=value, dim=d)


@register
def index_fill(input, dim: int, index, value):
    """A copy of ``input`` with the slices at ``index`` along ``dim`` set to ``value``."""
    return _index_fill((IndexFill, IndexFillTensor), input, dim, index, value)


@register(top_level=False)
def index_fill_(input, dim: int, index, value):
    return _index_fill((_IndexFill_, _IndexFillTensor_), input, dim, index, value)


# ---- scatter_reduce / index_reduce ----------------------------------------------------------------------------
_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def _identity(reduce, dtype):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    lowest = -np.inf if dtype.kind in "fV" else np.iinfo(dtype).min if dtype.kind in "iu" else False
    highest = np.inf if dtype.kind in "fV" else np.iinfo(dtype).max if dtype.kind in "iu" else True
    return lowest if reduce == "amax" else highest


class ScatterReduce(Op, name="ScatterReduceBackward0"):
    """``a`` with the ``src`` values reduced into the positions of the index (a template and its arrays, as
    ``Index`` takes them), with or without ``a``'s own values there. ``nan_is_extreme``: a NaN in ``src`` counts as
    a maximum (minimum) and, in a product, gets the product of the others as a zero does (torch's segment_reduce;
    its scatter_reduce gives it no gradient and NaN)."""

    nan_is_extreme = False

    @staticmethod
    def forward(ctx, a, src, *arrays, index=(), reduce="sum", include_self=True):
        ctx.index, ctx.reduce, ctx.include_self = index, reduce, include_self
        at = fill(index, arrays)
        out = a.copy()
        touched = np.zeros(a.shape, bool)
        touched[at] = True
        if not include_self:
            out[touched] = _identity(reduce, a.dtype)
        _UFUNCS[reduce].at(out, at, src)
        counts = None
        if reduce == "mean":
            counts = np.zeros(a.shape, np.int64)
            np.add.at(counts, at, 1)
            counts = np.maximum(counts + include_self, 1)
            out = out // counts if a.dtype.kind in "iu" else (out / counts).astype(a.dtype)
            counts = counts.astype(a.dtype)
        ctx.save_for_backward(a, src, out, touched, counts, *arrays)
        return out

    @staticmethod
    def backward(ctx, g):
        a, src, out, touched, counts, *arrays = ctx.saved_tensors
        reduce, template = ctx.reduce, ctx.index
        if reduce == "mean":
            g = g / counts
        if reduce in ("sum", "mean"):
            ga, gs = g, Index.apply(g, *arrays, index=template)
        elif reduce == "prod":
            ga, gs = _prod_grads(ctx, g, a, src, out, arrays)
        else:  # amax/amin: the gradient is shared evenly by the values equal to the result
            at = fill(template, [_array(i) for i in arrays])
            a_hit = (_array(a) == _array(out)) & (ctx.include_self | ~_array(touched))
            src_hit = _array(src) == _array(out)[at]
            if ctx.nan_is_extreme:
                src_hit |= np.isnan(_array(src))
            count = a_hit.astype(np.float64)
            np.add.at(count, at, src_hit)
            g = g / np.maximum(count, 1).astype(_array(a).dtype)
            ga, gs = where(a_hit, g, 0.0), where(src_hit, Index.apply(g, *arrays, index=template), 0.0)
        if not ctx.include_self:
            ga = where(touched, 0.0, ga)
        return (ga, gs, *(None,) * len(arrays))


def _prod_grads(ctx, g, a, src, out, arrays):
    """Gradients of a product reduction, exact where factors are zero: a zero factor gets the product of the
    others; with two zeros in a product every gradient of it is 0."""
    template = ctx.index

    def reduced(base, values):
        return ScatterReduce.apply(base, values, *arrays, index=template, reduce="prod", include_self=ctx.include_self)

    src_zero = _array(src) == 0
    if ctx.nan_is_extreme:
        src_zero |= np.isnan(_array(src))
    if not (_array(a) == 0).any() and not src_zero.any():
        return g * out / a, Index.apply(g * out, *arrays, index=template) / src
    a_safe = where(a == 0, 1.0, a)
    ga = g * reduced(a_safe, src) / a_safe
    at = fill(template, [_array(i) for i in arrays])
    zeros = np.zeros(_array(a).shape, np.int64)
    np.add.at(zeros, at, src_zero)
    single = src_zero & (zeros[at] == 1)
    without_it = Index.apply(g * reduced(a, where(single, 1.0, src)), *arrays, index=template)
    gs = where(single, without_it, Index.apply(g * out, *arrays, index=template) / where(src_zero, 1.0, src))
    return ga, gs


IndexReduce = ScatterReduce.named("IndexReduce", "IndexReduceBackward0")


_ScatterReduce_, _IndexReduce_ = ScatterReduce.inplace_variant(), IndexReduce.inplace_variant()


def _scatter_reduce(op, input, dim, index, src, reduce, include_self):
    if reduce not in _UFUNCS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    d = _check_index(input, dim, index, "scatter", src)
    if src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if src._data.shape != index._data.shape:  # only the corner of src that index covers is read
        src = src[tuple(slice(0, n) for n in index._data.shape)]
    template, arrays = along(index, d)
    return op.apply(input, src, *arrays, index=template, reduce=reduce, include_self=include_self)


@register(out=True)
def scatter_reduce(input, dim: int, index, src, reduce: str, *, include_self: bool = True):
    """A copy of ``input`` with ``src`` reduced (sum, prod, mean, amax or amin) into the positions ``index``
    along ``dim``; ``include_self=False`` leaves ``input``'s own values at those positions out."""
    return _scatter_reduce(ScatterReduce, input, dim, index, src, reduce, include_self)


@register(top_level=False)
def scatter_reduce_(input, dim: int, index, src, reduce: str, *, include_self: bool = True):
    return _scatter_reduce(_ScatterReduce_, input, dim, index, src, reduce, include_self)


def _index_reduce(op, input, dim, index, source, reduce, include_self):
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    template, _ = _source_index("index_reduce_", input, dim, index, source)
    return op.apply(input, source, as_vector(index), index=template, reduce=reduce, include_self=include_self)


@register(out=True)
def index_reduce(input, dim: int, index, source, reduce: str, *, include_self: bool = True):
    """A copy of ``input`` with the slices of ``source`` reduced (prod, mean, amax or amin) into the slices
    ``index`` along ``dim``."""
    return _index_reduce(IndexReduce, input, dim, index, source, reduce, include_self)


@register(top_level=False)
def index_reduce_(input, dim: int, index, source, reduce: str, *, include_self: bool = True):
    return _index_reduce(_IndexReduce_, input, dim, index, source, reduce, include_self)


# ---- masked_scatter / put ---------------------------------------------------------------------------------------
class MaskedScatter(Op):
    """The first elements of ``src`` written, in order, where ``mask`` is True."""

    @staticmethod
    def forward(ctx, a, src, mask):
        ctx.save_for_backward(mask)
        out = np.array(np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape)))
        mask = np.broadcast_to(mask, out.shape)
        count = int(mask.sum())
        if count > src.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        out[mask] = src.reshape(-1)[:count]
        ctx.count, ctx.src_shape = count, src.shape
        return out

    @staticmethod
    def backward(ctx, g):
        (mask,) = ctx.saved_tensors
        size = int(np.prod(ctx.src_shape))
        picked = Index.apply(g, expand(mask, np.shape(g)), index=(ARRAY,))
        gs = IndexScatter.apply(picked, shape=(size,), index=(slice(0, ctx.count),), accumulate=False)
        return where(mask, 0.0, g), gs.reshape(ctx.src_shape), None


_MaskedScatter_ = MaskedScatter.inplace_variant()


def _masked_scatter(op, input, mask, source):
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{C_NAMES[mask.dtype]}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{C_NAMES[input.dtype]} and {C_NAMES[source.dtype]}")
    return op.apply(input, source, mask)


@register
def masked_scatter(input, mask, source):
    """A copy of ``input`` with the leading elements of ``source`` written, in order, where ``mask`` is True."""
    return _masked_scatter(MaskedScatter, input, mask, source)


@register(top_level=False)
def masked_scatter_(input, mask, source):
    return _masked_scatter(_MaskedScatter_, input, mask, source)


class Put(Op):
    """``a``, read as a flat vector, with ``source`` written (or added) at ``index``; ``source`` is saved only
    to check its version, as torch's node does."""

    @staticmethod
    def forward(ctx, a, source, index, accumulate=False):
        ctx.accumulate, ctx.source_shape = accumulate, source.shape
        ctx.save_for_backward(source, index)
        out = a.copy()
        flat, at = out.reshape(-1), index.reshape(-1)
        if accumulate:
            np.add.at(flat, at, source.reshape(-1))
        else:
            flat[at] = source.reshape(-1)
        return out

    @staticmethod
    def backward(ctx, g):
        _, index = ctx.saved_tensors
        need_a, need_source, _ = ctx.needs_input_grad
        flat = g.reshape(-1)
        ga = gs = None
        if need_a:
            ga = g if ctx.accumulate else IndexPut.apply(flat, 0.0, index, index=(ARRAY,)).reshape(np.shape(g))
        if need_source:
            gs = Index.apply(flat, index, index=(ARRAY,)).reshape(ctx.source_shape)
        return ga, gs, None


_Put_ = Put.inplace_variant()


def _put(op, input, index, source, accumulate):
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {C_NAMES[index.dtype]}")
    if idx.size != source._data.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source._data.size}, index.numel() = {idx.size}")
    n = input._data.size
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {n} elements.")
    return op.apply(input, source, index, accumulate=accumulate)


@register
def put(input, index, source, accumulate: bool = False):
    """A copy of ``input``, read as a flat vector, with ``source`` written (or added) at ``index``."""
    return _put(Put, input, index, source, accumulate)


@register(top_level=False)
def put_(input, index, source, accumulate: bool = False):
    return _put(_Put_, input, index, source, accumulate)


# ---- select_scatter / slice_scatter / diagonal_scatter / as_strided_scatter -------------------------------------
class SelectScatter(IndexPut):
    pass


class SliceScatter(IndexPut):
    pass


class DiagonalScatter(IndexPut):
    pass


class AsStridedScatter(IndexPut):
    pass


def _embed(op, input, src, at, region):
    """``op`` writing ``src`` into the region (of shape ``region``) that the index template ``at`` picks."""
    if tuple(src._data.shape) != tuple(region):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src._data.shape)}, slice size = {list(region)}")
    return op.apply(input, src, index=tuple(at), accumulate=False)


@register
def select_scatter(input, src, dim: int, index: int):
    """A copy of ``input`` with ``src`` written into the slice ``select(dim, index)``."""
    select(input, dim, index)  # torch's range check and message
    shape = input._data.shape
    d = _wrap_dim(dim, len(shape))
    return _embed(SelectScatter, input, src, (slice(None),) * d + (index % shape[d],), shape[:d] + shape[d + 1:])


@register(out=True)
def slice_scatter(input, src, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1):
    """A copy of ``input`` with ``src`` written into the slice ``start:end:step`` along ``dim``."""
    shape = input._data.shape
    d = _wrap_dim(dim, len(shape))
    where_ = slice(*slice(start, end, step).indices(shape[d]))
    region = shape[:d] + (len(range(where_.start, where_.stop, where_.step)),) + shape[d + 1:]
    return _embed(SliceScatter, input, src, (slice(None),) * d + (where_,), region)


@register
def diagonal_scatter(input, src, offset: int = 0, dim1: int = 0, dim2: int = 1):
    """A copy of ``input`` with ``src`` written into ``diagonal(offset, dim1, dim2)``."""
    shape = input._data.shape
    d1, d2 = _wrap_dim(dim1, len(shape)), _wrap_dim(dim2, len(shape))
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    row, col = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(0, min(shape[d1] - row, shape[d2] - col))
    rest = [k for k in range(len(shape)) if k not in (d1, d2)]
    region = tuple(shape[k] for k in rest) + (length,)
    at = [None] * len(shape)
    for k, coordinate in zip(rest, grid(region)):
        at[k] = coordinate
    last = len(region) - 1
    at[d1], at[d2] = Made(axis_range, length, last, len(region), row), Made(axis_range, length, last, len(region), col)
    return _embed(DiagonalScatter, input, src, at, region)


def _strided_positions(size, stride, offset, storage_size, itemsize):
    """The sizes and strides as ints, checked to fit a storage of ``storage_size`` elements from ``offset``."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed > storage_size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of bounds "
                           f"for storage of size {storage_size * itemsize}")
    return size, stride


def _positions(size, stride, offset) -> np.ndarray:
    """Storage positions of the elements of an ``as_strided(size, stride, offset)`` view."""
    nd = len(size)
    at = offset + sum((axis_range(n, k, nd) * s for k, (n, s) in enumerate(zip(size, stride))), np.zeros((), np.int64))
    return np.broadcast_to(at, size)


def _coordinate(k, size, stride, offset, shape) -> np.ndarray:
    """Coordinate ``k``, in a contiguous array of ``shape``, of the elements of an ``as_strided`` view of it."""
    return np.unravel_index(_positions(size, stride, offset), shape)[k]


@register
def as_strided_scatter(input, src, size, stride, storage_offset: int | None = None):
    """A copy of ``input`` (contiguous) with ``src`` written into the view ``as_strided(size, stride,
    storage_offset)``."""
    a = input._data
    offset = storage_offset or 0
    size, stride = _strided_positions(size, stride, offset, a.size, a.itemsize)
    at = [Made(_coordinate, k, size, stride, offset, a.shape) for k in range(a.ndim)]
    return _embed(AsStridedScatter, input, src, at, size)


# ---- strided views ----------------------------------------------------------------------------------------------
class AsStrided(Op):
    """A view of the storage of ``a`` with the given sizes, strides (in elements) and offset; ``own`` is where
    ``a`` lies in the storage, as (sizes, strides, offset)."""

    view = True

    @staticmethod
    def forward(ctx, a, storage=None, offset=0, size=(), stride=(), own=()):
        ctx.view, ctx.own, ctx.storage_size = (size, stride, offset), own, storage.size
        return np.lib.stride_tricks.as_strided(storage[offset:], size, tuple(s * storage.itemsize for s in stride))

    @staticmethod
    def backward(ctx, g):
        # into the storage (adding where view elements share memory), then read back where ``a`` lies
        full = IndexScatter.apply(g, shape=(ctx.storage_size,), index=(Made(_positions, *ctx.view),),
                                  accumulate=True)
        return Index.apply(full, index=(Made(_positions, *ctx.own),))


def _storage(t):
    """The 1-D storage ``t`` lies in (its base's memory) and ``t``'s offset and strides in it, in elements."""
    root = t._base._data if t._base is not None else t._data
    item = root.itemsize
    expected = item
    for s, n in sorted((s, n) for s, n in zip(root.strides, root.shape) if n != 1):
        if s != expected:
            raise RuntimeError("as_strided: minitorch reads a storage only from a tensor whose base is dense in memory")
        expected *= n
    storage = np.lib.stride_tricks.as_strided(root, (root.size,), (item,))
    offset = (t._data.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // item
    return storage, offset, tuple(s // item for s in t._data.strides)


@register
def as_strided(input, size, stride, storage_offset: int | None = None):
    """A view of ``input``'s storage with the given ``size``, ``stride`` (in elements) and ``storage_offset``
    (default: ``input``'s own)."""
    storage, own_offset, own_stride = _storage(input)
    offset = own_offset if storage_offset is None else storage_offset
    size, stride = _strided_positions(size, stride, offset, storage.size, storage.itemsize)
    own = _strided_positions(input._data.shape, own_stride, own_offset, storage.size, storage.itemsize)
    return AsStrided.apply(input, storage=storage, offset=offset, size=size, stride=stride, own=own + (own_offset,))


def _window_positions(count: int, step: int, size: int, dim: int, ndim: int) -> np.ndarray:
    """Along ``dim`` of ``ndim`` axes (the last one the window's): where each element of ``count`` windows of
    ``size``, ``step`` apart, lies."""
    return axis_range(count, dim, ndim, step=step) + np.arange(size)


class Unfold(Op):
    """Windows of ``size`` every ``step`` along ``dim`` (a new last dim): a strided view."""

    view = True

    @staticmethod
    def forward(ctx, a, dim=0, size=1, step=1):
        work = a.reshape(1) if a.ndim == 0 else a
        count = (work.shape[dim] - size) // step + 1
        shape = work.shape[:dim] + (count,) + work.shape[dim + 1:] + (size,)
        s = work.strides
        out = np.lib.stride_tricks.as_strided(work, shape, s[:dim] + (s[dim] * step,) + s[dim + 1:] + (s[dim],))
        at = grid(shape[:-1], len(shape))
        at[dim] = Made(_window_positions, count, step, size, dim, len(shape))
        ctx.in_shape, ctx.work_shape, ctx.out_shape, ctx.index = a.shape, work.shape, shape, tuple(at)
        return out if a.ndim else out.reshape(size)

    @staticmethod
    def backward(ctx, g):
        g = g.reshape(ctx.out_shape)
        return IndexScatter.apply(g, shape=ctx.work_shape, index=ctx.index, accumulate=True).reshape(ctx.in_shape)


@register(top_level=False)
def unfold(input, dimension: int, size: int, step: int):
    """Every window of ``size`` elements, ``step`` apart, along ``dimension``, as a new last dim (a view)."""
    a = input._data
    d = _wrap_dim(dimension, max(a.ndim, 1))
    length = a.shape[d] if a.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    return Unfold.apply(input, dim=d, size=size, step=step)


# ---- in-place writes ------------------------------------------------------------------------------------------
class FillDiagonal(MaskedFill):
    inplace = True


@register(top_level=False)
def fill_diagonal_(input, fill_value, wrap: bool = False):
    """Set the main diagonal (all dims of equal length; a tall matrix restarts it every ``cols + 1`` rows with
    ``wrap``) to ``fill_value``."""
    shape = input._data.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and len(set(shape)) > 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    step = 1 + sum(int(np.prod(shape[k + 1:])) for k in range(len(shape) - 1))
    end = input._data.size if wrap or len(shape) > 2 else min(shape[0], shape[1]) * shape[1]
    mask = np.zeros(input._data.size, bool)
    mask[:end:step] = True
    return FillDiagonal.apply(input, mask.reshape(shape), value=fill_value)


def _python_map(name, input, fn, *others):
    """``input`` overwritten by ``fn`` called on each of its elements (and the matching ones of ``others``)."""
    if input._requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    arrays = [np.broadcast_to(o._data, expanded_shape(o, input._data.shape)) for o in others]
    values = np.frompyfunc(fn, 1 + len(others), 1)(input._data, *arrays)
    input._data[...] = np.asarray(values, dtype=input._data.dtype) if input._data.ndim else values
    input._bump(name)
    return input


@register(top_level=False)
def apply_(input, callable):  # noqa: A002
    """Replace each element ``x`` by ``callable(x)`` (a Python call per element, as in torch)."""
    return _python_map("apply_", input, callable)


@register(top_level=False)
def map_(input, other, callable):  # noqa: A002
    """Replace each element ``x`` by ``callable(x, y)``, ``y`` the matching element of ``other`` (broadcast)."""
    return _python_map("map_", input, callable, other)


@register(top_level=False)
def map2_(input, x, y, callable):  # noqa: A002
    """Replace each element ``a`` by ``callable(a, b, c)`` with the matching elements of ``x`` and ``y``."""
    return _python_map("map2_", input, callable, x, y)


# ---- segment_reduce -------------------------------------------------------------------------------------------
class SegmentReduce(ScatterReduce, name="SegmentReduceBackward0"):
    nan_is_extreme = True


_EMPTY_SEGMENT = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}


@register(method=False)
def segment_reduce(data, reduce: str, *, lengths=None, indices=None, offsets=None, axis: int = 0,
                   unsafe: bool = False, initial=None):
    """Reduce (sum, mean, prod, max or min) consecutive segments of ``data`` along ``axis``, of the given
    ``lengths`` (or between ``offsets``); ``initial`` joins every segment (empty ones hold it, or the identity;
    an empty mean is NaN)."""
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _UFUNCS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    sizes = lengths._data if lengths is not None else np.diff(offsets._data, axis=-1)
    a = _wrap_dim(axis, data._data.ndim)
    if a != sizes.ndim - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of lengths but got {axis}.")
    ends = np.cumsum(sizes, -1)
    n = data._data.shape[a]
    if not unsafe and (ends[..., -1] != n).any():
        raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum to "
                           "data.size(lengths.dim()-1) when !unsafe.")
    # the segment of each position along axis: how many segments end at or before it
    rows = ends.reshape(-1, ends.shape[-1])
    marks = np.zeros((rows.shape[0], n + 1), np.int64)
    np.add.at(marks, (np.arange(rows.shape[0])[:, None], np.minimum(rows, n)), 1)
    ids = np.cumsum(marks[:, :n], -1).reshape(ends.shape[:-1] + (n,))
    shape = data._data.shape
    index = np.broadcast_to(ids.reshape(ids.shape + (1,) * (len(shape) - a - 1)), shape)
    out_shape = shape[:a] + (sizes.shape[-1],) + shape[a + 1:]
    fill = _EMPTY_SEGMENT[reduce] if initial is None else initial
    base = Tensor._wrap(np.full(out_shape, fill, data._data.dtype))
    op_reduce = "sum" if reduce == "mean" else reduce
    template, arrays = along(index, a)
    # the lengths (or offsets) go in after the index's arrays: saved only to check their version, as torch's node does
    out = SegmentReduce.apply(base, data, *arrays, lengths if lengths is not None else offsets, index=template,
                              reduce=op_reduce, include_self=initial is not None)
    if reduce != "mean":
        return out
    counts = sizes.reshape(sizes.shape + (1,) * (len(shape) - a - 1)).astype(data._data.dtype)
    return out / np.where(counts == 0, np.nan if initial is None else 1.0, counts)
