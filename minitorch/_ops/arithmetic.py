"""Arithmetic with broadcasting: + - * / ** remainder, maximum/minimum, where, clamp.

Each op is a row of the derivatives table: ``forward`` on numpy arrays,
``backward`` in operators and ops, so it also runs on tensors for
higher-order gradients. ``Broadcasting`` reduces the gradients to the inputs' shapes.
"""
from __future__ import annotations

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import Op
from .broadcast import Broadcasting, _scalar, binary, result_dtype
from .copying import copy_
from .unary import floor, log, trunc

_ndarray = np.ndarray


class Add(Broadcasting):
    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha
        r = binary(np.add, a, b) if alpha == 1 else binary(np.add, a, binary(np.multiply, b, alpha))
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        return g, (g if ctx.alpha == 1 else g * ctx.alpha)


class Sub(Broadcasting):
    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _no_bool_sub(a, b)
        ctx.alpha = alpha
        r = binary(np.subtract, a, b) if alpha == 1 else binary(np.subtract, a, binary(np.multiply, b, alpha))
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        return g, (-g if ctx.alpha == 1 else g * -ctx.alpha)


def _no_bool_sub(a, b):
    if np.result_type(a) == np.bool_ and np.result_type(b) == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")


class Rsub(Op, name="RsubBackward1"):
    """``scalar - tensor``."""

    @staticmethod
    def forward(ctx, a, other=0, alpha=1):
        ctx.alpha = alpha
        return binary(np.subtract, other, a if alpha == 1 else binary(np.multiply, a, alpha))

    @staticmethod
    def backward(ctx, g):
        return -g if ctx.alpha == 1 else g * -ctx.alpha


class Mul(Broadcasting):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        r = binary(np.multiply, a, b)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * b if need_a else None), (g * a if need_b else None)


class Div(Broadcasting):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        dt = result_dtype(a, b)
        r = binary(np.true_divide, a, b, dt if dt.kind == "f" else _dtype.get_default_dtype().np)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = g / b if need_a else None
        gb = -g * a / (b * b) if need_b else None
        return ga, gb


class Pow(Broadcasting, name="PowBackward1"):
    """``tensor ** tensor``."""

    @staticmethod
    def forward(ctx, a, b):
        _check_int_pow(a, b)
        r = binary(np.power, a, b)
        ctx.save_for_backward(a, b, r)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b, r = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = g * b * a ** (b - 1) if need_a else None
        # d/db a**b = a**b log(a); torch defines it as 0 where a == 0 and b >= 0
        gb = where((a == 0) & (b >= 0), 0.0, g * r * log(a)) if need_b else None
        return ga, gb


class PowScalar(Op, name="PowBackward0"):
    """``tensor ** number``."""

    @staticmethod
    def forward(ctx, a, exponent=1):
        _check_int_pow(a, exponent)
        ctx.exponent = exponent
        ctx.save_for_backward(a)
        if exponent == 2:
            return binary(np.multiply, a, a)
        return binary(np.power, a, exponent)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return g * 0.0
        if e == 2:
            return g * a * 2.0
        return g * e * a ** (e - 1)


class RPow(Op, name="PowBackward2"):
    """``number ** tensor``."""

    @staticmethod
    def forward(ctx, a, base=1):
        ctx.log_base = float(np.log(base)) if base > 0 else float("nan")
        r = binary(np.power, base, a)
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * ctx.log_base


