"""ResNet (He et al., "Deep Residual Learning for Image Recognition", 2015) with torchvision's structure.

``ResNet``, ``BasicBlock``, ``Bottleneck`` and the builders have torchvision's arguments, attribute
names and state_dict keys (the v1.5 Bottleneck, strided on its 3x3 conv), so torchvision checkpoints
load. ``CifarResNet`` / ``cifar_resnet20`` is the small ResNet of the paper's CIFAR-10 section, built
from the same ``BasicBlock``: it trains from scratch on a CPU in minutes.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn

from ._api import (PAPER_RECIPE_DOCS, Weights, WeightsEnum, _imagenet_weights, _synthetic_weights, new_recipe_docs,
                   register_model)
from ._utils import _build, _ovewrite_named_param, handle_legacy_interface

__all__ = ["ResNet", "BasicBlock", "Bottleneck", "CifarResNet", "ResNet18_Weights", "ResNet34_Weights",
           "ResNet50_Weights", "ResNet101_Weights", "ResNet152_Weights", "ResNeXt50_32X4D_Weights",
           "ResNeXt101_32X8D_Weights", "ResNeXt101_64X4D_Weights", "Wide_ResNet50_2_Weights",
           "Wide_ResNet101_2_Weights", "Cifar_ResNet20_Weights", "resnet18", "resnet34", "resnet50", "resnet101",
           "resnet152", "resnext50_32x4d", "resnext101_32x8d", "resnext101_64x4d", "wide_resnet50_2",
           "wide_resnet101_2", "cifar_resnet20"]


def conv3x3(in_planes: int, out_planes: int, stride: int = 1, groups: int = 1, dilation: int = 1) -> nn.Conv2d:
    """3x3 convolution with padding (that keeps the size at stride 1), without bias."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=dilation, groups=groups,
                     bias=False, dilation=dilation)


