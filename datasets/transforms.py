"""Image transforms in torchvision's form (``torchvision.transforms`` v1) on PIL images and CHW tensors.

Random transforms draw from minitorch's global generator, so ``minitorch.manual_seed`` makes augmentation
reproducible (DataLoader workers reseed it per worker). The random numbers differ from torchvision's.
"""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

import numpy as np
from PIL import Image, ImageEnhance

import minitorch
from minitorch import Tensor

__all__ = ["CenterCrop", "ColorJitter", "Compose", "InterpolationMode", "Lambda", "Normalize", "PILToTensor",
           "RandomCrop", "RandomHorizontalFlip", "RandomResizedCrop", "Resize", "ToTensor"]


class InterpolationMode(Enum):
    """Interpolation methods, with torchvision's names and values."""

    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


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


def _rng() -> np.random.Generator:
    # Looked up at every draw: manual_seed replaces the numpy generator behind the default Generator.
    return minitorch.random.numpy_generator(None)


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
        rng = _rng()
        return int(rng.integers(0, h - th + 1)), int(rng.integers(0, w - tw + 1)), th, tw

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
        log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
        rng = _rng()
        for _ in range(10):
            target_area = area * rng.uniform(scale[0], scale[1])
            aspect_ratio = math.exp(rng.uniform(log_ratio[0], log_ratio[1]))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                return int(rng.integers(0, height - h + 1)), int(rng.integers(0, width - w + 1)), h, w
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


class RandomHorizontalFlip:
    """Mirror left-right with probability ``p``."""

    def __init__(self, p: float = 0.5) -> None:
        self.p = p

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        if _rng().random() < self.p:
            return _hflip(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"


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


# ColorJitter's adjustments, indexed as in torchvision: brightness, contrast, saturation, hue.
_ADJUSTMENTS = (lambda img, f: ImageEnhance.Brightness(img).enhance(f),
                lambda img, f: ImageEnhance.Contrast(img).enhance(f),
                lambda img, f: ImageEnhance.Color(img).enhance(f),
                _adjust_hue)


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
                   hue: tuple[float, float] | None) -> tuple[np.ndarray, float | None, float | None, float | None,
                                                             float | None]:
        """The order of the four adjustments and their factors (None: that adjustment is off)."""
        rng = _rng()
        fn_idx = rng.permutation(4)
        b, c, s, h = (None if r is None else float(rng.uniform(r[0], r[1]))
                      for r in (brightness, contrast, saturation, hue))
        return fn_idx, b, c, s, h

    def __call__(self, img: Image.Image) -> Image.Image:
        if not isinstance(img, Image.Image):
            raise TypeError(f"img should be PIL Image. Got {type(img)}")
        fn_idx, *factors = self.get_params(self.brightness, self.contrast, self.saturation, self.hue)
        for fn_id in fn_idx:
            if factors[fn_id] is not None:
                img = _ADJUSTMENTS[fn_id](img, factors[fn_id])
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
