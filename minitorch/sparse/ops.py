"""The differentiable ops of sparse COO tensors, all on the values array (see ``minitorch.sparse``).

Two mutually adjoint ops carry every gradient: ``Gather`` (values at an index: ``a[tuple(index)]``) and
``ScatterAdd`` (values summed into a dense shape at an index); each one's backward is the other, so higher
orders come for free. ``to_sparse``, ``to_dense`` and ``coalesce`` are these two under torch's node names;
``SparseMm`` is the product of a sparse matrix with a dense one, its backward written with them.
"""
from __future__ import annotations

import numpy as np

from .._core.function import Op


class Gather(Op):
    """``a[tuple(index)]``: the entries of ``a`` at the columns of ``index`` (sparse_dim x nnz)."""

    @staticmethod
    def forward(ctx, a, index):
        ctx.shape = a.shape
        ctx.save_for_backward(index)
        return a[tuple(index)]

    @staticmethod
    def backward(ctx, g):
        (index,) = ctx.saved_tensors
        return ScatterAdd.apply(g, index, shape=ctx.shape), None


class ScatterAdd(Op):
    """Zeros of ``shape`` with ``values`` added at the columns of ``index`` (repeated columns sum)."""

    @staticmethod
    def forward(ctx, values, index, shape=()):
        ctx.save_for_backward(index)
        out = np.zeros(shape, values.dtype)
        np.add.at(out, tuple(index), values)
        return out

    @staticmethod
    def backward(ctx, g):
        (index,) = ctx.saved_tensors
        return Gather.apply(g, index), None


# A dense tensor's values at its nonzero pattern.
ToSparse = Gather.named("ToSparse", "ToSparseBackward1")
# A sparse tensor's dense form.
ToDense = ScatterAdd.named("ToDense", "ToDenseBackward0")
# Values of repeated indices summed (``index`` maps each entry to its place among the unique indices).
Coalesce = ScatterAdd.named("Coalesce", "CoalesceBackward0")


class Alias(Op):
    """The values themselves, as a new node of the graph (torch records these as their own nodes)."""

    view = True

    @staticmethod
    def forward(ctx, values):
        return values.view()

    @staticmethod
    def backward(ctx, g):
        return g


# ``sparse_coo_tensor(indices, values)`` of values that require grad.
FromValues = Alias.named("FromValues", "SparseCooTensorWithDimsAndTensorsBackward0")
# ``S.values()``.
Values = Alias.named("Values", "ValuesBackward0")
# The results of operations composed of the ops above, under the node names torch gives them.
SparseSum = Alias.named("SparseSum", "SparseSumBackward0")
SparseSoftmax = Alias.named("SparseSoftmax", "SparseSoftmaxBackward0")
SparseLogSoftmax = Alias.named("SparseLogSoftmax", "SparseLogSoftmaxBackward0")


class SparseMm(Op, name="SparseAddmmBackward0"):
    """``beta * input + alpha * (S @ dense)`` for a 2-D sparse ``S`` given by ``values`` at ``index`` (2 x nnz),
    with ``rows`` rows (``input``: None, or a dense tensor broadcast to the result).

    ``origin``: None, or a dense tensor that gets the whole dense gradient ``g @ dense.T`` (as torch's ``mm``
    gives the sparse operand; ``values`` are constants then), not only its entries at ``index`` as the values
    get it: the tensor ``S`` was made from by ``to_sparse`` (``values_of_origin``: the values are its entries at
    ``index``), or a stand-in for a sparse leaf.
    """

    save_for = (1, None, None, 1)  # values and origin serve the dense operand's gradient; it serves all others

    @staticmethod
    def forward(ctx, values, dense, index, input=None, origin=None, rows=0, beta=1, alpha=1, values_of_origin=False):
        ctx.save_for_backward(values, dense, index, origin)
        ctx.beta, ctx.alpha, ctx.dense_shape, ctx.values_of_origin = beta, alpha, dense.shape, values_of_origin
        dt = np.result_type(values, dense)
        out = np.zeros((rows, dense.shape[1]), dt)
        np.add.at(out, index[0], values[:, None] * dense[index[1]])
        if alpha != 1:
            out *= alpha
        return out if input is None else out + (input if beta == 1 else beta * input)

    @staticmethod
    def backward(ctx, g):
        values, dense, index, origin = ctx.saved_tensors
        need_values, need_dense, _, need_input, need_origin = ctx.needs_input_grad
        if ctx.values_of_origin and need_dense:  # the values as a function of the origin, for higher orders
            values = Gather.apply(origin, index)
        grad_input = (g if ctx.beta == 1 else g * ctx.beta) if need_input else None
        if ctx.alpha != 1:
            g = g * ctx.alpha
        g_rows = Gather.apply(g, index[:1])  # (nnz, k): the gradient of the row each entry feeds
        grad_values = (g_rows * Gather.apply(dense, index[1:])).sum(-1) if need_values else None
        grad_dense = ScatterAdd.apply(values[:, None] * g_rows, index[1:], shape=ctx.dense_shape) \
            if need_dense else None
        grad_origin = g @ dense.mT if need_origin else None
        return grad_values, grad_dense, None, grad_input, grad_origin


# ``S @ dense`` and ``minitorch.mm(S, dense)``: the same product, under the node name torch gives it.
SparseDenseMm = SparseMm.named("SparseDenseMm", "MmBackward0")
