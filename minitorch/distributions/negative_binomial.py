"""The negative binomial distribution."""
from __future__ import annotations

from .._random_factories import poisson
from .._ops.elementwise.clamp import where
from .._ops.elementwise.special import lgamma
from .._core.shape import Size
from ..autograd.grad_mode import no_grad
from ..nn.functional import logsigmoid
from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import BinaryParams, init_probs_or_logits

__all__ = ["NegativeBinomial"]


class NegativeBinomial(BinaryParams, Distribution):
    """Negative binomial distribution: successes of Bernoulli(``probs``) trials before ``total_count``
    failures."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0), "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        init_probs_or_logits(self, probs, logits, validate_args, total_count=total_count)
        self.total_count = self.total_count.type_as(self.probs if probs is not None else self.logits)

    def expand(self, batch_shape, _instance=None):
        return self._expand_params(NegativeBinomial, batch_shape, _instance, "total_count", "probs", "logits")

    @property
    def mean(self):
        return self.total_count * self.logits.exp()

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / (-self.logits).sigmoid()

    def sample(self, sample_shape=Size()):
        # a Poisson whose rate is Gamma(total_count, odds) distributed
        with no_grad():
            rate = Gamma(self.total_count, (-self.logits).exp(), validate_args=False).sample(sample_shape)
            return poisson(rate)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        unnormalized = n * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        log_norm = -lgamma(n + value) + lgamma(1.0 + value) + lgamma(n)
        return unnormalized - where(n + value == 0, 0.0, log_norm)  # P(0) = 1 when total_count is 0
