"""AlexNet in the form of Krizhevsky's "One weird trick for parallelizing convolutional neural networks" (2014),
with torchvision's structure: the same arguments, attribute names and state_dict keys (``features.0.weight``, ...,
``classifier.6.bias``), so torchvision checkpoints load.
"""
from __future__ import annotations

from typing import Any

import minitorch
from minitorch import Tensor, nn

from ._api import WeightsEnum, _imagenet_weights, register_model
from ._utils import _build, handle_legacy_interface

__all__ = ["AlexNet", "AlexNet_Weights", "alexnet"]

ALEXNET_VGG_RECIPE = "https://github.com/pytorch/vision/tree/main/references/classification#alexnet-and-vgg"


class AlexNet(nn.Module):
    """``features``: five convolutions (11x11/4, 5x5, three 3x3) with ReLUs and three 3x3/2 max pools; an adaptive
    average pool to 6x6; ``classifier``: Dropout, 9216 -> 4096, ReLU, Dropout, 4096 -> 4096, ReLU, 4096 -> classes."""

    def __init__(self, num_classes: int = 1000, dropout: float = 0.5) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=11, stride=4, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(64, 192, kernel_size=5, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(192, 384, kernel_size=3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(384, 256, kernel_size=3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(256, 256, kernel_size=3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout), nn.Linear(256 * 6 * 6, 4096), nn.ReLU(inplace=True),
            nn.Dropout(p=dropout), nn.Linear(4096, 4096), nn.ReLU(inplace=True),
            nn.Linear(4096, num_classes),
        )

    def forward(self, x: Tensor) -> Tensor:
        x = self.avgpool(self.features(x))
        return self.classifier(minitorch.flatten(x, 1))


class AlexNet_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/alexnet-owt-7be5be79.pth", 256, (56.522, 79.066), num_params=61100840,
        min_size=(63, 63), recipe=ALEXNET_VGG_RECIPE, _ops=0.714, _file_size=233.087,
        _docs="These weights reproduce closely the results of the paper using a simplified training recipe.")
    DEFAULT = IMAGENET1K_V1


@register_model()
@handle_legacy_interface(weights=("pretrained", AlexNet_Weights.IMAGENET1K_V1))
def alexnet(*, weights: AlexNet_Weights | None = None, progress: bool = True, **kwargs: Any) -> AlexNet:
    """AlexNet (61.1M parameters at 1000 classes). ``weights``: an ``AlexNet_Weights`` (or its name) or None;
    ``progress`` shows the download's progress; ``kwargs`` go to ``AlexNet`` (``num_classes``, ``dropout``)."""
    weights = AlexNet_Weights.verify(weights)
    return _build(AlexNet, weights, progress, kwargs)
