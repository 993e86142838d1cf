"""Data types (``minitorch.float32`` ...) and PyTorch's type-promotion rules."""
from __future__ import annotations

import builtins

import ml_dtypes
import numpy as np


class dtype:
    """A tensor element type; wraps the numpy dtype that stores it."""

    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize", "legacy_name", "kind")

    def __init__(self, name: str, np_dtype, legacy_name: str, kind: int):
        np_dtype = np.dtype(np_dtype)
        values = dict(name=name, np=np_dtype, is_floating_point=kind == FLOAT, is_complex=kind == COMPLEX,
                      is_signed=np_dtype.kind in "ifcV", itemsize=np_dtype.itemsize,
                      legacy_name=legacy_name,  # the name Tensor.type() and error messages use
                      kind=kind)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'minitorch.dtype' objects is not writable")

    def __repr__(self) -> str:
        return "minitorch." + self.name

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))

    @property
    def is_bool(self) -> bool:
        return self.kind == BOOL


# Type categories, ordered: a higher category wins in promotion regardless of size
# (but a complex number with a float keeps the float's precision: float64 with complex64 gives complex128).
BOOL, INT, FLOAT, COMPLEX = 0, 1, 2, 3

bool = dtype("bool", np.bool_, "torch.BoolTensor", BOOL)  # noqa: A001  (torch.bool)
uint8 = dtype("uint8", np.uint8, "torch.ByteTensor", INT)
int8 = dtype("int8", np.int8, "torch.CharTensor", INT)
int16 = dtype("int16", np.int16, "torch.ShortTensor", INT)
int32 = dtype("int32", np.int32, "torch.IntTensor", INT)
int64 = dtype("int64", np.int64, "torch.LongTensor", INT)
float16 = dtype("float16", np.float16, "torch.HalfTensor", FLOAT)
# bfloat16 is stored as ml_dtypes' numpy type (kind "V"); ops compute it in float32 and round each result
# (_core.lowered), as torch's CPU kernels do.
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, "torch.BFloat16Tensor", FLOAT)
BF16 = bfloat16.np
float32 = dtype("float32", np.float32, "torch.FloatTensor", FLOAT)
float64 = dtype("float64", np.float64, "torch.DoubleTensor", FLOAT)
complex64 = dtype("complex64", np.complex64, "torch.ComplexFloatTensor", COMPLEX)
complex128 = dtype("complex128", np.complex128, "torch.ComplexDoubleTensor", COMPLEX)
cfloat, cdouble = complex64, complex128

ALL = (bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_LEGACY = {d.legacy_name: d for d in ALL}
# torch's short names for the C types, used in some error messages ("Float", "Long", ...)
C_NAMES = {float16: "Half", bfloat16: "BFloat16", float32: "Float", float64: "Double", int64: "Long", int32: "Int",
           int16: "Short", int8: "Char", uint8: "Byte", bool: "Bool", complex64: "ComplexFloat",
           complex128: "ComplexDouble"}


def _dtype_by_name(name: str) -> dtype:
    return _BY_NAME[name]


class _Defaults:
    float = float32


_defaults = _Defaults()


def get_default_dtype() -> dtype:
    """The dtype of floating-point tensors made from Python floats (float32 unless changed)."""
    return _defaults.float


def set_default_dtype(d: dtype) -> None:
    """Set the default floating-point dtype (float32 or float64), as ``torch.set_default_dtype``."""
    if d not in (float16, bfloat16, float32, float64):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _defaults.float = d


def from_numpy_dtype(np_dtype) -> dtype:
    """The minitorch dtype that stores values as ``np_dtype``."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        d = np.dtype(np_dtype)
        if d in _BY_NP:
            return _BY_NP[d]
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{d.name}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.") from None


def to_dtype(d) -> dtype:
    """Accept a minitorch dtype, a numpy dtype, a Python type or a legacy type string."""
    if type(d) is dtype:
        return d
    if d is float:
        return float64  # Python's float is a double, as in torch
    if d is int:
        return int64
    if d is builtins.bool:
        return bool
    if isinstance(d, str) and d in _BY_LEGACY:
        return _BY_LEGACY[d]
    return from_numpy_dtype(d)


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to, by torch's table.

    Within a category numpy's rules agree with torch's; across categories
    the higher category's type wins (int64 with float16 gives float16).
    """
    if a is b:
        return a
    if a is bfloat16 or b is bfloat16:  # numpy does not know torch's rules for it
        other = b if a is bfloat16 else a
        if other.kind < FLOAT:
            return bfloat16
        return float32 if other is float16 else promote_types(float32, other)
    if a.kind != b.kind and {a.kind, b.kind} != {FLOAT, COMPLEX}:
        return a if a.kind > b.kind else b
    return _BY_NP[np.promote_types(a.np, b.np)]


def complex_of(d: dtype) -> dtype:
    """The complex dtype with the precision of floating dtype ``d`` (complex128 for float64, else complex64)."""
    return complex128 if d is float64 else complex64


def default_complex() -> dtype:
    """The dtype of complex tensors made from Python complex numbers: the default float's complex counterpart."""
    return complex_of(_defaults.float)


def lift(dim_dtype: dtype | None, higher: dtype) -> dtype:
    """``higher``, the type of an operand of a higher category (a 0-dim tensor or a number), combined with
    ``dim_dtype``, that of the tensors with dimensions: a complex one keeps a float tensor's precision."""
    if dim_dtype is not None and dim_dtype.kind == FLOAT and higher.kind == COMPLEX:
        return complex_of(dim_dtype)
    return higher


def result_type(*operands) -> dtype:
    """The dtype of an elementwise op's result, by torch's rules.

    Operands are Tensors or Python numbers. Tensors with dimensions decide the
    type; zero-dim tensors count only when of a higher category; Python
    numbers count only by category (a float with ints gives the default float).
    """
    from ._core.tensor import Tensor  # (the Tensor is built on dtypes)

    dim_t = zero_t = None
    scalar_kind = -1
    for x in operands:
        if isinstance(x, Tensor):
            d = x.dtype
            if x._data.ndim:
                dim_t = d if dim_t is None else promote_types(dim_t, d)
            else:
                zero_t = d if zero_t is None else promote_types(zero_t, d)
        else:
            k = scalar_kind_of(x)
            if k > scalar_kind:
                scalar_kind = k
    result = dim_t
    if zero_t is not None and (result is None or zero_t.kind > result.kind):
        result = lift(result, zero_t)
    if scalar_kind >= 0 and (result is None or scalar_kind > result.kind):
        result = lift(result, (bool, int64, get_default_dtype(), default_complex())[scalar_kind])
    return result


def wrap_int(x, np_dtype: np.dtype):
    """A Python int as a value of integer dtype ``np_dtype``, wrapped around as torch converts it (-1 -> 255 for
    uint8); anything else unchanged."""
    if type(x) is int and np_dtype.kind in "iu":
        return np.array(x).astype(np_dtype)
    return x


def scalar_kind_of(x) -> int:
    """Category of a Python (or numpy) scalar."""
    if isinstance(x, (builtins.bool, np.bool_)):
        return BOOL
    if isinstance(x, (int, np.integer)):
        return INT
    if isinstance(x, (float, np.floating)):
        return FLOAT
    if isinstance(x, (complex, np.complexfloating)):
        return COMPLEX
    raise TypeError(f"unsupported operand type: {type(x).__name__}")
