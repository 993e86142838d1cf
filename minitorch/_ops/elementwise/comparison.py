"""Comparisons, logical and bitwise ops (and shifts), and value tests (isnan, allclose, ...): no gradients.

Their in-place forms write the result into the input in its own dtype (``x.ge_(0)`` leaves 0.0/1.0 in a float
tensor); on a float tensor in a graph the comparisons record a node with a zero gradient, as torch's do."""
from __future__ import annotations

import builtins
import inspect

import numpy as np

from ..._core.tensor import Tensor
from ..._dtype import C_NAMES, from_numpy_dtype, wrap_int
from ..._core.shape import type_name
from ..._core.function import Op, _write_back, check_inplace, zeros_for
from .broadcast import _scalar, binary, broadcast_shape, result_dtype, shape_mismatch
from .unary import _not_for
from ..._core.registry import located, operator_alias, register

_ndarray = np.ndarray


def _array_of(x):
    return x._data if isinstance(x, Tensor) else x


def _compare(ufunc, name, logical=False, aliases=(), operators=()):
    """The registered comparison (or logical op) ``name``: no gradient, ``out=`` added by the registry."""
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        if type(b) is not _ndarray:
            if not isinstance(b, (int, float, builtins.complex, np.generic)):  # not for numpy: torch's TypeError
                raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type_name(other)}"
                                if logical else f"{name}() received an invalid combination of arguments - got "
                                f"({type_name(input)}, {type_name(other)}), but expected one of:")
            b = _scalar(b)
            if type(b) is int and a.dtype.kind in "iu" and not _fits(b, a.dtype):
                b = wrap_int(b, a.dtype)  # torch compares in the tensor's dtype: -1 is 255 for uint8
        try:
            return Tensor._wrap(np.asarray(ufunc(a, b)))
        except ValueError as e:
            raise shape_mismatch(np.shape(a), np.shape(b)) from e
    op.__name__ = ufunc.__name__
    return register(op, name=name, aliases=aliases, operators=operators, out=True, differentiable=False)


def _fits(value: int, dt: np.dtype) -> bool:
    info = np.iinfo(dt)
    return info.min <= value <= info.max


eq = _compare(np.equal, "eq")
ne = _compare(np.not_equal, "ne", aliases=("not_equal",))
lt = _compare(np.less, "lt", aliases=("less",), operators=("__lt__",))
le = _compare(np.less_equal, "le", aliases=("less_equal",), operators=("__le__",))
gt = _compare(np.greater, "gt", aliases=("greater",), operators=("__gt__",))
ge = _compare(np.greater_equal, "ge", aliases=("greater_equal",), operators=("__ge__",))
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


@operator_alias("__eq__")
def _eq(self, other):
    return False if other is None else eq(self, other)


@operator_alias("__ne__")
def _ne(self, other):
    return True if other is None else ne(self, other)

logical_and = _compare(np.logical_and, "logical_and", logical=True)
logical_or = _compare(np.logical_or, "logical_or", logical=True)
logical_xor = _compare(np.logical_xor, "logical_xor", logical=True)


def _bitwise(ufunc, name):
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        _not_for(np.empty(0, result_dtype(a, b)), "f", name + "_cpu")
        return Tensor._wrap(np.asarray(binary(ufunc, a, b)))
    return register(op, name=name, out=True, differentiable=False)


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


@register(differentiable=False, out=True)
def logical_not(input):
    return Tensor._wrap(np.logical_not(input._data))


def _shift(left: bool):
    kernel = "lshift_cpu" if left else "rshift_cpu"

    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        dt = result_dtype(a, b)
        _not_for(np.empty(0, dt), "bf", kernel)
        a, b = np.asarray(wrap_int(a, dt), dt), np.asarray(wrap_int(b, dt), dt)
        # torch: a shift by a negative amount or by the bit width or more gives 0 (or -1, a right shift of a
        # negative number); numpy leaves that to the machine
        bad = (b < 0) | (b >= 8 * dt.itemsize)
        b = np.where(bad, 0, b).astype(dt)
        try:
            if left:
                r = np.where(bad, 0, np.left_shift(a, b))
            else:
                r = np.where(bad, np.where(a < 0, -1, 0) if dt.kind == "i" else 0, np.right_shift(a, b))
        except ValueError:
            raise shape_mismatch(a.shape, b.shape) from None
        return Tensor._wrap(r.astype(dt, copy=False))
    op.__name__ = "bitwise_left_shift" if left else "bitwise_right_shift"
    return op


bitwise_left_shift = register(_shift(left=True), out=True, differentiable=False, operators=("__lshift__",))
bitwise_right_shift = register(_shift(left=False), out=True, differentiable=False, operators=("__rshift__",))


@operator_alias("__rlshift__")
def _rlshift(self, other):
    return bitwise_left_shift(other, self)


@operator_alias("__rrshift__")
def _rrshift(self, other):
    return bitwise_right_shift(other, self)


@register(differentiable=False, out=True)
def bitwise_not(input):
    if input._data.dtype.kind in "fV":
        raise NotImplementedError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return Tensor._wrap(np.invert(input._data))


@register(differentiable=False)
def isnan(input):
    return Tensor._wrap(np.isnan(input._data))


@register(differentiable=False)
def isinf(input):
    return Tensor._wrap(np.isinf(input._data))


@register(differentiable=False)
def isfinite(input):
    return Tensor._wrap(np.isfinite(input._data))


@register(differentiable=False, out=True)
def isposinf(input):
    return Tensor._wrap(np.isposinf(input._data))


