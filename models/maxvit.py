"""MaxViT (Tu et al., "MaxViT: Multi-Axis Vision Transformer", 2022) with torchvision's structure: the same
classes, arguments, attribute names and state_dict keys (``stem.0.0.weight``,
``blocks.0.layers.0.layers.MBconv.layers.conv_a.0.weight``, ...,
``blocks.0.layers.0.layers.window_attention.attn_layer.1.relative_position_bias_table``, ...,
``classifier.5.weight``), so torchvision checkpoints load."""
from __future__ import annotations

import math
from collections import OrderedDict
from functools import partial
from typing import Any, Callable

import numpy as np

import minitorch
from minitorch import Tensor, nn
from minitorch.datasets.transforms import InterpolationMode
from minitorch.nn import functional as F

from ._api import WeightsEnum, _imagenet_weights
from ._utils import _build, _fixed, _ovewrite_named_param, _registered_builder
from .ops.misc import Conv2dNormActivation, SqueezeExcitation
from .ops.stochastic_depth import StochasticDepth

__all__ = ["MaxVit", "MaxVit_T_Weights", "maxvit_t"]


def _get_conv_output_shape(input_size: tuple[int, int], kernel_size: int, stride: int,
                           padding: int) -> tuple[int, int]:
    return ((input_size[0] - kernel_size + 2 * padding) // stride + 1,
            (input_size[1] - kernel_size + 2 * padding) // stride + 1)


def _make_block_input_shapes(input_size: tuple[int, int], n_blocks: int) -> list[tuple[int, int]]:
    """The feature map sizes after the stem and after each of ``n_blocks`` blocks (3x3 stride-2 steps)."""
    shapes = []
    block_input_shape = _get_conv_output_shape(input_size, 3, 2, 1)
    for _ in range(n_blocks):
        block_input_shape = _get_conv_output_shape(block_input_shape, 3, 2, 1)
        shapes.append(block_input_shape)
    return shapes


def _get_relative_position_index(height: int, width: int) -> Tensor:
    """For each pair of positions of a ``height x width`` window, the bias table row of their offset."""
    coords = minitorch.stack(minitorch.meshgrid([minitorch.arange(height), minitorch.arange(width)], indexing="ij"))
    coords_flat = minitorch.flatten(coords, 1)
    relative_coords = (coords_flat[:, :, None] - coords_flat[:, None, :]).permute(1, 2, 0).contiguous()
    relative_coords[:, :, 0] += height - 1
    relative_coords[:, :, 1] += width - 1
    relative_coords[:, :, 0] *= 2 * width - 1
    return relative_coords.sum(-1)


class MBConv(nn.Module):
    """``proj(x) + stochastic_depth(layers(x))``: pre-norm, 1x1 expansion by ``expansion_ratio``, depthwise 3x3
    with ``stride``, squeeze-and-excitation (``squeeze_ratio`` of the output width), 1x1 conv; ``proj`` is the
    identity, or average pooling (stride 2) and a 1x1 conv when the shape changes."""

    def __init__(self, in_channels: int, out_channels: int, expansion_ratio: float, squeeze_ratio: float,
                 stride: int, activation_layer: Callable[..., nn.Module], norm_layer: Callable[..., nn.Module],
                 p_stochastic_dropout: float = 0.0) -> None:
        super().__init__()
        self.proj: nn.Module
        if stride != 1 or in_channels != out_channels:
            proj: list[nn.Module] = [nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=1, bias=True)]
            if stride == 2:
                proj = [nn.AvgPool2d(kernel_size=3, stride=stride, padding=1)] + proj
            self.proj = nn.Sequential(*proj)
        else:
            self.proj = nn.Identity()
        mid_channels = int(out_channels * expansion_ratio)
        sqz_channels = int(out_channels * squeeze_ratio)
        self.stochastic_depth: nn.Module = (StochasticDepth(p_stochastic_dropout, mode="row") if p_stochastic_dropout
                                            else nn.Identity())
        _layers: OrderedDict[str, nn.Module] = OrderedDict()
        _layers["pre_norm"] = norm_layer(in_channels)
        _layers["conv_a"] = Conv2dNormActivation(in_channels, mid_channels, kernel_size=1, stride=1, padding=0,
                                                 activation_layer=activation_layer, norm_layer=norm_layer,
                                                 inplace=None)
        _layers["conv_b"] = Conv2dNormActivation(mid_channels, mid_channels, kernel_size=3, stride=stride, padding=1,
                                                 activation_layer=activation_layer, norm_layer=norm_layer,
                                                 groups=mid_channels, inplace=None)
        _layers["squeeze_excitation"] = SqueezeExcitation(mid_channels, sqz_channels, activation=nn.SiLU)
        _layers["conv_c"] = nn.Conv2d(in_channels=mid_channels, out_channels=out_channels, kernel_size=1, bias=True)
        self.layers = nn.Sequential(_layers)

    def forward(self, x: Tensor) -> Tensor:
        """``(B, C, H, W)`` to ``(B, out_channels, H / stride, W / stride)``."""
        return self.proj(x) + self.stochastic_depth(self.layers(x))


