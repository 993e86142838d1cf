"""Image utilities in torchvision's form (``torchvision.utils``): ``make_grid`` and ``save_image``."""
from __future__ import annotations

import math
import pathlib
from typing import Any, BinaryIO

import numpy as np
from PIL import Image

import minitorch
from minitorch import Tensor

__all__ = ["make_grid", "save_image"]


def _as_array(tensor: Tensor | list[Tensor]) -> np.ndarray:
    if isinstance(tensor, (list, tuple)):
        if not all(isinstance(t, Tensor) for t in tensor):
            raise TypeError(f"tensor or list of tensors expected, got a list containing {[type(t) for t in tensor]}")
        return np.stack([t.numpy() for t in tensor])
    if not isinstance(tensor, Tensor):
        raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    return tensor.numpy()


def make_grid(tensor: Tensor | list[Tensor], nrow: int = 8, padding: int = 2, normalize: bool = False,
              value_range: tuple[float, float] | None = None, scale_each: bool = False,
              pad_value: float = 0.0) -> Tensor:
    """Tile a batch (B, C, H, W) (or a list of (C, H, W) images) into one (C, H', W') image, ``nrow`` per row.

    One-channel images are repeated to three channels; a single image comes back unpadded. ``normalize``
    shifts each image (``scale_each``) or the whole batch into [0, 1], from ``value_range`` (clamped) or from
    its own min and max.
    """
    arr = _as_array(tensor)
    if arr.ndim == 2:  # a single image H x W
        arr = arr[None]
    if arr.ndim == 3:  # a single image C x H x W
        if arr.shape[0] == 1:
            arr = np.concatenate((arr, arr, arr), 0)
        arr = arr[None]
    if arr.ndim == 4 and arr.shape[1] == 1:
        arr = np.concatenate((arr, arr, arr), 1)
    if normalize is True:
        if value_range is not None and not isinstance(value_range, tuple):
            raise TypeError("value_range has to be a tuple (min, max) if specified. min and max are numbers")

        def norm_range(t: np.ndarray) -> np.ndarray:
            low, high = value_range if value_range is not None else (float(t.min()), float(t.max()))
            return ((np.clip(t, low, high) - low) / max(high - low, 1e-5)).astype(t.dtype)

        arr = np.stack([norm_range(t) for t in arr]) if scale_each is True else norm_range(arr)
    if arr.shape[0] == 1:
        return minitorch.from_numpy(np.ascontiguousarray(arr[0]))
    nmaps = arr.shape[0]
    xmaps = min(nrow, nmaps)
    ymaps = int(math.ceil(float(nmaps) / xmaps))
    height, width = int(arr.shape[2] + padding), int(arr.shape[3] + padding)
    grid = np.full((arr.shape[1], height * ymaps + padding, width * xmaps + padding), pad_value, dtype=arr.dtype)
    for k in range(nmaps):  # one slice assignment per image
        y, x = divmod(k, xmaps)
        grid[:, y * height + padding:(y + 1) * height, x * width + padding:(x + 1) * width] = arr[k]
    return minitorch.from_numpy(grid)


def save_image(tensor: Tensor | list[Tensor], fp: str | pathlib.Path | BinaryIO, format: str | None = None,
               **kwargs: Any) -> None:
    """Save ``make_grid(tensor, **kwargs)`` (values in [0, 1]) as an 8-bit image file through PIL."""
    grid = make_grid(tensor, **kwargs).numpy()
    ndarr = np.clip(grid.astype(np.float64) * 255 + 0.5, 0, 255).astype(np.uint8).transpose(1, 2, 0)
    if ndarr.shape[2] == 1:
        ndarr = ndarr[:, :, 0]
    Image.fromarray(np.ascontiguousarray(ndarr)).save(fp, format=format)
