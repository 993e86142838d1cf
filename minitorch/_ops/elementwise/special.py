"""Special functions: exp2, logaddexp, logaddexp2, xlogy, erfc, erfinv, lgamma, digamma, polygamma, sinc, logit.

numpy has no special functions (and scipy is no dependency), so the kernels here are vectorised numpy,
computed in float64 and cast to the input's dtype: lgamma by the Lanczos approximation (g = 7, 9 terms)
with the reflection formula below 1/2; digamma and polygamma by their recurrence up to a large
argument and then their asymptotic series (digamma reflects below 1/2); erfc by a continued fraction
for large arguments; erfinv by a rational first guess refined by Newton steps on erf / erfc.
"""
from __future__ import annotations

import math

import numpy as np

from ... import _dtype
from ..._core.tensor import Tensor
from ..._core.function import RealOp
from .activation import _erf
from .clamp import where
from .broadcast import floating, result_dtype
from .trigonometric import _float_pair, _quiet
from .unary import cos, exp, log, sin
from ..._core.registry import register

_LN2 = math.log(2.0)
_SQRT_PI = math.sqrt(math.pi)
# Bernoulli numbers B_2, B_4, ..., B_20
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330)
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7)


def _kernel(fn):
    """``fn`` on float64 values, its result in the (floating) input's dtype, always an array."""
    def run(a, *args):
        a = floating(a)
        with np.errstate(all="ignore"):
            r = fn(np.asarray(a, np.float64), *args)
        return np.asarray(r, a.dtype)
    return run


def _abs_sinpi(x):
    """|sin(pi x)|, exact at the integers (the argument reduced to [-1/2, 1/2] first)."""
    return np.abs(np.sin(math.pi * (x - np.round(x))))


def _lgamma_positive(x):
    """lgamma for x >= 1/2 (Lanczos)."""
    z = x - 1.0
    s = np.full_like(z, _LANCZOS[0])
    for i in range(1, len(_LANCZOS)):
        s = s + _LANCZOS[i] / (z + i)
    t = z + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (z + 0.5) * np.log(t) - t + np.log(s)


def _lgamma64(x):
    low = x < 0.5
    xr = np.where(low, 1.0 - x, x)
    r = _lgamma_positive(xr)
    r = np.where(low, np.log(math.pi / _abs_sinpi(x)) - r, r)
    return np.where(np.isinf(x), np.inf, np.where((x == 1) | (x == 2), 0.0, r))  # exact zeros, as C's lgamma


_lgamma = _kernel(_lgamma64)
_mvlgamma = _kernel(lambda x, p: sum(_lgamma64(x - 0.5 * i) for i in range(p)) + p * (p - 1) / 4 * math.log(math.pi))


@_kernel
def _digamma(x):
    refl = x < 0.5
    z = np.where(refl, 1.0 - x, x)
    acc = np.zeros_like(z)
    for _ in range(10):  # z >= 1/2: ten steps reach z >= 10
        low = z < 10
        acc = acc - np.where(low, 1.0 / z, 0.0)
        z = np.where(low, z + 1.0, z)
    z2 = z * z
    series, zk = np.log(z) - 0.5 / z, z2
    for k, b in enumerate(_BERNOULLI, start=1):
        series = series - b / (2 * k * zk)
        zk = zk * z2
    out = acc + series
    r = x - np.round(x)  # pi / tan(pi x), with the argument reduced
    out = np.where(refl, out - math.pi * np.cos(math.pi * r) / np.sin(math.pi * r), out)
    out = np.where((x < 0) & (x == np.floor(x)), np.nan, out)
    return np.where(x == 0, np.copysign(np.inf, -x), out)  # torch: +inf at -0.0


