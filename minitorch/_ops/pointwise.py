"""Elementwise ops: arithmetic with broadcasting, math functions, activations, comparisons.

Each op is a row of the derivatives table: ``forward`` on numpy arrays,
``backward`` in operators and ops (so it also runs on tensors for higher-order
gradients). Gradients of broadcast inputs are summed back to the input's shape
in one place, ``Broadcasting._apply``.
"""
from __future__ import annotations

import builtins

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from ..autograd.function import Op
from .view import sum_to_size

_ndarray = np.ndarray


# ---- type promotion on numpy operands ---------------------------------------------------
_pair_cache: dict = {}
_KIND = {"b": _dtype.BOOL, "u": _dtype.INT, "i": _dtype.INT, "f": _dtype.FLOAT}


def _scalar_kind(x) -> int:
    if isinstance(x, builtins.bool):
        return _dtype.BOOL
    if isinstance(x, int):
        return _dtype.INT
    if isinstance(x, float):
        return _dtype.FLOAT
    raise TypeError(f"unsupported operand type for a tensor operation: '{type(x).__name__}'")


def _default_of_kind(kind: int) -> np.dtype:
    return (np.dtype(np.bool_), np.dtype(np.int64), _dtype.get_default_dtype().np)[kind]


def result_dtype(a, b) -> np.dtype:
    """torch's result dtype for an elementwise op on ``a`` and ``b`` (arrays or Python numbers)."""
    a_arr, b_arr = type(a) is _ndarray, type(b) is _ndarray
    if a_arr and b_arr:
        key = (a.dtype, b.dtype, a.ndim == 0, b.ndim == 0)
        dt = _pair_cache.get(key)
        if dt is None:
            dt = _pair_cache[key] = _array_pair_dtype(*key)
        return dt
    if a_arr or b_arr:
        arr, scalar = (a, b) if a_arr else (b, a)
        kind = _scalar_kind(scalar)
        return arr.dtype if kind <= _KIND[arr.dtype.kind] else _default_of_kind(kind)
    return _default_of_kind(builtins.max(_scalar_kind(a), _scalar_kind(b)))


def _array_pair_dtype(da, db, a_zero_dim, b_zero_dim) -> np.dtype:
    ta, tb = _dtype.from_numpy_dtype(da), _dtype.from_numpy_dtype(db)
    if a_zero_dim == b_zero_dim:
        return _dtype.promote_types(ta, tb).np
    dim_t, zero_t = (tb, ta) if a_zero_dim else (ta, tb)
    return (zero_t if zero_t.kind > dim_t.kind else dim_t).np


def _scalar(x):
    """numpy scalars count as Python numbers in promotion, as in torch."""
    return x.item() if isinstance(x, np.generic) else x


def binary(ufunc, a, b, dtype=None):
    """``ufunc(a, b)`` computed in torch's result dtype, with torch's broadcasting error."""
    if type(a) is not _ndarray:
        a = _scalar(a)
    if type(b) is not _ndarray:
        b = _scalar(b)
    dt = result_dtype(a, b) if dtype is None else dtype
    try:
        if type(a) is _ndarray and a.dtype is dt and (type(b) is not _ndarray or b.dtype is dt):
            return ufunc(a, b)
        return ufunc(a, b, dtype=dt)
    except ValueError as e:
        if "broadcast" not in str(e):
            raise
        raise _broadcast_error(a, b) from None


def _broadcast_error(a, b) -> RuntimeError:
    sa, sb = np.shape(a), np.shape(b)
    n = builtins.max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for d in range(n - 1, -1, -1):
        if pa[d] != pb[d] and pa[d] != 1 and pb[d] != 1:
            return RuntimeError(f"The size of tensor a ({pa[d]}) must match the size of tensor b ({pb[d]}) "
                                f"at non-singleton dimension {d}")
    return RuntimeError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast together")


