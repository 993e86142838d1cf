"""EfficientNet (Tan & Le, 2019) and EfficientNetV2 (Tan & Le, 2021) with torchvision's structure: the same
classes, arguments, attribute names and state_dict keys (``features.1.0.block.0.0.weight``, ...,
``classifier.1.weight``), so torchvision checkpoints load."""
from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn
from minitorch.datasets.transforms import InterpolationMode

from ._api import PORTED_DOCS, WeightsEnum, _imagenet_weights, new_recipe_docs
from ._utils import _build, _fixed, _init_convnet, _make_divisible, _registered_builder
from .ops.misc import Conv2dNormActivation, SqueezeExcitation
from .ops.stochastic_depth import StochasticDepth

__all__ = ["EfficientNet", "EfficientNet_B0_Weights", "EfficientNet_B1_Weights", "EfficientNet_B2_Weights",
           "EfficientNet_B3_Weights", "EfficientNet_B4_Weights", "EfficientNet_B5_Weights", "EfficientNet_B6_Weights",
           "EfficientNet_B7_Weights", "EfficientNet_V2_S_Weights", "EfficientNet_V2_M_Weights",
           "EfficientNet_V2_L_Weights", "efficientnet_b0", "efficientnet_b1", "efficientnet_b2", "efficientnet_b3",
           "efficientnet_b4", "efficientnet_b5", "efficientnet_b6", "efficientnet_b7", "efficientnet_v2_s",
           "efficientnet_v2_m", "efficientnet_v2_l"]


@dataclass
class _MBConvConfig:
    expand_ratio: float
    kernel: int
    stride: int
    input_channels: int
    out_channels: int
    num_layers: int
    block: Callable[..., nn.Module]

    @staticmethod
    def adjust_channels(channels: int, width_mult: float, min_value: int | None = None) -> int:
        return _make_divisible(channels * width_mult, 8, min_value)