def conv1x1(in_planes: int, out_planes: int, stride: int = 1) -> nn.Conv2d:
    """1x1 convolution without bias."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    """Two 3x3 convolutions and a shortcut (ResNet-18/34)."""

    expansion: int = 1

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Module | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1,
                 norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        # conv1 and downsample both reduce the size when stride != 1
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class Bottleneck(nn.Module):
    """1x1 reduce, 3x3 (strided: ResNet v1.5), 1x1 expand by ``expansion`` = 4, and a shortcut (ResNet-50+)."""

    expansion: int = 4

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Module | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1,
                 norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        width = int(planes * (base_width / 64.0)) * groups
        # conv2 and downsample both reduce the size when stride != 1
        self.conv1 = conv1x1(inplanes, width)
        self.bn1 = norm_layer(width)
        self.conv2 = conv3x3(width, width, stride, groups, dilation)
        self.bn2 = norm_layer(width)
        self.conv3 = conv1x1(width, planes * self.expansion)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


def _init_weights(model: nn.Module, zero_init_residual: bool) -> None:
    """torchvision's ResNet initialisation: He-normal (fan_out) convs, unit norm layers and, with
    ``zero_init_residual``, a zero scale on each block's last norm so that blocks start as identities
    (Goyal et al., 2017: +0.2-0.3% accuracy)."""
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
            nn.init.constant_(m.weight, 1)
            nn.init.constant_(m.bias, 0)
    if zero_init_residual:
        for m in model.modules():
            if isinstance(m, Bottleneck) and m.bn3.weight is not None:
                nn.init.constant_(m.bn3.weight, 0)
            elif isinstance(m, BasicBlock) and m.bn2.weight is not None:
                nn.init.constant_(m.bn2.weight, 0)


class ResNet(nn.Module):
    """ImageNet ResNet: 7x7/2 conv stem and 3x3/2 max pool, four stages of ``layers[i]`` blocks
    (64, 128, 256, 512 planes, strides 1, 2, 2, 2), global average pool and ``fc``."""

    def __init__(self, block: type[BasicBlock | Bottleneck], layers: list[int], num_classes: int = 1000,
                 zero_init_residual: bool = False, groups: int = 1, width_per_group: int = 64,
                 replace_stride_with_dilation: list[bool] | None = None,
                 norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self._norm_layer = norm_layer
        self.inplanes = 64
        self.dilation = 1
        if replace_stride_with_dilation is None:
            # whether each of layer2..layer4 trades its stride 2 for a dilated convolution
            replace_stride_with_dilation = [False, False, False]
        if len(replace_stride_with_dilation) != 3:
            raise ValueError("replace_stride_with_dilation should be None "
                             f"or a 3-element tuple, got {replace_stride_with_dilation}")
        self.groups = groups
        self.base_width = width_per_group
        self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = norm_layer(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2, dilate=replace_stride_with_dilation[0])
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2, dilate=replace_stride_with_dilation[1])
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2, dilate=replace_stride_with_dilation[2])
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)
        _init_weights(self, zero_init_residual)

    def _make_layer(self, block: type[BasicBlock | Bottleneck], planes: int, blocks: int, stride: int = 1,
                    dilate: bool = False) -> nn.Sequential:
        """A stage of ``blocks`` blocks; the first one changes the stride/width, with a 1x1 conv shortcut."""
        norm_layer = self._norm_layer
        downsample = None
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(conv1x1(self.inplanes, planes * block.expansion, stride),
                                       norm_layer(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, previous_dilation,
                        norm_layer)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                                dilation=self.dilation, norm_layer=norm_layer))
        return nn.Sequential(*layers)

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.avgpool(x)
        x = minitorch.flatten(x, 1)
        return self.fc(x)

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


class CifarResNet(nn.Module):
    """The CIFAR-10 ResNet of He et al. (section 4.2) for 32x32 inputs: a 3x3 conv stem with 16 channels
    (no max pool), three stages of ``layers[i]`` blocks with 16, 32, 64 planes and strides 1, 2, 2, global
    average pool and ``fc``. Stages change size through their first block's strided 3x3 conv and a 1x1 conv
    shortcut (the paper's option B). State_dict keys follow ``ResNet``'s (``conv1``, ``layer2.0.downsample.0``).
    """

    # the stage builder reads inplanes, dilation, groups, base_width and _norm_layer
    _make_layer = ResNet._make_layer

    def __init__(self, block: type[BasicBlock | Bottleneck], layers: list[int], num_classes: int = 10,
                 zero_init_residual: bool = False, norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if len(layers) != 3:
            raise ValueError(f"CifarResNet has 3 stages, got layers={layers}")
        self._norm_layer = nn.BatchNorm2d if norm_layer is None else norm_layer
        self.inplanes, self.dilation, self.groups, self.base_width = 16, 1, 1, 64
        self.conv1 = conv3x3(3, self.inplanes)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = self._make_layer(block, 16, layers[0])
        self.layer2 = self._make_layer(block, 32, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 64, layers[2], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(64 * block.expansion, num_classes)
        _init_weights(self, zero_init_residual)

    def _forward_impl(self, x: Tensor) -> Tensor:
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        x = self.avgpool(x)
        x = minitorch.flatten(x, 1)
        return self.fc(x)

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


_RESNET_RECIPE = "https://github.com/pytorch/vision/tree/main/references/classification#resnet"


class ResNet18_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/resnet18-f37072fd.pth", 256, (69.758, 89.078), num_params=11689512,
        recipe=_RESNET_RECIPE, _ops=1.814, _file_size=44.661, _docs=PAPER_RECIPE_DOCS)
    SYNTHETIC_V1 = _synthetic_weights("resnet18", 48)
    DEFAULT = IMAGENET1K_V1


class ResNet34_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/resnet34-b627a593.pth", 256, (73.314, 91.420), num_params=21797672,
        recipe=_RESNET_RECIPE, _ops=3.664, _file_size=83.275, _docs=PAPER_RECIPE_DOCS)
    SYNTHETIC_V1 = _synthetic_weights("resnet34", 48)
    DEFAULT = IMAGENET1K_V1


class ResNet50_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/resnet50-0676ba61.pth", 256, (76.130, 92.862), num_params=25557032,
        recipe=_RESNET_RECIPE, _ops=4.089, _file_size=97.781, _docs=PAPER_RECIPE_DOCS)
    IMAGENET1K_V2 = _imagenet_weights(
        "https://download.pytorch.org/models/resnet50-11ad3fa6.pth", 232, (80.858, 95.434), num_params=25557032,
        recipe="https://github.com/pytorch/vision/issues/3995#issuecomment-1013906621",
        _ops=4.089, _file_size=97.79, _docs=new_recipe_docs())
    SYNTHETIC_V1 = _synthetic_weights("resnet50", 48)
    DEFAULT = IMAGENET1K_V2


def _v1(file: str, num_params: int, accuracy: tuple[float, float], ops: float, file_size: float,
        recipe: str = _RESNET_RECIPE) -> Weights:
    """torchvision's first ImageNet weights of a ResNet (resized from 256)."""
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", 256, accuracy, num_params=num_params,
                             recipe=recipe, _ops=ops, _file_size=file_size, _docs=PAPER_RECIPE_DOCS)


def _v2(file: str, num_params: int, accuracy: tuple[float, float], ops: float, file_size: float,
        recipe: str = "new-recipe", docs: str = new_recipe_docs()) -> Weights:
    """Weights of torchvision's newer recipe (resized from 232); ``recipe``: the anchor in its issue 3995 or a URL."""
    url = recipe if recipe.startswith("https:") else f"https://github.com/pytorch/vision/issues/3995#{recipe}"
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", 232, accuracy, num_params=num_params,
                             recipe=url, _ops=ops, _file_size=file_size, _docs=docs)


