"""Image transforms in torchvision's form (``torchvision.transforms`` v1) on PIL images and CHW tensors.

Random transforms make torchvision's draws from minitorch's default generator, in torchvision's order and sizes
(``torch.rand(1)``, ``torch.randint(.., size=(1,))``, ``torch.empty(1).uniform_``, ``torch.randperm(4)``), so after
``minitorch.manual_seed(s)`` they take the same decisions and parameters as torchvision after ``torch.manual_seed(s)``.
RandomOrder and RandomChoice use Python's ``random`` module, as torchvision does. One known gap: torch takes the
float32 ``log``/``exp`` of the aspect ratio in RandomResizedCrop and RandomErasing from MKL's vector math, which is
not always correctly rounded; here they are correctly rounded (except for the logs of the default ratio bounds, which
are torch's). A one-ulp difference changes a crop only when a side lands within about 1e-5 of a rounding edge.
"""
from __future__ import annotations

import math
import numbers
import random
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

import minitorch
from minitorch import Tensor

from ._interpolation import InterpolationMode

__all__ = ["CenterCrop", "ColorJitter", "Compose", "ConvertImageDtype", "FiveCrop", "GaussianBlur", "Grayscale",
           "InterpolationMode", "Lambda", "Normalize", "PILToTensor", "Pad", "RandomAdjustSharpness", "RandomAffine",
           "RandomApply", "RandomAutocontrast", "RandomChoice", "RandomCrop", "RandomEqualize", "RandomErasing",
           "RandomGrayscale", "RandomHorizontalFlip", "RandomInvert", "RandomOrder", "RandomPerspective",
           "RandomPosterize", "RandomResizedCrop", "RandomRotation", "RandomSolarize", "RandomVerticalFlip",
           "Resize", "TenCrop", "ToPILImage", "ToTensor", "functional"]


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


def _rand() -> float:
    """``torch.rand(1).item()`` on the default generator."""
    return minitorch.rand(1).item()


def _rand_below(p: float) -> bool:
    """``torch.rand(1) < p``: a tensor comparison, so ``p`` is rounded to float32 first."""
    return bool(np.float32(_rand()) < np.float32(p))


def _randint(low: int, high: int) -> int:
    """``torch.randint(low, high, size=(1,)).item()`` on the default generator."""
    return int(minitorch.randint(low, high, (1,)).item())


def _uniform(low: float, high: float) -> float:
    """``torch.empty(1).uniform_(low, high).item()``: a float32 draw, returned as a Python float."""
    return minitorch.empty(1).uniform_(low, high).item()


def _random_area_and_ratio(area: int, scale: Sequence[float], log_ratio: tuple[float, float]) -> tuple[float, float]:
    """One try of RandomResizedCrop/RandomErasing: ``area`` times a uniform scale, and exp of a uniform log ratio
    (torch computes that exp in float32)."""
    target_area = area * _uniform(scale[0], scale[1])
    return target_area, float(np.float32(math.exp(_uniform(*log_ratio))))


# torch's float32 log (MKL's vector math) of the default ratio bounds of RandomResizedCrop and RandomErasing, where it
# is one ulp away from the correctly rounded log: a shifted bound moves every aspect ratio drawn from it
_TORCH_LOG32 = {0.75: -0.28768205642700195, 3.299999952316284: 1.193922519683838}


def _log_ratio(ratio: Sequence[float]) -> tuple[float, float]:
    """``torch.log(torch.tensor(ratio))``: float32 logs of the float32 bounds."""
    bounds = (float(np.float32(r)) for r in ratio)
    low, high = (_TORCH_LOG32.get(r, float(np.float32(math.log(r)))) for r in bounds)
    return low, high


def _setup_size(size: int | Sequence[int], error_msg: str) -> Sequence[int]:
    if isinstance(size, numbers.Number):
        return int(size), int(size)
    if isinstance(size, Sequence) and len(size) == 1:
        return size[0], size[0]
    if len(size) != 2:
        raise ValueError(error_msg)
    return size


# ---- image helpers: a PIL image, or a tensor whose last two dimensions are (H, W) ----------------------------

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


def _crop(img: Image.Image | Tensor, top: int, left: int, height: int, width: int) -> Image.Image | Tensor:
    if isinstance(img, Image.Image):
        return img.crop((left, top, left + width, top + height))
    return img[..., top:top + height, left:left + width]


