"""The LKJ distribution over Cholesky factors of correlation matrices."""
from __future__ import annotations

import math

import numpy as np

from .. import _factories
from .._ops.elementwise.special import lgamma, mvlgamma
from .._ops.shape.joins import cat
from .._core.shape import Size
from ..autograd.grad_mode import no_grad
from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """LKJ distribution of the lower Cholesky factor ``L`` of a ``dim`` x ``dim`` correlation matrix: the
    correlation matrix ``L L^T`` has density proportional to ``det(L L^T) ** (concentration - 1)``. Sampled by
    the onion method (Lewandowski, Kurowicka and Joe, 2009)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        # row i of L: its squared off-diagonal length is Beta(i / 2, concentration + (dim - 2 - i) / 2)
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = cat([_factories.zeros(1, dtype=self.concentration.dtype),
                      _factories.arange(self.dim - 1, dtype=self.concentration.dtype)])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(batch_shape, Size((dim, dim)), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=Size()):
        with no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u = _standard_normal(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
            norm = u.norm(dim=-1, keepdim=True)
            direction = u / norm.clamp(min=float(np.finfo(y._data.dtype).tiny))  # row 0 is all zero
            w = y.sqrt() * direction
            tiny = float(np.finfo(w._data.dtype).tiny)
            diag = (1 - w.pow(2).sum(-1)).clamp(min=tiny).sqrt()
            return w + diag.diag_embed()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = _factories.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = (order * diag.log()).sum(-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalizer = 0.5 * dm1 * math.log(math.pi) + mvlgamma(alpha - 0.5, dm1) - lgamma(alpha) * dm1
        return unnormalized - normalizer