class ResNet101_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("resnet101-63fe2227.pth", 44549160, (77.374, 93.546), 7.801, 170.511)
    IMAGENET1K_V2 = _v2("resnet101-cd907fc2.pth", 44549160, (81.886, 95.780), 7.801, 170.53)
    DEFAULT = IMAGENET1K_V2


class ResNet152_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("resnet152-394f9c45.pth", 60192808, (78.312, 94.046), 11.514, 230.434)
    IMAGENET1K_V2 = _v2("resnet152-f82ba261.pth", 60192808, (82.284, 96.002), 11.514, 230.474)
    DEFAULT = IMAGENET1K_V2


_RESNEXT_RECIPE = "https://github.com/pytorch/vision/tree/main/references/classification#resnext"
_WIDE_RESNET_RECIPE = "https://github.com/pytorch/vision/pull/912#issue-445437439"


class ResNeXt50_32X4D_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("resnext50_32x4d-7cdf4587.pth", 25028904, (77.618, 93.698), 4.23, 95.789, _RESNEXT_RECIPE)
    IMAGENET1K_V2 = _v2("resnext50_32x4d-1a0047aa.pth", 25028904, (81.198, 95.340), 4.23, 95.833)
    DEFAULT = IMAGENET1K_V2


class ResNeXt101_32X8D_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("resnext101_32x8d-8ba56ff5.pth", 88791336, (79.312, 94.526), 16.414, 339.586,
                        _RESNEXT_RECIPE)
    IMAGENET1K_V2 = _v2("resnext101_32x8d-110c445d.pth", 88791336, (82.834, 96.228), 16.414, 339.673,
                        "new-recipe-with-fixres")
    DEFAULT = IMAGENET1K_V2


class ResNeXt101_64X4D_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v2("resnext101_64x4d-173b62eb.pth", 83455272, (83.246, 96.454), 15.46, 319.318,
                        "https://github.com/pytorch/vision/pull/5935",
                        new_recipe_docs(claim="were trained from scratch"))
    DEFAULT = IMAGENET1K_V1


class Wide_ResNet50_2_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("wide_resnet50_2-95faca4d.pth", 68883240, (78.468, 94.086), 11.398, 131.82,
                        _WIDE_RESNET_RECIPE)
    IMAGENET1K_V2 = _v2("wide_resnet50_2-9ba9bcbe.pth", 68883240, (81.602, 95.758), 11.398, 263.124,
                        "new-recipe-with-fixres")
    DEFAULT = IMAGENET1K_V2


class Wide_ResNet101_2_Weights(WeightsEnum):
    IMAGENET1K_V1 = _v1("wide_resnet101_2-32ee1156.pth", 126886696, (78.848, 94.284), 22.753, 242.896,
                        _WIDE_RESNET_RECIPE)
    IMAGENET1K_V2 = _v2("wide_resnet101_2-d733dc28.pth", 126886696, (82.510, 96.020), 22.753, 484.747)
    DEFAULT = IMAGENET1K_V2


class Cifar_ResNet20_Weights(WeightsEnum):
    SYNTHETIC_V1 = _synthetic_weights("cifar_resnet20", 32)
    DEFAULT = SYNTHETIC_V1


def _resnet(block: type[BasicBlock | Bottleneck], layers: list[int], weights: WeightsEnum | None, progress: bool,
            **kwargs: Any) -> ResNet:
    return _build(functools.partial(ResNet, block, layers), weights, progress, kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNet18_Weights.IMAGENET1K_V1))
def resnet18(*, weights: ResNet18_Weights | None = None, progress: bool = True, **kwargs: Any) -> ResNet:
    """ResNet-18 (11.7M parameters at 1000 classes). ``weights``: a ``ResNet18_Weights`` (or its name) or
    None; ``progress`` is accepted for torchvision compatibility; ``kwargs`` go to ``ResNet``."""
    weights = ResNet18_Weights.verify(weights)
    return _resnet(BasicBlock, [2, 2, 2, 2], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNet34_Weights.IMAGENET1K_V1))
def resnet34(*, weights: ResNet34_Weights | None = None, progress: bool = True, **kwargs: Any) -> ResNet:
    """ResNet-34 (21.8M parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNet34_Weights.verify(weights)
    return _resnet(BasicBlock, [3, 4, 6, 3], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNet50_Weights.IMAGENET1K_V1))
def resnet50(*, weights: ResNet50_Weights | None = None, progress: bool = True, **kwargs: Any) -> ResNet:
    """ResNet-50 (25.6M parameters at 1000 classes, Bottleneck blocks); arguments as ``resnet18``."""
    weights = ResNet50_Weights.verify(weights)
    return _resnet(Bottleneck, [3, 4, 6, 3], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNet101_Weights.IMAGENET1K_V1))
def resnet101(*, weights: ResNet101_Weights | None = None, progress: bool = True, **kwargs: Any) -> ResNet:
    """ResNet-101 (44.5M parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNet101_Weights.verify(weights)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNet152_Weights.IMAGENET1K_V1))
