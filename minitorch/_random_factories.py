"""Random tensors: the factories (rand, randn, randint, randperm, normal and their ``*_like`` forms), the draws
from a tensor of parameters (bernoulli, poisson, binomial, multinomial) and the in-place random fills
(``uniform_``, ``normal_``, ...). Every draw goes through ``minitorch._rng``, which reproduces PyTorch's CPU
streams word for word."""
from __future__ import annotations

import math

import numpy as np

from . import _dtype
from ._core.registry import register
from ._core.shape import broadcast_shape
from ._core.tensor import Tensor
from ._device import _check_device
from ._ops.shape.copying import Fill
from ._ops.shape.view import expanded_shape
from ._core.function import NoDerivative
from ._factories import _checked_size, _leaf, _like, _np_dtype, _shape_arg, _size, _with_out
from ._rng import distributions as _rng_dist
from ._rng import cast, in_memory_order, memory_axes
from ._rng import integers as _rng_integers
from ._rng.normal import normal as _rng_normal
from ._rng.uniform import uniform as _rng_uniform
from .random import Generator, default_generator, numpy_generator


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


def _floating(dt: np.dtype, kernel: str) -> None:
    if dt.kind not in "fcV":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype.C_NAMES[_dtype.from_numpy_dtype(dt)]}'")


def _random_factory(fn: str, kernel: str, size, generator, dtype, requires_grad: bool, draw) -> Tensor:
    """A new tensor of ``size`` filled by ``draw(generator, numel, numpy dtype)``."""
    shape = _checked_size(size, fn)
    dt = _np_dtype(dtype)
    _floating(dt, kernel)
    return _leaf(draw(_gen(generator), math.prod(shape), dt).reshape(shape), requires_grad)


@_with_out
def rand(*args, size=None, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples in [0, 1)."""
    _check_device(device)
    return _random_factory("rand", "check_uniform_bounds", _shape_arg(args, size, "rand"), generator, dtype,
                           requires_grad, _rng_uniform)


@_with_out
def randn(*args, size=None, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples."""
    _check_device(device)
    return _random_factory("randn", "normal_kernel_cpu", _shape_arg(args, size, "randn"), generator, dtype,
                           requires_grad, _rng_normal)


def _check_range(low: int, high: int) -> None:
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")


@_with_out
def randint(low=0, high=None, size=None, *, generator=None, dtype=None, layout=None, device=None,
            pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """Random integers in ``[low, high)``: ``randint(low, high, size)``, ``randint(high, size)`` (from 0)."""
    _check_device(device)
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=...)
        low, high = 0, low
    if high is None or size is None:
        raise TypeError("randint() missing required argument 'size'")
    low, high = int(low), int(high)
    _check_range(low, high)
    shape = _checked_size((size,), "randint", position=2)
    dt = _np_dtype(dtype, _dtype.int64)
    return _leaf(_rng_integers.randint(_gen(generator), math.prod(shape), low, high, dt).reshape(shape),
                 requires_grad)


@_with_out
def randperm(n: int, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0..n-1``."""
    _check_device(device)
    _checked_size((n,), "randperm")
    return _leaf(_rng_integers.randperm(_gen(generator), n).astype(_np_dtype(dtype, _dtype.int64)), requires_grad)


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
              requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(rand, input, dtype, requires_grad, generator=generator, device=device)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, pin_memory: bool = False,
               requires_grad: bool = False, memory_format=None) -> Tensor:
    return _like(randn, input, dtype, requires_grad, generator=generator, device=device)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 pin_memory: bool = False, requires_grad: bool = False, memory_format=None) -> Tensor:
    """Random integers in ``[low, high)`` (``randint_like(x, high)`` starts at 0), shaped and typed like ``input``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, generator=generator, dtype=dtype or input.dtype, device=device,
                   requires_grad=requires_grad)


def _check_std(std: float) -> None:
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


@_with_out
def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, device=None,
           pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """Normal samples with the given mean and std (numbers with ``size``, or tensors, broadcast together)."""
    _check_device(device)
    gen = _gen(generator)
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_t or std_t):
        _check_std(std)
        shape = _size((size,), "normal", 3)
        dt = _np_dtype(dtype)
        return _leaf(_rng_normal(gen, math.prod(shape), dt, mean, std).reshape(shape), requires_grad)
    if std_t:
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        _check_std(std)
    shape = np.broadcast_shapes(mean.shape if mean_t else (), std.shape if std_t else ())
    dt = (mean if mean_t else std)._data.dtype
    # As torch: a standard normal scaled by a std tensor, or a normal of std drawn directly, then shifted.
    z = _rng_normal(gen, math.prod(shape), dt, 0.0, 1.0 if std_t else std).reshape(shape)
    if std_t:
        z = z * std._data.astype(dt)
    return _leaf(np.asarray(z + (mean._data.astype(dt) if mean_t else mean), dt))


