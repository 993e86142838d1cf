"""More of ``torch.special``: the scaled and unscaled Bessel functions, the Airy function Ai, erfcx, log_ndtr,
ndtri, the Hurwitz zeta function, the regularized incomplete gamma functions (``igamma``, ``igammac``) and
the classical orthogonal polynomials.

Vectorised numpy kernels in float64, cast to the result dtype:

- J0, J1, Y0, Y1: their power series up to x = 2; Miller's backward recurrence (normalised by
  J0 + 2 (J2 + J4 + ...) = 1, with Y0, Y1 from Neumann's series in the J_n) up to x = 25; Hankel's
  asymptotic expansion beyond.
- K0, K1 (and e^x K): their power series up to x = 2; above, the trapezoidal rule on
  K_nu(x) = int_0^inf exp(-x cosh t) cosh(nu t) dt (its integrand is analytic and decays doubly
  exponentially, so the rule converges geometrically) up to x = 25; the asymptotic expansion beyond.
- Ai: its Maclaurin series on [-2, 1]; sqrt(x / 3) K_1/3(zeta) / pi above (K as above) and
  sqrt(-x) (J_1/3 + J_-1/3)(zeta) / 3 below (Miller's recurrence, then Hankel's expansion), zeta = 2/3 |x|^3/2.
- igamma, igammac: the power series of P(a, x) for x < a + 1, Legendre's continued fraction for Q(a, x)
  otherwise (the other one by complement).
- zeta(x, q): direct summation up to q + m > 9, then the Euler-Maclaurin tail.
- The polynomials: their three-term recurrences, looping over the degree (never over elements).

Gradients follow torch's derivatives table: erfcx, i0e, i1e, log_ndtr and ndtri have one; zeta and
igamma/igammac only with respect to their second argument; the Bessel functions of ``torch.special``
other than i0e/i1e and the polynomials record no graph at all, as in torch.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op
from .clamp import where
from ..._core.out import _out
from .broadcast import result_dtype, shape_mismatch
from .special import _BERNOULLI, _bessel_i, _erfc64, _erfcx64, _erfinv64, _kernel, _lgamma64, lgamma
from .trigonometric import _quiet
from .unary import _not_for, exp, log, sign

_EULER = 0.57721566490153286061
_SQRT_2PI = math.sqrt(2 * math.pi)
_TWO_OVER_PI = 2 / math.pi


# ---- Bessel functions of the first and second kind, orders 0 and 1 ------------------------------------------------

def _jy_series(x):
    """J0, J1, Y0, Y1 by their power series (0 < x <= 2: every term below 1, no cancellation)."""
    q = -x * x / 4.0
    log_half = np.log(x / 2.0)
    t0, t1 = np.ones_like(x), x / 2.0           # (x^2/4)^k / k!^2 and (x/2) (x^2/4)^k / (k! (k+1)!), signed
    j0, j1, y0s, y1s = t0, t1, np.zeros_like(x), t1 * (1.0 - 2 * _EULER)
    harmonic = 0.0
    for k in range(1, 25):
        harmonic += 1.0 / k
        t0 = t0 * q / (k * k)
        t1 = t1 * q / (k * (k + 1))
        j0, j1 = j0 + t0, j1 + t1
        y0s = y0s - harmonic * t0
        y1s = y1s + (2 * harmonic + 1.0 / (k + 1) - 2 * _EULER) * t1
    y0 = _TWO_OVER_PI * ((log_half + _EULER) * j0 + y0s)
    y1 = _TWO_OVER_PI * (log_half * j1 - 1.0 / x) - y1s / math.pi
    return j0, j1, y0, y1


def _jy_recurrence(x):
    """J0, J1, Y0, Y1 by Miller's backward recurrence from order 80 (2 <= x <= 25)."""
    f_up, f = np.zeros_like(x), np.full_like(x, 1e-30)  # J_{n+1}, J_n up to a common factor
    norm = np.zeros_like(x)   # J0 + 2 sum J_2k
    s0 = np.zeros_like(x)     # sum_k (-1)^k J_2k / k
    s1 = np.zeros_like(x)     # sum_k (-1)^k (J_2k-1 - J_2k+1) / k
    j1 = None
    for n in range(80, 0, -1):
        f_down = (2 * n / x) * f - f_up
        if n % 2 == 0:
            k = n // 2
            sign_k = -1.0 if k % 2 else 1.0
            norm = norm + 2 * f
            s0 = s0 + sign_k / k * f
            s1 = s1 + sign_k / k * (f_down - f_up)
        if n == 1:
            j1 = f
        f_up, f = f, f_down
    norm = norm + f
    j0, j1 = f / norm, j1 / norm
    s0, s1 = s0 / norm, s1 / norm
    log_term = np.log(x / 2.0) + _EULER
    y0 = _TWO_OVER_PI * (log_term * j0 - 2 * s0)
    y1 = _TWO_OVER_PI * (log_term * j1 - j0 / x + s1)
    return j0, j1, y0, y1


