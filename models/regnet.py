"""RegNet (Radosavovic et al., "Designing Network Design Spaces", 2020) with torchvision's structure: the same
classes, arguments, attribute names and state_dict keys (``stem.0.weight``,
``trunk_output.block1.block1-0.f.a.0.weight``, ..., ``fc.weight``), so torchvision checkpoints load."""
from __future__ import annotations

import math
from collections import OrderedDict
from functools import partial
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn

from ._api import PAPER_RECIPE_DOCS, WeightsEnum, _imagenet_weights, _swag_weights, new_recipe_docs
from ._utils import _build, _fixed, _make_divisible, _registered_builder
from .ops.misc import Conv2dNormActivation, SqueezeExcitation

__all__ = ["RegNet", "RegNet_Y_400MF_Weights", "RegNet_Y_800MF_Weights", "RegNet_Y_1_6GF_Weights",
           "RegNet_Y_3_2GF_Weights", "RegNet_Y_8GF_Weights", "RegNet_Y_16GF_Weights", "RegNet_Y_32GF_Weights",
           "RegNet_Y_128GF_Weights", "RegNet_X_400MF_Weights", "RegNet_X_800MF_Weights", "RegNet_X_1_6GF_Weights",
           "RegNet_X_3_2GF_Weights", "RegNet_X_8GF_Weights", "RegNet_X_16GF_Weights", "RegNet_X_32GF_Weights",
           "regnet_y_400mf", "regnet_y_800mf", "regnet_y_1_6gf", "regnet_y_3_2gf", "regnet_y_8gf", "regnet_y_16gf",
           "regnet_y_32gf", "regnet_y_128gf", "regnet_x_400mf", "regnet_x_800mf", "regnet_x_1_6gf", "regnet_x_3_2gf",
           "regnet_x_8gf", "regnet_x_16gf", "regnet_x_32gf"]


class SimpleStemIN(Conv2dNormActivation):
    """The ImageNet stem: 3x3 conv with stride 2, norm, activation."""

    def __init__(self, width_in: int, width_out: int, norm_layer: Callable[..., nn.Module],
                 activation_layer: Callable[..., nn.Module]) -> None:
        super().__init__(width_in, width_out, kernel_size=3, stride=2, norm_layer=norm_layer,
                         activation_layer=activation_layer)


class BottleneckTransform(nn.Sequential):
    """``a``: 1x1 to the bottleneck width, ``b``: grouped 3x3 (``group_width`` channels per group) with
    ``stride``, ``se``: squeeze-and-excitation to ``se_ratio`` of the input width (RegNetY), ``c``: 1x1 out."""

    def __init__(self, width_in: int, width_out: int, stride: int, norm_layer: Callable[..., nn.Module],
                 activation_layer: Callable[..., nn.Module], group_width: int, bottleneck_multiplier: float,
                 se_ratio: float | None) -> None:
        layers: OrderedDict[str, nn.Module] = OrderedDict()
        w_b = int(round(width_out * bottleneck_multiplier))
        g = w_b // group_width
        layers["a"] = Conv2dNormActivation(width_in, w_b, kernel_size=1, stride=1, norm_layer=norm_layer,
                                           activation_layer=activation_layer)
        layers["b"] = Conv2dNormActivation(w_b, w_b, kernel_size=3, stride=stride, groups=g, norm_layer=norm_layer,
                                           activation_layer=activation_layer)
        if se_ratio:
            layers["se"] = SqueezeExcitation(input_channels=w_b, squeeze_channels=int(round(se_ratio * width_in)),
                                             activation=activation_layer)
        layers["c"] = Conv2dNormActivation(w_b, width_out, kernel_size=1, stride=1, norm_layer=norm_layer,
                                           activation_layer=None)
        super().__init__(layers)


class ResBottleneckBlock(nn.Module):
    """``activation(x + f(x))``, ``x`` projected by a 1x1 conv (``proj``) when the width or size changes."""

    def __init__(self, width_in: int, width_out: int, stride: int, norm_layer: Callable[..., nn.Module],
                 activation_layer: Callable[..., nn.Module], group_width: int = 1,
                 bottleneck_multiplier: float = 1.0, se_ratio: float | None = None) -> None:
        super().__init__()
        self.proj = None
        if width_in != width_out or stride != 1:
            self.proj = Conv2dNormActivation(width_in, width_out, kernel_size=1, stride=stride,
                                             norm_layer=norm_layer, activation_layer=None)
        self.f = BottleneckTransform(width_in, width_out, stride, norm_layer, activation_layer, group_width,
                                     bottleneck_multiplier, se_ratio)
        self.activation = activation_layer(inplace=True)

    def forward(self, x: Tensor) -> Tensor:
        x = (x if self.proj is None else self.proj(x)) + self.f(x)
        return self.activation(x)


