"""The von Mises (circular normal) distribution."""
from __future__ import annotations

import math

import numpy as np

from .. import _factories
from .._ops.elementwise.clamp import where
from .._core.shape import Size
from .._core.tensor import Tensor
from ..random import numpy_generator
from . import constraints
from .distribution import Distribution

__all__ = ["VonMises"]

# Polynomial approximations of the modified Bessel functions I0 and I1 (Abramowitz and Stegun 9.8.1-9.8.4):
# small arguments in powers of (x / 3.75)^2, large ones as sqrt(x) e^-x I(x) in powers of 3.75 / x.
_I0_SMALL = [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813]
_I0_LARGE = [0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706, 0.02635537, -0.01647633,
             0.00392377]
_I1_SMALL = [0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411]
_I1_LARGE = [0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967, -0.02895312, 0.01787654,
             -0.00420059]


def _polynomial(x, coefficients):
    result = x.new_full(x.shape, coefficients[-1]) if isinstance(x, Tensor) else coefficients[-1]
    for c in reversed(coefficients[:-1]):
        result = result * x + c
    return result


def _log_modified_bessel_fn(x, order: int = 0):
    """log I_order(x) for x > 0 and order 0 or 1 (differentiable)."""
    small_c, large_c = (_I0_SMALL, _I0_LARGE) if order == 0 else (_I1_SMALL, _I1_LARGE)
    y = x / 3.75
    small = _polynomial(y * y, small_c)
    if order == 1:
        small = x.abs() * small
    small = small.log()
    large = x - 0.5 * x.log() + _polynomial(3.75 / x, large_c).log()
    return where(x < 3.75, small, large)


def _rejection_sample(loc, concentration, proposal_r, shape, generator=None):
    """Best and Fisher's (1979) wrapped-Cauchy rejection sampler, vectorised; a loop over rounds only."""
    gen = numpy_generator(generator)
    k = np.broadcast_to(concentration, shape)
    r = np.broadcast_to(proposal_r, shape)
    x = np.empty(shape)
    todo = np.ones(shape, bool)
    while todo.any():
        u1, u2, u3 = gen.random((3,) + shape)
        z = np.cos(math.pi * u1)
        f = (1 + r * z) / (r + z)
        c = k * (r - f)
        with np.errstate(divide="ignore", invalid="ignore"):
            accept = (c * (2 - c) - u2 > 0) | (np.log(c / u2) + 1 - c >= 0)
        new = todo & accept
        x[new] = (np.sign(u3 - 0.5) * np.arccos(f))[new]
        todo &= ~accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """Von Mises distribution on the circle: density ``exp(k cos(x - loc)) / (2 pi I0(k))`` for
    ``k = concentration``; samples lie in [-pi, pi)."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self._init_params(validate_args, loc=loc, concentration=concentration)
        k = self.concentration._data.astype(np.float64)
        tau = 1 + np.sqrt(1 + 4 * k ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho = (tau - np.sqrt(2 * tau)) / (2 * k)
            r = np.where(k < 1e-5, 1 / k + k, (1 + rho ** 2) / (2 * rho))  # r's expansion for tiny k
        self._proposal_r = r

    def expand(self, batch_shape, _instance=None):
        new = self._expand_params(VonMises, batch_shape, _instance, "loc", "concentration")
        new._proposal_r = np.broadcast_to(self._proposal_r, tuple(batch_shape))
        return new

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * (value - self.loc).cos()
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)

    def sample(self, sample_shape=Size()):
        shape = tuple(self._extended_shape(sample_shape))
        x = _rejection_sample(self.loc._data.astype(np.float64), self.concentration._data.astype(np.float64),
                              self._proposal_r, shape)
        return _factories.tensor(x, dtype=self.loc.dtype)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        """The circular variance ``1 - I1(k) / I0(k)``."""
        k = self.concentration
        return 1 - (_log_modified_bessel_fn(k, order=1) - _log_modified_bessel_fn(k, order=0)).exp()
