"""Functions of a number's representation: copysign, nextafter, ldexp, frexp, heaviside, float_power, and
the integer gcd and lcm (with their in-place forms)."""
from __future__ import annotations

import math

import numpy as np

from ... import _dtype
from ..._core.tensor import Tensor
from ..._core.function import NoDerivative, Op, zeros_for
from .arithmetic import pow as _pow, pow_ as _pow_
from .clamp import where
from ..._core.out import _out
from .broadcast import binary, floating, result_dtype, shape_mismatch
from .comparison import _array_of, _inplace_write
from ..return_types import _return_type, return_types
from .special import erfc_, exp2_, i0_, logit_, sinc_, xlogy_
from .unary import _not_for
from ..._core.registry import register

_LN2 = math.log(2.0)


def _float_dtype(a, b) -> np.dtype:
    """The result dtype of ``a`` and ``b``; integers and bools give the default float dtype."""
    dt = result_dtype(a, b)
    return dt if dt.kind in "fV" else _dtype.get_default_dtype().np


def _tensor_arg(function: str, name: str, value) -> None:
    """torch's error for a number where the op takes only a tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' (position 2) must be Tensor, not {type(value).__name__}")


class Copysign(Op):
    """``|a|`` with the sign of ``b`` (a tensor); ``b`` gets no gradient."""

    @staticmethod
    def forward(ctx, a, b):
        r = binary(np.copysign, a, b, _float_dtype(a, b))
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    def backward(ctx, g):
        return _copysign_grad(ctx, g), (zeros_for(g) if ctx.needs_input_grad[1] else None)


class CopysignScalar(Op, name="CopysignBackward1"):
    """``copysign`` with a number ``other``."""

    @staticmethod
    def forward(ctx, a, other=1.0):
        return Copysign.forward(ctx, a, other)

    backward = staticmethod(lambda ctx, g: _copysign_grad(ctx, g))


def _copysign_grad(ctx, g):
    """``result / a``: +-1 where the sign was kept or flipped, NaN at a NaN or infinite ``a``, 0 at a == 0 (torch's
    rule)."""
    a, r = ctx.saved_tensors
    zero = a == 0
    with np.errstate(invalid="ignore"):
        return g * where(zero, 0.0, r / where(zero, 1.0, a))


class Nextafter(Op):
    """The next float after ``a`` towards ``b``; as in torch, the gradient passes to ``a`` unchanged, except where
    ``a == b`` (the result is ``b`` there: none)."""

    bfloat16_native = True  # a bfloat16 step, not a float32 one

    @staticmethod
    def forward(ctx, a, b):
        dt = result_dtype(a, b)
        _not_for(np.empty(0, dt), "biu", "nextafter_cpu")
        ctx.save_for_backward(a, b)
        return binary(np.nextafter, a, b, dt)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return where(a == b, 0.0, g), (zeros_for(g) if ctx.needs_input_grad[1] else None)


class Ldexp(Op):
    """``a * 2 ** b``."""

    @staticmethod
    def forward(ctx, a, b):
        r = binary(np.multiply, a, np.exp2(floating(b)))
        ctx.save_for_backward(b, r)
        return r

    @staticmethod
    def backward(ctx, g):
        b, r = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * 2.0 ** b if need_a else None), (g * r * _LN2 if need_b else None)


class Frexp(Op):
    """Mantissa in [0.5, 1) (by magnitude) and int32 exponent, ``a = mantissa * 2 ** exponent``."""

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind not in "fV":
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        mantissa, exponent = np.frexp(a)
        exponent = np.asarray(exponent, np.int32)
        ctx.one = a.dtype.type(1)
        ctx.save_for_backward(exponent)
        return np.asarray(mantissa), exponent

    @staticmethod
    def backward(ctx, g, _):
        (exponent,) = ctx.saved_tensors
        exponent = exponent if type(exponent) is np.ndarray else exponent._data
        return None if g is None else g * np.ldexp(ctx.one, -exponent)  # d mantissa / d a: 2 ** -exponent


class Heaviside(NoDerivative):
    """The step function: 0 below zero, 1 above, ``values`` at zero; torch records it without a derivative."""

    aten = "heaviside"

    @staticmethod
    def forward(ctx, a, values):
        if a.dtype != values.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        try:
            r = np.where(a == 0, values, a > 0)
        except ValueError:
            raise shape_mismatch(a.shape, values.shape) from None
        return r.astype(a.dtype, copy=False)


return_types.frexp = _return_type("frexp", ("mantissa", "exponent"))


Number = int | float | bool


@register
def copysign(input: Tensor, other: Tensor | Number, *, out: Tensor | None = None) -> Tensor:
    """``input``'s magnitude with ``other``'s sign (a float result)."""
    if isinstance(other, Tensor):
        return _out(Copysign.apply(input, other), out)
    return _out(CopysignScalar.apply(input, other=other), out)


@register(top_level=False)
def copysign_(input: Tensor, other: Tensor | Number) -> Tensor:
    if isinstance(other, Tensor):
        return Copysign.inplace_variant().apply(input, other)
    return CopysignScalar.inplace_variant().apply(input, other=other)


@register
def nextafter(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The next representable float after ``input`` in the direction of ``other``."""
    _tensor_arg("nextafter", "other", other)
    return _out(Nextafter.apply(input, other), out)


