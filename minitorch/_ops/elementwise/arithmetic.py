"""Arithmetic with broadcasting: + - * / ** remainder and fmod, and the fused addcmul, addcdiv and lerp, with their
in-place forms (maximum, minimum, where and clamp are in ``clamp.py``).

Each op is a row of the derivatives table: ``forward`` on numpy arrays,
``backward`` in operators and ops, so it also runs on tensors for
higher-order gradients. The engine reduces broadcast gradients to the inputs' shapes.
"""
from __future__ import annotations

import warnings

import numpy as np

from ... import _dtype
from ..._core.tensor import Tensor
from ..._core.function import NoDerivative, Op, zeros_for
from ..._core.out import _out
from .broadcast import _scalar, binary, broadcast_shape, result_dtype
from .complex import conj_if_complex as _conj
from .clamp import where
from .unary import log, reciprocal
from ..._core.registry import operator_alias, register

_ndarray = np.ndarray
_NUMBERS = (int, float, complex, bool)  # Python numbers (exactly: numpy's scalars are a tensor's data)


class Add(Op):
    operators, inplace_operators = ("__add__", "__radd__"), ("__iadd__",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        r = binary(np.add, a, b) if alpha == 1 else binary(np.add, a, binary(np.multiply, b, alpha))
        return r

    @staticmethod
    def backward(ctx, g):
        return g, (g if ctx.alpha == 1 else g * ctx.alpha)


class Sub(Op):
    operators, inplace_operators = ("__sub__",), ("__isub__",)

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        r = _sub(ctx, a, b, alpha)
        return r

    @staticmethod
    def backward(ctx, g):
        return g, _minus_alpha(ctx, g)


def _sub(ctx, a, b, alpha):
    """``a - alpha * b``, refusing bools as torch does."""
    _no_bool_sub(a, b)
    ctx.alpha = alpha
    return binary(np.subtract, a, b if alpha == 1 else binary(np.multiply, b, alpha))


def _minus_alpha(ctx, g):
    return -g if ctx.alpha == 1 else g * -ctx.alpha


def _no_bool_sub(a, b):
    a_bool, b_bool = np.result_type(a) == np.bool_, np.result_type(b) == np.bool_
    if a_bool and b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")


class Rsub(Op, name="RsubBackward1"):
    """``scalar - tensor``."""

    @staticmethod
    def forward(ctx, a, other=0, alpha=1):
        return _sub(ctx, other, a, alpha)

    @staticmethod
    def backward(ctx, g):
        return _minus_alpha(ctx, g)


class RsubTensor(Op, name="RsubBackward0"):
    """``rsub(input, other)`` with a tensor ``other``: ``other - alpha * input``."""

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        r = _sub(ctx, b, a, alpha)
        return r

    @staticmethod
    def backward(ctx, g):
        return _minus_alpha(ctx, g), g


class Mul(Op):
    operators = ("__mul__", "__rmul__")
    save_for = (1, 0)  # a for b's gradient, b for a's

    @staticmethod
    def forward(ctx, a, b):
        # a Python number needs no gradient: the other factor is not kept (save_for drops it too, later)
        ctx.save_for_backward(None if type(b) in _NUMBERS else a, None if type(a) in _NUMBERS else b)
        r = binary(np.multiply, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * _conj(b) if need_a else None), (g * _conj(a) if need_b else None)


class Div(Op):
    operators = ("__truediv__",)
    save_for = (1, None)  # a for b's gradient; b for both

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        dt = result_dtype(a, b)
        r = binary(np.true_divide, a, b, dt if dt.kind in "fcV" else _dtype.get_default_dtype().np)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        b = _conj(b)
        ga = g / b if need_a else None
        gb = -g * _conj(a) / (b * b) if need_b else None
        return ga, gb


class Pow(Op, name="PowBackward1"):
    """``tensor ** tensor``."""

    @staticmethod
    def forward(ctx, a, b):
        r = _power(a, b)
        ctx.save_for_backward(a, b, r)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b, r = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        # torch defines d/da as 0 where b == 0, and d/db = a**b log(a) as 0 where a == 0 and b >= 0
        ga = where(b == 0, 0.0, g * b * a ** (b - 1)) if need_a else None
        gb = where((a == 0) & (b >= 0), 0.0, g * r * log(a)) if need_b else None
        return ga, gb


class PowScalar(Op, name="PowBackward0"):
    """``tensor ** number``."""

    @staticmethod
    def forward(ctx, a, exponent=1):
        _check_int_pow(a, exponent)
        ctx.exponent = exponent
        ctx.save_for_backward(a)
        if exponent == 2 and a.dtype.kind in "fV":
            return binary(np.multiply, a, a)
        if exponent == -0.5 and a.dtype.kind in "fV":  # torch's rsqrt: -inf at -0.0 and NaN at -inf, as sqrt
            with np.errstate(divide="ignore", invalid="ignore"):
                return 1 / np.sqrt(a)
        return binary(np.power, a, exponent)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return zeros_for(g)
        if e == 2:
            return g * _conj(a) * 2.0
        return g * _conj(e * a ** (e - 1))


class RPow(Op, name="PowBackward2"):
    """``number ** tensor``."""

    @staticmethod
    def forward(ctx, a, base=1):
        with np.errstate(divide="ignore", invalid="ignore"):
            ctx.log_base = float(np.log(base))
        r = _power(base, a)
        ctx.save_for_backward(r, a if base == 0 else None)
        return r

    @staticmethod
    def backward(ctx, g):
        r, a = ctx.saved_tensors
        if a is None:
            return g * r * ctx.log_base
        return where(a >= 0, 0.0, g * r * ctx.log_base)  # 0 ** a: torch's gradient is 0 where a >= 0


def _check_int_pow(a, b):
    if np.result_type(a).kind in "iu" and np.result_type(b).kind in "iu" and np.any(np.asarray(b) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def _power(a, b):
    """``a ** b`` in torch's dtype. An integer to a negative integer power is ``1 / a**|b|``
    truncated (1, -1 or 0), as torch computes it for tensor exponents."""
    if result_dtype(a, b).kind in "fV" or not np.any(np.asarray(b) < 0):
        return binary(np.power, a, b)
    r = binary(np.power, a, np.maximum(b, 0))
    reciprocal = np.where(a == 1, 1, np.where(a == -1, 1 - 2 * (np.abs(b) % 2), 0))
    return np.where(np.asarray(b) < 0, reciprocal, r).astype(r.dtype)


def _remainder(a, b, dtype=None, casting=None):
    """torch's remainder: ``fmod(a, b)``, plus ``b`` where that has the other sign than ``b`` (so -0.0 % 2 is -0.0,
    where numpy gives 0.0)."""
    m = np.asarray(np.fmod(a, b, dtype=dtype, casting=casting) if dtype is not None else np.fmod(a, b))
    np.add(m, b, out=m, where=(m != 0) & ((np.asarray(b) < 0) != (m < 0)), casting="unsafe")
    return m


class Remainder(Op, name="RemainderBackward1"):
    """``a - floor(a / b) * b`` (the sign of ``b``, as Python's ``%``)."""

    fn, rounding = staticmethod(_remainder), "floor"

    @classmethod
    def forward(cls, ctx, a, b):
        _no_int_zero_division(a, b)
        ctx.save_for_backward(a, b)
        r = binary(cls.fn, a, b)
        return r

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx.saved_tensors
        return g, (-g * div(a, b, rounding_mode=cls.rounding) if ctx.needs_input_grad[1] else None)


class RemainderScalar(Op, name="RemainderBackward0"):
    fn = staticmethod(_remainder)

    @classmethod
    def forward(cls, ctx, a, other=1):
        _no_int_zero_division(a, other)
        return binary(cls.fn, a, other)

    @staticmethod
    def backward(ctx, g):
        return g


class Fmod(Remainder, name="FmodBackward1"):
    """``a - trunc(a / b) * b`` (the sign of ``a``, as C's ``fmod``)."""

    fn, rounding = staticmethod(np.fmod), "trunc"


class FmodScalar(RemainderScalar, name="FmodBackward0"):
    fn = staticmethod(np.fmod)


def _no_int_zero_division(a, b):
    if result_dtype(a, b).kind not in "fV" and not np.all(b):
        raise RuntimeError("ZeroDivisionError")


class DivRounded(Op, name="DivBackward2"):
    """Division rounded down (``'floor'``) or toward zero (``'trunc'``): the gradient is zero."""

    @staticmethod
    def forward(ctx, a, b, mode="floor"):
        _no_int_zero_division(a, b)
        dt = result_dtype(a, b)
        if mode == "floor":
            r = binary(np.floor_divide, a, b)
        elif dt.kind in "fV":
            r = np.trunc(binary(np.true_divide, a, b))
        else:  # exact integer truncation (a float quotient loses precision)
            r = binary(np.floor_divide, np.abs(a), np.abs(b)) * binary(np.multiply, np.sign(a), np.sign(b))
        return r

    @staticmethod
    def backward(ctx, g):
        return zeros_for(g), zeros_for(g)


class FloorDivide(NoDerivative, DivRounded):
    """``a // b``: torch records it without a derivative."""

    aten = "floor_divide"


# ---- functions ---------------------------------------------------------------------------------
def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.generic)) and not isinstance(x, (_ndarray, Tensor))


