"""Splits and joins: unbind, split/chunk/tensor_split (multi-output views), cat and stack, meshgrid; and what is
built from them and the views: atleast_Nd, column/row/depth stacking, h/v/dsplit, fliplr, block_diag,
broadcast_tensors, cartesian_prod, combinations and diagflat (compositions of differentiable ops, so each has their
gradient)."""
from __future__ import annotations

import functools
import inspect
import itertools
import warnings

import numpy as np

from ..._dtype import promote_types
from ..._core.function import Op
from ..._core.registry import TOP_LEVEL_FORMS, register
from ..._core.tensor import Tensor, _wrap_dim
from ..elementwise.broadcast import broadcast_shape, result_dtype
from . import view
from .diagonal import diag
from .view import expand, reshape
from .indexing import narrow, select, Slice
from ..._factories import zeros

_ndarray = np.ndarray


# ---- splits and joins -------------------------------------------------------------
def _zeros_for(shape, dtype, like):
    """A zero gradient of the given shape, of the same kind (array or tensor) as ``like``."""
    z = np.zeros(shape, dtype)
    return z if type(like) is _ndarray else Tensor._wrap(z)


def _fill_missing(grads, shapes, dtype):
    like = next(g for g in grads if g is not None)
    return [g if g is not None else _zeros_for(s, dtype, like) for g, s in zip(grads, shapes)]


