"""VGG (Simonyan and Zisserman, "Very Deep Convolutional Networks for Large-Scale Image Recognition", 2014), with
and without batch norm, with torchvision's structure: the same arguments, attribute names and state_dict keys
(``features.0.weight``, ..., ``classifier.6.bias``), so torchvision checkpoints load.
"""
from __future__ import annotations

from typing import Any

import minitorch
from minitorch import Tensor, nn

from ._api import Weights, WeightsEnum, _imagenet_weights, register_model
from ._utils import _ovewrite_named_param, handle_legacy_interface
from .alexnet import ALEXNET_VGG_RECIPE

__all__ = ["VGG", "VGG11_Weights", "VGG11_BN_Weights", "VGG13_Weights", "VGG13_BN_Weights", "VGG16_Weights",
           "VGG16_BN_Weights", "VGG19_Weights", "VGG19_BN_Weights", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16",
           "vgg16_bn", "vgg19", "vgg19_bn"]


class VGG(nn.Module):
    """``features`` (see ``make_layers``), an adaptive average pool to 7x7 and ``classifier``: 25088 -> 4096, ReLU,
    Dropout, 4096 -> 4096, ReLU, Dropout, 4096 -> classes. ``init_weights``: torchvision's initialisation (He-normal
    convs, N(0, 0.01) linears, zero biases) instead of the layers' own."""

    def __init__(self, features: nn.Module, num_classes: int = 1000, init_weights: bool = True,
                 dropout: float = 0.5) -> None:
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
            nn.Linear(4096, 4096), nn.ReLU(True), nn.Dropout(p=dropout),
            nn.Linear(4096, num_classes),
        )
        if init_weights:
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                    if m.bias is not None:
                        nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.Linear):
                    nn.init.normal_(m.weight, 0, 0.01)
                    nn.init.constant_(m.bias, 0)

    def forward(self, x: Tensor) -> Tensor:
        x = self.avgpool(self.features(x))
        return self.classifier(minitorch.flatten(x, 1))


def make_layers(cfg: list[str | int], batch_norm: bool = False) -> nn.Sequential:
    """The convolutional part of a VGG from 3 input channels: each int of ``cfg`` a 3x3 convolution to that many
    channels (then BatchNorm2d when ``batch_norm``) and a ReLU, each ``"M"`` a 2x2/2 max pool."""
    layers: list[nn.Module] = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2d(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2d(v))
        layers.append(nn.ReLU(inplace=True))
        in_channels = v
    return nn.Sequential(*layers)


# the configurations of the paper's table 1: A (11 layers), B (13), D (16), E (19)
cfgs: dict[str, list[str | int]] = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


def _vgg(cfg: str, batch_norm: bool, weights: WeightsEnum | None, progress: bool, **kwargs: Any) -> VGG:
    """A VGG of configuration ``cfg``; with ``weights``, built without initialisation and with the number of the
    weights' categories (weights without categories, feature extractors, keep ``num_classes``)."""
    state_dict = None
    if weights is not None:
        kwargs["init_weights"] = False
        if weights.meta["categories"] is not None:
            _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
        state_dict = weights.get_state_dict(progress=progress, check_hash=True)
    model = VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)
    if state_dict is not None:
        model.load_state_dict(state_dict)
    return model


def _vgg_weights(file: str, num_params: int, accuracy: tuple[float, float], ops: float, file_size: float) -> Weights:
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", 256, accuracy, num_params=num_params,
                             min_size=(32, 32), recipe=ALEXNET_VGG_RECIPE, _ops=ops, _file_size=file_size,
                             _docs="These weights were trained from scratch by using a simplified training recipe.")


class VGG11_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg11-8a719046.pth", 132863336, (69.020, 88.628), 7.609, 506.84)
    DEFAULT = IMAGENET1K_V1


class VGG11_BN_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg11_bn-6002323d.pth", 132868840, (70.370, 89.810), 7.609, 506.881)
    DEFAULT = IMAGENET1K_V1


class VGG13_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg13-19584684.pth", 133047848, (69.928, 89.246), 11.308, 507.545)
    DEFAULT = IMAGENET1K_V1


