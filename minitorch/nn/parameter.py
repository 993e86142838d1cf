"""``Parameter``: a leaf tensor that a Module registers as one of its parameters."""
from __future__ import annotations

import numpy as np

from .. import _factories
from .._tensor import Tensor, _rebuild


class Parameter(Tensor):
    """A tensor that requires grad by default and is registered when assigned to a Module attribute.

    ``Parameter(t)`` shares ``t``'s storage, as in PyTorch.
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True):
        arr = np.empty((0,), np.float32) if data is None else data._data
        p = cls._wrap(arr)
        if requires_grad:
            if arr.dtype.kind != "f":
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            p._requires_grad = True
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        pass  # everything happens in __new__; Tensor.__init__ is the legacy constructor

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild, (Parameter, self._data, self._requires_grad))


class UninitializedTensorMixin:
    """A tensor whose shape is not known yet (a lazy module's): ``materialize(shape)`` gives it storage, with
    uninitialised values, and turns it into ``cls_to_become``."""

    cls_to_become: type = Tensor

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate ``shape`` (uninitialised) and become a ``cls_to_become``."""
        self._data = _factories.empty(*tuple(shape), dtype=dtype or self._data.dtype)._data
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                           "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                           "initialized one. Call `forward` to initialize the parameters before accessing their "
                           "attributes.")

    def size(self, dim=None):
        return self.shape

    def detach(self):
        """Another uninitialised tensor of this kind (what a lazy module's state_dict holds)."""
        return type(self)(dtype=self.dtype)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape is set by its lazy module's first forward."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        return Parameter.__new__(cls, _factories.empty(0, dtype=dtype), requires_grad)

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        pass


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is set by its lazy module's first forward."""

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None):
        t = cls._wrap(_factories.empty(0, dtype=dtype)._data)
        t.requires_grad_(requires_grad)
        return t

    def __init__(self, requires_grad: bool = False, device=None, dtype=None):
        pass
