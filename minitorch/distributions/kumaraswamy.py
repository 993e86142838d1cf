"""The Kumaraswamy distribution on (0, 1)."""
from __future__ import annotations

import math

from .. import _factories
from .._ops.elementwise.clamp import where
from .._ops.elementwise.special import digamma, lgamma
from . import constraints
from .gumbel import _EULER_GAMMA
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all

__all__ = ["Kumaraswamy"]


def _moment(a, b, n):
    """E[X^n] = b * B(1 + n / a, b)."""
    arg = 1 + n / a
    return b * (lgamma(arg) + lgamma(b) - lgamma(arg + b)).exp()


class Kumaraswamy(TransformedDistribution):
    """Kumaraswamy distribution: density ``a b x^(a-1) (1 - x^a)^(b-1)`` for ``a = concentration1`` and
    ``b = concentration0``; samples ``(1 - U^(1/b))^(1/a)``."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base = Uniform(_factories.zeros_like(self.concentration0), _factories.ones_like(self.concentration0),
                       validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()), AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        log_mode = ((a - 1).log() - (a * b - 1).log()) / a
        return where((a < 1) | (b < 1), math.nan, log_mode.exp())

    @property
    def variance(self):
        a, b = self.concentration1, self.concentration0
        return _moment(a, b, 2) - _moment(a, b, 1).pow(2)

    def entropy(self):
        a, b = self.concentration1, self.concentration0
        harmonic_b = digamma(b + 1) + _EULER_GAMMA
        return (1 - a.reciprocal()) * harmonic_b + (1 - b.reciprocal()) - (a * b).log()
