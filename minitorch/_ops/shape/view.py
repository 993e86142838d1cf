"""Views (view/reshape, permute, transpose, squeeze, unsqueeze, expand, flatten, movedim), sum_to_size (the gradient
of broadcasting), resizing, and the copies that rearrange elements (repeat, tile, flip, roll, rot90, contiguous).
The multi-output views (unbind, split) and the joins are in ``joins.py``.

View ops return numpy views, so results share memory with their input; ``Op.view``
makes them share the version counter too, as torch views do.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..._core.shape import int_list
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.function import Op, check_inplace
from ..._core.registry import register
from .copying import clone
from ..._dtype import dtype as dtype_class, from_numpy_dtype

_ndarray = np.ndarray


def parse_shape(args, fn: str = "view", arg: str = "size", keyword=None) -> tuple:
    """``f(2, 3)``, ``f((2, 3))``, ``f(Size)`` and ``f(arg=(2, 3))`` (``keyword``) all give ``(2, 3)``; other values
    torch's TypeError naming ``fn``'s argument ``arg``."""
    if keyword is not None:
        if args:
            raise TypeError(f"{fn}() got multiple values for argument '{arg}'")
        args = (keyword,)
    return int_list(args, fn, arg, overloaded=fn == "view")


def dims_arg(args: tuple, dim, fn: str):
    """The ``dim`` of ``fn(0)``, ``fn((0, 1))``, ``fn(0, 1)`` or ``fn(dim=...)``."""
    if not args:
        return dim
    if dim is not None:
        raise TypeError(f"{fn}() got multiple values for argument 'dim'")
    return args[0] if len(args) == 1 else args


def infer_size(shape, numel: int) -> tuple:
    """Resolve one ``-1`` in ``shape`` for ``numel`` elements, with torch's errors."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for i, s in enumerate(shape):
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        if numel % known == 0:
            return tuple(numel // known if s == -1 else s for s in shape)
    elif known == numel:
        return tuple(shape)
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")


class View(Op):
    view = True

    @staticmethod
    def forward(ctx, a, shape=()):
        ctx.in_shape = a.shape
        try:
            return a.reshape(shape, copy=False)
        except ValueError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.") from None

    @staticmethod
    def backward(ctx, g):
        return g.reshape(ctx.in_shape)


def _viewable(a: np.ndarray, shape) -> bool:
    """Whether the strides of ``a`` allow ``shape`` without a copy."""
    try:
        a.reshape(shape, copy=False)
    except ValueError:
        return False
    return True


class UnsafeView(View):
    """The reshape of a fresh copy (reshape of a non-viewable tensor, matmul results)."""

    view = False


class ReshapeAlias(View):
    """``reshape`` of a non-contiguous tensor whose strides still allow a view."""


@register(top_level=False)
def view(input, *shape, size=None, dtype=None):
    """The same data with another shape (must be compatible with the strides), or another dtype."""
    if len(shape) == 1 and isinstance(shape[0], dtype_class):
        return _view_dtype(input, shape[0])
    if dtype is not None and not shape and size is None:
        return _view_dtype(input, dtype)
    return View.apply(input, shape=infer_size(parse_shape(shape, keyword=size), input._data.size))


def _view_dtype(input, dt):
    if dt.itemsize != input._data.itemsize:
        raise RuntimeError("view(dtype) with a different element size is not supported")
    t = Tensor._wrap(input._data.view(dt.np))
    t._vc, t._base = input._version_counter(), input._base if input._base is not None else input
    return t


@register
def reshape(input, *args, shape=None):
    """A view when the strides allow it, else a copy (of a tensor, or of an array inside a backward formula)."""
    data = input._data if isinstance(input, Tensor) else input
    shape = infer_size(parse_shape(args, "reshape", "shape", shape), data.size)
    if data.flags.c_contiguous:
        return View.apply(input, shape=shape)
    if _viewable(data, shape):
        return ReshapeAlias.apply(input, shape=shape)
    return UnsafeView.apply(clone(input), shape=shape)


@register(differentiable=False, top_level=False)
def resize_(self, *sizes, size=None, memory_format=None):
    """Give this tensor the shape ``sizes``, reading its elements in order (C-contiguously). When it
    grows the new elements are zeros (torch leaves them uninitialised); when it shrinks a contiguous
    tensor keeps sharing its memory."""
    shape = parse_shape(sizes, "resize_", keyword=size)
    if self._requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    n = int(np.prod(shape))
    flat = self._data.reshape(-1)
    if n <= flat.size and self._data.flags.c_contiguous:
        self._data = flat[:n].reshape(shape)
    else:
        data = np.zeros(n, self._data.dtype)
        data[:min(n, flat.size)] = flat[:n]
        self._data = data.reshape(shape)
    self._bump("resize_")
    return self


@register(differentiable=False)
def resize_as_(input, the_template, *, memory_format=None):
    """``input.resize_(the_template.shape)``."""
    return input.resize_(the_template._data.shape)


@register(top_level=False)
def resize(self, *sizes):
    """Deprecated: ``reshape`` to ``sizes``, which must keep the number of elements."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return _resized(self, sizes)


@register(top_level=False)
def resize_as(self, tensor):
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return _resized(self, tensor._data.shape)


def _resized(self, sizes):
    shape = parse_shape(sizes, "resize")
    if int(np.prod(shape)) != self._data.size:
        raise RuntimeError(f"requested resize to {'x'.join(map(str, shape))} ({int(np.prod(shape))} elements in "
                           f"total), but the given tensor has a size of {'x'.join(map(str, self._data.shape))} "
                           f"({self._data.size} elements). autograd's resize can only change the shape of a "
                           "given tensor, while preserving the number of elements. ")
    return self.reshape(shape)


@register(top_level=False)
def view_as(input, other):
    return view(input, other._data.shape)


@register(top_level=False)
def reshape_as(input, other):
    return reshape(input, other._data.shape)


@register
def flatten(input, start_dim: int = 0, end_dim: int = -1):
    """Merge dims ``start_dim..end_dim`` into one."""
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    s, e = _wrap_dim(start_dim, len(shape)), _wrap_dim(end_dim, len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


@register
def unflatten(input, dim: int, sizes):
    shape = input._data.shape
    d = _wrap_dim(dim, len(shape))
    try:
        sizes = infer_size(tuple(sizes), shape[d])
    except RuntimeError:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({shape[d]}) in the input tensor") from None
    return view(input, shape[:d] + sizes + shape[d + 1:])


@register
def ravel(input):
    """The elements as a 1-D tensor (a view of a contiguous tensor, else of a contiguous copy)."""
    return view(contiguous(input), -1)


class Permute(Op):
    view = True

    @staticmethod
    def forward(ctx, a, dims=()):
        ctx.dims = dims
        return a.transpose(dims)

    @staticmethod
    def backward(ctx, g):
        return permute(g, tuple(np.argsort(ctx.dims)))


@register
def permute(input, *args, dims=None):
    """Reorder the dimensions."""
    dims = parse_shape(args, "permute", "dims", dims)
    nd = np.ndim(input)
    if len(dims) != nd:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the length "
                           f"of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to "
                           f"len(dims) = {len(dims)}")
    dims = tuple(_wrap_dim(d, nd) for d in dims)
    if len(set(dims)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(input, dims=dims)


class Transpose(Op):
    view = True

    @staticmethod
    def forward(ctx, a, dim0=0, dim1=1):
        ctx.dims = (dim0, dim1)
        return a.swapaxes(dim0, dim1)

    @staticmethod
    def backward(ctx, g):
        return transpose(g, *ctx.dims)


class T(Transpose):
    pass


@register
def transpose(input, dim0: int, dim1: int):
    """Swap two dimensions."""
    nd = np.ndim(input)
    return Transpose.apply(input, dim0=_wrap_dim(dim0, nd), dim1=_wrap_dim(dim1, nd))


swapdims = register(transpose, aliases=("swapdims",))


@register
def swapaxes(input, axis0: int, axis1: int):
    """``transpose`` under numpy's name and parameter names."""
    return transpose(input, axis0, axis1)


@register
def t(input):
    """Transpose of a matrix (tensors with up to 2 dims)."""
    nd = input._data.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return T.apply(input, dim0=0, dim1=nd - 1 if nd else 0)


def T_property(self):
    """``x.T``: all dims reversed."""
    nd = self._data.ndim
    if nd != 2 and nd > 0:
        warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                      "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices "
                      "or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
                      UserWarning, stacklevel=2)
    return Permute.apply(self, dims=tuple(range(nd - 1, -1, -1)))


