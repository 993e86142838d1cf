"""Sparse COO tensors, as ``torch.sparse``: ``sparse_coo_tensor``, ``Tensor.to_sparse``, ``mm``, ``sum``, ``softmax``.

Design. A sparse tensor is a ``SparseCooTensor`` (``coo.py``), a subclass of ``Tensor`` (so ``isinstance(S,
Tensor)`` holds, as in torch) holding three things: an int64 numpy index array (sparse_dim x nnz), a values Tensor
(nnz x the dense dims) and the size. It has no dense array: every dense op refuses it, and the operations below
are its own. Autograd runs on the values tensor: each sparse operation is a registered-style ``Op`` (``ops.py``)
whose differentiable input is the values (and, for products, the dense operand), so gradients reach the values,
the dense operand, and a dense tensor that ``to_sparse`` came from, through the ordinary engine. ``S.grad`` of a
sparse leaf is the values' gradient at ``S``'s indices, sparse as torch's; torch's ``mm`` (``@``, ``spmm``) gives
the sparse operand a dense gradient instead, which goes to ``S``'s "origin": the dense tensor ``to_sparse`` made
it from, or for a leaf a zero-stride dense stand-in whose gradient ``S.grad`` adds.

Left out: the compressed layouts (CSR/CSC/BSR/BSC; their ``layout`` constants exist), products of two sparse
tensors and dense @ sparse, indexing and elementwise ops on sparse tensors other than multiplying by a number.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype
from .._core.tensor import Tensor, _wrap_dim
from . import ops
from .coo import SparseCooTensor, sparse_coo_tensor, to_sparse, to_sparse_coo

__all__ = ["DoubleTensor", "FloatTensor", "LongTensor", "addmm", "log_softmax", "mm", "softmax", "sum"]

# The two Tensor methods that make a sparse tensor from a dense one.
Tensor.to_sparse = to_sparse
Tensor.to_sparse_coo = to_sparse_coo


def _sparse(x, what: str) -> SparseCooTensor:
    if not isinstance(x, SparseCooTensor):
        raise NotImplementedError(f"minitorch: {what} takes a sparse COO tensor first")
    return x


def mm(mat1: Tensor, mat2: Tensor, reduce: str | None = None) -> Tensor:
    """``mat1 @ mat2`` for a sparse COO ``mat1`` and a dense ``mat2``; gradients for both."""
    if reduce not in (None, "sum"):
        raise NotImplementedError("minitorch: sparse.mm's reduce other than 'sum' is not supported")
    return _sparse(mat1, "sparse.mm")._product(mat2, ops.SparseMm)


def spmm(input: Tensor, mat2: Tensor) -> Tensor:
    """``minitorch.spmm``: ``input @ mat2`` for a sparse ``input`` (recorded as ``mm``)."""
    return _sparse(input, "spmm").mm(mat2)


def addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``beta * mat + alpha * (mat1 @ mat2)`` for a sparse ``mat1``."""
    return _sparse(mat1, "sparse.addmm")._product(mat2, ops.SparseMm, mat, beta, alpha)


def sum(input: SparseCooTensor, dim=None, dtype=None) -> Tensor:  # noqa: A001
    """The sum of all elements (a dense scalar), or over ``dim``: sparse while sparse dims remain, else dense."""
    s = _sparse(input, "sparse.sum").coalesce()
    values = s._vals if dtype is None else s._vals.to(dtype)
    if dim is None:
        return values.sum()
    dims = {_wrap_dim(d, s.dim()) for d in ((dim,) if isinstance(dim, int) else dim)}
    sparse_dim = s.sparse_dim()
    dense = sorted(d - sparse_dim + 1 for d in dims if d >= sparse_dim)
    if dense:
        values = values.sum(dense)
    kept = [d for d in range(sparse_dim) if d not in dims]
    if not kept:
        return values.sum(0)
    size = [s._size[d] for d in kept] + [n for d, n in enumerate(s._size) if d >= sparse_dim and d not in dims]
    total = SparseCooTensor._make(s._idx[kept], values, size, False).coalesce()
    return SparseCooTensor._make(total._idx, ops.SparseSum.apply(total._vals), size, True)


def softmax(input: SparseCooTensor, dim: int, *, dtype=None) -> SparseCooTensor:
    """Softmax over ``dim`` among the specified entries (the unspecified ones count as -inf)."""
    return _normalized(_sparse(input, "sparse.softmax"), dim, dtype, log=False)


def log_softmax(input: SparseCooTensor, dim: int, *, dtype=None) -> SparseCooTensor:
    """Log-softmax over ``dim`` among the specified entries."""
    return _normalized(_sparse(input, "sparse.log_softmax"), dim, dtype, log=True)


def _normalized(s: SparseCooTensor, dim: int, dtype, log: bool) -> SparseCooTensor:
    s = s.coalesce()
    values = s._vals if dtype is None else s._vals.to(dtype)
    dim, sparse_dim = _wrap_dim(dim, s.dim()), s.sparse_dim()
    if dim >= sparse_dim:  # a dense dim: within each entry's values
        d = dim - sparse_dim + 1
        out = values.log_softmax(d) if log else values.softmax(d)
    else:  # a sparse dim: among the entries that differ only there
        rest = [d for d in range(sparse_dim) if d != dim]
        shape = [s._size[d] for d in rest]
        key = np.ravel_multi_index(tuple(s._idx[rest]), shape) if rest else np.zeros(s._nnz(), np.int64)
        groups, group = np.unique(key, return_inverse=True)
        group = group.reshape(1, -1)
        peak = np.full((len(groups),) + tuple(values.shape[1:]), -np.inf, values._data.dtype)
        np.maximum.at(peak, group[0], values._data)
        shifted = values - Tensor._wrap(peak[group[0]])  # a constant shift: it leaves the gradient unchanged
        e = shifted.exp()
        total = ops.Gather.apply(ops.ScatterAdd.apply(e, group, shape=peak.shape), group)
        out = shifted - total.log() if log else e / total
    named = ops.SparseLogSoftmax if log else ops.SparseSoftmax
    return SparseCooTensor._make(s._idx, named.apply(out), s._size, True)


def _legacy(dt):
    """The deprecated ``minitorch.sparse.<T>Tensor(indices, values[, size])`` and ``(*size)`` (empty) constructors;
    values keep their dtype, as in torch."""
    def constructor(*args, device=None):
        if args and isinstance(args[0], Tensor):
            shape = ", shape" if len(args) > 2 else ""
            warnings.warn(f"torch.sparse.SparseTensor(indices, values{shape}, *, device=) is deprecated.  Please use "
                          f"torch.sparse_coo_tensor(indices, values{shape}, dtype=, device=).", UserWarning, stacklevel=2)
            return sparse_coo_tensor(*args, device=device)
        if args and isinstance(args[0], (tuple, list)):
            raise TypeError("torch.sparse.SparseTensor(sequence) only accepts sizes.  Please use "
                            "torch.sparse_coo_tensor() or construct a strided tensor and convert it to sparse via "
                            "to_sparse.")
        warnings.warn("torch.sparse.SparseTensor(shape, *, device=) is deprecated.  Please use "
                      "torch.sparse_coo_tensor(shape, dtype=, device=).", UserWarning, stacklevel=2)
        return sparse_coo_tensor(np.zeros((len(args), 0)), np.zeros(0, dt.np), args, dtype=dt, device=device)
    constructor.__name__ = dt.legacy_name.split(".")[-1]
    return constructor


FloatTensor = _legacy(_dtype.float32)
DoubleTensor = _legacy(_dtype.float64)
LongTensor = _legacy(_dtype.int64)
