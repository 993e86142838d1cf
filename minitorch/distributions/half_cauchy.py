"""The half-Cauchy distribution: |x| for x ~ Cauchy(0, scale)."""
from __future__ import annotations

import math

from . import constraints
from ._folded import _Folded
from .cauchy import Cauchy

__all__ = ["HalfCauchy"]


class HalfCauchy(_Folded):
    """Half-Cauchy distribution with scale ``scale``: its mean and variance are infinite."""

    arg_constraints = {"scale": constraints.positive}

    def __init__(self, scale, validate_args=None):
        super().__init__(Cauchy(0, scale, validate_args=False), validate_args=validate_args)

    @property
    def mean(self):
        return self.scale.new_full(self._extended_shape(), math.inf)

    @property
    def variance(self):
        return self.base_dist.variance
