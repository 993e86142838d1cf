"""A few singular or eigen pairs: randomised low-rank SVD and PCA (Halko, Martinsson and Tropp 2009,
algorithms 4.4 and 5.1) - a Gaussian sketch of the range of A, refined by ``niter`` power iterations with QR
re-orthonormalisation, then the exact SVD of the small projected matrix; the sketch is torch's ``randn`` draw
(the factorisation is exact for matrices of rank <= q) - and
lobpcg's extreme eigenpairs. All composed of differentiable ops."""
from __future__ import annotations

from ... import _dtype
from ..._random_factories import randn
from ..._core.registry import register
from .factorizations import eigh, qr, svd
from .products import matmul
from .decompositions import cholesky, solve_triangular


def _approximate_basis(A, q: int, niter: int, M=None):
    """q orthonormal columns Q with Q Q^T (A - M) close to A - M."""
    dtype = A.dtype if A.dtype.is_floating_point else _dtype.float32
    R = randn(A.shape[-1], q, dtype=dtype)

    def times(X):
        return matmul(A, X) if M is None else matmul(A, X) - matmul(M, X)

    def times_t(X):
        return matmul(A.mT, X) if M is None else matmul(A.mT, X) - matmul(M.mT, X)
    Q = qr(times(R)).Q
    for _ in range(niter):
        Q = qr(times(qr(times_t(Q)).Q)).Q
    return Q


@register(method=False)
def svd_lowrank(A, q: int | None = 6, niter: int | None = 2, M=None):
    """(U, S, V) with A - M close to U diag(S) V^T, from a rank-``q`` randomised approximation."""
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    wide = m < n
    if wide:  # sketch the smaller side
        A = A.mT
        M = None if M is None else M.mT
    Q = _approximate_basis(A, q, niter, M)
    B = matmul(Q.mT, A) if M is None else matmul(Q.mT, A) - matmul(Q.mT, M)
    U, S, Vh = svd(B, full_matrices=False)
    U, V = matmul(Q, U), Vh.mT
    return (V, S, U) if wide else (U, S, V)


@register(method=False)
def pca_lowrank(A, q: int | None = None, center: bool = True, niter: int = 2):
    """Principal component analysis of the rows of ``A`` by ``svd_lowrank`` of the centred ``A``:
    (U, S, V) with the principal directions in V's columns."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if center:
        A = A - A.mean(dim=(-2,), keepdim=True)
    return svd_lowrank(A, q, niter=niter)


@register(method=False)
def lobpcg(A, k: int | None = None, B=None, X=None, n: int | None = None, iK=None, niter: int | None = None,
           tol: float | None = None, largest: bool | None = None, method: str | None = None, tracker=None,
           ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
    """The ``k`` largest (or smallest) eigenpairs (E, X) of a symmetric A, or of A x = lambda B x, that
    ``torch.lobpcg`` iterates towards: here the dense symmetric eigensolver gives them to working precision
    (minitorch's tensors are dense), so the iteration's controls (X's values, iK, niter, tol, method, tracker,
    ortho_*) have nothing to steer. X's columns are (B-)orthonormal; their signs are arbitrary."""
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if X is None else X.shape[-1]) if n is None else n
    m = A.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m}) is smaller than 3 x "
                         f"the number of requested eigenpairs (={n})")
    if B is None:
        E, V = eigh(A)
    else:  # with B = L L^T: (L^-1 A L^-T) y = lambda y and x = L^-T y
        L = cholesky(B)
        E, Y = eigh(solve_triangular(L, solve_triangular(L, A).mT))
        V = solve_triangular(L.mT, Y, upper=True)
    if largest is None or largest:
        return E[..., -k:].flip(-1), V[..., -k:].flip(-1)
    return E[..., :k], V[..., :k]
