"""The LDL^T factorization of symmetric matrices with Bunch-Kaufman pivoting (1x1 and 2x2 blocks in D), in
LAPACK's compact form (``sytrf`` with the lower triangle: LD holds L's multipliers and D, ``pivots`` are
1-based, negative for 2x2 blocks), and the solve that uses it (``sytrs``). Numpy has neither: the pivot
choices differ between matrices, so each matrix is factored on its own, one step per column or block with the
trailing update vectorised. Not differentiable (torch implements no derivative for either)."""
from __future__ import annotations

import numpy as np

from ..._core.tensor import Tensor
from ..._core.out import _out
from .decompositions import _check_rhs, _outs, _type_name
from .layout import column_major
from ..return_types import _return_type

linalg_ldl_factor = _return_type("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))

_ALPHA = (1 + np.sqrt(17.0)) / 8  # Bunch-Kaufman's growth bound


def _swap_symmetric(a: np.ndarray, kk: int, kp: int) -> None:
    """Interchange rows and columns kk < kp of the trailing lower triangle, as sytf2 does."""
    a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
    between = a[kk + 1:kp, kk].copy()
    a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
    a[kp, kk + 1:kp] = between
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]


def _sytf2(a: np.ndarray) -> tuple[np.ndarray, int]:
    """Factor one matrix in place (its lower triangle); returns (pivots, info)."""
    n = a.shape[0]
    pivots = np.zeros(n, np.int32)
    info, k = 0, 0
    while k < n:
        step = 1
        absakk = abs(a[k, k])
        imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k]))) if k + 1 < n else k
        colmax = abs(a[imax, k]) if k + 1 < n else 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
            kp = k
        else:
            if absakk >= _ALPHA * colmax:
                kp = k
            else:
                rowmax = np.abs(a[imax, k:imax]).max()
                if imax + 1 < n:
                    rowmax = max(rowmax, np.abs(a[imax + 1:, imax]).max())
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, step = imax, 2
            kk = k + step - 1
            if kp != kk:
                _swap_symmetric(a, kk, kp)
                if step == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if step == 1:
                x = a[k + 1:, k] / a[k, k]
                a[k + 1:, k + 1:] -= np.outer(x, a[k + 1:, k])
                a[k + 1:, k] = x
            elif k + 2 < n:  # W = A[k+2:, k:k+2] D^-1, then the trailing block minus W D W^T
                d21 = a[k + 1, k]
                d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
                d21 = 1 / (d11 * d22 - 1) / d21
                c0, c1 = a[k + 2:, k].copy(), a[k + 2:, k + 1].copy()
                wk, wkp1 = d21 * (d11 * c0 - c1), d21 * (d22 * c1 - c0)
                a[k + 2:, k + 2:] -= np.outer(c0, wk) + np.outer(c1, wkp1)
                a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1
        pivots[k:k + step] = kp + 1 if step == 1 else -(kp + 1)
        k += step
    return pivots, info


def ldl_factor_ex(input, *, hermitian: bool = False, check_errors: bool = False, out=None):
    """The compact LDL^T factorization of symmetric matrices (their lower triangle), its pivots and ``info``
    (the first zero diagonal block of D, 0 when none)."""
    name = "torch.linalg.ldl_factor_ex"
    if input.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if input._data.dtype.kind not in "fV":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_type_name(input._data).capitalize()}")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {input.shape[-2]} by "
                           f"{input.shape[-1]} matrices")
    a = np.tril(input._data).copy()
    batch, n = a.shape[:-2], a.shape[-1]
    pivots = np.zeros(batch + (n,), np.int32)
    info = np.zeros(batch, np.int32)
    for index in np.ndindex(*batch):  # each matrix pivots its own way
        pivots[index], info[index] = _sytf2(a[index])
    if check_errors and info.any():
        raise RuntimeError(f"torch.linalg.ldl_factor_ex: Unknown error code: {int(info[info > 0][0])}.")
    return _outs(linalg_ldl_factor_ex(Tensor._wrap(column_major(np.tril(a))), Tensor._wrap(pivots), Tensor._wrap(info)), out)


def ldl_factor(input, *, hermitian: bool = False, out=None):
    """The compact LDL^T factorization of symmetric matrices (their lower triangle) and its pivots."""
    LD, pivots, info = ldl_factor_ex(input, hermitian=hermitian)
    if info._data.any():
        raise RuntimeError(f"torch.linalg.ldl_factor: Unknown error code: {int(info._data[info._data > 0][0])}.")
    return _outs(linalg_ldl_factor(LD, pivots), out)


def _sytrs(ld: np.ndarray, piv: np.ndarray, b: np.ndarray) -> None:
    """Solve L D L^T X = B in place for one matrix (B: n x k)."""
    n = ld.shape[0]
    k = 0
    while k < n:  # L D Y = P^T B, forward
        if piv[k] > 0:
            kp = piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
            b[k] /= ld[k, k]
            k += 1
        else:
            kp = -piv[k] - 1
            b[[k + 1, kp]] = b[[kp, k + 1]]
            b[k + 2:] -= np.outer(ld[k + 2:, k], b[k]) + np.outer(ld[k + 2:, k + 1], b[k + 1])
            off = ld[k + 1, k]
            akm1, ak = ld[k, k] / off, ld[k + 1, k + 1] / off
            denom = akm1 * ak - 1
            bkm1, bk = b[k] / off, b[k + 1] / off
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = Y, backward, undoing the interchanges
        if piv[k] > 0:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            kp = piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            b[k] -= ld[k + 1:, k] @ b[k + 1:]
            b[k - 1] -= ld[k + 1:, k - 1] @ b[k + 1:]
            kp = -piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 2


def ldl_solve(LD, pivots, B, *, hermitian: bool = False, out=None):
    """The X with A X = B from A's compact LDL^T factorization (``ldl_factor``)."""
    _check_rhs("torch.linalg.ldl_solve", B, LD)
    batch = np.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    ld = np.broadcast_to(LD._data, batch + tuple(LD.shape[-2:]))
    piv = np.broadcast_to(pivots._data, batch + tuple(pivots.shape[-1:]))
    x = np.array(np.broadcast_to(B._data, batch + tuple(B.shape[-2:])), dtype=LD._data.dtype)
    for index in np.ndindex(*batch):
        _sytrs(ld[index], piv[index], x[index])
    return _out(Tensor._wrap(column_major(x)), out)