class AnyStage(nn.Sequential):
    """``depth`` blocks of width ``width_out`` named ``block{stage_index}-{i}``, the first with ``stride``."""

    def __init__(self, width_in: int, width_out: int, stride: int, depth: int,
                 block_constructor: Callable[..., nn.Module], norm_layer: Callable[..., nn.Module],
                 activation_layer: Callable[..., nn.Module], group_width: int, bottleneck_multiplier: float,
                 se_ratio: float | None = None, stage_index: int = 0) -> None:
        super().__init__()
        for i in range(depth):
            block = block_constructor(width_in if i == 0 else width_out, width_out, stride if i == 0 else 1,
                                      norm_layer, activation_layer, group_width, bottleneck_multiplier, se_ratio)
            self.add_module(f"block{stage_index}-{i}", block)


class BlockParams:
    """Per-stage depths, widths, group widths, bottleneck multipliers and strides of a RegNet."""

    def __init__(self, depths: list[int], widths: list[int], group_widths: list[int],
                 bottleneck_multipliers: list[float], strides: list[int], se_ratio: float | None = None) -> None:
        self.depths = depths
        self.widths = widths
        self.group_widths = group_widths
        self.bottleneck_multipliers = bottleneck_multipliers
        self.strides = strides
        self.se_ratio = se_ratio

    @classmethod
    def from_init_params(cls, depth: int, w_0: int, w_a: float, w_m: float, group_width: int,
                         bottleneck_multiplier: float = 1.0, se_ratio: float | None = None,
                         **kwargs: Any) -> BlockParams:
        """The stages of the paper's quantized linear parametrisation: block ``j`` of ``depth`` has width
        ``w_0 * w_m ** round(log(1 + j * w_a / w_0) / log(w_m))`` rounded to a multiple of 8 (computed in float32,
        as torchvision does), and each run of equal widths is a stage of stride 2. ``kwargs`` are ignored."""
        quant, stride = 8, 2
        if w_a < 0 or w_0 <= 0 or w_m <= 1 or w_0 % 8 != 0:
            raise ValueError("Invalid RegNet settings")
        widths_cont = minitorch.arange(depth) * w_a + w_0
        block_capacity = minitorch.round(minitorch.log(widths_cont / w_0) / math.log(w_m))
        block_widths = (minitorch.round(minitorch.divide(w_0 * minitorch.pow(w_m, block_capacity), quant))
                        * quant).int().tolist()
        num_stages = len(set(block_widths))
        # a stage starts wherever the width changes (the sentinels 0 close the first and last stage)
        splits = [w != wp for w, wp in zip(block_widths + [0], [0] + block_widths)]
        stage_widths = [w for w, t in zip(block_widths, splits[:-1]) if t]
        stage_depths = minitorch.diff(minitorch.tensor([d for d, t in enumerate(splits) if t])).int().tolist()
        stage_widths, group_widths = cls._adjust_widths_groups_compatibilty(
            stage_widths, [bottleneck_multiplier] * num_stages, [group_width] * num_stages)
        return cls(depths=stage_depths, widths=stage_widths, group_widths=group_widths,
                   bottleneck_multipliers=[bottleneck_multiplier] * num_stages, strides=[stride] * num_stages,
                   se_ratio=se_ratio)

    def _get_expanded_params(self):
        return zip(self.widths, self.strides, self.depths, self.group_widths, self.bottleneck_multipliers)

    @staticmethod
    def _adjust_widths_groups_compatibilty(stage_widths: list[int], bottleneck_ratios: list[float],
                                           group_widths: list[int]) -> tuple[list[int], list[int]]:
        """Stage widths whose bottleneck widths are multiples of the group widths (capped at the bottleneck
        widths), and those group widths."""
        widths = [int(w * b) for w, b in zip(stage_widths, bottleneck_ratios)]
        group_widths_min = [min(g, w_bot) for g, w_bot in zip(group_widths, widths)]
        ws_bot = [_make_divisible(w_bot, g) for w_bot, g in zip(widths, group_widths_min)]
        stage_widths = [int(w_bot / b) for w_bot, b in zip(ws_bot, bottleneck_ratios)]
        return stage_widths, group_widths_min


