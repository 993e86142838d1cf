"""Spectral and orthogonal factorizations, differentiable: SVD, the symmetric eigendecomposition, QR, the
pseudo-inverse and the matrix exponential (numpy's LAPACK forward; backward written with ops, so higher
orders work), and what is built on them: svdvals, eigvalsh, lstsq, matrix norms, cond, matrix_rank,
matrix_power. Batch dims are supported throughout."""
from __future__ import annotations

import math

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op
from ..._core.grad_mode import is_grad_enabled
from ..elementwise.clamp import where
from ..._core.out import _out
from .decompositions import (_check_float, _check_kernel_dtype, _dtype_of, _LinAlgError, _outs, _square, concat, inv,
                             inv_ex, solve, solve_triangular)
from ..shape.indexing import narrow
from .layout import column_major
from .products import deprecated, matmul
from ..reduction.norm import vector_norm
from ..return_types import _return_type
from ..reduction.extrema import amax, amin
from ..shape.triangular import tril, triu
from ..shape.view import unsqueeze
from ..shape.joins import stack
from ..._core.samples import mt, leaf, quiet, well_conditioned

linalg_svd = _return_type("linalg_svd", ("U", "S", "Vh"))
svd_type = _return_type("svd", ("U", "S", "V"))
linalg_eigh = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_qr = _return_type("linalg_qr", ("Q", "R"))
qr_type = _return_type("qr", ("Q", "R"))
linalg_lstsq = _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


def _check_matrix(name: str, a) -> None:
    """torch's checks on a (batch of) matrix input: at least 2 dims, floating point."""
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    _check_float(name, a)


def _eye_like(x, n: int):
    """The identity of size ``n`` in ``x``'s dtype, a constant for formulas on arrays or tensors."""
    return np.eye(n, dtype=_dtype_of(x))


def _diag_embed(v):
    """Vectors (last dim) onto the diagonals of square matrices, for arrays and tensors alike."""
    return unsqueeze(v, -1) * _eye_like(v, v.shape[-1])


# ---- SVD ---------------------------------------------------------------------------------------------------
def _np_svd(a: np.ndarray, **kwargs):
    """numpy's SVD of a finite ``a``; a NaN or inf is refused with torch's error (numpy's LAPACK can loop
    forever on an inf)."""
    if not np.isfinite(a).all():
        raise _LinAlgError("linalg.svd: The algorithm failed to converge because the input matrix contained "
                           "non-finite values.")
    return np.linalg.svd(a, **kwargs)


def _np_eigh(a: np.ndarray, eigenvectors: bool = True, UPLO: str = "L"):
    """numpy's eigh (or eigvalsh), its failure (a NaN or inf in ``a``) as torch's LinAlgError (whose message ends
    with LAPACK's error code, which numpy does not report)."""
    try:
        return np.linalg.eigh(a, UPLO=UPLO) if eigenvectors else np.linalg.eigvalsh(a, UPLO=UPLO)
    except np.linalg.LinAlgError:
        raise _LinAlgError("linalg.eigh: The algorithm failed to converge because the input matrix is ill-conditioned "
                           "or has too many repeated eigenvalues.") from None


class Svd(Op, name="LinalgSvdBackward0"):
    """A = U diag(S) Vh; the gradient is torch's (well defined for distinct nonzero singular values)."""

    @staticmethod
    def forward(ctx, a, full_matrices=True):
        _check_matrix("svd", a)
        U, S, Vh = _np_svd(a, full_matrices=full_matrices)
        U, Vh = column_major(U), column_major(Vh)
        ctx.full_matrices = full_matrices
        ctx.save_for_backward(U, S, Vh)
        return U, S, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        U, S, Vh = ctx.saved_tensors
        k = S.shape[-1]
        if ctx.full_matrices:  # the extra columns of U and rows of Vh carry nothing about A
            U, Vh = narrow(U, -1, 0, k), narrow(Vh, -2, 0, k)
            gU = None if gU is None else narrow(gU, -1, 0, k)
            gVh = None if gVh is None else narrow(gVh, -2, 0, k)
        return _svd_backward(gU, gS, gVh, U, S, Vh)


