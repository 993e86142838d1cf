"""Transforms that move pixels: resizing, crops, flips, padding, rotation, affine and perspective warps."""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from typing import Any

from PIL import Image

from minitorch import Tensor

from ._image import InterpolationMode, _image_size, _interpolation_mode, _num_channels, _setup_size
from ._random import _log_ratio, _rand_below, _randint, _random_area_and_ratio, _RandomlyApplied, _uniform
from ._spatial import _center_crop, _crop, _hflip, _pad, _resize, _vflip
from .functional import affine, five_crop, perspective, rotate, ten_crop


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


def _tensor_fill(fill: float | Sequence[float] | None, channels: int) -> list[float] | None:
    if fill is None:
        return None
    if isinstance(fill, (int, float)):
        return [float(fill)] * channels
    return [float(f) for f in fill]


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


class RandomHorizontalFlip(_RandomlyApplied):
    """Mirror left-right with probability ``p``."""

    def _apply(self, img: Any) -> Any:
        return _hflip(img)


class RandomVerticalFlip(_RandomlyApplied):
    """Mirror top-bottom with probability ``p``."""

    def _apply(self, img: Any) -> Any:
        return _vflip(img)


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