class RelativePositionalMultiHeadAttention(nn.Module):
    """Self-attention over the ``max_seq_len`` positions of each partition of a ``(B, G, P, D)`` input, heads of
    ``head_dim`` features, with a learnt relative position bias per head (``relative_position_bias_table``)."""

    def __init__(self, feat_dim: int, head_dim: int, max_seq_len: int) -> None:
        super().__init__()
        if feat_dim % head_dim != 0:
            raise ValueError(f"feat_dim: {feat_dim} must be divisible by head_dim: {head_dim}")
        self.n_heads = feat_dim // head_dim
        self.head_dim = head_dim
        self.size = int(math.sqrt(max_seq_len))
        self.max_seq_len = max_seq_len
        self.to_qkv = nn.Linear(feat_dim, self.n_heads * self.head_dim * 3)
        self.scale_factor = feat_dim ** -0.5
        self.merge = nn.Linear(self.head_dim * self.n_heads, feat_dim)
        self.relative_position_bias_table = nn.parameter.Parameter(
            minitorch.empty(((2 * self.size - 1) * (2 * self.size - 1), self.n_heads), dtype=minitorch.float32))
        self.register_buffer("relative_position_index", _get_relative_position_index(self.size, self.size))
        nn.init.trunc_normal_(self.relative_position_bias_table, std=0.02)

    def get_relative_positional_bias(self) -> Tensor:
        bias_index = self.relative_position_index.view(-1)
        relative_bias = self.relative_position_bias_table[bias_index].view(self.max_seq_len, self.max_seq_len, -1)
        return relative_bias.permute(2, 0, 1).contiguous().unsqueeze(0)

    def forward(self, x: Tensor) -> Tensor:
        """``(B, G, P, D)`` to ``(B, G, P, D)``."""
        B, G, P, D = x.shape
        H, DH = self.n_heads, self.head_dim
        q, k, v = (t.reshape(B, G, P, H, DH).permute(0, 1, 3, 2, 4)
                   for t in minitorch.chunk(self.to_qkv(x), 3, dim=-1))
        k = k * self.scale_factor  # feat_dim ** -0.5, as torchvision (not head_dim ** -0.5)
        dot_prod = minitorch.einsum("B G H I D, B G H J D -> B G H I J", q, k)
        dot_prod = F.softmax(dot_prod + self.get_relative_positional_bias(), dim=-1)
        out = minitorch.einsum("B G H I J, B G H J D -> B G H I D", dot_prod, v)
        return self.merge(out.permute(0, 1, 3, 2, 4).reshape(B, G, P, D))