def _svd_backward(gU, gS, gVh, U, S, Vh):
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        return matmul(U, unsqueeze(gS, -1) * Vh) if m >= n else matmul(U * unsqueeze(gS, -2), Vh)
    S2 = S * S
    E = unsqueeze(S2, -2) - unsqueeze(S2, -1) + _eye_like(S, S.shape[-1])  # S_j^2 - S_i^2, ones on the diagonal
    gA = 0
    if gU is not None:
        UhgU = matmul(U.mT, gU)
        gA = (UhgU - UhgU.mT) / E * unsqueeze(S, -2)
    if gVh is not None:
        VhgV = matmul(Vh, gVh.mT)
        gA = gA + unsqueeze(S, -1) * ((VhgV - VhgV.mT) / E)
    if gS is not None:
        gA = gA + _diag_embed(gS)
    if m > n and gU is not None:
        gUSinv = gU / unsqueeze(S, -2)
        gA = matmul(U, gA) + gUSinv - matmul(U, matmul(U.mT, gUSinv))
        return matmul(gA, Vh)
    if m < n and gVh is not None:
        SinvgVh = gVh / unsqueeze(S, -1)
        gA = matmul(gA, Vh) + SinvgVh - matmul(matmul(SinvgVh, Vh.mT), Vh)
        return matmul(U, gA)
    return matmul(U, matmul(gA, Vh)) if m >= n else matmul(matmul(U, gA), Vh)


def svd(A, full_matrices: bool = True, *, driver=None, out=None):
    """The singular value decomposition ``A = U diag(S) Vh`` (``torch.linalg.svd``)."""
    return _outs(linalg_svd(*Svd.apply(A, full_matrices=full_matrices)), out)


def _needs_graph(A) -> bool:
    return isinstance(A, Tensor) and A.requires_grad and is_grad_enabled()


def svdvals(A, *, driver=None, out=None):
    """The singular values of ``A``, in descending order."""
    if _needs_graph(A):
        return _out(Svd.apply(A, full_matrices=False)[1], out)
    _check_matrix("svd", A._data)
    return _out(Tensor._wrap(_np_svd(A._data, compute_uv=False)), out)


@register(name="svd", sample=(lambda a: mt.svd(a), lambda: (leaf(4, 3, low=-1.0, high=1.0),)))
def svd_legacy(input, some: bool = True, compute_uv: bool = True, *, out=None):
    """``torch.svd``: ``U, S, V`` with ``V`` (not ``Vh``); reduced unless ``some=False``; zero ``U``, ``V``
    without ``compute_uv``."""
    if not compute_uv:
        batch, (m, n), dt = tuple(input.shape[:-2]), input.shape[-2:], input._data.dtype
        U, V = (Tensor._wrap(np.zeros(batch + (k, k), dt)) for k in (m, n))
        return _outs(svd_type(U, svdvals(input), column_major(V)), out)
    U, S, Vh = Svd.apply(input, full_matrices=not some)
    return _outs(svd_type(U, S, Vh.mT), out)


# ---- symmetric eigendecomposition --------------------------------------------------------------------------
class Eigh(Op, name="LinalgEighBackward0"):
    """A = V diag(L) V^T for a symmetric A (read from its ``UPLO`` triangle)."""

    @staticmethod
    def forward(ctx, a, UPLO="L"):
        _check_kernel_dtype("linalg_eigh_cpu", a)
        _check_matrix("eigh", a)
        _square("eigh", a)
        L, V = _np_eigh(a, UPLO=UPLO)
        V = column_major(V)
        ctx.save_for_backward(L, V)
        return L, V

    @staticmethod
    def backward(ctx, gL, gV):
        L, V = ctx.saved_tensors
        if gV is None:
            return matmul(V * unsqueeze(gL, -2), V.mT)
        VhgV = matmul(V.mT, gV)
        E = unsqueeze(L, -2) - unsqueeze(L, -1) + _eye_like(L, L.shape[-1])
        gA = (VhgV - VhgV.mT) * 0.5 / E
        if gL is not None:
            gA = gA + _diag_embed(gL)
        return matmul(V, matmul(gA, V.mT))


def _check_uplo(UPLO: str) -> None:
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def eigh(input, UPLO: str = "L", *, out=None):
    """Eigenvalues (ascending) and orthonormal eigenvectors of a symmetric matrix."""
    _check_uplo(UPLO)
    return _outs(linalg_eigh(*Eigh.apply(input, UPLO=UPLO)), out)


def eigvalsh(input, UPLO: str = "L", *, out=None):
    """The eigenvalues (ascending) of a symmetric matrix."""
    _check_uplo(UPLO)
    if _needs_graph(input):
        return _out(Eigh.apply(input, UPLO=UPLO)[0], out)
    _check_kernel_dtype("linalg_eigh_cpu", input._data)
    _check_matrix("eigvalsh", input._data)
    _square("eigvalsh", input._data)
    return _out(Tensor._wrap(_np_eigh(input._data, False, UPLO)), out)


