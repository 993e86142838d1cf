"""The half-normal distribution: |x| for x ~ Normal(0, scale)."""
from __future__ import annotations

import math

from . import constraints
from ._folded import _Folded
from .normal import Normal

__all__ = ["HalfNormal"]


class HalfNormal(_Folded):
    """Half-normal distribution with scale ``scale``."""

    arg_constraints = {"scale": constraints.positive}

    def __init__(self, scale, validate_args=None):
        super().__init__(Normal(0, scale, validate_args=False), validate_args=validate_args)

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)
