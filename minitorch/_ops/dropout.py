"""Dropout kernels (torch's ``_dropout_impl``), their ``minitorch.*`` forms with ATen's signatures
(``dropout(input, p, train)``; where nn.functional has the same name, the ATen form's carries ``_aten``) and the
``nn.functional`` forms with keywords. The noise is torch's:
``bernoulli_(1 - p)`` from the default generator (53-bit uniforms), divided by ``1 - p`` in the input's dtype."""
from __future__ import annotations

import math
import warnings

import numpy as np

from .._core.registry import functional_op, register
from .._core.tensor import Tensor
from .._rng import empty_like_axes, in_memory_order
from .._rng.distributions import bernoulli_scalar
from ..random import default_generator
from .elementwise.arithmetic import add_, mul_
from .._core.samples import mt, F, leaf, maps, seeded

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


@register(name="dropout", method=False, sample=(seeded(lambda a: mt.dropout(a, 0.4, True)), maps))
def dropout_aten(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p), when ``train``."""
    return dropout_impl(input, p, train)


@register(method=False, sample=(seeded(lambda a: mt.dropout_(a.clone(), 0.4, True)), maps))
def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``dropout``."""
    return dropout_impl(input, p, train, inplace=True)


@register(method=False, sample=(seeded(lambda a: mt.feature_dropout(a, 0.4, True)), maps))
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zero whole (N, C) feature maps with probability ``p``, when ``train``."""
    return dropout_impl(input, p, train, feature=True)


@register(method=False, sample=(seeded(lambda a: mt.feature_dropout_(a.clone(), 0.4, True)), maps))
def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_dropout``."""
    return dropout_impl(input, p, train, inplace=True, feature=True)


@register(name="alpha_dropout", method=False, sample=(seeded(lambda a: mt.alpha_dropout(a, 0.4, True)), maps))
def alpha_dropout_aten(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout that keeps SELU activations' zero mean and unit variance, when ``train``."""
    return dropout_impl(input, p, train, alpha=True)


@register(method=False, sample=(seeded(lambda a: mt.alpha_dropout_(a.clone(), 0.4, True)), maps))
def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``alpha_dropout``."""
    return dropout_impl(input, p, train, inplace=True, alpha=True)


@register(name="feature_alpha_dropout", method=False,
          sample=(seeded(lambda a: mt.feature_alpha_dropout(a, 0.4, True)), maps))
def feature_alpha_dropout_aten(input: Tensor, p: float, train: bool) -> Tensor:
    """Alpha dropout of whole (N, C) feature maps, when ``train``."""
    return dropout_impl(input, p, train, feature=True, alpha=True)


@register(method=False, sample=(seeded(lambda a: mt.feature_alpha_dropout_(a.clone(), 0.4, True)), maps))
def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_alpha_dropout``."""
    return dropout_impl(input, p, train, inplace=True, feature=True, alpha=True)


@register(method=False, sample=(seeded(lambda a: mt.native_dropout(a, 0.4, True)[0]), maps))
def native_dropout(input: Tensor, p: float, train: bool | None) -> tuple[Tensor, Tensor]:
    """(output, boolean keep-mask); in eval a copy of the input and an all-true mask."""
    if train is not None and not train:
        return input.clone(), Tensor._wrap(np.ones(tuple(input.shape), bool))
    keep = keep_mask(tuple(input.shape), p)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    return input * keep.astype(input._data.dtype) * scale, Tensor._wrap(keep)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


@functional_op(sample=(lambda x: (mt.manual_seed(0), F.dropout(x, 0.5))[1], lambda: (leaf(3, 4),)))
def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p), in training only."""
    _check_p(p)
    return dropout_impl(input, p, training, inplace)


def _channel_dropout(input, p, training, inplace, spatial):
    """dropout1d / dropout3d: feature dropout of (N, C, *spatial) or unbatched (C, *spatial) input."""
    _check_p(p)
    dims = input.dim()
    if dims not in (spatial + 1, spatial + 2):
        if spatial == 1:
            raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {dims}D input. Note that "
                               "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
                               "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
        warnings.warn(f"dropout3d: Received a {dims}-D input to dropout3d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
                      stacklevel=3)
    if dims == spatial + 2:
        return dropout_impl(input, p, training, inplace, feature=True)
    out = dropout_impl(input.unsqueeze(0), p, training, False, feature=True).squeeze(0)
    return input.copy_(out) if inplace and training and p > 0 else out


@functional_op(sample=(seeded(lambda a: F.dropout1d(a, 0.4)), lambda: (leaf(2, 3, 4),)))
def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) input with probability ``p``."""
    return _channel_dropout(input, p, training, inplace, 1)


@functional_op(sample=(seeded(lambda a: F.dropout3d(a, 0.4)), lambda: (leaf(2, 3, 2, 2, 2),)))
def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input with probability ``p``."""
    return _channel_dropout(input, p, training, inplace, 3)


@functional_op(sample=(seeded(lambda a: F.alpha_dropout(a, 0.4, True)), maps))
def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: keeps zero mean and unit variance (dropped units go to SELU's saturation)."""
    _check_p(p)
    return dropout_impl(input, p, training, inplace, alpha=True)


@functional_op(sample=(seeded(lambda a: F.feature_alpha_dropout(a, 0.4, True)), maps))
def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels (dim 1)."""
    _check_p(p)
    return dropout_impl(input, p, training, inplace, feature=True, alpha=True)


@functional_op(sample=(lambda x: (mt.manual_seed(0), F.dropout2d(x, 0.5))[1], lambda: (leaf(2, 3, 2, 2),)))
def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels (dim 1) with probability ``p``; like torch, 3-D input is taken as (N, C, L)."""
    _check_p(p)
    dims = input.dim()
    if dims not in (3, 4):
        warnings.warn(f"dropout2d: Received a {dims}-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
                      stacklevel=2)
    if dims == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", stacklevel=2)
    return dropout_impl(input, p, training, inplace, feature=True)
