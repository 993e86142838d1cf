"""Writing into regions of a tensor: index_add/index_copy/index_fill/index_reduce along a dim, scatter_reduce and
segment_reduce, masked_scatter, put, the ``*_scatter`` ops (a copy with a select, slice, diagonal or strided
region replaced), the strided views as_strided and unfold, fill_diagonal_ and the Python-callable apply_/map_/map2_.

Most are ``IndexPut`` (``a[index] = v``, or ``+=``) under torch's node name, with a numpy index built here:
their gradients are IndexPut's (the old values lose the overwritten positions, the values get what was read
there). ``ScatterReduce`` carries the reductions (sum, prod, mean, amax, amin) and their gradients."""
from __future__ import annotations

import numpy as np

from .._dtype import C_NAMES
from .._registry import register
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Op
from .arithmetic import where
from .indexing import Index, IndexPut, IndexScatter, MaskedFill, MaskedFillTensor, _along, _check_index, select

_ndarray = np.ndarray


def _array(x):
    return x if type(x) is _ndarray else x._data


def _grid(shape, ndim=None):
    """Open-grid coordinates of ``shape`` (each an arange along its own axis of ``ndim`` axes)."""
    ndim = len(shape) if ndim is None else ndim
    return [np.arange(n).reshape((-1,) + (1,) * (ndim - k - 1)) for k, n in enumerate(shape)]


# ---- index_add / index_copy / index_fill / index_reduce -------------------------------------------------------
class IndexAdd(IndexPut):
    pass


class IndexCopy(IndexPut):
    pass


class Put(IndexPut):
    pass


class IndexFill(MaskedFill):
    pass


class IndexFillTensor(MaskedFillTensor, name="IndexFillBackward1"):
    pass


_IndexAdd_, _IndexCopy_, _Put_ = IndexAdd.inplace_variant(), IndexCopy.inplace_variant(), Put.inplace_variant()
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
    """The checked 1-D index along ``dim`` (as torch's index_* ops check it) and the wrapped dim."""
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
    """The numpy index of the slices ``index`` along ``dim``, checked against ``source``."""
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
    return (slice(None),) * d + (idx,), d


def _index_add(op, input, dim, index, source, alpha):
    at, _ = _source_index("index_add_", input, dim, index, source)
    return op.apply(input, source if alpha == 1 else source * alpha, index=at, accumulate=True)


@register
def index_add(input, dim: int, index, source, *, alpha=1):
    """A copy of ``input`` with ``alpha * source`` added at the positions ``index`` along ``dim``."""
    return _index_add(IndexAdd, input, dim, index, source, alpha)


@register(top_level=False)
def index_add_(input, dim: int, index, source, *, alpha=1):
    return _index_add(_IndexAdd_, input, dim, index, source, alpha)


def _index_copy(op, input, dim, index, source):
    at, _ = _source_index("index_copy_", input, dim, index, source)
    return op.apply(input, source, index=at, accumulate=False)


@register
def index_copy(input, dim: int, index, source):
    """A copy of ``input`` with the slices of ``source`` written at the positions ``index`` along ``dim``."""
    return _index_copy(IndexCopy, input, dim, index, source)


@register(top_level=False)
def index_copy_(input, dim: int, index, source):
    return _index_copy(_IndexCopy_, input, dim, index, source)


def _index_fill(ops, input, dim, index, value):
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    idx, d = _vector_index("index_fill_", input, dim, index)
    mask = np.zeros(input._data.shape[d] if input._data.ndim else 1, bool)
    mask[idx] = True
    mask = mask.reshape((-1,) + (1,) * (input._data.ndim - d - 1)) if input._data.ndim else mask.reshape(())
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return ops[1].apply(input, value, mask=mask)
    return ops[0].apply(input, value=value, mask=mask)


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
    lowest = -np.inf if dtype.kind == "f" else np.iinfo(dtype).min if dtype.kind in "iu" else False
    highest = np.inf if dtype.kind == "f" else np.iinfo(dtype).max if dtype.kind in "iu" else True
    return lowest if reduce == "amax" else highest


