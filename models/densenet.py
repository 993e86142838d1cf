"""DenseNet-BC (Huang et al., "Densely Connected Convolutional Networks", 2016) with torchvision's structure: the
same arguments, attribute names and state_dict keys (``features.denseblock1.denselayer1.norm1.weight``, ...), so
torchvision checkpoints load, those with the older ``norm.1``-style keys too.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

import minitorch
from minitorch import Tensor, nn
from minitorch.nn import functional as F

from ._api import WeightsEnum, _imagenet_weights, register_model
from ._utils import _ovewrite_named_param, handle_legacy_interface

__all__ = ["DenseNet", "DenseNet121_Weights", "DenseNet161_Weights", "DenseNet169_Weights", "DenseNet201_Weights",
           "densenet121", "densenet161", "densenet169", "densenet201"]


class _DenseLayer(nn.Module):
    """BN-ReLU-1x1 conv to ``bn_size * growth_rate`` channels over the concatenation of all earlier features, then
    BN-ReLU-3x3 conv to ``growth_rate`` new channels (dropped out with ``drop_rate`` in training).

    ``memory_efficient`` is kept for torchvision compatibility: minitorch has no activation checkpointing, so the
    bottleneck's activations are stored either way (the results are the same).
    """

    def __init__(self, num_input_features: int, growth_rate: int, bn_size: int, drop_rate: float,
                 memory_efficient: bool = False) -> None:
        super().__init__()
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv1 = nn.Conv2d(num_input_features, bn_size * growth_rate, kernel_size=1, stride=1, bias=False)
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.relu2 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(bn_size * growth_rate, growth_rate, kernel_size=3, stride=1, padding=1, bias=False)
        self.drop_rate = float(drop_rate)
        self.memory_efficient = memory_efficient

    def bn_function(self, inputs: list[Tensor]) -> Tensor:
        return self.conv1(self.relu1(self.norm1(minitorch.cat(inputs, 1))))

    def forward(self, input: Tensor | list[Tensor]) -> Tensor:
        prev_features = [input] if isinstance(input, Tensor) else input
        new_features = self.conv2(self.relu2(self.norm2(self.bn_function(prev_features))))
        if self.drop_rate > 0:
            new_features = F.dropout(new_features, p=self.drop_rate, training=self.training)
        return new_features


class _DenseBlock(nn.ModuleDict):
    """``num_layers`` dense layers (``denselayer1``, ...), each fed with the block's input and all earlier layers'
    outputs; the output is all of them concatenated."""

    _version = 2

    def __init__(self, num_layers: int, num_input_features: int, bn_size: int, growth_rate: int, drop_rate: float,
                 memory_efficient: bool = False) -> None:
        super().__init__()
        for i in range(num_layers):
            layer = _DenseLayer(num_input_features + i * growth_rate, growth_rate=growth_rate, bn_size=bn_size,
                                drop_rate=drop_rate, memory_efficient=memory_efficient)
            self.add_module(f"denselayer{i + 1}", layer)

    def forward(self, init_features: Tensor) -> Tensor:
        features = [init_features]
        for _, layer in self.items():
            features.append(layer(features))
        return minitorch.cat(features, 1)


class _Transition(nn.Sequential):
    """BN, ReLU, 1x1 conv to ``num_output_features``, 2x2/2 average pool: between dense blocks."""

    def __init__(self, num_input_features: int, num_output_features: int) -> None:
        super().__init__()
        self.norm = nn.BatchNorm2d(num_input_features)
        self.relu = nn.ReLU(inplace=True)
        self.conv = nn.Conv2d(num_input_features, num_output_features, kernel_size=1, stride=1, bias=False)
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)


class DenseNet(nn.Module):
    """``features``: a 7x7/2 stem convolution to ``num_init_features`` with BN, ReLU and a 3x3/2 max pool; dense
    blocks of ``block_config[i]`` layers, each adding ``growth_rate`` channels (bottlenecks of ``bn_size *
    growth_rate``), with transitions halving the channels and the size between them; a final BN (``norm5``).
    Then ReLU, global average pool and ``classifier``. ``drop_rate``: dropout after each dense layer."""

    def __init__(self, growth_rate: int = 32, block_config: tuple[int, int, int, int] = (6, 12, 24, 16),
                 num_init_features: int = 64, bn_size: int = 4, drop_rate: float = 0, num_classes: int = 1000,
                 memory_efficient: bool = False) -> None:
        super().__init__()
        self.features = nn.Sequential(OrderedDict([
            ("conv0", nn.Conv2d(3, num_init_features, kernel_size=7, stride=2, padding=3, bias=False)),
            ("norm0", nn.BatchNorm2d(num_init_features)),
            ("relu0", nn.ReLU(inplace=True)),
            ("pool0", nn.MaxPool2d(kernel_size=3, stride=2, padding=1)),
        ]))
        num_features = num_init_features
        for i, num_layers in enumerate(block_config):
            block = _DenseBlock(num_layers=num_layers, num_input_features=num_features, bn_size=bn_size,
                                growth_rate=growth_rate, drop_rate=drop_rate, memory_efficient=memory_efficient)
            self.features.add_module(f"denseblock{i + 1}", block)
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                self.features.add_module(f"transition{i + 1}", _Transition(num_features, num_features // 2))
                num_features //= 2
        self.features.add_module("norm5", nn.BatchNorm2d(num_features))
        self.classifier = nn.Linear(num_features, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.constant_(m.bias, 0)

    def forward(self, x: Tensor) -> Tensor:
        out = F.relu(self.features(x), inplace=True)
        out = minitorch.flatten(F.adaptive_avg_pool2d(out, (1, 1)), 1)
        return self.classifier(out)


# the checkpoints name a dense layer's modules ``norm.1``, ``conv.2``, ... (dots, which module names can no longer
# have): their keys are renamed to ``norm1``, ``conv2``, ...
_OLD_KEY = re.compile(r"^(.*denselayer\d+\.(?:norm|relu|conv))\.((?:[12])\.(?:weight|bias|running_mean|running_var))$")


def _densenet(growth_rate: int, block_config: tuple[int, int, int, int], num_init_features: int,
              weights: WeightsEnum | None, progress: bool, **kwargs: Any) -> DenseNet:
    state_dict = None
    if weights is not None:
        _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
        state_dict = weights.get_state_dict(progress=progress, check_hash=True)
        for key in list(state_dict):
            old = _OLD_KEY.match(key)
            if old:
                state_dict[old.group(1) + old.group(2)] = state_dict.pop(key)
    model = DenseNet(growth_rate, block_config, num_init_features, **kwargs)
    if state_dict is not None:
        model.load_state_dict(state_dict)
    return model


def _densenet_weights(file: str, num_params: int, accuracy: tuple[float, float], ops: float,
                      file_size: float) -> Any:
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", 256, accuracy, num_params=num_params,
                             min_size=(29, 29), recipe="https://github.com/pytorch/vision/pull/116", _ops=ops,
                             _file_size=file_size, _docs="These weights are ported from LuaTorch.")


class DenseNet121_Weights(WeightsEnum):
    IMAGENET1K_V1 = _densenet_weights("densenet121-a639ec97.pth", 7978856, (74.434, 91.972), 2.834, 30.845)
    DEFAULT = IMAGENET1K_V1


class DenseNet161_Weights(WeightsEnum):
    IMAGENET1K_V1 = _densenet_weights("densenet161-8d451a50.pth", 28681000, (77.138, 93.560), 7.728, 110.369)
    DEFAULT = IMAGENET1K_V1


class DenseNet169_Weights(WeightsEnum):
    IMAGENET1K_V1 = _densenet_weights("densenet169-b2777c0a.pth", 14149480, (75.600, 92.806), 3.36, 54.708)
    DEFAULT = IMAGENET1K_V1


class DenseNet201_Weights(WeightsEnum):
    IMAGENET1K_V1 = _densenet_weights("densenet201-c1103571.pth", 20013928, (76.896, 93.370), 4.291, 77.373)
    DEFAULT = IMAGENET1K_V1


# Builders: ``weights`` is a member of the builder's weights enum (or its name) or None; ``progress`` shows the
# download's progress; ``kwargs`` go to ``DenseNet`` (``num_classes``, ``drop_rate``, ``memory_efficient``, ...).

@register_model()
@handle_legacy_interface(weights=("pretrained", DenseNet121_Weights.IMAGENET1K_V1))
def densenet121(*, weights: DenseNet121_Weights | None = None, progress: bool = True, **kwargs: Any) -> DenseNet:
    """DenseNet-121: growth rate 32, blocks of 6, 12, 24, 16 layers (8.0M parameters at 1000 classes)."""
    weights = DenseNet121_Weights.verify(weights)
    return _densenet(32, (6, 12, 24, 16), 64, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", DenseNet161_Weights.IMAGENET1K_V1))
def densenet161(*, weights: DenseNet161_Weights | None = None, progress: bool = True, **kwargs: Any) -> DenseNet:
    """DenseNet-161: growth rate 48, a 96-channel stem, blocks of 6, 12, 36, 24 layers (28.7M parameters)."""
    weights = DenseNet161_Weights.verify(weights)
    return _densenet(48, (6, 12, 36, 24), 96, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", DenseNet169_Weights.IMAGENET1K_V1))
def densenet169(*, weights: DenseNet169_Weights | None = None, progress: bool = True, **kwargs: Any) -> DenseNet:
    """DenseNet-169: growth rate 32, blocks of 6, 12, 32, 32 layers (14.1M parameters)."""
    weights = DenseNet169_Weights.verify(weights)
    return _densenet(32, (6, 12, 32, 32), 64, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", DenseNet201_Weights.IMAGENET1K_V1))
def densenet201(*, weights: DenseNet201_Weights | None = None, progress: bool = True, **kwargs: Any) -> DenseNet:
    """DenseNet-201: growth rate 32, blocks of 6, 12, 48, 32 layers (20.0M parameters)."""
    weights = DenseNet201_Weights.verify(weights)
    return _densenet(32, (6, 12, 48, 32), 64, weights, progress, **kwargs)
