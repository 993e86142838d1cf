"""Activation functions beyond the elementwise basics: hardtanh/relu6, leaky_relu, gelu,
silu, hardswish, hardsigmoid, elu/selu/celu, softplus, logsigmoid, mish, threshold, hardshrink,
softshrink, glu, prelu; and erf.

Gradients at the kinks follow torch (e.g. hardtanh passes no gradient at its bounds), and so does NaN: each
function tests its input as torch's scalar CPU kernel does (``x <= bound`` rather than ``x > bound``), so a NaN
takes the same branch. (torch's vectorized kernels disagree with its scalar ones on NaN for hardtanh, the
shrinks and elu; see tests/ops/test_edge_values.py.)
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import lower_precision
from ... import _dtype
from ..._core.function import RealOp
from ..._core.out import _out
from ..._core.registry import functional_op, register
from ..._core.tensor import Tensor, _wrap_dim
from ..._rng import u53
from ...random import default_generator
from ..reduction.softmax import log_softmax as _log_softmax, softmax as _softmax
from .arithmetic import mul_
from ..._core.parallel import map_blocks
from .broadcast import floating
from .clamp import where
from .unary import exp, log1p, pass_where, relu as _relu, relu_ as _relu_, sigmoid, tanh
from ..shape.joins import Cat
from ..shape.indexing import narrow

_SQRT_2 = math.sqrt(2.0)
_SQRT_2_PI = math.sqrt(2.0 / math.pi)


# erf in single precision: near 0 its Taylor series (7 terms: the next is below 3e-8 for |x| < 1/2), elsewhere
# 1 - erfc with erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2), and P the degree-9 Chebyshev fit of Numerical
# Recipes' erfcc (fractional error below 1.2e-7): within 3 ulp of float32, in float32 arithmetic
_ERFC_P = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587,
           -0.82215223, 0.17087277]
_ERF_TAYLOR = [2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(7)]


def _horner(x: np.ndarray, coefficients) -> np.ndarray:
    """The polynomial with ``coefficients`` (lowest degree first) at ``x``, in place in one buffer."""
    result = x * coefficients[-1]
    result += coefficients[-2]
    for c in reversed(coefficients[:-2]):
        result *= x
        result += c
    return result


def _erf_single(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    a = np.abs(x)
    t = 1 / (1 + dt(0.5) * a)
    far = 1 - t * np.exp(_horner(t, [dt(c) for c in _ERFC_P]) - a * a)
    np.copysign(far, x, out=far)
    near = _horner(x * x, [dt(c) for c in _ERF_TAYLOR]) * x
    return np.where(a < 0.5, near, far)  # (near keeps the sign of a zero)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf: in single (or half) precision by ``_erf_single``; in double precision by the Taylor series for
    |x| < 3 and a continued fraction for erfc beyond."""
    if x.dtype.kind in "fV" and x.dtype.itemsize <= 4:
        return _erf_single(x)
    x64 = np.asarray(x, np.float64)
    out = np.empty_like(x64)
    small = np.abs(x64) < 3
    xs = x64[small]
    term, total, x2 = xs.copy(), xs.copy(), xs * xs
    for n in range(1, 60):
        term *= -x2 / n
        total += term / (2 * n + 1)
    out[small] = np.copysign(total * (2 / math.sqrt(math.pi)), xs)  # erf(-0.0) is -0.0
    xl = np.abs(x64[~small])
    frac = xl.copy()  # erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + (2/2) / (x + (3/2) / ...)))
    for k in range(60, 0, -1):
        frac = xl + (k / 2) / frac
    out[~small] = np.sign(x64[~small]) * (1 - np.exp(-xl * xl) / (math.sqrt(math.pi) * frac))
    return out.astype(x.dtype, copy=False)


