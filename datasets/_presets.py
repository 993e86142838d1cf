"""The evaluation preset of pretrained classifiers, as ``torchvision.transforms._presets``: what a weights
entry's ``transforms()`` returns."""
from __future__ import annotations

from typing import Sequence

from PIL import Image

import minitorch
from minitorch import Tensor, nn

from . import transforms as T

__all__ = ["ImageClassification"]


class ImageClassification(nn.Module):
    """Resize the smaller edge to ``resize_size``, center crop ``crop_size``, scale to [0, 1] floats and
    normalise by ``mean`` and ``std``: torchvision's ``ImageClassification`` preset."""

    def __init__(self, *, crop_size: int, resize_size: int = 256, mean: Sequence[float] = (0.485, 0.456, 0.406),
                 std: Sequence[float] = (0.229, 0.224, 0.225),
                 interpolation: T.InterpolationMode = T.InterpolationMode.BILINEAR,
                 antialias: bool | None = True) -> None:
        super().__init__()
        self.crop_size = [crop_size]
        self.resize_size = [resize_size]
        self.mean = list(mean)
        self.std = list(std)
        self.interpolation = interpolation
        self.antialias = antialias

    def forward(self, img: Image.Image | Tensor) -> Tensor:
        img = T.resize(img, self.resize_size, interpolation=self.interpolation, antialias=self.antialias)
        img = T.center_crop(img, self.crop_size)
        if not isinstance(img, Tensor):
            img = T.pil_to_tensor(img)
        img = T.convert_image_dtype(img, minitorch.float)
        return T.normalize(img, mean=self.mean, std=self.std)

    def __repr__(self) -> str:
        fields = (f"crop_size={self.crop_size}", f"resize_size={self.resize_size}", f"mean={self.mean}",
                  f"std={self.std}", f"interpolation={self.interpolation}")
        return f"{type(self).__name__}(" + "".join(f"\n    {field}" for field in fields) + "\n)"

    def describe(self) -> str:
        """What the preset does, in the words of torchvision's documentation of its weights."""
        return ("Accepts ``PIL.Image``, batched ``(B, C, H, W)`` and single ``(C, H, W)`` image ``torch.Tensor`` "
                f"objects. The images are resized to ``resize_size={self.resize_size}`` using "
                f"``interpolation={self.interpolation}``, followed by a central crop of "
                f"``crop_size={self.crop_size}``. Finally the values are first rescaled to ``[0.0, 1.0]`` and then "
                f"normalized using ``mean={self.mean}`` and ``std={self.std}``.")
