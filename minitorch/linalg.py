"""``minitorch.linalg``: the part of ``torch.linalg`` minitorch has so far: vector norms, inv, det, slogdet,
solve, cholesky, solve_triangular and eig/eigvals, all differentiable."""
from __future__ import annotations

from ._ops.complex import eig, eigvals
from ._ops.decompositions import cholesky, det, inv, slogdet, solve, solve_triangular
from ._ops.linalg import cross as _cross
from ._ops.norm import norm as _norm
from ._ops.norm import vector_norm


def norm(A, ord=None, dim=None, keepdim: bool = False, *, out=None, dtype=None):  # noqa: A002
    """``vector_norm`` for vectors (or ``dim`` an int); the Frobenius norm (``ord`` None or 'fro') of matrices."""
    if ord is None or ord == "fro" or isinstance(dim, int) or (dim is None and A.dim() == 1):
        return _norm(A, 2 if ord in (None, "fro") else ord, dim, keepdim, out=out, dtype=dtype)
    raise NotImplementedError(f"minitorch.linalg.norm: matrix norm ord={ord!r} is not implemented yet")


def cross(input, other, *, dim: int = -1):  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (the last by default, unlike ``minitorch.cross``)."""
    return _cross(input, other, dim)


__all__ = ["cross", "cholesky", "det", "eig", "eigvals", "inv", "norm", "slogdet", "solve", "solve_triangular", "vector_norm"]