def _hankel_pq(x, nu):
    """Hankel's asymptotic P and Q of order nu at large x."""
    mu = 4.0 * nu * nu
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 40):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        if k % 2:
            q = q + (term if k % 4 == 1 else -term)
        else:
            p = p + (term if k % 4 == 0 else -term)
    return p, q


def _jy_asymptotic(x):
    """J0, J1, Y0, Y1 by Hankel's expansion (x > 25)."""
    scale = np.sqrt(2.0 / (math.pi * x))
    out = []
    for nu in (0, 1):
        p, q = _hankel_pq(x, nu)
        chi = x - (nu / 2 + 0.25) * math.pi
        c, s = np.cos(chi), np.sin(chi)
        out.append((scale * (p * c - q * s), scale * (p * s + q * c)))
    (j0, y0), (j1, y1) = out
    return j0, j1, y0, y1


def _bessel_jy(x):
    """J0, J1, Y0, Y1 at |x| (Y nan below 0, -inf at 0; J1 odd)."""
    ax = np.abs(x)
    results = [np.empty_like(ax) for _ in range(4)]
    for lo, hi, method in ((0.0, 2.0, _jy_series), (2.0, 25.0, _jy_recurrence), (25.0, np.inf, _jy_asymptotic)):
        part = (ax > lo) & (ax <= hi) if lo else (ax > 0) & (ax <= hi)
        if part.any():
            for r, v in zip(results, method(ax[part])):
                r[part] = v
    j0, j1, y0, y1 = results
    zero, bad = ax == 0, np.isnan(x) | np.isinf(x)  # torch gives nan at +-inf
    j0 = np.where(zero, 1.0, j0)
    j1 = np.where(zero, 0.0, np.sign(x) * j1)
    y0, y1 = (np.where(x < 0, np.nan, np.where(zero, -np.inf, y)) for y in (y0, y1))
    return tuple(np.where(bad, np.nan, r) for r in (j0, j1, y0, y1))


# ---- modified Bessel functions of the second kind, orders 0 and 1 --------------------------------------------------

def _k_series(x):
    """K0, K1 by their power series (0 < x <= 2)."""
    q = x * x / 4.0
    log_half = np.log(x / 2.0)
    t0, t1 = np.ones_like(x), np.ones_like(x)  # (x^2/4)^k / k!^2 and (x^2/4)^k / (k! (k+1)!)
    s0 = np.zeros_like(x)
    s1 = (1.0 - 2 * _EULER) * t1  # psi(1) + psi(2)
    harmonic = 0.0
    for k in range(1, 25):
        harmonic += 1.0 / k
        t0 = t0 * q / (k * k)
        t1 = t1 * q / (k * (k + 1))
        s0 = s0 + harmonic * t0
        s1 = s1 + (2 * harmonic + 1.0 / (k + 1) - 2 * _EULER) * t1
    k0 = s0 - (log_half + _EULER) * _bessel_i(x, 0)
    k1 = 1.0 / x + log_half * _bessel_i(x, 1) - x / 4.0 * s1
    return k0, k1


