"""``torchvision.transforms.functional``: each transform as a function of a PIL image or a tensor."""
from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

import minitorch
from minitorch import Tensor

from ._image import (_PIL_FILTERS, InterpolationMode, _check_image, _from_float, _image_size, _interpolation_mode,
                     _max_value, _num_channels, _pixel_image, _setup_size)
from ._spatial import (_affine_output_size, _apply_affine, _center_crop, _crop, _get_inverse_affine_matrix,
                       _get_perspective_coeffs, _grid_sample, _hflip, _pad, _pil_fill, _resize, _vflip)


def _grayscale(img: Image.Image | Tensor, num_output_channels: int = 1) -> Image.Image | Tensor:
    """ITU-R 601-2 luma: Pillow's ``convert("L")`` for PIL images, ``0.2989 R + 0.587 G + 0.114 B`` for tensors."""
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    _check_image(img)
    if isinstance(img, Image.Image):
        img = img.convert("L")
        if num_output_channels == 3:
            img = Image.fromarray(np.dstack([np.asarray(img)] * 3), "RGB")
        return img
    arr = img.numpy()
    channels = _num_channels(img)
    if channels not in (1, 3):
        raise TypeError(f"Input image tensor permitted channel values are [1, 3], but found {channels}")
    if channels == 3:
        r, g, b = arr[..., 0, :, :], arr[..., 1, :, :], arr[..., 2, :, :]
        gray = (0.2989 * r + 0.587 * g + 0.114 * b).astype(arr.dtype)[..., None, :, :]  # truncated, like .to(dtype)
    else:
        gray = arr.copy()
    if num_output_channels == 3:
        gray = np.broadcast_to(gray, gray.shape[:-3] + (3,) + gray.shape[-2:])
    return minitorch.from_numpy(np.ascontiguousarray(gray))


def _blend(arr: np.ndarray, other: np.ndarray | float, ratio: float) -> Tensor:
    bound = _max_value(arr.dtype)
    out = np.clip(ratio * arr.astype(np.float64) + (1.0 - ratio) * other, 0, bound)
    return minitorch.from_numpy(np.ascontiguousarray(out.astype(arr.dtype)))  # truncated, like .to(dtype)


