"""Dropout kernels (torch's ``_dropout_impl``) and their ``minitorch.*`` forms with ATen's signatures
(``dropout(input, p, train)``); ``nn.functional`` adds the keyword forms on top. Masks come from the global
generator, so they are reproducible under ``manual_seed``."""
from __future__ import annotations

import math

import numpy as np

from .._registry import register
from .._tensor import Tensor
from ..random import numpy_generator
from .arithmetic import add_, mul_

_ALPHA = 1.7580993408473766  # SELU's negative saturation, scale * alpha: where alpha dropout sends a dropped unit


def dropout_mask(shape, p: float, dtype, generator=None) -> np.ndarray:
    """Kept entries 1 / (1 - p), dropped ones 0."""
    keep = numpy_generator(generator).random(shape) >= p
    return (keep * (1.0 / (1.0 - p)) if p < 1 else keep * 0.0).astype(dtype)


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
    if not alpha:
        scale = dropout_mask(shape, p, dtype)
        return mul_(input, scale) if inplace else input * scale
    keep = numpy_generator(None).random(shape) >= p
    a = 1.0 / math.sqrt((_ALPHA ** 2 * p + 1) * (1 - p))
    scale = (keep * a).astype(dtype)
    shift = ((keep - 1.0) * (_ALPHA * a) + _ALPHA * a * p).astype(dtype)
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
    keep = numpy_generator(None).random(tuple(input.shape)) >= p
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return input * (keep * scale).astype(input._data.dtype), Tensor._wrap(keep)
