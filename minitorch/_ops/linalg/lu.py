"""The LU factorization with partial pivoting (A = P L U), computed here since numpy has none: a
Doolittle elimination vectorised over the batch, one loop step per column, with LAPACK's conventions
(L and U packed in one matrix, 1-based int32 pivots, ``info`` the first zero pivot). Also lu_unpack,
lu_solve, the legacy ``torch.lu``/``torch.lu_solve``, and the ``_ex`` variants' ``info``."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op
from ..._core.out import _out
from .decompositions import _check_kernel_dtype, _dtype_of, _outs, concat, solve_triangular
from .layout import column_major
from .products import deprecated, matmul
from ..return_types import _return_type
from ..shape.indexing import take_along_dim
from ..shape.triangular import tril, triu
from ..._core.samples import mt, leaf, quiet

linalg_lu_factor = _return_type("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _return_type("linalg_lu", ("P", "L", "U"))
lu_unpack_type = _return_type("lu_unpack", ("P", "L", "U"))
lu_with_info = _return_type("_lu_with_info", ("LU", "pivots", "info"))


def lu_kernel(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(LU, pivots, info) of a batch of matrices, as LAPACK's getrf returns them."""
    lu = np.array(a, dtype=a.dtype if a.dtype.kind in "fV" else np.float64, copy=True)
    m, n = lu.shape[-2:]
    k = min(m, n)
    batch = lu.shape[:-2]
    pivots = np.zeros(batch + (k,), np.int32)
    info = np.zeros(batch, np.int32)
    for j in range(k):
        p = j + np.argmax(np.abs(lu[..., j:, j]), axis=-1)
        pivots[..., j] = p + 1
        at_p = p[..., None, None]
        row_j = lu[..., j, :].copy()
        lu[..., j, :] = np.take_along_axis(lu, at_p, -2)[..., 0, :]
        np.put_along_axis(lu, at_p, row_j[..., None, :], -2)
        pivot = lu[..., j, j]
        zero = pivot == 0  # then the column below is zero too: nothing to eliminate
        info = np.where((info == 0) & zero, j + 1, info).astype(np.int32)
        col = lu[..., j + 1:, j] / np.where(zero, 1, pivot)[..., None]
        lu[..., j + 1:, j] = col
        lu[..., j + 1:, j + 1:] -= col[..., :, None] * lu[..., j, None, j + 1:]
    return lu, pivots, info


def permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The permutation matrices P (A = P L U) of LAPACK pivots (row j swapped with row pivots[j] - 1)."""
    perm = np.broadcast_to(np.arange(m), pivots.shape[:-1] + (m,)).copy()
    for j in range(pivots.shape[-1]):
        p = (pivots[..., j] - 1)[..., None].astype(np.int64)
        at_j = perm[..., j].copy()
        perm[..., j] = np.take_along_axis(perm, p, -1)[..., 0]
        np.put_along_axis(perm, p, at_j[..., None], -1)
    return (perm[..., None, :] == np.arange(m)[:, None]).astype(dtype)


def _unit_lower(LU):
    m, n = LU.shape[-2:]
    eye = np.eye(m, min(m, n), dtype=(LU._data if isinstance(LU, Tensor) else LU).dtype)
    return tril(LU, -1)[..., :, :min(m, n)] + eye


def _right_solve_ut(X, U):
    """X U^-T for an upper triangular U."""
    return solve_triangular(U, X.mT, upper=True).mT


def _lu_square_backward(L, U, gL, gU):
    """The gradient of A = L U (square, no pivoting) from those of L and U:
    L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T."""
    phi = tril(matmul(L.mT, gL), -1) + triu(matmul(gU, U.mT))
    return _right_solve_ut(solve_triangular(L.mT, phi, upper=True), U)


class LuFactor(Op, name="LinalgLuFactorExBackward0"):
    """A = P L U packed as (LU, pivots, info). The gradient is torch's: the square formula on the leading
    k x k block; a wide A's extra columns (U2 = L^-1 P^T A2) and a tall A's extra rows (L2 = A2 U^-1) feed
    their own terms and correct the others'."""

    @staticmethod
    def forward(ctx, a):
        lu, pivots, info = lu_kernel(a)
        lu = column_major(lu)
        ctx.save_for_backward(lu, pivots)
        return lu, pivots, info

    @staticmethod
    def backward(ctx, gLU, g_pivots=None, g_info=None):
        LU, pivots = ctx.saved_tensors
        m, n = LU.shape[-2:]
        k = min(m, n)
        L, U = _unit_lower(LU), triu(LU)[..., :k, :]
        gL, gU = tril(gLU, -1)[..., :, :k], triu(gLU)[..., :k, :]
        if m < n:
            U1, U2, gU1, gU2 = U[..., :, :k], U[..., :, k:], gU[..., :, :k], gU[..., :, k:]
            LinvT_gU2 = solve_triangular(L.mT, gU2, upper=True)
            gA = concat([_lu_square_backward(L, U1, gL - matmul(LinvT_gU2, U2.mT), gU1), LinvT_gU2], -1)
        elif m > n:
            L1, L2, gL1, gL2 = L[..., :k, :], L[..., k:, :], gL[..., :k, :], gL[..., k:, :]
            gL2_UinvT = _right_solve_ut(gL2, U)
            gA = concat([_lu_square_backward(L1, U, gL1, gU - matmul(L2.mT, gL2_UinvT)), gL2_UinvT], -2)
        else:
            gA = _lu_square_backward(L, U, gL, gU)
        return matmul(permutation(pivots if type(pivots) is np.ndarray else pivots._data, m, _dtype_of(LU)), gA)


