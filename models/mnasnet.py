"""MNASNet B1 (Tan et al., "MnasNet: Platform-Aware Neural Architecture Search for Mobile", 2018) with
torchvision's structure: the same arguments, attribute names and state_dict keys (``layers.0.weight``,
``layers.8.0.layers.0.weight``, ``classifier.1.bias``, ...), so torchvision checkpoints load, version 1 checkpoints
(whose stem did not scale with the width) included.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any

from minitorch import Tensor, nn

from ._api import WeightsEnum, _imagenet_weights, new_recipe_docs, register_model
from ._utils import _build, handle_legacy_interface

__all__ = ["MNASNet", "MNASNet0_5_Weights", "MNASNet0_75_Weights", "MNASNet1_0_Weights", "MNASNet1_3_Weights",
           "mnasnet0_5", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3"]

# The paper's TensorFlow batch-norm momentum 0.9997 (the weight of the running value), in PyTorch's convention.
_BN_MOMENTUM = 1 - 0.9997


class _InvertedResidual(nn.Module):
    """1x1 expansion by ``expansion_factor``, ``kernel_size`` depthwise conv with ``stride``, linear 1x1 projection
    (BN after each, ReLU after the first two); a residual connection when the shapes agree."""

    def __init__(self, in_ch: int, out_ch: int, kernel_size: int, stride: int, expansion_factor: int,
                 bn_momentum: float = 0.1) -> None:
        super().__init__()
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        if kernel_size not in [3, 5]:
            raise ValueError(f"kernel_size should be 3 or 5 instead of {kernel_size}")
        mid_ch = in_ch * expansion_factor
        self.apply_residual = in_ch == out_ch and stride == 1
        self.layers = nn.Sequential(
            nn.Conv2d(in_ch, mid_ch, 1, bias=False), nn.BatchNorm2d(mid_ch, momentum=bn_momentum),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, mid_ch, kernel_size, padding=kernel_size // 2, stride=stride, groups=mid_ch, bias=False),
            nn.BatchNorm2d(mid_ch, momentum=bn_momentum), nn.ReLU(inplace=True),
            nn.Conv2d(mid_ch, out_ch, 1, bias=False), nn.BatchNorm2d(out_ch, momentum=bn_momentum))

    def forward(self, input: Tensor) -> Tensor:
        if self.apply_residual:
            return self.layers(input) + input
        return self.layers(input)


def _stack(in_ch: int, out_ch: int, kernel_size: int, stride: int, exp_factor: int, repeats: int,
           bn_momentum: float) -> nn.Sequential:
    """``repeats`` inverted residuals; only the first changes the stride and width (so it has no residual)."""
    if repeats < 1:
        raise ValueError(f"repeats should be >= 1, instead got {repeats}")
    first = _InvertedResidual(in_ch, out_ch, kernel_size, stride, exp_factor, bn_momentum=bn_momentum)
    remaining = [_InvertedResidual(out_ch, out_ch, kernel_size, 1, exp_factor, bn_momentum=bn_momentum)
                 for _ in range(1, repeats)]
    return nn.Sequential(first, *remaining)


def _round_to_multiple_of(val: float, divisor: int, round_up_bias: float = 0.9) -> int:
    """``val`` rounded to a multiple of ``divisor``, up unless that loses at most 10% (83 -> 80, 84 -> 88 for 8)."""
    if not 0.0 < round_up_bias < 1.0:
        raise ValueError(f"round_up_bias should be greater than 0.0 and smaller than 1.0 instead of {round_up_bias}")
    new_val = max(divisor, int(val + divisor / 2) // divisor * divisor)
    return new_val if new_val >= round_up_bias * val else new_val + divisor


def _get_depths(alpha: float) -> list[int]:
    """The channel counts of the stem and the six stacks, scaled by ``alpha``."""
    depths = [32, 16, 24, 40, 80, 96, 192, 320]
    return [_round_to_multiple_of(depth * alpha, 8) for depth in depths]


def _stem(depths: list[int]) -> list[nn.Module]:
    """A 3x3/2 conv to ``depths[0]``, a 3x3 depthwise separable conv to ``depths[1]`` (no skip), the first stack."""
    return [nn.Conv2d(3, depths[0], 3, padding=1, stride=2, bias=False),
            nn.BatchNorm2d(depths[0], momentum=_BN_MOMENTUM), nn.ReLU(inplace=True),
            nn.Conv2d(depths[0], depths[0], 3, padding=1, stride=1, groups=depths[0], bias=False),
            nn.BatchNorm2d(depths[0], momentum=_BN_MOMENTUM), nn.ReLU(inplace=True),
            nn.Conv2d(depths[0], depths[1], 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(depths[1], momentum=_BN_MOMENTUM),
            _stack(depths[1], depths[2], 3, 2, 3, 3, _BN_MOMENTUM)]


class MNASNet(nn.Module):
    """MNASNet B1 of width ``alpha``: ``layers`` (stem, six stacks of inverted residuals, 1x1 conv to 1280 with BN and
    ReLU), global average pool, ``classifier`` (Dropout, Linear).

    Version 2 (the current one) scales the stem's channels with ``alpha``; loading a version 1 state_dict into a model
    of ``alpha`` != 1 rebuilds its stem with the fixed 32 and 16 channels (with a warning), after which it is a
    version 1 model.
    """

    _version = 2

    def __init__(self, alpha: float, num_classes: int = 1000, dropout: float = 0.2) -> None:
        super().__init__()
        if alpha <= 0.0:
            raise ValueError(f"alpha should be greater than 0.0 instead of {alpha}")
        self.alpha = alpha
        self.num_classes = num_classes
        depths = _get_depths(alpha)
        self.layers = nn.Sequential(
            *_stem(depths),
            _stack(depths[2], depths[3], 5, 2, 3, 3, _BN_MOMENTUM),
            _stack(depths[3], depths[4], 5, 2, 6, 3, _BN_MOMENTUM),
            _stack(depths[4], depths[5], 3, 1, 6, 2, _BN_MOMENTUM),
            _stack(depths[5], depths[6], 5, 2, 6, 4, _BN_MOMENTUM),
            _stack(depths[6], depths[7], 3, 1, 6, 1, _BN_MOMENTUM),
            nn.Conv2d(depths[7], 1280, 1, padding=0, stride=1, bias=False),
            nn.BatchNorm2d(1280, momentum=_BN_MOMENTUM), nn.ReLU(inplace=True))
        self.classifier = nn.Sequential(nn.Dropout(p=dropout, inplace=True), nn.Linear(1280, num_classes))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                if m.bias is not None:
                    nn.init.zeros_(m.bias)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Linear):
                nn.init.kaiming_uniform_(m.weight, mode="fan_out", nonlinearity="sigmoid")
                nn.init.zeros_(m.bias)

    def forward(self, x: Tensor) -> Tensor:
        return self.classifier(self.layers(x).mean([2, 3]))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        version = local_metadata.get("version", None)
        if version not in [1, 2]:
            raise ValueError(f"version should be set to 1 or 2 instead of {version}")
        if version == 1 and not self.alpha == 1.0:
            # version 1 had a stem of fixed width; alpha 1 models are the same in both versions
            depths = _get_depths(self.alpha)
            for idx, layer in enumerate(_stem([32, 16, depths[2]])):
                self.layers[idx] = layer
            self._version = 1
            warnings.warn("A new version of MNASNet model has been implemented. Your checkpoint was saved using the "
                          "previous version. This checkpoint will load and work as before, but you may want to upgrade "
                          "by training a newer model or transfer learning from an updated ImageNet checkpoint.",
                          UserWarning)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)


def _mnasnet_weights(file: str, resize_size: int, num_params: int, accuracy: tuple[float, float], ops: float,
                     file_size: float) -> Any:
    """The original weights (resized from 256) were trained by 1e100, the newer ones (232) by torchvision."""
    original = resize_size == 256
    docs = ("These weights reproduce closely the results of the paper." if original
            else new_recipe_docs(claim="were trained from scratch"))
    recipe = "https://github.com/1e100/mnasnet_trainer" if original else "https://github.com/pytorch/vision/pull/6019"
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", resize_size, accuracy,
                             num_params=num_params,
                             recipe=recipe, _ops=ops, _file_size=file_size, _docs=docs)


class MNASNet0_5_Weights(WeightsEnum):
    IMAGENET1K_V1 = _mnasnet_weights("mnasnet0.5_top1_67.823-3ffadce67e.pth", 256, 2218512, (67.734, 87.490), 0.104,
                                     8.591)
    DEFAULT = IMAGENET1K_V1


class MNASNet0_75_Weights(WeightsEnum):
    IMAGENET1K_V1 = _mnasnet_weights("mnasnet0_75-7090bc5f.pth", 232, 3170208, (71.180, 90.496), 0.215, 12.303)
    DEFAULT = IMAGENET1K_V1


class MNASNet1_0_Weights(WeightsEnum):
    IMAGENET1K_V1 = _mnasnet_weights("mnasnet1.0_top1_73.512-f206786ef8.pth", 256, 4383312, (73.456, 91.510), 0.314,
                                     16.915)
    DEFAULT = IMAGENET1K_V1


class MNASNet1_3_Weights(WeightsEnum):
    IMAGENET1K_V1 = _mnasnet_weights("mnasnet1_3-a4c69d6f.pth", 232, 6282256, (76.506, 93.522), 0.526, 24.246)
    DEFAULT = IMAGENET1K_V1


def _mnasnet(alpha: float, weights: WeightsEnum | None, progress: bool, **kwargs: Any) -> MNASNet:
    return _build(functools.partial(MNASNet, alpha), weights, progress, kwargs)


# Builders: ``weights`` is a member of the builder's weights enum (or its name) or None; ``progress`` shows the
# download's progress; ``kwargs`` go to ``MNASNet`` (``num_classes``, ``dropout``).

@register_model()
@handle_legacy_interface(weights=("pretrained", MNASNet0_5_Weights.IMAGENET1K_V1))
def mnasnet0_5(*, weights: MNASNet0_5_Weights | None = None, progress: bool = True, **kwargs: Any) -> MNASNet:
    """MNASNet with depth multiplier 0.5 (2.2M parameters at 1000 classes)."""
    weights = MNASNet0_5_Weights.verify(weights)
    return _mnasnet(0.5, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", MNASNet0_75_Weights.IMAGENET1K_V1))
def mnasnet0_75(*, weights: MNASNet0_75_Weights | None = None, progress: bool = True, **kwargs: Any) -> MNASNet:
    """MNASNet with depth multiplier 0.75 (3.2M parameters)."""
    weights = MNASNet0_75_Weights.verify(weights)
    return _mnasnet(0.75, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", MNASNet1_0_Weights.IMAGENET1K_V1))
def mnasnet1_0(*, weights: MNASNet1_0_Weights | None = None, progress: bool = True, **kwargs: Any) -> MNASNet:
    """MNASNet with depth multiplier 1.0 (4.4M parameters)."""
    weights = MNASNet1_0_Weights.verify(weights)
    return _mnasnet(1.0, weights, progress, **kwargs)


@register_model()
@handle_legacy_interface(weights=("pretrained", MNASNet1_3_Weights.IMAGENET1K_V1))
def mnasnet1_3(*, weights: MNASNet1_3_Weights | None = None, progress: bool = True, **kwargs: Any) -> MNASNet:
    """MNASNet with depth multiplier 1.3 (6.3M parameters)."""
    weights = MNASNet1_3_Weights.verify(weights)
    return _mnasnet(1.3, weights, progress, **kwargs)
