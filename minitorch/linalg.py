"""``minitorch.linalg``: ``torch.linalg`` on numpy's LAPACK: decompositions (Cholesky, QR, SVD, eigh, LU),
inverses and solvers, norms, and products; differentiable where torch is."""
from __future__ import annotations

from ._ops.decompositions import cholesky, det, inv, slogdet, solve, solve_triangular
from ._ops.factorizations import (cond, eigh, eigvalsh, lstsq, matrix_norm, matrix_rank, norm, pinv, qr, svd,
                                  svdvals)
from ._ops.factorizations import matrix_exp as _matrix_exp
from ._ops.factorizations import matrix_power as _matrix_power
from ._ops.linalg import cross as _cross
from ._ops.linalg import matmul as _matmul
from ._ops.linalg import multi_dot
from ._ops.norm import vector_norm


def cross(input, other, *, dim: int = -1):  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (the last by default, unlike ``minitorch.cross``)."""
    return _cross(input, other, dim)


def matmul(input, other, *, out=None):  # noqa: A002
    """The matrix product (``minitorch.matmul``)."""
    return _matmul(input, other, out=out)


def matrix_exp(A):
    """The matrix exponential."""
    return _matrix_exp(A)


def matrix_power(A, n: int, *, out=None):
    """``A`` to the integer power ``n`` (through the inverse for negative ``n``)."""
    result = _matrix_power(A, n)
    return result if out is None else out.copy_(result)


__all__ = ["cholesky", "cond", "cross", "det", "eigh", "eigvalsh", "inv", "lstsq", "matmul", "matrix_exp",
           "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve",
           "solve_triangular", "svd", "svdvals", "vector_norm"]