def _check_lu_input(name: str, A) -> None:
    if A.dim() < 2:
        raise RuntimeError(f"torch.{name}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} "
                           "instead")


def lu_factor_ex(A, *, pivot: bool = True, check_errors: bool = False, out=None):
    """The packed LU factorization with partial pivoting, its 1-based pivots and ``info`` (the first zero
    pivot, 0 when none)."""
    _check_lu_input("lu_factor_ex" if check_errors else "lu_factor", A)
    _check_kernel_dtype("lu_cpu", A._data)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, pivots, info = LuFactor.apply(A)
    if check_errors:
        _raise_zero_pivot("torch.linalg.lu_factor_ex", info)
    return _outs(linalg_lu_factor_ex(LU, pivots, info), out)


def _raise_zero_pivot(name: str, info) -> None:
    bad = info._data[info._data > 0]
    if bad.size:
        k = int(bad.flat[0])
        raise RuntimeError(f"{name}: U[{k},{k}] is zero and using it on lu_solve would result in a division by zero. "
                           "If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                           "linalg.lu_factor_ex(A, pivot)")


def lu_factor(A, *, pivot: bool = True, out=None):
    """The packed LU factorization with partial pivoting and its 1-based pivots; an error when ``A`` is
    singular."""
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    _raise_zero_pivot("torch.linalg.lu_factor", info)
    return _outs(linalg_lu_factor(LU, pivots), out)


@register(method=False,
          sample=(lambda a: mt.lu_unpack(*mt.linalg.lu_factor(a))[1:], lambda: (leaf(3, 3, low=-1.0, high=1.0),)))
def lu_unpack(LU_data, LU_pivots, unpack_data: bool = True, unpack_pivots: bool = True, *, out=None):
    """P, L, U from a packed factorization: L unit lower, U upper, P from the pivots (empty when not asked)."""
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    dtype = LU_data._data.dtype
    empty = Tensor._wrap(np.zeros((0,), dtype))
    P = Tensor._wrap(permutation(LU_pivots._data, m, dtype)) if unpack_pivots else empty
    if not unpack_data:
        return _outs(lu_unpack_type(P, empty, empty), out)
    return _outs(lu_unpack_type(P, _unit_lower(LU_data), triu(LU_data[..., :k, :])), out)


def lu(A, *, pivot: bool = True, out=None):
    """``A = P L U`` with partial pivoting (``torch.linalg.lu``)."""
    LU, pivots, _ = lu_factor_ex(A, pivot=pivot)
    return linalg_lu(*lu_unpack(LU, pivots, out=out))


def lu_solve(LU, pivots, B, *, left: bool = True, adjoint: bool = False, out=None):
    """The X with A X = B (A^T X = B with ``adjoint``; X A = B unless ``left``) from A's packed LU factors."""
    n = LU.shape[-1]
    rows = B.shape[-2] if left else B.shape[-1]
    if rows != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({LU.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if not left:  # X A = B  <=>  A^T X^T = B^T
        return _out(lu_solve(LU, pivots, B.mT, adjoint=not adjoint).mT, out)
    L, U = _unit_lower(LU), triu(LU)
    P = permutation(pivots._data, n, LU._data.dtype)
    if adjoint:  # A^T = U^T L^T P^T
        Y = solve_triangular(U.mT, B, upper=False)
        return _out(column_major(_permuted(P, solve_triangular(L.mT, Y, upper=True))), out)
    return _out(solve_triangular(U, solve_triangular(L, _permuted(np.swapaxes(P, -1, -2), B), upper=False),
                                 upper=True), out)


def _permuted(P: np.ndarray, B):
    """P B for permutation matrices ``P``, as rows picked (LAPACK swaps rows): a product would give 0 * inf."""
    rows = np.argmax(P, axis=-1)[..., None].astype(np.int64)
    ndim = max(rows.ndim, B.dim())  # (batch dims broadcast)
    rows = rows.reshape((1,) * (ndim - rows.ndim) + rows.shape)
    return take_along_dim(B.reshape((1,) * (ndim - B.dim()) + tuple(B.shape)), Tensor._wrap(rows), -2)


@register(name="lu_solve",
          sample=(quiet(lambda a, b: mt.lu_solve(b, *mt.linalg.lu_factor(a))), lambda: (leaf(3, 3, low=-1.0, high=1.0),
                                                                             leaf(3, 2, seed=1))))
def lu_solve_legacy(input, LU_data, LU_pivots, *, out=None):
    """``torch.lu_solve(input, LU_data, LU_pivots)``: ``linalg.lu_solve`` with the arguments in the old order."""
    deprecated("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
               "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, "
               "LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)")
    return lu_solve(LU_data, LU_pivots, input, out=out)


@register(name="lu", sample=(quiet(lambda a: mt.lu(a)[0]), lambda: (leaf(3, 3, low=-1.0, high=1.0),)))
def lu_legacy(A, pivot: bool = True, get_infos: bool = False, out=None):
    """``torch.lu``: the packed factorization and pivots (and ``info`` with ``get_infos``), deprecated."""
    deprecated("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
               "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
               "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
               "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
               "torch.linalg.lu_factor_ex(A, compute_pivots)")
    LU, pivots, info = lu_factor_ex(A, pivot=pivot, check_errors=not get_infos)
    return _outs(lu_with_info(LU, pivots, info) if get_infos else (LU, pivots), out)
