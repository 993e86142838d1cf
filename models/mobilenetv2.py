"""MobileNetV2 (Sandler et al., "MobileNetV2: Inverted Residuals and Linear Bottlenecks", 2018) with
torchvision's structure: the same arguments, attribute names and state_dict keys (``features.0.0.weight``,
``features.1.conv.0.0.weight``, ..., ``classifier.1.weight``), so torchvision checkpoints load.
``cifar_mobilenet_v2`` is a narrow MobileNetV2 for 32x32 images that trains on a CPU in minutes.
"""
from __future__ import annotations

from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn

from ._api import PAPER_RECIPE_DOCS, WeightsEnum, _imagenet_weights, new_recipe_docs, _synthetic_weights, register_model
from .ops.misc import Conv2dNormActivation
from ._utils import _build, _init_convnet, _make_divisible, handle_legacy_interface

__all__ = ["MobileNetV2", "InvertedResidual", "MobileNet_V2_Weights", "Cifar_MobileNet_V2_Weights", "mobilenet_v2",
           "cifar_mobilenet_v2"]


class InvertedResidual(nn.Module):
    """1x1 expansion by ``expand_ratio`` (none at 1), 3x3 depthwise conv with ``stride``, linear 1x1 projection;
    a residual connection when the input and output shapes agree."""

    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: int,
                 norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        self.stride = stride
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = self.stride == 1 and inp == oup
        layers: list[nn.Module] = []
        if expand_ratio != 1:
            layers.append(Conv2dNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                               activation_layer=nn.ReLU6))
        layers += [Conv2dNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim,
                                        norm_layer=norm_layer, activation_layer=nn.ReLU6),
                   nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
                   norm_layer(oup)]
        self.conv = nn.Sequential(*layers)
        self.out_channels = oup
        self._is_cn = stride > 1

    def forward(self, x: Tensor) -> Tensor:
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    """``features``: a 3x3/2 conv stem, the inverted residual blocks of ``inverted_residual_setting``
    (rows ``[t, c, n, s]``: expansion, channels, repeats, first stride) and a 1x1 conv to ``last_channel``;
    then global average pool and ``classifier`` (Dropout(``dropout``), Linear). Channel counts are scaled by
    ``width_mult`` and rounded to multiples of ``round_nearest``."""

    def __init__(self, num_classes: int = 1000, width_mult: float = 1.0,
                 inverted_residual_setting: list[list[int]] | None = None, round_nearest: int = 8,
                 block: Callable[..., nn.Module] | None = None, norm_layer: Callable[..., nn.Module] | None = None,
                 dropout: float = 0.2) -> None:
        super().__init__()
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        input_channel = 32
        last_channel = 1280
        if inverted_residual_setting is None:
            inverted_residual_setting = [
                # t, c, n, s
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]
        # only the first row is checked, as in torchvision
        if len(inverted_residual_setting) == 0 or len(inverted_residual_setting[0]) != 4:
            raise ValueError(f"inverted_residual_setting should be non-empty or a 4-element list, got "
                             f"{inverted_residual_setting}")
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        # narrower models keep the full-width last layer
        self.last_channel = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features: list[nn.Module] = [Conv2dNormActivation(3, input_channel, stride=2, norm_layer=norm_layer,
                                                          activation_layer=nn.ReLU6)]
        for t, c, n, s in inverted_residual_setting:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                features.append(block(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t,
                                      norm_layer=norm_layer))
                input_channel = output_channel
        features.append(Conv2dNormActivation(input_channel, self.last_channel, kernel_size=1, norm_layer=norm_layer,
                                             activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout), nn.Linear(self.last_channel, num_classes))
        _init_convnet(self, lambda w: nn.init.normal_(w, 0, 0.01))

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.features(x)
        # not squeeze(): the batch may have one image
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = minitorch.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


# For 32x32 inputs: strides 1 (instead of 2) in the stem and the 24-channel stage, so the last
# feature map is 4x4 rather than 1x1 (total stride 8 instead of 32).
_CIFAR_SETTING = [[1, 16, 1, 1], [6, 24, 2, 1], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2],
                  [6, 320, 1, 1]]


def _cifar_mobilenet(num_classes: int = 10, width_mult: float = 0.35,
                     inverted_residual_setting: list[list[int]] | None = None, **kwargs: Any) -> MobileNetV2:
    model = MobileNetV2(num_classes, width_mult, inverted_residual_setting or _CIFAR_SETTING, **kwargs)
    model.features[0][0].stride = (1, 1)  # MobileNetV2 takes no argument for its stem's stride
    return model


class MobileNet_V2_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/mobilenet_v2-b0353104.pth", 256, (71.878, 90.286), num_params=3504872,
        recipe="https://github.com/pytorch/vision/tree/main/references/classification#mobilenetv2",
        _ops=0.301, _file_size=13.555, _docs=PAPER_RECIPE_DOCS)
    IMAGENET1K_V2 = _imagenet_weights(
        "https://download.pytorch.org/models/mobilenet_v2-7ebf99e0.pth", 232, (72.154, 90.822), num_params=3504872,
        recipe="https://github.com/pytorch/vision/issues/3995#new-recipe-with-reg-tuning",
        _ops=0.301, _file_size=13.598, _docs=new_recipe_docs("a modified version of "))
    SYNTHETIC_V1 = _synthetic_weights("mobilenet_v2", 48)
    DEFAULT = IMAGENET1K_V2


class Cifar_MobileNet_V2_Weights(WeightsEnum):
    SYNTHETIC_V1 = _synthetic_weights("cifar_mobilenet_v2", 32)
    DEFAULT = SYNTHETIC_V1


@register_model()
@handle_legacy_interface(weights=("pretrained", MobileNet_V2_Weights.IMAGENET1K_V1))
def mobilenet_v2(*, weights: MobileNet_V2_Weights | None = None, progress: bool = True,
                 **kwargs: Any) -> MobileNetV2:
    """MobileNetV2 (3.5M parameters at 1000 classes and width 1). ``weights``: a ``MobileNet_V2_Weights``
    (or its name) or None; ``progress`` is accepted for torchvision compatibility; ``kwargs`` go to
    ``MobileNetV2`` (``num_classes``, ``width_mult``, ``dropout``, ...)."""
    weights = MobileNet_V2_Weights.verify(weights)
    return _build(MobileNetV2, weights, progress, kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", Cifar_MobileNet_V2_Weights.DEFAULT))
def cifar_mobilenet_v2(*, weights: Cifar_MobileNet_V2_Weights | None = None, progress: bool = True,
                       **kwargs: Any) -> MobileNetV2:
    """A narrow MobileNetV2 for 32x32 images: ``width_mult=0.35``, stride 1 in the stem and the 24-channel
    stage (a 4x4 last feature map), 10 classes by default (0.41M parameters). A ``MobileNetV2`` with its usual
    state_dict keys; arguments as ``mobilenet_v2`` (``kwargs`` may change ``num_classes``, ``width_mult`` and
    ``inverted_residual_setting`` too)."""
    weights = Cifar_MobileNet_V2_Weights.verify(weights)
    return _build(_cifar_mobilenet, weights, progress, kwargs)
