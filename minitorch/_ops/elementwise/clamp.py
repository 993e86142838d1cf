"""Elementwise selection: maximum/minimum (and fmax/fmin, which ignore NaN), where, clamp (number or tensor
bounds, one- or two-sided) and nan_to_num, with their in-place forms. Each gradient goes to the input whose value
was picked."""
from __future__ import annotations

import operator

import numpy as np

from ... import _dtype
from ..._core.function import Op
from ..._core.out import _out
from ..._core.registry import operator_alias, register
from ..._core.tensor import Tensor
from .broadcast import _scalar, binary, broadcast_shape, result_dtype

_ndarray = np.ndarray


class _Extremum(Op):
    """Elementwise maximum or minimum (``pick``): the gradient goes to the input picked."""

    pick = np.maximum

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return binary(ctx.pick, a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        # as torch: ties share the gradient equally; where either is NaN both get all of it
        g = g * (1.0 - (a == b) * 0.5)
        a_lost, b_lost = (a < b, a > b) if ctx.pick is np.maximum else (a > b, a < b)
        return where(a_lost, 0.0, g), where(b_lost, 0.0, g)


class Maximum(_Extremum):
    pick = np.maximum


class Minimum(_Extremum):
    pick = np.minimum


class Fmax(Op):
    """``maximum`` that ignores NaN; ties send the whole gradient to the first input, as in torch."""

    fn, first_wins = staticmethod(np.fmax), staticmethod(operator.ge)

    @classmethod
    def forward(cls, ctx, a, b):
        r = binary(cls.fn, a, b)
        ctx.save_for_backward(a, b)
        return r

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx.saved_tensors
        first = cls.first_wins(a, b) | (b != b)  # b != b: b is NaN
        return g * first, g * ~first


class Fmin(Fmax):
    fn, first_wins = staticmethod(np.fmin), staticmethod(operator.le)


class Where(Op):
    """``where(condition, a, b)``; the condition is a parameter, not an input."""

    @staticmethod
    def forward(ctx, a, b, condition=None):
        ctx.save_for_backward(condition)
        dt = result_dtype(a, b)
        try:
            r = np.where(condition, a, b)
        except ValueError:
            broadcast_shape(np.shape(condition), np.shape(a), np.shape(b))  # raises torch's error for the mismatch
            raise
        if r.dtype != dt:
            r = r.astype(dt)
        return r

    @staticmethod
    def backward(ctx, g):
        (c,) = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (where(c, g, 0.0) if need_a else None), (where(c, 0.0, g) if need_b else None)


class ClampTensor(Op, name="ClampBackward0"):
    """``clamp(a, min_tensor, max_tensor)``."""

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a, lo, hi)
        r = _clamped(a, lo, hi)
        return r

    @staticmethod
    def backward(ctx, g):
        a, lo, hi = ctx.saved_tensors
        if lo is None:
            return g * (a <= hi), None, g * (a > hi)
        if hi is None:
            return g * (a >= lo), g * (a < lo), None
        # torch's rule where the bounds cross (lo > hi, the result is hi): hi gets the whole gradient
        return g * ((a >= lo) & (a <= hi)), g * ((a < lo) & (lo < hi)), g * ((a > hi) | (hi < lo))


class Clamp(Op, name="ClampBackward1"):
    """``clamp(a, min, max)`` with number bounds."""

    @staticmethod
    def forward(ctx, a, min=None, max=None):  # noqa: A002
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.min, ctx.max = min, max
        ctx.save_for_backward(a)
        return _clamped(a, min, max)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if ctx.min is not None and ctx.max is not None:
            return g * ((a >= ctx.min) & (a <= ctx.max))
        return g * (a >= ctx.min) if ctx.min is not None else g * (a <= ctx.max)


def _clamped(a, lo, hi):
    """``a`` limited to ``[lo, hi]`` (numbers, arrays or None), in torch's result dtype."""
    if lo is not None:
        a = binary(np.maximum, a, lo)
    return a if hi is None else binary(np.minimum, a, hi)


class ClampMin(Clamp):
    pass


class ClampMax(Clamp):
    pass


class ClampMinTensor(ClampTensor, name="ClampMinBackward1"):
    """``clamp_min(a, min_tensor)``."""

    @staticmethod
    def forward(ctx, a, lo):
        ctx.save_for_backward(a, lo, None)
        r = _clamped(a, lo, None)
        return r

    @staticmethod
    def backward(ctx, g):
        return ClampTensor.backward(ctx, g)[:2]


