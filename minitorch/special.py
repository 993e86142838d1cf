"""``torch.special``: the special functions under their torch.special names."""
from __future__ import annotations

import math as _math

from ._ops.activation import erf
from ._ops.reduction import log_softmax, logsumexp, softmax
from ._ops.special import SpecialI1 as _SpecialI1
from ._ops.special import (digamma, entr, erfc, erfinv, exp2, i0, lgamma as gammaln, logit, mvlgamma, polygamma, sinc,
                           xlog1py, xlogy)
from ._ops.unary import expm1, log1p, sigmoid as expit

psi = digamma

__all__ = ["digamma", "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i1", "log1p",
           "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "polygamma", "psi", "sinc", "softmax",
           "xlog1py", "xlogy"]


def ndtr(input):
    """The standard normal distribution function: (1 + erf(x / sqrt(2))) / 2."""
    return (erf(input * (1 / _math.sqrt(2.0))) + 1.0) * 0.5


def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    return _SpecialI1.apply(input)


def multigammaln(input, p):
    """The multivariate log-gamma function of dimension ``p``."""
    return mvlgamma(input, p)
