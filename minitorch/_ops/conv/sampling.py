"""Resampling: affine_grid and grid_sample (bilinear or nearest in 2-d and 3-d, bicubic in 2-d), the deprecated
upsample_nearest / upsample_bilinear, and constant_pad_nd.

grid_sample is composed of differentiable ops (coordinate arithmetic, gathers of the corner values),
so its gradients with respect to both the input and the grid, and their gradients, come from those ops.
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.shape import contiguous_format
from . import pooling as _pool
from ..elementwise.clamp import where
from ..shape.indexing import ARRAY, Index, Made, axis_range
from ..linalg.products import matmul


# ---- interpolate ----------------------------------------------------------------------------------------------
_LINEAR = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}  # the interpolating modes: their spatial dims
_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_CUBIC_A = -0.75  # the cubic convolution kernel's coefficient (Keys), as torch's bicubic


def _node(mode: str, dims: int) -> type:
    """The op class of ``mode`` in ``dims`` spatial dims: a separable linear map named as torch's node."""
    name = {"nearest": "UpsampleNearest", "nearest-exact": "UpsampleNearestExact", "area": "AdaptiveAvgPool",
            "bicubic": "UpsampleBicubic", "linear": "UpsampleLinear", "bilinear": "UpsampleBilinear",
            "trilinear": "UpsampleTrilinear"}[mode] + f"{dims}D"
    if name not in _NODES:  # (torch's adaptive average pooling saves its input; its upsampling nodes save nothing)
        _NODES[name] = type(name, (_pool.Separable,), {"keeps_input": mode == "area"}, name=name + "Backward0")
    return _NODES[name]


_NODES: dict = {"UpsampleBilinear2D": _pool.UpsampleBilinear2d, "AdaptiveAvgPool2D": _pool.AdaptiveAvgPool2d,
                "AdaptiveAvgPool3D": _pool.AdaptiveAvgPool3d}


def _resize_matrix(n: int, out: int, mode: str, align_corners: bool, scale, dtype) -> tuple:
    """The (out, n) matrix that resamples one dim of size ``n`` to ``out`` (``scale``: torch's input/output
    step, from ``scale_factor`` when given), and its support for ``Separable``: the entries each output reads,
    and those it reads with weight 0 (torch's loops compute every tap, so 0 * inf there is NaN)."""
    if mode == "area":
        return _pool.adaptive_plan(n, out, dtype)
    rows = np.arange(out)
    m, reads, zero_reads = np.zeros((out, n), dtype), np.zeros((out, n), bool), np.zeros((out, n), bool)
    for index, weight in _taps(n, out, mode, align_corners, scale):
        np.add.at(m, (rows, index), weight)
        reads[rows, index] = True
        zero_reads[rows, index] |= weight == 0
    return m, (reads, zero_reads)


def _taps(n: int, out: int, mode: str, align_corners: bool, scale) -> list:
    """(input index, weight) of each tap of every output: one for nearest, two for linear, four for bicubic."""
    step = n / out if scale is None else 1.0 / scale
    i = np.arange(out, dtype=np.float64)
    if mode in ("nearest", "nearest-exact"):
        src = np.floor((i + (0.5 if mode == "nearest-exact" else 0.0)) * step)
        return [(np.minimum(src.astype(np.int64), n - 1), 1.0)]
    if align_corners:
        src = i * ((n - 1) / (out - 1)) if out > 1 else np.zeros(out)
    else:
        src = (i + 0.5) * step - 0.5
        if mode != "bicubic":
            src = np.maximum(src, 0.0)
    low = np.floor(src)
    t = src - low
    low = low.astype(np.int64)
    if mode == "bicubic":  # four taps low-1 .. low+2 (clamped to the border), cubic convolution weights
        d = np.stack([t + 1, t, 1 - t, 2 - t])
        near = ((_CUBIC_A + 2) * d - (_CUBIC_A + 3)) * d * d + 1
        far = ((_CUBIC_A * d - 5 * _CUBIC_A) * d + 8 * _CUBIC_A) * d - 4 * _CUBIC_A
        return [(np.clip(low + k, 0, n - 1), w) for k, w in zip(range(-1, 3), np.where(d <= 1, near, far))]
    return [(np.minimum(low + k, n - 1), w) for k, w in ((0, 1 - t), (1, t))]