def _alpha_first(name: str, other, rest: tuple, alpha):
    """``(other, alpha)``, accepting torch's deprecated ``name(Number alpha, Tensor other)`` overload with its
    warning."""
    if not rest:
        return other, alpha
    if len(rest) == 1 and _is_number(other) and isinstance(rest[0], Tensor):
        warnings.warn(f"This overload of {name} is deprecated:\n\t{name}(Number alpha, Tensor other)\nConsider using "
                      f"one of the following signatures instead:\n\t{name}(Tensor other, *, Number alpha = 1)",
                      UserWarning, stacklevel=3)
        return rest[0], other
    raise TypeError(f"{name}() takes 2 positional arguments but {2 + len(rest)} were given")


@register(binary=True)
def add(input, other, *rest, alpha=1, out=None):
    """``input + alpha * other`` with broadcasting."""
    other, alpha = _alpha_first("add", other, rest, alpha)
    return _out(Add.apply(input, other, alpha=alpha), out)


@register(binary=True)
def sub(input, other, *rest, alpha=1, out=None):
    """``input - alpha * other`` with broadcasting."""
    other, alpha = _alpha_first("sub", other, rest, alpha)
    return _out(Sub.apply(input, other, alpha=alpha), out)


subtract = register(sub, name="subtract")


