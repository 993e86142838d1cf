"""The tensor operations by family, bound here as Tensor methods and operators.

Each op module registers its public functions where it defines them (see ``minitorch._core.registry``);
importing them all fills the registry, from which the Tensor methods are bound.
"""
import builtins

import numpy as np

from .. import _factories
from .._core import registry as _registry
from .._core.out import with_out
from .._core.tensor import Tensor
from . import dropout, fft, normalization  # noqa: F401  (importing an op module registers its ops)
from .conv import (convolution, fold, geometry, padding, pixel_shuffle, pooling, pooling_functions,  # noqa: F401
                   sampling, winograd)
from .elementwise import (activation, arithmetic, bessel, broadcast, clamp, comparison, complex, numeric,  # noqa: F401
                          special, trigonometric, unary)
from .linalg import decompositions, distance, factorizations, householder, ldl, lowrank, lu, products  # noqa: F401
from .loss import classification, ctc, ranking, reduction, regression  # noqa: F401
from .reduction import counting, extrema, norm, scans, softmax, sorting, statistics, sums  # noqa: F401
from .sequence import attention, embedding, rnn  # noqa: F401
from .shape import copying, diagonal, indexing, joins, scatter, triangular, view, view_copy  # noqa: F401

for _name, _function in _registry.methods().items():
    setattr(Tensor, _name, _function)

# torch's functions that take ``out=`` and are written here without it: their minitorch.* form gets it (the
# Tensor methods stay as they are). The ops made by ``Op.function`` and the factories take it already.
_OUT_ARGUMENT = (
    "addcdiv addcmul addmm all amax amin aminmax argmax argmin bitwise_and bitwise_left_shift bitwise_not bitwise_or "
    "bitwise_right_shift bitwise_xor bmm bucketize cat column_stack concat concatenate conj_physical cross cummax "
    "cummin cumprod cumsum diag dot dstack eq floor_divide fmax fmin fmod frexp gather ge ger greater "
    "greater_equal gt histc histogram histogramdd hstack index_select inner isneginf isposinf kron kthvalue le "
    "lerp less less_equal logcumsumexp logical_and logical_not logical_or logical_xor logit logsumexp lt masked_select "
    "matrix_power max maximum min minimum mm mode multinomial mv mvlgamma nan_to_num nanmean nanquantile "
    "narrow_copy ne nonzero not_equal outer polar polygamma pow quantile remainder renorm round row_stack "
    "searchsorted sgn signbit sort stack std std_mean take_along_dim topk tril triu var var_mean vstack where "
    "xlogy any argsort bernoulli clamp_max clamp_min diff hardshrink index_add index_copy index_reduce "
    "log_softmax mean median msort nanmedian nansum prod scatter scatter_add scatter_reduce softmax square sum take "
    "threshold slice_scatter alias_copy as_strided_copy detach_copy diagonal_copy expand_copy permute_copy "
    "select_copy slice_copy split_copy split_with_sizes_copy squeeze_copy t_copy transpose_copy unbind_copy "
    "unfold_copy unsqueeze_copy view_copy").split()
for _name in _OUT_ARGUMENT:
    _registry.TOP_LEVEL_FORMS[_name] = with_out(_registry.ENTRIES[_name].function)


def _where(self, condition, other):
    return clamp.where(condition, self, other)


def _eq(self, other):
    return False if other is None else comparison.eq(self, other)


def _ne(self, other):
    return True if other is None else comparison.ne(self, other)


def _logical_or_bitwise(logical, bitwise):
    def op(self, other):
        a = self._data.dtype.kind == "b"
        b = other._data.dtype.kind == "b" if isinstance(other, Tensor) else isinstance(other, bool)
        return logical(self, other) if a and b else bitwise(self, other)
    return op


def _invert(self):
    if self._data.dtype.kind in "fV":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return comparison.logical_not(self) if self._data.dtype.kind == "b" else comparison.bitwise_not(self)