class ScatterReduce(Op, name="ScatterReduceBackward0"):
    """``a`` with the ``src`` values reduced into the positions ``index`` (with or without ``a``'s own values).
    ``nan_is_extreme``: a NaN in ``src`` counts as a maximum (minimum) and, in a product, gets the product of the
    others as a zero does (torch's segment_reduce; its scatter_reduce gives it no gradient and NaN)."""

    nan_is_extreme = False

    @staticmethod
    def forward(ctx, a, src, index=(), reduce="sum", include_self=True):
        ctx.index, ctx.reduce, ctx.include_self = index, reduce, include_self
        out = a.copy()
        touched = np.zeros(a.shape, bool)
        touched[index] = True
        if not include_self:
            out[touched] = _identity(reduce, a.dtype)
        _UFUNCS[reduce].at(out, index, src)
        ctx.touched = touched
        if reduce == "mean":
            counts = np.zeros(a.shape, np.int64)
            np.add.at(counts, index, 1)
            counts = np.maximum(counts + include_self, 1)
            out = out // counts if a.dtype.kind in "iu" else (out / counts).astype(a.dtype)
            ctx.counts = counts.astype(a.dtype)
        ctx.save_for_backward(a, src, out)
        return out

    @staticmethod
    def backward(ctx, g):
        a, src, out = ctx.saved_tensors
        index, reduce, touched = ctx.index, ctx.reduce, ctx.touched
        if reduce == "mean":
            g = g / ctx.counts
        if reduce in ("sum", "mean"):
            ga, gs = g, Index.apply(g, index=index)
        elif reduce == "prod":
            ga, gs = _prod_grads(ctx, g, a, src, out)
        else:  # amax/amin: the gradient is shared evenly by the values equal to the result
            a_hit = (_array(a) == _array(out)) & (ctx.include_self | ~touched)
            src_hit = _array(src) == _array(out)[index]
            if ctx.nan_is_extreme:
                src_hit |= np.isnan(_array(src))
            count = a_hit.astype(np.float64)
            np.add.at(count, index, src_hit)
            g = g / np.maximum(count, 1).astype(_array(a).dtype)
            ga, gs = where(a_hit, g, 0.0), where(src_hit, Index.apply(g, index=index), 0.0)
        if not ctx.include_self:
            ga = where(touched, 0.0, ga)
        return ga, gs


def _prod_grads(ctx, g, a, src, out):
    """Gradients of a product reduction, exact where factors are zero: a zero factor gets the product of the
    others; with two zeros in a product every gradient of it is 0."""
    apply = ScatterReduce.apply
    params = dict(index=ctx.index, reduce="prod", include_self=ctx.include_self)
    src_zero = _array(src) == 0
    if ctx.nan_is_extreme:
        src_zero |= np.isnan(_array(src))
    if not (_array(a) == 0).any() and not src_zero.any():
        return g * out / a, Index.apply(g * out, index=ctx.index) / src
    a_safe = where(a == 0, 1.0, a)
    ga = g * apply(a_safe, src, **params) / a_safe
    zeros = np.zeros(_array(a).shape, np.int64)
    np.add.at(zeros, ctx.index, src_zero)
    single = src_zero & (zeros[ctx.index] == 1)
    without_it = Index.apply(g * apply(a, where(single, 1.0, src), **params), index=ctx.index)
    gs = where(single, without_it, Index.apply(g * out, index=ctx.index) / where(src_zero, 1.0, src))
    return ga, gs


class IndexReduce(ScatterReduce, name="IndexReduceBackward0"):
    pass


_ScatterReduce_, _IndexReduce_ = ScatterReduce.inplace_variant(), IndexReduce.inplace_variant()


def _scatter_reduce(op, input, dim, index, src, reduce, include_self):
    if reduce not in _UFUNCS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    d = _check_index(input, dim, index, "scatter", src)
    if src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if src._data.shape != index._data.shape:  # only the corner of src that index covers is read
        src = src[tuple(slice(0, n) for n in index._data.shape)]
    return op.apply(input, src, index=_along(index._data, d), reduce=reduce, include_self=include_self)


@register
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
    (*_, idx), d = _source_index("index_reduce_", input, dim, index, source)
    full = np.broadcast_to(idx.reshape((-1,) + (1,) * (source._data.ndim - d - 1)), source._data.shape)
    return op.apply(input, source, index=_along(full, d), reduce=reduce, include_self=include_self)


@register
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
    def forward(ctx, a, src, mask=None):
        out = np.array(np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape)))
        mask = np.broadcast_to(mask, out.shape)
        count = int(mask.sum())
        if count > src.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        out[mask] = src.reshape(-1)[:count]
        ctx.mask, ctx.count, ctx.src_shape = mask, count, src.shape
        return out

    @staticmethod
    def backward(ctx, g):
        size = int(np.prod(ctx.src_shape))
        picked = Index.apply(g, index=ctx.mask)
        gs = IndexScatter.apply(picked, shape=(size,), index=(slice(0, ctx.count),), accumulate=False)
        return where(ctx.mask, 0.0, g), gs.reshape(ctx.src_shape)


_MaskedScatter_ = MaskedScatter.inplace_variant()


def _masked_scatter(op, input, mask, source):
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{C_NAMES[mask.dtype]}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{C_NAMES[input.dtype]} and {C_NAMES[source.dtype]}")
    return op.apply(input, source, mask=mask._data)


