"""``SparseCooTensor``: a Tensor in the sparse COO layout, held as an index array and a values tensor."""
from __future__ import annotations

import numpy as np

from .. import _dtype, _tensor_str
from .._factories import tensor
from .._core.grad_mode import state
from .._core.shape import Size, sparse_coo, strided
from .._core.tensor import Tensor, _wrap_dim
from .._device import _check_device
from . import ops

_new = object.__new__
_NO_DENSE_KERNEL = ("Could not run this operation with arguments from the 'SparseCPU' backend: minitorch's sparse "
                    "tensors support the operations listed in minitorch.sparse. Call .to_dense() first.")


class SparseCooTensor(Tensor):
    """A sparse COO tensor: ``_idx`` (int64, sparse_dim x nnz), ``_vals`` (a Tensor, nnz x dense dims), ``_size``.

    Its autograd is its values': it requires grad, has a ``grad_fn`` and is a leaf as ``_vals`` does and is, and
    its ``grad`` is the gradient of the values at its indices. It has no dense array: a dense op on it raises.
    """

    is_sparse = True
    layout = sparse_coo

    def __init__(self, *args, **kwargs):
        raise TypeError("make sparse tensors with minitorch.sparse_coo_tensor or Tensor.to_sparse")

    @classmethod
    def _make(cls, index: np.ndarray, values: Tensor, size: tuple, coalesced: bool,
              origin: Tensor | None = None) -> "SparseCooTensor":
        """``origin``: the dense tensor that receives the dense gradient of ``mm`` (torch gives the sparse operand
        of ``mm`` a dense one): the one ``to_sparse`` made this from, or for a leaf a zero-stride stand-in."""
        t = _new(cls)
        t._idx, t._vals, t._size, t._coalesced, t._origin = index, values, Size(size), coalesced, origin
        t._output_nr, t._vc = 0, None
        return t

    @property
    def _data(self):
        raise NotImplementedError(_NO_DENSE_KERNEL)

    # ---- metadata: from the size and the values ------------------------------------
    dtype = property(lambda self: self._vals.dtype)
    shape = property(lambda self: self._size)

    def size(self, dim: int | None = None):
        return self._size if dim is None else self._size[_wrap_dim(dim, len(self._size))]

    def dim(self) -> int:
        return len(self._size)

    ndim = property(dim)

    def numel(self) -> int:
        return self._size.numel()

    def __len__(self) -> int:
        return self._size[0]

    def sparse_dim(self) -> int:
        return self._idx.shape[0]

    def dense_dim(self) -> int:
        return len(self._size) - self._idx.shape[0]

    def _nnz(self) -> int:
        return self._idx.shape[1]

    def is_coalesced(self) -> bool:
        return self._coalesced

    # ---- autograd: the values' ---------------------------------------------------------
    @property
    def grad_fn(self):
        return self._vals.grad_fn

    @property
    def _requires_grad(self) -> bool:
        return self._vals._requires_grad

    @property
    def requires_grad(self) -> bool:
        return self._vals.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._vals.requires_grad = value

    @property
    def grad(self):
        """The values' gradient at the indices (sparse), plus the dense gradient ``mm`` gives a leaf, if any."""
        g = self._vals.grad
        sparse = None if g is None else SparseCooTensor._make(self._idx, g, self._size, self._coalesced)
        dense = self._origin.grad if self._origin is not None and self.is_leaf else None
        if dense is None:
            return sparse
        return dense if sparse is None else dense + sparse.to_dense()

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            raise RuntimeError("minitorch: only None can be assigned to a sparse tensor's grad")
        self._vals.grad = None
        if self._origin is not None and self.is_leaf:
            self._origin.grad = None

    def detach(self) -> "SparseCooTensor":
        return SparseCooTensor._make(self._idx, self._vals.detach(), self._size, self._coalesced)

    def clone(self, *, memory_format=None) -> "SparseCooTensor":
        return SparseCooTensor._make(self._idx.copy(), self._vals.clone(), self._size, self._coalesced)

    # ---- indices and values --------------------------------------------------------------
    def _indices(self) -> Tensor:
        return Tensor._wrap(self._idx)

    def _values(self) -> Tensor:
        return self._vals.detach()

    def indices(self) -> Tensor:
        self._check_coalesced("indices")
        return Tensor._wrap(self._idx)

    def values(self) -> Tensor:
        self._check_coalesced("values")
        return ops.Values.apply(self._vals)

    def _check_coalesced(self, what: str) -> None:
        if not self._coalesced:
            raise RuntimeError(f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first")

    def coalesce(self) -> "SparseCooTensor":
        """Indices sorted and unique, values of repeated indices summed; ``self`` if it is coalesced already."""
        if self._coalesced:
            return self
        sparse_shape = self._size[:self.sparse_dim()]
        flat = np.ravel_multi_index(tuple(self._idx), sparse_shape) if self._nnz() else self._idx[0]
        unique, inverse = np.unique(flat, return_inverse=True)
        index = np.stack(np.unravel_index(unique, sparse_shape)).astype(np.int64).reshape(len(sparse_shape), -1)
        values = ops.Coalesce.apply(self._vals, inverse.reshape(1, -1),
                                    shape=(len(unique),) + tuple(self._size[self.sparse_dim():]))
        return SparseCooTensor._make(index, values, self._size, True)

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        out = ops.ToDense.apply(self._vals, self._idx, shape=tuple(self._size))
        return out if dtype is None else out.to(dtype)

    def to_sparse(self, *args, layout=None, **kwargs) -> "SparseCooTensor":
        if layout not in (None, sparse_coo):
            raise NotImplementedError(f"minitorch: conversion to {layout} is not supported (sparse COO only)")
        return self

    to_sparse_coo = to_sparse

    # ---- products ---------------------------------------------------------------------------
    def _product(self, dense: Tensor, op: type, input=None, beta=1, alpha=1) -> Tensor:
        if self.dim() != 2 or self.dense_dim() or not isinstance(dense, Tensor) or dense.dim() != 2:
            raise NotImplementedError("minitorch: sparse products take a 2-D sparse COO matrix and a 2-D dense "
                                      "one")
        if dense.is_sparse:
            raise NotImplementedError("minitorch: products of two sparse tensors are not supported")
        if self._size[1] != dense.shape[0]:
            raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {self._size[1]}, got "
                               f"{dense.shape[0]}")
        if dense.dtype is not self.dtype:
            raise RuntimeError(f"expected scalar type {_dtype.C_NAMES[self.dtype]} but found "
                               f"{_dtype.C_NAMES[dense.dtype]}")
        values, origin = self._vals, None
        if op is ops.SparseDenseMm and values.requires_grad and state.grad_enabled:
            if self._origin is None and self.is_leaf:  # a leaf gets mm's dense gradient in a dense stand-in
                self._origin = Tensor._wrap(np.broadcast_to(np.zeros((), values._data.dtype), self._size))
                self._origin.requires_grad_()
            if self._origin is not None:
                values, origin = values.detach(), self._origin  # the whole dense gradient goes to the origin
        return op.apply(values, dense, self._idx, input, origin, rows=self._size[0], beta=beta, alpha=alpha,
                        values_of_origin=origin is not None and not self.is_leaf)

    def mm(self, mat2: Tensor) -> Tensor:
        """``self @ mat2``; torch's ``mm`` gives the whole gradient ``g @ mat2.T`` to a dense tensor this one was
        made from by ``to_sparse``, where ``minitorch.sparse.mm`` gives only its entries at the indices."""
        return self._product(mat2, ops.SparseDenseMm)

    matmul = __matmul__ = mm

    # ---- conversions ----------------------------------------------------------------------
    def to(self, *args, **kwargs) -> "SparseCooTensor":
        values = self._vals.to(*args, **kwargs)
        return self if values is self._vals else SparseCooTensor._make(self._idx, values, self._size,
                                                                        self._coalesced)

    def cpu(self) -> "SparseCooTensor":
        return self

    def __mul__(self, other) -> "SparseCooTensor":
        if not isinstance(other, (int, float, bool)):
            raise NotImplementedError("minitorch: a sparse tensor multiplies by a number only")
        return SparseCooTensor._make(self._idx, self._vals * other, self._size, self._coalesced)

    __rmul__ = __mul__

    def __truediv__(self, other) -> "SparseCooTensor":
        return self * (1 / other)

    def __neg__(self) -> "SparseCooTensor":
        return self * -1

    def t(self) -> "SparseCooTensor":
        if self.sparse_dim() != 2 or self.dense_dim():
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but self is "
                               f"{self.sparse_dim()} sparse and {self.dense_dim()} dense dimensions")
        return SparseCooTensor._make(self._idx[::-1].copy(), self._vals, self._size[::-1], False)

    # ---- torch's refusals -----------------------------------------------------------------
    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def view(self, *shape):
        raise NotImplementedError("Could not run 'aten::view' with arguments from the 'SparseCPU' backend. This "
                                  "could be because the operator doesn't exist for this backend, or was omitted "
                                  "during the selective/custom build process (if using custom build).")

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def data_ptr(self) -> int:
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    tolist = item = data_ptr

    def untyped_storage(self):
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")

    storage = untyped_storage

    # ---- printing and pickling ------------------------------------------------------------------
    def __repr__(self) -> str:
        indent = len("tensor(")
        parts = []
        for name, a, dtype in (("indices", self._idx, _dtype.int64), ("values", self._vals._data, self.dtype)):
            prefix = f"{name}=tensor("
            body = _tensor_str.array_body(a, dtype, indent + len(prefix)) if a.size else "[]"
            if not a.size:
                body += f", size={tuple(a.shape)}"
            parts.append(prefix + body + ")")
        suffixes = [f"size={tuple(self._size)}", f"nnz={self._nnz()}"]
        if _tensor_str.shows_dtype(self.dtype, empty=False):
            suffixes.append(f"dtype={self.dtype!r}")
        suffixes.append(f"layout={sparse_coo!r}")
        text = "tensor(" + (",\n" + " " * indent).join(parts)
        return _tensor_str.add_suffixes(text, suffixes + _tensor_str.grad_suffix(self), indent, force_newline=True)

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (_rebuild_sparse, (self._idx, self._vals._data, tuple(self._size), self._coalesced,
                                  self.requires_grad and self.is_leaf))

    def __deepcopy__(self, memo):
        index, values, size, coalesced, requires_grad = self.__reduce_ex__(2)[1]
        return _rebuild_sparse(index.copy(), values.copy(), size, coalesced, requires_grad)