class RegNet(nn.Module):
    """``stem`` (``stem_type``, default a 3x3/2 conv to ``stem_width``), ``trunk_output`` (one ``AnyStage``
    ``block{i}`` per stage of ``block_params``), global average pool, ``fc``."""

    def __init__(self, block_params: BlockParams, num_classes: int = 1000, stem_width: int = 32,
                 stem_type: Callable[..., nn.Module] | None = None, block_type: Callable[..., nn.Module] | None = None,
                 norm_layer: Callable[..., nn.Module] | None = None,
                 activation: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        stem_type = SimpleStemIN if stem_type is None else stem_type
        norm_layer = nn.BatchNorm2d if norm_layer is None else norm_layer
        block_type = ResBottleneckBlock if block_type is None else block_type
        activation = nn.ReLU if activation is None else activation
        self.stem = stem_type(3, stem_width, norm_layer, activation)
        current_width = stem_width
        blocks = []
        for i, (width_out, stride, depth, group_width, bottleneck_multiplier) in enumerate(
                block_params._get_expanded_params()):
            blocks.append((f"block{i + 1}", AnyStage(current_width, width_out, stride, depth, block_type, norm_layer,
                                                     activation, group_width, bottleneck_multiplier,
                                                     block_params.se_ratio, stage_index=i + 1)))
            current_width = width_out
        self.trunk_output = nn.Sequential(OrderedDict(blocks))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(in_features=current_width, out_features=num_classes)

        for m in self.modules():  # ResNet's initialisation
            if isinstance(m, nn.Conv2d):
                fan_out = m.kernel_size[0] * m.kernel_size[1] * m.out_channels
                nn.init.normal_(m.weight, mean=0.0, std=math.sqrt(2.0 / fan_out))
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, mean=0.0, std=0.01)
                nn.init.zeros_(m.bias)

    def forward(self, x: Tensor) -> Tensor:
        x = self.avgpool(self.trunk_output(self.stem(x)))
        return self.fc(x.flatten(start_dim=1))


_URL = "https://download.pytorch.org/models/"


def _v1(file: str, recipe: str, accuracy: tuple[float, float], num_params: int, ops: float, file_size: float):
    """An entry trained with the paper's recipe (``recipe``: the models' size class in torchvision's references)."""
    return _imagenet_weights(_URL + file, 256, accuracy, num_params=num_params, _ops=ops, _file_size=file_size,
                             recipe=f"https://github.com/pytorch/vision/tree/main/references/classification#{recipe}",
                             _docs=PAPER_RECIPE_DOCS)


def _v2(file: str, recipe: str, accuracy: tuple[float, float], num_params: int, ops: float, file_size: float):
    """An entry trained with torchvision's new recipe (``recipe``: its variant's anchor in issue 3995)."""
    return _imagenet_weights(_URL + file, 232, accuracy, num_params=num_params, _ops=ops, _file_size=file_size,
                             recipe=f"https://github.com/pytorch/vision/issues/3995#{recipe}",
                             _docs=new_recipe_docs("a modified version of "))


def _swag(file: str, linear: bool, accuracy: tuple[float, float], num_params: int, ops: float, file_size: float):
    return _swag_weights(_URL + file, 224 if linear else 384, accuracy, linear, num_params=num_params, _ops=ops,
                         _file_size=file_size)