class Erf(RealOp):
    @staticmethod
    def forward(ctx, a):
        a = floating(a)
        ctx.save_for_backward(a)
        return _erf(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * exp(a * a * -1.0) * (2 / math.sqrt(math.pi))


erf = Erf.function()
erf_ = Erf.inplace_function(top_level=True)  # (torch.erf_ too)


class Hardtanh(RealOp):
    @staticmethod
    def forward(ctx, a, min_val=-1.0, max_val=1.0):
        ctx.save_for_backward(a)
        ctx.bounds = (min_val, max_val)
        return np.clip(a, min_val, max_val)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        if ctx._as_tensors:
            return where((a <= lo) | (a >= hi), 0.0, g)
        return pass_where(g, ~((a <= lo) | (a >= hi)))  # NaN passes its gradient, as in torch


class LeakyRelu(RealOp):
    @staticmethod
    def forward(ctx, a, negative_slope=0.01):
        ctx.slope = negative_slope
        ctx.save_for_backward(a)
        return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(a > 0, g, g * ctx.slope)


def _blockwise(formula, *arrays):
    """``formula(*arrays)`` for elementwise formulas of float arrays of one shape, in cache-sized blocks spread
    over the threads (each element by the same operations whatever the blocks)."""
    if any(a.dtype.kind != "f" or a.shape != arrays[0].shape for a in arrays):
        return formula(*arrays)
    arrays = [np.ascontiguousarray(a) for a in arrays]
    out = np.empty(arrays[0].shape, np.result_type(*arrays))

    def block(o, *parts):
        o[...] = formula(*parts)
    map_blocks(block, out, *arrays)
    return out


def _gelu_erf(a):
    return 0.5 * a * (1 + _erf(a / _SQRT_2))


def _gelu_tanh(a):
    return 0.5 * a * (1 + np.tanh(_SQRT_2_PI * (a + 0.044715 * (a * a * a))))


def _gelu_erf_grad(g, a):
    """g * (Phi(a) + a * phi(a)), in the operations of the tensor formula in ``Gelu.backward``."""
    cdf = (_erf(a * (1 / _SQRT_2)) + 1.0) * 0.5
    pdf = np.exp(a * a * -0.5) * (1 / math.sqrt(2 * math.pi))
    return g * (cdf + a * pdf)


class Gelu(RealOp):
    """x * Phi(x) (Phi the standard normal CDF), or its tanh approximation."""

    @staticmethod
    def forward(ctx, a, approximate="none"):
        ctx.approximate = approximate
        ctx.save_for_backward(a)
        return _blockwise(_gelu_tanh if approximate == "tanh" else _gelu_erf, a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if not ctx._as_tensors and ctx.approximate != "tanh":
            return _blockwise(_gelu_erf_grad, g, a)
        if ctx.approximate == "tanh":
            inner = (a + a * a * a * 0.044715) * _SQRT_2_PI
            t = tanh(inner)
            d_inner = (a * a * (3 * 0.044715) + 1.0) * _SQRT_2_PI
            return g * ((t + 1.0) * 0.5 + a * 0.5 * (1.0 - t * t) * d_inner)
        cdf = (erf(a * (1 / _SQRT_2)) + 1.0) * 0.5
        pdf = exp(a * a * -0.5) * (1 / math.sqrt(2 * math.pi))
        return g * (cdf + a * pdf)


class Silu(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * sigmoid(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        s = sigmoid(a)
        return g * s * (a * (1.0 - s) + 1.0)


class Hardswish(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.clip(a + 3, 0, 6) / 6

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * where(a <= -3.0, 0.0, where(a < 3.0, a / 3.0 + 0.5, 1.0))


class Hardsigmoid(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.clip(a / 6 + 0.5, 0, 1)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * ((a > -3.0) & (a < 3.0)) * (1 / 6)


class Elu(RealOp):
    """scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1)); selu fixes the constants."""

    @staticmethod
    def forward(ctx, a, alpha=1.0, scale=1.0, input_scale=1.0):
        ctx.params = (alpha, scale, input_scale)
        ctx.save_for_backward(a)
        negative = a <= 0
        curve = np.expm1(np.where(negative, a, 0) * input_scale) * (alpha * scale)  # -0.0 stays -0.0
        return np.where(negative, curve, a * scale).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        alpha, scale, input_scale = ctx.params
        negative = a <= 0
        slope = exp(where(negative, a, 0.0) * input_scale) * (alpha * scale * input_scale)
        return g * where(negative, slope, scale)


class Celu(Elu):
    pass


class Softplus(RealOp):
    """log(1 + exp(beta * x)) / beta, linear above ``threshold``."""

    @staticmethod
    def forward(ctx, a, beta=1.0, threshold=20.0):
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(a)
        z = a * beta
        return np.where(z > threshold, a, np.logaddexp(0, z) / beta).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        z = a * ctx.beta
        return g * where(z > ctx.threshold, 1.0, sigmoid(z))


class LogSigmoid(RealOp):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return (np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))).astype(a.dtype, copy=False)  # 0 at inf, not -0

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * sigmoid(-a)


class Mish(RealOp):
    """x * tanh(softplus(x))."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * np.tanh(np.logaddexp(0, a)).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        t = tanh(log1p(exp(a)))
        return g * (t + a * sigmoid(a) * (1.0 - t * t))


class Threshold(RealOp):
    @staticmethod
    def forward(ctx, a, threshold=0.0, value=0.0):
        ctx.save_for_backward(a)
        ctx.threshold = threshold
        return np.where(a <= threshold, np.asarray(value, a.dtype), a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(a <= ctx.threshold, 0.0, g)


def _inplace(op: type[RealOp], node_name: str | None = None) -> type[RealOp]:
    variant = op.inplace_variant()
    variant.__name__ = node_name or variant.__name__
    return variant


# The in-place forms (``inplace=True``), made once so that every call's node has the same type. torch writes
# some in-place derivatives from the result instead of the input, and names their nodes ``...Backward1``.
INPLACE = {Hardtanh: _inplace(Hardtanh), LeakyRelu: _inplace(LeakyRelu, "LeakyReluBackward1"),
           Silu: _inplace(Silu), Hardswish: _inplace(Hardswish), Hardsigmoid: _inplace(Hardsigmoid),
           Elu: _inplace(Elu, "EluBackward1"), Celu: _inplace(Celu, "CeluBackward1"), Mish: _inplace(Mish),
           Threshold: _inplace(Threshold, "ThresholdBackward1")}


class Hardshrink(RealOp):
    """x where |x| > lambd, else 0."""

    @staticmethod
    def forward(ctx, a, lambd=0.5):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return np.where(_inside(a, lambd), np.zeros((), a.dtype), a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return where(_inside(a, ctx.lambd), 0.0, g)


def _inside(a, lambd):
    """Where ``-lambd <= a <= lambd`` (not NaN): the shrinks' zero region."""
    return (a >= -lambd) & (a <= lambd)


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0 (x * 0: a negative x gives -0.0, NaN stays)."""

    @staticmethod
    def forward(ctx, a, lambd=0.5):
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, a * 0)).astype(a.dtype, copy=False)


class Glu(RealOp):
    """a * sigmoid(b), ``a`` and ``b`` the halves of the input along ``dim``."""

    @staticmethod
    def forward(ctx, x, dim=-1):
        ctx.dim = dim % x.ndim
        ctx.save_for_backward(x)
        first, second = np.split(x, 2, axis=ctx.dim)
        return (first * (0.5 + 0.5 * np.tanh(0.5 * second))).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        half = x.shape[ctx.dim] // 2
        first, s = narrow(x, ctx.dim, 0, half), sigmoid(narrow(x, ctx.dim, half, half))
        return Cat.apply(g * s, g * first * s * (1.0 - s), dim=ctx.dim)


class Prelu(RealOp, name="PreluKernelBackward0"):
    """x where x > 0, else weight * x (``weight`` broadcast against ``x``)."""

    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return np.where(x > 0, x, x * weight).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        x, weight = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad
        positive = x > 0
        return (where(positive, g, g * weight) if need_x else None), (where(positive, 0.0, g * x) if need_w else None)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
@functional_op
def relu(input, inplace: bool = False) -> Tensor:
    return _relu_(input) if inplace else _relu(input)


def _maybe_inplace(op, input, inplace, **params):
    return (INPLACE[op] if inplace else op).apply(input, **params)


@functional_op
def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Hardtanh, input, inplace, min_val=min_val, max_val=max_val)


@functional_op
def relu6(input, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


@functional_op
def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return _maybe_inplace(LeakyRelu, input, inplace, negative_slope=negative_slope)


@functional_op
def leaky_relu_(input, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


@functional_op
def gelu(input, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate=approximate)


@functional_op
def silu(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Silu, input, inplace)


@functional_op
def hardswish(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Hardswish, input, inplace)


@functional_op
def hardsigmoid(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Hardsigmoid, input, inplace)


@functional_op
def elu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Elu, input, inplace, alpha=alpha)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


@functional_op
def selu(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Elu, input, inplace, alpha=_SELU_ALPHA, scale=_SELU_SCALE)


@functional_op
def celu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Celu, input, inplace, alpha=alpha, input_scale=1.0 / alpha)


@functional_op
def softplus(input, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return Softplus.apply(input, beta=beta, threshold=threshold)


@functional_op
def logsigmoid(input) -> Tensor:
    return LogSigmoid.apply(input)


@functional_op
def mish(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Mish, input, inplace)


@functional_op
def threshold(input, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _maybe_inplace(Threshold, input, inplace, threshold=threshold, value=value)


@register(method=False, functional=True)
def threshold_(input, threshold: float, value: float) -> Tensor:
    """In-place threshold."""
    return _maybe_inplace(Threshold, input, True, threshold=threshold, value=value)


@functional_op
def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place hardtanh."""
    return hardtanh(input, min_val, max_val, True)


@functional_op
def elu_(input, alpha: float = 1.0) -> Tensor:
    """In-place elu."""
    return elu(input, alpha, True)


@register(method=False, functional=True)
def celu_(input, alpha: float = 1.0) -> Tensor:
    """In-place celu."""
    return celu(input, alpha, True)


@register(method=False, functional=True)
def selu_(input) -> Tensor:
    """In-place selu."""
    return selu(input, True)


def _rrelu(input, lower, upper, training, inplace, generator=None):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return leaky_relu(input, (lower + upper) / 2, inplace)
    x = input._data
    # torch draws a slope for each non-positive element only, in order: a 53-bit uniform scaled in float64
    # between the bounds rounded to the computation type
    opmath = np.float64 if x.dtype == np.float64 else np.float32
    lo, hi = float(opmath(lower)), float(opmath(upper))
    negative = x <= 0
    slopes = np.ones(x.shape, x.dtype)
    slopes[negative] = (u53(generator or default_generator, int(negative.sum())) * (hi - lo) + lo).astype(opmath)
    return mul_(input, slopes) if inplace else input * slopes


@functional_op
def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Leaky ReLU whose negative slope is drawn uniformly from [lower, upper] per element in training, and is
    their mean in eval."""
    return _rrelu(input, lower, upper, training, inplace)


@functional_op
def softsign(input) -> Tensor:
    return input / (input.abs() + 1)


@functional_op
def tanhshrink(input) -> Tensor:
    return input - input.tanh()


def _softmax_dim(input, dim, name):
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                      "as an argument.", UserWarning, stacklevel=3)
        return 0 if input.dim() in (0, 1, 3) else 1
    return dim


@functional_op
def softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _softmax(input, _softmax_dim(input, dim, "softmax"), dtype=dtype)


@functional_op
def softmin(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _softmax(-input, _softmax_dim(input, dim, "softmin"), dtype=dtype)


@functional_op
def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _log_softmax(input, _softmax_dim(input, dim, "log_softmax"), dtype=dtype)


@register(functional=True)
def hardshrink(input, lambd: float = 0.5, *, out=None) -> Tensor:
    return _out(Hardshrink.apply(input, lambd=lambd), out)


@functional_op
def softshrink(input, lambd: float = 0.5) -> Tensor:
    if lambd < 0:
        top = float(np.finfo(input._data.dtype).max) if input._data.dtype.kind in "fV" else math.inf
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {_dtype.C_NAMES[input.dtype]}, "
                           f"but found {lambd:g}")
    return Softshrink.apply(input, lambd=lambd)


@register(functional=True)
def prelu(input, weight) -> Tensor:
    """x where x > 0, else weight * x; ``weight`` has one slope, or one per channel (dim 1)."""
    input, weight = lower_precision(input, weight)
    if weight.numel() != 1:
        channels = input.shape[1] if input.dim() >= 2 else 1
        if input.dim() == 0 or weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        if input.dim() >= 2:
            weight = weight.reshape((-1,) + (1,) * (input.dim() - 2))
    return Prelu.apply(input, weight)


@functional_op
def glu(input, dim: int = -1) -> Tensor:
    """a * sigmoid(b), ``a`` and ``b`` the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _wrap_dim(dim, input.dim())
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    return Glu.apply(input, dim=dim)


@functional_op
def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """A sample from the Gumbel-softmax distribution over ``dim``: softmax((logits + Gumbel noise) / tau); with
    ``hard``, the one-hot of its argmax, with the soft sample's gradient (straight-through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -Tensor._wrap(np.empty_like(logits._data)).exponential_().log()
    y_soft = _softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = Tensor._wrap(np.zeros_like(logits._data)).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


@register(name="celu", method=False)
def celu_aten(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha)


@register(name="selu", method=False)
def selu_aten(input: Tensor) -> Tensor:
    return selu(input)


@register(out=True, name="threshold", method=False)
def threshold_aten(input: Tensor, threshold: float, value: float) -> Tensor:
    """``input`` where it exceeds ``threshold``, else ``value``."""
    return _maybe_inplace(Threshold, input, False, threshold=threshold, value=value)


@register(name="rrelu", method=False)
def rrelu_aten(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          generator=None) -> Tensor:
    """Randomized leaky ReLU (see ``nn.functional.rrelu``); slopes from ``generator`` in training."""
    return _rrelu(input, lower, upper, training, False, generator)


@register(name="rrelu_", method=False, functional=True)  # (nn.functional.rrelu_ is torch.rrelu_)
def rrelu_aten_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
           generator=None) -> Tensor:
    """In-place ``rrelu``."""
    return _rrelu(input, lower, upper, training, True, generator)
