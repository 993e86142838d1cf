"""Householder reflectors in LAPACK's compact form: ``geqrf`` (QR as reflectors below the diagonal of R and
their scales ``tau``), ``householder_product``/``orgqr`` (the Q they make) and ``ormqr`` (a product with that
Q). Q = H_1 ... H_k with H_j = I - tau_j v_j v_j^T, v_j unit at j, zero above. Each is a loop over the
reflectors, vectorised over the batch; the last two are written with ops, so they are differentiable."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.out import _out
from .decompositions import _check_kernel_dtype, _outs
from .layout import column_major
from .products import matmul
from ..return_types import _return_type
from ..shape.triangular import tril
from ..shape.joins import cat
from ..._core.samples import mt, leaf

geqrf_type = _return_type("geqrf", ("a", "tau"))


@register(differentiable=False)
def geqrf(input, *, out=None):
    """The QR factorization in LAPACK's form: R on and above the diagonal, the reflectors below, and ``tau``."""
    _check_kernel_dtype("geqrf_cpu", input._data)
    a = np.array(input._data, copy=True)
    m, n = a.shape[-2:]
    k = min(m, n)
    tau = np.zeros(a.shape[:-2] + (k,), a.dtype)
    # LAPACK's dlarfg per column: beta = -sign(alpha) |x|, v = x[1:] / (alpha - beta), tau = (beta - alpha) / beta
    for j in range(k):
        alpha = a[..., j, j].copy()
        xnorm = np.sqrt((a[..., j + 1:, j] ** 2).sum(-1))
        skip = xnorm == 0  # H_j = I
        beta = -np.copysign(np.hypot(alpha, xnorm), alpha)
        tau[..., j] = np.where(skip, 0, (beta - alpha) / np.where(skip, 1, beta))
        v = a[..., j + 1:, j] / np.where(skip, 1, alpha - beta)[..., None]
        a[..., j + 1:, j] = np.where(skip[..., None], a[..., j + 1:, j], v)
        a[..., j, j] = np.where(skip, alpha, beta)
        vv = np.concatenate([np.ones(a.shape[:-2] + (1,), a.dtype), a[..., j + 1:, j]], -1)
        rest = a[..., j:, j + 1:]
        rest -= (tau[..., j, None, None] * vv[..., :, None]) * (vv[..., None, :] @ rest)
    return _outs(geqrf_type(Tensor._wrap(column_major(a)), Tensor._wrap(tau)), out)


def _reflectors(A, k: int):
    """The vectors v_j (columns, unit at j, zero above) stored below the diagonal of ``A``."""
    m = A.shape[-2]
    return tril(A, -1)[..., :, :k] + Tensor._wrap(np.eye(m, k, dtype=A._data.dtype))


def _reflect(C, v, tau_j, j: int, left: bool):
    """H C (``left``) or C H with H = I - tau v v^T, ``v`` (unit at ``j``) zero above ``j``: only the rows (columns)
    from ``j`` on change, as LAPACK applies it, so a NaN or inf there does not reach the others through 0 * x."""
    t, v = tau_j[..., None, None], v[..., j:, :]
    if left:
        rest = C[..., j:, :]
        return cat([C[..., :j, :], rest - t * matmul(v, matmul(v.mT, rest))], -2)
    rest = C[..., :, j:]
    return cat([C[..., :, :j], rest - t * matmul(matmul(rest, v), v.mT)], -1)


def householder_product(input, tau, *, out=None):
    """The first n columns of H_1 ... H_k for the reflectors in ``input`` (m x n) and their scales ``tau``."""
    m, n = input.shape[-2:]
    k = tau.shape[-1]
    if m < n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if k > n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    V = _reflectors(input, k)
    Q = Tensor._wrap(np.broadcast_to(np.eye(m, n, dtype=input._data.dtype), tuple(input.shape)).copy())
    for j in reversed(range(k)):  # as LAPACK's orgqr: H_j on the columns after j, then column j is e_j - tau_j v_j
        v, t = V[..., j:, j:j + 1], tau[..., j, None, None]
        right = Q[..., j:, j + 1:]
        column = Tensor._wrap(np.eye(m - j, 1, dtype=input._data.dtype)) - t * v
        lower = cat([Q[..., j:, :j], column, right - t * matmul(v, matmul(v.mT, right))], -1)
        Q = cat([Q[..., :j, :], lower], -2)
    return _out(column_major(Q), out)


@register(sample=(lambda a, t: mt.orgqr(a, t), lambda: (leaf(4, 3, low=-1.0, high=1.0), leaf(2, seed=1))))
def orgqr(input, input2, *, out=None):
    """``linalg.householder_product`` under LAPACK's name (``input2``: the scales tau)."""
    return householder_product(input, input2, out=out)


@register(sample=(lambda a, t, c: mt.ormqr(a, t, c, left=False, transpose=True),
              lambda: (leaf(3, 2, low=-1.0, high=1.0), leaf(2, seed=1), leaf(2, 3, seed=2))))
def ormqr(input, input2, input3, left: bool = True, transpose: bool = False, *, out=None):
    """``other`` (``input3``) multiplied by the Q of the reflectors in ``input`` with scales ``input2``: Q C,
    Q^T C, C Q or C Q^T as ``left`` and ``transpose`` say."""
    k = input2.shape[-1]
    V = _reflectors(input, k)
    C = input3
    # Q = H_1 ... H_k: Q C applies H_k first, Q^T C applies H_1 first (and mirrored from the right)
    order = range(k) if left == transpose else reversed(range(k))
    for j in order:
        C = _reflect(C, V[..., :, j:j + 1], input2[..., j], j, left)
    return _out(column_major(C), out)