def _rgb2hsv(img: np.ndarray) -> np.ndarray:
    r, g, b = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    maxc, minc = img.max(axis=-3), img.min(axis=-3)
    eqc = maxc == minc
    cr = maxc - minc
    s = cr / np.where(eqc, 1.0, maxc)
    cr_divisor = np.where(eqc, 1.0, cr)
    rc, gc, bc = (maxc - r) / cr_divisor, (maxc - g) / cr_divisor, (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = np.fmod((hr + hg + hb) / 6.0 + 1.0, 1.0)
    return np.stack((h, s, maxc), axis=-3)


def _hsv2rgb(img: np.ndarray) -> np.ndarray:
    h, s, v = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    i = i.astype(np.int64) % 6
    p = np.clip(v * (1.0 - s), 0.0, 1.0)
    q = np.clip(v * (1.0 - s * f), 0.0, 1.0)
    t = np.clip(v * (1.0 - s * (1.0 - f)), 0.0, 1.0)
    channels = [np.stack(c) for c in ((v, q, p, p, t, v), (t, v, v, q, p, p), (p, p, t, v, v, q))]
    return np.stack([np.take_along_axis(c, i[None], 0)[0] for c in channels], axis=-3)


def _adjust_hue(img: Image.Image, hue_factor: float) -> Image.Image:
    """Rotate the hue by ``hue_factor`` of a turn (in [-0.5, 0.5]) in HSV space."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if img.mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    # uint8 arithmetic wraps around, which is what a hue rotation needs
    shifted = np.asarray(h, dtype=np.uint8) + np.array(int(hue_factor * 255)).astype(np.uint8)
    return Image.merge("HSV", (Image.fromarray(shifted), s, v)).convert(img.mode)


def _gaussian_kernel1d(kernel_size: int, sigma: float) -> np.ndarray:
    half = (kernel_size - 1) * 0.5
    pdf = np.exp(-0.5 * (np.linspace(-half, half, kernel_size) / sigma) ** 2)
    return pdf / pdf.sum()


def get_dimensions(img: Image.Image | Tensor) -> list[int]:
    """[channels, height, width]."""
    return [_num_channels(img), *_image_size(img)]


def get_image_size(img: Image.Image | Tensor) -> list[int]:
    """[width, height]."""
    height, width = _image_size(img)
    return [width, height]


def get_image_num_channels(img: Image.Image | Tensor) -> int:
    return _num_channels(img)


def to_tensor(pic: Image.Image | np.ndarray) -> Tensor:
    """PIL image or HWC ndarray -> CHW tensor; uint8 data (and 8-bit PIL modes) scaled to float in [0, 1]."""
    if not isinstance(pic, (Image.Image, np.ndarray)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if isinstance(pic, np.ndarray):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        arr = pic[:, :, None] if pic.ndim == 2 else pic
    else:
        arr = np.array(pic, {"I": np.int32, "I;16": np.int16, "F": np.float32}.get(pic.mode, np.uint8))
        if pic.mode == "1":
            arr = 255 * arr
        arr = arr.reshape(pic.height, pic.width, len(pic.getbands()))
    chw = np.ascontiguousarray(arr.transpose(2, 0, 1))
    if chw.dtype == np.uint8:
        chw = chw.astype(minitorch.get_default_dtype().np) / 255
    return minitorch.from_numpy(chw)


def pil_to_tensor(pic: Image.Image) -> Tensor:
    """PIL image -> CHW tensor of the same dtype (uint8 for 8-bit images), values unchanged."""
    if not isinstance(pic, Image.Image):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    arr = np.array(pic).reshape(pic.height, pic.width, len(pic.getbands()))
    return minitorch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))


def to_pil_image(pic: Tensor | np.ndarray, mode: str | None = None) -> Image.Image:
    """CHW tensor (float: scaled by 255 and truncated to uint8) or HWC ndarray -> PIL image."""
    if isinstance(pic, Tensor):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        arr = pic.numpy()
        arr = (arr[None] if arr.ndim == 2 else arr).transpose(1, 2, 0)
        if np.issubdtype(arr.dtype, np.floating) and mode != "F":
            arr = (arr * 255).astype(np.uint8)
    elif isinstance(pic, np.ndarray):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        arr = pic[:, :, None] if pic.ndim == 2 else pic
    else:
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if arr.shape[-1] > 4:
        raise ValueError(f"pic should not have > 4 channels. Got {arr.shape[-1]} channels.")
    if arr.shape[-1] == 1:
        arr = arr[:, :, 0]
        if arr.dtype == np.float64:
            arr = arr.astype(np.float32)
        elif arr.dtype == np.int64:
            arr = arr.astype(np.int32)
    out = Image.fromarray(np.ascontiguousarray(arr))
    return out if mode is None or out.mode == mode else out.convert(mode)


def normalize(tensor: Tensor, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> Tensor:
    """``(x - mean[c]) / std[c]`` for each channel ``c`` of a float tensor (..., C, H, W)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
    _check_image(tensor)
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}")
    if not inplace:
        tensor = tensor.clone()
    mean = minitorch.as_tensor(mean, dtype=tensor.dtype)
    std = minitorch.as_tensor(std, dtype=tensor.dtype)
    if (std == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading to division by zero.")
    if mean.ndim == 1:
        mean = mean.view(-1, 1, 1)
    if std.ndim == 1:
        std = std.view(-1, 1, 1)
    return tensor.sub_(mean).div_(std)


def resize(img: Image.Image | Tensor, size: int | Sequence[int],
           interpolation: InterpolationMode | int = InterpolationMode.BILINEAR, max_size: int | None = None,
           antialias: bool | None = True) -> Image.Image | Tensor:
    return _resize(img, size, _interpolation_mode(interpolation), max_size, antialias)


def pad(img: Image.Image | Tensor, padding: int | Sequence[int], fill: float | Sequence[float] = 0,
        padding_mode: str = "constant") -> Image.Image | Tensor:
    return _pad(img, padding, fill, padding_mode)


def crop(img: Image.Image | Tensor, top: int, left: int, height: int, width: int) -> Image.Image | Tensor:
    return _crop(img, top, left, height, width)


def center_crop(img: Image.Image | Tensor, output_size: int | Sequence[int]) -> Image.Image | Tensor:
    return _center_crop(img, tuple(_setup_size(output_size, "Please provide only two dimensions (h, w) for size.")))


def resized_crop(img: Image.Image | Tensor, top: int, left: int, height: int, width: int, size: Sequence[int],
                 interpolation: InterpolationMode | int = InterpolationMode.BILINEAR,
                 antialias: bool | None = True) -> Image.Image | Tensor:
    return resize(_crop(img, top, left, height, width), size, interpolation, antialias=antialias)


def hflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    return _hflip(img)


def vflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    return _vflip(img)


def rgb_to_grayscale(img: Image.Image | Tensor, num_output_channels: int = 1) -> Image.Image | Tensor:
    return _grayscale(img, num_output_channels)


def to_grayscale(img: Image.Image | Tensor, num_output_channels: int = 1) -> Image.Image | Tensor:
    return _grayscale(img, num_output_channels)


def adjust_brightness(img: Image.Image | Tensor, brightness_factor: float) -> Image.Image | Tensor:
    if brightness_factor < 0:
        raise ValueError(f"brightness_factor ({brightness_factor}) is not non-negative.")
    if isinstance(img, Image.Image):
        return ImageEnhance.Brightness(img).enhance(brightness_factor)
    _check_image(img)
    return _blend(img.numpy(), 0.0, brightness_factor)


def adjust_contrast(img: Image.Image | Tensor, contrast_factor: float) -> Image.Image | Tensor:
    if contrast_factor < 0:
        raise ValueError(f"contrast_factor ({contrast_factor}) is not non-negative.")
    if isinstance(img, Image.Image):
        return ImageEnhance.Contrast(img).enhance(contrast_factor)
    _check_image(img)
    arr = img.numpy()
    gray = _grayscale(img).numpy() if _num_channels(img) == 3 else arr
    dtype = arr.dtype if np.issubdtype(arr.dtype, np.floating) else np.float32
    mean = gray.astype(dtype).mean(axis=(-3, -2, -1), keepdims=True)
    return _blend(arr, mean, contrast_factor)


def adjust_saturation(img: Image.Image | Tensor, saturation_factor: float) -> Image.Image | Tensor:
    if saturation_factor < 0:
        raise ValueError(f"saturation_factor ({saturation_factor}) is not non-negative.")
    if isinstance(img, Image.Image):
        return ImageEnhance.Color(img).enhance(saturation_factor)
    _check_image(img)
    if _num_channels(img) == 1:
        return img
    return _blend(img.numpy(), _grayscale(img).numpy(), saturation_factor)


def adjust_hue(img: Image.Image | Tensor, hue_factor: float) -> Image.Image | Tensor:
    if isinstance(img, Image.Image):
        return _adjust_hue(img, hue_factor)
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if _num_channels(img) == 1:
        return img
    arr = img.numpy()
    hsv = _rgb2hsv(arr.astype(np.float64) / _max_value(arr.dtype))
    hsv[..., 0, :, :] = (hsv[..., 0, :, :] + hue_factor) % 1.0
    rgb = _hsv2rgb(hsv)
    if np.issubdtype(arr.dtype, np.integer):  # convert_image_dtype float -> int
        return minitorch.from_numpy((rgb * (_max_value(arr.dtype) + 1.0 - 1e-3)).astype(arr.dtype))
    return minitorch.from_numpy(rgb.astype(arr.dtype))


def rotate(img: Image.Image | Tensor, angle: float,
           interpolation: InterpolationMode | int = InterpolationMode.NEAREST, expand: bool = False,
           center: Sequence[int] | None = None, fill: float | Sequence[float] | None = None) -> Image.Image | Tensor:
    """Rotate counter-clockwise by ``angle`` degrees about ``center`` (default: the image centre)."""
    interpolation = _interpolation_mode(interpolation)
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.rotate(angle, _PIL_FILTERS[interpolation], expand, center, fillcolor=_pil_fill(fill, img))
    height, width = _image_size(img)
    center_f = [0.0, 0.0] if center is None else [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    out_size = _affine_output_size(matrix, width, height) if expand else None
    return _apply_affine(img, matrix, interpolation, fill, out_size)


def affine(img: Image.Image | Tensor, angle: float, translate: Sequence[int], scale: float,
           shear: float | Sequence[float], interpolation: InterpolationMode | int = InterpolationMode.NEAREST,
           fill: float | Sequence[float] | None = None, center: Sequence[int] | None = None) -> Image.Image | Tensor:
    """Rotate by ``angle``, translate, scale and shear about ``center``, keeping the size."""
    interpolation = _interpolation_mode(interpolation)
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if isinstance(shear, numbers.Number):
        shear = [float(shear), 0.0]
    shear = [float(s) for s in shear]
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    _check_image(img)
    height, width = _image_size(img)
    if isinstance(img, Image.Image):
        center = [width * 0.5, height * 0.5] if center is None else center
        matrix = _get_inverse_affine_matrix(center, angle, translate, scale, shear)
        return img.transform((width, height), Image.Transform.AFFINE, matrix, _PIL_FILTERS[interpolation],
                             fillcolor=_pil_fill(fill, img))
    center_f = [0.0, 0.0] if center is None else [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    matrix = _get_inverse_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return _apply_affine(img, matrix, interpolation, fill)


def perspective(img: Image.Image | Tensor, startpoints: Sequence[Sequence[int]], endpoints: Sequence[Sequence[int]],
                interpolation: InterpolationMode | int = InterpolationMode.BILINEAR,
                fill: float | Sequence[float] | None = None) -> Image.Image | Tensor:
    """Warp so that the four ``startpoints`` ([x, y]: top-left, top-right, bottom-right, bottom-left) land on
    ``endpoints``."""
    if len(startpoints) != 4 or len(endpoints) != 4:
        raise ValueError(f"Please provide exactly four corners, got {len(startpoints)} startpoints and "
                         f"{len(endpoints)} endpoints.")
    interpolation = _interpolation_mode(interpolation)
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.transform(img.size, Image.Transform.PERSPECTIVE, coeffs, _PIL_FILTERS[interpolation],
                             fillcolor=_pil_fill(fill, img))
    arr = img.numpy()
    oh, ow = arr.shape[-2:]
    c = np.asarray(coeffs, dtype=np.float64)
    x, y = np.meshgrid(np.arange(ow) + 0.5, np.arange(oh) + 0.5)
    den = c[6] * x + c[7] * y + 1.0
    sx = (c[0] * x + c[1] * y + c[2]) / den - 0.5
    sy = (c[3] * x + c[4] * y + c[5]) / den - 0.5
    return _grid_sample(arr, sx, sy, interpolation, fill)


def gaussian_blur(img: Image.Image | Tensor, kernel_size: int | Sequence[int],
                  sigma: float | Sequence[float] | None = None) -> Image.Image | Tensor:
    """Separable Gaussian blur, ``kernel_size`` (kx, ky) odd, reflect-padded borders; PIL images go through a tensor."""
    if isinstance(kernel_size, int):
        kernel_size = [kernel_size, kernel_size]
    if len(kernel_size) != 2:
        raise ValueError(f"If kernel_size is a sequence its length should be 2. Got {len(kernel_size)}")
    for ksize in kernel_size:
        if ksize % 2 == 0 or ksize < 0:
            raise ValueError(f"kernel_size should have odd and positive integers. Got {kernel_size}")
    if sigma is None:
        sigma = [ksize * 0.15 + 0.35 for ksize in kernel_size]
    if isinstance(sigma, (int, float)):
        sigma = [float(sigma), float(sigma)]
    if len(sigma) == 1:
        sigma = [sigma[0], sigma[0]]
    if len(sigma) != 2:
        raise ValueError(f"If sigma is a sequence, its length should be 2. Got {len(sigma)}")
    for s in sigma:
        if s <= 0.0:
            raise ValueError(f"sigma should have positive values. Got {sigma}")
    _check_image(img)
    is_pil = isinstance(img, Image.Image)
    arr = pil_to_tensor(img).numpy() if is_pil else img.numpy()
    kx, ky = kernel_size
    out = np.pad(arr.astype(np.float64), [(0, 0)] * (arr.ndim - 2) + [(ky // 2, ky // 2), (kx // 2, kx // 2)],
                 mode="reflect")
    height, width = arr.shape[-2:]
    out = sum(wt * out[..., i:i + height, :] for i, wt in enumerate(_gaussian_kernel1d(ky, sigma[1])))
    out = sum(wt * out[..., :, i:i + width] for i, wt in enumerate(_gaussian_kernel1d(kx, sigma[0])))
    result = _from_float(out, arr.dtype)
    return to_pil_image(result, mode=img.mode) if is_pil else result


def erase(img: Tensor, i: int, j: int, h: int, w: int, v: Tensor | float, inplace: bool = False) -> Tensor:
    """Set ``img[..., i:i+h, j:j+w]`` to ``v``."""
    if not isinstance(img, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img


def convert_image_dtype(image: Tensor, dtype: minitorch.dtype = minitorch.float32) -> Tensor:
    """Cast, rescaling between the value ranges of integer ([0, max]) and float ([0, 1]) images."""
    if not isinstance(image, Tensor):
        raise TypeError("Input img should be Tensor Image")
    if image.dtype == dtype:
        return image
    arr, target = image.numpy(), np.dtype(dtype.np)
    if np.issubdtype(arr.dtype, np.floating):
        if np.issubdtype(target, np.floating):
            return minitorch.from_numpy(arr.astype(target))
        if (arr.dtype == np.float32 and target in (np.int32, np.int64)) or (arr.dtype == np.float64
                                                                           and target == np.int64):
            raise RuntimeError(f"The cast from {image.dtype} to {dtype} cannot be performed safely.")
        return minitorch.from_numpy((arr * (_max_value(target) + 1.0 - 1e-3)).astype(target))
    input_max = int(_max_value(arr.dtype))
    if np.issubdtype(target, np.floating):
        return minitorch.from_numpy(arr.astype(target) / target.type(input_max))
    output_max = int(_max_value(target))
    if input_max > output_max:
        factor = (input_max + 1) // (output_max + 1)
        return minitorch.from_numpy((arr // factor).astype(target))
    factor = (output_max + 1) // (input_max + 1)
    return minitorch.from_numpy(arr.astype(target) * target.type(factor))


def invert(img: Image.Image | Tensor) -> Image.Image | Tensor:
    """``max - img`` (255 for uint8, 1 for floats)."""
    if isinstance(img, Image.Image):
        return ImageOps.invert(img)
    arr = _pixel_image(img)
    return minitorch.from_numpy((np.array(_max_value(arr.dtype), dtype=arr.dtype) - arr).astype(arr.dtype))


def posterize(img: Image.Image | Tensor, bits: int) -> Image.Image | Tensor:
    """Keep the ``bits`` most significant bits of each uint8 value."""
    if not 0 <= bits <= 8:
        raise ValueError(f"The number if bits should be between 0 and 8. Got {bits}")
    if isinstance(img, Image.Image):
        return ImageOps.posterize(img, bits)
    arr = _pixel_image(img, need_uint8=True)
    return minitorch.from_numpy(arr & np.uint8((0xFF << (8 - bits)) & 0xFF))


def solarize(img: Image.Image | Tensor, threshold: float) -> Image.Image | Tensor:
    """Invert the values at or above ``threshold``."""
    if isinstance(img, Image.Image):
        return ImageOps.solarize(img, threshold)
    arr = _pixel_image(img)
    if threshold > _max_value(arr.dtype):
        raise TypeError("Threshold should be less than bound of img.")
    return minitorch.from_numpy(np.where(arr >= threshold, invert(img).numpy(), arr))


def adjust_sharpness(img: Image.Image | Tensor, sharpness_factor: float) -> Image.Image | Tensor:
    """Blend with a smoothed copy (3x3 kernel, centre weight 5; borders kept): 0 smooth, 1 unchanged, 2 sharper."""
    if sharpness_factor < 0:
        raise ValueError(f"sharpness_factor ({sharpness_factor}) is not non-negative.")
    if isinstance(img, Image.Image):
        return ImageEnhance.Sharpness(img).enhance(sharpness_factor)
    arr = _pixel_image(img)
    if arr.shape[-1] <= 2 or arr.shape[-2] <= 2:
        return img
    src = arr.astype(np.float64)
    h, w = arr.shape[-2:]
    smooth = sum(src[..., i:i + h - 2, j:j + w - 2] for i in range(3) for j in range(3)) + 4 * src[..., 1:-1, 1:-1]
    smooth = smooth / 13.0
    degenerate = src.copy()
    degenerate[..., 1:-1, 1:-1] = np.round(smooth) if np.issubdtype(arr.dtype, np.integer) else smooth
    return _blend(arr, degenerate, sharpness_factor)


def autocontrast(img: Image.Image | Tensor) -> Image.Image | Tensor:
    """Stretch each channel's values to the full range (a constant channel is left alone)."""
    if isinstance(img, Image.Image):
        return ImageOps.autocontrast(img)
    arr = _pixel_image(img)
    bound = _max_value(arr.dtype)
    work = arr.astype(arr.dtype if np.issubdtype(arr.dtype, np.floating) else np.float32)
    minimum = work.min(axis=(-2, -1), keepdims=True)
    maximum = work.max(axis=(-2, -1), keepdims=True)
    flat = maximum == minimum
    scale = bound / np.where(flat, 1, maximum - minimum)
    minimum, scale = np.where(flat, 0, minimum), np.where(flat, 1, scale)
    return minitorch.from_numpy(np.clip((work - minimum) * scale, 0, bound).astype(arr.dtype))


def equalize(img: Image.Image | Tensor) -> Image.Image | Tensor:
    """Histogram equalisation of each channel of a uint8 image (PIL's ImageOps.equalize rule)."""
    if isinstance(img, Image.Image):
        return ImageOps.equalize(img)
    arr = _pixel_image(img, need_uint8=True)
    planes = arr.reshape(-1, *arr.shape[-2:])
    out = np.empty_like(planes)
    for k, plane in enumerate(planes):  # one lookup table per channel
        hist = np.bincount(plane.ravel(), minlength=256)
        nonzero = hist[hist != 0]
        step = int(nonzero[:-1].sum()) // 255
        if step == 0:
            out[k] = plane
            continue
        lut = (np.cumsum(hist) + step // 2) // step
        lut = np.clip(np.concatenate(([0], lut[:-1])), 0, 255)
        out[k] = lut[plane]
    return minitorch.from_numpy(out.reshape(arr.shape))


def five_crop(img: Image.Image | Tensor, size: int | Sequence[int]) -> tuple:
    """(top-left, top-right, bottom-left, bottom-right, centre) crops of ``size``."""
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    image_height, image_width = _image_size(img)
    crop_height, crop_width = size
    if crop_width > image_width or crop_height > image_height:
        raise ValueError(f"Requested crop size {size} is bigger than input size {(image_height, image_width)}")
    tl = _crop(img, 0, 0, crop_height, crop_width)
    tr = _crop(img, 0, image_width - crop_width, crop_height, crop_width)
    bl = _crop(img, image_height - crop_height, 0, crop_height, crop_width)
    br = _crop(img, image_height - crop_height, image_width - crop_width, crop_height, crop_width)
    return tl, tr, bl, br, _center_crop(img, (crop_height, crop_width))


def ten_crop(img: Image.Image | Tensor, size: int | Sequence[int], vertical_flip: bool = False) -> tuple:
    """``five_crop`` of the image and of its (horizontal, or vertical) mirror image."""
    flipped = _vflip(img) if vertical_flip else _hflip(img)
    return five_crop(img, size) + five_crop(flipped, size)
