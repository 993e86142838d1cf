"""The Tensor: a numpy array plus what autograd needs to know about it.

Fields (all plain attributes, so the per-op path stays cheap):

- ``_data``: the numpy array holding the values. Views share memory with their base.
- ``_requires_grad``: True for leaves that require grad and for every recorded result.
- ``grad_fn``: the backward ``Node`` that produced the tensor (None for leaves).
- ``_output_nr``: which output of ``grad_fn`` this tensor is.
- ``_vc``: the version counter, shared with all views of the same storage,
  created on first need (saving for backward, making a view, an in-place op).

Rarely set fields (``_grad``, ``_base``, ``_hooks``, ...) default to class
attributes and live in the instance ``__dict__`` once set. Operations are
defined in ``minitorch/_ops`` and bound as methods at the end of this file.
"""
from __future__ import annotations

import os
import sys
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from . import _dtype
from ._dtype import dtype as _dtype_cls
from .autograd.graph import AccumulateGrad
from .autograd.grad_mode import state


class Size(tuple):
    """The shape of a tensor: a tuple of ints that prints as ``minitorch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"minitorch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))


class device:
    """Where a tensor lives. minitorch is CPU-only: ``device('cpu')``."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int | None = None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        if ":" in type:
            type, idx = type.split(":")
            index = int(idx)
        self.type = type
        self.index = index

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def _check_device(d) -> None:
    if d is None:
        return
    name = str(d) if isinstance(d, device) else d
    if isinstance(name, str) and (name.startswith("cuda") or name == "mps"):
        raise AssertionError("Torch not compiled with CUDA enabled" if name.startswith("cuda")
                             else "minitorch runs on the CPU only")
    if str(name) != "cpu":
        raise RuntimeError(f"Expected one of cpu device type at start of device string: {name}")


class _VersionCounter:
    """The version shared by a tensor and its views, and where the last in-place change came from."""

    __slots__ = ("value", "site")

    def __init__(self):
        self.value = 0
        self.site = None  # (operation, file, line) of the last change, for error messages


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _call_site(op: str | None):
    """(operation, file, line) of the user's code that called into minitorch.

    ``op`` names the operation; by default, the minitorch function the user called.
    """
    frame, inner = sys._getframe(2), None
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, inner = frame.f_back, frame
    if frame is None:
        return None
    if op is None and inner is None:
        op = "an in-place operation"
    elif op is None:  # the method of the object the user called, e.g. SGD.step
        owner = inner.f_locals.get("self")
        qualname = getattr(inner.f_code, "co_qualname", inner.f_code.co_name)  # co_qualname is Python 3.11+
        op = f"{type(owner).__name__}.{inner.f_code.co_name}" if owner is not None else qualname
    return op, frame.f_code.co_filename, frame.f_lineno