# ---- QR ----------------------------------------------------------------------------------------------------
class Qr(Op, name="LinalgQrBackward0"):
    """A = Q R with Q orthonormal columns and R upper triangular (torch's signs: LAPACK's Householder QR)."""

    @staticmethod
    def forward(ctx, a, mode="reduced"):
        _check_matrix("qr", a)
        ctx.mode = mode
        if mode == "r":
            R = np.linalg.qr(a, mode="r")
            Q = np.zeros((0,), a.dtype)
        else:
            Q, R = np.linalg.qr(a, mode=mode)
        Q, R = column_major(Q), column_major(R)
        ctx.save_for_backward(Q, R)
        return Q, R

    @staticmethod
    def backward(ctx, gQ, gR):
        Q, R = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                               "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through "
                               "linalg.qr.")
        m, n = Q.shape[-2], R.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        gA = 0
        if gR is not None:
            gA = matmul(gR, R.mT)
        if gQ is not None:
            gA = gA - matmul(Q.mT, gQ)
        if m >= n:
            upper = triu(gA)
            sym = upper + tril(upper.mT, -1)  # X + X^T with the diagonal once
            gA = matmul(Q, sym)
            if gQ is not None:
                gA = gA + gQ
            return solve_triangular(R, gA.mT, upper=True).mT  # gA R^-T
        lower = tril(gA.mT - gA)
        gA = solve_triangular(narrow(R, -1, 0, m), matmul(Q, lower).mT, upper=True).mT
        zeros = np.zeros(tuple(R.shape[:-1]) + (n - m,), dtype=_dtype_of(R))
        gA = concat([gA, Tensor._wrap(zeros) if isinstance(gA, Tensor) else zeros], -1)
        return gA + matmul(Q, gR) if gR is not None else gA


def _check_mode(mode: str) -> None:
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")


def qr(A, mode: str = "reduced", *, out=None):
    """The QR decomposition (``mode`` 'reduced', 'complete' or 'r': R alone and an empty Q)."""
    _check_mode(mode)
    return _outs(linalg_qr(*Qr.apply(A, mode=mode)), out)


@register(name="qr", sample=(quiet(lambda a: mt.qr(a)), lambda: (leaf(4, 3, low=-1.0, high=1.0),)))
def qr_legacy(input, some: bool = True, *, out=None):
    """``torch.qr``: the reduced QR decomposition, or the complete one with ``some=False``."""
    deprecated("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
               "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
               "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
               "'complete')")
    return _outs(qr_type(*Qr.apply(input, mode="reduced" if some else "complete")), out)


# ---- pseudo-inverse, least squares, rank -------------------------------------------------------------------
def _above_tolerance(s: np.ndarray, atol, rtol, shape) -> np.ndarray:
    """Which singular values count as nonzero: those above max(atol, rtol * the largest), rtol defaulting to
    eps * max(m, n) unless atol is positive (torch's rule)."""
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(s.dtype).eps * max(shape[-2:])
    smax = s.max(-1, keepdims=True) if s.shape[-1] else np.zeros(s.shape[:-1] + (1,), s.dtype)
    return s > np.maximum(atol or 0.0, rtol * smax)


def _one_of(name: str, old, atol, rtol) -> None:
    """The older single tolerance (``tol``, ``rcond``) is an overload of its own: not with atol or rtol."""
    if old is not None and (atol is not None or rtol is not None):
        raise TypeError(f"{name}() received an invalid combination of arguments: a positional tolerance with atol "
                        "or rtol")


def _pinv_forward(a, atol, rtol, hermitian):
    if hermitian:
        L, V = _np_eigh(a)
        keep = _above_tolerance(np.abs(L), atol, rtol, a.shape)
    else:
        U, s, Vh = _np_svd(a, full_matrices=False)
        keep = _above_tolerance(s, atol, rtol, a.shape)
    if hermitian:
        inv_l = np.where(keep, 1 / np.where(keep, L, 1), 0).astype(a.dtype)
        return (V * inv_l[..., None, :]) @ V.mT
    inv_s = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(a.dtype)
    return (Vh.mT * inv_s[..., None, :]) @ U.mT


