"""The Gumbel (type-I extreme value) distribution."""
from __future__ import annotations

import math

import numpy as np

from .. import _factories
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import broadcast_all

__all__ = ["Gumbel"]

_EULER_GAMMA = 0.5772156649015329


class Gumbel(TransformedDistribution):
    """Gumbel distribution: ``loc - scale * log(-log(U))`` for ``U ~ Uniform(0, 1)``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        info = np.finfo(self.loc._data.dtype)
        low = _factories.full_like(self.loc, float(info.tiny))
        high = _factories.full_like(self.loc, 1 - float(info.eps))
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-_factories.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc=self.loc, scale=-self.scale)]
        super().__init__(Uniform(low, high), transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc, new.scale = self.loc.expand(batch_shape), self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (self.loc - value) / self.scale
        return (z - z.exp()) - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * _EULER_GAMMA

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + _EULER_GAMMA)
