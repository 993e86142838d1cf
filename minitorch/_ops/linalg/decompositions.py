"""Linear algebra of square matrices, differentiable: inv, det, slogdet, solve, Cholesky and triangular
solves (numpy's LAPACK forward; backward written with ops, so higher orders work). Batch dims broadcast."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op
from ..elementwise.clamp import where
from ..._core.out import _out, _outs
from .products import deprecated, matmul
from ..return_types import _return_type, return_types
from ..shape.triangular import tril, triu
from ..shape.view import transpose
from ..shape.joins import cat
from .layout import column_major
from ... import _dtype
from ..._core.samples import mt, leaf, quiet, spd, well_conditioned


def _mT(x):
    return transpose(x, -2, -1)


def _dtype_of(x) -> np.dtype:
    """The numpy dtype of an array or a tensor (backward formulas get either)."""
    return x._data.dtype if isinstance(x, Tensor) else x.dtype


def _type_name(a) -> str:
    """torch's C name of an array's dtype (Long, Float, ...)."""
    return _dtype.C_NAMES[_dtype.from_numpy_dtype(a.dtype)]


def _check_float(name: str, a) -> None:
    if a.dtype.kind not in "fV":
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_type_name(a).capitalize()}")


def _check_kernel_dtype(kernel: str, a) -> None:
    """torch's error for an integer input to a LAPACK kernel without integer support."""
    if a.dtype.kind not in "fV":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(a)}\'')


def _square(name: str, a) -> None:
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")


class _LinAlgError(RuntimeError):
    """A matrix the factorization cannot handle (singular, not positive-definite): ``linalg.LinAlgError``."""


def _singular(name: str, a: np.ndarray):
    """torch's error for a singular input: the first zero pivot of its LU factorization (and the batch element)."""
    info = _lu_info(a).reshape(-1)
    batch = int(np.argmax(info > 0))
    where = f"(Batch element {batch}): " if a.ndim > 2 else ""
    return _LinAlgError(f"linalg.{name}: {where}The diagonal element {info[batch]} is zero, the inversion could not "
                        "be completed because the input matrix is singular.")


def _not_positive_definite(name: str, a: np.ndarray):
    """torch's error (of the function ``name``) for a matrix that is not positive-definite, naming the first
    failing leading minor."""
    info = _cholesky_info(a).reshape(-1)
    batch = int(np.argmax(info > 0))
    where = f"(Batch element {batch}): " if a.ndim > 2 else ""
    return _LinAlgError(f"{name}: {where}The factorization could not be completed because the input is not "
                        f"positive-definite (the leading minor of order {info[batch]} is not positive-definite).")


def _cholesky_info(a: np.ndarray) -> np.ndarray:
    """Per matrix: the order of the first leading minor that is not positive-definite (0 when none), by the
    Cholesky elimination on the lower triangle, one step per column."""
    work = np.array(a, dtype=np.float64)
    info = np.zeros(a.shape[:-2], np.int32)
    for j in range(a.shape[-1]):
        d = work[..., j, j]
        bad = ~(d > 0)
        info = np.where((info == 0) & bad, j + 1, info).astype(np.int32)
        col = work[..., j + 1:, j] / np.sqrt(np.where(bad, 1.0, d))[..., None]
        work[..., j + 1:, j + 1:] -= col[..., :, None] * col[..., None, :]
    return info


def concat(parts, dim: int):
    """``cat`` of tensors, or of arrays (in a backward without ``create_graph``)."""
    return cat(parts, dim) if isinstance(parts[0], Tensor) else np.concatenate(parts, dim)


def _tril_mask(n: int, dtype) -> np.ndarray:
    return np.tril(np.ones((n, n), dtype=dtype))


