"""GoogLeNet (Inception v1; Szegedy et al., "Going Deeper with Convolutions", 2014) with torchvision's structure:
the same arguments, attribute names and state_dict keys (``conv1.conv.weight``, ``inception3a.branch2.1.bn.weight``,
``aux1.fc2.bias``, ...), so torchvision checkpoints load. In training, with ``aux_logits``, the forward pass returns
``GoogLeNetOutputs`` (the logits and those of the two auxiliary classifiers); otherwise the logits.

As in torchvision, the 5x5 branch of each Inception block has a 3x3 convolution: the weights were trained so.
"""
from __future__ import annotations

import warnings
from collections import namedtuple
from typing import Any, Callable, Optional

import minitorch
from minitorch import Tensor, nn
from minitorch.nn import functional as F

from ._api import PORTED_DOCS, WeightsEnum, _imagenet_weights, register_model
from ._utils import _ovewrite_named_param, handle_legacy_interface

__all__ = ["GoogLeNet", "GoogLeNetOutputs", "_GoogLeNetOutputs", "GoogLeNet_Weights", "googlenet"]

GoogLeNetOutputs = namedtuple("GoogLeNetOutputs", ["logits", "aux_logits2", "aux_logits1"])
GoogLeNetOutputs.__annotations__ = {"logits": Tensor, "aux_logits2": Optional[Tensor], "aux_logits1": Optional[Tensor]}
_GoogLeNetOutputs = GoogLeNetOutputs  # the older name, kept by torchvision


class BasicConv2d(nn.Module):
    """Convolution without bias (``kwargs`` go to Conv2d), BatchNorm2d with eps 0.001, ReLU."""

    def __init__(self, in_channels: int, out_channels: int, **kwargs: Any) -> None:
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, bias=False, **kwargs)
        self.bn = nn.BatchNorm2d(out_channels, eps=0.001)

    def forward(self, x: Tensor) -> Tensor:
        return F.relu(self.bn(self.conv(x)), inplace=True)


def transform_input(x: Tensor) -> Tensor:
    """Images normalised by ImageNet's mean and std as (x - 0.5) / 0.5 instead, what the ported Inception weights
    were trained on."""
    channels = [minitorch.unsqueeze(x[:, i], 1) * (std / 0.5) + (mean - 0.5) / 0.5
                for i, (mean, std) in enumerate(((0.485, 0.229), (0.456, 0.224), (0.406, 0.225)))]
    return minitorch.cat(channels, 1)


def _init_truncated_normal(model: nn.Module, std: Callable[[nn.Module], float]) -> None:
    """torchvision's initialisation of the Inception networks: N(0, ``std(m)``^2) truncated to [-2, 2] for the
    convolutions and linears, unit norm layers."""
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, mean=0.0, std=std(m), a=-2, b=2)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.constant_(m.weight, 1)
            nn.init.constant_(m.bias, 0)


def _resolve_init_weights(init_weights: bool | None, name: str) -> bool:
    if init_weights is None:
        warnings.warn(f"The default weight initialization of {name} will be changed in future releases of "
                      "torchvision. If you wish to keep the old behavior (which leads to long initialization times"
                      " due to scipy/scipy#11299), please set init_weights=True.", FutureWarning)
        return True
    return init_weights


