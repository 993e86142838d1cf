"""RandomErasing: a random rectangle of a tensor image overwritten with a value or noise."""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence

import minitorch
from minitorch import Tensor

from ._random import _log_ratio, _rand_below, _randint, _random_area_and_ratio
from .functional import erase


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