_K_STEP = 0.125
_K_NODES = np.arange(0, 40) * _K_STEP  # x (cosh t - 1) > 40 beyond the last node for every x >= 2/3


def _k_scaled_quadrature(x, orders=(0, 1)):
    """e^x K_nu(x) for each order nu by the trapezoidal rule on their integrals (x >= 2/3)."""
    out = [np.zeros_like(x) for _ in orders]
    for i, t in enumerate(_K_NODES):
        w = _K_STEP * (0.5 if i == 0 else 1.0)
        e = w * np.exp(-2.0 * x * math.sinh(t / 2) ** 2)  # exp(-x (cosh t - 1))
        for r, nu in zip(out, orders):
            r += e * math.cosh(nu * t)
    return tuple(out)


def _k_scaled_asymptotic(x, orders=(0, 1)):
    """e^x K_nu(x) for each order nu by the asymptotic expansion (x > 25)."""
    out = []
    for nu in orders:
        term, total = np.ones_like(x), np.ones_like(x)
        for k in range(1, 40):
            term = term * (4.0 * nu * nu - (2 * k - 1) ** 2) / (k * 8.0 * x)
            total = total + term
        out.append(total * np.sqrt(math.pi / (2 * x)))
    return tuple(out)


def _bessel_k(x, scaled):
    """K0, K1 (or e^x K0, e^x K1): inf at 0, nan below."""
    results = [np.empty_like(x), np.empty_like(x)]
    small = (x > 0) & (x <= 2.0)
    mid = (x > 2.0) & (x <= 25.0)
    big = (x > 25.0) & np.isfinite(x)
    if small.any():
        xs = x[small]
        factor = np.exp(xs) if scaled else 1.0
        for r, v in zip(results, _k_series(xs)):
            r[small] = v * factor
    for part, method in ((mid, _k_scaled_quadrature), (big, _k_scaled_asymptotic)):
        if part.any():
            xp = x[part]
            factor = 1.0 if scaled else np.exp(-xp)
            for r, v in zip(results, method(xp)):
                r[part] = v * factor
    bad = (x < 0) | np.isnan(x)
    return tuple(np.where(bad, np.nan, np.where(x == 0, np.inf, np.where(x == np.inf, 0.0, r))) for r in results)


# ---- the Airy function Ai ---------------------------------------------------------------------------------------

_AI0, _AIP0 = 0.355028053887817239260, -0.258819403792806798405  # Ai(0), Ai'(0)


def _airy_series(x):
    """Ai by its Maclaurin series (-2 <= x <= 1: little cancellation)."""
    cube = x ** 3
    f, g = np.ones_like(x), x.copy()
    tf, tg = np.ones_like(x), x.copy()
    for k in range(1, 30):
        tf = tf * cube / ((3 * k - 1) * (3 * k))
        tg = tg * cube / ((3 * k) * (3 * k + 1))
        f, g = f + tf, g + tg
    return _AI0 * f + _AIP0 * g


