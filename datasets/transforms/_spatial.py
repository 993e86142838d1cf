"""The kernels that move pixels, on PIL images and tensors: crop, flips, pad, resize, centre crop, and the
affine and perspective resampling of tensors (torchvision's grid sampling)."""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence

import numpy as np
from PIL import Image

import minitorch
from minitorch import Tensor

from ._image import _PIL_FILTERS, InterpolationMode, _check_image, _from_float, _image_size


def _crop(img: Image.Image | Tensor, top: int, left: int, height: int, width: int) -> Image.Image | Tensor:
    if isinstance(img, Image.Image):
        return img.crop((left, top, left + width, top + height))
    return img[..., top:top + height, left:left + width]


def _hflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return img.flip(-1)


def _vflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    return img.flip(-2)


def _pad(img: Image.Image | Tensor, padding: int | Sequence[int], fill: float | Sequence[float] = 0,
         padding_mode: str = "constant") -> Image.Image | Tensor:
    """Pad the borders: ``padding`` is one int (all sides), (left/right, top/bottom) or (left, top, right, bottom)."""
    if not isinstance(padding, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, (tuple, list)) and len(padding) not in (1, 2, 4):
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    _check_image(img)
    p = [padding] if isinstance(padding, numbers.Number) else list(padding)
    left, top, right, bottom = {1: p * 4, 2: p * 2, 4: p}[len(p)]

    is_pil = isinstance(img, Image.Image)
    arr = np.asarray(img) if is_pil else img.numpy()
    if is_pil and arr.ndim == 3:  # HWC: move the channels first so that H, W are the last two axes
        arr = arr.transpose(2, 0, 1)
    widths = [(0, 0)] * (arr.ndim - 2) + [(top, bottom), (left, right)]
    if padding_mode == "constant":
        channels = arr.shape[0] if arr.ndim == 3 else 1
        fill = np.asarray(fill, dtype=arr.dtype)
        if fill.size not in (1, channels):
            raise ValueError("The number of elements in 'fill' does not match the number of bands of the image "
                             f"({fill.size} != {channels})")
        out = np.empty(arr.shape[:-2] + (arr.shape[-2] + top + bottom, arr.shape[-1] + left + right), arr.dtype)
        out[...] = fill.reshape(-1, 1, 1) if fill.size > 1 else fill
        out[..., top:top + arr.shape[-2], left:left + arr.shape[-1]] = arr
    else:
        out = np.pad(arr, widths, mode=padding_mode)
    if not is_pil:
        return minitorch.from_numpy(out)
    return Image.fromarray(np.ascontiguousarray(out.transpose(1, 2, 0)) if out.ndim == 3 else out)


def _resized_output_size(height: int, width: int, size: int | Sequence[int], max_size: int | None) -> tuple[int, int]:
    """torchvision's output size: an int (or 1-sequence) sets the shorter edge, the longer one is truncated."""
    if isinstance(size, int) or len(size) == 1:
        requested = size if isinstance(size, int) else size[0]
        short, long = (width, height) if width <= height else (height, width)
        new_short, new_long = requested, int(requested * long / short)
        if max_size is not None:
            if max_size <= requested:
                raise ValueError(f"max_size = {max_size} must be strictly greater than the requested size for the "
                                 f"smaller edge size, but got size = {size}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
        return (new_long, new_short) if width <= height else (new_short, new_long)
    if max_size is not None:
        raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, i.e. size "
                         "should be an int or a sequence of length 1 in torchscript mode.")
    return size[0], size[1]


def _resize(img: Image.Image | Tensor, size: int | Sequence[int], interpolation: InterpolationMode,
            max_size: int | None = None, antialias: bool | None = True) -> Image.Image | Tensor:
    height, width = _image_size(img)
    out_h, out_w = _resized_output_size(height, width, size, max_size)
    if (out_h, out_w) == (height, width):
        return img
    resample = _PIL_FILTERS[interpolation]
    if isinstance(img, Image.Image):
        if antialias is False:
            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument antialias is ignored.")
        return img.resize((out_w, out_h), resample)
    # Tensors are resized plane by plane as Pillow float ('F') images: antialiased like torchvision's antialias=True.
    arr = img.numpy()
    planes = arr.reshape(-1, height, width).astype(np.float32)
    out = np.stack([np.asarray(Image.fromarray(p).resize((out_w, out_h), resample)) for p in planes])
    if arr.dtype == np.uint8:
        out = np.clip(np.round(out), 0, 255)
    return minitorch.from_numpy(out.astype(arr.dtype).reshape(arr.shape[:-2] + (out_h, out_w)))


def _center_crop(img: Image.Image | Tensor, output_size: tuple[int, int]) -> Image.Image | Tensor:
    height, width = _image_size(img)
    crop_h, crop_w = output_size
    if crop_w > width or crop_h > height:  # pad with zeros first, as torchvision does
        pad_w, pad_h = max(crop_w - width, 0), max(crop_h - height, 0)
        img = _pad(img, [pad_w // 2, pad_h // 2, (pad_w + 1) // 2, (pad_h + 1) // 2])
        height, width = _image_size(img)
        if (crop_h, crop_w) == (height, width):
            return img
    return _crop(img, int(round((height - crop_h) / 2.0)), int(round((width - crop_w) / 2.0)), crop_h, crop_w)


def _get_inverse_affine_matrix(center: Sequence[float], angle: float, translate: Sequence[float], scale: float,
                               shear: Sequence[float]) -> list[float]:
    """torchvision's inverse of ``C T R S Sh C^-1`` (output pixel -> input pixel), as a row-major 2x3 list."""
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    matrix = [x / scale for x in (d, -b, 0.0, -c, a, 0.0)]
    matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty) + cx
    matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty) + cy
    return matrix