class Unbind(Op):
    view = True

    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.dim, ctx.in_shape, ctx.dtype = dim, a.shape, a.dtype
        index = (slice(None),) * dim
        return tuple(a[index + (i,)] for i in range(a.shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        shape = ctx.in_shape[:ctx.dim] + ctx.in_shape[ctx.dim + 1:]
        return stack(_fill_missing(grads, [shape] * len(grads), ctx.dtype), ctx.dim)


@register
def unbind(input, dim: int = 0) -> tuple:
    """The slices along ``dim``, as views."""
    return Unbind.apply(input, dim=_wrap_dim(dim, input._data.ndim))


class SplitWithSizes(Op):
    view = True

    @staticmethod
    def forward(ctx, a, sizes=(), dim=0):
        ctx.dim, ctx.in_shape, ctx.dtype, ctx.sizes = dim, a.shape, a.dtype, sizes
        bounds = np.cumsum((0,) + tuple(sizes))
        index = (slice(None),) * dim
        return tuple(a[index + (slice(int(lo), int(hi)),)] for lo, hi in zip(bounds[:-1], bounds[1:]))

    @staticmethod
    def backward(ctx, *grads):
        shape = ctx.in_shape
        shapes = [shape[:ctx.dim] + (s,) + shape[ctx.dim + 1:] for s in ctx.sizes]
        return cat(_fill_missing(grads, shapes, ctx.dtype), ctx.dim)


class Split(SplitWithSizes):
    pass


def _split_with(ops, input, split_size_or_sections, dim: int) -> tuple:
    """``split`` through ``ops`` = (the op for an int split size, the op for a list of sizes)."""
    d = _wrap_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        if step == 0 and n:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        sizes = [step] * (n // step) + ([n % step] if n % step else []) if step else [n]
        return ops[0].apply(input, sizes=tuple(sizes) or (0,), dim=d)
    sizes = tuple(int(s) for s in split_size_or_sections)
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                           f"dimension {d}), but got split_sizes={list(sizes)}")
    return ops[1].apply(input, sizes=sizes, dim=d)


class UnsafeSplit(SplitWithSizes):
    """The pieces share memory with the input but are not tracked as its views (in-place changes are allowed)."""

    view = False


class UnsafeSplitWithSizes(UnsafeSplit):
    pass


@register
def split(input, split_size_or_sections, dim: int = 0) -> tuple:
    """Pieces of ``split_size`` (the last may be smaller) or of the given sizes, as views."""
    return _split_with((Split, SplitWithSizes), input, split_size_or_sections, dim)


@register
def split_with_sizes(input, split_sizes, dim: int = 0) -> tuple:
    """Pieces of the given sizes along ``dim``, as views."""
    return split(input, list(split_sizes), dim)


@register
def unsafe_split(input, split_size: int, dim: int = 0) -> tuple:
    """``split`` whose pieces are not tracked as views of ``input`` (they still share its memory)."""
    return _split_with((UnsafeSplit, UnsafeSplitWithSizes), input, split_size, dim)


@register
def unsafe_split_with_sizes(input, split_sizes, dim: int = 0) -> tuple:
    """``split_with_sizes`` whose pieces are not tracked as views of ``input``."""
    return unsafe_split(input, list(split_sizes), dim)


def _chunk_size(input, chunks: int, dim: int) -> int:
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input._data.shape[_wrap_dim(dim, input._data.ndim)]
    return max(1, -(-n // chunks))


@register
def chunk(input, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` pieces of equal size (the last may be smaller)."""
    return split(input, _chunk_size(input, chunks, dim), dim)


@register
def unsafe_chunk(input, chunks: int, dim: int = 0) -> tuple:
    """``chunk`` whose pieces are not tracked as views of ``input`` (they still share its memory)."""
    return unsafe_split(input, _chunk_size(input, chunks, dim), dim)


@register
def tensor_split(input, indices_or_sections, dim: int = 0) -> tuple:
    """``sections`` nearly equal pieces (the first ``n % sections`` one larger), or the pieces between
    indices (Python slice bounds); each piece is its own slice, unlike ``split``."""
    d = _wrap_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, int):
        if indices_or_sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {indices_or_sections}")
        q, r = divmod(n, indices_or_sections)
        bounds = np.cumsum([0] + [q + 1] * r + [q] * (indices_or_sections - r)).tolist()
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [None]
    lead = (slice(None),) * d
    return tuple(Slice.apply(input, index=lead + (slice(lo, hi),)) for lo, hi in zip(bounds[:-1], bounds[1:]))


class Cat(Op):
    @staticmethod
    def forward(ctx, *arrays, dim=0):
        ctx.dim = dim
        nd = max(a.ndim for a in arrays)  # 1-dim empty inputs beside inputs of more dims are skipped, as in torch
        ctx.sizes = [None if nd > 1 and a.shape == (0,) else a.shape[dim] for a in arrays]
        joined = [a for a, size in zip(arrays, ctx.sizes) if size is not None]
        return np.concatenate(joined, axis=dim, dtype=_common_dtype(arrays))

    @staticmethod
    def backward(ctx, g):
        out, start = [], 0
        for size in ctx.sizes:  # (the engine casts each part to its input's dtype)
            if size is None:
                out.append(g.reshape(-1)[:0])
                continue
            out.append(narrow(g, ctx.dim, start, size))
            start += size
        return tuple(out)


def _common_dtype(arrays):
    dt = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != dt:
            dt = result_dtype(np.empty((1,), dt), a)
    return dt


def joined(tensors, name: str, dim=0) -> list:
    """The tensors of a join as a list, with torch's errors for a tensor, or something else than tensors, in place of
    a list of tensors, and for a ``dim`` that is not an int."""
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, (Tensor, _ndarray, np.generic)):  # (backward formulas join arrays and numpy scalars)
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return tensors


@register(out=True, method=False)
def cat(tensors, dim: int = 0):
    """Join tensors along an existing dim (1-dim empty tensors beside tensors of more dims are skipped)."""
    tensors = joined(tensors, "cat", dim)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    shapes = [np.shape(x) for x in tensors]
    for i, s in enumerate(shapes):
        if not s:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    first = next((i for i, s in enumerate(shapes) if s != (0,)), 0)
    ref = shapes[first]
    nd = len(ref)
    d = _wrap_dim(dim, nd)
    for i, s in enumerate(shapes[first + 1:], first + 1):
        if s == (0,):
            continue
        if len(s) != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and {len(s)}")
        for k in range(nd):
            if k != d and s[k] != ref[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size {ref[k]} but "
                                   f"got size {s[k]} for tensor number {i} in the list.")
    return Cat.apply(*tensors, dim=d)


concat = concatenate = register(cat, method=False, aliases=("concat", "concatenate"))


class Stack(Op):
    @staticmethod
    def forward(ctx, *arrays, dim=0):
        ctx.dim = dim
        return np.stack(arrays, axis=dim, dtype=_common_dtype(arrays))

    @staticmethod
    def backward(ctx, g):
        return tuple(select(g, ctx.dim, i) for i in range(np.shape(g)[ctx.dim]))


@register(out=True, method=False)
def stack(tensors, dim: int = 0):
    """Join tensors of equal shape along a new dim."""
    tensors = joined(tensors, "stack", dim)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = np.shape(tensors[0])
    for i, x in enumerate(tensors[1:], 1):
        if np.shape(x) != ref:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ref)} at entry 0 and "
                               f"{list(np.shape(x))} at entry {i}")
    return Stack.apply(*tensors, dim=_wrap_dim(dim, len(ref) + 1))


def meshgrid(*tensors, indexing: str | None = None):
    """Coordinate grids of 1-D tensors: each expanded over the others' sizes ('ij' or 'xy' order)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    swap = indexing == "xy" and len(tensors) >= 2
    ordered = (tensors[1], tensors[0], *tensors[2:]) if swap else tensors
    shape = tuple(t.numel() for t in ordered)
    grids = [expand(reshape(t, (1,) * i + (-1,) + (1,) * (len(ordered) - i - 1)), shape) for i, t in enumerate(ordered)]
    if swap:  # 'xy': the first two grids are made in swapped order, then handed back in the given order
        grids = [grids[1], grids[0], *grids[2:]]
    return tuple(grids)


meshgrid = register(meshgrid, method=False)


# ---- stacking, built from the joins and views above ----------------------------------------------------
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
    tensors = joined(tensors, name)
    if not tensors:
        raise RuntimeError(f"{fill or name} expects a non-empty TensorList")
    return tensors


@register(out=True, method=False)
def hstack(tensors):
    """The tensors (0-dim ones as 1-dim) joined along dim 1, or dim 0 if they are 1-dim."""
    tensors = atleast_1d(_nonempty(tensors, "hstack"))
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


@register(out=True, method=False)
def vstack(tensors):
    """The tensors (0-dim and 1-dim ones as rows) joined along dim 0."""
    return cat(atleast_2d(_nonempty(tensors, "vstack")), 0)


@register(out=True, method=False)
def row_stack(tensors):
    """Alias of ``vstack``."""
    return cat(atleast_2d(_nonempty(tensors, "row_stack", "vstack")), 0)


@register(out=True, method=False)
def column_stack(tensors):
    """The tensors side by side as columns (0-dim and 1-dim ones become columns first)."""
    tensors = _nonempty(tensors, "column_stack")
    return hstack([view.reshape(t, -1, 1) if t.dim() <= 1 else t for t in tensors])


@register(out=True, method=False)
def dstack(tensors):
    """The tensors joined along the third dim (after ``atleast_3d``)."""
    return cat(atleast_3d(_nonempty(tensors, "dstack")), 2)


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
        return tensor_split(input, indices_or_sections, d)

    def method(input, indices_or_sections, *indices):
        return split(input, (indices_or_sections, *indices) if indices else indices_or_sections)

    split.__doc__ = f"``tensor_split`` along dim {dim}" + (" (dim 0 of a 1-dim tensor)" if name == "hsplit" else "") \
        + "; an int number of sections must divide that dim."
    method.__doc__ = split.__doc__ + " As a method, the indices may also come one by one (``x.dsplit(1, 3)``)."
    for fn in (split, method):
        fn.__name__ = fn.__qualname__ = name
    split.__signature__ = inspect.signature(split)  # its own, not the one of the function it is indexed by:
    split.__wrapped__ = method  # (the index of definitions finds the method in this module)
    TOP_LEVEL_FORMS[name] = split  # minitorch.<name> takes the indices as one sequence, as torch.<name>
    return register(method)


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
        rows.append(cat([zeros(h, left, dtype=dtype), m, zeros(h, width - left - w, dtype=dtype)], 1))
        left += w
    return cat(rows, 0) if rows else zeros(1, 0)


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
    return stack([view.reshape(g, -1) for g in meshgrid(*tensors, indexing="ij")], 1)


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