def mT_property(self):
    """``x.mT``: the last two dims swapped."""
    nd = self._data.ndim
    if nd < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {nd}-D tensor.")
    return Transpose.apply(self, dim0=nd - 2, dim1=nd - 1)


@register
def movedim(input, source, destination):
    nd = input._data.ndim
    src = [_wrap_dim(d, nd) for d in ((source,) if isinstance(source, int) else source)]
    dst = [_wrap_dim(d, nd) for d in ((destination,) if isinstance(destination, int) else destination)]
    order = [d for d in range(nd) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return Permute.apply(input, dims=tuple(order))


moveaxis = register(movedim, name="moveaxis")


class Squeeze(Op):
    view = True

    @staticmethod
    def forward(ctx, a, dims=None):
        ctx.in_shape = a.shape
        if dims is None:
            return a.reshape(tuple(s for s in a.shape if s != 1))
        return a.reshape(tuple(s for i, s in enumerate(a.shape) if not (i in dims and s == 1)))

    @staticmethod
    def backward(ctx, g):
        return g.reshape(ctx.in_shape)


SqueezeDim = Squeeze.named("SqueezeDim", "SqueezeBackward1")
SqueezeDims = Squeeze.named("SqueezeDims", "SqueezeBackward2")


@register
def squeeze(input, *args, dim=None):
    """Remove dims of size 1 (all, or the given ones: ``squeeze(0)``, ``squeeze((0, 1))``, ``squeeze(0, 1)``)."""
    dim = dims_arg(args, dim, "squeeze")
    nd = input._data.ndim
    if dim is None:
        return Squeeze.apply(input)
    if isinstance(dim, int):
        return SqueezeDim.apply(input, dims=(_wrap_dim(dim, nd),))
    return SqueezeDims.apply(input, dims=tuple(_wrap_dim(d, nd) for d in dim))


class Unsqueeze(Op):
    view = True

    @staticmethod
    def forward(ctx, a, dim=0):
        ctx.in_shape = a.shape
        return np.expand_dims(a, dim)

    @staticmethod
    def backward(ctx, g):
        return g.reshape(ctx.in_shape)


@register
def unsqueeze(input, dim: int):
    """Insert a dim of size 1 at ``dim``."""
    return Unsqueeze.apply(input, dim=_wrap_dim(dim, np.ndim(input) + 1))


# ---- in-place forms of view ops: the tensor itself takes the new shape -----------------------------------
def _reshaped_in_place(op: type, name: str):
    """The in-place form of view op ``op`` (named ``name`` as torch's node is): ``self`` takes the result's
    shape and, when recorded, its history goes through one ``op`` node; its version goes up."""
    inplace_op = type(op.__qualname__ + "_", (op,), {"view": False, "__qualname__": op.__qualname__ + "_"}, name=name)

    def apply(self, **params):
        check_inplace(self)
        out = inplace_op.apply(self, **params)
        self._data = out._data
        if out.grad_fn is not None:
            self.grad_fn, self._output_nr = out.grad_fn, 0
        self._bump(op.__qualname__.lower() + "_")
        return self
    return apply


_unsqueeze_ = _reshaped_in_place(Unsqueeze, "UnsqueezeBackward1")
_squeeze_ = {None: _reshaped_in_place(Squeeze, "SqueezeBackward3"), int: _reshaped_in_place(SqueezeDim, "SqueezeBackward4"),
             tuple: _reshaped_in_place(SqueezeDims, "SqueezeBackward5")}
_transpose_ = _reshaped_in_place(Transpose, "TransposeBackward1")
_t_ = _reshaped_in_place(T, "TBackward1")


@register(top_level=False)
def unsqueeze_(input, dim: int):
    return _unsqueeze_(input, dim=_wrap_dim(dim, input.dim() + 1))


@register(top_level=False)
def squeeze_(input, *args, dim=None):
    dim = dims_arg(args, dim, "squeeze_")
    nd = input.dim()
    if dim is None:
        return _squeeze_[None](input)
    if isinstance(dim, int):
        return _squeeze_[int](input, dims=(_wrap_dim(dim, nd),))
    return _squeeze_[tuple](input, dims=tuple(_wrap_dim(d, nd) for d in dim))


@register(top_level=False, aliases=("swapdims_",))
def transpose_(input, dim0: int, dim1: int):
    nd = input.dim()
    return _transpose_(input, dim0=_wrap_dim(dim0, nd), dim1=_wrap_dim(dim1, nd))


@register(top_level=False)
def swapaxes_(input, axis0: int, axis1: int):
    return transpose_(input, axis0, axis1)


@register(top_level=False)
def t_(input):
    nd = input.dim()
    if nd > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return _t_(input, dim0=0, dim1=nd - 1 if nd else 0)


class Expand(Op):
    view = True

    @staticmethod
    def forward(ctx, a, shape=()):
        ctx.in_shape = a.shape
        return np.broadcast_to(a, shape)

    @staticmethod
    def backward(ctx, g):
        return sum_to_size(g, ctx.in_shape)


@register(top_level=False)
def expand(input, *sizes, size=None, implicit: bool = False):
    """Broadcast to a larger shape without copying (-1 keeps a dim)."""
    return Expand.apply(input, shape=expanded_shape(input, parse_shape(sizes, "expand", keyword=size)))


def expanded_shape(input, sizes) -> tuple:
    """The shape ``input`` (tensor or array) expands to for ``sizes``, checked as torch checks it."""
    shape = np.shape(input)
    nd, new = len(shape), len(sizes)
    if new < nd:
        name = from_numpy_dtype((input._data if isinstance(input, Tensor) else input).dtype).legacy_name
        raise RuntimeError(f"expand({name}{{{list(shape)}}}, size={list(sizes)}): the number of sizes provided "
                           f"({new}) must be greater or equal to the number of dimensions in the tensor ({nd})")
    target = list(sizes)
    for i in range(new - 1, -1, -1):  # from the last dim, as torch reports the last mismatch
        j, s = i - (new - nd), sizes[i]
        if j < 0:
            if s == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        elif s == -1:
            target[i] = shape[j]
        elif shape[j] != s and shape[j] != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({shape[j]}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                               f"Tensor sizes: {list(shape)}")
    return tuple(target)


@register(top_level=False)
def expand_as(input, other):
    return expand(input, other.shape)


@register
def broadcast_to(input, *args, size=None):
    return expand(input, *args, size=size)


class SumToSize(Op, name="SumBackward1"):
    """Sum over broadcast dims down to ``shape``: the gradient of broadcasting."""

    @staticmethod
    def forward(ctx, a, shape=()):
        """Keeps the summed leading dims (size 1); ``sum_to_size`` views them away, as torch does."""
        ctx.in_shape = a.shape
        lead = a.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and a.shape[i + lead] != 1)
        return a.sum(axis=axes, keepdims=True) if axes else a

    @staticmethod
    def backward(ctx, g):
        return expand(g, ctx.in_shape)