class RegNet_Y_400MF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_400mf-c65dace8.pth", "small-models", (74.046, 91.716), 4344144, 0.402, 16.806)
    IMAGENET1K_V2 = _v2("regnet_y_400mf-e6988f5f.pth", "new-recipe", (75.804, 92.742), 4344144, 0.402, 16.806)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_800MF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_800mf-1b27b58c.pth", "small-models", (76.420, 93.136), 6432512, 0.834, 24.774)
    IMAGENET1K_V2 = _v2("regnet_y_800mf-58fc7688.pth", "new-recipe", (78.828, 94.502), 6432512, 0.834, 24.774)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_1_6GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_1_6gf-b11a554e.pth", "small-models", (77.950, 93.966), 11202430, 1.612, 43.152)
    IMAGENET1K_V2 = _v2("regnet_y_1_6gf-0d7bc02a.pth", "new-recipe", (80.876, 95.444), 11202430, 1.612, 43.152)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_3_2GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_3_2gf-b5a9779c.pth", "medium-models", (78.948, 94.576), 19436338, 3.176, 74.567)
    IMAGENET1K_V2 = _v2("regnet_y_3_2gf-9180c971.pth", "new-recipe", (81.982, 95.972), 19436338, 3.176, 74.567)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_8GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_8gf-d0d0e4a8.pth", "medium-models", (80.032, 95.048), 39381472, 8.473, 150.701)
    IMAGENET1K_V2 = _v2("regnet_y_8gf-dc2b1b54.pth", "new-recipe", (82.828, 96.330), 39381472, 8.473, 150.701)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_16GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_16gf-9e6ed7dd.pth", "large-models", (80.424, 95.240), 83590140, 15.912, 319.49)
    IMAGENET1K_V2 = _v2("regnet_y_16gf-3e4a00f9.pth", "new-recipe", (82.886, 96.328), 83590140, 15.912, 319.49)
    IMAGENET1K_SWAG_E2E_V1 = _swag("regnet_y_16gf_swag-43afe44d.pth", False, (86.012, 98.054), 83590140, 46.735,
                                   319.49)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("regnet_y_16gf_lc_swag-f3ec0043.pth", True, (83.976, 97.244), 83590140, 15.912,
                                      319.49)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_32GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_y_32gf-4dee3f7a.pth", "large-models", (80.878, 95.340), 145046770, 32.28, 554.076)
    IMAGENET1K_V2 = _v2("regnet_y_32gf-8db6d4b5.pth", "new-recipe", (83.368, 96.498), 145046770, 32.28, 554.076)
    IMAGENET1K_SWAG_E2E_V1 = _swag("regnet_y_32gf_swag-04fdfa75.pth", False, (86.838, 98.362), 145046770, 94.826,
                                   554.076)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("regnet_y_32gf_lc_swag-e1583746.pth", True, (84.622, 97.480), 145046770, 32.28,
                                      554.076)
    DEFAULT = IMAGENET1K_V2


class RegNet_Y_128GF_Weights(WeightsEnum):
    IMAGENET1K_SWAG_E2E_V1 = _swag("regnet_y_128gf_swag-c8ce3e52.pth", False, (88.228, 98.682), 644812894, 374.57,
                                   2461.564)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("regnet_y_128gf_lc_swag-cbe8ce12.pth", True, (86.068, 97.844), 644812894,
                                      127.518, 2461.564)
    DEFAULT = IMAGENET1K_SWAG_E2E_V1


class RegNet_X_400MF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_400mf-adf1edd5.pth", "small-models", (72.834, 90.950), 5495976, 0.414, 21.258)
    IMAGENET1K_V2 = _v2("regnet_x_400mf-62229a5f.pth", "new-recipe-with-fixres", (74.864, 92.322), 5495976, 0.414,
                        21.257)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_800MF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_800mf-ad17e45c.pth", "small-models", (75.212, 92.348), 7259656, 0.800, 27.945)
    IMAGENET1K_V2 = _v2("regnet_x_800mf-94a99ebd.pth", "new-recipe-with-fixres", (77.522, 93.826), 7259656, 0.800,
                        27.945)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_1_6GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_1_6gf-e3633e7f.pth", "small-models", (77.040, 93.440), 9190136, 1.603, 35.339)
    IMAGENET1K_V2 = _v2("regnet_x_1_6gf-a12f2b72.pth", "new-recipe-with-fixres", (79.668, 94.922), 9190136, 1.603,
                        35.339)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_3_2GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_3_2gf-f342aeae.pth", "medium-models", (78.364, 93.992), 15296552, 3.177, 58.756)
    IMAGENET1K_V2 = _v2("regnet_x_3_2gf-7071aa85.pth", "new-recipe", (81.196, 95.430), 15296552, 3.177, 58.756)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_8GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_8gf-03ceed89.pth", "medium-models", (79.344, 94.686), 39572648, 7.995, 151.456)
    IMAGENET1K_V2 = _v2("regnet_x_8gf-2b70d774.pth", "new-recipe", (81.682, 95.678), 39572648, 7.995, 151.456)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_16GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_16gf-2007eb11.pth", "medium-models", (80.058, 94.944), 54278536, 15.941, 207.627)
    IMAGENET1K_V2 = _v2("regnet_x_16gf-ba3796d7.pth", "new-recipe", (82.716, 96.196), 54278536, 15.941, 207.627)
    DEFAULT = IMAGENET1K_V2


