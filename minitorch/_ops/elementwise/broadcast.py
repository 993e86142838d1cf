"""Type promotion and broadcasting for elementwise ops.

``binary`` computes a numpy ufunc in torch's result dtype. Shared by the op modules, this one
imports none of them. Gradients of the broadcast
shape need no care in the ops: the engine sums each back to its input's shape.
"""
from __future__ import annotations

import builtins

import numpy as np

from ... import _dtype
from ..._dtype import wrap_int
from ..._core.shape import broadcast_shape, shape_mismatch  # noqa: F401  (the ops import them from here)

_ndarray = np.ndarray
_pair_cache: dict = {}
_KIND = {"b": _dtype.BOOL, "u": _dtype.INT, "i": _dtype.INT, "f": _dtype.FLOAT, "V": _dtype.FLOAT,
         "c": _dtype.COMPLEX}


def _scalar_kind(x) -> int:
    if isinstance(x, builtins.bool):
        return _dtype.BOOL
    if isinstance(x, int):
        return _dtype.INT
    if isinstance(x, float):
        return _dtype.FLOAT
    if isinstance(x, complex):
        return _dtype.COMPLEX
    raise TypeError(f"unsupported operand type for a tensor operation: '{type(x).__name__}'")


def _default_of_kind(kind: int) -> np.dtype:
    return (np.dtype(np.bool_), np.dtype(np.int64), _dtype.get_default_dtype().np, _dtype.default_complex().np)[kind]


def operands(a, b) -> tuple:
    """``a`` and ``b`` as promotion reads them. Beside an array a numpy scalar counts as a Python number (torch's
    rule for user values); without one it keeps its dtype, as a 0-dim array: numpy turns results of 0-dim arrays
    into numpy scalars inside formulas."""
    a_arr, b_arr = type(a) is _ndarray, type(b) is _ndarray
    if a_arr and b_arr:
        return a, b
    if a_arr or b_arr:
        return (a if a_arr else _scalar(a)), (b if b_arr else _scalar(b))
    return (np.asarray(a) if isinstance(a, np.generic) else a), (np.asarray(b) if isinstance(b, np.generic) else b)


def result_dtype(a, b) -> np.dtype:
    """torch's result dtype for an elementwise op on ``a`` and ``b`` (arrays or numbers)."""
    return _result_dtype(*operands(a, b))


def _result_dtype(a, b) -> np.dtype:
    """``result_dtype`` of operands already read by ``operands``."""
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
        if kind <= _KIND[arr.dtype.kind]:
            return arr.dtype
        return _dtype.lift(_dtype.from_numpy_dtype(arr.dtype), _dtype.from_numpy_dtype(_default_of_kind(kind))).np
    return _default_of_kind(builtins.max(_scalar_kind(a), _scalar_kind(b)))


def _array_pair_dtype(da, db, a_zero_dim, b_zero_dim) -> np.dtype:
    ta, tb = _dtype.from_numpy_dtype(da), _dtype.from_numpy_dtype(db)
    if a_zero_dim == b_zero_dim:
        return _dtype.promote_types(ta, tb).np
    dim_t, zero_t = (tb, ta) if a_zero_dim else (ta, tb)
    return (_dtype.lift(dim_t, zero_t) if zero_t.kind > dim_t.kind else dim_t).np


def _scalar(x):
    """numpy scalars count as Python numbers in promotion, as in torch."""
    return x.item() if isinstance(x, np.generic) else x


def binary(ufunc, a, b, dtype=None):
    """``ufunc(a, b)`` computed in torch's result dtype, with torch's broadcasting error."""
    if dtype is None and type(a) is _ndarray and a.ndim:  # fast paths where numpy's result is torch's
        tb = type(b)
        if (tb is _ndarray and b.dtype is a.dtype and b.ndim) or ((tb is float or tb is int) and a.dtype.kind in "fV"):
            try:
                return ufunc(a, b)
            except ValueError:
                pass  # the general path below raises torch's error
    a, b = operands(a, b)
    dt = _result_dtype(a, b) if dtype is None else dtype
    try:
        if type(a) is _ndarray and a.dtype is dt and (type(b) is not _ndarray or b.dtype is dt):
            r = ufunc(a, b)
        else:  # unsafe: a 0-dim operand of the same category may not fit numpy's casting rules (int8 into uint8)
            r = ufunc(a, b, dtype=dt, casting="unsafe")
        return r if type(r) is _ndarray else np.asarray(r)  # numpy gives scalars for 0-dim inputs
    except ValueError as e:
        if "broadcast" not in str(e):
            raise
        raise shape_mismatch(np.shape(a), np.shape(b)) from None
    except OverflowError:  # a Python int outside the integer dtype: torch wraps it around
        return ufunc(wrap_int(a, dt), wrap_int(b, dt), dtype=dt)


def floating(a):
    """Integer and bool inputs of float-valued functions compute in the default float dtype."""
    if type(a) is _ndarray and a.dtype.kind in "biu":
        return a.astype(_dtype.get_default_dtype().np)
    return a