def _rebuild_sparse(index, values, size, coalesced, requires_grad) -> SparseCooTensor:
    """A sparse tensor from what ``__reduce_ex__`` gives pickle (minitorch's own pickles; torch.save files hold
    torch's form, read by ``minitorch._torch_pickle``)."""
    return SparseCooTensor._make(index, Tensor._wrap(values).requires_grad_(requires_grad), size, coalesced)


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory: bool = False,
                      requires_grad: bool = False, check_invariants=None, is_coalesced=None) -> SparseCooTensor:
    """A sparse COO tensor with ``values`` (nnz x dense dims) at the columns of ``indices`` (sparse_dim x nnz)."""
    _check_device(device)
    index = np.array(indices._data if isinstance(indices, Tensor) else indices, dtype=np.int64, ndmin=1)
    if index.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(index.shape)}")
    if not isinstance(values, Tensor):
        values = tensor(values, dtype=dtype)
    elif dtype is not None:
        values = values.to(dtype)
    if values.dim() == 0 or values.shape[0] != index.shape[1]:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {index.shape[1]}, "
                           f"nnz from values: {values.shape[0] if values.dim() else 1}")
    sparse_dim, dense_shape = index.shape[0], tuple(values.shape[1:])
    if size is None:
        size = tuple(int(m) + 1 for m in index.max(1)) if index.shape[1] else (0,) * sparse_dim
        size += dense_shape
    size = tuple(int(s) for s in size)
    _check_size(index, size, dense_shape)
    if requires_grad:
        values = values.detach().requires_grad_()
    elif values.requires_grad and state.grad_enabled:
        values = ops.FromValues.apply(values)
    coalesced = index.shape[1] <= 1 if is_coalesced is None else bool(is_coalesced)
    return SparseCooTensor._make(index, values, size, coalesced)