def _hflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return img.flip(-1)


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


# ---- transforms ----------------------------------------------------------------------------------------------

class Compose:
    """Apply ``transforms`` one after the other."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        self.transforms = transforms

    def __call__(self, img: Any) -> Any:
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class ToTensor:
    """PIL image or HWC ndarray -> CHW tensor; uint8 data (and 8-bit PIL modes) scaled to float in [0, 1]."""

    def __call__(self, pic: Image.Image | np.ndarray) -> Tensor:
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

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class PILToTensor:
    """PIL image -> CHW tensor of the same dtype (uint8 for 8-bit images), values unchanged."""

    def __call__(self, pic: Image.Image) -> Tensor:
        if not isinstance(pic, Image.Image):
            raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
        arr = np.array(pic).reshape(pic.height, pic.width, len(pic.getbands()))
        return minitorch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Normalize:
    """``(x - mean[c]) / std[c]`` for each channel ``c`` of a float tensor (..., C, H, W)."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> None:
        self.mean = mean
        self.std = std
        self.inplace = inplace

    def __call__(self, tensor: Tensor) -> Tensor:
        if not isinstance(tensor, Tensor):
            raise TypeError(f"img should be Tensor Image. Got {type(tensor)}")
        _check_image(tensor)
        if not tensor.is_floating_point():
            raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
        if tensor.ndim < 3:
            raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                             f"{tensor.size()}")
        if not self.inplace:
            tensor = tensor.clone()
        mean = minitorch.as_tensor(self.mean, dtype=tensor.dtype)
        std = minitorch.as_tensor(self.std, dtype=tensor.dtype)
        if (std == 0).any():
            raise ValueError(f"std evaluated to zero after conversion to {tensor.dtype}, leading to division by zero.")
        if mean.ndim == 1:
            mean = mean.view(-1, 1, 1)
        if std.ndim == 1:
            std = std.view(-1, 1, 1)
        return tensor.sub_(mean).div_(std)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


class Resize:
    """Resize to ``size``: an int matches the shorter edge (aspect ratio kept), ``(h, w)`` is exact.

    PIL images use Pillow's filters (always antialiased); tensors (..., H, W) are resized the same way.
    """

    def __init__(self, size: int | Sequence[int], interpolation: InterpolationMode | int = InterpolationMode.BILINEAR,
                 max_size: int | None = None, antialias: bool | None = True) -> None:
        if not isinstance(size, (int, Sequence)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        if isinstance(size, Sequence) and len(size) not in (1, 2):
            raise ValueError("If size is a sequence, it should have 1 or 2 values")
        self.size = size
        self.max_size = max_size
        self.interpolation = _interpolation_mode(interpolation)
        self.antialias = antialias

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        return _resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(size={self.size}, interpolation={self.interpolation.value}, "
                f"max_size={self.max_size}, antialias={self.antialias})")


class CenterCrop:
    """Crop the centre ``size`` (int: square); an image smaller than that is zero-padded first."""

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        return _center_crop(img, self.size)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size})"


class RandomCrop:
    """Crop a random ``size`` window, after optional ``padding`` (and padding up to ``size`` if ``pad_if_needed``)."""

    def __init__(self, size: int | Sequence[int], padding: int | Sequence[int] | None = None,
                 pad_if_needed: bool = False, fill: float | Sequence[float] = 0,
                 padding_mode: str = "constant") -> None:
        self.size = tuple(_setup_size(size, error_msg="Please provide only two dimensions (h, w) for size."))
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    @staticmethod
    def get_params(img: Image.Image | Tensor, output_size: tuple[int, int]) -> tuple[int, int, int, int]:
        """A random window ``(top, left, height, width)`` of ``output_size`` inside ``img``."""
        h, w = _image_size(img)
        th, tw = output_size
        if h < th or w < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger than input image size {(h, w)}")
        if w == tw and h == th:
            return 0, 0, h, w
        return _randint(0, h - th + 1), _randint(0, w - tw + 1), th, tw

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        if self.padding is not None:
            img = _pad(img, self.padding, self.fill, self.padding_mode)
        height, width = _image_size(img)
        if self.pad_if_needed and width < self.size[1]:
            img = _pad(img, [self.size[1] - width, 0], self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = _pad(img, [0, self.size[0] - height], self.fill, self.padding_mode)
        return _crop(img, *self.get_params(img, self.size))

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size}, padding={self.padding})"


