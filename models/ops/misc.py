"""Layers shared by the models, as ``torchvision.ops.misc``: conv-norm-activation blocks, a frozen batch norm,
squeeze-and-excitation, a multi-layer perceptron and a permutation module."""
from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Callable

import minitorch
from minitorch import Tensor, nn

__all__ = ["interpolate", "FrozenBatchNorm2d", "ConvNormActivation", "Conv2dNormActivation", "Conv3dNormActivation",
           "SqueezeExcitation", "MLP", "Permute"]

interpolate = nn.functional.interpolate


class FrozenBatchNorm2d(nn.Module):
    """BatchNorm2d whose statistics and affine parameters are fixed buffers (``weight``, ``bias``,
    ``running_mean``, ``running_var``): ``x * w / sqrt(rv + eps) + (b - rm * w / sqrt(rv + eps))``.
    A ``num_batches_tracked`` entry in a loaded state_dict is ignored."""

    def __init__(self, num_features: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.register_buffer("weight", minitorch.ones(num_features))
        self.register_buffer("bias", minitorch.zeros(num_features))
        self.register_buffer("running_mean", minitorch.zeros(num_features))
        self.register_buffer("running_var", minitorch.ones(num_features))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        state_dict.pop(prefix + "num_batches_tracked", None)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, x: Tensor) -> Tensor:
        w, b, rv, rm = (t.reshape(1, -1, 1, 1) for t in (self.weight, self.bias, self.running_var, self.running_mean))
        scale = w * (rv + self.eps).rsqrt()
        return x * scale + (b - rm * scale)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.weight.shape[0]}, eps={self.eps})"


class ConvNormActivation(nn.Sequential):
    """A convolution ``conv_layer``, then a norm layer, then an activation; the base of
    ``Conv2dNormActivation`` and ``Conv3dNormActivation`` (which are the ones to use).

    Children are numbered ``0`` (conv), ``1`` (norm), ``2`` (activation) and skipped when their layer
    is None. ``padding=None`` keeps the spatial size at stride 1; the conv has a bias only without norm
    unless ``bias`` says otherwise; ``inplace=None`` builds the activation with its own default.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...] = 3,
                 stride: int | tuple[int, ...] = 1, padding: int | tuple[int, ...] | str | None = None,
                 groups: int = 1, norm_layer: Callable[..., nn.Module] | None = nn.BatchNorm2d,
                 activation_layer: Callable[..., nn.Module] | None = nn.ReLU, dilation: int | tuple[int, ...] = 1,
                 inplace: bool | None = True, bias: bool | None = None,
                 conv_layer: Callable[..., nn.Module] = nn.Conv2d) -> None:
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                dims = len(kernel_size) if isinstance(kernel_size, Sequence) else len(dilation)
                ks = tuple(kernel_size) if isinstance(kernel_size, Sequence) else (kernel_size,) * dims
                dil = tuple(dilation) if isinstance(dilation, Sequence) else (dilation,) * dims
                padding = tuple((k - 1) // 2 * d for k, d in zip(ks, dil))
        if bias is None:
            bias = norm_layer is None
        layers: list[nn.Module] = [conv_layer(in_channels, out_channels, kernel_size, stride, padding,
                                              dilation=dilation, groups=groups, bias=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer(**({} if inplace is None else {"inplace": inplace})))
        super().__init__(*layers)
        self.out_channels = out_channels
        if self.__class__ == ConvNormActivation:
            warnings.warn("Don't use ConvNormActivation directly, please use Conv2dNormActivation and "
                          "Conv3dNormActivation instead.")


class Conv2dNormActivation(ConvNormActivation):
    """Conv2d, then a norm layer (default BatchNorm2d), then an activation (default ReLU); see
    ``ConvNormActivation``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int] = 3,
                 stride: int | tuple[int, int] = 1, padding: int | tuple[int, int] | str | None = None,
                 groups: int = 1, norm_layer: Callable[..., nn.Module] | None = nn.BatchNorm2d,
                 activation_layer: Callable[..., nn.Module] | None = nn.ReLU, dilation: int | tuple[int, int] = 1,
                 inplace: bool | None = True, bias: bool | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, groups, norm_layer,
                         activation_layer, dilation, inplace, bias, nn.Conv2d)


class Conv3dNormActivation(ConvNormActivation):
    """Conv3d, then a norm layer (default BatchNorm3d), then an activation (default ReLU); see
    ``ConvNormActivation``."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int, int] = 3,
                 stride: int | tuple[int, int, int] = 1, padding: int | tuple[int, int, int] | str | None = None,
                 groups: int = 1, norm_layer: Callable[..., nn.Module] | None = nn.BatchNorm3d,
                 activation_layer: Callable[..., nn.Module] | None = nn.ReLU,
                 dilation: int | tuple[int, int, int] = 1, inplace: bool | None = True,
                 bias: bool | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, groups, norm_layer,
                         activation_layer, dilation, inplace, bias, nn.Conv3d)


class SqueezeExcitation(nn.Module):
    """Squeeze-and-excitation (Hu et al., 2017): the input times ``scale_activation(fc2(activation(fc1(
    avgpool(input)))))``, with 1x1 convolutions ``fc1`` (to ``squeeze_channels``) and ``fc2`` (back)."""

    def __init__(self, input_channels: int, squeeze_channels: int,
                 activation: Callable[..., nn.Module] = nn.ReLU,
                 scale_activation: Callable[..., nn.Module] = nn.Sigmoid) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input: Tensor) -> Tensor:
        scale = self.activation(self.fc1(self.avgpool(input)))
        return self.scale_activation(self.fc2(scale))

    def forward(self, input: Tensor) -> Tensor:
        return self._scale(input) * input


class MLP(nn.Sequential):
    """Linear layers to each of ``hidden_channels``, each but the last followed by ``norm_layer`` (if any),
    ``activation_layer`` and Dropout(``dropout``); the last followed by Dropout only. ``inplace`` goes to the
    activation and dropout layers (None: their defaults)."""

    def __init__(self, in_channels: int, hidden_channels: list[int],
                 norm_layer: Callable[..., nn.Module] | None = None,
                 activation_layer: Callable[..., nn.Module] | None = nn.ReLU, inplace: bool | None = None,
                 bias: bool = True, dropout: float = 0.0) -> None:
        params = {} if inplace is None else {"inplace": inplace}
        layers: list[nn.Module] = []
        in_dim = in_channels
        for hidden_dim in hidden_channels[:-1]:
            layers.append(nn.Linear(in_dim, hidden_dim, bias=bias))
            if norm_layer is not None:
                layers.append(norm_layer(hidden_dim))
            layers += [activation_layer(**params), nn.Dropout(dropout, **params)]
            in_dim = hidden_dim
        layers += [nn.Linear(in_dim, hidden_channels[-1], bias=bias), nn.Dropout(dropout, **params)]
        super().__init__(*layers)


class Permute(nn.Module):
    """``input.permute(dims)`` as a module."""

    def __init__(self, dims: list[int]) -> None:
        super().__init__()
        self.dims = dims

    def forward(self, x: Tensor) -> Tensor:
        return minitorch.permute(x, self.dims)