@register(method=False, operators=("__rsub__",))
def rsub(input, other, alpha=1):
    """``other - alpha * input``."""
    if _is_number(other):
        return Rsub.apply(input, other=other, alpha=alpha)
    return RsubTensor.apply(input, other, alpha=alpha)


@register(binary=True)
def mul(input, other, *, out=None):
    return _out(Mul.apply(input, other), out)


multiply = register(mul, name="multiply")


@register(binary=True)
def div(input, other, *, rounding_mode=None, out=None):
    """True division, or ``rounding_mode='floor'`` / ``'trunc'`` (integers stay integers)."""
    return _out(_div_op(rounding_mode, Div, DivRounded).apply(input, other, **_mode(rounding_mode)), out)


divide = true_divide = register(div, aliases=("divide", "true_divide"))


@operator_alias("__rtruediv__")
def _rtruediv(self, other):
    return reciprocal(self) * other


def _div_op(rounding_mode, true_op, rounded_op):
    if rounding_mode is None:
        return true_op
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    return rounded_op


def _mode(rounding_mode):
    return {} if rounding_mode is None else {"mode": rounding_mode}


@register(derivative=False, out=True, operators=("__floordiv__",))
def floor_divide(input, other):
    """``input // other``, rounded down."""
    return FloorDivide.apply(input, other)


@operator_alias("__rfloordiv__")
def _rfloordiv(self, other):
    return floor_divide(other, self)


@register(binary=True, out=True, operators=("__mod__",))
def remainder(input, other):
    """``input - floor(input / other) * other``."""
    if _is_number(other):
        return RemainderScalar.apply(input, other=_scalar(other))
    return Remainder.apply(input, other)


@operator_alias("__rmod__")
def _rmod(self, other):
    return remainder(other, self)


@register(binary=True, out=True)
def fmod(input, other):
    """``input - trunc(input / other) * other``."""
    if _is_number(other):
        return FmodScalar.apply(input, other=_scalar(other))
    return Fmod.apply(input, other)