class Cholesky(Op, name="LinalgCholeskyExBackward0"):
    @staticmethod
    def forward(ctx, a, name="linalg.cholesky"):
        _check_float("cholesky", a)
        try:
            L = np.linalg.cholesky(a)
        except np.linalg.LinAlgError:
            raise _not_positive_definite(name, a) from None
        if not np.isfinite(L).all() and _cholesky_info(a).any():  # numpy lets a NaN pivot through, LAPACK's stops
            raise _not_positive_definite(name, a)
        L = column_major(L)
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
        T = np.triu(A) if upper else np.tril(A)  # the other triangle is not read, as in LAPACK's trtrs
        T, B = np.broadcast_to(T, shape + A.shape[-2:]), np.broadcast_to(B, shape + B.shape[-2:])
        if np.isfinite(T).all() and np.isfinite(B).all() and np.diagonal(T, 0, -2, -1).all():
            X = np.linalg.solve(T, B)
        else:
            X = _substitute(T, B, upper)
        X = column_major(X)
        ctx.save_for_backward(A, X)
        return X

    @staticmethod
    def backward(ctx, gX):
        A, X = ctx.saved_tensors
        gB = solve_triangular(_mT(A), gX, upper=not ctx.upper)
        gA = -matmul(gB, _mT(X))
        return (triu(gA) if ctx.upper else tril(gA)), gB  # (zeros in the other triangle, not 0 * NaN)


def _substitute(T: np.ndarray, B: np.ndarray, upper: bool) -> np.ndarray:
    """T^-1 B by substitution, a row at a time, as LAPACK's triangular solvers: a NaN or inf reaches only the rows
    that depend on it, and a zero pivot gives inf or NaN rather than an error (np.linalg.solve pivots, mixing
    the rows, and refuses a singular T)."""
    n = T.shape[-1]
    X = np.zeros(B.shape, np.result_type(T, B))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in reversed(range(n)) if upper else range(n):
            known = slice(i + 1, n) if upper else slice(0, i)
            rest = B[..., i, :] - np.einsum("...j,...jk->...k", T[..., i, known], X[..., known, :])
            X[..., i, :] = rest / T[..., i, i, None]
    return X


def cholesky(input, *, upper: bool = False, out=None):
    """The lower Cholesky factor of a symmetric positive-definite (batch of) matrix (its transpose if ``upper``)."""
    return _out(_factor(Cholesky.apply(input), upper), out)


def _factor(L, upper: bool):
    """The Cholesky factor asked for (L, or U = L^T), column-major as LAPACK writes either."""
    return column_major(_mT(L) if upper else L)


def solve_triangular(input, B, *, upper: bool = False, left: bool = True, unitriangular: bool = False, out=None):
    """A^-1 B (B A^-1 unless ``left``) for a triangular A, upper or lower; with ``unitriangular`` its diagonal
    is taken as ones (``torch.linalg.solve_triangular``, whose ``upper`` has no default)."""
    if unitriangular:
        eye = np.eye(input.shape[-1], dtype=input._data.dtype)
        input = input * (1 - eye) + eye
    if not left:  # X A = B  <=>  A^T X^T = B^T
        return _out(column_major(_mT(SolveTriangular.apply(_mT(input), _mT(B), upper=not upper))), out)
    return _out(SolveTriangular.apply(input, B, upper=upper), out)


class Inv(Op, name="LinalgInvExBackward0"):
    @staticmethod
    def forward(ctx, a):
        _check_float("inv", a)
        _square("inv", a)
        try:
            r = np.linalg.inv(a)
        except np.linalg.LinAlgError:
            raise _singular("inv", a) from None
        r = column_major(r)
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
            raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
        x = column_major(x[..., 0] if vector else x)  # (a batch of vectors too: torch solves them as one matrix)
        ctx.save_for_backward(a, x)
        return x

    @staticmethod
    def backward(ctx, g):
        a, x = ctx.saved_tensors
        gb = Solve.apply(_mT(a), g)
        if ctx.vector:
            return -gb[..., None] * x[..., None, :], gb
        return -matmul(gb, _mT(x)), gb


def inv(A, *, out=None):
    """The inverse of a square matrix (or a batch of them)."""
    return _out(Inv.apply(A), out)


