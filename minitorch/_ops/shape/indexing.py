"""Indexing: the ops behind ``x[index]`` and ``x[index] = v`` (whose rules are in ``subscript.py``),
select/narrow, index_put, gather/scatter, index_select, masked_fill/masked_select, nonzero.

Two raw ops do the work for all gathering: ``Index`` reads ``a[index]`` for a
numpy index, and its gradient ``IndexScatter`` writes (or, where indices can
repeat, adds) the gradient back into zeros. Named subclasses give the graph
nodes torch's names (``SelectBackward0``, ``GatherBackward0``, ...). The index
is a template of Python values whose ``ARRAY`` places the index arrays take:
those are inputs of the op (the user's index tensors, versioned, or arrays
computed from values), saved for backward; ranges that depend only on shapes
are ``Made`` recipes, so a node keeps no array it does not need.
"""
from __future__ import annotations

import math

import numpy as np

from ..._dtype import C_NAMES, from_numpy_dtype, wrap_int
from ..._core.tensor import _C_TYPE_NAMES, _wrap_dim, Tensor
from ..._core.function import Op
from ..._core.out import _out
from ..elementwise.clamp import where
from ..elementwise.broadcast import broadcast_shape
from .view import expand, reshape
from ..._core.registry import register
from ..reduction.sums import sum as sum_

_ndarray = np.ndarray