_and = _logical_or_bitwise(comparison.logical_and, comparison.bitwise_and)
_or = _logical_or_bitwise(comparison.logical_or, comparison.bitwise_or)
_xor = _logical_or_bitwise(comparison.logical_xor, comparison.bitwise_xor)

_OPERATORS = {
    "__add__": arithmetic.Add.apply,
    "__radd__": arithmetic.Add.apply,
    "__iadd__": arithmetic._Add_.apply,
    "__sub__": arithmetic.Sub.apply,
    "__rsub__": arithmetic.rsub,
    "__isub__": arithmetic._Sub_.apply,
    "__mul__": arithmetic.Mul.apply,
    "__rmul__": arithmetic.Mul.apply,
    "__imul__": arithmetic.mul_,
    "__truediv__": arithmetic.Div.apply,
    "__rtruediv__": lambda self, other: unary.reciprocal(self) * other,
    "__itruediv__": arithmetic.div_,
    "__floordiv__": arithmetic.floor_divide,
    "__rfloordiv__": lambda self, other: arithmetic.floor_divide(other, self),
    "__mod__": arithmetic.remainder,
    "__rmod__": lambda self, other: arithmetic.remainder(other, self),
    "__pow__": arithmetic.pow,
    "__rpow__": lambda self, other: arithmetic.pow(other, self),
    "__ipow__": arithmetic.pow_,
    "__matmul__": products._product,
    "__rmatmul__": lambda self, other: products._product(other, self),
    "__neg__": unary.neg,
    "__pos__": unary.positive,
    "__abs__": unary.abs,
    "__invert__": _invert,
    "__and__": _and,
    "__rand__": _and,
    "__or__": _or,
    "__ror__": _or,
    "__xor__": _xor,
    "__rxor__": _xor,
    "__iand__": comparison.bitwise_and_,
    "__ior__": comparison.bitwise_or_,
    "__ixor__": comparison.bitwise_xor_,
    "__lshift__": comparison.bitwise_left_shift,
    "__rlshift__": lambda self, other: comparison.bitwise_left_shift(other, self),
    "__ilshift__": comparison.bitwise_left_shift_,
    "__rshift__": comparison.bitwise_right_shift,
    "__rrshift__": lambda self, other: comparison.bitwise_right_shift(other, self),
    "__irshift__": comparison.bitwise_right_shift_,
    "__eq__": _eq,
    "__ne__": _ne,
    "__lt__": comparison.lt,
    "__le__": comparison.le,
    "__gt__": comparison.gt,
    "__ge__": comparison.ge,
    "__getitem__": indexing.getitem,
    "__setitem__": indexing.setitem,
    "where": _where,
}
# What a binary operator takes beside a tensor; for anything else it returns NotImplemented, as torch's do, so that
# Python tries the other operand and raises its own TypeError ("'<' not supported between instances of 'Tensor' and
# 'str'"), or compares identities for == and !=.
_OPERANDS = (Tensor, int, float, builtins.complex, np.ndarray, np.generic)


def _binary(name, fn):
    def operator(self, other):
        if isinstance(other, _OPERANDS):
            return fn(self, other)
        return NotImplemented
    operator.__name__ = operator.__qualname__ = name
    operator.__wrapped__ = fn
    return operator


_NOT_BINARY = ("__neg__", "__pos__", "__abs__", "__invert__", "__getitem__", "__setitem__", "where")
for _name, _fn in _OPERATORS.items():
    setattr(Tensor, _name, _fn if _name in _NOT_BINARY else _binary(_name, _fn))
Tensor.real = property(complex.real_property, complex.set_real)
Tensor.imag = property(complex.imag_property, complex.set_imag)
Tensor.T = property(view.T_property)
Tensor.mT = property(view.mT_property)
Tensor.mH = property(products.mH_property)
Tensor.H = property(products.H_property)