@register(method=False, top_level=False, functional=True)
def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> Tensor:
    """Resize the spatial dims (all but the first two) by ``mode``: 'nearest', 'nearest-exact', 'linear'
    (3-d input), 'bilinear'/'bicubic' (4-d), 'trilinear' (5-d) or 'area'; each dim is one matrix product."""
    dims = input.dim() - 2
    if mode not in _MODES or dims not in (1, 2, 3):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                                  "for the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area "
                                  f"| nearest-exact (got {mode})")
    if mode in _LINEAR:
        if _LINEAR[mode] != dims:
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_LINEAR[mode] + 2}D input")
        align_corners = bool(align_corners)
    elif align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if antialias:
        raise NotImplementedError("minitorch: interpolate(antialias=True) is not implemented")
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None else
                         "only one of size or scale_factor should be defined")
    sizes = tuple(input.shape[2:])
    if size is not None:
        outs = tuple(size) if isinstance(size, (tuple, list)) else (size,) * dims
        scales = (None,) * dims
    else:
        factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * dims
        outs = tuple(math.floor(n * float(f)) for n, f in zip(sizes, factors))
        scales = (None,) * dims if recompute_scale_factor or mode == "area" else tuple(float(f) for f in factors)
    if len(outs) != dims:
        raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input with "
                         f"spatial dimensions of {list(sizes)} and output size of {list(outs)}. Please provide input "
                         "tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
    if mode == "nearest" and dims == 2:  # a gather is cheaper than two 0/1 matrix products
        steps = tuple(n / o if s is None else 1.0 / s for n, o, s in zip(sizes, outs, scales))
        return _pool.UpsampleNearest2d.apply(input, index=_pool.nearest_index(input.shape, outs, steps))
    dtype = input._data.dtype if input._data.dtype.kind in "fV" else _dtype.get_default_dtype().np
    matrices = tuple(Made(_resize_matrix, n, o, mode, align_corners, s, dtype) for n, o, s in zip(sizes, outs, scales))
    return _node(mode, dims).apply(input, matrices=matrices)


# ---- deprecated upsampling ------------------------------------------------------------------------------------
def _deprecated(name: str) -> None:
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=3)


@register(method=False, top_level=False, functional=True)
def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: ``interpolate(input, size, scale_factor, mode='nearest')``."""
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


@register(method=False, top_level=False, functional=True)
def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: ``interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)``."""
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---- affine_grid and grid_sample ------------------------------------------------------------------------------
def _align_warning(align_corners):
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=3)
        return False
    return align_corners


def _base_coords(n: int, align_corners: bool) -> np.ndarray:
    """The normalised [-1, 1] coordinates of ``n`` pixels (their centres, or their corners aligned)."""
    if n == 1:
        return np.zeros(1)
    if align_corners:
        return np.linspace(-1.0, 1.0, n)
    return (np.arange(n) * 2 + 1) / n - 1


@register(method=False)
def affine_grid_generator(theta: Tensor, size, align_corners: bool) -> Tensor:
    """The sampling grid (N, *spatial, k) of the affine maps ``theta`` (N, k, k + 1)."""
    spatial = tuple(size[2:])
    axes = [_base_coords(n, align_corners) for n in reversed(spatial)]  # x (width) first
    mesh = list(np.meshgrid(*axes[::-1], indexing="ij"))[::-1]
    base = np.stack(mesh + [np.ones(spatial)], axis=-1).reshape(1, -1, len(spatial) + 1)
    grid = matmul(Tensor._wrap(base.astype(theta._data.dtype)), theta.transpose(1, 2))
    return grid.reshape(size[0], *spatial, len(spatial))


