"""The Fisher-Snedecor (F) distribution."""
from __future__ import annotations

import math

import numpy as np

from .._ops.elementwise.clamp import where
from .._ops.elementwise.special import lgamma
from .._core.shape import Size
from . import constraints
from .distribution import Distribution
from .gamma import Gamma

__all__ = ["FisherSnedecor"]


class FisherSnedecor(Distribution):
    """F distribution with ``df1`` and ``df2`` degrees of freedom: ``(X1 / df1) / (X2 / df2)`` for chi-squared
    ``X1``, ``X2``."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self._init_params(validate_args, df1=df1, df2=df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)

    def expand(self, batch_shape, _instance=None):
        new = self._expand_params(FisherSnedecor, batch_shape, _instance, "df1", "df2")
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        return new

    @property
    def mean(self):
        df2 = self.df2
        return where(df2 > 2, df2 / (df2 - 2), math.nan)

    @property
    def mode(self):
        df1, df2 = self.df1, self.df2
        return where(df1 > 2, (df1 - 2) / df1 * df2 / (df2 + 2), math.nan)

    @property
    def variance(self):
        df1, df2 = self.df1, self.df2
        finite = 2 * df2.pow(2) * (df1 + df2 - 2) / (df1 * (df2 - 2).pow(2) * (df2 - 4))
        return where(df2 > 4, finite, math.nan)

    def rsample(self, sample_shape=Size()):
        x1 = self._gamma1.rsample(sample_shape)  # chi2(df1) / df1
        x2 = self._gamma2.rsample(sample_shape)
        return (x1 / x2).clamp(min=float(np.finfo(x1._data.dtype).tiny))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        h1, h2 = self.df1 * 0.5, self.df2 * 0.5
        return (lgamma(h1 + h2) - lgamma(h1) - lgamma(h2) + h1 * (self.df1 / self.df2).log()
                + (h1 - 1) * value.log() - (h1 + h2) * (self.df1 * value / self.df2).log1p())
