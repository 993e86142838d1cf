"""Probability distributions with sampling, log-densities and KL divergences (as ``torch.distributions``).

Parameters and results are minitorch tensors; ``rsample``, ``log_prob``, ``entropy`` and
``kl_divergence`` are differentiable. Samples come from minitorch's generator, so
``minitorch.manual_seed`` makes them reproducible (the streams differ from PyTorch's).
"""
from . import constraints
from .bernoulli import Bernoulli
from .beta import Beta
from .categorical import Categorical
from .dirichlet import Dirichlet
from .distribution import Distribution
from .gamma import Gamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .uniform import Uniform

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "Distribution", "Gamma", "Independent",
           "MultivariateNormal", "Normal", "OneHotCategorical", "Uniform", "constraints", "kl_divergence",
           "register_kl"]