@register(top_level=False)
def nextafter_(input: Tensor, other: Tensor) -> Tensor:
    _tensor_arg("nextafter_", "other", other)
    return Nextafter.inplace_variant().apply(input, other)


@register
def ldexp(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``input * 2 ** other``."""
    _tensor_arg("ldexp", "other", other)
    return _out(Ldexp.apply(input, other), out)


@register
def ldexp_(input: Tensor, other: Tensor) -> Tensor:
    _tensor_arg("ldexp_", "other", other)
    return Ldexp.inplace_variant().apply(input, other)


@register(out=True)
def frexp(input: Tensor):
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent``, as ``return_types.frexp``."""
    return return_types.frexp(*Frexp.apply(input))


@register(derivative=False)
def heaviside(input: Tensor, values: Tensor, *, out: Tensor | None = None) -> Tensor:
    """1 where ``input > 0``, 0 where ``input < 0``, ``values`` where ``input == 0``."""
    _tensor_arg("heaviside", "values", values)
    return _out(Heaviside.apply(input, values), out)


@register(derivative=False, top_level=False)
def heaviside_(input: Tensor, values: Tensor) -> Tensor:
    _tensor_arg("heaviside_", "values", values)
    return Heaviside.inplace_variant().apply(input, values)


def _double(x):
    return x.to(_dtype.float64) if isinstance(x, Tensor) else float(x)


@register
def float_power(input: Tensor | Number, exponent: Tensor | Number, *, out: Tensor | None = None) -> Tensor:
    """``input ** exponent`` computed in float64."""
    return _out(_pow(_double(input), _double(exponent)), out)


@register(top_level=False)
def float_power_(input: Tensor, exponent: Tensor | Number) -> Tensor:
    if input.dtype != _dtype.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_dtype.C_NAMES[input.dtype]} but the "
                           "operation's result requires dtype Double")
    return _pow_(input, _double(exponent))


def _integer_pair(ufunc, name, doc):
    def op(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        _tensor_arg(name, "other", other)
        a, b = _array_of(input), _array_of(other)
        dt = result_dtype(a, b)
        _not_for(np.empty(0, dt), "bf", name + "_cpu")
        return _out(Tensor._wrap(binary(ufunc, a, b, dt)), out)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return register(op, differentiable=False)


gcd = _integer_pair(np.gcd, "gcd", "The greatest common divisor of integer tensors, elementwise (never negative).")
lcm = _integer_pair(np.lcm, "lcm", "The least common multiple of integer tensors, elementwise (never negative).")
gcd_ = _inplace_write("gcd", gcd, top_level=True)
lcm_ = _inplace_write("lcm", lcm, top_level=True)


# torch.<name>_ for in-place forms of ops defined in special.py
for _fn in (erfc_, exp2_, i0_, logit_, sinc_, xlogy_):
    register(_fn, top_level=True)