class MBConvConfig(_MBConvConfig):
    """A stage of ``num_layers`` MBConv blocks (EfficientNet's Table 1, EfficientNetV2's Table 4), its widths
    scaled by ``width_mult`` (rounded to multiples of 8) and its depth by ``depth_mult`` (rounded up)."""

    def __init__(self, expand_ratio: float, kernel: int, stride: int, input_channels: int, out_channels: int,
                 num_layers: int, width_mult: float = 1.0, depth_mult: float = 1.0,
                 block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__(expand_ratio, kernel, stride, self.adjust_channels(input_channels, width_mult),
                         self.adjust_channels(out_channels, width_mult), self.adjust_depth(num_layers, depth_mult),
                         MBConv if block is None else block)

    @staticmethod
    def adjust_depth(num_layers: int, depth_mult: float) -> int:
        return int(math.ceil(num_layers * depth_mult))


class FusedMBConvConfig(_MBConvConfig):
    """A stage of ``num_layers`` FusedMBConv blocks (EfficientNetV2's Table 4)."""

    def __init__(self, expand_ratio: float, kernel: int, stride: int, input_channels: int, out_channels: int,
                 num_layers: int, block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__(expand_ratio, kernel, stride, input_channels, out_channels, num_layers,
                         FusedMBConv if block is None else block)


class _ResidualBlock(nn.Module):
    """``block``, plus the input (after stochastic depth on the branch) when stride 1 keeps the width."""

    def __init__(self, cnf: _MBConvConfig, stochastic_depth_prob: float, layers: list[nn.Module]) -> None:
        super().__init__()
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        self.block = nn.Sequential(*layers)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.out_channels = cnf.out_channels

    def forward(self, input: Tensor) -> Tensor:
        result = self.block(input)
        if self.use_res_connect:
            result = self.stochastic_depth(result)
            result += input
        return result


def _check_stride(cnf: _MBConvConfig) -> None:
    if not (1 <= cnf.stride <= 2):
        raise ValueError("illegal stride value")


class MBConv(_ResidualBlock):
    """1x1 expansion by ``expand_ratio`` (none at 1), depthwise conv, squeeze-and-excitation (to a quarter of the
    input width), linear 1x1 projection; SiLU activations."""

    def __init__(self, cnf: MBConvConfig, stochastic_depth_prob: float, norm_layer: Callable[..., nn.Module],
                 se_layer: Callable[..., nn.Module] = SqueezeExcitation) -> None:
        _check_stride(cnf)
        expanded = cnf.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        layers: list[nn.Module] = []
        if expanded != cnf.input_channels:
            layers.append(Conv2dNormActivation(cnf.input_channels, expanded, kernel_size=1, norm_layer=norm_layer,
                                               activation_layer=nn.SiLU))
        layers += [Conv2dNormActivation(expanded, expanded, kernel_size=cnf.kernel, stride=cnf.stride,
                                        groups=expanded, norm_layer=norm_layer, activation_layer=nn.SiLU),
                   se_layer(expanded, max(1, cnf.input_channels // 4), activation=partial(nn.SiLU, inplace=True)),
                   Conv2dNormActivation(expanded, cnf.out_channels, kernel_size=1, norm_layer=norm_layer,
                                        activation_layer=None)]
        super().__init__(cnf, stochastic_depth_prob, layers)


class FusedMBConv(_ResidualBlock):
    """A full ``kernel`` conv expanding by ``expand_ratio`` then a linear 1x1 projection, or (at ratio 1) a single
    ``kernel`` conv; SiLU activations."""

    def __init__(self, cnf: FusedMBConvConfig, stochastic_depth_prob: float,
                 norm_layer: Callable[..., nn.Module]) -> None:
        _check_stride(cnf)
        expanded = cnf.adjust_channels(cnf.input_channels, cnf.expand_ratio)
        if expanded != cnf.input_channels:
            layers = [Conv2dNormActivation(cnf.input_channels, expanded, kernel_size=cnf.kernel, stride=cnf.stride,
                                           norm_layer=norm_layer, activation_layer=nn.SiLU),
                      Conv2dNormActivation(expanded, cnf.out_channels, kernel_size=1, norm_layer=norm_layer,
                                           activation_layer=None)]
        else:
            layers = [Conv2dNormActivation(cnf.input_channels, cnf.out_channels, kernel_size=cnf.kernel,
                                           stride=cnf.stride, norm_layer=norm_layer, activation_layer=nn.SiLU)]
        super().__init__(cnf, stochastic_depth_prob, layers)


class EfficientNet(nn.Module):
    """``features``: a 3x3/2 SiLU stem, one Sequential per stage of ``inverted_residual_setting`` (stochastic depth
    growing linearly to ``stochastic_depth_prob`` over all blocks) and a 1x1 conv to ``last_channel`` (default
    four times the last stage's width); then global average pool and ``classifier`` (Dropout(``dropout``),
    Linear)."""

    def __init__(self, inverted_residual_setting: Sequence[MBConvConfig | FusedMBConvConfig], dropout: float,
                 stochastic_depth_prob: float = 0.2, num_classes: int = 1000,
                 norm_layer: Callable[..., nn.Module] | None = None, last_channel: int | None = None) -> None:
        super().__init__()
        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")
        if not (isinstance(inverted_residual_setting, Sequence)
                and all(isinstance(s, _MBConvConfig) for s in inverted_residual_setting)):
            raise TypeError("The inverted_residual_setting should be List[MBConvConfig]")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        layers: list[nn.Module] = [Conv2dNormActivation(3, inverted_residual_setting[0].input_channels, kernel_size=3,
                                                        stride=2, norm_layer=norm_layer, activation_layer=nn.SiLU)]
        total_stage_blocks = sum(cnf.num_layers for cnf in inverted_residual_setting)
        stage_block_id = 0
        for cnf in inverted_residual_setting:
            stage: list[nn.Module] = []
            for _ in range(cnf.num_layers):
                block_cnf = copy.copy(cnf)
                if stage:  # later blocks of a stage keep its width and size
                    block_cnf.input_channels = block_cnf.out_channels
                    block_cnf.stride = 1
                sd_prob = stochastic_depth_prob * float(stage_block_id) / total_stage_blocks
                stage.append(block_cnf.block(block_cnf, sd_prob, norm_layer))
                stage_block_id += 1
            layers.append(nn.Sequential(*stage))
        lastconv_input_channels = inverted_residual_setting[-1].out_channels
        lastconv_output_channels = last_channel if last_channel is not None else 4 * lastconv_input_channels
        layers.append(Conv2dNormActivation(lastconv_input_channels, lastconv_output_channels, kernel_size=1,
                                           norm_layer=norm_layer, activation_layer=nn.SiLU))
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout, inplace=True),
                                        nn.Linear(lastconv_output_channels, num_classes))
        _init_convnet(self, lambda w: nn.init.uniform_(w, -1.0 / math.sqrt(w.shape[0]), 1.0 / math.sqrt(w.shape[0])))

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.avgpool(self.features(x))
        return self.classifier(minitorch.flatten(x, 1))

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


def _efficientnet_conf(arch: str, **kwargs: Any
                       ) -> tuple[Sequence[MBConvConfig | FusedMBConvConfig], int | None]:
    """The stages and ``last_channel`` of ``arch``; B0-B7 take ``width_mult`` and ``depth_mult``."""
    if arch.startswith("efficientnet_b"):
        bneck_conf = partial(MBConvConfig, width_mult=kwargs.pop("width_mult"), depth_mult=kwargs.pop("depth_mult"))
        rows = [(1, 3, 1, 32, 16, 1), (6, 3, 2, 16, 24, 2), (6, 5, 2, 24, 40, 2), (6, 3, 2, 40, 80, 3),
                (6, 5, 1, 80, 112, 3), (6, 5, 2, 112, 192, 4), (6, 3, 1, 192, 320, 1)]
        return [bneck_conf(*row) for row in rows], None
    if arch.startswith("efficientnet_v2_s"):
        fused = [(1, 3, 1, 24, 24, 2), (4, 3, 2, 24, 48, 4), (4, 3, 2, 48, 64, 4)]
        plain = [(4, 3, 2, 64, 128, 6), (6, 3, 1, 128, 160, 9), (6, 3, 2, 160, 256, 15)]
    elif arch.startswith("efficientnet_v2_m"):
        fused = [(1, 3, 1, 24, 24, 3), (4, 3, 2, 24, 48, 5), (4, 3, 2, 48, 80, 5)]
        plain = [(4, 3, 2, 80, 160, 7), (6, 3, 1, 160, 176, 14), (6, 3, 2, 176, 304, 18), (6, 3, 1, 304, 512, 5)]
    elif arch.startswith("efficientnet_v2_l"):
        fused = [(1, 3, 1, 32, 32, 4), (4, 3, 2, 32, 64, 7), (4, 3, 2, 64, 96, 7)]
        plain = [(4, 3, 2, 96, 192, 10), (6, 3, 1, 192, 224, 19), (6, 3, 2, 224, 384, 25), (6, 3, 1, 384, 640, 7)]
    else:
        raise ValueError(f"Unsupported model type {arch}")
    return [FusedMBConvConfig(*row) for row in fused] + [MBConvConfig(*row) for row in plain], 1280


def _v1(url: str, crop_size: int, resize_size: int, accuracy: tuple[float, float], num_params: int, ops: float,
        file_size: float, **meta: Any):
    """An EfficientNet (B0-B7) ImageNet entry; by default ported weights evaluated with bicubic resizing."""
    meta = {"interpolation": InterpolationMode.BICUBIC, "_docs": PORTED_DOCS,
            "recipe": "https://github.com/pytorch/vision/tree/main/references/classification#efficientnet-v1", **meta}
    return _imagenet_weights(url, resize_size, accuracy, crop_size=crop_size, num_params=num_params, _ops=ops,
                             _file_size=file_size, **meta)


def _v2(url: str, size: int, accuracy: tuple[float, float], num_params: int, ops: float, file_size: float,
        **meta: Any):
    """An EfficientNetV2 ImageNet entry, resized and cropped to ``size``; by default trained with torchvision's
    recipe and evaluated with bilinear resizing."""
    meta = {"_docs": new_recipe_docs("a modified version of "), **meta}
    return _imagenet_weights(url, size, accuracy, crop_size=size, num_params=num_params, _ops=ops,
                             _file_size=file_size, min_size=(33, 33),
                             recipe="https://github.com/pytorch/vision/tree/main/references/classification"
                                    "#efficientnet-v2", **meta)


_URL = "https://download.pytorch.org/models/"


class EfficientNet_B0_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b0_rwightman-7f5810bc.pth", 224, 256, (77.692, 93.532), 5288548, 0.386,
                        20.451)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B1_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b1_rwightman-bac287d4.pth", 240, 256, (78.642, 94.186), 7794184, 0.687,
                        30.134)
    IMAGENET1K_V2 = _v1(_URL + "efficientnet_b1-c27df63c.pth", 240, 255, (79.838, 94.934), 7794184, 0.687, 30.136,
                        interpolation=InterpolationMode.BILINEAR, _docs=new_recipe_docs("a modified version of "),
                        recipe="https://github.com/pytorch/vision/issues/3995#new-recipe-with-lr-wd-crop-tuning")
    DEFAULT = IMAGENET1K_V2


