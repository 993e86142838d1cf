"""Conversions between PIL images, ndarrays and tensors, and of a tensor image's dtype and value scale:
ToTensor, PILToTensor, ToPILImage, ConvertImageDtype, Normalize."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

import minitorch
from minitorch import Tensor

from .functional import convert_image_dtype, normalize, pil_to_tensor, to_pil_image, to_tensor


class ToTensor:
    """PIL image or HWC ndarray -> CHW tensor, uint8 data scaled to [0, 1] (see ``to_tensor``)."""

    def __call__(self, pic: Image.Image | np.ndarray) -> Tensor:
        return to_tensor(pic)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class PILToTensor:
    """PIL image -> CHW tensor of the same dtype, values unchanged (see ``pil_to_tensor``)."""

    def __call__(self, pic: Image.Image) -> Tensor:
        return pil_to_tensor(pic)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


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


class Normalize:
    """``(x - mean[c]) / std[c]`` for each channel ``c`` of a float tensor (see ``normalize``)."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> None:
        self.mean = mean
        self.std = std
        self.inplace = inplace

    def __call__(self, tensor: Tensor) -> Tensor:
        return normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"
