"""Building blocks shared by the models, as in ``torchvision.ops.misc``."""
from __future__ import annotations

from typing import Callable

from minitorch import nn


class Conv2dNormActivation(nn.Sequential):
    """Conv2d, then a norm layer, then an activation: ``torchvision.ops.misc.Conv2dNormActivation``.

    Children are numbered ``0`` (conv), ``1`` (norm), ``2`` (activation) and skipped when their layer
    is None. ``padding=None`` keeps the spatial size at stride 1; the conv has a bias only without norm.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int] = 3,
                 stride: int | tuple[int, int] = 1, padding: int | tuple[int, int] | str | None = None,
                 groups: int = 1, norm_layer: Callable[..., nn.Module] | None = nn.BatchNorm2d,
                 activation_layer: Callable[..., nn.Module] | None = nn.ReLU, dilation: int | tuple[int, int] = 1,
                 inplace: bool | None = True, bias: bool | None = None) -> None:
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                ks = kernel_size if isinstance(kernel_size, tuple) else (kernel_size,) * 2
                dil = dilation if isinstance(dilation, tuple) else (dilation,) * 2
                padding = tuple((k - 1) // 2 * d for k, d in zip(ks, dil))
        if bias is None:
            bias = norm_layer is None
        layers: list[nn.Module] = [nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding,
                                             dilation=dilation, groups=groups, bias=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer(**({} if inplace is None else {"inplace": inplace})))
        super().__init__(*layers)
        self.out_channels = out_channels
