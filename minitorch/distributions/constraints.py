"""Constraints: the sets parameters and values must lie in (as ``torch.distributions.constraints``).

``check(value)`` gives a bool tensor of the batch shape (event dimensions reduced).
"""
from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor

__all__ = ["Constraint", "boolean", "cat", "corr_cholesky", "dependent", "dependent_property", "greater_than", "greater_than_eq",
           "half_open_interval", "independent", "integer_interval", "interval", "is_dependent", "less_than",
           "lower_cholesky", "lower_triangular", "multinomial", "nonnegative", "nonnegative_integer", "one_hot", "positive",
           "positive_definite", "positive_integer", "positive_semidefinite", "real", "real_vector", "simplex", "square", "stack", "symmetric", "unit_interval"]


def _bool(arr) -> Tensor:
    return Tensor._wrap(np.asarray(arr, dtype=bool))


def _arr(x):
    return x._data if isinstance(x, Tensor) else np.asarray(x)


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete = is_discrete
        self._event_dim = event_dim
        super().__init__()

    @property
    def is_discrete(self):
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self):
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        if is_discrete is NotImplemented:
            is_discrete = self._is_discrete
        if event_dim is NotImplemented:
            event_dim = self._event_dim
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, x):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint) -> bool:
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property that is also a dependent constraint (``support`` depending on the parameters)."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    def __init__(self, base_constraint, reinterpreted_batch_ndims: int):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        r = _arr(self.base_constraint.check(value))
        n = self.reinterpreted_batch_ndims
        if r.ndim < n:
            expected = self.base_constraint.event_dim + n
            raise ValueError(f"Expected value.dim() >= {expected} but got {_arr(value).ndim}")
        return _bool(r.reshape(r.shape[:r.ndim - n] + (-1,)).all(-1))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        v = _arr(value)
        return _bool((v == 0) | (v == 1))


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        v = _arr(value)
        return _bool(((v == 0) | (v == 1)).all(-1) & (v.sum(-1) == 1))


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        v = _arr(value)
        return _bool((v % 1 == 0) & (_arr(self.lower_bound) <= v) & (v <= _arr(self.upper_bound)))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerGreaterThan(Constraint):
    is_discrete = True

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        v = _arr(value)
        return _bool((v % 1 == 0) & (v >= self.lower_bound))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound})"


class _Real(Constraint):
    def check(self, value):
        v = _arr(value)
        return _bool(v == v)  # False for NaN only


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return _bool(_arr(self.lower_bound) < _arr(value))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return _bool(_arr(self.lower_bound) <= _arr(value))


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return _bool(_arr(value) < _arr(self.upper_bound))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        v = _arr(value)
        return _bool((_arr(self.lower_bound) <= v) & (v <= _arr(self.upper_bound)))

    def __repr__(self):
        return f"{self.__class__.__name__[1:]}(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value):
        v = _arr(value)
        return _bool((_arr(self.lower_bound) <= v) & (v < _arr(self.upper_bound)))


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        v = _arr(value)
        return _bool((v >= 0).all(-1) & (np.abs(v.sum(-1) - 1) < 1e-6))


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        v = _arr(value)
        return _bool((np.tril(v) == v).reshape(v.shape[:-2] + (-1,)).min(-1))


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value):
        v = _arr(value)
        tril = (np.tril(v) == v).reshape(v.shape[:-2] + (-1,)).min(-1)
        diag = (np.diagonal(v, axis1=-2, axis2=-1) > 0).min(-1)
        return _bool(tril & diag)


class _Symmetric(Constraint):
    event_dim = 2

    def check(self, value):
        v = _arr(value)
        return _bool(np.isclose(v, np.swapaxes(v, -1, -2), atol=1e-6).all(-2).all(-1))


class _PositiveDefinite(_Symmetric):
    def check(self, value):
        v = _arr(value)
        sym = _arr(super().check(value))
        flat = v.reshape((-1,) + v.shape[-2:]).astype(np.float64)
        ok = np.empty(len(flat), bool)
        for i, m in enumerate(flat):
            try:
                np.linalg.cholesky(m)
                ok[i] = True
            except np.linalg.LinAlgError:
                ok[i] = False
        return _bool(sym & ok.reshape(v.shape[:-2]))


class _Multinomial(Constraint):
    """Nonnegative count vectors summing to at most ``upper_bound``."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, x):
        v = _arr(x)
        return _bool((v >= 0).all(-1) & (v.sum(-1) <= self.upper_bound))


class _PositiveSemidefinite(_Symmetric):
    def check(self, value):
        v = _arr(value)
        sym = _arr(super().check(value))
        return _bool(sym & (np.linalg.eigvalsh(v.astype(np.float64)) >= 0).all(-1))


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        v = _arr(value)
        return _bool(np.full(v.shape[:-2], v.shape[-2] == v.shape[-1]))


class _CorrCholesky(Constraint):
    """Lower-Cholesky factors of correlation matrices: rows of unit norm."""

    event_dim = 2

    def check(self, value):
        v = _arr(value)
        tol = np.finfo(v.dtype).eps * v.shape[-1] * 10
        unit_rows = (np.abs(np.linalg.norm(v, axis=-1) - 1) <= tol).all(-1)
        return _bool(_arr(lower_cholesky.check(value)) & unit_rows)


class _Cat(Constraint):
    """``cseq[i]`` on consecutive slices of ``lengths[i]`` along ``dim``."""

    def __init__(self, cseq, dim: int = 0, lengths=None):
        self.cseq, self.dim = list(cseq), dim
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)

    @property
    def is_discrete(self):
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self):
        return max(c.event_dim for c in self.cseq)

    def check(self, value):
        v = _arr(value)
        starts = np.cumsum([0] + self.lengths[:-1])
        parts = [_arr(c.check(Tensor._wrap(np.take(v, np.arange(s, s + n), axis=self.dim))))
                 for c, s, n in zip(self.cseq, starts, self.lengths)]
        return _bool(np.concatenate(parts, axis=self.dim))


class _Stack(Constraint):
    """``cseq[i]`` on ``value.select(dim, i)``."""

    def __init__(self, cseq, dim: int = 0):
        self.cseq, self.dim = list(cseq), dim

    @property
    def is_discrete(self):
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self):
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        v = _arr(value)
        parts = [_arr(c.check(Tensor._wrap(np.take(v, i, axis=self.dim)))) for i, c in enumerate(self.cseq)]
        return _bool(np.stack(parts, axis=self.dim))


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
interval = _Interval
half_open_interval = _HalfOpenInterval
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
symmetric = _Symmetric()
positive_definite = _PositiveDefinite()
positive_semidefinite = _PositiveSemidefinite()
square = _Square()
corr_cholesky = _CorrCholesky()
cat = _Cat
multinomial = _Multinomial
stack = _Stack