class Pinv(Op, name="LinalgPinvBackward0"):
    """The Moore-Penrose pseudo-inverse; the gradient is torch's (valid where the rank does not change)."""

    @staticmethod
    def forward(ctx, a, atol=None, rtol=None, hermitian=False):
        if a.ndim < 2 or a.dtype.kind not in "fV":
            name = _dtype.C_NAMES[_dtype.from_numpy_dtype(a.dtype)]
            raise RuntimeError(f"linalg.pinv({name}{{{list(a.shape)}}}): expected a tensor with 2 or more "
                               "dimensions of float, double, cfloat or cdouble types")
        p = _pinv_forward(a, atol, rtol, hermitian)
        ctx.save_for_backward(a, p)
        return p

    @staticmethod
    def backward(ctx, g):
        a, p = ctx.saved_tensors
        m, n = a.shape[-2:]
        ph, gh = p.mT, g.mT
        if m <= n:
            K = matmul(gh, p)
            KpH = matmul(K, ph)
            return -matmul(p, K).mT + KpH - matmul(matmul(a, p), KpH) + matmul(matmul(ph, p), gh - matmul(K, a))
        K = matmul(p, gh)
        pHK = matmul(ph, K)
        return -matmul(K, p).mT + matmul(matmul(gh - matmul(a, K), p), ph) + pHK - matmul(matmul(pHK, p), a)


def pinv(input, rcond=None, hermitian: bool = False, *, atol=None, rtol=None, out=None):
    """The pseudo-inverse: singular values below ``max(atol, rtol * largest)`` count as zero (``rcond``: the older
    name of ``rtol``)."""
    _one_of("linalg_pinv", rcond, atol, rtol)
    if rcond is not None:
        rtol = rcond
    if isinstance(atol, Tensor) or isinstance(rtol, Tensor):
        raise NotImplementedError("minitorch: linalg.pinv takes atol and rtol as numbers, not tensors")
    return _out(Pinv.apply(input, atol=atol, rtol=rtol, hermitian=hermitian), out)


@register(sample=(None, lambda: (leaf(3, 4, low=-1.0, high=1.0),)))
def pinverse(input, rcond: float = 1e-15):
    """``torch.pinverse``: the pseudo-inverse with relative tolerance ``rcond``."""
    return Pinv.apply(input, atol=None, rtol=rcond)


def lstsq(input, b, rcond=None, *, driver=None):
    """The least-squares solution X of ``input X = b`` (``torch.linalg.lstsq``), through the pseudo-inverse;
    ``residuals`` (squared norms of ``input X - b``) for a tall full-rank ``input`` and a driver other than 'gelsy',
    ``rank`` and ``singular_values`` as the driver gives them."""
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = b.dim() == input.dim() - 1
    Bm = unsqueeze(b, -1) if vector else b
    if input.shape[-2] != Bm.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = input.shape[-2:]
    rtol = rcond if rcond is not None and rcond > 0 else None
    X = matmul(Pinv.apply(input, rtol=rtol), Bm)
    s = _np_svd(input._data, compute_uv=False)
    rank = _above_tolerance(s, None, rtol, input.shape).sum(-1)
    empty = Tensor._wrap(np.zeros((0,), input._data.dtype))
    residuals = empty
    if driver != "gelsy" and m > n and bool(np.all(rank == n)):
        residuals = ((matmul(input, X) - Bm) ** 2).sum(-2)
    rank_t = empty.new_zeros((0,), dtype=_dtype.int64) if driver == "gels" else Tensor._wrap(np.asarray(rank, np.int64))
    values = Tensor._wrap(s) if driver in ("gelsd", "gelss") else empty
    X = column_major(X, rows=max(m, n))  # a view of B's buffer, as LAPACK's solvers leave it
    return linalg_lstsq(X[..., 0] if vector else X, residuals[..., 0] if vector and residuals.numel() else residuals,
                        rank_t, values)


# ---- matrix exponential ------------------------------------------------------------------------------------
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _expm(a: np.ndarray) -> np.ndarray:
    """exp(a) by scaling and squaring with the degree-13 Pade approximant (Higham 2005), per matrix in the batch."""
    n = a.shape[-1]
    work = a.astype(np.float64)
    norm = np.abs(work).sum(-2).max(-1) if n else np.zeros(a.shape[:-2])
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / _THETA13))).astype(np.int64)
    work = work / (2.0 ** s)[..., None, None]
    b = _PADE13
    eye = np.eye(n)
    A2 = work @ work
    A4 = A2 @ A2
    A6 = A4 @ A2
    U = work @ (A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * eye)
    V = A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * eye
    r = np.linalg.solve(V - U, V + U)
    for i in range(int(s.max()) if s.size else 0):  # square each matrix as often as it was scaled down
        r = np.where((s > i)[..., None, None], r @ r, r)
    return r.astype(a.dtype)


