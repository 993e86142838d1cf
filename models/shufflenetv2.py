"""ShuffleNet V2 (Ma et al., "ShuffleNet V2: Practical Guidelines for Efficient CNN Architecture Design", 2018)
with torchvision's structure: the same arguments, attribute names and state_dict keys (``conv1.0.weight``,
``stage2.0.branch1.0.weight``, ``fc.bias``, ...), so torchvision checkpoints load.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn

from ._api import WeightsEnum, _imagenet_weights, new_recipe_docs, register_model
from ._utils import _build, handle_legacy_interface

__all__ = ["ShuffleNetV2", "ShuffleNet_V2_X0_5_Weights", "ShuffleNet_V2_X1_0_Weights", "ShuffleNet_V2_X1_5_Weights",
           "ShuffleNet_V2_X2_0_Weights", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5",
           "shufflenet_v2_x2_0"]


def channel_shuffle(x: Tensor, groups: int) -> Tensor:
    """Interleave the channels of ``groups`` equal groups: (N, g * c, H, W) viewed as (N, g, c, H, W), transposed
    to (N, c, g, H, W)."""
    batchsize, num_channels, height, width = x.size()
    x = x.view(batchsize, groups, num_channels // groups, height, width)
    x = minitorch.transpose(x, 1, 2).contiguous()
    return x.view(batchsize, num_channels, height, width)


def _conv_bn(inp: int, oup: int, relu: bool) -> list[nn.Module]:
    """A 1x1 convolution without bias and a BatchNorm2d, then a ReLU when ``relu``."""
    layers = [nn.Conv2d(inp, oup, kernel_size=1, stride=1, padding=0, bias=False), nn.BatchNorm2d(oup)]
    return layers + [nn.ReLU(inplace=True)] if relu else layers


class InvertedResidual(nn.Module):
    """A ShuffleNet V2 unit. ``stride`` 1: half the channels pass through, the other half go through ``branch2``
    (1x1, 3x3 depthwise, 1x1); ``stride`` > 1: ``branch1`` (3x3 depthwise/``stride``, 1x1) and ``branch2`` both see
    the whole input. The halves are concatenated, then their channels shuffled."""

    def __init__(self, inp: int, oup: int, stride: int) -> None:
        super().__init__()
        if not (1 <= stride <= 3):
            raise ValueError("illegal stride value")
        self.stride = stride
        branch_features = oup // 2
        if (self.stride == 1) and (inp != branch_features << 1):
            raise ValueError(f"Invalid combination of stride {stride}, inp {inp} and oup {oup} values. If stride == 1 "
                             "then inp should be equal to oup // 2 << 1.")
        if self.stride > 1:
            self.branch1 = nn.Sequential(
                self.depthwise_conv(inp, inp, kernel_size=3, stride=self.stride, padding=1), nn.BatchNorm2d(inp),
                *_conv_bn(inp, branch_features, relu=True))
        else:
            self.branch1 = nn.Sequential()
        self.branch2 = nn.Sequential(
            *_conv_bn(inp if (self.stride > 1) else branch_features, branch_features, relu=True),
            self.depthwise_conv(branch_features, branch_features, kernel_size=3, stride=self.stride, padding=1),
            nn.BatchNorm2d(branch_features),
            *_conv_bn(branch_features, branch_features, relu=True))

    @staticmethod
    def depthwise_conv(i: int, o: int, kernel_size: int, stride: int = 1, padding: int = 0,
                       bias: bool = False) -> nn.Conv2d:
        return nn.Conv2d(i, o, kernel_size, stride, padding, bias=bias, groups=i)

    def forward(self, x: Tensor) -> Tensor:
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out = minitorch.cat((x1, self.branch2(x2)), dim=1)
        else:
            out = minitorch.cat((self.branch1(x), self.branch2(x)), dim=1)
        return channel_shuffle(out, 2)


class ShuffleNetV2(nn.Module):
    """``conv1`` (3x3/2 conv, BN, ReLU) and a 3x3/2 max pool; ``stage2``-``stage4`` of ``stages_repeats[i]`` units
    (the first with stride 2) to ``stages_out_channels[1:4]``; ``conv5`` (1x1 to ``stages_out_channels[4]``, BN,
    ReLU); global average pool and ``fc``. The layers keep PyTorch's default initialisation."""

    def __init__(self, stages_repeats: list[int], stages_out_channels: list[int], num_classes: int = 1000,
                 inverted_residual: Callable[..., nn.Module] = InvertedResidual) -> None:
        super().__init__()
        if len(stages_repeats) != 3:
            raise ValueError("expected stages_repeats as list of 3 positive ints")
        if len(stages_out_channels) != 5:
            raise ValueError("expected stages_out_channels as list of 5 positive ints")
        self._stage_out_channels = stages_out_channels
        input_channels = 3
        output_channels = self._stage_out_channels[0]
        self.conv1 = nn.Sequential(nn.Conv2d(input_channels, output_channels, 3, 2, 1, bias=False),
                                   nn.BatchNorm2d(output_channels), nn.ReLU(inplace=True))
        input_channels = output_channels
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        for i, (repeats, output_channels) in enumerate(zip(stages_repeats, self._stage_out_channels[1:]), start=2):
            units = [inverted_residual(input_channels, output_channels, 2)]
            units += [inverted_residual(output_channels, output_channels, 1) for _ in range(repeats - 1)]
            setattr(self, f"stage{i}", nn.Sequential(*units))
            input_channels = output_channels
        output_channels = self._stage_out_channels[-1]
        self.conv5 = nn.Sequential(*_conv_bn(input_channels, output_channels, relu=True))
        self.fc = nn.Linear(output_channels, num_classes)

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.maxpool(self.conv1(x))
        x = self.conv5(self.stage4(self.stage3(self.stage2(x))))
        return self.fc(x.mean([2, 3]))  # global average pool

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