class RandomResizedCrop:
    """Crop a random area (``scale`` of the image) of random aspect ratio (``ratio``), resized to ``size``."""

    def __init__(self, size: int | Sequence[int], scale: tuple[float, float] = (0.08, 1.0),
                 ratio: tuple[float, float] = (3.0 / 4.0, 4.0 / 3.0),
                 interpolation: InterpolationMode | int = InterpolationMode.BILINEAR,
                 antialias: bool | None = True) -> None:
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        if not isinstance(scale, Sequence):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, Sequence):
            raise TypeError("Ratio should be a sequence")
        if scale[0] > scale[1] or ratio[0] > ratio[1]:
            warnings.warn("Scale and ratio should be of kind (min, max)")
        self.interpolation = _interpolation_mode(interpolation)
        self.antialias = antialias
        self.scale = scale
        self.ratio = ratio

    @staticmethod
    def get_params(img: Image.Image | Tensor, scale: Sequence[float],
                   ratio: Sequence[float]) -> tuple[int, int, int, int]:
        """torchvision's sampling: up to 10 tries of (area, log-uniform ratio), else a central crop."""
        height, width = _image_size(img)
        area = height * width
        log_ratio = _log_ratio(ratio)
        for _ in range(10):
            target_area, aspect_ratio = _random_area_and_ratio(area, scale, log_ratio)
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                return _randint(0, height - h + 1), _randint(0, width - w + 1), h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w, h = width, int(round(width / min(ratio)))
        elif in_ratio > max(ratio):
            w, h = int(round(height * max(ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        img = _crop(img, *self.get_params(img, self.scale, self.ratio))
        return _resize(img, list(self.size), self.interpolation, antialias=self.antialias)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(size={self.size}, scale={tuple(round(s, 4) for s in self.scale)}, "
                f"ratio={tuple(round(r, 4) for r in self.ratio)}, interpolation={self.interpolation.value}, "
                f"antialias={self.antialias})")


class _RandomlyApplied:
    """Apply ``self._apply(img)`` with probability ``p``."""

    # torchvision tests ``torch.rand(1) < p`` (in float32) here, ``torch.rand(1).item() < p`` (in float64) in the
    # transforms that came with the PIL-style functions (RandomInvert and the others that set this False)
    _float32_test = True

    def __init__(self, p: float = 0.5) -> None:
        self.p = p

    def _apply(self, img: Any) -> Any:
        raise NotImplementedError

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        applied = _rand_below(self.p) if self._float32_test else _rand() < self.p
        if applied:
            return self._apply(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


class RandomHorizontalFlip(_RandomlyApplied):
    """Mirror left-right with probability ``p``."""

    def _apply(self, img: Any) -> Any:
        return _hflip(img)


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


class ColorJitter:
    """Random brightness, contrast, saturation and hue changes, applied in a random order (PIL images).

    Each argument is a number ``x`` (factor drawn from ``[max(0, 1 - x), 1 + x]``, hue from ``[-x, x]``)
    or a ``(min, max)`` pair.
    """

    def __init__(self, brightness: float | Sequence[float] = 0, contrast: float | Sequence[float] = 0,
                 saturation: float | Sequence[float] = 0, hue: float | Sequence[float] = 0) -> None:
        self.brightness = self._check_input(brightness, "brightness")
        self.contrast = self._check_input(contrast, "contrast")
        self.saturation = self._check_input(saturation, "saturation")
        self.hue = self._check_input(hue, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)

    @staticmethod
    def _check_input(value: float | Sequence[float], name: str, center: float = 1,
                     bound: tuple[float, float] = (0, float("inf")),
                     clip_first_on_zero: bool = True) -> tuple[float, float] | None:
        if isinstance(value, numbers.Number):
            if value < 0:
                raise ValueError(f"If {name} is a single number, it must be non negative.")
            value = [center - float(value), center + float(value)]
            if clip_first_on_zero:
                value[0] = max(value[0], 0.0)
        elif isinstance(value, (tuple, list)) and len(value) == 2:
            value = [float(value[0]), float(value[1])]
        else:
            raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}, but got {value}.")
        return None if value[0] == value[1] == center else tuple(value)

    @staticmethod
    def get_params(brightness: tuple[float, float] | None, contrast: tuple[float, float] | None,
                   saturation: tuple[float, float] | None,
                   hue: tuple[float, float] | None) -> tuple[Tensor, float | None, float | None, float | None,
                                                             float | None]:
        """The order of the four adjustments (``randperm(4)``) and their factors (None: that adjustment is off)."""
        fn_idx = minitorch.randperm(4)
        b, c, s, h = (None if r is None else _uniform(r[0], r[1]) for r in (brightness, contrast, saturation, hue))
        return fn_idx, b, c, s, h

    def __call__(self, img: Image.Image) -> Image.Image:
        # PIL only (tests/test_datasets.py pins the TypeError), although the adjust_* functions take tensors too
        if not isinstance(img, Image.Image):
            raise TypeError(f"img should be PIL Image. Got {type(img)}")
        adjustments = (adjust_brightness, adjust_contrast, adjust_saturation, adjust_hue)
        fn_idx, *factors = self.get_params(self.brightness, self.contrast, self.saturation, self.hue)
        for fn_id in fn_idx.tolist():
            if factors[fn_id] is not None:
                img = adjustments[fn_id](img, factors[fn_id])
        return img

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(brightness={self.brightness}, contrast={self.contrast}, "
                f"saturation={self.saturation}, hue={self.hue})")


class Lambda:
    """Apply a user function as a transform."""

    def __init__(self, lambd: Callable[[Any], Any]) -> None:
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img: Any) -> Any:
        return self.lambd(img)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


# ---- more helpers ----------------------------------------------------------------------------------------------

def _max_value(dtype: np.dtype) -> float:
    """The largest value of an image of this numpy dtype: 1.0 for floats, the type's maximum for integers."""
    return float(np.iinfo(dtype).max) if np.issubdtype(dtype, np.integer) else 1.0


def _from_float(out: np.ndarray, dtype: np.dtype) -> Tensor:
    """A float result back to ``dtype`` (integers rounded, as torchvision's tensor kernels do)."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        out = np.clip(np.round(out), info.min, info.max)
    return minitorch.from_numpy(np.ascontiguousarray(out.astype(dtype)))


def _num_channels(img: Image.Image | Tensor) -> int:
    _check_image(img)
    if isinstance(img, Image.Image):
        return len(img.getbands())
    return 1 if img.ndim == 2 else img.shape[-3]


def _vflip(img: Image.Image | Tensor) -> Image.Image | Tensor:
    _check_image(img)
    if isinstance(img, Image.Image):
        return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    return img.flip(-2)


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


def _tensor_fill(fill: float | Sequence[float] | None, channels: int) -> list[float] | None:
    if fill is None:
        return None
    if isinstance(fill, (int, float)):
        return [float(fill)] * channels
    return [float(f) for f in fill]


def _setup_angle(x: float | Sequence[float], name: str, req_sizes: Sequence[int] = (2,)) -> list[float]:
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes)
    return [float(d) for d in x]


def _check_sequence_input(x: Any, name: str, req_sizes: Sequence[int]) -> None:
    msg = req_sizes[0] if len(req_sizes) < 2 else " or ".join([str(s) for s in req_sizes])
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {msg}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be a sequence of length {msg}.")


def _gaussian_kernel1d(kernel_size: int, sigma: float) -> np.ndarray:
    half = (kernel_size - 1) * 0.5
    pdf = np.exp(-0.5 * (np.linspace(-half, half, kernel_size) / sigma) ** 2)
    return pdf / pdf.sum()


# ---- functional: torchvision.transforms.functional -------------------------------------------------------------

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
    return ToTensor()(pic)


def pil_to_tensor(pic: Image.Image) -> Tensor:
    return PILToTensor()(pic)


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
    return Normalize(mean, std, inplace)(tensor)


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


def _get_perspective_coeffs(startpoints: Sequence[Sequence[int]],
                            endpoints: Sequence[Sequence[int]]) -> list[float]:
    """The 8 coefficients mapping output (end) points to input (start) points, by least squares as torchvision."""
    a_matrix = np.zeros((2 * len(startpoints), 8), dtype=np.float64)
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a_matrix[2 * i] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a_matrix[2 * i + 1] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    b_matrix = np.asarray(startpoints, dtype=np.float64).reshape(-1)
    return np.linalg.lstsq(a_matrix, b_matrix, rcond=None)[0].astype(np.float32).tolist()


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


def _pixel_image(img: Image.Image | Tensor, need_uint8: bool = False) -> np.ndarray:
    _check_image(img)
    arr = img.numpy()
    if _num_channels(img) not in (1, 3):
        raise TypeError(f"Input image tensor permitted channel values are [1, 3], but found {_num_channels(img)}")
    if need_uint8 and arr.dtype != np.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    return arr


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


# ``from torchvision.transforms import functional as F``: the functions above live in this very module.
functional = sys.modules[__name__]


# ---- more transforms -------------------------------------------------------------------------------------------

class ToPILImage:
    """CHW tensor or HWC ndarray -> PIL image (see ``to_pil_image``)."""

    def __init__(self, mode: str | None = None) -> None:
        self.mode = mode

    def __call__(self, pic: Tensor | np.ndarray) -> Image.Image:
        return to_pil_image(pic, self.mode)

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + (f"mode={self.mode}" if self.mode is not None else "") + ")"


class ConvertImageDtype:
    """Convert a tensor image to ``dtype``, rescaling its values (see ``convert_image_dtype``)."""

    def __init__(self, dtype: minitorch.dtype) -> None:
        self.dtype = dtype

    def __call__(self, image: Tensor) -> Tensor:
        return convert_image_dtype(image, self.dtype)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class RandomVerticalFlip(_RandomlyApplied):
    """Mirror top-bottom with probability ``p``."""

    def _apply(self, img: Any) -> Any:
        return _vflip(img)


class Grayscale:
    """To grayscale, with 1 or 3 (identical) output channels."""

    def __init__(self, num_output_channels: int = 1) -> None:
        self.num_output_channels = num_output_channels

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        return _grayscale(img, self.num_output_channels)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(num_output_channels={self.num_output_channels})"


class RandomGrayscale(_RandomlyApplied):
    """To grayscale with probability ``p``, keeping the number of channels."""

    def __init__(self, p: float = 0.1) -> None:
        super().__init__(p)

    def _apply(self, img: Any) -> Any:
        return _grayscale(img, _num_channels(img))


class Pad:
    """Pad the borders (see ``pad``): ``padding_mode`` constant (``fill``), edge, reflect or symmetric."""

    def __init__(self, padding: int | Sequence[int], fill: float | Sequence[float] = 0,
                 padding_mode: str = "constant") -> None:
        if not isinstance(padding, (numbers.Number, tuple, list)):
            raise TypeError("Got inappropriate padding arg")
        if not isinstance(fill, (numbers.Number, tuple, list)):
            raise TypeError("Got inappropriate fill arg")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
        if isinstance(padding, Sequence) and len(padding) not in (1, 2, 4):
            raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element "
                             "tuple")
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        return _pad(img, self.padding, self.fill, self.padding_mode)

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(padding={self.padding}, fill={self.fill}, "
                f"padding_mode={self.padding_mode})")


class RandomRotation:
    """Rotate by an angle drawn uniformly from ``degrees`` (a number ``d``: ``[-d, d]``)."""

    def __init__(self, degrees: float | Sequence[float],
                 interpolation: InterpolationMode | int = InterpolationMode.NEAREST, expand: bool = False,
                 center: Sequence[int] | None = None, fill: float | Sequence[float] = 0) -> None:
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center
        self.interpolation = _interpolation_mode(interpolation)
        self.expand = expand
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill

    @staticmethod
    def get_params(degrees: Sequence[float]) -> float:
        return _uniform(float(degrees[0]), float(degrees[1]))

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        fill = _tensor_fill(self.fill, _num_channels(img)) if isinstance(img, Tensor) else self.fill
        angle = self.get_params(self.degrees)
        return rotate(img, angle, self.interpolation, self.expand, self.center, fill)

    def __repr__(self) -> str:
        s = f"{self.__class__.__name__}(degrees={self.degrees}, interpolation={self.interpolation.value}, "
        s += f"expand={self.expand}"
        s += f", center={self.center}" if self.center is not None else ""
        s += f", fill={self.fill}" if self.fill is not None else ""
        return s + ")"


class RandomAffine:
    """Random rotation (``degrees``), translation (fractions of width/height), scale and shear, size kept."""

    def __init__(self, degrees: float | Sequence[float], translate: Sequence[float] | None = None,
                 scale: Sequence[float] | None = None, shear: float | Sequence[float] | None = None,
                 interpolation: InterpolationMode | int = InterpolationMode.NEAREST,
                 fill: float | Sequence[float] = 0, center: Sequence[int] | None = None) -> None:
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if translate is not None:
            _check_sequence_input(translate, "translate", req_sizes=(2,))
            for t in translate:
                if not 0.0 <= t <= 1.0:
                    raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", req_sizes=(2,))
            for s in scale:
                if s <= 0:
                    raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = _setup_angle(shear, name="shear", req_sizes=(2, 4)) if shear is not None else None
        self.interpolation = _interpolation_mode(interpolation)
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center

    @staticmethod
    def get_params(degrees: Sequence[float], translate: Sequence[float] | None, scale_ranges: Sequence[float] | None,
                   shears: Sequence[float] | None,
                   img_size: Sequence[int]) -> tuple[float, tuple[int, int], float, tuple[float, float]]:
        """(angle, (tx, ty), scale, (shear_x, shear_y)); ``img_size`` is [width, height]."""
        angle = _uniform(float(degrees[0]), float(degrees[1]))
        if translate is not None:
            max_dx, max_dy = float(translate[0] * img_size[0]), float(translate[1] * img_size[1])
            translations = (int(round(_uniform(-max_dx, max_dx))), int(round(_uniform(-max_dy, max_dy))))
        else:
            translations = (0, 0)
        scale = _uniform(scale_ranges[0], scale_ranges[1]) if scale_ranges is not None else 1.0
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = _uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = _uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        fill = _tensor_fill(self.fill, _num_channels(img)) if isinstance(img, Tensor) else self.fill
        height, width = _image_size(img)
        params = self.get_params(self.degrees, self.translate, self.scale, self.shear, [width, height])
        return affine(img, *params, interpolation=self.interpolation, fill=fill, center=self.center)

    def __repr__(self) -> str:
        s = f"{self.__class__.__name__}(degrees={self.degrees}"
        s += f", translate={self.translate}" if self.translate is not None else ""
        s += f", scale={self.scale}" if self.scale is not None else ""
        s += f", shear={self.shear}" if self.shear is not None else ""
        s += f", interpolation={self.interpolation.value}" if self.interpolation != InterpolationMode.NEAREST else ""
        s += f", fill={self.fill}" if self.fill != 0 else ""
        s += f", center={self.center}" if self.center is not None else ""
        return s + ")"


class GaussianBlur:
    """Gaussian blur with ``kernel_size`` and a sigma drawn uniformly from ``sigma`` (min, max)."""

    def __init__(self, kernel_size: int | Sequence[int], sigma: float | Sequence[float] = (0.1, 2.0)) -> None:
        self.kernel_size = _setup_size(kernel_size, "Kernel size should be a tuple/list of two integers")
        for ks in self.kernel_size:
            if ks <= 0 or ks % 2 == 0:
                raise ValueError("Kernel size value should be an odd and positive number.")
        if isinstance(sigma, numbers.Number):
            if sigma <= 0:
                raise ValueError("If sigma is a single number, it must be positive.")
            sigma = (sigma, sigma)
        elif isinstance(sigma, Sequence) and len(sigma) == 2:
            if not 0.0 < sigma[0] <= sigma[1]:
                raise ValueError("sigma values should be positive and of the form (min, max).")
        else:
            raise ValueError("sigma should be a single number or a list/tuple with length 2.")
        self.sigma = sigma

    @staticmethod
    def get_params(sigma_min: float, sigma_max: float) -> float:
        return _uniform(sigma_min, sigma_max)

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        sigma = self.get_params(self.sigma[0], self.sigma[1])
        return gaussian_blur(img, self.kernel_size, [sigma, sigma])

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(kernel_size={self.kernel_size}, sigma={self.sigma})"


class RandomErasing:
    """With probability ``p``, erase a random rectangle (area ``scale``, aspect ``ratio``) of a tensor image.

    ``value``: a number, one per channel, or ``"random"`` (standard normal noise).
    """

    def __init__(self, p: float = 0.5, scale: Sequence[float] = (0.02, 0.33), ratio: Sequence[float] = (0.3, 3.3),
                 value: float | str | Sequence[float] = 0, inplace: bool = False) -> None:
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("Argument value should be either a number or str or a sequence")
        if isinstance(value, str) and value != "random":
            raise ValueError("If value is str, it should be 'random'")
        if not isinstance(scale, Sequence):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, Sequence):
            raise TypeError("Ratio should be a sequence")
        if scale[0] > scale[1] or ratio[0] > ratio[1]:
            warnings.warn("Scale and ratio should be of kind (min, max)")
        if scale[0] < 0 or scale[1] > 1:
            raise ValueError("Scale should be between 0 and 1")
        if p < 0 or p > 1:
            raise ValueError("Random erasing probability should be between 0 and 1")
        self.p = p
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    @staticmethod
    def get_params(img: Tensor, scale: Sequence[float], ratio: Sequence[float],
                   value: list[float] | None = None) -> tuple[int, int, int, int, Tensor]:
        """(top, left, height, width, values) of the rectangle; the whole image (and itself) after 10 misses."""
        img_c, img_h, img_w = img.shape[-3], img.shape[-2], img.shape[-1]
        area = img_h * img_w
        log_ratio = _log_ratio(ratio)
        for _ in range(10):
            erase_area, aspect_ratio = _random_area_and_ratio(area, scale, log_ratio)
            h = int(round(math.sqrt(erase_area * aspect_ratio)))
            w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if not (h < img_h and w < img_w):
                continue
            if value is None:
                v = minitorch.empty([img_c, h, w], dtype=minitorch.float32).normal_()
            else:
                v = minitorch.tensor(value, dtype=minitorch.float32)[:, None, None]
            return _randint(0, img_h - h + 1), _randint(0, img_w - w + 1), h, w, v
        return 0, 0, img_h, img_w, img

    def __call__(self, img: Tensor) -> Tensor:
        if _rand_below(self.p):
            if isinstance(self.value, (int, float)):
                value = [float(self.value)]
            elif isinstance(self.value, str):
                value = None
            else:
                value = [float(v) for v in self.value]
            if value is not None and len(value) not in (1, img.shape[-3]):
                raise ValueError("If value is a sequence, it should have either a single value or "
                                 f"{img.shape[-3]} (number of input channels)")
            x, y, h, w, v = self.get_params(img, scale=self.scale, ratio=self.ratio, value=value)
            return erase(img, x, y, h, w, v.to(img.dtype), self.inplace)
        return img

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(p={self.p}, scale={self.scale}, ratio={self.ratio}, "
                f"value={self.value}, inplace={self.inplace})")


class RandomTransforms:
    """Base of the transforms that apply a random selection of ``transforms``."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        self.transforms = transforms

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError()

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class RandomApply:
    """Apply all of ``transforms`` with probability ``p``, else none."""

    def __init__(self, transforms: Sequence[Callable], p: float = 0.5) -> None:
        self.transforms = transforms
        self.p = p

    def __call__(self, img: Any) -> Any:
        if np.float32(self.p) < np.float32(_rand()):  # torch.rand(1) compared in float32
            return img
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        return (self.__class__.__name__ + f"(\n    p={self.p}" + "".join(f"\n    {t}" for t in self.transforms)
                + "\n)")


class RandomOrder(RandomTransforms):
    """Apply ``transforms`` in a random order (shuffled with Python's ``random``, as in torchvision)."""

    def __call__(self, img: Any) -> Any:
        order = list(range(len(self.transforms)))
        random.shuffle(order)
        for i in order:
            img = self.transforms[i](img)
        return img


class RandomChoice(RandomTransforms):
    """Apply one of ``transforms``, picked with weights ``p`` (uniform by default) by Python's ``random.choices``."""

    def __init__(self, transforms: Sequence[Callable], p: Sequence[float] | None = None) -> None:
        super().__init__(transforms)
        if p is not None and not isinstance(p, Sequence):
            raise TypeError("Argument p should be a sequence")
        self.p = p

    def __call__(self, *args: Any) -> Any:
        t = random.choices(self.transforms, weights=self.p)[0]
        return t(*args)

    def __repr__(self) -> str:
        return f"{super().__repr__()}(p={self.p})"


class RandomInvert(_RandomlyApplied):
    """``invert`` with probability ``p``."""

    _float32_test = False

    def _apply(self, img: Any) -> Any:
        return invert(img)


class RandomAutocontrast(_RandomlyApplied):
    """``autocontrast`` with probability ``p``."""

    _float32_test = False

    def _apply(self, img: Any) -> Any:
        return autocontrast(img)


class RandomEqualize(_RandomlyApplied):
    """``equalize`` with probability ``p``."""

    _float32_test = False

    def _apply(self, img: Any) -> Any:
        return equalize(img)


class RandomPosterize(_RandomlyApplied):
    """``posterize`` to ``bits`` with probability ``p``."""

    _float32_test = False

    def __init__(self, bits: int, p: float = 0.5) -> None:
        super().__init__(p)
        self.bits = bits

    def _apply(self, img: Any) -> Any:
        return posterize(img, self.bits)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(bits={self.bits},p={self.p})"  # no space, as torchvision prints it


class RandomSolarize(_RandomlyApplied):
    """``solarize`` at ``threshold`` with probability ``p``."""

    _float32_test = False

    def __init__(self, threshold: float, p: float = 0.5) -> None:
        super().__init__(p)
        self.threshold = threshold

    def _apply(self, img: Any) -> Any:
        return solarize(img, self.threshold)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(threshold={self.threshold},p={self.p})"


class RandomAdjustSharpness(_RandomlyApplied):
    """``adjust_sharpness`` by ``sharpness_factor`` with probability ``p``."""

    _float32_test = False

    def __init__(self, sharpness_factor: float, p: float = 0.5) -> None:
        super().__init__(p)
        if sharpness_factor < 0:
            raise ValueError("sharpness_factor should be non-negative")
        self.sharpness_factor = sharpness_factor

    def _apply(self, img: Any) -> Any:
        return adjust_sharpness(img, self.sharpness_factor)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(sharpness_factor={self.sharpness_factor},p={self.p})"


class FiveCrop:
    """The four corner crops and the centre crop of ``size``, as a tuple."""

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def __call__(self, img: Image.Image | Tensor) -> tuple:
        return five_crop(img, self.size)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size})"