@register(out=True, operators=("__pow__",))
def pow(input, exponent):  # noqa: A001
    """``input ** exponent``; either may be a number."""
    if _is_number(exponent):
        return PowScalar.apply(input, exponent=_scalar(exponent))
    if _is_number(input):
        return RPow.apply(exponent, base=_scalar(input))
    return Pow.apply(input, exponent)


@operator_alias("__rpow__")
def _rpow(self, other):
    return pow(other, self)


@register(out=True)
def square(input):
    return PowScalar.apply(input, exponent=2)


# in-place forms: same formulas, result written into the first input
_Add_, _Sub_ = Add.inplace_variant(), Sub.inplace_variant()


@register(top_level=False)
def add_(input, other, *rest, alpha=1):
    other, alpha = _alpha_first("add_", other, rest, alpha)
    return _Add_.apply(input, other, alpha=alpha)


@register(top_level=False)
def sub_(input, other, *rest, alpha=1):
    other, alpha = _alpha_first("sub_", other, rest, alpha)
    return _Sub_.apply(input, other, alpha=alpha)


mul_ = Mul.inplace_function(operators=("__imul__",))
_Div_ = Div.inplace_variant()
_PowScalar_ = PowScalar.inplace_variant()
_Pow_ = Pow.inplace_variant()
_DivRounded_ = DivRounded.inplace_variant()


@register(top_level=False, operators=("__itruediv__",))
def div_(input, other, *, rounding_mode=None):
    return _div_op(rounding_mode, _Div_, _DivRounded_).apply(input, other, **_mode(rounding_mode))


@register(top_level=False, operators=("__ipow__",))
def pow_(input, exponent):
    if _is_number(exponent):
        return _PowScalar_.apply(input, exponent=_scalar(exponent))
    return _Pow_.apply(input, exponent)


@register
def square_(input):
    return _PowScalar_.apply(input, exponent=2)


_RemainderScalar_, _Remainder_ = RemainderScalar.inplace_variant(), Remainder.inplace_variant()
_FmodScalar_, _Fmod_ = FmodScalar.inplace_variant(), Fmod.inplace_variant()


@register(top_level=False)
def remainder_(input, other):
    if _is_number(other):
        return _RemainderScalar_.apply(input, other=_scalar(other))
    return _Remainder_.apply(input, other)


@register(top_level=False)
def fmod_(input, other):
    if _is_number(other):
        return _FmodScalar_.apply(input, other=_scalar(other))
    return _Fmod_.apply(input, other)


floor_divide_ = FloorDivide.inplace_function("floor_divide_")
subtract_ = register(sub_, name="subtract_", top_level=False)
multiply_ = register(mul_, name="multiply_", top_level=False)
divide_ = true_divide_ = register(div_, name="divide_", aliases=("true_divide_",), top_level=False)


class Addcmul(Op):
    """``input + value * tensor1 * tensor2``."""

    @staticmethod
    def forward(ctx, a, t1, t2, value=1):
        ctx.value = value = _int_value(value, a, t1, t2)
        ctx.save_for_backward(t1, t2)
        return binary(np.add, a, _scaled(binary(np.multiply, t1, t2), value))

    @staticmethod
    def backward(ctx, g):
        t1, t2 = ctx.saved_tensors
        _, need_1, need_2 = ctx.needs_input_grad
        scaled = g * ctx.value if ctx.value != 1 else g
        return g, (scaled * t2 if need_1 else None), (scaled * t1 if need_2 else None)


class Addcdiv(Op):
    """``input + value * tensor1 / tensor2`` (true division; integer ``tensor1 / tensor2`` is refused, as in torch)."""

    @staticmethod
    def forward(ctx, a, t1, t2, value=1):
        if result_dtype(t1, t2).kind in "biu":
            raise RuntimeError(_ADDCDIV_INTEGER)
        ctx.value = value = _int_value(value, a, t1, t2)
        ctx.save_for_backward(t1, t2)
        return binary(np.add, a, _scaled(binary(np.true_divide, t1, t2), value))

    @staticmethod
    def backward(ctx, g):
        t1, t2 = ctx.saved_tensors
        _, need_1, need_2 = ctx.needs_input_grad
        scaled = g * ctx.value if ctx.value != 1 else g
        return g, (scaled / t2 if need_1 else None), (-scaled * t1 / (t2 * t2) if need_2 else None)


