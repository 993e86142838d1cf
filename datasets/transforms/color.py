"""Transforms of pixel values: ColorJitter, grayscale, Gaussian blur, invert, posterize, solarize, sharpness,
autocontrast and equalize."""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from PIL import Image

import minitorch
from minitorch import Tensor

from ._image import _num_channels, _setup_size
from ._random import _RandomlyApplied, _uniform
from .functional import (_grayscale, adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation,
                         adjust_sharpness, autocontrast, equalize, gaussian_blur, invert, posterize, solarize)


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
        # PIL only (tests/datasets/test_transforms.py pins the TypeError), although the adjust_* functions take tensors too
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