class EfficientNet_B2_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b2_rwightman-c35c1473.pth", 288, 288, (80.608, 95.310), 9109994, 1.088,
                        35.174)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B3_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b3_rwightman-b3899882.pth", 300, 320, (82.008, 96.054), 12233232, 1.827,
                        47.184)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B4_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b4_rwightman-23ab8bcd.pth", 380, 384, (83.384, 96.594), 19341616, 4.394,
                        74.489)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B5_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b5_lukemelas-1a07897c.pth", 456, 456, (83.444, 96.628), 30389784, 10.266,
                        116.864)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B6_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b6_lukemelas-24a108a5.pth", 528, 528, (84.008, 96.916), 43040704, 19.068,
                        165.362)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_B7_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1(_URL + "efficientnet_b7_lukemelas-c5b4e57e.pth", 600, 600, (84.122, 96.908), 66347960, 37.746,
                        254.675)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_V2_S_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v2(_URL + "efficientnet_v2_s-dd5fe13b.pth", 384, (84.228, 96.878), 21458488, 8.366, 82.704)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_V2_M_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v2(_URL + "efficientnet_v2_m-dc08266a.pth", 480, (85.112, 97.156), 54139356, 24.582, 208.01)
    DEFAULT = IMAGENET1K_V1


class EfficientNet_V2_L_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v2(_URL + "efficientnet_v2_l-59c71312.pth", 480, (85.808, 97.788), 118515272, 56.08, 454.573,
                        interpolation=InterpolationMode.BICUBIC, mean=(0.5, 0.5, 0.5), std=(0.5, 0.5, 0.5),
                        _docs=PORTED_DOCS)
    DEFAULT = IMAGENET1K_V1


