"""The generalized Pareto distribution (peaks over a threshold)."""
from __future__ import annotations

import math

from .. import _random_factories
from .._ops.elementwise.clamp import where
from .._core.shape import Size
from ..autograd.grad_mode import no_grad
from . import constraints
from .distribution import Distribution

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """Generalized Pareto distribution: CDF ``1 - (1 + c z) ** (-1 / c)`` (``1 - exp(-z)`` at ``c = 0``) for
    ``z = (x - loc) / scale`` and ``c = concentration``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self._init_params(validate_args, loc=loc, scale=scale, concentration=concentration)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(GeneralizedPareto, batch_shape, _instance, "loc", "scale", "concentration")

    def _c_or_one(self):
        """The concentration with its zeros replaced by 1 (the c = 0 case takes the other branch of ``where``)."""
        c = self.concentration
        zero = c.abs() <= 1e-8
        return where(zero, 1.0, c), zero

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            u = _random_factories.rand(shape, dtype=self.loc.dtype)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        c, zero = self._c_or_one()
        y = 1 / c + 1
        return -self.scale.log() - where(zero, z, where(y == 0, y, y * (c * z).log1p()))

    def log_survival_function(self, value):
        """log P(X > value)."""
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        c, zero = self._c_or_one()
        return where(zero, -z, -(c * z).log1p() / c)

    def log_cdf(self, value):
        return (-self.log_survival_function(value).exp()).log1p()

    def cdf(self, value):
        return self.log_cdf(value).exp()

    def icdf(self, value):
        c, zero = self._c_or_one()
        log_survival = (-value).log1p()
        return self.loc + self.scale * where(zero, -log_survival, (-c * log_survival).expm1() / c)

    @property
    def mean(self):
        c = self.concentration
        return where(c < 1, self.loc + self.scale / (1 - c), math.nan)

    @property
    def variance(self):
        c = self.concentration
        return where(c < 0.5, self.scale.pow(2) / ((1 - c).pow(2) * (1 - 2 * c)), math.nan)

    @property
    def mode(self):
        return self.loc

    def entropy(self):
        return self.scale.log() + self.concentration + 1

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        c = self.concentration
        upper = where(c < 0, self.loc - self.scale / where(c < 0, c, -1.0), math.inf)
        return constraints.interval(self.loc, upper)