def _bessel_j_fraction(z, nu):
    """J_nu(z) for a fractional order -1 < nu < 1 by Miller's backward recurrence from order nu + 80, normalised
    by sum_k (nu + 2k) Gamma(nu + k) / k! J_nu+2k(z) = (z / 2)^nu (2 <= z <= 25)."""
    f_up, f = np.zeros_like(z), np.full_like(z, 1e-30)
    weights = [math.gamma(nu)]  # Gamma(nu + k) / k!
    for k in range(1, 41):
        weights.append(weights[-1] * (nu + k - 1) / k)
    norm = np.zeros_like(z)
    for n in range(80, 0, -1):
        if n % 2 == 0:
            norm = norm + (nu + n) * weights[n // 2] * f
        f_up, f = f, (2 * (nu + n) / z) * f - f_up
    norm = norm + nu * weights[0] * f
    return f * (z / 2) ** nu / norm


def _j_hankel(z, nu):
    p, q = _hankel_pq(z, nu)
    chi = z - (nu / 2 + 0.25) * math.pi
    return np.sqrt(2.0 / (math.pi * z)) * (p * np.cos(chi) - q * np.sin(chi))


@_kernel
def _airy_ai(x):
    """Ai(x): its series near 0; sqrt(x / 3) K_1/3(zeta) / pi above; sqrt(-x) (J_1/3 + J_-1/3)(zeta) / 3 below,
    with zeta = 2/3 |x|^(3/2)."""
    out = np.full_like(x, np.nan)
    near = (x >= -2.0) & (x <= 1.0)
    out[near] = _airy_series(x[near])
    zeta = 2.0 / 3.0 * np.abs(x) ** 1.5
    for part, method in (((x > 1.0) & (zeta <= 25.0), _k_scaled_quadrature),
                         ((zeta > 25.0) & (x <= 103.892), _k_scaled_asymptotic)):
        if part.any():
            z = zeta[part]
            out[part] = np.sqrt(x[part] / 3.0) / math.pi * method(z, (1 / 3,))[0] * np.exp(-z)
    for part, method in (((x < -2.0) & (zeta <= 25.0), _bessel_j_fraction), ((x < 0) & (zeta > 25.0), _j_hankel)):
        if part.any():
            z = zeta[part]
            out[part] = np.sqrt(-x[part]) / 3.0 * (method(z, 1 / 3) + method(z, -1 / 3))
    return np.where(np.isinf(x), np.nan, np.where(x > 103.892, 0.0, out))  # torch: 0 beyond, nan at +-inf


_bessel_j0 = _kernel(lambda x: _bessel_jy(x)[0])
_bessel_j1 = _kernel(lambda x: _bessel_jy(x)[1])
_bessel_y0 = _kernel(lambda x: _bessel_jy(x)[2])
_bessel_y1 = _kernel(lambda x: _bessel_jy(x)[3])
_bessel_k0 = _kernel(lambda x: _bessel_k(x, False)[0])
_bessel_k1 = _kernel(lambda x: _bessel_k(x, False)[1])
_bessel_k0e = _kernel(lambda x: _bessel_k(x, True)[0])
_bessel_k1e = _kernel(lambda x: _bessel_k(x, True)[1])
_i0e = _kernel(lambda x: _bessel_i(x, 0, scaled=True))
_i1e = _kernel(lambda x: _bessel_i(x, 1, scaled=True))
_erfcx = _kernel(_erfcx64)


@_kernel
def _spherical_j0(x):
    return np.where(x == 0, 1.0, np.where(np.isinf(x), 0.0, np.sin(x) / x))


@_kernel
def _log_ndtr(x):
    """log Phi(x): log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below 0 (no underflow), log1p(-Phi(-x)) above."""
    z = x / math.sqrt(2.0)
    neg = x < 0
    low = np.log(_erfcx64(np.where(neg, -z, 0.0)) / 2.0) - x * x / 2.0
    high = np.log1p(-_erfc64(np.where(neg, 0.0, z)) / 2.0)
    return np.where(neg, low, high)


@_kernel
def _ndtri(p):
    """The normal quantile: sqrt(2) erfinv(2p - 1), with 1 - |2p - 1| = 2 min(p, 1 - p) exact for the tails."""
    return math.sqrt(2.0) * _erfinv64(2.0 * p - 1.0, 2.0 * np.minimum(p, 1.0 - p))


# ---- incomplete gamma and zeta ---------------------------------------------------------------------------------

def _igamma_pair(a, x):
    """P(a, x) and Q(a, x) for a > 0, x > 0 finite (each by series or continued fraction, the other by 1 - it)."""
    series = x < a + 1.0
    log_front = a * np.log(x) - x - _lgamma64(a)  # log(x^a e^-x / Gamma(a))
    # P = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n))
    ap = np.where(series, a, 1.0)
    xs = np.where(series, x, 0.0)
    term = 1.0 / ap
    total = term.copy()
    for _ in range(100000):  # x < a + 1: the terms shrink geometrically, at the latest after x - a steps
        ap = ap + 1.0
        term = term * xs / ap
        total = total + term
        if np.all(term <= total * 1e-17):
            break
    p_series = total * np.exp(log_front)
    # Q = x^a e^-x / Gamma(a) * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))) (Lentz)
    ac = np.where(series, 1.0, a)
    xc = np.where(series, 1e3, x)  # a placeholder that converges at once
    tiny = 1e-300
    b = xc + 1.0 - ac
    c = np.full_like(b, 1.0 / tiny)
    d = 1.0 / b
    h = d.copy()
    for i in range(1, 2000):  # it converges in O(sqrt(a)) steps (a few hundred for a = 1e6)
        an = -i * (i - ac)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1.0) <= 1e-15):
            break
    q_cf = h * np.exp(log_front)
    return np.where(series, p_series, 1.0 - q_cf), np.where(series, 1.0 - p_series, q_cf)