@register(differentiable=False, out=True)
def isneginf(input):
    return Tensor._wrap(np.isneginf(input._data))


@register(differentiable=False)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (tensors of one dtype)."""
    a, b = _same_dtype(input, other)
    return Tensor._wrap(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


@register(differentiable=False)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True when ``|input - other| <= atol + rtol * |other|`` everywhere."""
    a, b = _same_dtype(input, other)
    return builtins.bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _same_dtype(input, other):
    """The arrays of two tensors that must share a dtype and broadcast together, with torch's errors."""
    a, b = input._data, other._data
    if a.dtype != b.dtype:
        raise RuntimeError(f"{C_NAMES[from_numpy_dtype(a.dtype)]} did not match {C_NAMES[from_numpy_dtype(b.dtype)]}")
    broadcast_shape(a.shape, b.shape)
    return a, b


@register(differentiable=False)
def equal(input, other) -> bool:
    """True when both tensors have the same shape and elements."""
    return input._data.shape == other._data.shape and builtins.bool(np.array_equal(input._data, other._data))


@register(differentiable=False, out=True)
def signbit(input):
    return Tensor._wrap(np.signbit(input._data))


# ---- in-place forms -------------------------------------------------------------------------------------------
class _Compare(Op):
    """An in-place comparison: the gradient is zero (torch records GeBackward0, ... on float tensors)."""

    compare = None

    @classmethod
    def forward(cls, ctx, a, b):
        return np.asarray(cls.compare(a, b)._data)

    @staticmethod
    def backward(ctx, g):
        return zeros_for(g), (zeros_for(g) if ctx.needs_input_grad[1] else None)


def _inplace_compare(name, function):
    """``input.<name>_(other)``; torch names its nodes by the kind of ``other``: GeBackward0 (a number), GeBackward1."""
    number, tensor = (type(name.capitalize(), (_Compare,), {"compare": staticmethod(function), "__module__": __name__},
                           name=f"{name.capitalize()}Backward{nr}").inplace_variant() for nr in (0, 1))

    def op_(input, other):
        return (tensor if isinstance(other, Tensor) else number).apply(input, other)
    op_.__name__ = op_.__qualname__ = name + "_"
    return register(op_, top_level=False)


def _inplace_write(name, function, top_level=False, operators=()):
    """``input.<name>_(...)`` for an op without gradient: its result written into ``input``, the graph untouched
    (as torch does for the logical and bitwise ops)."""
    def op_(input, *args, **kwargs):
        check_inplace(input)
        _write_back(input._data, np.asarray(function(input, *args, **kwargs)._data))
        input._bump(name + "_")
        return input
    op_.__name__ = op_.__qualname__ = name + "_"
    signature = inspect.signature(function)
    op_.__signature__ = signature.replace(parameters=[p for p in signature.parameters.values() if p.name != "out"])
    op_.__module__ = function.__module__  # where op_ is bound to a name (the generated index finds it there)
    op_ = located(op_, function.__code__.co_filename, function.__code__.co_firstlineno)  # (and its source)
    return register(op_, top_level=top_level, operators=operators, differentiable=False)


eq_, ne_, lt_ = _inplace_compare("eq", eq), _inplace_compare("ne", ne), _inplace_compare("lt", lt)
le_, gt_, ge_ = _inplace_compare("le", le), _inplace_compare("gt", gt), _inplace_compare("ge", ge)
not_equal_ = register(ne_, name="not_equal_", top_level=False)
less_ = register(lt_, name="less_", top_level=False)
less_equal_ = register(le_, name="less_equal_", top_level=False)
greater_ = register(gt_, name="greater_", top_level=False)
greater_equal_ = register(ge_, name="greater_equal_", top_level=False)
logical_and_ = _inplace_write("logical_and", logical_and)
logical_or_ = _inplace_write("logical_or", logical_or)
logical_xor_ = _inplace_write("logical_xor", logical_xor)
logical_not_ = _inplace_write("logical_not", logical_not)
bitwise_and_ = _inplace_write("bitwise_and", bitwise_and, operators=("__iand__",))
bitwise_or_ = _inplace_write("bitwise_or", bitwise_or, operators=("__ior__",))
bitwise_xor_ = _inplace_write("bitwise_xor", bitwise_xor, operators=("__ixor__",))
bitwise_not_ = _inplace_write("bitwise_not", bitwise_not)
bitwise_left_shift_ = _inplace_write("bitwise_left_shift", bitwise_left_shift, operators=("__ilshift__",))
bitwise_right_shift_ = _inplace_write("bitwise_right_shift", bitwise_right_shift, operators=("__irshift__",))


def _logical_or_bitwise(logical, bitwise):
    """The operator ``&`` (``|``, ``^``): the logical op for two booleans, else the bitwise one."""
    def op(self, other):
        a = self._data.dtype.kind == "b"
        b = other._data.dtype.kind == "b" if isinstance(other, Tensor) else isinstance(other, bool)
        return logical(self, other) if a and b else bitwise(self, other)
    return op


_and = operator_alias("__and__", "__rand__")(_logical_or_bitwise(logical_and, bitwise_and))
_or = operator_alias("__or__", "__ror__")(_logical_or_bitwise(logical_or, bitwise_or))
_xor = operator_alias("__xor__", "__rxor__")(_logical_or_bitwise(logical_xor, bitwise_xor))


@operator_alias("__invert__")
def _invert(self):
    if self._data.dtype.kind in "fV":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return logical_not(self) if self._data.dtype.kind == "b" else bitwise_not(self)