class RegNet_X_32GF_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("regnet_x_32gf-9d47f8d0.pth", "large-models", (80.622, 95.248), 107811560, 31.736, 412.039)
    IMAGENET1K_V2 = _v2("regnet_x_32gf-6eb8fdc6.pth", "new-recipe", (83.014, 96.288), 107811560, 31.736, 412.039)
    DEFAULT = IMAGENET1K_V2


def _regnet(depth: int, w_0: int, w_a: float, w_m: float, group_width: int, se_ratio: float | None = None
            ) -> Callable[..., RegNet]:
    """What builds the RegNet of these ``BlockParams.from_init_params`` settings from ``(weights, progress,
    kwargs)``: ``kwargs`` go to both ``from_init_params`` and ``RegNet`` (``norm_layer`` defaults to BatchNorm2d
    with eps 1e-5 and momentum 0.1)."""
    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> RegNet:
        params = BlockParams.from_init_params(depth=depth, w_0=w_0, w_a=w_a, w_m=w_m, group_width=group_width,
                                              se_ratio=se_ratio, **kwargs)
        norm_layer = kwargs.pop("norm_layer", partial(nn.BatchNorm2d, eps=1e-05, momentum=0.1))
        return _build(_fixed(RegNet, params, norm_layer=norm_layer), weights, progress, kwargs)
    return build


def _builder(name: str, weights_enum: type[WeightsEnum], *settings: Any, se_ratio: float | None = None,
             legacy_weights: str | None = "IMAGENET1K_V1"):
    doc = (f"RegNet{name[7].upper()}_{name[9:].upper()} (``depth, w_0, w_a, w_m, group_width`` = {settings}). "
           f"``weights``: a ``{weights_enum.__name__}`` (or its name) or None; ``kwargs``: ``RegNet``'s arguments.")
    return _registered_builder(name, weights_enum, _regnet(*settings, se_ratio=se_ratio), doc, legacy_weights)


regnet_y_400mf = _builder("regnet_y_400mf", RegNet_Y_400MF_Weights, 16, 48, 27.89, 2.09, 8, se_ratio=0.25)
regnet_y_800mf = _builder("regnet_y_800mf", RegNet_Y_800MF_Weights, 14, 56, 38.84, 2.4, 16, se_ratio=0.25)
regnet_y_1_6gf = _builder("regnet_y_1_6gf", RegNet_Y_1_6GF_Weights, 27, 48, 20.71, 2.65, 24, se_ratio=0.25)
regnet_y_3_2gf = _builder("regnet_y_3_2gf", RegNet_Y_3_2GF_Weights, 21, 80, 42.63, 2.66, 24, se_ratio=0.25)
regnet_y_8gf = _builder("regnet_y_8gf", RegNet_Y_8GF_Weights, 17, 192, 76.82, 2.19, 56, se_ratio=0.25)
regnet_y_16gf = _builder("regnet_y_16gf", RegNet_Y_16GF_Weights, 18, 200, 106.23, 2.48, 112, se_ratio=0.25)
regnet_y_32gf = _builder("regnet_y_32gf", RegNet_Y_32GF_Weights, 20, 232, 115.89, 2.53, 232, se_ratio=0.25)
regnet_y_128gf = _builder("regnet_y_128gf", RegNet_Y_128GF_Weights, 27, 456, 160.83, 2.52, 264, se_ratio=0.25,
                          legacy_weights=None)
regnet_x_400mf = _builder("regnet_x_400mf", RegNet_X_400MF_Weights, 22, 24, 24.48, 2.54, 16)
regnet_x_800mf = _builder("regnet_x_800mf", RegNet_X_800MF_Weights, 16, 56, 35.73, 2.28, 16)
regnet_x_1_6gf = _builder("regnet_x_1_6gf", RegNet_X_1_6GF_Weights, 18, 80, 34.01, 2.25, 24)
regnet_x_3_2gf = _builder("regnet_x_3_2gf", RegNet_X_3_2GF_Weights, 25, 88, 26.31, 2.25, 48)
regnet_x_8gf = _builder("regnet_x_8gf", RegNet_X_8GF_Weights, 23, 80, 49.56, 2.88, 120)
regnet_x_16gf = _builder("regnet_x_16gf", RegNet_X_16GF_Weights, 22, 216, 55.59, 2.1, 128)
regnet_x_32gf = _builder("regnet_x_32gf", RegNet_X_32GF_Weights, 23, 320, 69.86, 2.0, 168)