def _efficientnet(arch: str, dropout: float, **conf: Any) -> Callable[..., EfficientNet]:
    """What builds ``arch`` from ``(weights, progress, kwargs)``: ``conf`` has B0-B7's ``width_mult`` and
    ``depth_mult`` and, for B5-B7 and V2, the ``norm_layer`` given to EfficientNet besides ``kwargs``, which may
    change the default ``dropout``."""
    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> EfficientNet:
        fixed = {"norm_layer": conf["norm_layer"]} if "norm_layer" in conf else {}
        setting, last_channel = _efficientnet_conf(arch, **{k: v for k, v in conf.items() if k != "norm_layer"})
        factory = _fixed(EfficientNet, setting, kwargs.pop("dropout", dropout), last_channel=last_channel, **fixed)
        return _build(factory, weights, progress, kwargs)
    return build


def _builder(arch: str, weights_enum: type[WeightsEnum], dropout: float, params: str, **conf: Any):
    doc = (f"{arch} ({params} parameters). ``weights``: a ``{weights_enum.__name__}`` (or its name) or None; "
           f"``kwargs``: ``EfficientNet``'s arguments (``dropout`` defaults to {dropout}).")
    return _registered_builder(arch, weights_enum, _efficientnet(arch, dropout, **conf), doc)


_EPS_3 = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
_V2_NORM = partial(nn.BatchNorm2d, eps=1e-03)

efficientnet_b0 = _builder("efficientnet_b0", EfficientNet_B0_Weights, 0.2, "5.3M", width_mult=1.0, depth_mult=1.0)
efficientnet_b1 = _builder("efficientnet_b1", EfficientNet_B1_Weights, 0.2, "7.8M", width_mult=1.0, depth_mult=1.1)
efficientnet_b2 = _builder("efficientnet_b2", EfficientNet_B2_Weights, 0.3, "9.1M", width_mult=1.1, depth_mult=1.2)
efficientnet_b3 = _builder("efficientnet_b3", EfficientNet_B3_Weights, 0.3, "12.2M", width_mult=1.2, depth_mult=1.4)
efficientnet_b4 = _builder("efficientnet_b4", EfficientNet_B4_Weights, 0.4, "19.3M", width_mult=1.4, depth_mult=1.8)
efficientnet_b5 = _builder("efficientnet_b5", EfficientNet_B5_Weights, 0.4, "30.4M", width_mult=1.6, depth_mult=2.2,
                           norm_layer=_EPS_3)
efficientnet_b6 = _builder("efficientnet_b6", EfficientNet_B6_Weights, 0.5, "43.0M", width_mult=1.8, depth_mult=2.6,
                           norm_layer=_EPS_3)
efficientnet_b7 = _builder("efficientnet_b7", EfficientNet_B7_Weights, 0.5, "66.3M", width_mult=2.0, depth_mult=3.1,
                           norm_layer=_EPS_3)
efficientnet_v2_s = _builder("efficientnet_v2_s", EfficientNet_V2_S_Weights, 0.2, "21.5M", norm_layer=_V2_NORM)
efficientnet_v2_m = _builder("efficientnet_v2_m", EfficientNet_V2_M_Weights, 0.3, "54.1M", norm_layer=_V2_NORM)
efficientnet_v2_l = _builder("efficientnet_v2_l", EfficientNet_V2_L_Weights, 0.4, "118.5M", norm_layer=_V2_NORM)