def _check_int_pow(a, b):
    if np.result_type(a).kind in "iu" and np.result_type(b).kind in "iu" and np.any(np.asarray(b) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed.")


class Maximum(Broadcasting):
    @staticmethod
    def forward(ctx, a, b):
        r = binary(np.maximum, a, b)
        ctx.save_for_backward(a, b)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        # ties share the gradient equally, as in torch
        ga = g * ((a > b) + (a == b) * 0.5)
        return ga, g - ga


class Minimum(Broadcasting):
    @staticmethod
    def forward(ctx, a, b):
        r = binary(np.minimum, a, b)
        ctx.save_for_backward(a, b)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ga = g * ((a < b) + (a == b) * 0.5)
        return ga, g - ga


class Where(Broadcasting):
    """``where(condition, a, b)``; the condition is a parameter, not an input."""

    @staticmethod
    def forward(ctx, a, b, condition=None):
        ctx.save_for_backward(condition)
        dt = result_dtype(a, b)
        r = np.where(condition, a, b)
        if r.dtype != dt:
            r = r.astype(dt)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        (c,) = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (where(c, g, 0.0) if need_a else None), (where(c, 0.0, g) if need_b else None)


class Remainder(Broadcasting):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        r = binary(np.remainder, a, b)
        ctx.note_inputs(r, a, b)
        return r

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g, (-g * floor(a / b) if ctx.needs_input_grad[1] else None)


class ClampTensor(Broadcasting, name="ClampBackward0"):
    """``clamp(a, min_tensor, max_tensor)``."""

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        r = a
        if lo is not None:
            r = binary(np.maximum, r, lo)
        if hi is not None:
            r = binary(np.minimum, r, hi)
        ctx.save_for_backward(a, lo, hi)
        ctx.note_inputs(r, a, lo, hi)
        return r

    @staticmethod
    def backward(ctx, g):
        a, lo, hi = ctx.saved_tensors
        keep = 1.0
        g_lo = g_hi = None
        if lo is not None:
            keep = keep * (a >= lo)
            g_lo = g * (a < lo)
        if hi is not None:
            keep = keep * (a <= hi)
            g_hi = g * (a > hi) if lo is None else g * (a > hi) * (a >= lo)
        return g * keep, g_lo, g_hi


class Clamp(Op, name="ClampBackward1"):
    """``clamp(a, min, max)`` with number bounds."""

    @staticmethod
    def forward(ctx, a, min=None, max=None):  # noqa: A002
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.min, ctx.max = min, max
        ctx.save_for_backward(a)
        r = a
        if min is not None:
            r = binary(np.maximum, r, min)
        if max is not None:
            r = binary(np.minimum, r, max)
        return r

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if ctx.min is not None and ctx.max is not None:
            return g * ((a >= ctx.min) & (a <= ctx.max))
        return g * (a >= ctx.min) if ctx.min is not None else g * (a <= ctx.max)


# ---- functions ---------------------------------------------------------------------------------
def _is_number(x) -> bool:
    return isinstance(x, (int, float, np.generic)) and not isinstance(x, (_ndarray, Tensor))


def add(input, other, *, alpha=1, out=None):
    """``input + alpha * other`` with broadcasting."""
    return _out(Add.apply(input, other, alpha=alpha), out)


def sub(input, other, *, alpha=1, out=None):
    """``input - alpha * other`` with broadcasting."""
    return _out(Sub.apply(input, other, alpha=alpha), out)


subtract = sub


def rsub(input, other, *, alpha=1):
    """``other - alpha * input``."""
    if _is_number(other):
        return Rsub.apply(input, other=other, alpha=alpha)
    return Sub.apply(other, input, alpha=alpha)


def mul(input, other, *, out=None):
    return _out(Mul.apply(input, other), out)


multiply = mul


def div(input, other, *, rounding_mode=None, out=None):
    """True division, or ``rounding_mode='floor'`` / ``'trunc'``."""
    if rounding_mode is None:
        return _out(Div.apply(input, other), out)
    if rounding_mode not in ("floor", "trunc"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
    return _out(_rounded_div(input, other, rounding_mode), out)


divide = true_divide = div


def _rounded_div(a, b, mode):
    """Division rounded down or toward zero; integer inputs give integers (and no gradient)."""
    a_arr, b_arr = _array_of(a), _array_of(b)
    dt = result_dtype(a_arr, b_arr)
    if dt.kind == "f":
        q = Div.apply(a, b)
        return floor(q) if mode == "floor" else trunc(q)
    if np.any(np.asarray(b_arr) == 0):
        raise RuntimeError("ZeroDivisionError")
    if mode == "floor":
        return Tensor._wrap(np.asarray(binary(np.floor_divide, a_arr, b_arr)))
    return Tensor._wrap(np.trunc(np.true_divide(a_arr, b_arr)).astype(dt))


def floor_divide(input, other):
    return div(input, other, rounding_mode="floor")


def remainder(input, other):
    return Remainder.apply(input, other)


def fmod(input, other):
    return Tensor._wrap(np.asarray(binary(np.fmod, _array_of(input), _array_of(other))))


def _array_of(x):
    return x._data if isinstance(x, Tensor) else x


def pow(input, exponent):  # noqa: A001
    """``input ** exponent``; either may be a number."""
    if _is_number(exponent):
        return PowScalar.apply(input, exponent=_scalar(exponent))
    if _is_number(input):
        return RPow.apply(exponent, base=_scalar(input))
    return Pow.apply(input, exponent)


def square(input):
    return PowScalar.apply(input, exponent=2)


def maximum(input, other):
    return Maximum.apply(input, other)


def minimum(input, other):
    return Minimum.apply(input, other)


def fmax(input, other):
    return maximum(input, other)


def fmin(input, other):
    return minimum(input, other)


def where(condition, input=None, other=None):
    """Elements of ``input`` where ``condition`` holds, else of ``other``."""
    if input is None and other is None:
        from .indexing import nonzero
        return nonzero(condition, as_tuple=True)
    cond = condition._data if isinstance(condition, Tensor) else condition
    return Where.apply(input, other, condition=cond)


def clamp(input, min=None, max=None, *, out=None):  # noqa: A002
    """Limit values to ``[min, max]``; bounds may be numbers or tensors."""
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return _out(ClampTensor.apply(input, min, max), out)
    return _out(Clamp.apply(input, min=_scalar(min) if min is not None else None,
                            max=_scalar(max) if max is not None else None), out)


clip = clamp


def clamp_min(input, min):  # noqa: A002
    return clamp(input, min=min)


def clamp_max(input, max):  # noqa: A002
    return clamp(input, max=max)


def _out(result, out):
    """Support the ``out=`` argument by copying into it."""
    if out is None:
        return result
    if out.shape != result.shape:
        out._data = np.empty(result._data.shape, out._data.dtype)
    out._data[...] = result._data
    return out


# in-place forms: same formulas, result written into the first input
add_ = Add.inplace_function()
sub_ = Sub.inplace_function()
mul_ = Mul.inplace_function()
_Div_ = Div.inplace_variant()
_PowScalar_ = PowScalar.inplace_variant()
_Pow_ = Pow.inplace_variant()
_Clamp_ = Clamp.inplace_variant()
_ClampTensor_ = ClampTensor.inplace_variant()


def clamp_(input, min=None, max=None):  # noqa: A002
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _ClampTensor_.apply(input, min, max)
    return _Clamp_.apply(input, min=min, max=max)


def clamp_min_(input, min):  # noqa: A002
    return clamp_(input, min=min)


def clamp_max_(input, max):  # noqa: A002
    return clamp_(input, max=max)


def div_(input, other, *, rounding_mode=None):
    if rounding_mode is None:
        return _Div_.apply(input, other)
    return copy_(input, div(input, other, rounding_mode=rounding_mode))


def pow_(input, exponent):
    if _is_number(exponent):
        return _PowScalar_.apply(input, exponent=_scalar(exponent))
    return _Pow_.apply(input, exponent)
