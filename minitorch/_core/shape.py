"""Shapes and memory layouts, below the Tensor: ``Size``, broadcasting and its errors, list-of-ints arguments,
and the ``layout`` and ``memory_format`` constants."""
from __future__ import annotations

import operator

import numpy as np


class Size(tuple):
    """The shape of a tensor: a tuple of ints that prints as ``minitorch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"minitorch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))


class _Constant:
    """A named constant of a torch enum type: ``minitorch.strided``; users cannot make new ones."""

    __slots__ = ("_name",)

    def __new__(cls, *args, **kwargs):
        raise TypeError(f"cannot create 'minitorch.{cls.__name__}' instances")

    @classmethod
    def _make(cls, name: str):
        obj = object.__new__(cls)
        obj._name = name
        return obj

    def __repr__(self) -> str:
        return "minitorch." + self._name

    def __reduce__(self):
        return (_constant, (self._name,))


class layout(_Constant):
    """How a tensor's elements are stored: dense (``minitorch.strided``) or as sparse COO indices and values
    (``minitorch.sparse_coo``, see ``minitorch.sparse``); the compressed layouts are names only."""

    __slots__ = ()


class memory_format(_Constant):
    """The memory order asked of a new tensor (``contiguous_format``, ``channels_last``, ...)."""

    __slots__ = ()


def _constant(name: str):
    """The constant named ``name`` (how pickle finds one again)."""
    return globals()[name]


layout.__module__ = memory_format.__module__ = "minitorch"
strided = layout._make("strided")
sparse_coo = layout._make("sparse_coo")
sparse_csr, sparse_csc = layout._make("sparse_csr"), layout._make("sparse_csc")
sparse_bsr, sparse_bsc = layout._make("sparse_bsr"), layout._make("sparse_bsc")
contiguous_format = memory_format._make("contiguous_format")
preserve_format = memory_format._make("preserve_format")
channels_last = memory_format._make("channels_last")
channels_last_3d = memory_format._make("channels_last_3d")


# ---- broadcasting and arguments ------------------------------------------------------------------
def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` (ints or sequences of ints) broadcast to."""
    result: list = []
    for i, given in enumerate(shapes):
        shape = (given,) if isinstance(given, int) else tuple(given)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for k in range(1, len(shape) + 1):
            s = shape[-k]
            if s == 1 or s == result[-k]:
                continue
            if result[-k] != 1 or s < 0:
                had = shape if isinstance(given, int) else given  # as given: (3, 2), [3, 2] or Size([3, 2])
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s} at {-k}! Mismatching "
                                   f"argument at index {i} had {had}; but expected shape should be broadcastable "
                                   f"to {result}")
            result[-k] = s
    return Size(result)


_HEAP_TYPE = 1 << 9  # the flag of a class defined in Python: errors name it bare, C types with their module


def type_name(value) -> str:
    """The type of ``value`` as Python's own errors name it: ``float``, ``Tensor``, ``numpy.float64``."""
    t = type(value)
    return t.__name__ if t.__module__ == "builtins" or t.__flags__ & _HEAP_TYPE else f"{t.__module__}.{t.__name__}"


def int_list(args, fn: str, arg: str, position: int = 1, overloaded: bool = False) -> tuple:
    """The ints of a list-of-ints argument given as ``f(2, 3)``, ``f((2, 3))``, ``f([2, 3])`` or ``f(Size)``, with the
    TypeErrors of torch's argument parser for other values: ``fn`` and ``arg`` name the function and the argument
    (``position`` its place), ``overloaded`` says ``fn`` has a signature taking something else first (``view``)."""
    packed = len(args) == 1 and isinstance(args[0], (tuple, list))
    values = args[0] if packed else args
    try:
        return tuple(v if type(v) is int else operator.index(v) for v in values)
    except TypeError:
        pass
    bad = next(k for k, v in enumerate(values) if not _is_index(v))
    name = type_name(values[bad])
    if bad and (packed or len(args) > 1):
        raise TypeError(f"{fn}(): argument '{arg}' failed to unpack the object at pos {bad + 1} with error \"type must "
                        f"be tuple of ints,but got {name}\"")
    if packed:
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, but found element of "
                        f"type {name} at pos 0")
    if overloaded:
        raise TypeError(f"{fn}() received an invalid combination of arguments - got "
                        f"({', '.join(type_name(a) for a in args)}), but expected one of:")
    if len(args) > 1:
        raise TypeError(f"{fn}() takes 1 positional argument but {len(args)} were given")
    raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, not {name}")


def _is_index(value) -> bool:
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def broadcast_shape(*shapes) -> tuple:
    """The shape that elementwise ops broadcast ``shapes`` to, or torch's error for the first pair that does not
    broadcast. The one check of the ops: ``Op.apply`` also reads numpy's broadcasting errors through it."""
    shape = ()
    for s in shapes:
        try:
            shape = np.broadcast_shapes(shape, s)
        except ValueError:
            raise shape_mismatch(shape, s) from None
    return shape


def shape_mismatch(sa, sb) -> RuntimeError:
    """torch's error for shapes ``sa`` and ``sb`` that do not broadcast (the last mismatching dim)."""
    sa, sb = tuple(sa), tuple(sb)
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for d in range(n - 1, -1, -1):
        if pa[d] != pb[d] and pa[d] != 1 and pb[d] != 1:
            return RuntimeError(f"The size of tensor a ({pa[d]}) must match the size of tensor b ({pb[d]}) "
                                f"at non-singleton dimension {d}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast together")


def output_mismatch(out_shape, shape) -> RuntimeError:
    """torch's error for an in-place or ``out=`` result of ``shape`` that does not fit its output's ``out_shape``."""
    return RuntimeError(f"output with shape {list(out_shape)} doesn't match the broadcast shape {list(shape)}")