class TenCrop:
    """``FiveCrop`` of the image and of its mirror image (left-right, or top-bottom with ``vertical_flip``)."""

    def __init__(self, size: int | Sequence[int], vertical_flip: bool = False) -> None:
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        self.vertical_flip = vertical_flip

    def __call__(self, img: Image.Image | Tensor) -> tuple:
        return ten_crop(img, self.size, self.vertical_flip)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(size={self.size}, vertical_flip={self.vertical_flip})"


class RandomPerspective:
    """With probability ``p``, move each corner inwards by up to ``distortion_scale`` of half the size, and warp."""

    def __init__(self, distortion_scale: float = 0.5, p: float = 0.5,
                 interpolation: InterpolationMode | int = InterpolationMode.BILINEAR,
                 fill: float | Sequence[float] = 0) -> None:
        self.p = p
        self.interpolation = _interpolation_mode(interpolation)
        self.distortion_scale = distortion_scale
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill

    @staticmethod
    def get_params(width: int, height: int, distortion_scale: float) -> tuple[list[list[int]], list[list[int]]]:
        """(startpoints, endpoints): the image corners and their random inward displacements."""
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))
        topleft = [_randint(0, dx + 1), _randint(0, dy + 1)]
        topright = [_randint(width - dx - 1, width), _randint(0, dy + 1)]
        botright = [_randint(width - dx - 1, width), _randint(height - dy - 1, height)]
        botleft = [_randint(0, dx + 1), _randint(height - dy - 1, height)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        fill = _tensor_fill(self.fill, _num_channels(img)) if isinstance(img, Tensor) else self.fill
        if _rand_below(self.p):
            height, width = _image_size(img)
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return perspective(img, startpoints, endpoints, self.interpolation, fill)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"