@register
def masked_scatter(input, mask, source):
    """A copy of ``input`` with the leading elements of ``source`` written, in order, where ``mask`` is True."""
    return _masked_scatter(MaskedScatter, input, mask, source)


@register(top_level=False)
def masked_scatter_(input, mask, source):
    return _masked_scatter(_MaskedScatter_, input, mask, source)


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
    at = np.unravel_index(idx % max(n, 1), input._data.shape)
    return op.apply(input, source.reshape(idx.shape), index=at, accumulate=accumulate)


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
    """``op`` writing ``src`` into the region (of shape ``region``) that the coordinates ``at`` pick."""
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
    region = shape[:d] + shape[d + 1:]
    grid = _grid(region)
    return _embed(SelectScatter, input, src, grid[:d] + [np.asarray(index % shape[d])] + grid[d:], region)


@register
def slice_scatter(input, src, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1):
    """A copy of ``input`` with ``src`` written into the slice ``start:end:step`` along ``dim``."""
    shape = input._data.shape
    d = _wrap_dim(dim, len(shape))
    positions = np.arange(*slice(start, end, step).indices(shape[d]))
    region = shape[:d] + (positions.size,) + shape[d + 1:]
    grid = _grid(region)
    grid[d] = positions.reshape(grid[d].shape)
    return _embed(SliceScatter, input, src, grid, region)


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
    grid = _grid(region)
    at = [None] * len(shape)
    for k, coordinate in zip(rest, grid):
        at[k] = coordinate
    at[d1], at[d2] = row + grid[-1], col + grid[-1]
    return _embed(DiagonalScatter, input, src, at, region)


def _strided_positions(size, stride, offset, storage_size, itemsize):
    """Storage positions of the elements of an ``as_strided(size, stride, offset)`` view, checked to fit."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed > storage_size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of bounds "
                           f"for storage of size {storage_size * itemsize}")
    return offset + sum((g * s for g, s in zip(_grid(size), stride)), np.zeros((), np.int64)), size


@register
def as_strided_scatter(input, src, size, stride, storage_offset: int | None = None):
    """A copy of ``input`` (contiguous) with ``src`` written into the view ``as_strided(size, stride,
    storage_offset)``."""
    a = input._data
    positions, size = _strided_positions(size, stride, storage_offset or 0, a.size, a.itemsize)
    at = np.unravel_index(np.broadcast_to(positions, size), a.shape)
    return _embed(AsStridedScatter, input, src, at, size)


# ---- strided views ----------------------------------------------------------------------------------------------
class AsStrided(Op):
    """A view of the storage of ``a`` with the given sizes, strides (in elements) and offset."""

    view = True

    @staticmethod
    def forward(ctx, a, storage=None, offset=0, size=(), stride=(), positions=None, own=None):
        ctx.positions, ctx.own, ctx.storage_size = positions, own, storage.size
        return np.lib.stride_tricks.as_strided(storage[offset:], size, tuple(s * storage.itemsize for s in stride))

    @staticmethod
    def backward(ctx, g):
        # into the storage (adding where view elements share memory), then read back where ``a`` lies
        full = IndexScatter.apply(g, shape=(ctx.storage_size,), index=(ctx.positions,), accumulate=True)
        return Index.apply(full, index=(ctx.own,))


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
    positions, size = _strided_positions(size, stride, offset, storage.size, storage.itemsize)
    own, _ = _strided_positions(input._data.shape, own_stride, own_offset, storage.size, storage.itemsize)
    return AsStrided.apply(input, storage=storage, offset=offset, size=size, stride=tuple(int(s) for s in stride),
                           positions=np.broadcast_to(positions, size), own=np.broadcast_to(own, input._data.shape))


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
        at = _grid(shape[:-1], len(shape))
        at[dim] = at[dim] * step + np.arange(size)
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
    return FillDiagonal.apply(input, value=fill_value, mask=mask.reshape(shape))


def _python_map(name, input, fn, *others):
    """``input`` overwritten by ``fn`` called on each of its elements (and the matching ones of ``others``)."""
    if input._requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    from .view import expanded_shape
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
def map_(input, tensor, callable):  # noqa: A002
    """Replace each element ``x`` by ``callable(x, y)``, ``y`` the matching element of ``tensor`` (broadcast)."""
    return _python_map("map_", input, callable, tensor)


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
    out = SegmentReduce.apply(base, data, index=_along(index, a), reduce=op_reduce, include_self=initial is not None)
    if reduce != "mean":
        return out
    counts = sizes.reshape(sizes.shape + (1,) * (len(shape) - a - 1)).astype(data._data.dtype)
    return out / np.where(counts == 0, np.nan if initial is None else 1.0, counts)