@register(top_level=False)
def sum_to_size(input, *args, size=None):
    """Sum ``input`` down to ``size`` (which it must broadcast to)."""
    shape = parse_shape(args, "sum_to_size", keyword=size)
    if tuple(np.shape(input)) == shape:
        return input
    r = SumToSize.apply(input, shape=shape)
    return View.apply(r, shape=shape) if np.ndim(r) != len(shape) else r


class Repeat(Op):
    @staticmethod
    def forward(ctx, a, repeats=()):
        ctx.in_shape, ctx.repeats = a.shape, repeats
        return np.tile(a, repeats)

    @staticmethod
    def backward(ctx, g):
        shape = (1,) * (len(ctx.repeats) - len(ctx.in_shape)) + ctx.in_shape
        split_shape = []
        for r, s in zip(ctx.repeats, shape):
            split_shape += [r, s]
        g = g.reshape(tuple(split_shape)).sum(axis=tuple(range(0, len(split_shape), 2)))
        return g.reshape(ctx.in_shape)


@register
def repeat(input, *args, repeats=None):
    """Tile the tensor ``repeats[i]`` times along each dim."""
    repeats = parse_shape(args, "repeat", "repeats", repeats)
    if len(repeats) < input._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    return Repeat.apply(input, repeats=repeats)


