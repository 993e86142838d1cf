"""The tensor operations by family, bound here as Tensor methods and operators.

Each op module registers its public functions where it defines them (see ``minitorch._core.registry``);
importing them all fills the registry, from which the Tensor methods are bound.
"""
import builtins

import numpy as np

from .. import _factories, _random_factories  # noqa: F401  (the factories' Tensor methods: new_zeros, uniform_, ...)
from .._core import registry as _registry
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
from .shape import (copying, diagonal, indexing, joins, scatter, subscript, triangular, view,  # noqa: F401
                    view_copy)

for _name, _function in _registry.methods().items():
    setattr(Tensor, _name, _function)

# What a binary operator takes beside a tensor; for anything else it returns NotImplemented, as torch's do, so that
# Python tries the other operand and raises its own TypeError ("'<' not supported between instances of 'Tensor' and
# 'str'"), or compares identities for == and !=.
_OPERANDS = (Tensor, int, float, builtins.complex, np.ndarray, np.generic)
_UNARY = ("__neg__", "__pos__", "__abs__", "__invert__")  # Python's unary operators


def _binary(name, fn):
    def operator(self, other):
        if isinstance(other, _OPERANDS):
            return fn(self, other)
        return NotImplemented
    operator.__name__ = operator.__qualname__ = name
    operator.__wrapped__ = fn
    return operator


for _name, _fn in _registry.OPERATORS.items():
    setattr(Tensor, _name, _fn if _name in _UNARY or _name in _registry.ANY_OPERAND else _binary(_name, _fn))
Tensor.real = property(complex.real_property, complex.set_real)
Tensor.imag = property(complex.imag_property, complex.set_imag)
Tensor.T = property(view.T_property)
Tensor.mT = property(view.mT_property)
Tensor.mH = property(products.mH_property)
Tensor.H = property(products.H_property)