class _Slot:
    """The place, in an index template, of an index array that the op takes as an input."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ARRAY"


ARRAY = _Slot()


class Made:
    """An index array that depends only on Python values (shapes, offsets): kept in an index template as
    the recipe ``fn(*args)`` and made when the index is used, so a graph keeps no array for it."""

    __slots__ = ("fn", "args")

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __repr__(self) -> str:
        return f"Made({self.fn.__name__}{self.args})"


def fill(template: tuple, arrays) -> tuple:
    """The numpy index: ``template`` (ints, slices, Ellipsis, None, ``Made`` recipes and ``ARRAY`` places)
    with its places taken, in order, by ``arrays``."""
    it = iter(arrays)
    return tuple(next(it) if i is ARRAY else i.fn(*i.args) if type(i) is Made else i for i in template)


def axis_range(size: int, axis: int, ndim: int, start: int = 0, step: int = 1) -> np.ndarray:
    """``arange(start, start + size * step, step)`` along ``axis`` of ``ndim`` broadcasting axes."""
    return np.arange(start, start + size * step, step).reshape((-1,) + (1,) * (ndim - axis - 1))


def grid(shape, ndim: int | None = None) -> list:
    """Open-grid coordinates of ``shape`` (each a range along its own axis of ``ndim`` axes), as recipes."""
    ndim = len(shape) if ndim is None else ndim
    return [Made(axis_range, n, k, ndim) for k, n in enumerate(shape)]


def along(index, dim: int) -> tuple:
    """The template and arrays that pick ``index`` (an array or tensor) along ``dim`` and the matching
    position elsewhere: ``index`` at ``dim``, ranges over the other dims."""
    shape = np.shape(index)
    if not shape:  # a 0-d index of a 1-d input: one position
        return (ARRAY,), (index,)
    template = grid(shape)
    template[dim] = ARRAY
    return tuple(template), (index,)


def as_vector(index):
    """An index tensor of at most one dim as a vector (a 0-d one as a view of one element, which shares its
    version)."""
    return index.reshape(1) if index._data.ndim == 0 else index


def put_along(g, index, shape, dim: int, accumulate: bool = False):
    """Zeros of ``shape`` with ``g`` put at ``index`` (an array or tensor) along ``dim``: the gradient of
    values picked along a dim."""
    template, arrays = along(index, dim)
    return IndexScatter.apply(g, *arrays, shape=shape, index=template, accumulate=accumulate)


class Index(Op):
    """``a[index]``, ``index`` a template whose ``ARRAY`` places the index arrays given after ``a`` take
    (inputs without a gradient, saved for backward; advanced indexing makes a copy)."""

    accumulate = True    # the index can repeat positions: gradients add up
    keeps_input = False  # whether ``a`` is saved too (only to check its version, as torch's node does)

    @classmethod
    def forward(cls, ctx, a, *arrays, index=()):
        ctx.in_shape, ctx.index = a.shape, index
        if cls.keeps_input:
            ctx.save_for_backward(a, *arrays)
        elif arrays:
            ctx.save_for_backward(*arrays)
        out = a[fill(index, arrays)]
        return out if out.flags.c_contiguous else out.copy()  # numpy leaves some index results strided; torch not

    @classmethod
    def backward(cls, ctx, g):
        arrays = ctx.saved_tensors[1:] if cls.keeps_input else ctx.saved_tensors
        return (IndexScatter.apply(g, *arrays, shape=ctx.in_shape, index=ctx.index, accumulate=cls.accumulate),
                *(None,) * len(arrays))


class IndexScatter(Op, name="IndexBackwardBackward0"):
    """The gradient of ``Index``: ``g`` placed at the index (a template and its arrays, as ``Index`` takes
    them) in zeros of ``shape``."""

    @staticmethod
    def forward(ctx, g, *arrays, shape=(), index=(), accumulate=False):
        ctx.index = index
        if arrays:
            ctx.save_for_backward(*arrays)
        z = np.zeros(shape, g.dtype)
        at = fill(index, arrays)
        if accumulate:
            np.add.at(z, at, g)
        else:
            z[at] = g
        return z

    @staticmethod
    def backward(ctx, gg):
        arrays = ctx.saved_tensors
        return (Index.apply(gg, *arrays, index=ctx.index), *(None,) * len(arrays))


class _BasicIndex(Index):
    """Indexing by ints and slices: a view, and no position repeats."""

    view = True
    accumulate = False

    @staticmethod
    def forward(ctx, a, index=()):
        ctx.in_shape, ctx.index = a.shape, index
        return a[index]


class Select(_BasicIndex):
    pass


class Slice(_BasicIndex):
    pass


class Alias(_BasicIndex):
    pass


@register(top_level=False)
def as_subclass(self, cls: type):
    """This tensor as an instance of the Tensor subclass ``cls``: same memory, in the graph as an alias."""
    t = Alias.apply(self, index=(Ellipsis,))
    t.__class__ = cls
    return t


class IndexSelect(Index):
    pass


class Gather(Index):
    keeps_input = True


class MaskedSelect(Op):
    """The elements of ``a`` where ``mask`` is True, the two broadcast to one shape; ``a`` is saved too, only to
    check its version, as torch's node does."""

    @staticmethod
    def forward(ctx, a, mask):
        ctx.shape = shape = np.broadcast_shapes(a.shape, mask.shape)
        ctx.save_for_backward(a, mask)
        return np.broadcast_to(a, shape)[np.broadcast_to(mask, shape)]

    @staticmethod
    def backward(ctx, g):  # (a gradient of the broadcast shape: the engine sums it to the input's)
        _, mask = ctx.saved_tensors
        return IndexScatter.apply(g, expand(mask, ctx.shape), shape=ctx.shape, index=(ARRAY,)), None


@register
def select(input, dim: int, index: int):
    """The slice at ``index`` along ``dim`` (a view without that dim)."""
    shape = np.shape(input)
    d = _wrap_dim(dim, len(shape))
    size = shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(shape)} at dimension {d}")
    return Select.apply(input, index=(slice(None),) * d + (index % size, Ellipsis))


@register
def narrow(input, dim: int, start: int, length: int):
    """Elements ``start .. start+length`` along ``dim`` (a view)."""
    shape = np.shape(input)
    d = _wrap_dim(dim, len(shape))
    if not -shape[d] <= start <= shape[d]:
        raise IndexError(f"start out of range (expected to be in range of [{-shape[d]}, {shape[d]}], but got {start})")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start < 0:
        start += shape[d]
    if start + length > shape[d]:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({shape[d]}).")
    return Slice.apply(input, index=(slice(None),) * d + (slice(start, start + length),))


