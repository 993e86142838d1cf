"""Image utilities in torchvision's form (``torchvision.utils``): ``make_grid``, ``save_image``, ``draw_bounding_boxes``."""
from __future__ import annotations

import math
import pathlib
import warnings
from typing import Any, BinaryIO

import numpy as np
from PIL import Image, ImageColor, ImageDraw, ImageFont

import minitorch
from minitorch import Tensor

__all__ = ["draw_bounding_boxes", "make_grid", "save_image"]


def _as_array(tensor: Tensor | list[Tensor]) -> np.ndarray:
    """The values of a tensor or a list of them, whether or not they require grad (torchvision's utilities run
    under ``no_grad``)."""
    if isinstance(tensor, (list, tuple)):
        if not all(isinstance(t, Tensor) for t in tensor):
            raise TypeError(f"tensor or list of tensors expected, got a list containing {[type(t) for t in tensor]}")
        return np.stack([t.detach().numpy() for t in tensor])
    if not isinstance(tensor, Tensor):
        raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    return tensor.detach().numpy()


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
    if not np.issubdtype(grid.dtype, np.floating):
        grid = grid.astype(np.float64)
    # grid.mul(255).add_(0.5).clamp_(0, 255).to(uint8), in the grid's own float precision
    ndarr = np.clip(grid * grid.dtype.type(255) + grid.dtype.type(0.5), 0, 255).astype(np.uint8).transpose(1, 2, 0)
    if ndarr.shape[2] == 1:
        ndarr = ndarr[:, :, 0]
    Image.fromarray(np.ascontiguousarray(ndarr)).save(fp, format=format)


def _generate_color_palette(num_objects: int) -> list[tuple[int, int, int]]:
    palette = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1])
    return [tuple(int(c) for c in (i * palette) % 255) for i in range(num_objects)]


def _parse_colors(colors: Any, num_objects: int) -> list[tuple[int, ...]]:
    if colors is None:
        colors = _generate_color_palette(num_objects)
    elif isinstance(colors, list):
        if len(colors) < num_objects:
            raise ValueError(f"Number of colors must be equal or larger than the number of objects, but got "
                             f"{len(colors)} < {num_objects}.")
    elif not isinstance(colors, (tuple, str)):
        raise ValueError(f"`colors` must be a tuple or a string, or a list thereof, but got {colors}.")
    elif isinstance(colors, tuple) and len(colors) != 3:
        raise ValueError(f"If passed as tuple, colors should be an RGB triplet, but got {colors}.")
    else:
        colors = [colors] * num_objects
    return [ImageColor.getrgb(c) if isinstance(c, str) else tuple(c) for c in colors]


def draw_bounding_boxes(image: Tensor, boxes: Tensor, labels: list[str] | None = None, colors: Any = None,
                        fill: bool = False, width: int = 1, font: str | None = None, font_size: int | None = None,
                        label_colors: Any = None) -> Tensor:
    """Draw ``boxes`` (N, 4) in (xmin, ymin, xmax, ymax) pixels on a (C, H, W) uint8 or float image, through PIL.

    Returns a new image of the input's dtype, with three channels (a 1-channel image is repeated).
    """
    if not isinstance(image, Tensor):
        raise TypeError(f"Tensor expected, got {type(image)}")
    if not (image.dtype == minitorch.uint8 or image.is_floating_point()):
        raise ValueError(f"The image dtype must be uint8 or float, got {image.dtype}")
    if image.ndim != 3:
        raise ValueError("Pass individual images, not batches")
    if image.shape[0] not in (1, 3):
        raise ValueError("Only grayscale and RGB images are supported")
    box_arr = boxes.detach().numpy()
    if (box_arr[:, 0] > box_arr[:, 2]).any() or (box_arr[:, 1] > box_arr[:, 3]).any():
        raise ValueError("Boxes need to be in (xmin, ymin, xmax, ymax) format. Use torchvision.ops.box_convert to "
                         "convert them")
    num_boxes = box_arr.shape[0]
    if num_boxes == 0:
        warnings.warn("boxes doesn't contain any box. No box was drawn")
        return image
    if labels is None:
        labels = [None] * num_boxes
    elif len(labels) != num_boxes:
        raise ValueError(f"Number of boxes ({num_boxes}) and labels ({len(labels)}) mismatch. Please specify "
                         "labels for each box.")
    colors = _parse_colors(colors, num_objects=num_boxes)
    label_colors = _parse_colors(label_colors, num_objects=num_boxes) if label_colors else colors.copy()
    if font is None:
        if font_size is not None:
            warnings.warn("Argument 'font_size' will be ignored since 'font' is not set.")
        txt_font = ImageFont.load_default()
    else:
        txt_font = ImageFont.truetype(font=font, size=font_size or 10)

    arr = image.numpy()
    floating = np.issubdtype(arr.dtype, np.floating)
    if floating:  # to_dtype(uint8, scale=True)
        arr = (arr * (255 + 1.0 - 1e-3)).astype(np.uint8)
    if arr.shape[0] == 1:
        arr = np.tile(arr, (3, 1, 1))
    img_to_draw = Image.fromarray(np.ascontiguousarray(arr.transpose(1, 2, 0)))
    draw = ImageDraw.Draw(img_to_draw, "RGBA") if fill else ImageDraw.Draw(img_to_draw)
    for bbox, color, label, label_color in zip(box_arr.astype(np.int64).tolist(), colors, labels, label_colors):
        if fill:
            draw.rectangle(bbox, width=width, outline=color, fill=color + (100,))
        else:
            draw.rectangle(bbox, width=width, outline=color)
        if label is not None:
            margin = width + 1
            draw.text((bbox[0] + margin, bbox[1] + margin), label, fill=label_color, font=txt_font)
    out = np.ascontiguousarray(np.asarray(img_to_draw).transpose(2, 0, 1))
    if floating:  # back with to_dtype(float, scale=True)
        out = out.astype(image.numpy().dtype) / np.array(255, dtype=image.numpy().dtype)
    return minitorch.from_numpy(out)