class SwapAxes(nn.Module):
    """``swapaxes(x, a, b)`` as a module."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__()
        self.a = a
        self.b = b

    def forward(self, x: Tensor) -> Tensor:
        return minitorch.swapaxes(x, self.a, self.b)


class WindowPartition(nn.Module):
    """``(B, C, H, W)`` cut into ``p x p`` windows: ``(B, H/p * W/p, p * p, C)``."""

    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: Tensor, p: int) -> Tensor:
        B, C, H, W = x.shape
        x = x.reshape(B, C, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1)
        return x.reshape(B, (H // p) * (W // p), p * p, C)


class WindowDepartition(nn.Module):
    """The inverse of ``WindowPartition``: ``(B, h_partitions * w_partitions, p * p, C)`` to ``(B, C, H, W)``."""

    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: Tensor, p: int, h_partitions: int, w_partitions: int) -> Tensor:
        B, G, PP, C = x.shape
        x = x.reshape(B, h_partitions, w_partitions, p, p, C).permute(0, 5, 1, 3, 2, 4)
        return x.reshape(B, C, h_partitions * p, w_partitions * p)


class PartitionAttentionLayer(nn.Module):
    """Attention and an MLP (each pre-norm, residual, with stochastic depth) within the partitions of a
    ``grid_size`` map: ``partition_size`` windows (``"window"``, block attention) or a ``partition_size`` grid of
    strided positions (``"grid"``, grid attention)."""

    def __init__(self, in_channels: int, head_dim: int, partition_size: int, partition_type: str,
                 grid_size: tuple[int, int], mlp_ratio: int, activation_layer: Callable[..., nn.Module],
                 norm_layer: Callable[..., nn.Module], attention_dropout: float, mlp_dropout: float,
                 p_stochastic_dropout: float) -> None:
        super().__init__()
        self.n_heads = in_channels // head_dim
        self.head_dim = head_dim
        self.n_partitions = grid_size[0] // partition_size
        self.partition_type = partition_type
        self.grid_size = grid_size
        if partition_type not in ["grid", "window"]:
            raise ValueError("partition_type must be either 'grid' or 'window'")
        if partition_type == "window":
            self.p, self.g = partition_size, self.n_partitions
        else:
            self.p, self.g = self.n_partitions, partition_size
        self.partition_op = WindowPartition()
        self.departition_op = WindowDepartition()
        self.partition_swap = SwapAxes(-2, -3) if partition_type == "grid" else nn.Identity()
        self.departition_swap = SwapAxes(-2, -3) if partition_type == "grid" else nn.Identity()
        # partition_size ** 2 positions either way: the grid case swaps its axes first
        self.attn_layer = nn.Sequential(norm_layer(in_channels),
                                        RelativePositionalMultiHeadAttention(in_channels, head_dim,
                                                                             partition_size ** 2),
                                        nn.Dropout(attention_dropout))
        self.mlp_layer = nn.Sequential(nn.LayerNorm(in_channels), nn.Linear(in_channels, in_channels * mlp_ratio),
                                       activation_layer(), nn.Linear(in_channels * mlp_ratio, in_channels),
                                       nn.Dropout(mlp_dropout))
        self.stochastic_dropout = StochasticDepth(p_stochastic_dropout, mode="row")

    def forward(self, x: Tensor) -> Tensor:
        """``(B, C, H, W)`` to ``(B, C, H, W)``."""
        gh, gw = self.grid_size[0] // self.p, self.grid_size[1] // self.p
        minitorch._assert(self.grid_size[0] % self.p == 0 and self.grid_size[1] % self.p == 0,
                          f"Grid size must be divisible by partition size. Got grid size of {self.grid_size} and "
                          f"partition size of {self.p}")
        x = self.partition_swap(self.partition_op(x, self.p))
        x = x + self.stochastic_dropout(self.attn_layer(x))
        x = x + self.stochastic_dropout(self.mlp_layer(x))
        return self.departition_op(self.departition_swap(x), self.p, gh, gw)


class MaxVitLayer(nn.Module):
    """An MBConv, then window attention, then grid attention (``layers``: ``MBconv``, ``window_attention``,
    ``grid_attention``)."""

    def __init__(self, in_channels: int, out_channels: int, squeeze_ratio: float, expansion_ratio: float,
                 stride: int, norm_layer: Callable[..., nn.Module], activation_layer: Callable[..., nn.Module],
                 head_dim: int, mlp_ratio: int, mlp_dropout: float, attention_dropout: float,
                 p_stochastic_dropout: float, partition_size: int, grid_size: tuple[int, int]) -> None:
        super().__init__()
        layers: OrderedDict[str, nn.Module] = OrderedDict()
        layers["MBconv"] = MBConv(in_channels=in_channels, out_channels=out_channels, expansion_ratio=expansion_ratio,
                                  squeeze_ratio=squeeze_ratio, stride=stride, activation_layer=activation_layer,
                                  norm_layer=norm_layer, p_stochastic_dropout=p_stochastic_dropout)
        for kind in ("window", "grid"):
            layers[f"{kind}_attention"] = PartitionAttentionLayer(
                in_channels=out_channels, head_dim=head_dim, partition_size=partition_size, partition_type=kind,
                grid_size=grid_size, mlp_ratio=mlp_ratio, activation_layer=activation_layer, norm_layer=nn.LayerNorm,
                attention_dropout=attention_dropout, mlp_dropout=mlp_dropout,
                p_stochastic_dropout=p_stochastic_dropout)
        self.layers = nn.Sequential(layers)

    def forward(self, x: Tensor) -> Tensor:
        return self.layers(x)


class MaxVitBlock(nn.Module):
    """``n_layers`` MaxViT layers (``layers``), the first with stride 2; ``p_stochastic`` has each layer's
    stochastic depth."""

    def __init__(self, in_channels: int, out_channels: int, squeeze_ratio: float, expansion_ratio: float,
                 norm_layer: Callable[..., nn.Module], activation_layer: Callable[..., nn.Module], head_dim: int,
                 mlp_ratio: int, mlp_dropout: float, attention_dropout: float, partition_size: int,
                 input_grid_size: tuple[int, int], n_layers: int, p_stochastic: list[float]) -> None:
        super().__init__()
        if not len(p_stochastic) == n_layers:
            raise ValueError(f"p_stochastic must have length n_layers={n_layers}, got p_stochastic={p_stochastic}.")
        self.layers = nn.ModuleList()
        self.grid_size = _get_conv_output_shape(input_grid_size, kernel_size=3, stride=2, padding=1)
        for idx, p in enumerate(p_stochastic):
            self.layers += [MaxVitLayer(in_channels=in_channels if idx == 0 else out_channels,
                                        out_channels=out_channels, squeeze_ratio=squeeze_ratio,
                                        expansion_ratio=expansion_ratio, stride=2 if idx == 0 else 1,
                                        norm_layer=norm_layer, activation_layer=activation_layer, head_dim=head_dim,
                                        mlp_ratio=mlp_ratio, mlp_dropout=mlp_dropout,
                                        attention_dropout=attention_dropout, partition_size=partition_size,
                                        grid_size=self.grid_size, p_stochastic_dropout=p)]

    def forward(self, x: Tensor) -> Tensor:
        for layer in self.layers:
            x = layer(x)
        return x


class MaxVit(nn.Module):
    """``stem`` (3x3/2 conv, norm, activation; 3x3 conv), ``blocks`` (one ``MaxVitBlock`` per entry of
    ``block_channels``/``block_layers``, stochastic depth growing linearly to ``stochastic_depth_prob``) and
    ``classifier`` (pool, Flatten, LayerNorm, Linear, Tanh, Linear). Every block's input size must be divisible by
    ``partition_size``. ``norm_layer`` (of the convolutions) defaults to BatchNorm2d with eps 1e-3 and momentum
    0.01."""

    def __init__(self, input_size: tuple[int, int], stem_channels: int, partition_size: int,
                 block_channels: list[int], block_layers: list[int], head_dim: int, stochastic_depth_prob: float,
                 norm_layer: Callable[..., nn.Module] | None = None,
                 activation_layer: Callable[..., nn.Module] = nn.GELU, squeeze_ratio: float = 0.25,
                 expansion_ratio: float = 4, mlp_ratio: int = 4, mlp_dropout: float = 0.0,
                 attention_dropout: float = 0.0, num_classes: int = 1000) -> None:
        super().__init__()
        input_channels = 3
        if norm_layer is None:
            norm_layer = partial(nn.BatchNorm2d, eps=1e-3, momentum=0.01)
        block_input_sizes = _make_block_input_shapes(input_size, len(block_channels))
        for idx, block_input_size in enumerate(block_input_sizes):
            if block_input_size[0] % partition_size != 0 or block_input_size[1] % partition_size != 0:
                raise ValueError(
                    f"Input size {block_input_size} of block {idx} is not divisible by partition size "
                    f"{partition_size}. Consider changing the partition size or the input size.\n"
                    f"Current configuration yields the following block input sizes: {block_input_sizes}.")
        self.stem = nn.Sequential(
            Conv2dNormActivation(input_channels, stem_channels, 3, stride=2, norm_layer=norm_layer,
                                 activation_layer=activation_layer, bias=False, inplace=None),
            Conv2dNormActivation(stem_channels, stem_channels, 3, stride=1, norm_layer=None, activation_layer=None,
                                 bias=True))
        input_size = _get_conv_output_shape(input_size, kernel_size=3, stride=2, padding=1)
        self.partition_size = partition_size
        self.blocks = nn.ModuleList()
        # N blocks of L layers: N * L probabilities evenly spread over [0, stochastic_depth_prob]
        p_stochastic = np.linspace(0, stochastic_depth_prob, sum(block_layers)).tolist()
        p_idx = 0
        for in_channel, out_channel, num_layers in zip([stem_channels] + block_channels[:-1], block_channels,
                                                       block_layers):
            self.blocks.append(MaxVitBlock(
                in_channels=in_channel, out_channels=out_channel, squeeze_ratio=squeeze_ratio,
                expansion_ratio=expansion_ratio, norm_layer=norm_layer, activation_layer=activation_layer,
                head_dim=head_dim, mlp_ratio=mlp_ratio, mlp_dropout=mlp_dropout, attention_dropout=attention_dropout,
                partition_size=partition_size, input_grid_size=input_size, n_layers=num_layers,
                p_stochastic=p_stochastic[p_idx:p_idx + num_layers]))
            input_size = self.blocks[-1].grid_size
            p_idx += num_layers
        # Linear -> Tanh -> Linear as the original MaxViT's classification head
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.LayerNorm(block_channels[-1]),
                                        nn.Linear(block_channels[-1], block_channels[-1]), nn.Tanh(),
                                        nn.Linear(block_channels[-1], num_classes, bias=False))
        self._init_weights()

    def forward(self, x: Tensor) -> Tensor:
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return self.classifier(x)

    def _init_weights(self) -> None:
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.normal_(m.weight, std=0.02)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.02)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)


class MaxVit_T_Weights(WeightsEnum):
    IMAGENET1K_V1 = _imagenet_weights(
        "https://download.pytorch.org/models/maxvit_t-bc5ab103.pth", 224, (83.700, 96.722),
        interpolation=InterpolationMode.BICUBIC, num_params=30919624, min_size=(224, 224),
        recipe="https://github.com/pytorch/vision/tree/main/references/classification#maxvit", _ops=5.558,
        _file_size=118.769, _docs="These weights reproduce closely the results of the paper using a similar training "
                                  "recipe. They were trained with a BatchNorm2D momentum of 0.99 instead of the more "
                                  "correct 0.01.")
    DEFAULT = IMAGENET1K_V1


def _maxvit(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> MaxVit:
    """MaxViT-T; ``input_size`` (default 224 x 224) is the weights' ``min_size`` when weights are given."""
    if weights is not None:
        assert weights.meta["min_size"][0] == weights.meta["min_size"][1]
        _ovewrite_named_param(kwargs, "input_size", weights.meta["min_size"])
    factory = _fixed(MaxVit, stem_channels=64, block_channels=[64, 128, 256, 512], block_layers=[2, 2, 5, 2],
                     head_dim=32, stochastic_depth_prob=0.2, partition_size=7,
                     input_size=kwargs.pop("input_size", (224, 224)))
    return _build(factory, weights, progress, kwargs)


maxvit_t = _registered_builder(
    "maxvit_t", MaxVit_T_Weights, _maxvit,
    "MaxViT-T (31M parameters). ``weights``: a ``MaxVit_T_Weights`` (or its name) or None; ``kwargs``: ``MaxVit``'s "
    "arguments (``input_size`` (224, 224) by default).")
