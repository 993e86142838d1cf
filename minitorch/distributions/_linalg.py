"""Differentiable Cholesky factorisation and triangular solves (numpy forward, backward with ops).

minitorch has no linear-algebra decompositions; MultivariateNormal needs these two.
"""
from __future__ import annotations

import numpy as np

from ..autograd.function import Op
from .._ops.linalg import matmul
from .._ops.view import transpose


def _mT(x):
    return transpose(x, -2, -1)


def _tensors(*xs):
    """Backward works on tensors (matmul needs them); the engine hands arrays unless create_graph."""
    from .._tensor import Tensor
    return [x if isinstance(x, Tensor) else Tensor._wrap(np.asarray(x)) for x in xs]


def _out(ctx, *xs):
    return xs if ctx._as_tensors else tuple(x._data for x in xs)


def _tril_mask(n: int, dtype) -> np.ndarray:
    return np.tril(np.ones((n, n), dtype=dtype))


class Cholesky(Op, name="LinalgCholeskyExBackward0"):
    @staticmethod
    def forward(ctx, a):
        try:
            L = np.linalg.cholesky(a)
        except np.linalg.LinAlgError:
            raise RuntimeError("linalg.cholesky: The factorization could not be completed because the input is "
                               "not positive-definite.") from None
        ctx.save_for_backward(L)
        return L

    @staticmethod
    def backward(ctx, gL):
        # gA = L^-H Phi(L^H gL) L^-1, symmetrised; Phi: the lower triangle with the diagonal halved
        L, gL = _tensors(ctx.saved_tensors[0], gL)
        n = L.shape[-1]
        phi_mask = _tril_mask(n, L._data.dtype) - 0.5 * np.eye(n, dtype=L._data.dtype)
        P = matmul(_mT(L), gL) * phi_mask
        S = _mT(solve_triangular(_mT(L), _mT(solve_triangular(_mT(L), P, upper=True)), upper=True))  # L^-H P L^-1
        return _out(ctx, (S + _mT(S)) * 0.5)[0]


class SolveTriangular(Op, name="LinalgSolveTriangularBackward0"):
    """X = A^-1 B for a triangular A (lower unless ``upper``); batch dimensions broadcast."""

    @staticmethod
    def forward(ctx, A, B, upper=False):
        ctx.upper = upper
        shape = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
        X = np.linalg.solve(np.broadcast_to(A, shape + A.shape[-2:]), np.broadcast_to(B, shape + B.shape[-2:]))
        ctx.save_for_backward(A, X)
        return X

    @staticmethod
    def backward(ctx, gX):
        A, X, gX = _tensors(*ctx.saved_tensors, gX)
        gB = solve_triangular(_mT(A), gX, upper=not ctx.upper)
        mask = _tril_mask(A.shape[-1], A._data.dtype)
        gA = -matmul(gB, _mT(X)) * (mask.T if ctx.upper else mask)
        return _out(ctx, gA, gB)


def cholesky(A):
    """The lower Cholesky factor of a symmetric positive-definite (batch of) matrix."""
    return Cholesky.apply(A)


def solve_triangular(A, B, *, upper: bool = False):
    """A^-1 B for a triangular A (as ``torch.linalg.solve_triangular(A, B, upper=upper)``)."""
    return SolveTriangular.apply(A, B, upper=upper)