@register
def tile(input, *args, dims=None):
    """Repeat along each dim (``dims`` as ints or one sequence); missing leading dims repeat once."""
    dims = parse_shape(args, "tile", "dims", dims)
    return repeat(input, (1,) * (input._data.ndim - len(dims)) + dims)


class Flip(Op):
    @staticmethod
    def forward(ctx, a, dims=()):
        ctx.dims = dims
        return np.flip(a, dims).copy() if a.ndim else a.copy()  # dim 0 of a 0-dim tensor: nothing to flip

    @staticmethod
    def backward(ctx, g):
        return flip(g, ctx.dims)


@register
def flip(input, *args, dims=None):
    nd = np.ndim(input)
    dims = parse_shape(args, "flip", "dims", dims)
    return Flip.apply(input, dims=tuple(_wrap_dim(d, nd) for d in dims))


class Roll(Op):
    """Elements shifted along dims, wrapping around (all elements, flattened, when no dims are given)."""

    @staticmethod
    def forward(ctx, a, shifts=(), dims=None):
        ctx.shifts, ctx.dims = shifts, dims
        return np.roll(a, shifts, dims)

    @staticmethod
    def backward(ctx, g):
        return Roll.apply(g, shifts=tuple(-s for s in ctx.shifts), dims=ctx.dims)


@register
def roll(input, shifts, dims=None):
    """``input`` with its elements shifted by ``shifts`` along ``dims``, wrapping around."""
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = () if dims is None else (dims,) if isinstance(dims, int) else tuple(dims)
    if not dims and len(shifts) == 1:
        return Roll.apply(input, shifts=shifts, dims=None)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    return Roll.apply(input, shifts=shifts, dims=tuple(_wrap_dim(d, np.ndim(input)) for d in dims))


@register(top_level=False)
def contiguous(input, memory_format=None):
    """``input`` itself when C-contiguous, else a contiguous copy in the graph."""
    if input._data.flags.c_contiguous:
        return input
    return clone(input)


@register
def rot90(input, k: int = 1, dims=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims`` (from the first towards the second)."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    d0, d1 = dims
    k %= 4
    if k == 1:
        return transpose(flip(input, [d1]), d0, d1)
    if k == 2:
        return flip(input, [d0, d1])
    if k == 3:
        return flip(transpose(input, d0, d1), [d1])
    return input.clone()
