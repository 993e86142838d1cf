"""The tensor operations, bound here as Tensor methods and operators."""
from .. import _factories
from .._tensor import Tensor
from ..autograd import function as _function
from . import arithmetic, comparison, copying, indexing, linalg, reduction, unary, view

_function.Tensor = Tensor  # the op machinery needs the class; it is defined before the ops load

_METHODS = {
    arithmetic: """add sub subtract mul multiply div divide true_divide floor_divide remainder fmod pow square
        maximum minimum fmax fmin clamp clip clamp_min clamp_max add_ sub_ mul_ div_ pow_ clamp_ clamp_min_
        clamp_max_""",
    unary: """neg negative exp log log1p expm1 log2 log10 sqrt rsqrt reciprocal abs absolute sign sin cos tan
        tanh sigmoid relu floor ceil trunc fix round frac neg_ exp_ log_ sqrt_ abs_ sin_ cos_ tanh_ sigmoid_
        relu_ floor_ ceil_ round_ reciprocal_""",
    copying: "clone fill_ zero_ copy_",
    comparison: """eq ne lt le gt ge greater greater_equal less less_equal not_equal logical_and logical_or
        logical_xor logical_not bitwise_and bitwise_or bitwise_xor bitwise_not isnan isinf isfinite isposinf
        isneginf isclose allclose equal signbit""",
    view: """view view_as reshape reshape_as flatten unflatten ravel permute transpose swapaxes swapdims t
        movedim moveaxis squeeze unsqueeze expand expand_as broadcast_to sum_to_size unbind split
        split_with_sizes chunk tensor_split repeat tile flip contiguous""",
    indexing: """select narrow gather take_along_dim scatter scatter_add scatter_ scatter_add_ index_select
        masked_fill masked_fill_ masked_select nonzero argwhere index_put index_put_""",
    reduction: """sum mean prod max min amax amin argmax argmin var std logsumexp softmax log_softmax cumsum
        all any count_nonzero""",
    linalg: "mm bmm mv dot inner matmul outer ger addmm",
    _factories: "uniform_ normal_ bernoulli_ random_ exponential_",
}
for _module, _names in _METHODS.items():
    for _name in _names.split():
        setattr(Tensor, _name, getattr(_module, _name))


def _where(self, condition, other):
    return arithmetic.where(condition, self, other)


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
    if self._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return comparison.logical_not(self) if self._data.dtype.kind == "b" else comparison.bitwise_not(self)


_and = _logical_or_bitwise(comparison.logical_and, comparison.bitwise_and)
_or = _logical_or_bitwise(comparison.logical_or, comparison.bitwise_or)
_xor = _logical_or_bitwise(comparison.logical_xor, comparison.bitwise_xor)

_OPERATORS = {
    "__add__": arithmetic.Add.function(),
    "__radd__": arithmetic.Add.function(),
    "__iadd__": arithmetic.add_,
    "__sub__": arithmetic.Sub.function(),
    "__rsub__": arithmetic.rsub,
    "__isub__": arithmetic.sub_,
    "__mul__": arithmetic.Mul.function(),
    "__rmul__": arithmetic.Mul.function(),
    "__imul__": arithmetic.mul_,
    "__truediv__": arithmetic.Div.function(),
    "__rtruediv__": lambda self, other: unary.reciprocal(self) * other,
    "__itruediv__": arithmetic.div_,
    "__floordiv__": arithmetic.floor_divide,
    "__rfloordiv__": lambda self, other: arithmetic.floor_divide(other, self),
    "__mod__": arithmetic.remainder,
    "__rmod__": lambda self, other: arithmetic.remainder(other, self),
    "__pow__": arithmetic.pow,
    "__rpow__": lambda self, other: arithmetic.pow(other, self),
    "__ipow__": arithmetic.pow_,
    "__matmul__": linalg.matmul,
    "__rmatmul__": lambda self, other: linalg.matmul(other, self),
    "__neg__": unary.neg,
    "__pos__": lambda self: self,
    "__abs__": unary.abs,
    "__invert__": _invert,
    "__and__": _and,
    "__rand__": _and,
    "__or__": _or,
    "__ror__": _or,
    "__xor__": _xor,
    "__rxor__": _xor,
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
for _name, _fn in _OPERATORS.items():
    setattr(Tensor, _name, _fn)
Tensor.T = property(view.T_property)
Tensor.mT = property(view.mT_property)