class ClampMaxTensor(ClampTensor, name="ClampMaxBackward1"):
    """``clamp_max(a, max_tensor)``."""

    @staticmethod
    def forward(ctx, a, hi):
        ctx.save_for_backward(a, None, hi)
        r = _clamped(a, None, hi)
        return r

    @staticmethod
    def backward(ctx, g):
        g_a, _, g_hi = ClampTensor.backward(ctx, g)
        return g_a, g_hi


@register(binary=True, out=True)
def maximum(input, other):
    return Maximum.apply(input, other)


@register(binary=True, out=True)
def minimum(input, other):
    return Minimum.apply(input, other)


@register(binary=True, out=True)
def fmax(input, other):
    """Elementwise maximum ignoring NaN (NaN only where both are NaN)."""
    return Fmax.apply(input, other)


@register(binary=True, out=True)
def fmin(input, other):
    """Elementwise minimum ignoring NaN (NaN only where both are NaN)."""
    return Fmin.apply(input, other)


@register(binary=True, out=True, method=False)
def where(condition, input=None, other=None):
    """Elements of ``input`` where ``condition`` holds, else of ``other``."""
    if input is None and other is None:
        from ..shape.indexing import nonzero  # (indexing builds on this module)
        return nonzero(condition, as_tuple=True)
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if cond.dtype != np.bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{_dtype.C_NAMES[_dtype.from_numpy_dtype(cond.dtype)]}")
    r = Where.apply(input, other, condition=cond)
    return Tensor._wrap(np.asarray(r)) if isinstance(condition, Tensor) and not isinstance(r, Tensor) else r


@operator_alias("where", any_operand=True)
def _where_method(self, condition, other):
    """``self.where(condition, other)``: the Tensor method, with ``self`` as ``input``."""
    return where(condition, self, other)


@register
def clamp(input, min=None, max=None, *, out=None):  # noqa: A002
    """Limit values to ``[min, max]``; bounds may be numbers or tensors."""
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return _out(ClampTensor.apply(input, min, max), out)
    return _out(Clamp.apply(input, min=_scalar(min) if min is not None else None,
                            max=_scalar(max) if max is not None else None), out)


clip = register(clamp, name="clip")


@register(out=True)
def clamp_min(input, min):  # noqa: A002
    """``max(input, min)`` with torch's one-sided clamp nodes."""
    return ClampMinTensor.apply(input, min) if isinstance(min, Tensor) else ClampMin.apply(input, min=_scalar(min))


@register(out=True)
def clamp_max(input, max):  # noqa: A002
    """``min(input, max)`` with torch's one-sided clamp nodes."""
    return ClampMaxTensor.apply(input, max) if isinstance(max, Tensor) else ClampMax.apply(input, max=_scalar(max))


_Clamp_ = Clamp.inplace_variant()
_ClampMin_ = ClampMin.inplace_variant()
_ClampMax_ = ClampMax.inplace_variant()
_ClampTensor_ = ClampTensor.inplace_variant()
_ClampMinTensor_ = ClampMinTensor.inplace_variant()
_ClampMaxTensor_ = ClampMaxTensor.inplace_variant()


@register
def clamp_(input, min=None, max=None):  # noqa: A002
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _ClampTensor_.apply(input, min, max)
    return _Clamp_.apply(input, min=min, max=max)


@register
def clamp_min_(input, min):  # noqa: A002
    return _ClampMinTensor_.apply(input, min) if isinstance(min, Tensor) else _ClampMin_.apply(input, min=min)


@register
def clamp_max_(input, max):  # noqa: A002
    return _ClampMaxTensor_.apply(input, max) if isinstance(max, Tensor) else _ClampMax_.apply(input, max=max)


clip_ = register(clamp_, name="clip_")


class NanToNum(Op):
    """NaN, +inf and -inf replaced by numbers; the gradient passes where the input is finite."""

    @staticmethod
    def forward(ctx, a, nan=None, posinf=None, neginf=None):
        if a.dtype.kind != "f":
            return a.copy()
        ctx.save_for_backward(a)
        return np.nan_to_num(a, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * np.isfinite(a if type(a) is _ndarray else a._data)


@register(out=True)
def nan_to_num(input, nan: float | None = None, posinf: float | None = None, neginf: float | None = None):
    """NaN, +inf and -inf replaced by ``nan`` (default 0) ``posinf`` and ``neginf`` (default: the dtype's extremes)."""
    return NanToNum.apply(input, nan=nan, posinf=posinf, neginf=neginf)


nan_to_num_ = NanToNum.inplace_function("nan_to_num_", top_level=True)
