"""The Wishart distribution over positive-definite matrices."""
from __future__ import annotations

import math
from numbers import Number

import numpy as np

from .. import _factories
from .._ops.elementwise.clamp import where
from .._ops.linalg.decompositions import cholesky, slogdet, solve_triangular
from .._ops.elementwise.special import digamma, mvlgamma
from .._core.shape import Size
from ..autograd.grad_mode import no_grad
from . import constraints
from .chi2 import Chi2
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .multivariate_normal import _precision_to_scale_tril
from .utils import _standard_normal, lazy_property

__all__ = ["Wishart"]


def _mvdigamma(x, p: int):
    """The multivariate digamma: sum_i digamma(x - i / 2) for i < p."""
    return digamma(x.unsqueeze(-1) - _factories.arange(p, dtype=x.dtype) / 2).sum(-1)


def _log_diag_sum(L):
    return L.diagonal(dim1=-2, dim2=-1).log().sum(-1)


class Wishart(ExponentialFamily):
    """Wishart distribution with ``df`` degrees of freedom and scale matrix given by exactly one of
    ``covariance_matrix``, ``precision_matrix`` or ``scale_tril``; samples by the Bartlett decomposition."""

    arg_constraints = {"covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky,
                       "df": constraints.greater_than(0)}
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        param = given[0]
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, Number):
            df = _factories.tensor(float(df), dtype=param.dtype)
        p = param.shape[-1]
        batch_shape = Size(np.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape)))
        event_shape = param.shape[-2:]
        if bool((df <= p - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
            self._unbroadcasted_scale_tril = cholesky(covariance_matrix)
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self.df = df.expand(batch_shape)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._dist_chi2 = Chi2(self.df.unsqueeze(-1) - _factories.arange(p, dtype=param.dtype).expand(
            tuple(batch_shape) + (p,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = Size(batch_shape)
        matrix_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(matrix_shape)
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(matrix_shape))
        new.df = self.df.expand(batch_shape)
        p = self.event_shape[-1]
        new._dist_chi2 = self._dist_chi2.expand(batch_shape + (p,))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.mT).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        eye = _factories.eye(self._event_shape[-1], dtype=L.dtype)
        L_inv = solve_triangular(L, eye.expand(tuple(L.shape)), upper=False)
        return (L_inv.mT @ L_inv).expand(self._batch_shape + self._event_shape)

    def _df_matrix(self):
        return self.df.reshape(tuple(self._batch_shape) + (1, 1))

    @property
    def mean(self):
        return self._df_matrix() * self.covariance_matrix

    @property
    def mode(self):
        factor = self._df_matrix() - self._event_shape[-1] - 1
        return where(factor > 0, factor, math.nan) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        d = V.diagonal(dim1=-2, dim2=-1)
        return self._df_matrix() * (V.pow(2) + d.unsqueeze(-1) * d.unsqueeze(-2))

    def rsample(self, sample_shape=Size()):
        """Bartlett: ``L A A^T L^T`` for lower-triangular ``A`` with chi-distributed diagonal (``sqrt`` of
        Chi2(df - i)) and standard-normal entries below it."""
        sample_shape = Size(sample_shape)
        tiny = float(np.finfo(self.df._data.dtype).tiny)
        diag = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=tiny).diag_embed()
        shape = self._extended_shape(sample_shape)
        with no_grad():
            below = _standard_normal(shape, dtype=self.df.dtype).tril(-1)
        chol = self._unbroadcasted_scale_tril @ (diag + below)
        return chol @ chol.mT

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        # trace(Sigma^-1 X) = trace(L^-1 X L^-T), by two triangular solves
        shape = tuple(np.broadcast_shapes(tuple(L.shape), tuple(value.shape)))
        half = solve_triangular(L.expand(shape), value.expand(shape), upper=False)
        trace = solve_triangular(L.expand(shape), half.mT, upper=False).diagonal(dim1=-2, dim2=-1).sum(-1)
        log_det_value = 2 * _log_diag_sum(cholesky(value))
        return (-nu * (p * math.log(2) / 2 + _log_diag_sum(L)) - mvlgamma(nu / 2, p)
                + (nu - p - 1) / 2 * log_det_value - trace / 2)

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * (p * math.log(2) / 2 + _log_diag_sum(self._unbroadcasted_scale_tril))
                + mvlgamma(nu / 2, p) - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p) + nu * p / 2)

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -0.5 * self.precision_matrix, 0.5 * (self.df - p - 1)

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        a = y + (p + 1) / 2
        return a * (-slogdet(-2 * x)[1] + math.log(2) * p) + mvlgamma(a, p)
