"""``torch.special``: the special functions under their torch.special names."""
from __future__ import annotations

import math as _math

from ._ops.elementwise.activation import erf
from ._ops.reduction.softmax import log_softmax as _log_softmax, softmax
from ._ops.reduction.sums import logsumexp
from ._ops.elementwise.special import SpecialI1 as _SpecialI1
from ._ops.elementwise.special import (digamma, entr, erfc, erfinv, exp2, i0, lgamma as gammaln, logit, mvlgamma, polygamma, sinc,
                           xlog1py, xlogy)
from ._ops.elementwise.bessel import (airy_ai, bessel_j0, bessel_j1, bessel_y0, bessel_y1, chebyshev_polynomial_t,
                                chebyshev_polynomial_u, chebyshev_polynomial_v, chebyshev_polynomial_w, erfcx,
                                gammainc, gammaincc, hermite_polynomial_h, hermite_polynomial_he, i0e, i1e,
                                laguerre_polynomial_l, legendre_polynomial_p, log_ndtr, modified_bessel_i0,
                                modified_bessel_i1, modified_bessel_k0, modified_bessel_k1, ndtri,
                                scaled_modified_bessel_k0, scaled_modified_bessel_k1, shifted_chebyshev_polynomial_t,
                                shifted_chebyshev_polynomial_u, shifted_chebyshev_polynomial_v,
                                shifted_chebyshev_polynomial_w, spherical_bessel_j0, zeta)
from ._ops.elementwise.unary import expm1, log1p, sigmoid as expit
from ._core.out import with_out
from ._core.registry import TOP_LEVEL_FORMS

from ._core.tensor import Tensor

round = TOP_LEVEL_FORMS["round"]  # noqa: A001 (torch.special.round is torch.round, with its out=)
# as torch.* has them, with out=
entr, logit, logsumexp, polygamma, xlog1py, xlogy = (with_out(f) for f in (
    entr, logit, logsumexp, polygamma, xlog1py, xlogy))


def log_softmax(input, dim: int, *, dtype=None):
    """``minitorch.log_softmax`` with ``dtype`` keyword-only, as torch.special's."""
    return _log_softmax(input, dim, dtype)


psi = digamma

__all__ = ["Tensor", "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
           "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr", "erf",
           "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc", "gammaln",
           "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l",
           "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "multigammaln", "ndtr", "ndtri",
           "polygamma", "psi", "round", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
           "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0", "xlog1py", "xlogy", "zeta"]


@with_out
def ndtr(input):
    """The standard normal distribution function: (1 + erf(x / sqrt(2))) / 2."""
    return (erf(input * (1 / _math.sqrt(2.0))) + 1.0) * 0.5


@with_out
def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    return _SpecialI1.apply(input)


@with_out
def multigammaln(input, p):
    """The multivariate log-gamma function of dimension ``p``."""
    return mvlgamma(input, p)