def _check_probabilities(p: np.ndarray) -> None:
    if not ((p >= 0) & (p <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")


def _bernoulli_draws(gen, like: np.ndarray, p, axes: list[int]) -> np.ndarray:
    """0/1 draws shaped like ``like``, made in the memory order ``axes``: a float ``p`` for all, or per-element
    probabilities ``p`` (a tensor, each draw compared with the probability at its own index)."""
    if isinstance(p, Tensor):
        probs = np.broadcast_to(p._data, expanded_shape(p, like.shape))  # with torch's error for p's shape
        _check_probabilities(probs)
        flat = probs.transpose(axes).reshape(-1)
        return in_memory_order(_rng_dist.bernoulli_tensor(gen, flat), like, axes)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    return in_memory_order(_rng_dist.bernoulli_scalar(gen, like.size, p), like, axes)


@register(out=True)
def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """0/1 samples with probabilities ``input`` (or ``p`` for every element); recorded with a zero gradient."""
    # torch's output is a new row-major tensor, whatever the input's layout
    draws = _bernoulli_draws(_gen(generator), input._data, input if p is None else p, list(range(input.dim())))
    return _DRAWS["Bernoulli"].apply(input, values=draws)


@register
def poisson(input, generator=None) -> Tensor:
    """Poisson samples with rates ``input`` (a floating tensor); recorded with a zero gradient."""
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_dtype.C_NAMES[input.dtype]}'")
    if not (input._data >= 0).all():  # (NaN too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _DRAWS["Poisson"].apply(input, values=numpy_generator(generator).poisson(input._data))


@register(derivative=False, method=False)
def binomial(count, prob, generator=None) -> Tensor:
    """Binomial samples: successes in ``count`` trials of probability ``prob`` (floating tensors)."""
    if count._data.dtype.kind not in "fV":
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: "
                         f"{_dtype.C_NAMES[count.dtype]}")
    shape = broadcast_shape(count._data.shape, prob._data.shape)
    n, p = np.broadcast_to(count._data, shape), np.broadcast_to(prob._data, shape)
    draws = numpy_generator(generator).binomial(n.astype(np.int64), p)
    return _BinomialDraw.apply(count, prob, values=draws)


@register(differentiable=False, out=True)
def multinomial(input, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices sampled from the rows of ``input`` (unnormalised probabilities)."""
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind not in "fV":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.C_NAMES[input.dtype]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = np.atleast_2d(probs)
    if not (np.isfinite(rows) & (rows >= 0)).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    out = _rng_dist.multinomial(_gen(generator), rows, num_samples, replacement).astype(np.int64)
    return _leaf(out if probs.ndim == 2 else out[0])


# ---- in-place random fills (Tensor methods) -----------------------------------------------------------
class _RandomFill(Fill):
    """An in-place random fill: the new values do not depend on the old ones (zero gradient)."""

    @staticmethod
    def forward(ctx, a, values=None):
        return np.asarray(values, a.dtype)


_FILLS = {kind: _RandomFill.named(kind, kind + suffix).inplace_variant()
          for kind, suffix in (("Uniform", "Backward0"), ("Normal", "Backward0"), ("Bernoulli", "Backward2"),
                               ("Random", "Backward2"), ("Exponential", "Backward0"), ("Cauchy", "Backward0"),
                                              ("Geometric", "Backward0"), ("LogNormal", "Backward0"))}


_DRAWS = {kind: _RandomFill.named(kind, kind + "Backward0") for kind in ("Bernoulli", "Poisson")}


class _BinomialDraw(NoDerivative):
    """``binomial(count, prob)``: torch records it without a derivative."""

    aten = "binomial"

    @staticmethod
    def forward(ctx, count, prob, values=None):
        return np.asarray(values, count.dtype)


def _fill_random(t, kind: str, draw):
    """Fill ``t`` in place with ``draw(generator_words_consumer)``: ``draw(n)`` gives ``t.numel()`` values in
    the order of ``t``'s memory, as torch fills it."""
    return _FILLS[kind].apply(t, values=cast(in_memory_order(draw(t._data.size), t._data), t._data.dtype))


def _continuous(t, name: str) -> None:
    if t._data.dtype.kind not in "fcV":
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_dtype.C_NAMES[t.dtype]}")


