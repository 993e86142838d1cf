"""Inception v3 (Szegedy et al., "Rethinking the Inception Architecture for Computer Vision", 2015) with
torchvision's structure: the same arguments, attribute names and state_dict keys (``Conv2d_1a_3x3.conv.weight``,
``Mixed_5b.branch5x5_1.bn.running_mean``, ``AuxLogits.fc.weight``, ...), so torchvision checkpoints load. It expects
299x299 images (at least 75x75; the auxiliary classifier, run in training, needs 299x299). In training, with
``aux_logits``, the forward pass returns ``InceptionOutputs`` (the logits and the auxiliary logits); otherwise the
logits.
"""
from __future__ import annotations

from collections import namedtuple
from typing import Any, Callable, Optional

import minitorch
from minitorch import Tensor, nn
from minitorch.nn import functional as F

from ._api import PORTED_DOCS, WeightsEnum, _imagenet_weights, register_model
from ._utils import handle_legacy_interface
from .googlenet import BasicConv2d, _init_truncated_normal, _load_inception, _resolve_init_weights, transform_input

__all__ = ["Inception3", "InceptionOutputs", "_InceptionOutputs", "Inception_V3_Weights", "inception_v3"]

InceptionOutputs = namedtuple("InceptionOutputs", ["logits", "aux_logits"])
InceptionOutputs.__annotations__ = {"logits": Tensor, "aux_logits": Optional[Tensor]}
_InceptionOutputs = InceptionOutputs  # the older name, kept by torchvision


class _Branches(nn.Module):
    """An Inception block: its branches (``_forward``) concatenated along the channels."""

    def _forward(self, x: Tensor) -> list[Tensor]:
        raise NotImplementedError

    def forward(self, x: Tensor) -> Tensor:
        return minitorch.cat(self._forward(x), 1)


def _chain(x: Tensor, *layers: nn.Module) -> Tensor:
    for layer in layers:
        x = layer(x)
    return x


def _pooled(x: Tensor, conv: nn.Module) -> Tensor:
    """The pooling branch of the size-keeping blocks: 3x3/1 average pool (zero padding counted), then ``conv``."""
    return conv(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))