class IndexPut(Op):
    """``a[index] = alpha * v`` (or ``+=`` with ``accumulate``; out of place: a copy of ``a``), the index a template
    and its arrays (as ``Index``)."""

    keeps_values = False  # whether ``v`` is saved too (only to check its version, as torch's node does)

    @staticmethod
    def forward(ctx, a, v, *arrays, index=(), accumulate=False, alpha=1):
        return _index_put_into(ctx, a.copy(), v, arrays, index, accumulate, alpha)

    @classmethod
    def backward(cls, ctx, g):
        arrays = ctx.saved_tensors[1:] if cls.keeps_values else ctx.saved_tensors
        need_a, need_v = ctx.needs_input_grad[:2]
        ga = (g if ctx.accumulate else IndexPut.apply(g, 0.0, *arrays, index=ctx.index)) if need_a else None
        gv = None
        if need_v:
            gv = Index.apply(g, *arrays, index=ctx.index)
            gv = gv if ctx.alpha == 1 else gv * ctx.alpha
        return (ga, gv, *(None,) * len(arrays))


def _index_put_into(ctx, out, v, arrays, template, accumulate, alpha=1):
    """``out[index] = alpha * v`` (``+=`` with ``accumulate``), ``index`` the template filled with ``arrays``."""
    ctx.index, ctx.accumulate, ctx.alpha = template, accumulate, alpha
    ctx.save_for_backward(*((v,) + arrays if type(ctx).keeps_values else arrays))
    if alpha != 1:
        v = v * alpha
    index = fill(template, arrays)
    if type(v) is _ndarray:
        v = drop_leading_ones(v, out[index].ndim)
    try:
        if accumulate:
            np.add.at(out, index, v)
        else:
            out[index] = wrap_int(v, out.dtype)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(np.shape(v))} cannot be broadcast to "
                           f"indexing result of shape {list(out[index].shape)}") from None
    return out


def drop_leading_ones(v, ndim: int):
    """A value assigned into a region of ``ndim`` dims may carry extra leading 1-dims (torch drops them)."""
    if v.ndim <= ndim:
        return v
    extra = v.shape[:v.ndim - ndim]
    if any(s != 1 for s in extra):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(v.shape)} cannot be broadcast to indexing "
                           f"result of {ndim} dimensions")
    return v.reshape(v.shape[v.ndim - ndim:])


class IndexPut_(IndexPut, name="IndexPutBackward0"):
    """``a[index] = v`` written into ``a``."""

    inplace = True

    @staticmethod
    def forward(ctx, a, v, *arrays, index=(), accumulate=False, alpha=1):
        return _index_put_into(ctx, a, v, arrays, index, accumulate, alpha)


@register
def index_put(input, indices, values, accumulate: bool = False):
    """Out-of-place ``input[indices] = values`` (or ``+=`` with accumulate)."""
    template, arrays = _put_index(indices)
    return IndexPut.apply(input, values, *arrays, index=template, accumulate=accumulate)


@register
def index_put_(input, indices, values, accumulate: bool = False):
    """In-place ``input[indices] = values`` (or ``+=`` with accumulate)."""
    template, arrays = _put_index(indices)
    return IndexPut_.apply(input, values, *arrays, index=template, accumulate=accumulate)


def _put_index(indices) -> tuple:
    """The index template and its arrays for a tuple of index tensors (or arrays, or slices)."""
    template, arrays = [], []
    for i in indices:
        if isinstance(i, (Tensor, _ndarray, list)):
            template.append(ARRAY)
            arrays.append(np.asarray(i) if isinstance(i, list) else i)
        else:
            template.append(i)
    return tuple(template), arrays