class Inception(nn.Module):
    """Four branches concatenated: 1x1 (``ch1x1``); 1x1 (``ch3x3red``) then 3x3 (``ch3x3``); 1x1 (``ch5x5red``)
    then 3x3 (``ch5x5``); 3x3/1 max pool then 1x1 (``pool_proj``)."""

    def __init__(self, in_channels: int, ch1x1: int, ch3x3red: int, ch3x3: int, ch5x5red: int, ch5x5: int,
                 pool_proj: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch1 = conv_block(in_channels, ch1x1, kernel_size=1)
        self.branch2 = nn.Sequential(conv_block(in_channels, ch3x3red, kernel_size=1),
                                     conv_block(ch3x3red, ch3x3, kernel_size=3, padding=1))
        self.branch3 = nn.Sequential(conv_block(in_channels, ch5x5red, kernel_size=1),
                                     conv_block(ch5x5red, ch5x5, kernel_size=3, padding=1))
        self.branch4 = nn.Sequential(nn.MaxPool2d(kernel_size=3, stride=1, padding=1, ceil_mode=True),
                                     conv_block(in_channels, pool_proj, kernel_size=1))

    def _forward(self, x: Tensor) -> list[Tensor]:
        return [self.branch1(x), self.branch2(x), self.branch3(x), self.branch4(x)]

    def forward(self, x: Tensor) -> Tensor:
        return minitorch.cat(self._forward(x), 1)


class InceptionAux(nn.Module):
    """An auxiliary classifier: adaptive average pool to 4x4, 1x1 conv to 128, 2048 -> 1024, ReLU, Dropout,
    1024 -> classes."""

    def __init__(self, in_channels: int, num_classes: int, conv_block: Callable[..., nn.Module] | None = None,
                 dropout: float = 0.7) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.conv = conv_block(in_channels, 128, kernel_size=1)
        self.fc1 = nn.Linear(2048, 1024)
        self.fc2 = nn.Linear(1024, num_classes)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, x: Tensor) -> Tensor:
        x = minitorch.flatten(self.conv(F.adaptive_avg_pool2d(x, (4, 4))), 1)
        x = F.relu(self.fc1(x), inplace=True)
        return self.fc2(self.dropout(x))


class GoogLeNet(nn.Module):
    """GoogLeNet: a stem of three convolutions and two max pools, nine Inception blocks (3a-b, 4a-e, 5a-b) with max
    pools between the groups, global average pool, Dropout and ``fc``. With ``aux_logits``, classifiers ``aux1`` and
    ``aux2`` on the outputs of 4a and 4d, run in training only. ``transform_input``: see ``transform_input``.
    ``blocks``: the classes of the conv, Inception and auxiliary blocks. ``init_weights`` (None: True, with
    torchvision's FutureWarning): truncated normal initialisation with std 0.01."""

    __constants__ = ["aux_logits", "transform_input"]

    def __init__(self, num_classes: int = 1000, aux_logits: bool = True, transform_input: bool = False,
                 init_weights: bool | None = None, blocks: list[Callable[..., nn.Module]] | None = None,
                 dropout: float = 0.2, dropout_aux: float = 0.7) -> None:
        super().__init__()
        if blocks is None:
            blocks = [BasicConv2d, Inception, InceptionAux]
        init_weights = _resolve_init_weights(init_weights, "GoogleNet")
        if len(blocks) != 3:
            raise ValueError(f"blocks length should be 3 instead of {len(blocks)}")
        conv_block, inception_block, inception_aux_block = blocks
        self.aux_logits = aux_logits
        self.transform_input = transform_input

        self.conv1 = conv_block(3, 64, kernel_size=7, stride=2, padding=3)
        self.maxpool1 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.conv2 = conv_block(64, 64, kernel_size=1)
        self.conv3 = conv_block(64, 192, kernel_size=3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception3a = inception_block(192, 64, 96, 128, 16, 32, 32)
        self.inception3b = inception_block(256, 128, 128, 192, 32, 96, 64)
        self.maxpool3 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception4a = inception_block(480, 192, 96, 208, 16, 48, 64)
        self.inception4b = inception_block(512, 160, 112, 224, 24, 64, 64)
        self.inception4c = inception_block(512, 128, 128, 256, 24, 64, 64)
        self.inception4d = inception_block(512, 112, 144, 288, 32, 64, 64)
        self.inception4e = inception_block(528, 256, 160, 320, 32, 128, 128)
        self.maxpool4 = nn.MaxPool2d(2, stride=2, ceil_mode=True)
        self.inception5a = inception_block(832, 256, 160, 320, 32, 128, 128)
        self.inception5b = inception_block(832, 384, 192, 384, 48, 128, 128)
        if aux_logits:
            self.aux1 = inception_aux_block(512, num_classes, dropout=dropout_aux)
            self.aux2 = inception_aux_block(528, num_classes, dropout=dropout_aux)
        else:
            self.aux1 = None
            self.aux2 = None
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout)
        self.fc = nn.Linear(1024, num_classes)
        if init_weights:
            _init_truncated_normal(self, lambda m: 0.01)

    def _transform_input(self, x: Tensor) -> Tensor:
        return transform_input(x) if self.transform_input else x

    def _forward(self, x: Tensor) -> tuple[Tensor, Tensor | None, Tensor | None]:
        x = self.maxpool1(self.conv1(x))
        x = self.maxpool2(self.conv3(self.conv2(x)))
        x = self.maxpool3(self.inception3b(self.inception3a(x)))
        x = self.inception4a(x)
        aux1 = self.aux1(x) if self.aux1 is not None and self.training else None
        x = self.inception4d(self.inception4c(self.inception4b(x)))
        aux2 = self.aux2(x) if self.aux2 is not None and self.training else None
        x = self.maxpool4(self.inception4e(x))
        x = self.inception5b(self.inception5a(x))
        x = self.dropout(minitorch.flatten(self.avgpool(x), 1))
        return self.fc(x), aux2, aux1

    def eager_outputs(self, x: Tensor, aux2: Tensor | None, aux1: Tensor | None) -> GoogLeNetOutputs | Tensor:
        if self.training and self.aux_logits:
            return _GoogLeNetOutputs(x, aux2, aux1)
        return x

    def forward(self, x: Tensor) -> GoogLeNetOutputs | Tensor:
        x, aux2, aux1 = self._forward(self._transform_input(x))
        return self.eager_outputs(x, aux2, aux1)


