"""``minitorch.linalg``: ``torch.linalg`` on numpy's LAPACK (and minitorch's own LU and Householder loops):
decompositions (eig/eigvals with complex results), inverses and solvers with their ``_ex`` forms, norms, and
products; differentiable where torch is."""
from __future__ import annotations

from ._ops.elementwise.complex import eig, eigvals
from ._ops.linalg.decompositions import _LinAlgError as LinAlgError
from ._ops.linalg.decompositions import linalg_slogdet as slogdet
from ._ops.linalg.decompositions import (cholesky, cholesky_ex, inv, inv_ex, solve, solve_ex,
                                  solve_triangular)
from ._ops.linalg.decompositions import det as _det
from ._ops.shape.diagonal import diagonal as _diagonal
from ._ops.linalg.factorizations import (cond, eigh, eigvalsh, lstsq, matrix_norm, matrix_rank, norm, pinv, qr, svd,
                                  svdvals, tensorinv, tensorsolve, vecdot)
from ._ops.linalg.factorizations import linalg_vander as vander
from ._ops.linalg.factorizations import matrix_exp as _matrix_exp
from ._ops.linalg.factorizations import matrix_power as _matrix_power
from ._ops.linalg.householder import householder_product
from ._ops.linalg.ldl import ldl_factor, ldl_factor_ex, ldl_solve
from ._ops.linalg.products import cross as _cross
from ._ops.linalg.products import matmul as _matmul
from ._ops.linalg.products import multi_dot
from ._ops.linalg.lu import lu, lu_factor, lu_factor_ex, lu_solve
from ._ops.reduction.norm import vector_norm
from ._core.out import _out, with_out

lstsq, vector_norm = with_out(lstsq), with_out(vector_norm)  # torch.linalg's take out=


def det(A, *, out=None):
    """The determinant of a square matrix (or a batch of them)."""
    return _out(_det(A), out)


@with_out
def cross(input, other, *, dim: int = -1):  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (the last by default, unlike ``minitorch.cross``)."""
    return _cross(input, other, dim)


def matmul(input, other, *, out=None):  # noqa: A002
    """The matrix product (``minitorch.matmul``)."""
    return _matmul(input, other, out=out)


def diagonal(A, *, offset: int = 0, dim1: int = -2, dim2: int = -1):
    """The diagonals of the matrices in the last two dims (``minitorch.diagonal`` with other defaults)."""
    return _diagonal(A, offset, dim1, dim2)


@with_out
def matrix_exp(input):
    """The matrix exponential."""
    return _matrix_exp(input)


def matrix_power(input, n: int, *, out=None):
    """``input`` to the integer power ``n`` (through the inverse for negative ``n``)."""
    result = _matrix_power(input, n)
    return result if out is None else out.copy_(result)


__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
           "eigvalsh",
           "householder_product", "inv", "inv_ex", "ldl_factor", "ldl_factor_ex", "ldl_solve", "lstsq", "lu",
           "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm", "matrix_power",
           "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular",
           "svd", "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot", "vector_norm"]