def _igamma64(a, x, upper):
    with np.errstate(all="ignore"):
        inside = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
        p, q = _igamma_pair(np.where(inside, a, 1.0), np.where(inside, x, 1.0))
    r = q if upper else p
    one, zero = (0.0, 1.0) if upper else (1.0, 0.0)  # the value "P = 1" and "P = 0" take
    bad = (a < 0) | (x < 0) | np.isnan(a) | np.isnan(x)
    r = np.where(x == 0, zero, np.where(np.isinf(x), one, r))
    r = np.where(np.isinf(a), np.where(np.isinf(x), np.nan, zero), r)
    r = np.where(a == 0, np.where(x > 0, one, np.nan), r)
    return np.where(bad, np.nan, r)


def _zeta_tail_coefficients():
    """(2k)! / B_2k for k = 1..12 (the Euler-Maclaurin tail of zeta)."""
    bernoulli = [Fraction(b).limit_denominator(3000) for b in _BERNOULLI] + [Fraction(854513, 138),
                                                                              Fraction(-236364091, 2730)]
    return [float(math.factorial(2 * k) / b) for k, b in enumerate(bernoulli, start=1)]


_ZETA_A = _zeta_tail_coefficients()


def _zeta64(x, q):
    """The Hurwitz zeta function sum_n (q + n)^-x (x > 1): the terms up to q + m (q + m > 9, m >= 9) summed
    directly, then the Euler-Maclaurin tail."""
    # below q = -1e7 the direct sum would take over 1e7 terms per element (torch's takes as many) and cancels
    # to noise: nan there
    finite = np.isfinite(q) & (q > -1e7)
    qf = np.where(finite, q, 1.0)
    m = np.maximum(9, np.floor(9.0 - qf) + 1).astype(np.int64)
    counts = (m + 1).ravel()
    firsts = np.cumsum(counts) - counts
    offsets = np.arange(counts.sum(), dtype=np.float64) - np.repeat(firsts, counts)
    terms = np.power(np.repeat(qf.ravel(), counts) + offsets, -np.repeat(x.ravel(), counts))
    s = np.add.reduceat(terms, firsts).reshape(x.shape) if x.size else np.zeros_like(x)
    w = qf + m
    b = np.power(w, -x)
    s = s + b * w / (x - 1.0) - 0.5 * b
    factor, k = np.ones_like(x), 0.0
    for coefficient in _ZETA_A:
        factor = factor * (x + k)
        b = b / w
        s = s + factor * b / coefficient
        k += 1.0
        factor = factor * (x + k)
        b = b / w
        k += 1.0
    s = np.where(finite, s, np.nan)
    s = np.where(x == 1, np.inf, np.where(x < 1, np.nan, s))
    q_pole = (q <= 0) & (q == np.floor(q))
    return np.where(q_pole & (x >= 1), np.inf, np.where((q <= 0) & (x != np.floor(x)) & (x > 1), np.nan, s))


def _float_operands(a, b, kernel=None):
    """Two operands (arrays or numbers) as float64 arrays of the broadcast shape, and the result dtype."""
    dt = result_dtype(a, b)
    if dt.kind not in "fV":
        if kernel is not None:
            _not_for(np.empty(0, dt), "biu", kernel)
        dt = _dtype.get_default_dtype().np
    try:
        a64, b64 = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    except ValueError:
        raise shape_mismatch(np.shape(a), np.shape(b)) from None
    return a64, b64, dt


