"""ConvNeXt (Liu et al., "A ConvNet for the 2020s", 2022) with torchvision's structure: the same classes,
arguments, attribute names and state_dict keys (``features.0.0.weight``, ``features.1.0.layer_scale``,
``features.1.0.block.0.weight``, ..., ``classifier.2.weight``), so torchvision checkpoints load."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn
from minitorch.nn import functional as F

from ._api import WeightsEnum, _imagenet_weights, new_recipe_docs
from ._utils import _build, _fixed, _registered_builder
from .ops.misc import Conv2dNormActivation, Permute
from .ops.stochastic_depth import StochasticDepth

__all__ = ["ConvNeXt", "ConvNeXt_Tiny_Weights", "ConvNeXt_Small_Weights", "ConvNeXt_Base_Weights",
           "ConvNeXt_Large_Weights", "convnext_tiny", "convnext_small", "convnext_base", "convnext_large"]


class LayerNorm2d(nn.LayerNorm):
    """LayerNorm over the channels of an ``(N, C, H, W)`` input."""

    def forward(self, x: Tensor) -> Tensor:
        x = F.layer_norm(x.permute(0, 2, 3, 1), self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class CNBlock(nn.Module):
    """``input + stochastic_depth(layer_scale * block(input))``, ``block``: 7x7 depthwise conv, LayerNorm over
    channels (channels last), Linear to 4x, GELU, Linear back."""

    def __init__(self, dim: int, layer_scale: float, stochastic_depth_prob: float,
                 norm_layer: Callable[..., nn.Module] | None = None) -> None:
        super().__init__()
        if norm_layer is None:
            norm_layer = partial(nn.LayerNorm, eps=1e-6)
        self.block = nn.Sequential(nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim, bias=True),
                                   Permute([0, 2, 3, 1]), norm_layer(dim),
                                   nn.Linear(in_features=dim, out_features=4 * dim, bias=True), nn.GELU(),
                                   nn.Linear(in_features=4 * dim, out_features=dim, bias=True), Permute([0, 3, 1, 2]))
        self.layer_scale = nn.Parameter(minitorch.ones(dim, 1, 1) * layer_scale)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")

    def forward(self, input: Tensor) -> Tensor:
        result = self.stochastic_depth(self.layer_scale * self.block(input))
        result += input
        return result


class CNBlockConfig:
    """A stage: ``num_layers`` blocks of width ``input_channels``, then (unless ``out_channels`` is None) a
    downsampling to ``out_channels``."""

    def __init__(self, input_channels: int, out_channels: int | None, num_layers: int) -> None:
        self.input_channels = input_channels
        self.out_channels = out_channels
        self.num_layers = num_layers

    def __repr__(self) -> str:
        return (f"{self.__class__.__name__}(input_channels={self.input_channels}, "
                f"out_channels={self.out_channels}, num_layers={self.num_layers})")


class ConvNeXt(nn.Module):
    """``features``: a 4x4/4 patchify stem with LayerNorm2d, then per stage of ``block_setting`` its blocks
    (stochastic depth growing linearly to ``stochastic_depth_prob``) and a norm + 2x2/2 conv downsampling; then
    global average pool and ``classifier`` (norm, Flatten, Linear)."""

    def __init__(self, block_setting: list[CNBlockConfig], stochastic_depth_prob: float = 0.0,
                 layer_scale: float = 1e-6, num_classes: int = 1000, block: Callable[..., nn.Module] | None = None,
                 norm_layer: Callable[..., nn.Module] | None = None, **kwargs: Any) -> None:
        super().__init__()
        if not block_setting:
            raise ValueError("The block_setting should not be empty")
        if not (isinstance(block_setting, Sequence) and all(isinstance(s, CNBlockConfig) for s in block_setting)):
            raise TypeError("The block_setting should be List[CNBlockConfig]")
        block = CNBlock if block is None else block
        norm_layer = partial(LayerNorm2d, eps=1e-6) if norm_layer is None else norm_layer
        layers: list[nn.Module] = [Conv2dNormActivation(3, block_setting[0].input_channels, kernel_size=4, stride=4,
                                                        padding=0, norm_layer=norm_layer, activation_layer=None,
                                                        bias=True)]
        total_stage_blocks = sum(cnf.num_layers for cnf in block_setting)
        stage_block_id = 0
        for cnf in block_setting:
            stage: list[nn.Module] = []
            for _ in range(cnf.num_layers):
                sd_prob = stochastic_depth_prob * stage_block_id / (total_stage_blocks - 1.0)
                stage.append(block(cnf.input_channels, layer_scale, sd_prob))
                stage_block_id += 1
            layers.append(nn.Sequential(*stage))
            if cnf.out_channels is not None:
                layers.append(nn.Sequential(norm_layer(cnf.input_channels),
                                            nn.Conv2d(cnf.input_channels, cnf.out_channels, kernel_size=2, stride=2)))
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        last = block_setting[-1]
        lastconv_output_channels = last.out_channels if last.out_channels is not None else last.input_channels
        self.classifier = nn.Sequential(norm_layer(lastconv_output_channels), nn.Flatten(1),
                                        nn.Linear(lastconv_output_channels, num_classes))

        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.trunc_normal_(m.weight, std=0.02)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def _forward_impl(self, x: Tensor) -> Tensor:
        return self.classifier(self.avgpool(self.features(x)))

    def forward(self, x: Tensor) -> Tensor:
        return self._forward_impl(x)


def _weights(file: str, resize_size: int, accuracy: tuple[float, float], num_params: int, ops: float,
             file_size: float):
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", resize_size, accuracy, min_size=(32, 32),
                             recipe="https://github.com/pytorch/vision/tree/main/references/classification#convnext",
                             _docs=new_recipe_docs("a modified version of "), num_params=num_params, _ops=ops,
                             _file_size=file_size)


class ConvNeXt_Tiny_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("convnext_tiny-983f1562.pth", 236, (82.520, 96.146), 28589128, 4.456, 109.119)
    DEFAULT = IMAGENET1K_V1


class ConvNeXt_Small_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("convnext_small-0c510722.pth", 230, (83.616, 96.650), 50223688, 8.684, 191.703)
    DEFAULT = IMAGENET1K_V1


class ConvNeXt_Base_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("convnext_base-6075fbad.pth", 232, (84.062, 96.870), 88591464, 15.355, 338.064)
    DEFAULT = IMAGENET1K_V1


class ConvNeXt_Large_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("convnext_large-ea097f82.pth", 232, (84.414, 96.976), 197767336, 34.361, 754.537)
    DEFAULT = IMAGENET1K_V1


def _builder(name: str, weights_enum: type[WeightsEnum], widths: tuple[int, ...], depths: tuple[int, ...],
             stochastic_depth_prob: float):
    """The builder of the ConvNeXt with these stage ``widths`` and ``depths``; ``kwargs`` may change the default
    ``stochastic_depth_prob``."""
    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> ConvNeXt:
        outs = (*widths[1:], None)
        block_setting = [CNBlockConfig(w, o, d) for w, o, d in zip(widths, outs, depths)]
        prob = kwargs.pop("stochastic_depth_prob", stochastic_depth_prob)
        return _build(_fixed(ConvNeXt, block_setting, stochastic_depth_prob=prob), weights, progress, kwargs)
    doc = (f"ConvNeXt {name[9:].capitalize()} (widths {widths}, depths {depths}). ``weights``: a "
           f"``{weights_enum.__name__}`` (or its name) or None; ``kwargs``: ``ConvNeXt``'s arguments.")
    return _registered_builder(name, weights_enum, build, doc)


convnext_tiny = _builder("convnext_tiny", ConvNeXt_Tiny_Weights, (96, 192, 384, 768), (3, 3, 9, 3), 0.1)
convnext_small = _builder("convnext_small", ConvNeXt_Small_Weights, (96, 192, 384, 768), (3, 3, 27, 3), 0.4)
convnext_base = _builder("convnext_base", ConvNeXt_Base_Weights, (128, 256, 512, 1024), (3, 3, 27, 3), 0.5)
convnext_large = _builder("convnext_large", ConvNeXt_Large_Weights, (192, 384, 768, 1536), (3, 3, 27, 3), 0.5)