class GoogLeNet_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/googlenet-1378be20.pth", 256, (69.778, 89.530), num_params=6624904,
        min_size=(15, 15), recipe="https://github.com/pytorch/vision/tree/main/references/classification#googlenet",
        _ops=1.498, _file_size=49.731, _docs=PORTED_DOCS)
    DEFAULT = IMAGENET1K_V1


def _load_inception(factory: Callable[..., nn.Module], weights: WeightsEnum | None, progress: bool,
                    kwargs: dict[str, Any], aux_default: bool, aux_names: tuple[str, ...]) -> nn.Module:
    """Build an Inception network, as torchvision's googlenet and inception_v3 do. With ``weights`` it is built
    with its auxiliary classifiers (the checkpoints have them), without initialisation and, unless the caller says
    otherwise, with ``transform_input``; the classifiers (``aux_names``) are dropped afterwards unless the caller
    asked for ``aux_logits`` (default ``aux_default``)."""
    if weights is None:
        return factory(**kwargs)
    original_aux_logits = kwargs.get("aux_logits", aux_default)
    if "transform_input" not in kwargs:
        _ovewrite_named_param(kwargs, "transform_input", True)
    _ovewrite_named_param(kwargs, "aux_logits", True)
    _ovewrite_named_param(kwargs, "init_weights", False)
    _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
    state_dict = weights.get_state_dict(progress=progress, check_hash=True)
    model = factory(**kwargs)
    model.load_state_dict(state_dict)
    if not original_aux_logits:
        model.aux_logits = False
        for name in aux_names:
            setattr(model, name, None)
    return model


@register_model()
@handle_legacy_interface(weights=("pretrained", GoogLeNet_Weights.IMAGENET1K_V1))
def googlenet(*, weights: GoogLeNet_Weights | None = None, progress: bool = True, **kwargs: Any) -> GoogLeNet:
    """GoogLeNet (6.6M parameters at 1000 classes without the auxiliary classifiers, 13.0M with them). ``weights``:
    a ``GoogLeNet_Weights`` (or its name) or None; ``progress`` shows the download's progress; ``kwargs`` go to
    ``GoogLeNet``. With weights, the auxiliary classifiers are dropped unless ``aux_logits=True`` is passed (they
    are not trained, as torchvision warns; ``aux_logits=False`` is refused, as in torchvision)."""
    weights = GoogLeNet_Weights.verify(weights)
    model = _load_inception(GoogLeNet, weights, progress, kwargs, False, ("aux1", "aux2"))
    if weights is not None and model.aux_logits:
        warnings.warn("auxiliary heads in the pretrained googlenet model are NOT pretrained, so make sure to train "
                      "them")
    return model