def _binary_kernel(fn, kernel=None):
    def run(a, b):
        a64, b64, dt = _float_operands(a, b, kernel)
        with np.errstate(all="ignore"):
            return np.asarray(fn(a64.copy(), b64.copy()), dt)
    return run


_igamma = _binary_kernel(lambda a, x: _igamma64(a, x, False), "igamma_cpu")
_igammac = _binary_kernel(lambda a, x: _igamma64(a, x, True), "igammac_cpu")
_zeta = _binary_kernel(_zeta64)


# ---- differentiable ops -------------------------------------------------------------------------------------------

class SpecialI0e(Op, name="SpecialI0EBackward0"):
    """exp(-|x|) I0(x)."""

    @staticmethod
    def forward(ctx, a):
        r = _i0e(a)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        return g * (SpecialI1e.apply(a) - sign(a) * r)


class SpecialI1e(Op, name="SpecialI1EBackward0"):
    """exp(-|x|) I1(x)."""

    @staticmethod
    def forward(ctx, a):
        r = _i1e(a)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        zero = a == 0
        safe = where(zero, 1.0, a)
        return g * where(zero, 0.5, SpecialI0e.apply(a) - r * (sign(a) + 1.0 / safe))


class SpecialErfcx(Op):
    """exp(x^2) erfc(x)."""

    @staticmethod
    def forward(ctx, a):
        r = _erfcx(a)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        return g * (2.0 * a * r - 2 / math.sqrt(math.pi))