@_kernel
def _polygamma(x, n):
    """psi^(n)(x) for n >= 1: (-1)^(n+1) n! sum_k 1 / (x + k)^(n+1), by recurrence and asymptotic series; far below
    zero by the reflection psi^(n)(1 - x) + (-1)^(n+1) psi^(n)(x) = (-1)^n pi d^n/dx^n cot(pi x) (the recurrence
    would take -x steps)."""
    big = 10.0 + n
    refl = x < -1000.0
    z, acc = np.where(refl, 1.0 - x, x), np.zeros_like(x)
    low = z < big
    while low.any():
        acc = acc + np.where(low, 1.0 / z ** (n + 1), 0.0)
        z = np.where(low, z + 1.0, z)
        low = z < big
    fact = math.factorial(n)
    series = math.factorial(n - 1) / z ** n + fact / (2 * z ** (n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        series = series + b * math.factorial(2 * k + n - 1) / (math.factorial(2 * k) * z ** (2 * k + n))
    out = (-1) ** (n + 1) * (fact * acc + series)
    if refl.any():
        poly = np.array([0.0, 1.0])  # d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x)), P_0(c) = c, P_k+1 = -(1 + c^2) P_k'
        for _ in range(n):
            poly = -np.polynomial.polynomial.polymul([1.0, 0.0, 1.0], np.polynomial.polynomial.polyder(poly))
        r = math.pi * (x - np.round(x))
        cot_derivative = math.pi ** n * np.polynomial.polynomial.polyval(np.cos(r) / np.sin(r), poly)
        reflected = (-1) ** (n + 1) * ((-1) ** n * math.pi * cot_derivative - out)
        pole = (-1) ** (n + 1) * np.inf
        out = np.where(refl, np.where(x == np.round(x), pole, reflected), out)
    if n >= 2:  # torch takes these from the Hurwitz zeta function: NaN at inf, a pole at -inf and at both zeros
        pole = (-1) ** (n + 1) * np.inf
        out = np.where(x == np.inf, np.nan, np.where((x == -np.inf) | (x == 0), pole, out))
        return np.where(np.isnan(x), np.nan, out)
    return np.where(np.isnan(x) | (x == -np.inf), np.nan, out)


def _erfc_fraction(x):
    """x + (1/2) / (x + (2/2) / (x + (3/2) / ...)), for x >= 2: erfc(x) = exp(-x^2) / (sqrt(pi) * fraction)."""
    frac = x.copy()
    for k in range(120, 0, -1):
        frac = x + (k / 2) / frac
    return frac


def _erfc64(x):
    out = 1.0 - _erf(x)
    big = x >= 2.0
    if big.any():
        xl = x[big]
        out[big] = np.exp(-xl * xl) / (_SQRT_PI * _erfc_fraction(xl))
    return out


def _erfcx64(x):
    """exp(x^2) erfc(x), without the overflow of either factor for large x."""
    big = x >= 2.0
    out = np.exp(x * x) * (1.0 - _erf(np.where(big, 0.0, x)))
    if big.any():
        out[big] = 1.0 / (_SQRT_PI * _erfc_fraction(x[big]))
    return out


_erfc = _kernel(_erfc64)


def _erfinv64(y, c):
    """x with erf(x) = y, given c = 1 - |y| to full relative precision (the tails need it: ndtri's small p)."""
    ok = (c > 0) & (c <= 1)
    cc = np.where(ok, c, 1.0)
    yc = np.where(ok, y, 0.0)
    w = -np.log(cc * (2.0 - cc))
    wc = w - 2.5  # a first guess (Giles' single-precision approximation), then Newton steps
    p = np.full_like(w, 2.81022636e-08)
    for k in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
              0.246640727, 1.50140941):
        p = k + p * wc
    wt = np.sqrt(w) - 3.0
    q = np.full_like(w, -0.000200214257)
    for k in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
              1.00167406, 2.83297682):
        q = k + q * wt
    s = np.sign(yc)
    big_l = -np.log(np.where(cc < 1e-8, cc, 1e-8))  # deep in the tails: x^2 + log(x sqrt(pi)) = -log c, roughly
    deep = s * np.sqrt(big_l - 0.5 * np.log(math.pi * big_l))
    x = np.where(cc < 1e-8, deep, np.where(w < 5.0, p, q) * yc)
    # Newton steps: on erf(x) = y in the centre; in the tails on log erfc(|x|) = log c (log erfc is nearly
    # quadratic, so the steps converge from the rough first guess)
    tail = cc < 0.5
    log_c = np.log(np.where(tail, cc, 1.0))
    for _ in range(4):
        ax = np.abs(x)
        gauss = 2 / _SQRT_PI * np.exp(-x * x)
        scaled = _erfcx64(np.where(tail, ax, 1.0))  # erfc(|x|) / gauss, without underflow
        step_tail = (np.log(scaled) - ax * ax - log_c) * scaled * (-_SQRT_PI / 2)
        step = (_erf(x) - yc) / gauss
        x = np.where(tail, s * (ax - step_tail), x - step)
    return np.where(ok, x, np.where(c == 0, np.sign(y) * np.inf, np.nan))