def floating(a):
    """Integer and bool inputs of float-valued functions compute in the default float dtype."""
    if type(a) is _ndarray and a.dtype.kind in "biu":
        return a.astype(_dtype.get_default_dtype().np)
    return a


# ---- broadcasting ops ---------------------------------------------------------------------
class Broadcasting(Op):
    """An op whose inputs broadcast together: each input's gradient is summed
    back to that input's shape and cast to its dtype."""

    _in_meta = None  # ((shape, dtype) per input) when some input differs from the result

    def note_inputs(self, result, *inputs):
        """Called by forward: remember input shapes/dtypes that differ from the result's."""
        shape, dt = result.shape, result.dtype
        for x in inputs:
            if type(x) is _ndarray and (x.shape != shape or x.dtype != dt):
                self._in_meta = tuple((x.shape, x.dtype) if type(x) is _ndarray else None for x in inputs)
                return

    def _apply(self, grads, create_graph):
        res = Op._apply(self, grads, create_graph)
        meta = self._in_meta
        if meta is None:
            return res
        return tuple(g if g is None or m is None else _reduce_grad(g, *m) for g, m in zip(res, meta))


def _reduce_grad(g, shape, dt):
    if g.shape != shape:
        extra = len(shape) - np.ndim(g)  # the input had leading 1-dims that were dropped (copy_, setitem)
        core = shape[extra:] if extra > 0 else shape
        if g.shape != core:
            g = sum_to_size(g, core)
        if extra > 0:
            g = g.reshape(shape)
    return cast(g, dt)


def cast(g, dt: np.dtype):
    """``g`` (array or tensor) in numpy dtype ``dt``."""
    if type(g) is _ndarray:
        return g if g.dtype == dt else g.astype(dt)
    return g if g._data.dtype == dt else to_copy(g, _dtype.from_numpy_dtype(dt))


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


# ---- unary ops ----------------------------------------------------------------------------
class Neg(Op):
    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                               "to invert a mask, use the `~` or `logical_not()` operator instead.")
        return np.negative(a)

    @staticmethod
    def backward(ctx, g):
        return -g