def _check_size(index: np.ndarray, size: tuple, dense_shape: tuple) -> None:
    sparse_dim = index.shape[0]
    if len(size) != sparse_dim + len(dense_shape):
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sparse_dim}, dense_dim = {len(dense_shape)}")
    if index.shape[1]:
        if index.min() < 0:
            raise RuntimeError(f"found negative index {int(index.min())} for dim {int(index.min(1).argmin())}")
        for d, (top, s) in enumerate(zip(index.max(1), size)):
            if top >= s:
                raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {s} but found "
                                   f"index {int(top)}")


def to_sparse(self: Tensor, sparse_dim: int | None = None, *, layout=None, blocksize=None,
              dense_dim: int | None = None) -> SparseCooTensor:
    """This dense tensor as a coalesced sparse COO tensor (the first ``sparse_dim`` dims sparse)."""
    if layout not in (None, sparse_coo, strided) or blocksize is not None:
        raise NotImplementedError(f"minitorch: conversion to {layout} is not supported (sparse COO only)")
    a = self._data
    sparse_dim = a.ndim - (dense_dim or 0) if sparse_dim is None else sparse_dim
    nonzero = a != 0
    if sparse_dim < a.ndim:
        nonzero = nonzero.any(axis=tuple(range(sparse_dim, a.ndim)))
    index = np.stack(np.nonzero(nonzero)).astype(np.int64).reshape(sparse_dim, -1)
    origin = self if self.requires_grad and state.grad_enabled else None
    return SparseCooTensor._make(index, ops.ToSparse.apply(self, index), a.shape, True, origin)


def to_sparse_coo(self: Tensor) -> SparseCooTensor:
    return to_sparse(self)