def _affine_output_size(matrix: Sequence[float], w: int, h: int) -> tuple[int, int]:
    """(width, height) of the box holding the whole transformed image, as torchvision's ``expand=True``."""
    pts = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                    [0.5 * w, -0.5 * h, 1.0]])
    new_pts = pts @ np.asarray(matrix, dtype=np.float64).reshape(2, 3).T
    half = np.array([w * 0.5, h * 0.5])
    tol = 1e-4
    cmax = np.ceil(np.trunc((new_pts.max(0) + half) / tol) * tol)
    cmin = np.floor(np.trunc((new_pts.min(0) + half) / tol) * tol)
    size = cmax - cmin
    return int(size[0]), int(size[1])


def _apply_affine(img: Tensor, matrix: Sequence[float], interpolation: InterpolationMode,
                  fill: float | Sequence[float] | None, out_size: tuple[int, int] | None = None) -> Tensor:
    """Sample a tensor image at ``matrix`` applied to the centred output pixel grid (grid_sample, zeros outside,
    ``align_corners=False``), then blend ``fill`` in where the sample fell outside, as torchvision does."""
    arr = img.numpy()
    h, w = arr.shape[-2:]
    ow, oh = out_size if out_size is not None else (w, h)
    # float32 throughout, in torchvision's order (grid in [-1, 1], then unnormalised), so that nearest's ties agree
    xs, ys = np.meshgrid(np.arange(ow, dtype=np.float32) + np.float32(0.5 - ow * 0.5),
                         np.arange(oh, dtype=np.float32) + np.float32(0.5 - oh * 0.5))
    r = np.asarray(matrix, dtype=np.float32).reshape(2, 3).T / np.array([0.5 * w, 0.5 * h], dtype=np.float32)
    one, half = np.float32(1), np.float32(0.5)
    sx = ((xs * r[0, 0] + ys * r[1, 0] + r[2, 0] + one) * np.float32(w) - one) * half
    sy = ((xs * r[0, 1] + ys * r[1, 1] + r[2, 1] + one) * np.float32(h) - one) * half
    return _grid_sample(arr, sx.astype(np.float64), sy.astype(np.float64), interpolation, fill)


def _grid_sample(arr: np.ndarray, sx: np.ndarray, sy: np.ndarray, interpolation: InterpolationMode,
                 fill: float | Sequence[float] | None) -> Tensor:
    """``arr`` (..., H, W) read at input pixel coordinates (sx, sy) (each (oh, ow)), zeros outside, then ``fill``
    blended in by the sampled in-image mask (torchvision's ``_apply_grid_transform``)."""
    if interpolation not in (InterpolationMode.NEAREST, InterpolationMode.BILINEAR):
        raise ValueError(f"Interpolation mode '{interpolation}' is unsupported with Tensor input")
    h, w = arr.shape[-2:]
    oh, ow = sx.shape
    src = arr.astype(np.float64)

    def tap(iy: np.ndarray, ix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        inside = (ix >= 0) & (ix < w) & (iy >= 0) & (iy < h)
        values = src[..., np.clip(iy, 0, h - 1), np.clip(ix, 0, w - 1)]
        return np.where(inside, values, 0.0), inside.astype(np.float64)

    if interpolation == InterpolationMode.NEAREST:
        out, mask = tap(np.rint(sy).astype(np.int64), np.rint(sx).astype(np.int64))
    else:
        x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
        wx, wy = sx - x0, sy - y0
        out, mask = 0.0, 0.0
        for dy, dx, weight in ((0, 0, (1 - wy) * (1 - wx)), (0, 1, (1 - wy) * wx), (1, 0, wy * (1 - wx)),
                               (1, 1, wy * wx)):
            v, m = tap(y0 + dy, x0 + dx)
            out, mask = out + weight * v, mask + weight * m
    if fill is not None:
        fill_arr = np.asarray(fill, dtype=np.float64)
        if fill_arr.ndim == 1 and arr.ndim >= 3:
            fill_arr = fill_arr.reshape(-1, 1, 1)
        if interpolation == InterpolationMode.NEAREST:
            out = np.where(mask < 0.5, fill_arr, out)
        else:
            out = out * mask + (1.0 - mask) * fill_arr
    return _from_float(np.broadcast_to(out, arr.shape[:-2] + (oh, ow)), arr.dtype)


def _pil_fill(fill: float | Sequence[float] | None, img: Image.Image) -> float | tuple | None:
    channels = len(img.getbands())
    if fill is None:
        fill = 0
    if isinstance(fill, (int, float)) and channels > 1:
        fill = tuple([fill] * channels)
    if isinstance(fill, (list, tuple)):
        if len(fill) == 1:
            fill = fill * channels
        elif len(fill) != channels:
            raise ValueError("The number of elements in 'fill' does not match the number of channels of the image "
                             f"({len(fill)} != {channels})")
        fill = tuple(fill)
    if img.mode != "F":
        fill = tuple(int(x) for x in fill) if isinstance(fill, tuple) else int(fill)
    return fill


def _get_perspective_coeffs(startpoints: Sequence[Sequence[int]],
                            endpoints: Sequence[Sequence[int]]) -> list[float]:
    """The 8 coefficients mapping output (end) points to input (start) points, by least squares as torchvision."""
    a_matrix = np.zeros((2 * len(startpoints), 8), dtype=np.float64)
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a_matrix[2 * i] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a_matrix[2 * i + 1] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    b_matrix = np.asarray(startpoints, dtype=np.float64).reshape(-1)
    return np.linalg.lstsq(a_matrix, b_matrix, rcond=None)[0].astype(np.float32).tolist()