class SpecialLogNdtr(Op):
    """log of the standard normal distribution function."""

    @staticmethod
    def forward(ctx, a):
        r = _log_ndtr(a)
        ctx.save_for_backward(a, r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        a, r = ctx.saved_tensors
        return g * exp(a * a * -0.5 - r) / _SQRT_2PI


class SpecialNdtri(Op):
    """The standard normal quantile function."""

    @staticmethod
    def forward(ctx, a):
        r = _ndtri(a)
        ctx.save_for_backward(r)
        return r

    @staticmethod
    @_quiet
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * exp(r * r * 0.5) * _SQRT_2PI


def _not_implemented(what):
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")


class Igamma(Op):
    """The regularized lower incomplete gamma function P(a, x): differentiable in x only, as in torch."""

    kernel, what, direction = staticmethod(_igamma), "igamma: input", 1.0

    @classmethod
    def forward(cls, ctx, a, x):
        ctx.save_for_backward(a, x)
        return cls.kernel(a, x)

    @classmethod
    @_quiet
    def backward(cls, ctx, g):
        a, x = ctx.saved_tensors
        need_a, need_x = ctx.needs_input_grad
        if need_a:
            _not_implemented(cls.what)
        return None, g * exp((a - 1.0) * log(x) - x - lgamma(a)) * cls.direction


class Igammac(Igamma):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""

    kernel, what, direction = staticmethod(_igammac), "igammac: input", -1.0


class SpecialZeta(Op):
    """The Hurwitz zeta function zeta(x, q): differentiable in q only, as in torch."""

    @staticmethod
    def forward(ctx, x, q):
        ctx.save_for_backward(x, q)
        return _zeta(x, q)

    @staticmethod
    @_quiet
    def backward(ctx, g):
        x, q = ctx.saved_tensors
        need_x, need_q = ctx.needs_input_grad
        if need_x:
            _not_implemented("zeta")
        return None, g * -x * SpecialZeta.apply(x + 1.0, q)


# ``zeta(number, tensor)``.
SpecialZetaScalarSelf = SpecialZeta.named("SpecialZetaScalarSelf", "SpecialZetaBackward1")
# ``zeta(tensor, number)``.
SpecialZetaScalarOther = SpecialZeta.named("SpecialZetaScalarOther", "SpecialZetaBackward2")


def _tensor_pair(name, input, other):
    for position, (arg, value) in enumerate((("input", input), ("other", other)), start=1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                            f"{type(value).__name__}")


@register
def igamma(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized lower incomplete gamma function P(input, other)."""
    _tensor_pair("igamma", input, other)
    return _out(Igamma.apply(input, other), out)


@register
def igammac(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)."""
    _tensor_pair("igammac", input, other)
    return _out(Igammac.apply(input, other), out)


@register(top_level=False)
def igamma_(input: Tensor, other: Tensor) -> Tensor:
    _tensor_pair("igamma_", input, other)
    return Igamma.inplace_variant().apply(input, other)


@register(top_level=False)
def igammac_(input: Tensor, other: Tensor) -> Tensor:
    _tensor_pair("igammac_", input, other)
    return Igammac.inplace_variant().apply(input, other)


def gammainc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized lower incomplete gamma function (``torch.special.gammainc``)."""
    _tensor_pair("special_gammainc", input, other)
    return _out(Igamma.apply(input, other), out)


def gammaincc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized upper incomplete gamma function (``torch.special.gammaincc``)."""
    _tensor_pair("special_gammaincc", input, other)
    return _out(Igammac.apply(input, other), out)


def zeta(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """The Hurwitz zeta function sum_n (other + n)^-input; either argument may be a number."""
    if not isinstance(input, Tensor):
        op = SpecialZetaScalarSelf
    else:
        op = SpecialZeta if isinstance(other, Tensor) else SpecialZetaScalarOther
    return _out(op.apply(input, other), out)


def _unary(kernel: Callable, name: str, doc: str, op: type | None = None, x_named: bool = False) -> Callable:
    """A ``torch.special`` function of one tensor: ``op`` applied (differentiable), or ``kernel`` alone (torch
    records no graph for it). Its argument is ``input``, or ``x`` (``x_named``) where torch's is."""
    def apply(input: Tensor, out: Tensor | None) -> Tensor:
        return _out(op.apply(input) if op is not None else Tensor._wrap(kernel(input._data)), out)

    if x_named:
        def function(x: Tensor, *, out: Tensor | None = None) -> Tensor:
            return apply(x, out)
    else:
        def function(input: Tensor, *, out: Tensor | None = None) -> Tensor:
            return apply(input, out)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


i0e = _unary(None, "i0e", "exp(-|x|) I0(x), elementwise.", SpecialI0e)
i1e = _unary(None, "i1e", "exp(-|x|) I1(x), elementwise.", SpecialI1e)
erfcx = _unary(None, "erfcx", "The scaled complementary error function exp(x^2) erfc(x).", SpecialErfcx)
log_ndtr = _unary(None, "log_ndtr", "The log of the standard normal distribution function.", SpecialLogNdtr)
ndtri = _unary(None, "ndtri", "The standard normal quantile function (the inverse of ndtr).", SpecialNdtri)
bessel_j0 = _unary(_bessel_j0, "bessel_j0", "The Bessel function of the first kind, order 0.")
bessel_j1 = _unary(_bessel_j1, "bessel_j1", "The Bessel function of the first kind, order 1.")
bessel_y0 = _unary(_bessel_y0, "bessel_y0", "The Bessel function of the second kind, order 0.")
bessel_y1 = _unary(_bessel_y1, "bessel_y1", "The Bessel function of the second kind, order 1.")
modified_bessel_i0 = _unary(_kernel(lambda x: np.where(np.isinf(x), np.nan, _bessel_i(x, 0))), "modified_bessel_i0",
                            "The modified Bessel function of the first kind, order 0.")
modified_bessel_i1 = _unary(_kernel(lambda x: np.where(np.isinf(x), np.nan, _bessel_i(x, 1))), "modified_bessel_i1",
                            "The modified Bessel function of the first kind, order 1.")
modified_bessel_k0 = _unary(_bessel_k0, "modified_bessel_k0", "The modified Bessel function of the second kind, "
                            "order 0.")
modified_bessel_k1 = _unary(_bessel_k1, "modified_bessel_k1", "The modified Bessel function of the second kind, "
                            "order 1.")
scaled_modified_bessel_k0 = _unary(_bessel_k0e, "scaled_modified_bessel_k0", "exp(x) K0(x), elementwise.",
                                   x_named=True)
scaled_modified_bessel_k1 = _unary(_bessel_k1e, "scaled_modified_bessel_k1", "exp(x) K1(x), elementwise.",
                                   x_named=True)
airy_ai = _unary(_airy_ai, "airy_ai", "The Airy function Ai.", x_named=True)
spherical_bessel_j0 = _unary(_spherical_j0, "spherical_bessel_j0", "The spherical Bessel function of the first "
                             "kind, order 0: sin(x) / x.", x_named=True)


# ---- orthogonal polynomials ---------------------------------------------------------------------------------------

def _polynomial(name: str, title: str, first: Callable, step: Callable, shifted: bool = False) -> Callable:
    """``name(x, n)``: the polynomial of degree n (truncated to an integer; 0 where n < 0) at ``x``,
    from p_0 = 1, p_1 = first(x) and p_k+1 = step(k, x, p_k, p_k-1); ``shifted`` evaluates it at 2x - 1."""
    def kernel(x, n):
        if shifted:
            x = 2.0 * x - 1.0
        degree = np.where(n < 0, -1, np.trunc(np.nan_to_num(n, nan=-1.0))).astype(np.int64)  # torch: 0 for nan n
        prev, cur = np.ones_like(x), first(x)
        out = np.where(degree == 0, 1.0, np.where(degree == 1, cur, 0.0))
        for k in range(1, int(degree.max(initial=0))):
            prev, cur = cur, step(k, x, cur, prev)
            out = np.where(degree == k + 1, cur, out)
        return out

    def function(x: Tensor | float, n: Tensor | float, *, out: Tensor | None = None) -> Tensor:
        a = x._data if isinstance(x, Tensor) else x
        b = n._data if isinstance(n, Tensor) else n
        x64, n64, dt = _float_operands(a, b)
        with np.errstate(all="ignore"):
            result = np.asarray(kernel(x64, n64), dt)
        return _out(Tensor._wrap(result), out)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"The {'shifted ' if shifted else ''}{title} polynomial of degree ``n`` at ``x``."
    return function


def _chebyshev(k, x, p, q):
    return 2.0 * x * p - q


_CHEBYSHEV = {"t": ("Chebyshev (first kind)", lambda x: x), "u": ("Chebyshev (second kind)", lambda x: 2.0 * x),
              "v": ("Chebyshev (third kind)", lambda x: 2.0 * x - 1.0),
              "w": ("Chebyshev (fourth kind)", lambda x: 2.0 * x + 1.0)}
chebyshev_polynomial_t, chebyshev_polynomial_u, chebyshev_polynomial_v, chebyshev_polynomial_w = (
    _polynomial(f"chebyshev_polynomial_{kind}", title, first, _chebyshev) for kind, (title, first) in _CHEBYSHEV.items())
(shifted_chebyshev_polynomial_t, shifted_chebyshev_polynomial_u, shifted_chebyshev_polynomial_v,
 shifted_chebyshev_polynomial_w) = (_polynomial(f"shifted_chebyshev_polynomial_{kind}", title, first, _chebyshev, True)
                                    for kind, (title, first) in _CHEBYSHEV.items())
hermite_polynomial_h = _polynomial("hermite_polynomial_h", "physicists' Hermite", lambda x: 2.0 * x,
                                   lambda k, x, p, q: 2.0 * x * p - 2.0 * k * q)
hermite_polynomial_he = _polynomial("hermite_polynomial_he", "probabilists' Hermite", lambda x: x,
                                    lambda k, x, p, q: x * p - k * q)
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l", "Laguerre", lambda x: 1.0 - x,
                                    lambda k, x, p, q: ((2 * k + 1 - x) * p - k * q) / (k + 1))
legendre_polynomial_p = _polynomial("legendre_polynomial_p", "Legendre", lambda x: x,
                                    lambda k, x, p, q: ((2 * k + 1) * x * p - k * q) / (k + 1))