class Exp(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.exp(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


class Log(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / a


class Log1p(Op, name="Log1PBackward0"):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log1p(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a + 1.0)


class Expm1(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.expm1(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r + 1.0)


class Log2(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log2(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a * float(np.log(2.0)))


class Log10(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log10(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g / (a * float(np.log(10.0)))


class Sqrt(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.sqrt(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g / (r * 2.0)


class Rsqrt(Op):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        r = np.reciprocal(np.sqrt(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * r * r * -0.5


class Reciprocal(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.reciprocal(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return -g * r * r


class Abs(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * sign(a)


class Sign(Op):
    @staticmethod
    def forward(ctx, a):
        if a.dtype == np.bool_:
            return a.copy()
        r = np.sign(a)
        if r.dtype.kind == "f":
            np.copyto(r, 0, where=np.isnan(r))  # torch: sign(nan) is 0
        return r

    @staticmethod
    def backward(ctx, g):
        return g * 0.0


class Sin(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.sin(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * cos(a)


class Cos(Op):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.cos(floating(a))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return -g * sin(a)


class Tan(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.tan(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r * r + 1.0)


class Tanh(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.tanh(floating(a))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (1.0 - r * r)


class Sigmoid(Op):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        # with e = exp(-|a|) (never overflows): 1 / (1 + e) for a >= 0, e / (1 + e) below
        e = np.exp(-np.abs(a))
        r = np.reciprocal(e + 1.0)
        np.multiply(r, e, out=r, where=a < 0)
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * (1.0 - r)


class Relu(Op):
    @staticmethod
    def forward(ctx, a):
        r = np.maximum(a, 0) if a.dtype != np.bool_ else a.copy()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * (r > 0)


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


class _ZeroGrad(Op):
    """Piecewise-constant functions: the gradient is zero almost everywhere."""

    @staticmethod
    def backward(ctx, g):
        return g * 0.0


class Floor(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.floor(a) if a.dtype.kind == "f" else a.copy()


class Ceil(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.ceil(a) if a.dtype.kind == "f" else a.copy()


class Trunc(_ZeroGrad):
    @staticmethod
    def forward(ctx, a):
        return np.trunc(a) if a.dtype.kind == "f" else a.copy()


class Round(_ZeroGrad):
    @staticmethod
    def forward(ctx, a, decimals=0):
        return np.round(a, decimals) if a.dtype.kind == "f" else a.copy()


class Clone(Op):
    @staticmethod
    def forward(ctx, a):
        return a.copy()

    @staticmethod
    def backward(ctx, g):
        return g


class ToCopy(Op):
    """Conversion to another dtype (``.to``, ``.double()``, ...)."""

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.src = _dtype.from_numpy_dtype(a.dtype)
        return a.astype(dtype.np)

    @staticmethod
    def backward(ctx, g):
        return to_copy(g, ctx.src)


class Fill(Op, name="FillBackward2"):
    """``fill_(value)``: every element becomes ``value``; no gradient reaches the old values."""

    @staticmethod
    def forward(ctx, a, value=0):
        r = np.empty_like(a)
        r.fill(value)
        return r

    @staticmethod
    def backward(ctx, g):
        return g * 0.0


class Zero(Fill, name="ZeroBackward0"):
    pass


class Copy(Broadcasting, name="CopyBackwards"):
    """``dst.copy_(src)``: the destination's old values get no gradient."""

    @staticmethod
    def forward(ctx, dst, src):
        from .indexing import drop_leading_ones
        r = np.empty_like(dst)
        ctx.note_inputs(r, dst, src)
        r[...] = drop_leading_ones(src, dst.ndim) if type(src) is _ndarray else src
        return r

    @staticmethod
    def backward(ctx, g):
        return g * 0.0, g


# ---- functions --------------------------------------------------------------------------------
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


def neg(input):
    return Neg.apply(input)


negative = neg


def exp(input):
    return Exp.apply(input)


def log(input):
    return Log.apply(input)


def log1p(input):
    return Log1p.apply(input)


def expm1(input):
    return Expm1.apply(input)


def log2(input):
    return Log2.apply(input)


def log10(input):
    return Log10.apply(input)


def sqrt(input):
    return Sqrt.apply(input)


def rsqrt(input):
    return Rsqrt.apply(input)


def reciprocal(input):
    return Reciprocal.apply(input)


def abs(input):  # noqa: A001
    return Abs.apply(input)


absolute = abs


def sign(input):
    return Sign.apply(input)


def sin(input):
    return Sin.apply(input)


def cos(input):
    return Cos.apply(input)


def tan(input):
    return Tan.apply(input)


def tanh(input):
    return Tanh.apply(input)


def sigmoid(input):
    return Sigmoid.apply(input)


def relu(input):
    return Relu.apply(input)


def floor(input):
    return Floor.apply(input)


def ceil(input):
    return Ceil.apply(input)


def trunc(input):
    return Trunc.apply(input)


fix = trunc


def round(input, *, decimals=0):  # noqa: A001
    return Round.apply(input, decimals=decimals)


def frac(input):
    return input - trunc(input)


def clone(input, *, memory_format=None):
    """A copy that stays in the graph (gradient flows back to ``input``)."""
    return Clone.apply(input)


def to_copy(input, dtype):
    return ToCopy.apply(input, dtype=dtype)


# in-place forms: same formulas, result written into the first input
add_ = Add.inplace_function()
sub_ = Sub.inplace_function()
mul_ = Mul.inplace_function()
_Div_ = Div.inplace_variant()
_PowScalar_ = PowScalar.inplace_variant()
_Pow_ = Pow.inplace_variant()
neg_ = Neg.inplace_function()
exp_ = Exp.inplace_function()
log_ = Log.inplace_function()
sqrt_ = Sqrt.inplace_function()
abs_ = Abs.inplace_function()
sin_ = Sin.inplace_function()
cos_ = Cos.inplace_function()
tanh_ = Tanh.inplace_function()
sigmoid_ = Sigmoid.inplace_function()
relu_ = Relu.inplace_function()
floor_ = Floor.inplace_function()
ceil_ = Ceil.inplace_function()
round_ = Round.inplace_function()
reciprocal_ = Reciprocal.inplace_function()
_Clamp_ = Clamp.inplace_variant()
_ClampTensor_ = ClampTensor.inplace_variant()
_Fill_ = Fill.inplace_variant()
_Zero_ = Zero.inplace_variant()
_Copy_ = Copy.inplace_variant()
_Where_ = Where.inplace_variant()


def clamp_(input, min=None, max=None):  # noqa: A002
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _ClampTensor_.apply(input, min, max)
    return _Clamp_.apply(input, min=min, max=max)


def clamp_min_(input, min):  # noqa: A002
    return clamp_(input, min=min)


def clamp_max_(input, max):  # noqa: A002
    return clamp_(input, max=max)


def fill_(input, value):
    """Fill with a number, or with a one-element tensor (differentiable w.r.t. it)."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} dimensions.")
        return _Copy_.apply(input, value)
    return _Fill_.apply(input, value=value)


def zero_(input):
    return _Zero_.apply(input, value=0)


def copy_(input, src, non_blocking=False):
    """Copy ``src`` (broadcast) into ``input`` in place."""
    return _Copy_.apply(input, src)


def div_(input, other, *, rounding_mode=None):
    if rounding_mode is None:
        return _Div_.apply(input, other)
    return copy_(input, div(input, other, rounding_mode=rounding_mode))


def pow_(input, exponent):
    if _is_number(exponent):
        return _PowScalar_.apply(input, exponent=_scalar(exponent))
    return _Pow_.apply(input, exponent)


# ---- comparisons and logic (no gradient) ------------------------------------------------------
def _compare(ufunc):
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        if type(b) is not _ndarray:
            b = _scalar(b)
        try:
            return Tensor._wrap(np.asarray(ufunc(a, b)))
        except ValueError as e:
            raise _broadcast_error(a, b) from e
    op.__name__ = ufunc.__name__
    return op


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne
logical_and = _compare(np.logical_and)
logical_or = _compare(np.logical_or)
logical_xor = _compare(np.logical_xor)


def _bitwise(ufunc, name):
    def op(input, other):
        a, b = _array_of(input), _array_of(other)
        if np.result_type(a).kind == "f" or (type(b) is not _ndarray and isinstance(b, float)):
            raise RuntimeError(f"\"{name}_cpu\" not implemented for 'Float'")
        return Tensor._wrap(np.asarray(binary(ufunc, a, b)))
    return op


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


def logical_not(input):
    return Tensor._wrap(np.logical_not(input._data))


def bitwise_not(input):
    if input._data.dtype.kind == "f":
        raise RuntimeError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return Tensor._wrap(np.invert(input._data))


def isnan(input):
    return Tensor._wrap(np.isnan(input._data))


def isinf(input):
    return Tensor._wrap(np.isinf(input._data))


def isfinite(input):
    return Tensor._wrap(np.isfinite(input._data))


def isposinf(input):
    return Tensor._wrap(np.isposinf(input._data))


def isneginf(input):
    return Tensor._wrap(np.isneginf(input._data))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor._wrap(np.isclose(input._data, _array_of(other), rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True when ``|input - other| <= atol + rtol * |other|`` everywhere."""
    return builtins.bool(np.allclose(input._data, _array_of(other), rtol=rtol, atol=atol, equal_nan=equal_nan))


def equal(input, other) -> bool:
    """True when both tensors have the same shape and elements."""
    return input._data.shape == other._data.shape and builtins.bool(np.array_equal(input._data, other._data))


def signbit(input):
    return Tensor._wrap(np.signbit(input._data))