class VGG13_BN_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg13_bn-abd245e5.pth", 133053736, (71.586, 90.374), 11.308, 507.59)
    DEFAULT = IMAGENET1K_V1


class VGG16_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg16-397923af.pth", 138357544, (71.592, 90.382), 15.47, 527.796)
    # the convolutions of amdegroot/ssd.pytorch (its classifier has no trained values), for inputs in [0, 255]
    # minus the mean
    IMAGENET1K_FEATURES = _imagenet_weights(
        "https://download.pytorch.org/models/vgg16_features-amdegroot-88682ab5.pth", 256, (float("nan"), float("nan")),
        mean=(0.48235, 0.45882, 0.40784), std=(1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0), min_size=(32, 32),
        categories=None, num_params=138357544, recipe="https://github.com/amdegroot/ssd.pytorch#training-ssd",
        _ops=15.47, _file_size=527.802,
        _docs="These weights can't be used for classification because they are missing values in the `classifier` "
              "module. Only the `features` module has valid values and can be used for feature extraction. The "
              "weights were trained using the original input standardization method as described in the paper.")
    DEFAULT = IMAGENET1K_V1


class VGG16_BN_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg16_bn-6c64b313.pth", 138365992, (73.360, 91.516), 15.47, 527.866)
    DEFAULT = IMAGENET1K_V1


class VGG19_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg19-dcbb9e9d.pth", 143667240, (72.376, 90.876), 19.632, 548.051)
    DEFAULT = IMAGENET1K_V1


class VGG19_BN_Weights(WeightsEnum):
    IMAGENET1K_V1 = _vgg_weights("vgg19_bn-c79401a0.pth", 143678248, (74.218, 91.842), 19.632, 548.143)
    DEFAULT = IMAGENET1K_V1


# Builders: ``weights`` is a member of the builder's weights enum (or its name) or None; ``progress`` shows the
# download's progress; ``kwargs`` go to ``VGG`` (``num_classes``, ``init_weights``, ``dropout``).

@register_model()
@handle_legacy_interface(weights=("pretrained", VGG11_Weights.IMAGENET1K_V1))
def vgg11(*, weights: VGG11_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-11, configuration A (132.9M parameters at 1000 classes)."""
    weights = VGG11_Weights.verify(weights)
    return _vgg("A", False, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG11_BN_Weights.IMAGENET1K_V1))
def vgg11_bn(*, weights: VGG11_BN_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-11 with batch norm after each convolution."""
    weights = VGG11_BN_Weights.verify(weights)
    return _vgg("A", True, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG13_Weights.IMAGENET1K_V1))
def vgg13(*, weights: VGG13_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-13, configuration B (133.0M parameters at 1000 classes)."""
    weights = VGG13_Weights.verify(weights)
    return _vgg("B", False, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG13_BN_Weights.IMAGENET1K_V1))
def vgg13_bn(*, weights: VGG13_BN_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-13 with batch norm after each convolution."""
    weights = VGG13_BN_Weights.verify(weights)
    return _vgg("B", True, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG16_Weights.IMAGENET1K_V1))
def vgg16(*, weights: VGG16_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-16, configuration D (138.4M parameters at 1000 classes)."""
    weights = VGG16_Weights.verify(weights)
    return _vgg("D", False, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG16_BN_Weights.IMAGENET1K_V1))
def vgg16_bn(*, weights: VGG16_BN_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-16 with batch norm after each convolution."""
    weights = VGG16_BN_Weights.verify(weights)
    return _vgg("D", True, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG19_Weights.IMAGENET1K_V1))
def vgg19(*, weights: VGG19_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-19, configuration E (143.7M parameters at 1000 classes)."""
    weights = VGG19_Weights.verify(weights)
    return _vgg("E", False, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", VGG19_BN_Weights.IMAGENET1K_V1))
def vgg19_bn(*, weights: VGG19_BN_Weights | None = None, progress: bool = True, **kwargs: Any) -> VGG:
    """VGG-19 with batch norm after each convolution."""
    weights = VGG19_BN_Weights.verify(weights)
    return _vgg("E", True, weights, progress, **kwargs)
