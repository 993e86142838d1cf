"""MobileNetV3 (Howard et al., "Searching for MobileNetV3", 2019) with torchvision's structure: the same classes,
arguments, attribute names and state_dict keys (``features.0.0.weight``, ``features.1.block.0.0.weight``, ...,
``classifier.3.weight``), so torchvision checkpoints load."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn

from ._api import WeightsEnum, _imagenet_weights, new_recipe_docs
from ._utils import _build, _fixed, _init_convnet, _make_divisible, _registered_builder
from .ops.misc import Conv2dNormActivation, SqueezeExcitation as SElayer

__all__ = ["MobileNetV3", "MobileNet_V3_Large_Weights", "MobileNet_V3_Small_Weights", "mobilenet_v3_large",
           "mobilenet_v3_small"]


class InvertedResidualConfig:
    """One row of the paper's Tables 1 and 2; channel counts are scaled by ``width_mult`` and rounded to
    multiples of 8. ``activation`` is ``"HS"`` (hard swish) or ``"RE"`` (ReLU)."""

    def __init__(self, input_channels: int, kernel: int, expanded_channels: int, out_channels: int, use_se: bool,
                 activation: str, stride: int, dilation: int, width_mult: float) -> None:
        self.input_channels = self.adjust_channels(input_channels, width_mult)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, width_mult)
        self.out_channels = self.adjust_channels(out_channels, width_mult)
        self.use_se = use_se
        self.use_hs = activation == "HS"
        self.stride = stride
        self.dilation = dilation

    @staticmethod
    def adjust_channels(channels: int, width_mult: float) -> int:
        return _make_divisible(channels * width_mult, 8)


class InvertedResidual(nn.Module):
    """1x1 expansion (when the width changes), depthwise conv (dilated instead of strided when ``dilation > 1``),
    optional squeeze-and-excitation, linear 1x1 projection; a residual connection when the shapes agree."""

    def __init__(self, cnf: InvertedResidualConfig, norm_layer: Callable[..., nn.Module],
                 se_layer: Callable[..., nn.Module] = partial(SElayer, scale_activation=nn.Hardsigmoid)) -> None:
        super().__init__()
        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        activation_layer = nn.Hardswish if cnf.use_hs else nn.ReLU
        layers: list[nn.Module] = []
        if cnf.expanded_channels != cnf.input_channels:
            layers.append(Conv2dNormActivation(cnf.input_channels, cnf.expanded_channels, kernel_size=1,
                                               norm_layer=norm_layer, activation_layer=activation_layer))
        layers.append(Conv2dNormActivation(cnf.expanded_channels, cnf.expanded_channels, kernel_size=cnf.kernel,
                                           stride=1 if cnf.dilation > 1 else cnf.stride, dilation=cnf.dilation,
                                           groups=cnf.expanded_channels, norm_layer=norm_layer,
                                           activation_layer=activation_layer))
        if cnf.use_se:
            layers.append(se_layer(cnf.expanded_channels, _make_divisible(cnf.expanded_channels // 4, 8)))
        layers.append(Conv2dNormActivation(cnf.expanded_channels, cnf.out_channels, kernel_size=1,
                                           norm_layer=norm_layer, activation_layer=None))
        self.block = nn.Sequential(*layers)
        self.out_channels = cnf.out_channels
        self._is_cn = cnf.stride > 1

    def forward(self, input: Tensor) -> Tensor:
        result = self.block(input)
        if self.use_res_connect:
            result += input
        return result


class MobileNetV3(nn.Module):
    """``features``: a 3x3/2 hard-swish stem, the blocks of ``inverted_residual_setting`` and a 1x1 conv to six
    times the last block's width; then global average pool and ``classifier`` (Linear to ``last_channel``,
    Hardswish, Dropout(``dropout``), Linear to ``num_classes``). ``norm_layer`` defaults to BatchNorm2d with
    eps 0.001 and momentum 0.01."""

    def __init__(self, inverted_residual_setting: list[InvertedResidualConfig], last_channel: int,
                 num_classes: int = 1000, block: Callable[..., nn.Module] | None = None,
                 norm_layer: Callable[..., nn.Module] | None = None, dropout: float = 0.2, **kwargs: Any) -> None:
        super().__init__()
        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")
        if not (isinstance(inverted_residual_setting, Sequence)
                and all(isinstance(s, InvertedResidualConfig) for s in inverted_residual_setting)):
            raise TypeError("The inverted_residual_setting should be List[InvertedResidualConfig]")
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
        layers: list[nn.Module] = [Conv2dNormActivation(3, inverted_residual_setting[0].input_channels, kernel_size=3,
                                                        stride=2, norm_layer=norm_layer,
                                                        activation_layer=nn.Hardswish)]
        layers += [block(cnf, norm_layer) for cnf in inverted_residual_setting]
        lastconv_input_channels = inverted_residual_setting[-1].out_channels
        lastconv_output_channels = 6 * lastconv_input_channels
        layers.append(Conv2dNormActivation(lastconv_input_channels, lastconv_output_channels, kernel_size=1,
                                           norm_layer=norm_layer, activation_layer=nn.Hardswish))
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(nn.Linear(lastconv_output_channels, last_channel), nn.Hardswish(inplace=True),
                                        nn.Dropout(p=dropout, inplace=True), nn.Linear(last_channel, num_classes))
        _init_convnet(self, lambda w: nn.init.normal_(w, 0, 0.01))

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.avgpool(self.features(x))
        return self.classifier(minitorch.flatten(x, 1))

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


def _mobilenet_v3_conf(arch: str, width_mult: float = 1.0, reduced_tail: bool = False, dilated: bool = False,
                       **kwargs: Any) -> tuple[list[InvertedResidualConfig], int]:
    """The blocks and ``last_channel`` of ``arch``; ``reduced_tail`` halves the last stage's channels and
    ``dilated`` makes it dilated instead of strided."""
    div = 2 if reduced_tail else 1
    dil = 2 if dilated else 1
    bneck_conf = partial(InvertedResidualConfig, width_mult=width_mult)
    if arch == "mobilenet_v3_large":
        rows = [(16, 3, 16, 16, False, "RE", 1, 1), (16, 3, 64, 24, False, "RE", 2, 1),
                (24, 3, 72, 24, False, "RE", 1, 1), (24, 5, 72, 40, True, "RE", 2, 1),
                (40, 5, 120, 40, True, "RE", 1, 1), (40, 5, 120, 40, True, "RE", 1, 1),
                (40, 3, 240, 80, False, "HS", 2, 1), (80, 3, 200, 80, False, "HS", 1, 1),
                (80, 3, 184, 80, False, "HS", 1, 1), (80, 3, 184, 80, False, "HS", 1, 1),
                (80, 3, 480, 112, True, "HS", 1, 1), (112, 3, 672, 112, True, "HS", 1, 1),
                (112, 5, 672, 160 // div, True, "HS", 2, dil),
                (160 // div, 5, 960 // div, 160 // div, True, "HS", 1, dil),
                (160 // div, 5, 960 // div, 160 // div, True, "HS", 1, dil)]
        last_channel = 1280 // div
    elif arch == "mobilenet_v3_small":
        rows = [(16, 3, 16, 16, True, "RE", 2, 1), (16, 3, 72, 24, False, "RE", 2, 1),
                (24, 3, 88, 24, False, "RE", 1, 1), (24, 5, 96, 40, True, "HS", 2, 1),
                (40, 5, 240, 40, True, "HS", 1, 1), (40, 5, 240, 40, True, "HS", 1, 1),
                (40, 5, 120, 48, True, "HS", 1, 1), (48, 5, 144, 48, True, "HS", 1, 1),
                (48, 5, 288, 96 // div, True, "HS", 2, dil),
                (96 // div, 5, 576 // div, 96 // div, True, "HS", 1, dil),
                (96 // div, 5, 576 // div, 96 // div, True, "HS", 1, dil)]
        last_channel = 1024 // div
    else:
        raise ValueError(f"Unsupported model type {arch}")
    return [bneck_conf(*row) for row in rows], InvertedResidualConfig.adjust_channels(last_channel, width_mult)


_RECIPE = "https://github.com/pytorch/vision/tree/main/references/classification#mobilenetv3-large--small"


class MobileNet_V3_Large_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/mobilenet_v3_large-8738ca79.pth", 256, (74.042, 91.340),
        num_params=5483032, recipe=_RECIPE, _ops=0.217, _file_size=21.114,
        _docs="These weights were trained from scratch by using a simple training recipe.")
    IMAGENET1K_V2 = _imagenet_weights(
        "https://download.pytorch.org/models/mobilenet_v3_large-5c1a4163.pth", 232, (75.274, 92.566),
        num_params=5483032, recipe="https://github.com/pytorch/vision/issues/3995#new-recipe-with-reg-tuning",
        _ops=0.217, _file_size=21.107,
        _docs=new_recipe_docs("a modified version of ", "improve marginally upon the results of the original paper"))
    DEFAULT = IMAGENET1K_V2


class MobileNet_V3_Small_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/mobilenet_v3_small-047dcff4.pth", 256, (67.668, 87.402),
        num_params=2542856, recipe=_RECIPE, _ops=0.057, _file_size=9.829,
        _docs="These weights improve upon the results of the original paper by using a simple training recipe.")
    DEFAULT = IMAGENET1K_V1


def _mobilenet_v3(arch: str) -> Callable[..., MobileNetV3]:
    """What builds ``arch`` from ``(weights, progress, kwargs)``: ``width_mult``, ``reduced_tail`` and ``dilated``
    shape its blocks and stay in ``kwargs``, where MobileNetV3 ignores them."""
    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> MobileNetV3:
        setting, last_channel = _mobilenet_v3_conf(arch, **kwargs)
        return _build(_fixed(MobileNetV3, setting, last_channel), weights, progress, kwargs)
    return build


_DOC = ("MobileNetV3-{} ({} parameters). ``weights``: a ``{}`` (or its name) or None; ``kwargs``: ``width_mult``, "
        "``reduced_tail``, ``dilated`` and ``MobileNetV3``'s arguments.")
mobilenet_v3_large = _registered_builder("mobilenet_v3_large", MobileNet_V3_Large_Weights,
                                         _mobilenet_v3("mobilenet_v3_large"),
                                         _DOC.format("Large", "5.5M", "MobileNet_V3_Large_Weights"))
mobilenet_v3_small = _registered_builder("mobilenet_v3_small", MobileNet_V3_Small_Weights,
                                         _mobilenet_v3("mobilenet_v3_small"),
                                         _DOC.format("Small", "2.5M", "MobileNet_V3_Small_Weights"))