_ADDCDIV_INTEGER = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def _int_value(value, *arrays):
    """torch casts ``value`` to an integer result's dtype (0.5 becomes 0)."""
    if isinstance(value, float) and all(np.result_type(x).kind in "biu" for x in arrays):
        return int(value)
    return value


def _scaled(r, value):
    return r if value == 1 else binary(np.multiply, r, value)


class Lerp(Op, name="LerpBackward0"):
    """``input + weight * (end - input)`` with a number ``weight``."""

    @staticmethod
    def forward(ctx, a, end, weight=0.5):
        _check_lerp(a, end, "end")
        ctx.weight = weight
        return _lerp(a, end, weight)

    @staticmethod
    def backward(ctx, g):
        return g * (1.0 - ctx.weight), g * ctx.weight


class LerpTensor(Op, name="LerpBackward1"):
    """``input + weight * (end - input)`` with a tensor ``weight``."""

    @staticmethod
    def forward(ctx, a, end, weight):
        _check_lerp(a, end, "end")
        if weight.ndim:
            _check_lerp(a, weight, "weight")
        ctx.save_for_backward(a, end, weight)
        return _lerp(a, end, weight.astype(a.dtype, copy=False))

    @staticmethod
    def backward(ctx, g):
        a, end, w = ctx.saved_tensors
        need_a, need_end, need_w = ctx.needs_input_grad
        return ((g * (1.0 - w) if need_a else None), (g * w if need_end else None),
                (g * (end - a) if need_w else None))


def _lerp(a, end, w):
    """torch's formula: from ``a`` for weights below 0.5, from ``end`` above (so exact at 0 and 1)."""
    d = binary(np.subtract, end, a)
    if type(w) is not _ndarray:
        if abs(w) < 0.5:
            return binary(np.add, a, binary(np.multiply, d, w))
        return binary(np.subtract, end, binary(np.multiply, d, 1 - w))
    return np.where(np.abs(w) < 0.5, a + w * d, end - d * (1 - w))


_C_TYPES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int8": "signed char",
            "uint8": "unsigned char", "int16": "short int", "int32": "int", "int64": "long int", "bool": "bool"}


def _check_lerp(a, other, name):
    if a.dtype.kind not in "fV":
        raise NotImplementedError(f"\"lerp_kernel_scalar\" not implemented for "
                                  f"'{_dtype.C_NAMES[_dtype.from_numpy_dtype(a.dtype)]}'")
    if other.dtype != a.dtype:
        raise RuntimeError(f"expected dtype {_C_TYPES[a.dtype.name]} for `{name}` but got dtype "
                           f"{_C_TYPES[other.dtype.name]}")
    broadcast_shape(a.shape, other.shape)  # torch's operand order (the formula computes end - input first)


@register(out=True)
def lerp(input, end, weight):
    """``input + weight * (end - input)``."""
    if isinstance(weight, Tensor):
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight=_scalar(weight))


@register(out=True)
def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``."""
    return Addcmul.apply(input, tensor1, tensor2, value=_scalar(value))


@register(out=True)
def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    return Addcdiv.apply(input, tensor1, tensor2, value=_scalar(value))


_Addcmul_, _Addcdiv_ = Addcmul.inplace_variant(), Addcdiv.inplace_variant()
_Lerp_, _LerpTensor_ = Lerp.inplace_variant(), LerpTensor.inplace_variant()


@register(top_level=False)
def lerp_(input, end, weight):
    if isinstance(weight, Tensor):
        return _LerpTensor_.apply(input, end, weight)
    return _Lerp_.apply(input, end, weight=_scalar(weight))


@register(top_level=False)
def addcmul_(input, tensor1, tensor2, *, value=1):
    return _Addcmul_.apply(input, tensor1, tensor2, value=_scalar(value))


@register(top_level=False)
def addcdiv_(input, tensor1, tensor2, *, value=1):
    return _Addcdiv_.apply(input, tensor1, tensor2, value=_scalar(value))
