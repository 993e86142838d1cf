"""Dropout kernels (torch's ``_dropout_impl``) and their ``minitorch.*`` forms with ATen's signatures
(``dropout(input, p, train)``); ``nn.functional`` adds the keyword forms on top. The noise is torch's:
``bernoulli_(1 - p)`` from the default generator (53-bit uniforms), divided by ``1 - p`` in the input's dtype."""
from __future__ import annotations

import math

import numpy as np

from .._core.registry import register
from .._core.tensor import Tensor
from .._rng import empty_like_axes, in_memory_order
from .._rng.distributions import bernoulli_scalar
from ..random import default_generator
from .elementwise.arithmetic import add_, mul_

_ALPHA = 1.7580993408473766  # SELU's negative saturation, scale * alpha: where alpha dropout sends a dropped unit


def keep_mask(shape, p: float, generator=None, like: np.ndarray | None = None) -> np.ndarray:
    """Booleans ``U53 < 1 - p``: torch's ``bernoulli_(1 - p)`` on a new tensor of ``shape``, or on
    ``empty_like(like)`` (drawn in ``like``'s memory order when it is dense, as a transposed input)."""
    draws = bernoulli_scalar(generator or default_generator, math.prod(shape), 1 - p)
    return draws.reshape(shape) if like is None else in_memory_order(draws, like, empty_like_axes(like))


def dropout_mask(shape, p: float, dtype, generator=None, like: np.ndarray | None = None) -> np.ndarray:
    """torch's dropout noise: kept entries ``1 / (1 - p)`` (rounded in ``dtype``), dropped ones 0."""
    if p == 1:
        return np.zeros(shape, dtype)
    return keep_mask(shape, p, generator, like).astype(dtype) / np.asarray(1 - p, dtype)


def dropout_impl(input, p: float, train: bool, inplace: bool = False, feature: bool = False, alpha: bool = False):
    """Dropout per element, or per (N, C) feature map (``feature``); ``alpha`` keeps SELU's mean and variance
    by sending dropped units to the saturation value and rescaling affinely."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return mul_(input, 0.0) if inplace else input * 0.0
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2) if feature else tuple(input.shape)
    dtype = input._data.dtype
    like = None if feature else input._data  # element noise is laid out as the input (torch's empty_like)
    if not alpha:
        scale = dropout_mask(shape, p, dtype, like=like)
        return mul_(input, scale) if inplace else input * scale
    noise = keep_mask(shape, p, like=like).astype(dtype)
    a = 1.0 / math.sqrt((_ALPHA ** 2 * p + 1) * (1 - p))
    shift = (noise - np.asarray(1, dtype)) * np.asarray(_ALPHA * a, dtype) + np.asarray(_ALPHA * a * p, dtype)
    scale = noise * np.asarray(a, dtype)
    return add_(mul_(input, scale), shift) if inplace else input * scale + shift


@register(method=False)
def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p), when ``train``."""
    return dropout_impl(input, p, train)


@register(method=False)
def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``dropout``."""
    return dropout_impl(input, p, train, inplace=True)


@register(method=False)
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero whole (N, C) feature maps with probability ``p``, when ``train``."""
    return dropout_impl(input, p, train, feature=True)


@register(method=False)
def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_dropout``."""
    return dropout_impl(input, p, train, inplace=True, feature=True)


@register(method=False)
def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout that keeps SELU activations' zero mean and unit variance, when ``train``."""
    return dropout_impl(input, p, train, alpha=True)


@register(method=False)
def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``alpha_dropout``."""
    return dropout_impl(input, p, train, inplace=True, alpha=True)


@register(method=False)
def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Alpha dropout of whole (N, C) feature maps, when ``train``."""
    return dropout_impl(input, p, train, feature=True, alpha=True)


@register(method=False)
def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_alpha_dropout``."""
    return dropout_impl(input, p, train, inplace=True, feature=True, alpha=True)


@register(method=False)
def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    """(output, boolean keep-mask); in eval a copy of the input and an all-true mask."""
    if train is not None and not train:
        return input.clone(), Tensor._wrap(np.ones(tuple(input.shape), bool))
    keep = keep_mask(tuple(input.shape), p)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return input * keep.astype(input._data.dtype) * scale, Tensor._wrap(keep)
