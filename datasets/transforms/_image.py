"""What the transforms take as an image (a PIL image, or a tensor whose last two dimensions are (H, W)),
and what they ask of it: size, channels, value range; the interpolation modes and their Pillow filters."""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

import minitorch
from minitorch import Tensor

from ._interpolation import InterpolationMode


_PIL_FILTERS = {
    InterpolationMode.NEAREST: Image.Resampling.NEAREST,
    InterpolationMode.NEAREST_EXACT: Image.Resampling.NEAREST,
    InterpolationMode.BILINEAR: Image.Resampling.BILINEAR,
    InterpolationMode.BICUBIC: Image.Resampling.BICUBIC,
    InterpolationMode.BOX: Image.Resampling.BOX,
    InterpolationMode.HAMMING: Image.Resampling.HAMMING,
    InterpolationMode.LANCZOS: Image.Resampling.LANCZOS,
}


def _interpolation_mode(interpolation: InterpolationMode | int) -> InterpolationMode:
    """``interpolation`` as an InterpolationMode; Pillow's integer constants are accepted, as in torchvision."""
    if isinstance(interpolation, InterpolationMode):
        return interpolation
    if isinstance(interpolation, int):
        by_int = {int(pil): mode for mode, pil in _PIL_FILTERS.items() if mode is not InterpolationMode.NEAREST_EXACT}
        if interpolation in by_int:
            return by_int[interpolation]
    raise TypeError("Argument interpolation should be a InterpolationMode or a corresponding Pillow integer constant")


def _setup_size(size: int | Sequence[int], error_msg: str) -> Sequence[int]:
    if isinstance(size, numbers.Number):
        return int(size), int(size)
    if isinstance(size, Sequence) and len(size) == 1:
        return size[0], size[0]
    if len(size) != 2:
        raise ValueError(error_msg)
    return size


def _check_image(img: Any) -> None:
    if isinstance(img, Tensor):
        if img.ndim < 2:
            raise TypeError("Tensor is not a torch image.")
    elif not isinstance(img, Image.Image):
        raise TypeError(f"Unexpected type {type(img)}")


def _image_size(img: Image.Image | Tensor) -> tuple[int, int]:
    """(height, width)."""
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.height, img.width
    return img.shape[-2], img.shape[-1]


def _num_channels(img: Image.Image | Tensor) -> int:
    _check_image(img)
    if isinstance(img, Image.Image):
        return len(img.getbands())
    return 1 if img.ndim == 2 else img.shape[-3]


def _max_value(dtype: np.dtype) -> float:
    """The largest value of an image of this numpy dtype: 1.0 for floats, the type's maximum for integers."""
    return float(np.iinfo(dtype).max) if np.issubdtype(dtype, np.integer) else 1.0


def _from_float(out: np.ndarray, dtype: np.dtype) -> Tensor:
    """A float result back to ``dtype`` (integers rounded, as torchvision's tensor kernels do)."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        out = np.clip(np.round(out), info.min, info.max)
    return minitorch.from_numpy(np.ascontiguousarray(out.astype(dtype)))


def _pixel_image(img: Image.Image | Tensor, need_uint8: bool = False) -> np.ndarray:
    _check_image(img)
    arr = img.numpy()
    if _num_channels(img) not in (1, 3):
        raise TypeError(f"Input image tensor permitted channel values are [1, 3], but found {_num_channels(img)}")
    if need_uint8 and arr.dtype != np.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    return arr