_erfinv = _kernel(lambda y: _erfinv64(y, 1.0 - np.abs(y)))


def _bessel_i(x, nu, scaled=False):
    """The modified Bessel function I_nu(x), nu = 0 or 1 (times exp(-|x|) if ``scaled``): its power series up
    to |x| = 30, then the asymptotic expansion (every series term is positive, so neither cancels)."""
    ax = np.abs(x)
    small = ax <= 30.0
    xs = np.where(small, ax, 0.0)
    q = xs * xs / 4.0
    term = np.ones_like(xs) if nu == 0 else xs / 2.0
    total = term
    for k in range(1, 100):
        term = term * q / (k * (k + nu))
        total = total + term
    xl = np.where(small, 1.0, ax)
    mu, t, series = 4.0 * nu * nu, np.ones_like(xl), np.ones_like(xl)
    for k in range(1, 30):
        t = t * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * xl)
        series = series + t
    if scaled:
        r = np.where(small, total * np.exp(-xs), series / np.sqrt(2 * math.pi * xl))
    else:
        half = np.exp(xl / 2)  # e^x as its square root twice: finite wherever the result is
        r = np.where(small, total, half * (series / np.sqrt(2 * math.pi * xl)) * half)
    return r if nu == 0 else np.sign(x) * r


_i0 = _kernel(lambda x: _bessel_i(x, 0))
_i1 = _kernel(lambda x: _bessel_i(x, 1))


class I0(RealOp):
    """The modified Bessel function of the first kind, order 0."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _i0(a)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * SpecialI1.apply(a)


class SpecialI1(RealOp, name="SpecialI1Backward0"):
    """The modified Bessel function of the first kind, order 1 (``torch.special.i1``)."""

    @staticmethod
    def forward(ctx, a):
        r = _i1(a)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        zero = a == 0
        safe = where(zero, 1.0, a)
        return g * where(zero, 0.5, I0.apply(a) - r / safe)


class Exp2(RealOp):
    @staticmethod
    def forward(ctx, a):
        with np.errstate(over="ignore"):
            r = np.asarray(np.exp2(floating(a)))
        ctx.save_for_backward(r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r * _LN2


def _logaddexp(a, b, ln_base):
    def combine(x, y, dtype=None, casting=None):
        if dtype is not None:
            x, y = np.asarray(x).astype(dtype, copy=False), np.asarray(y).astype(dtype, copy=False)
        m = np.maximum(x, y)
        d = -np.abs(x - y)
        r = m + (np.log1p(np.exp(d)) if ln_base == 1.0 else np.log1p(np.exp2(d)) / _LN2)
        return np.where(np.isinf(x) & (x == y), x, r)
    return _float_pair(combine, a, b, "logaddexp_cpu" if ln_base == 1.0 else "logaddexp2_cpu")


class Logaddexp(RealOp):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.asarray(_logaddexp(a, b, 1.0))

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g / (exp(b - a) + 1.0) if need_a else None), (g / (exp(a - b) + 1.0) if need_b else None)


class Logaddexp2(RealOp):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return np.asarray(_logaddexp(a, b, _LN2))

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g / (exp2(b - a) + 1.0) if need_a else None), (g / (exp2(a - b) + 1.0) if need_b else None)


def _xlogy(a, b, log=np.log):
    dt = result_dtype(a, b)
    if dt.kind not in "fV":
        dt = _dtype.get_default_dtype().np
    x, y = np.asarray(a).astype(dt, copy=False), np.asarray(b).astype(dt, copy=False)
    with np.errstate(all="ignore"):
        r = x * log(y)
    return np.asarray(np.where((x == 0) & ~np.isnan(y), dt.type(0), r), dt)


class Xlogy(RealOp):
    """``x * log(y)``, 0 where x is 0 (unless y is nan)."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _xlogy(a, b)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = where((a == 0) & (b <= 0), 0.0, xlogy(g, b)) if need_a else None
        return ga, (g * a / b if need_b else None)