# ---- gather / scatter / index_select / masks ------------------------------------------------------
def _check_index(input, dim, index, name, src=None) -> int:
    """torch's checks of a gather/scatter index (integer dtype, same rank, within the sizes and bounds); the dim."""
    if index._data.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    shape, idx = input._data.shape, index._data
    d = _wrap_dim(dim, len(shape))
    if max(idx.ndim, 1) != max(len(shape), 1):  # a 0-d index counts as 1-d, as in torch
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           + ("input tensor" if name == "gather" else "self tensor"))
    larger = [i for i, (n, s) in enumerate(zip(idx.shape, shape)) if i != d and n > s]
    if name == "gather" and larger:
        raise RuntimeError(f"Size does not match at dimension {larger[0]} expected index {list(idx.shape)} to be no "
                           f"larger than self {list(shape)} apart from dimension {d}")
    src_shape = src._data.shape if isinstance(src, Tensor) else None
    if larger or src_shape is not None and any(n > s for n, s in zip(idx.shape, src_shape)):
        raise RuntimeError(f"Expected index {list(idx.shape)} to be no larger than self {list(shape)} apart from "
                           f"dimension {d}" + ("" if src_shape is None else
                                               f" and to be no larger size than src {list(src_shape)}"))
    bad = idx[(idx >= shape[d]) | (idx < 0)]
    if bad.size:
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {d} with size {shape[d]}")
    return d


@register(out=True)
def gather(input, dim: int, index, *, sparse_grad: bool = False):
    """``out[i][j] = input[i][index[i][j]]`` for ``dim=1`` (and likewise for other dims)."""
    d = _check_index(input, dim, index, "gather")
    template, arrays = along(index, d)
    return Gather.apply(input, *arrays, index=template)


@register(out=True)
def take_along_dim(input, indices, dim: int | None = None):
    """The values of ``input`` at ``indices`` along ``dim``, both broadcast except along ``dim``; of the flattened
    ``input`` without ``dim``."""
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{C_NAMES[indices.dtype].capitalize()}")
    if dim is None:
        return gather(reshape(input, -1), 0, reshape(indices, -1))
    if input.dim() != indices.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    d = _wrap_dim(dim, input.dim())
    shape = list(broadcast_shape(*(tuple(t.shape[:d]) + (1,) + tuple(t.shape[d + 1:]) for t in (input, indices))))
    sized = [tuple(shape[:d]) + (t.shape[d],) + tuple(shape[d + 1:]) for t in (input, indices)]
    return gather(input.expand(sized[0]), d, indices.expand(sized[1]))


class Scatter(Op, name="ScatterBackward0"):
    """``scatter(a, dim, index, src)``: a copy of ``a`` with ``src`` written at the positions."""

    @staticmethod
    def forward(ctx, a, src, *arrays, index=(), reduce_add=False):
        ctx.index, ctx.add, ctx.src_shape = index, reduce_add, np.shape(src)
        ctx.save_for_backward(*arrays)
        index = fill(index, arrays)
        out = a.copy()
        if ctx.src_shape:  # src may be larger than index: use its leading corner
            src = src[tuple(slice(0, n) for n in np.broadcast(*index).shape)]
        if reduce_add:
            np.add.at(out, index, src)
        else:
            out[index] = src
        return out

    @staticmethod
    def backward(ctx, g):
        arrays, template = ctx.saved_tensors, ctx.index
        need_a, need_src = ctx.needs_input_grad[:2]
        ga = (g if ctx.add else IndexPut.apply(g, 0.0, *arrays, index=template)) if need_a else None
        gsrc = None
        if need_src:
            picked = Index.apply(g, *arrays, index=template)
            gsrc = _pad_to(picked, ctx.src_shape) if ctx.src_shape else sum_(picked)
        return (ga, gsrc, *(None,) * len(arrays))


ScatterValue = Scatter.named("ScatterValue", "ScatterBackward1")


class ScatterAdd(Scatter):
    pass