class MatrixExp(Op, name="LinalgMatrixExpBackward0"):
    """exp(A); the gradient is the upper-right block of exp([[A^T, G], [0, A^T]])."""

    @staticmethod
    def forward(ctx, a):
        _check_matrix("matrix_exp", a)
        _square("matrix_exp", a)
        ctx.save_for_backward(a)
        return _expm(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        n = a.shape[-1]
        at = a.mT
        zeros = np.zeros(tuple(g.shape), dtype=_dtype_of(a))
        z = Tensor._wrap(zeros) if isinstance(g, Tensor) else zeros
        block = concat([concat([at, g], -1), concat([z, at], -1)], -2)
        return MatrixExp.apply(block)[..., :n, n:]


@register(sample=(None, lambda: (leaf(2, 3, 3, low=-1.0, high=1.0),)))
def matrix_exp(input):
    """The matrix exponential of a square matrix (or a batch of them)."""
    return MatrixExp.apply(input)


# ---- composites: powers, norms, condition number, rank -----------------------------------------------------
@register(out=True, sample=(lambda a: mt.matrix_power(well_conditioned(a), -3), lambda: (leaf(3, 3),)))
def matrix_power(input, n: int):
    """``input`` multiplied by itself ``n`` times (the inverse's power for negative ``n``; the identity for 0)."""
    _square("matrix_power", input._data)
    if n == 0:
        eye = np.broadcast_to(_eye_like(input, input.shape[-1]), tuple(input.shape)).copy()
        return Tensor._wrap(eye)
    if n < 0:
        input, n = inv(input), -n
    result, square = None, input
    while n:  # binary powering: log2(n) squarings
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    return result.clone() if result is input else result  # a new tensor, as torch's


def matrix_norm(input, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None, out=None):  # noqa: A002
    """The ``ord`` norm of the matrices in ``dim``: 'fro', 'nuc', the induced 1, 2, inf norms and their minima."""
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dtype is not None:
        input = input.to(_dtype.to_dtype(dtype))
    _check_float("matrix_norm", input._data)
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = (d % input.dim() for d in dim)
    if ord == "fro":
        return _out(vector_norm(input, 2, (d0, d1), keepdim), out)
    if ord not in ("nuc", 1, -1, 2, -2, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if ord in ("nuc", 2, -2):
        moved = input.movedim((d0, d1), (-2, -1))
        s = svdvals(moved)
        r = s.sum(-1) if ord == "nuc" else amax(s, -1) if ord == 2 else amin(s, -1)
        if keepdim:
            r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
        return _out(r, out)
    sum_dim, max_dim = (d0, d1) if abs(ord) == 1 else (d1, d0)
    sums = input.abs().sum(sum_dim, keepdim=True)
    r = (amax if ord > 0 else amin)(sums, max_dim, keepdim=True)
    return _out(r if keepdim else r.squeeze((d0, d1)), out)


def norm(input, ord=None, dim=None, keepdim: bool = False, *, out=None, dtype=None):  # noqa: A002
    """``torch.linalg.norm``: a vector norm over one dim (or of a 1-D tensor), a matrix norm over two."""
    if dim is not None and not isinstance(dim, int) and len(dim) > 2:
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    if isinstance(ord, str):
        return matrix_norm(input, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype, out=out)
    if isinstance(dim, int) or (dim is not None and len(dim) == 1) or (
            dim is None and (input.dim() == 1 or ord is None)):
        return _out(vector_norm(input, 2 if ord is None else ord, dim, keepdim, dtype=dtype), out)
    if dim is None and input.dim() != 2:
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{input.dim()}D.")
    return matrix_norm(input, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype,
                       out=out)


@register(method=False, sample=(quiet(lambda a: mt.nuclear_norm(a)), lambda: (leaf(3, 4, low=-1.0, high=1.0),)))
def nuclear_norm(input, dim=None, keepdim: bool = False, *, out=None):
    """The sum of the singular values (of the matrices in ``dim``, the last two by default)."""
    deprecated("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
               "future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")
    return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim, out=out)


@register(method=False, sample=(quiet(lambda a: mt.frobenius_norm(a, (0, 1))), lambda: (leaf(3, 4),)))
def frobenius_norm(input, dim=(-2, -1), keepdim: bool = False, *, out=None):
    """The square root of the sum of squares over ``dim``."""
    deprecated("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
               "future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead")
    return _out(vector_norm(input, 2, dim, keepdim), out)


def cond(input, p=None, *, out=None):
    """The condition number of ``input`` in the ``p`` norm (the 2-norm by default: largest over smallest singular
    value)."""
    if p not in (None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if p in (None, 2, -2):
        _check_matrix("svd", input._data)
        s = svdvals(input)
        big, small = s[..., 0], s[..., -1]
        return _out(small / big if p == -2 else big / small, out)
    _square("cond", input._data)
    inverse, info = inv_ex(input)
    result = matrix_norm(input, p) * matrix_norm(where(unsqueeze(unsqueeze(info, -1), -1) > 0, 0.0, inverse), p)
    return _out(where(info > 0, math.inf, result), out)  # a singular matrix's condition number is infinite


def matrix_rank(input, tol=None, hermitian: bool = False, *, atol=None, rtol=None, out=None):
    """The number of singular values above ``max(atol, rtol * largest)`` (default rtol: eps * max(m, n));
    ``tol``: the older absolute tolerance."""
    _one_of("linalg_matrix_rank", tol, atol, rtol)
    a = input._data
    if a.dtype.kind not in "fV":
        raise RuntimeError("This function doesn't handle types other than float and double")
    _check_matrix("matrix_rank", a)
    s = np.abs(_np_eigh(a, False)) if hermitian else _np_svd(a, compute_uv=False)
    if tol is not None:
        atol, rtol = tol, 0.0
    return _out(Tensor._wrap(np.asarray(_above_tolerance(s, atol, rtol, a.shape).sum(-1), np.int64)), out)


# ---- small composites of torch.linalg ----------------------------------------------------------------------
def vecdot(x, y, *, dim: int = -1, out=None):
    """The dot product of vectors along ``dim`` (batch dims broadcast)."""
    _check_float("vecdot", x._data)
    return _out((x * y).sum(dim), out)


def _powers(x, N: int):
    """x^0, x^1, ..., x^(N-1) stacked on a new last dim, by repeated products (well-defined gradients at 0); x^0
    is the constant 1, also for a NaN or infinite x, as in torch."""
    columns = [x.new_ones(x.shape)] if N else []
    for _ in range(1, N):
        columns.append(columns[-1] * x)
    return stack(columns, -1) if columns else unsqueeze(x, -1)[..., :0]


def linalg_vander(x, *, N: int | None = None):
    """The Vandermonde matrix of the last dim of ``x``: increasing powers, ``N`` columns (default: len(x))."""
    if x.dim() < 1:
        raise RuntimeError("linalg.vander: x must have at least one dimension")
    N = x.shape[-1] if N is None else N
    if N <= 1:
        raise RuntimeError("N must be greater than 1.")
    return _powers(x, N)


@register(method=False, sample=(lambda a: mt.vander(a, 4), lambda: (leaf(3),)))
def vander(x, N: int | None = None, increasing: bool = False):
    """The Vandermonde matrix of a 1-D ``x``: decreasing powers unless ``increasing``."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    N = x.shape[0] if N is None else N
    if N < 0:
        raise RuntimeError("N must be non-negative.")
    result = _powers(x, N)
    return result if increasing else result.flip(-1)


def tensorinv(input, ind: int = 2, *, out=None):
    """The tensor ``X`` with ``tensordot(input, X, ind)`` the identity: ``inv`` of ``input`` as a matrix of its
    first ``ind`` dims by the rest, reshaped to ``input.shape[ind:] + input.shape[:ind]``."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = tuple(input.shape[:ind]), tuple(input.shape[ind:])
    if math.prod(rows) != math.prod(cols):
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {math.prod(cols)} != {math.prod(rows)}")
    return _out(inv(input.reshape(math.prod(rows), math.prod(cols))).reshape(*cols, *rows), out)


def tensorsolve(input, other, dims=None, *, out=None):
    """The ``X`` with ``tensordot(input, X, X.ndim) == other``; ``dims``: dims of ``input`` moved to the end first."""
    if dims is not None:
        dims = [d % input.dim() for d in dims]
        input = input.permute(*[d for d in range(input.dim()) if d not in dims], *dims)
    rest = tuple(input.shape[other.dim():])
    result_size = math.prod(rest)
    if math.prod(input.shape[:other.dim()]) != result_size:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {result_size} != "
                           f"{math.prod(input.shape[:other.dim()])}")
    X = solve(input.reshape(result_size, result_size), other.reshape(result_size))
    return _out(X.reshape(*rest), out)