class XlogyScalarSelf(RealOp, name="XlogyBackward1"):
    """``xlogy(number, tensor)``."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b)
        ctx.a = a
        return _xlogy(a, b)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (b,) = ctx.saved_tensors
        return None, g * ctx.a / b


class XlogyScalarOther(RealOp, name="XlogyBackward2"):
    """``xlogy(tensor, number)``."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a)
        ctx.b = b
        return _xlogy(a, b)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        ga = xlogy(g, ctx.b)
        return (where(a == 0, 0.0, ga) if ctx.b <= 0 else ga), None


class SpecialXlog1py(RealOp, name="SpecialXlog1PyBackward0"):
    """``x * log1p(y)``, 0 where x is 0 (unless y is nan)."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _xlogy(a, b, np.log1p)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = where((a == 0) & (b <= -1), 0.0, xlog1py(g, b)) if need_a else None
        return ga, (g * a / (b + 1.0) if need_b else None)


class SpecialXlog1pyScalarSelf(RealOp, name="SpecialXlog1PyBackward1"):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b)
        ctx.a = a
        return _xlogy(a, b, np.log1p)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (b,) = ctx.saved_tensors
        return None, g * ctx.a / (b + 1.0)


class SpecialXlog1pyScalarOther(RealOp, name="SpecialXlog1PyBackward2"):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a)
        ctx.b = b
        return _xlogy(a, b, np.log1p)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        ga = xlog1py(g, ctx.b)
        return (where(a == 0, 0.0, ga) if ctx.b <= -1 else ga), None


def xlog1py(input, other):
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is nan); either may be a number
    (``torch.special.xlog1py``)."""
    if not isinstance(input, Tensor):
        return SpecialXlog1pyScalarSelf.apply(input, other)
    return (SpecialXlog1py if isinstance(other, Tensor) else SpecialXlog1pyScalarOther).apply(input, other)


class SpecialEntr(RealOp):
    """``-x log x`` (0 at 0, -inf below)."""

    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        ctx.save_for_backward(a)
        with np.errstate(all="ignore"):
            r = np.asarray(-a * np.log(a), a.dtype)
        r = np.where(a == 0, a.dtype.type(0), r)
        return np.asarray(np.where(a < 0, a.dtype.type(-np.inf), r))

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * -(log(a) + 1.0)


def entr(input):
    """``-x log x`` elementwise (``torch.special.entr``)."""
    return SpecialEntr.apply(input)


class Mvlgamma(RealOp):
    """The multivariate log-gamma function of dimension p."""

    @staticmethod
    def forward(ctx, a, p=1):
        a = floating(a)
        ctx.save_for_backward(a)
        ctx.p = p
        return _mvlgamma(a, p)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        total = digamma(a)
        for i in range(1, ctx.p):
            total = total + digamma(a - 0.5 * i)
        return g * total


