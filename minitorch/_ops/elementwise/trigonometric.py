"""Inverse and hyperbolic trigonometry: asin, acos, atan, sinh, cosh, asinh, acosh, atanh (and their
``arc*`` aliases), atan2, hypot, deg2rad, rad2deg.

Outside their domains the functions give nan (and +-inf at the edges), as torch's do; integer and
bool inputs compute in the default float dtype.
"""
from __future__ import annotations

import math

import numpy as np

from ... import _dtype
from ..._core.function import RealOp
from .clamp import where
from .broadcast import binary, floating, result_dtype
from .unary import _not_for, sqrt
from ..._core.registry import register


def _quiet(backward):
    """``backward`` without numpy's warnings: at the domain edges the gradients are inf or nan, as in torch."""
    def run(ctx, *grads):
        with np.errstate(all="ignore"):
            return backward(ctx, *grads)
    return run


def _unary(ufunc, a):
    with np.errstate(all="ignore"):
        r = ufunc(floating(a))
    return r if type(r) is np.ndarray else np.asarray(r)


def _float_pair(ufunc, a, b, kernel=None):
    """``ufunc(a, b)`` in the result dtype, floating (or torch's error for integers, given ``kernel``)."""
    dt = result_dtype(a, b)
    if dt.kind not in "fV":
        if kernel is not None:
            _not_for(np.empty(0, dt), "biu", kernel)
        dt = _dtype.get_default_dtype().np
    with np.errstate(all="ignore"):
        return binary(ufunc, a, b, dt)


class _OfInput(RealOp):
    """An elementwise function whose derivative is written in its input: forward saves it and applies ``kernel``."""

    @classmethod
    def forward(cls, ctx, a):
        ctx.save_for_backward(a)
        return _unary(cls.kernel, a)


class Asin(_OfInput):
    kernel = staticmethod(np.arcsin)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / sqrt(1.0 - a * a)


class Acos(_OfInput):
    kernel = staticmethod(np.arccos)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return -g / sqrt(1.0 - a * a)


class Atan(_OfInput):
    kernel = staticmethod(np.arctan)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a * a + 1.0)


class Sinh(_OfInput):
    kernel = staticmethod(np.sinh)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * cosh(a)


class Cosh(_OfInput):
    kernel = staticmethod(np.cosh)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * sinh(a)


class Asinh(_OfInput):
    kernel = staticmethod(np.arcsinh)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / sqrt(a * a + 1.0)


class Acosh(_OfInput):
    kernel = staticmethod(np.arccosh)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / sqrt(a * a - 1.0)


class Atanh(_OfInput):
    kernel = staticmethod(np.arctanh)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (1.0 - a * a)


class Atan2(RealOp):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _float_pair(np.arctan2, a, b)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        square = a * a + b * b
        recip = where(square == 0, 0.0, 1.0 / square)  # torch: no gradient at the origin (signed zeros)
        return (g * b * recip if need_a else None), (g * -a * recip if need_b else None)


class Hypot(RealOp):
    @staticmethod
    def forward(ctx, a, b):
        r = _float_pair(np.hypot, a, b, "hypot_cpu")
        ctx.save_for_backward(a, b, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b, r = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * a / r if need_a else None), (g * b / r if need_b else None)


_DEG = math.pi / 180.0


class Deg2Rad(RealOp):
    @staticmethod
    def forward(ctx, a):
        return binary(np.multiply, floating(a), _DEG)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        return g * _DEG


class Rad2Deg(RealOp):
    @staticmethod
    def forward(ctx, a):
        return binary(np.multiply, floating(a), 1.0 / _DEG)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        return g * (1.0 / _DEG)


asin = Asin.function()
acos = Acos.function()
atan = Atan.function()
sinh = Sinh.function()
cosh = Cosh.function()
asinh = Asinh.function()
acosh = Acosh.function()
atanh = Atanh.function()
atan2 = Atan2.function()
hypot = Hypot.function()
deg2rad = Deg2Rad.function()
rad2deg = Rad2Deg.function()

asin_ = Asin.inplace_function(top_level=True)
acos_ = Acos.inplace_function(top_level=True)
atan_ = Atan.inplace_function(top_level=True)
sinh_ = Sinh.inplace_function(top_level=True)
cosh_ = Cosh.inplace_function(top_level=True)


def _renamed_inplace(op):
    """The in-place form of ``op``, ``torch.<name>_``: torch names its node AsinhBackward1 (not 0), ..."""
    return op.named(op.__qualname__, op.__name__[:-1] + "1").inplace_function(top_level=True)


asinh_, acosh_, atanh_ = _renamed_inplace(Asinh), _renamed_inplace(Acosh), _renamed_inplace(Atanh)
# atan2_ and hypot_ are only Tensor methods
atan2_ = Atan2.inplace_function()
hypot_ = Hypot.inplace_function()
deg2rad_ = Deg2Rad.inplace_function(top_level=True)
rad2deg_ = Rad2Deg.inplace_function(top_level=True)

for _name, _fn, _fn_ in (("arcsin", asin, asin_), ("arccos", acos, acos_), ("arctan", atan, atan_),
                         ("arcsinh", asinh, asinh_), ("arccosh", acosh, acosh_), ("arctanh", atanh, atanh_),
                         ("arctan2", atan2, atan2_)):
    register(_fn, name=_name)
    register(_fn_, name=_name + "_", top_level=_name != "arctan2")  # torch has no top-level atan2_