@register(sample=(lambda a: (a + 3 * mt.eye(3, dtype=mt.float64)).inverse(), lambda: (leaf(2, 3, 3),)))
def inverse(input, *, out=None):
    """``linalg.inv`` (whose parameter is ``A``)."""
    return inv(input, out=out)


@register(sample=(lambda a: (a + 3 * mt.eye(3, dtype=mt.float64)).det(), lambda: (leaf(2, 3, 3),)))
def det(input):
    """The determinant of a square matrix (or a batch of them)."""
    return Det.apply(input)


@register(sample=(lambda a: mt.slogdet(a - 3 * mt.eye(3, dtype=mt.float64)).logabsdet, lambda: (leaf(3, 3),)))
def slogdet(input, *, out=None):
    """The sign and log of the absolute value of the determinant."""
    return _outs(return_types.slogdet(*Slogdet.apply(input)), out)


def linalg_slogdet(A, *, out=None):
    """``torch.linalg.slogdet``: ``slogdet`` as its own named tuple."""
    return _outs(_linalg_slogdet(*Slogdet.apply(A)), out)


@register(sample=(lambda a: (a @ a.mT + mt.eye(3, dtype=mt.float64)).logdet(), lambda: (leaf(3, 3),)))
def logdet(input):
    """log(det(input)): nan where the determinant is negative."""
    sign, logabsdet = Slogdet.apply(input)
    return where(sign < 0, float("nan"), where(sign == 0, float("-inf"), logabsdet))


def solve(A, B, *, left: bool = True, out=None):
    """The X with A X = B (X A = B unless ``left``)."""
    if not left:
        return _out(_mT(Solve.apply(_mT(A), _mT(B))), out)
    return _out(Solve.apply(A, B), out)


# ---- the ``_ex`` forms: an ``info`` per matrix instead of an error ------------------------------------------
linalg_inv_ex = _return_type("linalg_inv_ex", ("inverse", "info"))
_linalg_slogdet = _return_type("linalg_slogdet", ("sign", "logabsdet"))
linalg_solve_ex = _return_type("linalg_solve_ex", ("result", "info"))
linalg_cholesky_ex = _return_type("linalg_cholesky_ex", ("L", "info"))


def _masked(op, info: np.ndarray, A, *rest):
    """``op(A, *rest)`` with the failed matrices (``info > 0``) replaced by the identity, their results by nan
    (torch's are unspecified there), so that the others keep their values and gradients."""
    bad = Tensor._wrap((info > 0)[..., None, None])
    eye = np.eye(A.shape[-1], dtype=A._data.dtype)
    result = op(where(bad, eye, A), *rest)
    masked = where(bad if result.dim() == A.dim() else bad[..., 0], float("nan"), result)
    return column_major(masked) if result.dim() > 1 and result.mT.is_contiguous() else masked  # (result's layout)


def _no_info(A) -> np.ndarray:
    return np.zeros(tuple(A.shape[:-2]), np.int32)


def inv_ex(A, *, check_errors: bool = False, out=None):
    """The inverse and, per matrix, ``info``: 0, or the first zero pivot of its LU factorization."""
    _square("inv_ex", A._data)
    try:
        inverse, info = Inv.apply(A), _no_info(A)
    except _LinAlgError:  # some matrix is singular: find which
        if check_errors:
            raise _singular("inv_ex", A._data) from None
        info = _lu_info(A._data)
        inverse = _masked(Inv.apply, info, A)
    return _outs(linalg_inv_ex(inverse, Tensor._wrap(info)), out)


def solve_ex(A, B, *, left: bool = True, check_errors: bool = False, out=None):
    """``linalg.solve`` with, per matrix, ``info``: 0, or the first zero pivot of the LU factorization of A."""
    _square("solve_ex", A._data)
    try:
        result, info = solve(A, B, left=left), _no_info(A)
    except _LinAlgError:
        if check_errors:
            raise _LinAlgError("torch.linalg.solve_ex: The solver failed because the input matrix is "
                               "singular.") from None
        info = _lu_info(A._data)
        result = _masked(lambda a, b: solve(a, b, left=left), info, A, B)
    return _outs(linalg_solve_ex(result, Tensor._wrap(info)), out)