class Erfc(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _erfc(a)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * exp(a * a * -1.0) * (-2 / _SQRT_PI)


class Erfinv(RealOp):
    @staticmethod
    def forward(ctx, a):
        r = _erfinv(a)
        ctx.save_for_backward(a, r)  # a only to check its version, as torch's node does
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        _, r = ctx.saved_tensors
        return g * exp(r * r) * (_SQRT_PI / 2)


class Lgamma(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _lgamma(a)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * digamma(a)


class Digamma(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _digamma(a)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * Polygamma.apply(a, n=1)


class Polygamma(RealOp):
    @staticmethod
    def forward(ctx, a, n=1):
        ctx.save_for_backward(a)
        ctx.n = n
        return _digamma(a) if n == 0 else _polygamma(a, n)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * Polygamma.apply(a, n=ctx.n + 1)


class Sinc(RealOp):
    """``sin(pi x) / (pi x)``, 1 at 0."""

    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        ctx.save_for_backward(a)
        with np.errstate(all="ignore"):
            px = a * a.dtype.type(math.pi)
            r = np.asarray(np.sin(px) / px, a.dtype)
        return np.where(a == 0, a.dtype.type(1), r)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        zero = a == 0
        safe = where(zero, 1.0, a)  # no 0/0 in the unused branch (its gradient would be nan)
        px = safe * math.pi
        return where(zero, 0.0, g * (cos(px) - sin(px) / px) / safe)


class Logit(RealOp):
    @staticmethod
    def forward(ctx, a, eps=None):
        a = floating(a)
        ctx.save_for_backward(a)
        ctx.eps = eps
        z = a if eps is None else np.clip(a, eps, 1.0 - eps)
        with np.errstate(all="ignore"):
            return np.asarray(np.log(z / (1.0 - z)), a.dtype)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        eps = ctx.eps
        if eps is None:  # torch: g * inf at both ends (at -0.0 too: g / +0.0), NaN outside [0, 1]
            grad = g / where((a == 0) | (a == 1), 0.0, a * (1.0 - a))
            return where((a < 0.0) | (a > 1.0), math.nan, grad)
        return where((a < eps) | (a > 1.0 - eps), 0.0, g / (a * (1.0 - a)))


exp2 = Exp2.function()
logaddexp = Logaddexp.function()
logaddexp2 = Logaddexp2.function()
erfc = Erfc.function()
erfinv = Erfinv.function()
lgamma = Lgamma.function()
digamma = Digamma.function()
sinc = Sinc.function()
i0 = I0.function()
i0_ = I0.inplace_function()

exp2_ = Exp2.inplace_function()
erfc_ = Erfc.inplace_function()
erfinv_ = Erfinv.inplace_function()
lgamma_ = Lgamma.inplace_function()
digamma_ = Digamma.inplace_function()
sinc_ = Sinc.inplace_function()


@register(out=True)
def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is nan); either may be a number."""
    if isinstance(other, Tensor) or not isinstance(input, Tensor):
        if not isinstance(input, Tensor):
            return XlogyScalarSelf.apply(input, other)
        return Xlogy.apply(input, other)
    return XlogyScalarOther.apply(input, other)


@register(top_level=False)
def xlogy_(input, other):
    op = Xlogy if isinstance(other, Tensor) else XlogyScalarOther
    return op.inplace_variant().apply(input, other)


def _polygamma_args(n, input):
    if isinstance(n, Tensor):  # the method form, x.polygamma(n)
        n, input = input, n
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return n, input


@register(out=True)
def polygamma(n, input):
    """The n-th derivative of digamma (n = 0: digamma itself)."""
    n, input = _polygamma_args(n, input)
    return Polygamma.apply(input, n=n)


# torch names the in-place form's node differently.
_PolygammaInplace = Polygamma.named("_PolygammaInplace", "PolygammaBackward1")


@register(top_level=False)
def polygamma_(input, n):
    n, input = _polygamma_args(n, input)
    return _PolygammaInplace.inplace_variant().apply(input, n=n)


@register(out=True)
def logit(input, eps=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when ``eps`` is given."""
    return Logit.apply(input, eps=eps)


@register(top_level=False)
def logit_(input, eps=None):
    return Logit.inplace_variant().apply(input, eps=eps)


def _mvlgamma_p(p):
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return p


@register(out=True)
def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``, elementwise."""
    return Mvlgamma.apply(input, p=_mvlgamma_p(p))


@register(top_level=False)
def mvlgamma_(input, p):
    return Mvlgamma.inplace_variant().apply(input, p=_mvlgamma_p(p))
