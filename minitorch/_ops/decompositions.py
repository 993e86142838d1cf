"""Linear algebra of square matrices, differentiable: inv, det, slogdet, solve, Cholesky and triangular
solves (numpy's LAPACK forward; backward written with ops, so higher orders work). Batch dims broadcast."""
from __future__ import annotations

import numpy as np

from .._registry import register
from .._tensor import Tensor
from ..autograd.function import Op
from .arithmetic import where
from .linalg import matmul
from .reduction import return_types
from .view import transpose


def _mT(x):
    return transpose(x, -2, -1)


def _dtype_of(x) -> np.dtype:
    """The numpy dtype of an array or a tensor (backward formulas get either)."""
    return x._data.dtype if isinstance(x, Tensor) else x.dtype


def _square(name: str, a) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")


def _singular(name: str):
    return RuntimeError(f"linalg.{name}: The diagonal element is zero, the inversion could not be completed because "
                        "the input matrix is singular.")


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
        (L,) = ctx.saved_tensors
        n = L.shape[-1]
        dtype = _dtype_of(L)
        phi_mask = _tril_mask(n, dtype) - 0.5 * np.eye(n, dtype=dtype)
        P = matmul(_mT(L), gL) * phi_mask
        S = _mT(solve_triangular(_mT(L), _mT(solve_triangular(_mT(L), P, upper=True)), upper=True))  # L^-H P L^-1
        return (S + _mT(S)) * 0.5


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
        A, X = ctx.saved_tensors
        gB = solve_triangular(_mT(A), gX, upper=not ctx.upper)
        mask = _tril_mask(A.shape[-1], _dtype_of(A))
        gA = -matmul(gB, _mT(X)) * (mask.T if ctx.upper else mask)
        return gA, gB


def cholesky(A):
    """The lower Cholesky factor of a symmetric positive-definite (batch of) matrix."""
    return Cholesky.apply(A)


def solve_triangular(A, B, *, upper: bool = False):
    """A^-1 B for a triangular A (as ``torch.linalg.solve_triangular(A, B, upper=upper)``)."""
    return SolveTriangular.apply(A, B, upper=upper)


class Inv(Op, name="LinalgInvExBackward0"):
    @staticmethod
    def forward(ctx, a):
        _square("inv", a)
        try:
            r = np.linalg.inv(a)
        except np.linalg.LinAlgError:
            raise _singular("inv") from None
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return -matmul(_mT(r), matmul(g, _mT(r)))


class Det(Op, name="LinalgDetBackward0"):
    @staticmethod
    def forward(ctx, a):
        _square("det", a)
        ctx.save_for_backward(a)
        return np.asarray(np.linalg.det(a))

    @staticmethod
    def backward(ctx, g):  # d det / dA = det(A) A^-T (A invertible)
        (a,) = ctx.saved_tensors
        return (g * Det.apply(a))[..., None, None] * _mT(Inv.apply(a))


class Slogdet(Op, name="LinalgSlogdetBackward0"):
    @staticmethod
    def forward(ctx, a):
        _square("slogdet", a)
        sign, logabsdet = np.linalg.slogdet(a)
        ctx.save_for_backward(a)
        return np.asarray(sign, a.dtype), np.asarray(logabsdet)

    @staticmethod
    def backward(ctx, g_sign, g_logabsdet):  # the sign is piecewise constant: no gradient
        (a,) = ctx.saved_tensors
        if g_logabsdet is None:
            return None
        return g_logabsdet[..., None, None] * _mT(Inv.apply(a))


class Solve(Op, name="LinalgSolveExBackward0"):
    """X = A^-1 B (B a batch of matrices, or of vectors when its shape is A's without the last dim)."""

    @staticmethod
    def forward(ctx, a, b):
        _square("solve", a)
        vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])  # torch's reading of B
        ctx.vector = vector
        bm = b[..., None] if vector else b
        shape = np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
        try:
            x = np.linalg.solve(np.broadcast_to(a, shape + a.shape[-2:]), np.broadcast_to(bm, shape + bm.shape[-2:]))
        except np.linalg.LinAlgError:
            raise RuntimeError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
        x = x[..., 0] if vector else x
        ctx.save_for_backward(a, x)
        return x

    @staticmethod
    def backward(ctx, g):
        a, x = ctx.saved_tensors
        gb = Solve.apply(_mT(a), g)
        if ctx.vector:
            return -gb[..., None] * x[..., None, :], gb
        return -matmul(gb, _mT(x)), gb


@register(name="inverse")
def inv(A):
    """The inverse of a square matrix (or a batch of them)."""
    return Inv.apply(A)


@register
def det(A):
    """The determinant of a square matrix (or a batch of them)."""
    return Det.apply(A)


@register
def slogdet(A):
    """The sign and log of the absolute value of the determinant."""
    sign, logabsdet = Slogdet.apply(A)
    return return_types.slogdet(sign, logabsdet)


@register
def logdet(A):
    """log(det(A)): nan where the determinant is negative."""
    sign, logabsdet = Slogdet.apply(A)
    return where(sign < 0, float("nan"), where(sign == 0, float("-inf"), logabsdet))


def solve(A, B, *, left: bool = True):
    """The X with A X = B."""
    if not left:
        return _mT(Solve.apply(_mT(A), _mT(B)))
    return Solve.apply(A, B)
