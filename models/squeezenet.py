"""SqueezeNet 1.0 (Iandola et al., "SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and <0.5MB model
size", 2016) and 1.1 (fewer computations, same accuracy), with torchvision's structure: the same arguments, attribute
names and state_dict keys (``features.3.squeeze.weight``, ``classifier.1.weight``, ...), so torchvision checkpoints
load.
"""
from __future__ import annotations

import functools
from typing import Any

import minitorch
from minitorch import Tensor, nn

from ._api import PAPER_RECIPE_DOCS, WeightsEnum, _imagenet_weights, register_model
from ._utils import _build, handle_legacy_interface

__all__ = ["SqueezeNet", "SqueezeNet1_0_Weights", "SqueezeNet1_1_Weights", "squeezenet1_0", "squeezenet1_1"]


class Fire(nn.Module):
    """A 1x1 ``squeeze`` convolution, then 1x1 and 3x3 ``expand`` convolutions side by side, concatenated; each
    convolution followed by a ReLU."""

    def __init__(self, inplanes: int, squeeze_planes: int, expand1x1_planes: int, expand3x3_planes: int) -> None:
        super().__init__()
        self.inplanes = inplanes
        self.squeeze = nn.Conv2d(inplanes, squeeze_planes, kernel_size=1)
        self.squeeze_activation = nn.ReLU(inplace=True)
        self.expand1x1 = nn.Conv2d(squeeze_planes, expand1x1_planes, kernel_size=1)
        self.expand1x1_activation = nn.ReLU(inplace=True)
        self.expand3x3 = nn.Conv2d(squeeze_planes, expand3x3_planes, kernel_size=3, padding=1)
        self.expand3x3_activation = nn.ReLU(inplace=True)

    def forward(self, x: Tensor) -> Tensor:
        x = self.squeeze_activation(self.squeeze(x))
        return minitorch.cat([self.expand1x1_activation(self.expand1x1(x)),
                              self.expand3x3_activation(self.expand3x3(x))], 1)


def _pool() -> nn.MaxPool2d:
    return nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True)


class SqueezeNet(nn.Module):
    """``features``: a strided stem convolution and Fire modules between 3x3/2 max pools (``version`` "1_0": a 7x7
    stem with 96 channels, pools after the stem, Fire 4 and Fire 8; "1_1": a 3x3 stem with 64 channels, pools after
    the stem, Fire 3 and Fire 5); ``classifier``: Dropout, a 1x1 convolution to the classes, ReLU, global average
    pool."""

    def __init__(self, version: str = "1_0", num_classes: int = 1000, dropout: float = 0.5) -> None:
        super().__init__()
        self.num_classes = num_classes
        if version == "1_0":
            self.features = nn.Sequential(
                nn.Conv2d(3, 96, kernel_size=7, stride=2), nn.ReLU(inplace=True), _pool(),
                Fire(96, 16, 64, 64), Fire(128, 16, 64, 64), Fire(128, 32, 128, 128), _pool(),
                Fire(256, 32, 128, 128), Fire(256, 48, 192, 192), Fire(384, 48, 192, 192), Fire(384, 64, 256, 256),
                _pool(), Fire(512, 64, 256, 256))
        elif version == "1_1":
            self.features = nn.Sequential(
                nn.Conv2d(3, 64, kernel_size=3, stride=2), nn.ReLU(inplace=True), _pool(),
                Fire(64, 16, 64, 64), Fire(128, 16, 64, 64), _pool(),
                Fire(128, 32, 128, 128), Fire(256, 32, 128, 128), _pool(),
                Fire(256, 48, 192, 192), Fire(384, 48, 192, 192), Fire(384, 64, 256, 256), Fire(512, 64, 256, 256))
        else:
            raise ValueError(f"Unsupported SqueezeNet version {version}: 1_0 or 1_1 expected")
        final_conv = nn.Conv2d(512, self.num_classes, kernel_size=1)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout), final_conv, nn.ReLU(inplace=True),
                                        nn.AdaptiveAvgPool2d((1, 1)))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                if m is final_conv:
                    nn.init.normal_(m.weight, mean=0.0, std=0.01)
                else:
                    nn.init.kaiming_uniform_(m.weight)
                if m.bias is not None:
                    nn.init.constant_(m.bias, 0)

    def forward(self, x: Tensor) -> Tensor:
        return minitorch.flatten(self.classifier(self.features(x)), 1)


def _squeezenet_weights(file: str, min_size: int, num_params: int, accuracy: tuple[float, float], ops: float,
                        file_size: float) -> Any:
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", 256, accuracy, num_params=num_params,
                             min_size=(min_size, min_size),
                             recipe="https://github.com/pytorch/vision/pull/49#issuecomment-277560717",
                             _ops=ops, _file_size=file_size, _docs=PAPER_RECIPE_DOCS)


class SqueezeNet1_0_Weights(WeightsEnum):
    IMAGENET1K_V1 = _squeezenet_weights("squeezenet1_0-b66bff10.pth", 21, 1248424, (58.092, 80.420), 0.819, 4.778)
    DEFAULT = IMAGENET1K_V1


class SqueezeNet1_1_Weights(WeightsEnum):
    IMAGENET1K_V1 = _squeezenet_weights("squeezenet1_1-b8a52dc0.pth", 17, 1235496, (58.178, 80.624), 0.349, 4.729)
    DEFAULT = IMAGENET1K_V1


@register_model()
@handle_legacy_interface(weights=("pretrained", SqueezeNet1_0_Weights.IMAGENET1K_V1))
def squeezenet1_0(*, weights: SqueezeNet1_0_Weights | None = None, progress: bool = True,
                  **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.0 (1.2M parameters at 1000 classes). ``weights``: a ``SqueezeNet1_0_Weights`` (or its name) or
    None; ``progress`` shows the download's progress; ``kwargs`` go to ``SqueezeNet`` (``num_classes``,
    ``dropout``)."""
    weights = SqueezeNet1_0_Weights.verify(weights)
    return _build(functools.partial(SqueezeNet, "1_0"), weights, progress, kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", SqueezeNet1_1_Weights.IMAGENET1K_V1))
def squeezenet1_1(*, weights: SqueezeNet1_1_Weights | None = None, progress: bool = True,
                  **kwargs: Any) -> SqueezeNet:
    """SqueezeNet 1.1: 2.4 times fewer computations than 1.0 at its accuracy; arguments as ``squeezenet1_0``."""
    weights = SqueezeNet1_1_Weights.verify(weights)
    return _build(functools.partial(SqueezeNet, "1_1"), weights, progress, kwargs)
