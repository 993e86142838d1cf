"""``Parameter``: a leaf tensor that a Module registers as one of its parameters."""
from __future__ import annotations

import numpy as np

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