class InceptionA(_Branches):
    """35x35 block: 1x1 (64); 1x1 (48), 5x5 (64); 1x1 (64), 3x3 (96), 3x3 (96); avg pool, 1x1 (``pool_features``)."""

    def __init__(self, in_channels: int, pool_features: int,
                 conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch1x1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch5x5_1 = conv_block(in_channels, 48, kernel_size=1)
        self.branch5x5_2 = conv_block(48, 64, kernel_size=5, padding=2)
        self.branch3x3dbl_1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(64, 96, kernel_size=3, padding=1)
        self.branch3x3dbl_3 = conv_block(96, 96, kernel_size=3, padding=1)
        self.branch_pool = conv_block(in_channels, pool_features, kernel_size=1)

    def _forward(self, x: Tensor) -> list[Tensor]:
        return [self.branch1x1(x), _chain(x, self.branch5x5_1, self.branch5x5_2),
                _chain(x, self.branch3x3dbl_1, self.branch3x3dbl_2, self.branch3x3dbl_3), _pooled(x, self.branch_pool)]


class InceptionB(_Branches):
    """Grid reduction 35 -> 17: 3x3/2 (384); 1x1 (64), 3x3 (96), 3x3/2 (96); 3x3/2 max pool."""

    def __init__(self, in_channels: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch3x3 = conv_block(in_channels, 384, kernel_size=3, stride=2)
        self.branch3x3dbl_1 = conv_block(in_channels, 64, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(64, 96, kernel_size=3, padding=1)
        self.branch3x3dbl_3 = conv_block(96, 96, kernel_size=3, stride=2)

    def _forward(self, x: Tensor) -> list[Tensor]:
        return [self.branch3x3(x), _chain(x, self.branch3x3dbl_1, self.branch3x3dbl_2, self.branch3x3dbl_3),
                F.max_pool2d(x, kernel_size=3, stride=2)]


class InceptionC(_Branches):
    """17x17 block with factorised 7x7 convolutions (``channels_7x7`` wide): 1x1 (192); 1x1, 1x7, 7x1 (192); 1x1,
    7x1, 1x7, 7x1, 1x7 (192); avg pool, 1x1 (192)."""

    def __init__(self, in_channels: int, channels_7x7: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        c7 = channels_7x7
        row, column = {"kernel_size": (1, 7), "padding": (0, 3)}, {"kernel_size": (7, 1), "padding": (3, 0)}
        self.branch1x1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch7x7_1 = conv_block(in_channels, c7, kernel_size=1)
        self.branch7x7_2 = conv_block(c7, c7, **row)
        self.branch7x7_3 = conv_block(c7, 192, **column)
        self.branch7x7dbl_1 = conv_block(in_channels, c7, kernel_size=1)
        self.branch7x7dbl_2 = conv_block(c7, c7, **column)
        self.branch7x7dbl_3 = conv_block(c7, c7, **row)
        self.branch7x7dbl_4 = conv_block(c7, c7, **column)
        self.branch7x7dbl_5 = conv_block(c7, 192, **row)
        self.branch_pool = conv_block(in_channels, 192, kernel_size=1)

    def _forward(self, x: Tensor) -> list[Tensor]:
        return [self.branch1x1(x), _chain(x, self.branch7x7_1, self.branch7x7_2, self.branch7x7_3),
                _chain(x, self.branch7x7dbl_1, self.branch7x7dbl_2, self.branch7x7dbl_3, self.branch7x7dbl_4,
                       self.branch7x7dbl_5),
                _pooled(x, self.branch_pool)]


class InceptionD(_Branches):
    """Grid reduction 17 -> 8: 1x1 (192), 3x3/2 (320); 1x1, 1x7, 7x1, 3x3/2 (192); 3x3/2 max pool."""

    def __init__(self, in_channels: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.branch3x3_1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch3x3_2 = conv_block(192, 320, kernel_size=3, stride=2)
        self.branch7x7x3_1 = conv_block(in_channels, 192, kernel_size=1)
        self.branch7x7x3_2 = conv_block(192, 192, kernel_size=(1, 7), padding=(0, 3))
        self.branch7x7x3_3 = conv_block(192, 192, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7x3_4 = conv_block(192, 192, kernel_size=3, stride=2)

    def _forward(self, x: Tensor) -> list[Tensor]:
        return [_chain(x, self.branch3x3_1, self.branch3x3_2),
                _chain(x, self.branch7x7x3_1, self.branch7x7x3_2, self.branch7x7x3_3, self.branch7x7x3_4),
                F.max_pool2d(x, kernel_size=3, stride=2)]


class InceptionE(_Branches):
    """8x8 block with expanded filter banks: 1x1 (320); 1x1 (384) then 1x3 and 3x1 (384 each) side by side; 1x1
    (448), 3x3 (384) then 1x3 and 3x1 (384 each); avg pool, 1x1 (192)."""

    def __init__(self, in_channels: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        row, column = {"kernel_size": (1, 3), "padding": (0, 1)}, {"kernel_size": (3, 1), "padding": (1, 0)}
        self.branch1x1 = conv_block(in_channels, 320, kernel_size=1)
        self.branch3x3_1 = conv_block(in_channels, 384, kernel_size=1)
        self.branch3x3_2a = conv_block(384, 384, **row)
        self.branch3x3_2b = conv_block(384, 384, **column)
        self.branch3x3dbl_1 = conv_block(in_channels, 448, kernel_size=1)
        self.branch3x3dbl_2 = conv_block(448, 384, kernel_size=3, padding=1)
        self.branch3x3dbl_3a = conv_block(384, 384, **row)
        self.branch3x3dbl_3b = conv_block(384, 384, **column)
        self.branch_pool = conv_block(in_channels, 192, kernel_size=1)

    def _forward(self, x: Tensor) -> list[Tensor]:
        branch3x3 = self.branch3x3_1(x)
        branch3x3dbl = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        return [self.branch1x1(x),
                minitorch.cat([self.branch3x3_2a(branch3x3), self.branch3x3_2b(branch3x3)], 1),
                minitorch.cat([self.branch3x3dbl_3a(branch3x3dbl), self.branch3x3dbl_3b(branch3x3dbl)], 1),
                _pooled(x, self.branch_pool)]


class InceptionAux(nn.Module):
    """The auxiliary classifier on the 17x17 grid: 5x5/3 average pool, 1x1 (128), 5x5 (768), global average pool,
    768 -> classes."""

    def __init__(self, in_channels: int, num_classes: int, conv_block: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if conv_block is None:
            conv_block = BasicConv2d
        self.conv0 = conv_block(in_channels, 128, kernel_size=1)
        self.conv1 = conv_block(128, 768, kernel_size=5)
        self.conv1.stddev = 0.01  # read by nothing: Inception3's initialisation looks at Conv2d and Linear only
        self.fc = nn.Linear(768, num_classes)
        self.fc.stddev = 0.001  # the initialisation's std for this layer

    def forward(self, x: Tensor) -> Tensor:
        x = self.conv1(self.conv0(F.avg_pool2d(x, kernel_size=5, stride=3)))
        return self.fc(minitorch.flatten(F.adaptive_avg_pool2d(x, (1, 1)), 1))


class Inception3(nn.Module):
    """Inception v3: a stem of five convolutions and two max pools, blocks Mixed_5b-d (A), 6a (B), 6b-e (C), 7a (D),
    7b-c (E), global average pool, Dropout and ``fc``. With ``aux_logits``, ``AuxLogits`` on Mixed_6e's output, run
    in training only. ``transform_input``: see ``googlenet.transform_input``. ``inception_blocks``: the classes of the
    conv block, blocks A to E and the auxiliary classifier. ``init_weights`` (None: True, with torchvision's
    FutureWarning): truncated normal initialisation, std 0.1 (a layer's ``stddev`` attribute where it has one)."""

    def __init__(self, num_classes: int = 1000, aux_logits: bool = True, transform_input: bool = False,
                 inception_blocks: list[Callable[..., nn.Module]] | None = None, init_weights: bool | None = None,
                 dropout: float = 0.5) -> None:
        super().__init__()
        if inception_blocks is None:
            inception_blocks = [BasicConv2d, InceptionA, InceptionB, InceptionC, InceptionD, InceptionE, InceptionAux]
        init_weights = _resolve_init_weights(init_weights, "inception_v3")
        if len(inception_blocks) != 7:
            raise ValueError(f"length of inception_blocks should be 7 instead of {len(inception_blocks)}")
        conv_block, inception_a, inception_b, inception_c, inception_d, inception_e, inception_aux = inception_blocks
        self.aux_logits = aux_logits
        self.transform_input = transform_input
        self.Conv2d_1a_3x3 = conv_block(3, 32, kernel_size=3, stride=2)
        self.Conv2d_2a_3x3 = conv_block(32, 32, kernel_size=3)
        self.Conv2d_2b_3x3 = conv_block(32, 64, kernel_size=3, padding=1)
        self.maxpool1 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Conv2d_3b_1x1 = conv_block(64, 80, kernel_size=1)
        self.Conv2d_4a_3x3 = conv_block(80, 192, kernel_size=3)
        self.maxpool2 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Mixed_5b = inception_a(192, pool_features=32)
        self.Mixed_5c = inception_a(256, pool_features=64)
        self.Mixed_5d = inception_a(288, pool_features=64)
        self.Mixed_6a = inception_b(288)
        self.Mixed_6b = inception_c(768, channels_7x7=128)
        self.Mixed_6c = inception_c(768, channels_7x7=160)
        self.Mixed_6d = inception_c(768, channels_7x7=160)
        self.Mixed_6e = inception_c(768, channels_7x7=192)
        self.AuxLogits: nn.Module | None = None
        if aux_logits:
            self.AuxLogits = inception_aux(768, num_classes)
        self.Mixed_7a = inception_d(768)
        self.Mixed_7b = inception_e(1280)
        self.Mixed_7c = inception_e(2048)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout)
        self.fc = nn.Linear(2048, num_classes)
        if init_weights:
            _init_truncated_normal(self, lambda m: float(getattr(m, "stddev", 0.1)))

    def _transform_input(self, x: Tensor) -> Tensor:
        return transform_input(x) if self.transform_input else x

    def _forward(self, x: Tensor) -> tuple[Tensor, Tensor | None]:
        x = _chain(x, self.Conv2d_1a_3x3, self.Conv2d_2a_3x3, self.Conv2d_2b_3x3, self.maxpool1, self.Conv2d_3b_1x1,
                   self.Conv2d_4a_3x3, self.maxpool2, self.Mixed_5b, self.Mixed_5c, self.Mixed_5d, self.Mixed_6a,
                   self.Mixed_6b, self.Mixed_6c, self.Mixed_6d, self.Mixed_6e)
        aux = self.AuxLogits(x) if self.AuxLogits is not None and self.training else None
        x = _chain(x, self.Mixed_7a, self.Mixed_7b, self.Mixed_7c, self.avgpool, self.dropout)
        return self.fc(minitorch.flatten(x, 1)), aux

    def eager_outputs(self, x: Tensor, aux: Tensor | None) -> InceptionOutputs | Tensor:
        if self.training and self.aux_logits:
            return InceptionOutputs(x, aux)
        return x

    def forward(self, x: Tensor) -> InceptionOutputs | Tensor:
        x, aux = self._forward(self._transform_input(x))
        return self.eager_outputs(x, aux)


class Inception_V3_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/inception_v3_google-0cc3c7bd.pth", 342, (77.294, 93.450), crop_size=299,
        num_params=27161264, min_size=(75, 75),
        recipe="https://github.com/pytorch/vision/tree/main/references/classification#inception-v3",
        _ops=5.713, _file_size=103.903, _docs=PORTED_DOCS)
    DEFAULT = IMAGENET1K_V1


@register_model()
@handle_legacy_interface(weights=("pretrained", Inception_V3_Weights.IMAGENET1K_V1))
def inception_v3(*, weights: Inception_V3_Weights | None = None, progress: bool = True,
                 **kwargs: Any) -> Inception3:
    """Inception v3 (27.2M parameters at 1000 classes, with the auxiliary classifier). ``weights``: an
    ``Inception_V3_Weights`` (or its name) or None; ``progress`` shows the download's progress; ``kwargs`` go to
    ``Inception3``. With weights, ``transform_input`` defaults to True and the model keeps its auxiliary classifier
    (``aux_logits=False`` is refused, as in torchvision)."""
    weights = Inception_V3_Weights.verify(weights)
    return _load_inception(Inception3, weights, progress, kwargs, True, ("AuxLogits",))