def _shufflenet_weights(file: str, resize_size: int, num_params: int, accuracy: tuple[float, float], ops: float,
                        file_size: float) -> Any:
    """The original weights (resized from 256) were trained by ericsun99, the newer ones (232) by torchvision."""
    original = resize_size == 256
    docs = ("These weights were trained from scratch to reproduce closely the results of the paper." if original
            else new_recipe_docs(claim="were trained from scratch"))
    recipe = "https://github.com/ericsun99/Shufflenet-v2-Pytorch" if original else \
        "https://github.com/pytorch/vision/pull/5906"
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", resize_size, accuracy,
                             num_params=num_params,
                             recipe=recipe, _ops=ops, _file_size=file_size, _docs=docs)


class ShuffleNet_V2_X0_5_Weights(WeightsEnum):
    IMAGENET1K_V1 = _shufflenet_weights("shufflenetv2_x0.5-f707e7126e.pth", 256, 1366792, (60.552, 81.746), 0.04,
                                        5.282)
    DEFAULT = IMAGENET1K_V1


class ShuffleNet_V2_X1_0_Weights(WeightsEnum):
    IMAGENET1K_V1 = _shufflenet_weights("shufflenetv2_x1-5666bf0f80.pth", 256, 2278604, (69.362, 88.316), 0.145,
                                        8.791)
    DEFAULT = IMAGENET1K_V1


class ShuffleNet_V2_X1_5_Weights(WeightsEnum):
    IMAGENET1K_V1 = _shufflenet_weights("shufflenetv2_x1_5-3c479a10.pth", 232, 3503624, (72.996, 91.086), 0.296,
                                        13.557)
    DEFAULT = IMAGENET1K_V1


class ShuffleNet_V2_X2_0_Weights(WeightsEnum):
    IMAGENET1K_V1 = _shufflenet_weights("shufflenetv2_x2_0-8be3c8ee.pth", 232, 7393996, (76.230, 93.006), 0.583,
                                        28.433)
    DEFAULT = IMAGENET1K_V1


def _shufflenetv2(weights: WeightsEnum | None, progress: bool, *args: Any, **kwargs: Any) -> ShuffleNetV2:
    return _build(functools.partial(ShuffleNetV2, *args), weights, progress, kwargs)


# Builders: ``weights`` is a member of the builder's weights enum (or its name) or None; ``progress`` shows the
# download's progress; ``kwargs`` go to ``ShuffleNetV2`` (``num_classes``, ``inverted_residual``).

@register_model()
@handle_legacy_interface(weights=("pretrained", ShuffleNet_V2_X0_5_Weights.IMAGENET1K_V1))
def shufflenet_v2_x0_5(*, weights: ShuffleNet_V2_X0_5_Weights | None = None, progress: bool = True,
                       **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet V2 with 0.5x output channels (48, 96, 192 in the stages; 1.4M parameters at 1000 classes)."""
    weights = ShuffleNet_V2_X0_5_Weights.verify(weights)
    return _shufflenetv2(weights, progress, [4, 8, 4], [24, 48, 96, 192, 1024], **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ShuffleNet_V2_X1_0_Weights.IMAGENET1K_V1))
def shufflenet_v2_x1_0(*, weights: ShuffleNet_V2_X1_0_Weights | None = None, progress: bool = True,
                       **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet V2 with 1.0x output channels (116, 232, 464; 2.3M parameters)."""
    weights = ShuffleNet_V2_X1_0_Weights.verify(weights)
    return _shufflenetv2(weights, progress, [4, 8, 4], [24, 116, 232, 464, 1024], **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ShuffleNet_V2_X1_5_Weights.IMAGENET1K_V1))
def shufflenet_v2_x1_5(*, weights: ShuffleNet_V2_X1_5_Weights | None = None, progress: bool = True,
                       **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet V2 with 1.5x output channels (176, 352, 704; 3.5M parameters)."""
    weights = ShuffleNet_V2_X1_5_Weights.verify(weights)
    return _shufflenetv2(weights, progress, [4, 8, 4], [24, 176, 352, 704, 1024], **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ShuffleNet_V2_X2_0_Weights.IMAGENET1K_V1))
def shufflenet_v2_x2_0(*, weights: ShuffleNet_V2_X2_0_Weights | None = None, progress: bool = True,
                       **kwargs: Any) -> ShuffleNetV2:
    """ShuffleNet V2 with 2.0x output channels (244, 488, 976 and a 2048-channel conv5; 7.4M parameters)."""
    weights = ShuffleNet_V2_X2_0_Weights.verify(weights)
    return _shufflenetv2(weights, progress, [4, 8, 4], [24, 244, 488, 976, 2048], **kwargs)