def _check_positive(name: str, what: str, value: float) -> None:
    if not value > 0.0:
        raise RuntimeError(f"{name} expects {what} > 0.0, but found {what}={value:g}")


@register(top_level=False)
def uniform_(self, from_: float = 0.0, to: float = 1.0, *, generator=None):
    """Uniform samples in ``[from, to)`` (torch's keyword ``from`` is a Python keyword: pass it by position)."""
    _floating(self._data.dtype, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    return _fill_random(self, "Uniform", lambda n: _rng_uniform(_gen(generator), n, self._data.dtype, from_, to))


@register(top_level=False)
def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
    _floating(self._data.dtype, "normal_kernel_cpu")
    _check_std(std)
    contiguous = self._data.flags.c_contiguous
    return _fill_random(self, "Normal", lambda n: _rng_normal(_gen(generator), n, self._data.dtype, mean, std,
                                                              contiguous))


@register(top_level=False)
def bernoulli_(self, p=0.5, *, generator=None):
    draws = _bernoulli_draws(_gen(generator), self._data, p, memory_axes(self._data))
    return _FILLS["Bernoulli"].apply(self, values=draws)


_UNSET = object()


@register(top_level=False)
def random_(self, from_=_UNSET, to=_UNSET, *, generator=None):
    """``random_()``: integers the dtype holds exactly; ``random_(to)``: [0, to); ``random_(from_, to)``:
    [from_, to), with ``to=None`` meaning up to the dtype's largest value."""
    dt, gen = self._data.dtype, _gen(generator)
    if from_ is _UNSET:
        return _fill_random(self, "Random", lambda n: _rng_integers.random_full(gen, n, dt))
    if to is _UNSET:
        from_, to = 0, from_
    elif to is None:
        to = _rng_integers.to_inclusive_max(dt) + 1
    _check_range(from_, to)
    return _fill_random(self, "Random", lambda n: _rng_integers.randint(gen, n, from_, to, dt))


@register(top_level=False)
def exponential_(self, lambd: float = 1.0, *, generator=None):
    _continuous(self, "Exponential")
    _check_positive("exponential_", "lambda", lambd)
    return _fill_random(self, "Exponential", lambda n: _rng_dist.exponential(_gen(generator), n, lambd))


@register(top_level=False)
def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *, generator=None):
    _continuous(self, "Cauchy")
    _check_positive("cauchy_", "sigma", sigma)
    return _fill_random(self, "Cauchy", lambda n: _rng_dist.cauchy(_gen(generator), n, median, sigma))


@register(top_level=False)
def log_normal_(self, mean: float = 1.0, std: float = 2.0, *, generator=None):
    _continuous(self, "LogNormal")
    _check_positive("log_normal_", "std", std)
    return _fill_random(self, "LogNormal", lambda n: _rng_dist.log_normal(_gen(generator), n, mean, std))


@register(top_level=False)
def geometric_(self, p: float, *, generator=None):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return _fill_random(self, "Geometric", lambda n: _rng_dist.geometric(_gen(generator), n, p))