@register(method=False, top_level=False, functional=True)
def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The sampling grid of a batch of 2-d (N, 2, 3) or 3-d (N, 3, 4) affine maps, for grid_sample."""
    align_corners = _align_warning(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    k = len(size) - 2
    if theta.dim() != 3 or tuple(theta.shape[-2:]) != (k, k + 1):
        raise ValueError(f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} for size {size}. Got "
                         f"{theta.shape}.")
    if align_corners and min(tuple(size)[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return affine_grid_generator(theta, size, align_corners)


def _reflect(coord: Tensor, low2: int, high2: int) -> Tensor:
    """``coord`` reflected into [low2 / 2, high2 / 2] as often as needed (torch's reflect_coordinates)."""
    if low2 == high2:
        return coord * 0
    low, span = low2 / 2, (high2 - low2) / 2
    coord = (coord - low).abs()
    flips = np.floor(coord._data / span)
    extra = coord - Tensor._wrap((flips * span).astype(coord._data.dtype))
    return where(Tensor._wrap(flips % 2 == 0), extra + low, span - extra + low)


def _unnormalize(coord: Tensor, n: int, align_corners: bool) -> Tensor:
    """Normalised [-1, 1] grid coordinates as pixel coordinates along a dim of ``n`` pixels."""
    return (coord + 1) / 2 * (n - 1) if align_corners else ((coord + 1) * n - 1) / 2


def _pad_coord(coord: Tensor, n: int, padding_mode: str, align_corners: bool) -> Tensor:
    """Pixel coordinates moved inside the image by the border or reflection padding (zeros: left as they are)."""
    if padding_mode == "reflection":
        coord = _reflect(coord, 0, 2 * (n - 1)) if align_corners else _reflect(coord, -1, 2 * n - 1)
    if padding_mode in ("border", "reflection"):
        coord = coord.clamp(0, n - 1)
    return coord


def _cubic_weights(t: Tensor) -> list[Tensor]:
    """The weights of the taps at -1, 0, 1, 2 for the fraction ``t`` (torch's cubic convolution, A = -0.75)."""
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


class _CornerGather(Index, name="IndexBackward0"):
    """``Index`` of grid_sample's corner values; the input and the grid (given after the index arrays) are
    saved too, only to check their versions, as torch's node does."""

    keeps_input = True


def _gather(input: Tensor, corner: list[np.ndarray], grid: Tensor) -> Tensor:
    """input[n, :, z, y, x] at integer corner coordinates (x first) of ``grid``, zero outside: (N, *out, C)."""
    size = tuple(input.shape[2:])
    inside = np.ones(corner[0].shape, bool)
    index = []
    for c, n in zip(reversed(corner), size):
        inside &= (c >= 0) & (c < n)
        index.append(np.clip(c, 0, n - 1))
    batch = Made(axis_range, input.shape[0], 0, corner[0].ndim)
    values = _CornerGather.apply(input, *index, grid, index=(batch, slice(None)) + (ARRAY,) * len(index))
    return values * Tensor._wrap(inside[..., None].astype(input._data.dtype))


@register(method=False)
def grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                 align_corners: bool) -> Tensor:
    """grid_sample with the modes as numbers: interpolation 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros,
    1 border, 2 reflection."""
    k = input.dim() - 2
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError("grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got "
                           f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.shape[-1] != k:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {k} in last dimension, but got grid with "
                           f"sizes {list(grid.shape)}")
    if grid.shape[0] != input.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_dtype.C_NAMES[input.dtype]} but found "
                           f"{_dtype.C_NAMES[grid.dtype]}")
    if interpolation_mode == 2 and k == 3:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    mode = ("zeros", "border", "reflection")[padding_mode]
    size = tuple(input.shape[2:])[::-1]  # x (width) first, as the grid's last dim
    coords = [_unnormalize(grid[..., i], n, align_corners) for i, n in enumerate(size)]
    if interpolation_mode != 2:  # bicubic pads each tap instead
        coords = [_pad_coord(c, n, mode, align_corners) for c, n in zip(coords, size)]
    if interpolation_mode == 1:
        return _channels_first(_gather(input, [np.rint(c._data).astype(np.int64) for c in coords], grid))
    low = [np.floor(c._data) for c in coords]
    frac = [c - Tensor._wrap(f.astype(c._data.dtype)) for c, f in zip(coords, low)]
    if interpolation_mode == 2:
        offsets, weights = (-1, 0, 1, 2), [_cubic_weights(f) for f in frac]
    else:
        offsets, weights = (0, 1), [[1 - f, f] for f in frac]
    out = None
    for taps in itertools.product(range(len(offsets)), repeat=k):
        points = [lo + offsets[t] for lo, t in zip(low, taps)]
        if interpolation_mode == 2:
            points = [_pad_coord(Tensor._wrap(p), n, mode, align_corners)._data for p, n in zip(points, size)]
        weight = math.prod(w[t] for w, t in zip(weights, taps))
        term = _gather(input, [p.astype(np.int64) for p in points], grid) * weight.unsqueeze(-1)
        out = term if out is None else out + term
    return _channels_first(out)


def _channels_first(out: Tensor) -> Tensor:
    """(N, *S, C) -> (N, C, *S), a fresh contiguous tensor as torch's (its size-1 dims' strides too)."""
    return out.permute(0, out.dim() - 1, *range(1, out.dim() - 1)).clone(memory_format=contiguous_format)


@register(method=False)
def grid_sampler_2d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """grid_sampler of (N, C, H, W) input at an (N, H', W', 2) grid."""
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


@register(method=False)
def grid_sampler_3d(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                    align_corners: bool) -> Tensor:
    """grid_sampler of (N, C, D, H, W) input at an (N, D', H', W', 3) grid."""
    return grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)


@register(method=False, top_level=False, functional=True)
def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample ``input`` (N, C, *S) at the normalised [-1, 1] positions of ``grid`` (N, *S', k): x first."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    align_corners = _align_warning(align_corners)
    return grid_sampler(input, grid, ("bilinear", "nearest", "bicubic").index(mode),
                        ("zeros", "border", "reflection").index(padding_mode), align_corners)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
upsample = register(interpolate, name="upsample", method=False, top_level=False, functional=True)
