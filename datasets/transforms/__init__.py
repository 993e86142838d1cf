"""Image transforms in torchvision's form (``torchvision.transforms`` v1) on PIL images and CHW tensors.

The classes are laid out by what they do (``geometry``, ``color``, ``conversion``, ``composition``, ``erasing``) over
the functional forms (``functional``, torchvision's ``transforms.functional``); every public name is here too.

Random transforms make torchvision's draws from minitorch's default generator, in torchvision's order and sizes
(``torch.rand(1)``, ``torch.randint(.., size=(1,))``, ``torch.empty(1).uniform_``, ``torch.randperm(4)``), so after
``minitorch.manual_seed(s)`` they take the same decisions and parameters as torchvision after ``torch.manual_seed(s)``.
RandomOrder and RandomChoice use Python's ``random`` module, as torchvision does. One known gap: torch takes the
float32 ``log``/``exp`` of the aspect ratio in RandomResizedCrop and RandomErasing from MKL's vector math, which is
not always correctly rounded; here they are correctly rounded (except for the logs of the default ratio bounds, which
are torch's). A one-ulp difference changes a crop only when a side lands within about 1e-5 of a rounding edge.
"""
from . import functional
from .color import (ColorJitter, GaussianBlur, Grayscale, RandomAdjustSharpness, RandomAutocontrast, RandomEqualize,
                    RandomGrayscale, RandomInvert, RandomPosterize, RandomSolarize)
from .composition import Compose, Lambda, RandomApply, RandomChoice, RandomOrder, RandomTransforms
from .conversion import ConvertImageDtype, Normalize, PILToTensor, ToPILImage, ToTensor
from .erasing import RandomErasing
from .functional import (InterpolationMode, adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation,
                         adjust_sharpness, affine, autocontrast, center_crop, convert_image_dtype, crop, equalize,
                         erase, five_crop, gaussian_blur, get_dimensions, get_image_num_channels, get_image_size,
                         hflip, invert, normalize, pad, perspective, pil_to_tensor, posterize, resize, resized_crop,
                         rgb_to_grayscale, rotate, solarize, ten_crop, to_grayscale, to_pil_image, to_tensor, vflip)
from .geometry import (CenterCrop, FiveCrop, Pad, RandomAffine, RandomCrop, RandomHorizontalFlip, RandomPerspective,
                       RandomResizedCrop, RandomRotation, RandomVerticalFlip, Resize, TenCrop)

__all__ = ["CenterCrop", "ColorJitter", "Compose", "ConvertImageDtype", "FiveCrop", "GaussianBlur", "Grayscale",
           "InterpolationMode", "Lambda", "Normalize", "PILToTensor", "Pad", "RandomAdjustSharpness", "RandomAffine",
           "RandomApply", "RandomAutocontrast", "RandomChoice", "RandomCrop", "RandomEqualize", "RandomErasing",
           "RandomGrayscale", "RandomHorizontalFlip", "RandomInvert", "RandomOrder", "RandomPerspective",
           "RandomPosterize", "RandomResizedCrop", "RandomRotation", "RandomSolarize", "RandomVerticalFlip",
           "Resize", "TenCrop", "ToPILImage", "ToTensor", "functional"]