def _pad_to(g, shape):
    """``g`` in the top-left corner of zeros of ``shape`` (src may be larger than index)."""
    if tuple(np.shape(g)) == tuple(shape):
        return g
    return IndexScatter.apply(g, shape=shape, index=tuple(slice(0, n) for n in np.shape(g)), accumulate=False)


def _scatter(ops, input, dim, index, src, reduce_add):
    """Run ``ops[0]`` (a tensor ``src``) or ``ops[1]`` (a number) after torch's index checks."""
    d = _check_index(input, dim, index, "scatter", src)
    op = ops[0] if isinstance(src, Tensor) else ops[1]
    template, arrays = along(index, d)
    return op.apply(input, src, *arrays, index=template, reduce_add=reduce_add)


def _reduce_is_add(reduce) -> bool:
    if reduce not in (None, "add"):
        raise NotImplementedError("scatter reduce other than 'add' is not supported")
    return reduce == "add"


@register(out=True)
def scatter(input, dim: int, index, src=None, *, value=None, reduce=None):
    """A copy of ``input`` with ``src`` (a tensor or number) written at ``index`` along ``dim``."""
    return _scatter((Scatter, ScatterValue), input, dim, index, value if src is None else src, _reduce_is_add(reduce))


@register(out=True)
def scatter_add(input, dim: int, index, src):
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeats add up)."""
    return _scatter((ScatterAdd, ScatterAdd), input, dim, index, src, True)


_Scatter_ = Scatter.inplace_variant()
_ScatterValue_ = ScatterValue.inplace_variant()
_ScatterAdd_ = ScatterAdd.inplace_variant()


@register(top_level=False)
def scatter_(input, dim: int, index, src=None, *, value=None, reduce=None):
    return _scatter((_Scatter_, _ScatterValue_), input, dim, index, value if src is None else src,
                    _reduce_is_add(reduce))


@register(top_level=False)
def scatter_add_(input, dim: int, index, src):
    return _scatter((_ScatterAdd_, _ScatterAdd_), input, dim, index, src, True)


@register(out=True)
def index_select(input, dim: int, index):
    """The entries ``index`` (a vector) along ``dim``."""
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index._data.dtype.kind not in "iu":
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    d = _wrap_dim(dim, input._data.ndim)
    idx = index._data
    if idx.size and (idx.max() >= input._data.shape[d] or idx.min() < -input._data.shape[d]):
        raise IndexError("index out of range in self")
    return IndexSelect.apply(input, as_vector(index), index=(slice(None),) * d + (ARRAY,))


class MaskedFill(Op):
    """``where(mask, value, a)`` with a number ``value``; the mask may broadcast ``a`` to a larger shape."""

    @staticmethod
    def forward(ctx, a, mask, value=0):
        r = _masked_fill(ctx, a, value, mask)
        return r

    @staticmethod
    def backward(ctx, g):
        return where(ctx.saved_tensors[0], 0.0, g), None


class MaskedFillTensor(Op, name="MaskedFillBackward1"):
    """``where(mask, value, a)`` with a 0-dim tensor ``value``, which gets the summed gradient."""

    @staticmethod
    def forward(ctx, a, value, mask):
        r = _masked_fill(ctx, a, value, mask)
        return r

    @staticmethod
    def backward(ctx, g):
        (mask,) = ctx.saved_tensors
        need_a, need_v, _ = ctx.needs_input_grad
        return (where(mask, 0.0, g) if need_a else None), (where(mask, g, 0.0) if need_v else None), None


def _masked_fill(ctx, a, value, mask):
    ctx.save_for_backward(mask)
    r = np.array(np.broadcast_to(a, broadcast_shape(mask.shape, a.shape)))
    np.copyto(r, wrap_int(value, r.dtype), where=mask, casting="unsafe")
    return r


def _mask_array(mask, select=False):
    """``mask`` (a tensor, or an array it is made into), checked to be boolean."""
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        if select:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_C_TYPE_NAMES[from_numpy_dtype(m.dtype)]}")
    return mask if isinstance(mask, Tensor) else m


@register
def masked_fill(input, mask, value):
    """A copy of ``input`` with ``value`` where ``mask`` is True."""
    m = _mask_array(mask)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        return MaskedFillTensor.apply(input, value, m)
    return MaskedFill.apply(input, m, value=value)


_MaskedFill_ = MaskedFill.inplace_variant()
_MaskedFillTensor_ = MaskedFillTensor.inplace_variant()


@register(top_level=False)
def masked_fill_(input, mask, value):
    m = _mask_array(mask)
    if isinstance(value, Tensor):
        return _MaskedFillTensor_.apply(input, value, m)
    return _MaskedFill_.apply(input, m, value=value)


@register(out=True)
def masked_select(input, mask):
    """The elements where ``mask`` (broadcast) is True, as a 1-D tensor."""
    m = _mask_array(mask, select=True)
    broadcast_shape(np.shape(m), input._data.shape)  # (torch's error where the shapes do not broadcast)
    return MaskedSelect.apply(input, m)


@register(differentiable=False, out=True)
def nonzero(input, *, as_tuple: bool = False):
    """Indices of the nonzero elements: an (n, ndim) tensor, or a tuple of index vectors."""
    a = input._data
    idx = np.nonzero(a if a.ndim else a.reshape(1))  # a 0-dim tensor: 1 or 0 hits, with 0 coordinates
    if as_tuple:
        return tuple(Tensor._wrap(i.astype(np.int64)) for i in idx)
    return Tensor._wrap(np.stack(idx, axis=1).astype(np.int64) if a.ndim else np.zeros((idx[0].size, 0), np.int64))


@register
def nonzero_static(input, *, size: int, fill_value: int = -1, out=None):
    """``nonzero(input)`` cut or padded with ``fill_value`` rows to exactly ``size`` rows."""
    if out is not None and out._data.dtype != np.int64:
        raise RuntimeError("nonzero_static: Expected out tensor to have scalar type Long but got scalar type"
                           f"{C_NAMES[out.dtype]}")  # (no space before the dtype in torch's text)
    found = nonzero(input)._data[:size]
    pad = np.full((size - found.shape[0], found.shape[1]), fill_value, np.int64)
    return _out(Tensor._wrap(np.concatenate([found, pad])), out)


@register(differentiable=False)
def argwhere(input):
    return nonzero(input)


# ---- compositions of indexing --------------------------------------------------------------------------------
@register
def repeat_interleave(input, repeats=None, dim: int | None = None, *, output_size: int | None = None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times (an int, or a tensor of counts).
    Given only a 1-D tensor of counts, the indices 0, 1, ... repeated as many times."""
    if repeats is None:
        return Tensor._wrap(np.repeat(np.arange(input._data.size), input._data))
    counts = repeats._data if isinstance(repeats, Tensor) else repeats
    if dim is None:
        input, dim = input.reshape(-1), 0
    d = _wrap_dim(dim, input._data.ndim)
    index = np.repeat(np.arange(input._data.shape[d]), counts)
    return index_select(input, d, Tensor._wrap(index))


class Take(Op):
    """The entries of ``a``, read as a flat vector, at ``index`` (any shape); ``a`` is saved only to check its
    version, as torch's node does."""

    @staticmethod
    def forward(ctx, a, index):
        ctx.in_shape = a.shape
        ctx.save_for_backward(a, index)
        return a.reshape(-1)[index]

    @staticmethod
    def backward(ctx, g):
        _, index = ctx.saved_tensors
        flat = IndexScatter.apply(g, index, shape=(math.prod(ctx.in_shape),), index=(ARRAY,), accumulate=True)
        return flat.reshape(ctx.in_shape), None


@register(out=True)
def take(input, index):
    """The entries of ``input``, read as a flat vector, at ``index`` (any shape)."""
    if index._data.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {C_NAMES[index.dtype]}")
    size = input._data.size
    bad = index._data[(index._data >= size) | (index._data < -size)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of {size} elements.")
    return Take.apply(input, index)
