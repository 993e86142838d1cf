"""Exponential families: densities ``h(x) exp(<t(x), theta> - A(theta))`` (as ``torch.distributions``)."""
from __future__ import annotations

from ..autograd import grad
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution of the exponential family, given by its natural parameters ``theta`` and log-normaliser
    ``A``; its entropy follows from them as a Bregman divergence (``A(theta) - <theta, grad A(theta)>`` minus the
    expected log carrier measure ``_mean_carrier_measure``)."""

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_norm = self._log_normalizer(*params)
        grads = grad(log_norm.sum(), params, create_graph=True)
        result = log_norm - self._mean_carrier_measure
        for p, g in zip(params, grads):
            result = result - (p * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
