"""The shared piece of HalfNormal and HalfCauchy: a symmetric distribution about 0 folded onto x >= 0."""
from __future__ import annotations

import math

from .. import _factories
from .._ops.elementwise.clamp import where
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform

__all__ = []


class _Folded(TransformedDistribution):
    """``|x|`` for ``x`` from a distribution symmetric about 0 (``base``): twice its density on x >= 0."""

    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, base, validate_args=None):
        super().__init__(base, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(type(self), _instance))

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return _factories.zeros_like(self.scale)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return where(value >= 0, log_prob, -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)
