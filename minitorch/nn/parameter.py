"""``Parameter``, ``Buffer`` and the uninitialized (lazy) forms of both."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from .._core.tensor import Tensor, _rebuild


class Parameter(Tensor):
    """A tensor that requires grad by default and is registered when assigned to a Module attribute.

    ``Parameter(t)`` shares ``t``'s storage, as in PyTorch.
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True):
        arr = np.empty((0,), np.float32) if data is None else data._data
        p = cls._wrap(arr)
        if requires_grad:
            if arr.dtype.kind not in "fV":
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            p._requires_grad = True
        return p

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        pass  # everything happens in __new__; Tensor.__init__ is the legacy constructor

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild, (Parameter, self._data, self._requires_grad))


class _BufferMeta(type):
    """``isinstance(t, Buffer)`` holds for the tensors that ``Buffer(...)`` marked (as in torch)."""

    def __instancecheck__(cls, instance) -> bool:
        if cls is Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer (state, not a parameter) when assigned to an attribute.

    ``persistent=False`` keeps it out of the state_dict.
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        t = Tensor._wrap(np.empty((0,), np.float32)) if data is None else data.detach()
        t._requires_grad = False if data is None else data.requires_grad
        t.persistent, t._is_buffer = persistent, True
        return t


def _empty(dtype) -> np.ndarray:
    return np.empty((0,), (_dtype.get_default_dtype() if dtype is None else _dtype.to_dtype(dtype)).np)


class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (lazy modules); ``materialize`` gives it one."""

    cls_to_become: type

    def __init__(self, *args, **kwargs):
        pass  # everything happens in __new__ (Tensor.__init__ is the legacy constructor)

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Become a ``cls_to_become`` of ``shape`` (uninitialised values), keeping dtype unless given."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self._data = np.empty(shape, self._data.dtype if dtype is None else _dtype.to_dtype(dtype).np)
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

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
                           "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"

    def __reduce_ex__(self, protocol):
        return (self.__class__, (self.requires_grad,))


def is_lazy(param) -> bool:
    """Whether ``param`` is an uninitialized (lazy) parameter or buffer."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter without a shape yet; becomes a Parameter when materialized."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        p = cls._wrap(_empty(dtype))
        p._requires_grad = requires_grad
        return p


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer without a shape yet; becomes a Tensor when materialized."""

    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent: bool = True):
        b = cls._wrap(_empty(dtype))
        b._requires_grad = requires_grad
        b.persistent, b._is_buffer = persistent, True
        return b