def resnet152(*, weights: ResNet152_Weights | None = None, progress: bool = True, **kwargs: Any) -> ResNet:
    """ResNet-152 (60.2M parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNet152_Weights.verify(weights)
    return _resnet(Bottleneck, [3, 8, 36, 3], weights, progress, **kwargs)


def _grouped(layers: list[int], weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any], groups: int,
             width_per_group: int) -> ResNet:
    """A Bottleneck ResNet whose 3x3 convolutions have ``groups`` groups of ``width_per_group`` channels per 64
    planes (the caller may pass these values again, not others)."""
    _ovewrite_named_param(kwargs, "groups", groups)
    _ovewrite_named_param(kwargs, "width_per_group", width_per_group)
    return _resnet(Bottleneck, layers, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNeXt50_32X4D_Weights.IMAGENET1K_V1))
def resnext50_32x4d(*, weights: ResNeXt50_32X4D_Weights | None = None, progress: bool = True,
                    **kwargs: Any) -> ResNet:
    """ResNeXt-50 32x4d (Xie et al., "Aggregated Residual Transformations for Deep Neural Networks", 2016; 25.0M
    parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNeXt50_32X4D_Weights.verify(weights)
    return _grouped([3, 4, 6, 3], weights, progress, kwargs, 32, 4)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNeXt101_32X8D_Weights.IMAGENET1K_V1))
def resnext101_32x8d(*, weights: ResNeXt101_32X8D_Weights | None = None, progress: bool = True,
                     **kwargs: Any) -> ResNet:
    """ResNeXt-101 32x8d (88.8M parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNeXt101_32X8D_Weights.verify(weights)
    return _grouped([3, 4, 23, 3], weights, progress, kwargs, 32, 8)


@register_model()
@handle_legacy_interface(weights=("pretrained", ResNeXt101_64X4D_Weights.IMAGENET1K_V1))
def resnext101_64x4d(*, weights: ResNeXt101_64X4D_Weights | None = None, progress: bool = True,
                     **kwargs: Any) -> ResNet:
    """ResNeXt-101 64x4d (83.5M parameters at 1000 classes); arguments as ``resnet18``."""
    weights = ResNeXt101_64X4D_Weights.verify(weights)
    return _grouped([3, 4, 23, 3], weights, progress, kwargs, 64, 4)


@register_model()
@handle_legacy_interface(weights=("pretrained", Wide_ResNet50_2_Weights.IMAGENET1K_V1))
def wide_resnet50_2(*, weights: Wide_ResNet50_2_Weights | None = None, progress: bool = True,
                    **kwargs: Any) -> ResNet:
    """Wide ResNet-50-2 (Zagoruyko and Komodakis, "Wide Residual Networks", 2016): ResNet-50 with bottlenecks twice
    as wide (2048-1024-2048 in the last block instead of 2048-512-2048; 68.9M parameters at 1000 classes)."""
    weights = Wide_ResNet50_2_Weights.verify(weights)
    _ovewrite_named_param(kwargs, "width_per_group", 64 * 2)
    return _resnet(Bottleneck, [3, 4, 6, 3], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", Wide_ResNet101_2_Weights.IMAGENET1K_V1))
def wide_resnet101_2(*, weights: Wide_ResNet101_2_Weights | None = None, progress: bool = True,
                     **kwargs: Any) -> ResNet:
    """Wide ResNet-101-2: ResNet-101 with bottlenecks twice as wide (126.9M parameters at 1000 classes)."""
    weights = Wide_ResNet101_2_Weights.verify(weights)
    _ovewrite_named_param(kwargs, "width_per_group", 64 * 2)
    return _resnet(Bottleneck, [3, 4, 23, 3], weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", Cifar_ResNet20_Weights.DEFAULT))
def cifar_resnet20(*, weights: Cifar_ResNet20_Weights | None = None, progress: bool = True,
                   **kwargs: Any) -> CifarResNet:
    """ResNet-20 for 32x32 images (He et al., CIFAR-10): 3 stages of 3 ``BasicBlock``s, 16/32/64 channels,
    0.27M parameters at the default 10 classes. Arguments as ``resnet18``; ``kwargs`` go to ``CifarResNet``
    (``num_classes``, ``zero_init_residual``, ``norm_layer``)."""
    weights = Cifar_ResNet20_Weights.verify(weights)
    return _build(functools.partial(CifarResNet, BasicBlock, [3, 3, 3]), weights, progress, kwargs)