def _lu_info(a: np.ndarray) -> np.ndarray:
    from .lu import lu_kernel  # (lu builds on this module)
    return lu_kernel(a)[2]


def cholesky_ex(input, *, upper: bool = False, check_errors: bool = False, out=None):
    """``linalg.cholesky`` with, per matrix, ``info``: 0, or the order of the first leading minor that is not
    positive-definite."""
    _square("cholesky_ex", input._data)
    try:
        L, info = cholesky(input), _no_info(input)
    except _LinAlgError:
        if check_errors:
            raise _not_positive_definite("linalg.cholesky_ex", input._data) from None
        info = _cholesky_info(input._data)
        L = _masked(cholesky, info, input)
    return _outs(linalg_cholesky_ex(_factor(L, upper), Tensor._wrap(info)), out)


# ---- legacy torch.* names ----------------------------------------------------------------------------------
@register(name="cholesky", sample=(quiet(lambda a: mt.cholesky(spd(a), upper=True)), lambda: (leaf(3, 3),)))
def cholesky_legacy(input, upper: bool = False, *, out=None):
    """``torch.cholesky``: deprecated for ``linalg.cholesky`` (``upper``: the factor U with A = U^T U)."""
    deprecated("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
               "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\n"
               "U = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\nThis "
               "transform will produce equivalent results for all valid (symmetric positive definite) inputs.")
    L = Cholesky.apply(input, name="cholesky")  # (its errors name torch.cholesky)
    return _out(_factor(L, upper), out)


def _check_rhs(name: str, B, A) -> None:
    if B.shape[-2] != A.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {A.shape[-2]} by {A.shape[-1]} "
                           f"but each b matrix is {B.shape[-2]} by {B.shape[-1]}")


@register(sample=(lambda b, a: mt.cholesky_solve(b, mt.linalg.cholesky(spd(a))), lambda: (leaf(3, 2),
                                                                                               leaf(3, 3, seed=1))))
def cholesky_solve(input, input2, upper: bool = False, *, out=None):
    """The X with A X = B given B (``input``) and the Cholesky factor of A (``input2``, lower unless ``upper``)."""
    _check_rhs("cholesky_solve", input, input2)
    L = _mT(input2) if upper else input2
    return _out(solve_triangular(_mT(L), solve_triangular(L, input), upper=True), out)


@register(sample=(lambda a: mt.cholesky_inverse(mt.linalg.cholesky(spd(a)).mT, upper=True),
                         lambda: (leaf(3, 3),)))
def cholesky_inverse(input, upper: bool = False, *, out=None):
    """The inverse of A from its Cholesky factor ``input`` (lower unless ``upper``)."""
    eye = Tensor._wrap(np.eye(input.shape[-1], dtype=input._data.dtype))
    return cholesky_solve(eye, input, upper, out=out)


triangular_solve_type = _return_type("triangular_solve", ("solution", "cloned_coefficient"))


@register(sample=(quiet(lambda b, a: mt.triangular_solve(b, well_conditioned(a), transpose=True)),
                         lambda: (leaf(3, 2), leaf(3, 3, seed=1))))
def triangular_solve(input, A, upper: bool = True, transpose: bool = False, unitriangular: bool = False, *,
                     out=None):
    """``torch.triangular_solve(b, A)``: the X with A X = b (A^T X = b with ``transpose``) for a triangular A,
    and a copy of A."""
    deprecated("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed "
               "in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
               "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced "
               "with\nX = torch.linalg.solve_triangular(A, B).")
    _check_rhs("triangular_solve", input, A)
    T = _mT(A) if transpose else A
    X = solve_triangular(T, input, upper=upper != transpose, unitriangular=unitriangular)
    batch = tuple(np.broadcast_shapes(A.shape[:-2], input.shape[:-2]))
    return _outs(triangular_solve_type(X, column_major(A.expand(*batch, *A.shape[-2:]).clone())), out)