class Tensor:
    """A multi-dimensional array with autograd, like ``torch.Tensor``."""

    __slots__ = ("_data", "_requires_grad", "grad_fn", "_output_nr", "_vc", "__dict__", "__weakref__")
    __array_priority__ = 1000  # numpy defers to our reflected operators

    # rarely set; kept in the instance __dict__ when they are
    _grad = None
    _base = None
    _accum = None            # weakref to this leaf's AccumulateGrad
    _hooks = None            # {id: hook} for leaves (non-leaf hooks live on grad_fn)
    _post_acc_hooks = None
    _retains_grad = False
    _is_inference = False
    _view_of_multi_output = False
    _views = None            # WeakSet of the views of this base, see autograd.function._make_views

    def __init__(self, *args, **kwargs):
        """Legacy constructor: ``Tensor([1, 2])`` copies data as float; ``Tensor(2, 3)`` makes an uninitialised 2x3."""
        from ._factories import legacy_new
        t = legacy_new(args, kwargs)
        self._data, self._requires_grad, self.grad_fn, self._output_nr, self._vc = t._data, False, None, 0, None

    @classmethod
    def _wrap(cls, arr: np.ndarray) -> "Tensor":
        """A new leaf tensor around ``arr`` (no copy). The hot path for every op result."""
        t = _new(cls)
        t._data = arr
        t._requires_grad = False
        t.grad_fn = None
        t._output_nr = 0
        t._vc = None
        return t

    # ---- versions ------------------------------------------------------------
    def _version_counter(self) -> _VersionCounter:
        vc = self._vc
        if vc is None:
            vc = self._vc = _VersionCounter()
        return vc

    @property
    def _version(self) -> int:
        vc = self._vc
        return 0 if vc is None else vc.value

    def _bump(self, op: str | None = None) -> None:
        """An in-place change: next version, and remember where it came from (``op``: its name)."""
        vc = self._vc
        if vc is None:
            vc = self._vc = _VersionCounter()
        vc.value += 1
        vc.site = _call_site(op)

    # ---- metadata ------------------------------------------------------------
    @property
    def dtype(self) -> _dtype_cls:
        return _dtype._BY_NP[self._data.dtype]

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        """The shape, or the size of one dimension."""
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def stride(self, dim: int | None = None):
        """Strides in elements, as torch counts them."""
        item = self._data.itemsize
        strides = tuple(s // item for s in self._data.strides)
        return strides if dim is None else strides[_wrap_dim(dim, self._data.ndim)]

    def is_contiguous(self, memory_format=None) -> bool:
        return self._data.flags.c_contiguous

    def data_ptr(self) -> int:
        return self._data.__array_interface__["data"][0]

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_complex(self) -> bool:
        return False

    @property
    def device(self) -> device:
        return CPU

    is_cuda = False
    is_sparse = False
    is_quantized = False
    is_meta = False
    layout = "torch.strided"

    def get_device(self) -> int:
        return -1

    def cpu(self) -> "Tensor":
        return self

    def cuda(self, *args, **kwargs):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def is_inference(self) -> bool:
        return self._is_inference

    # ---- autograd attributes ---------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None:
            msg = "you can only change requires_grad flags of leaf variables."
            if not value:
                msg += (" If you want to use a computed variable in a subgraph that doesn't require "
                        "differentiation use var_no_grad = var.detach().")
            raise RuntimeError(msg)
        if value and self._data.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if value and self._is_inference and not state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Set ``requires_grad`` in place (leaves only) and return self."""
        if self.grad_fn is not None and requires_grad:
            return self
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
                "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
                "Tensor by mistake, make sure you access the leaf Tensor instead. See "
                "github.com/pytorch/pytorch/pull/30531 for more information.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_TYPE_NAMES[value.dtype]}' to a tensor with "
                    f"grad_dtype '{_dtype.C_NAMES[self.dtype]}'. The gradient must match the tensor's grad_dtype "
                    "(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific "
                    "dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
                    "and its gradient may break downstream systems that assume they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                    f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep the gradient of this non-leaf tensor in ``.grad`` during backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        node = self.grad_fn
        if node._retained is None:
            node._retained = {}
        node._retained[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a replacement.

        Returns a handle whose ``remove()`` unregisters the hook.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn._register_tensor_hook(self._output_nr, hook)
        from .utils.hooks import add_hook
        if self._hooks is None:
            self._hooks = OrderedDict()
        return add_hook(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after a gradient has been accumulated into this leaf's ``.grad``."""
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        from .utils.hooks import add_hook
        if self._post_acc_hooks is None:
            self._post_acc_hooks = OrderedDict()
        return add_hook(self._post_acc_hooks, hook)

    def _accumulator(self):
        """This leaf's AccumulateGrad node, shared by every graph that uses the leaf while one is alive
        (held weakly: a strong reference would make a cycle with the node's ``variable``)."""
        ref = self._accum
        if ref is not None:
            node = ref()
            if node is not None:
                return node
        node = AccumulateGrad(self)
        self._accum = weakref.ref(node)
        return node

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. the graph leaves (see ``minitorch.autograd.backward``)."""
        from .autograd import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    @property
    def data(self) -> "Tensor":
        """The same values as a tensor outside the graph, with its own version counter."""
        t = Tensor._wrap(self._data)
        t._is_inference = self._is_inference
        return t

    @data.setter
    def data(self, value: "Tensor") -> None:
        self._data = value._data

    def detach(self) -> "Tensor":
        """A new leaf sharing storage and version counter with self, outside the graph."""
        t = Tensor._wrap(self._data)
        t._vc = self._version_counter()
        if self._is_inference:
            t._is_inference = True
        return t

    def detach_(self) -> "Tensor":
        """Detach this tensor from the graph in place and make it a leaf that needs no grad."""
        self.grad_fn = None
        self._requires_grad = False
        self._output_nr = 0
        return self

    # ---- conversion ------------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The underlying numpy array (shared memory)."""
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy()
        if dtype is not None and arr.dtype != dtype:
            return arr.astype(dtype)
        return np.array(arr, copy=True) if copy else arr

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def __float__(self) -> float:
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.item())

    def __complex__(self) -> complex:
        return complex(self._scalar())

    def _scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.item()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from ._tensor_str import _str
        return _str(self)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self._data.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (type(self), self._data, self._requires_grad))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the "
                               "deepcopy protocol at the moment.  If you were attempting to deepcopy a module, "
                               "this may be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        if id(self) in memo:
            return memo[id(self)]
        new = _rebuild(type(self), np.array(self._data, copy=True), self._requires_grad)
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        new.__dict__.update({k: v for k, v in self.__dict__.items()
                             if k not in ("_grad", "_accum", "_hooks", "_base", "_post_acc_hooks")})
        memo[id(self)] = new
        return new

    def __dlpack__(self, *args, **kwargs):
        return self._data.__dlpack__(*args, **kwargs)

    # ---- type conversion ---------------------------------------------------------
    def to(self, *args, **kwargs) -> "Tensor":
        """Convert dtype (``to(minitorch.float64)``, ``to(other)``, ``to('cpu', dtype)``); device must be cpu.

        Returns ``self`` when nothing changes, unless ``copy=True``.
        """
        dt = kwargs.pop("dtype", None)
        copy = kwargs.pop("copy", False)
        _check_device(kwargs.pop("device", None))
        kwargs.pop("non_blocking", None)
        kwargs.pop("memory_format", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        for a in args:
            if isinstance(a, Tensor):
                dt = a.dtype
            elif isinstance(a, (str, device)):
                _check_device(a)
            elif a is not None:
                dt = a
        dt = self.dtype if dt is None else _dtype.to_dtype(dt)
        if dt is self.dtype and not copy:
            return self
        from ._ops.broadcast import to_copy
        return to_copy(self, dt)

    def type(self, dtype=None, non_blocking: bool = False):
        """Without an argument, the legacy type name (``'torch.FloatTensor'``); else convert."""
        if dtype is None:
            return self.dtype.legacy_name
        return self.to(_dtype.to_dtype(dtype))

    def type_as(self, other: "Tensor") -> "Tensor":
        return self.to(other.dtype)

    def float(self) -> "Tensor":
        return self.to(_dtype.float32)

    def double(self) -> "Tensor":
        return self.to(_dtype.float64)

    def half(self) -> "Tensor":
        return self.to(_dtype.float16)

    def long(self) -> "Tensor":
        return self.to(_dtype.int64)

    def int(self) -> "Tensor":
        return self.to(_dtype.int32)

    def short(self) -> "Tensor":
        return self.to(_dtype.int16)

    def char(self) -> "Tensor":
        return self.to(_dtype.int8)

    def byte(self) -> "Tensor":
        return self.to(_dtype.uint8)

    def bool(self) -> "Tensor":
        return self.to(_dtype.bool)

    # ---- factories from an existing tensor -----------------------------------------
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False) -> "Tensor":
        from ._factories import tensor
        return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False) -> "Tensor":
        from ._factories import zeros
        return zeros(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False) -> "Tensor":
        from ._factories import ones
        return ones(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False) -> "Tensor":
        from ._factories import empty
        return empty(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False) -> "Tensor":
        from ._factories import full
        return full(size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


_new = object.__new__
_C_TYPE_NAMES = {_dtype.float16: "c10::Half", _dtype.float32: "float", _dtype.float64: "double",
                 _dtype.int64: "long int", _dtype.int32: "int", _dtype.int16: "short int",
                 _dtype.int8: "signed char", _dtype.uint8: "unsigned char", _dtype.bool: "bool"}


def _rebuild(cls, arr, requires_grad):
    t = cls._wrap(arr)
    t._requires_grad = requires_grad
    return t


def _wrap_dim(dim: int, ndim: int) -> int:
    """Normalise a possibly negative dim, with torch's IndexError when out of range."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n if ndim > 0 else 0


from . import _ops  # noqa: E402,F401  (the ops need Tensor defined; they bind themselves as methods)
