"""Swin Transformer (Liu et al., 2021) and Swin Transformer V2 (Liu et al., 2022) with torchvision's structure:
the same classes, functions, arguments, attribute names and state_dict keys (``features.0.0.weight``,
``features.1.0.attn.qkv.weight``, ``features.1.0.attn.relative_position_bias_table``, ..., ``head.weight``), so
torchvision checkpoints load."""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Callable

import minitorch
from minitorch import Tensor, nn
from minitorch.datasets.transforms import InterpolationMode
from minitorch.nn import functional as F

from ._api import WeightsEnum, _imagenet_weights
from ._utils import _build, _fixed, _registered_builder
from .ops.misc import MLP, Permute
from .ops.stochastic_depth import StochasticDepth

__all__ = ["SwinTransformer", "Swin_T_Weights", "Swin_S_Weights", "Swin_B_Weights", "Swin_V2_T_Weights",
           "Swin_V2_S_Weights", "Swin_V2_B_Weights", "swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s",
           "swin_v2_b"]


def _patch_merging_pad(x: Tensor) -> Tensor:
    """``(..., H, W, C)`` padded to even H and W, its 2x2 neighbourhoods stacked: ``(..., H/2, W/2, 4C)``."""
    H, W, _ = x.shape[-3:]
    x = F.pad(x, (0, 0, 0, W % 2, 0, H % 2))
    return minitorch.cat([x[..., 0::2, 0::2, :], x[..., 1::2, 0::2, :], x[..., 0::2, 1::2, :],
                          x[..., 1::2, 1::2, :]], -1)


def _get_relative_position_bias(relative_position_bias_table: Tensor, relative_position_index: Tensor,
                                window_size: list[int]) -> Tensor:
    """The table's rows for each pair of positions in a window: ``(1, heads, N, N)``, N the window's size."""
    N = window_size[0] * window_size[1]
    relative_position_bias = relative_position_bias_table[relative_position_index].view(N, N, -1)
    return relative_position_bias.permute(2, 0, 1).contiguous().unsqueeze(0)


class PatchMerging(nn.Module):
    """Patch merging: 2x2 neighbourhoods concatenated (4C), normalised, projected to 2C."""

    def __init__(self, dim: int, norm_layer: Callable[..., nn.Module] = nn.LayerNorm) -> None:
        super().__init__()
        self.dim = dim
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)
        self.norm = norm_layer(4 * dim)

    def forward(self, x: Tensor) -> Tensor:
        """``(..., H, W, C)`` to ``(..., H/2, W/2, 2C)``."""
        return self.reduction(self.norm(_patch_merging_pad(x)))


class PatchMergingV2(nn.Module):
    """Swin V2's patch merging: 2x2 neighbourhoods concatenated, projected to 2C, then normalised."""

    def __init__(self, dim: int, norm_layer: Callable[..., nn.Module] = nn.LayerNorm) -> None:
        super().__init__()
        self.dim = dim
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)
        self.norm = norm_layer(2 * dim)

    def forward(self, x: Tensor) -> Tensor:
        """``(..., H, W, C)`` to ``(..., H/2, W/2, 2C)``."""
        return self.norm(self.reduction(_patch_merging_pad(x)))


def _shift_mask(x: Tensor, pad_H: int, pad_W: int, window_size: list[int], shift_size: list[int],
                num_windows: int) -> Tensor:
    """``(num_windows, N, N)``: -100 between positions of a window that come from different regions of the
    cyclically shifted map (so they do not attend to each other), 0 elsewhere."""
    attn_mask = x.new_zeros((pad_H, pad_W))
    h_slices = ((0, -window_size[0]), (-window_size[0], -shift_size[0]), (-shift_size[0], None))
    w_slices = ((0, -window_size[1]), (-window_size[1], -shift_size[1]), (-shift_size[1], None))
    count = 0
    for h in h_slices:
        for w in w_slices:
            attn_mask[h[0]:h[1], w[0]:w[1]] = count
            count += 1
    attn_mask = attn_mask.view(pad_H // window_size[0], window_size[0], pad_W // window_size[1], window_size[1])
    attn_mask = attn_mask.permute(0, 2, 1, 3).reshape(num_windows, window_size[0] * window_size[1])
    attn_mask = attn_mask.unsqueeze(1) - attn_mask.unsqueeze(2)
    return attn_mask.masked_fill(attn_mask != 0, float(-100.0)).masked_fill(attn_mask == 0, float(0.0))


def shifted_window_attention(input: Tensor, qkv_weight: Tensor, proj_weight: Tensor, relative_position_bias: Tensor,
                             window_size: list[int], num_heads: int, shift_size: list[int],
                             attention_dropout: float = 0.0, dropout: float = 0.0, qkv_bias: Tensor | None = None,
                             proj_bias: Tensor | None = None, logit_scale: Tensor | None = None,
                             training: bool = True) -> Tensor:
    """Multi-head self-attention within windows of ``window_size`` of an ``(N, H, W, C)`` input (padded to whole
    windows), the map first rolled back by ``shift_size`` (no shift along a side the window covers), with
    ``relative_position_bias`` added to the logits. Scaled dot products, or with ``logit_scale`` (Swin V2)
    cosine similarities times ``exp(min(logit_scale, log 100))``, the key part of ``qkv_bias`` then unused."""
    B, H, W, C = input.shape
    pad_r = (window_size[1] - W % window_size[1]) % window_size[1]
    pad_b = (window_size[0] - H % window_size[0]) % window_size[0]
    x = F.pad(input, (0, 0, 0, pad_r, 0, pad_b))
    _, pad_H, pad_W, _ = x.shape
    shift_size = shift_size.copy()
    if window_size[0] >= pad_H:
        shift_size[0] = 0
    if window_size[1] >= pad_W:
        shift_size[1] = 0
    if sum(shift_size) > 0:
        x = minitorch.roll(x, shifts=(-shift_size[0], -shift_size[1]), dims=(1, 2))

    # partition into windows: (B * windows, positions of a window, C)
    num_windows = (pad_H // window_size[0]) * (pad_W // window_size[1])
    x = x.view(B, pad_H // window_size[0], window_size[0], pad_W // window_size[1], window_size[1], C)
    x = x.permute(0, 1, 3, 2, 4, 5).reshape(B * num_windows, window_size[0] * window_size[1], C)

    if logit_scale is not None and qkv_bias is not None:
        qkv_bias = qkv_bias.clone()
        length = qkv_bias.numel() // 3
        qkv_bias[length:2 * length].zero_()
    qkv = F.linear(x, qkv_weight, qkv_bias)
    qkv = qkv.reshape(x.size(0), x.size(1), 3, num_heads, C // num_heads).permute(2, 0, 3, 1, 4)
    q, k, v = qkv[0], qkv[1], qkv[2]
    if logit_scale is not None:
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        attn = attn * minitorch.clamp(logit_scale, max=math.log(100.0)).exp()
    else:
        attn = (q * (C // num_heads) ** -0.5).matmul(k.transpose(-2, -1))
    attn = attn + relative_position_bias
    if sum(shift_size) > 0:
        attn_mask = _shift_mask(x, pad_H, pad_W, window_size, shift_size, num_windows)
        attn = attn.view(x.size(0) // num_windows, num_windows, num_heads, x.size(1), x.size(1))
        attn = (attn + attn_mask.unsqueeze(1).unsqueeze(0)).view(-1, num_heads, x.size(1), x.size(1))
    attn = F.dropout(F.softmax(attn, dim=-1), p=attention_dropout, training=training)

    x = attn.matmul(v).transpose(1, 2).reshape(x.size(0), x.size(1), C)
    x = F.dropout(F.linear(x, proj_weight, proj_bias), p=dropout, training=training)

    # merge the windows, roll back, unpad
    x = x.view(B, pad_H // window_size[0], pad_W // window_size[1], window_size[0], window_size[1], C)
    x = x.permute(0, 1, 3, 2, 4, 5).reshape(B, pad_H, pad_W, C)
    if sum(shift_size) > 0:
        x = minitorch.roll(x, shifts=(shift_size[0], shift_size[1]), dims=(1, 2))
    return x[:, :H, :W, :].contiguous()


class ShiftedWindowAttention(nn.Module):
    """``shifted_window_attention`` with projections ``qkv`` and ``proj`` and a learnt table of relative
    position biases (``relative_position_bias_table``, indexed by the buffer ``relative_position_index``)."""

    def __init__(self, dim: int, window_size: list[int], shift_size: list[int], num_heads: int,
                 qkv_bias: bool = True, proj_bias: bool = True, attention_dropout: float = 0.0,
                 dropout: float = 0.0) -> None:
        super().__init__()
        if len(window_size) != 2 or len(shift_size) != 2:
            raise ValueError("window_size and shift_size must be of length 2")
        self.window_size = window_size
        self.shift_size = shift_size
        self.num_heads = num_heads
        self.attention_dropout = attention_dropout
        self.dropout = dropout
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim, bias=proj_bias)
        self.define_relative_position_bias_table()
        self.define_relative_position_index()

    def define_relative_position_bias_table(self) -> None:
        """One learnt bias per head for each of the (2 Wh - 1)(2 Ww - 1) relative positions."""
        self.relative_position_bias_table = nn.Parameter(
            minitorch.zeros((2 * self.window_size[0] - 1) * (2 * self.window_size[1] - 1), self.num_heads))
        nn.init.trunc_normal_(self.relative_position_bias_table, std=0.02)

    def define_relative_position_index(self) -> None:
        """For each pair of positions (i, j) of a window, the table row of their offset, flattened (Wh Ww)^2."""
        coords = minitorch.stack(minitorch.meshgrid(minitorch.arange(self.window_size[0]),
                                                    minitorch.arange(self.window_size[1]), indexing="ij"))
        coords_flatten = minitorch.flatten(coords, 1)
        relative_coords = (coords_flatten[:, :, None] - coords_flatten[:, None, :]).permute(1, 2, 0).contiguous()
        relative_coords[:, :, 0] += self.window_size[0] - 1
        relative_coords[:, :, 1] += self.window_size[1] - 1
        relative_coords[:, :, 0] *= 2 * self.window_size[1] - 1
        self.register_buffer("relative_position_index", relative_coords.sum(-1).flatten())

    def get_relative_position_bias(self) -> Tensor:
        return _get_relative_position_bias(self.relative_position_bias_table, self.relative_position_index,
                                           self.window_size)

    def forward(self, x: Tensor) -> Tensor:
        """``(B, H, W, C)`` to ``(B, H, W, C)``."""
        return shifted_window_attention(x, self.qkv.weight, self.proj.weight, self.get_relative_position_bias(),
                                        self.window_size, self.num_heads, shift_size=self.shift_size,
                                        attention_dropout=self.attention_dropout, dropout=self.dropout,
                                        qkv_bias=self.qkv.bias, proj_bias=self.proj.bias, training=self.training)


class ShiftedWindowAttentionV2(ShiftedWindowAttention):
    """Swin V2's window attention: cosine attention with a learnt ``logit_scale`` per head, and relative position
    biases from a small MLP (``cpb_mlp``) of log-spaced offsets (the buffer ``relative_coords_table``)."""

    def __init__(self, dim: int, window_size: list[int], shift_size: list[int], num_heads: int,
                 qkv_bias: bool = True, proj_bias: bool = True, attention_dropout: float = 0.0,
                 dropout: float = 0.0) -> None:
        super().__init__(dim, window_size, shift_size, num_heads, qkv_bias=qkv_bias, proj_bias=proj_bias,
                         attention_dropout=attention_dropout, dropout=dropout)
        self.logit_scale = nn.Parameter(minitorch.log(10 * minitorch.ones((num_heads, 1, 1))))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 512, bias=True), nn.ReLU(inplace=True),
                                     nn.Linear(512, num_heads, bias=False))
        if qkv_bias:
            length = self.qkv.bias.numel() // 3
            self.qkv.bias[length:2 * length].data.zero_()

    def define_relative_position_bias_table(self) -> None:
        """The offsets of a window, scaled to [-8, 8] and mapped by ``sign(x) log2(|x| + 1) / 3``."""
        coords_h = minitorch.arange(-(self.window_size[0] - 1), self.window_size[0], dtype=minitorch.float32)
        coords_w = minitorch.arange(-(self.window_size[1] - 1), self.window_size[1], dtype=minitorch.float32)
        table = minitorch.stack(minitorch.meshgrid([coords_h, coords_w], indexing="ij"))
        table = table.permute(1, 2, 0).contiguous().unsqueeze(0)
        table[:, :, :, 0] /= self.window_size[0] - 1
        table[:, :, :, 1] /= self.window_size[1] - 1
        table *= 8
        table = minitorch.sign(table) * minitorch.log2(minitorch.abs(table) + 1.0) / 3.0
        self.register_buffer("relative_coords_table", table)

    def get_relative_position_bias(self) -> Tensor:
        bias = _get_relative_position_bias(self.cpb_mlp(self.relative_coords_table).view(-1, self.num_heads),
                                           self.relative_position_index, self.window_size)
        return 16 * minitorch.sigmoid(bias)

    def forward(self, x: Tensor) -> Tensor:
        """``(B, H, W, C)`` to ``(B, H, W, C)``."""
        return shifted_window_attention(x, self.qkv.weight, self.proj.weight, self.get_relative_position_bias(),
                                        self.window_size, self.num_heads, shift_size=self.shift_size,
                                        attention_dropout=self.attention_dropout, dropout=self.dropout,
                                        qkv_bias=self.qkv.bias, proj_bias=self.proj.bias,
                                        logit_scale=self.logit_scale, training=self.training)


class SwinTransformerBlock(nn.Module):
    """``x + stochastic_depth(attn(norm1(x)))``, then ``x + stochastic_depth(mlp(norm2(x)))``; the MLP widens by
    ``mlp_ratio`` with GELU."""

    def __init__(self, dim: int, num_heads: int, window_size: list[int], shift_size: list[int],
                 mlp_ratio: float = 4.0, dropout: float = 0.0, attention_dropout: float = 0.0,
                 stochastic_depth_prob: float = 0.0, norm_layer: Callable[..., nn.Module] = nn.LayerNorm,
                 attn_layer: Callable[..., nn.Module] = ShiftedWindowAttention) -> None:
        super().__init__()
        self.norm1 = norm_layer(dim)
        self.attn = attn_layer(dim, window_size, shift_size, num_heads, attention_dropout=attention_dropout,
                               dropout=dropout)
        self.stochastic_depth = StochasticDepth(stochastic_depth_prob, "row")
        self.norm2 = norm_layer(dim)
        self.mlp = MLP(dim, [int(dim * mlp_ratio), dim], activation_layer=nn.GELU, inplace=None, dropout=dropout)
        for m in self.mlp.modules():
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform_(m.weight)
                if m.bias is not None:
                    nn.init.normal_(m.bias, std=1e-6)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.stochastic_depth(self.attn(self.norm1(x)))
        return x + self.stochastic_depth(self.mlp(self.norm2(x)))


class SwinTransformerBlockV2(SwinTransformerBlock):
    """Swin V2's block: the norms come after the attention and the MLP (``x + stochastic_depth(norm1(attn(x)))``),
    with ``ShiftedWindowAttentionV2``."""

    def __init__(self, dim: int, num_heads: int, window_size: list[int], shift_size: list[int],
                 mlp_ratio: float = 4.0, dropout: float = 0.0, attention_dropout: float = 0.0,
                 stochastic_depth_prob: float = 0.0, norm_layer: Callable[..., nn.Module] = nn.LayerNorm,
                 attn_layer: Callable[..., nn.Module] = ShiftedWindowAttentionV2) -> None:
        super().__init__(dim, num_heads, window_size, shift_size, mlp_ratio=mlp_ratio, dropout=dropout,
                         attention_dropout=attention_dropout, stochastic_depth_prob=stochastic_depth_prob,
                         norm_layer=norm_layer, attn_layer=attn_layer)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.stochastic_depth(self.norm1(self.attn(x)))
        return x + self.stochastic_depth(self.norm2(self.mlp(x)))


class SwinTransformer(nn.Module):
    """``features``: a ``patch_size`` patchify conv (channels last) with its norm, then per stage of ``depths``
    its blocks (``num_heads`` heads, windows of ``window_size`` shifted by half a window in every other block,
    stochastic depth growing linearly to ``stochastic_depth_prob``) and a ``downsample_layer`` between stages;
    then ``norm``, global average pool and ``head``."""

    def __init__(self, patch_size: list[int], embed_dim: int, depths: list[int], num_heads: list[int],
                 window_size: list[int], mlp_ratio: float = 4.0, dropout: float = 0.0,
                 attention_dropout: float = 0.0, stochastic_depth_prob: float = 0.1, num_classes: int = 1000,
                 norm_layer: Callable[..., nn.Module] | None = None, block: Callable[..., nn.Module] | None = None,
                 downsample_layer: Callable[..., nn.Module] = PatchMerging) -> None:
        super().__init__()
        self.num_classes = num_classes
        block = SwinTransformerBlock if block is None else block
        norm_layer = partial(nn.LayerNorm, eps=1e-5) if norm_layer is None else norm_layer
        layers: list[nn.Module] = [nn.Sequential(
            nn.Conv2d(3, embed_dim, kernel_size=(patch_size[0], patch_size[1]), stride=(patch_size[0], patch_size[1])),
            Permute([0, 2, 3, 1]), norm_layer(embed_dim))]
        total_stage_blocks = sum(depths)
        stage_block_id = 0
        for i_stage in range(len(depths)):
            stage: list[nn.Module] = []
            dim = embed_dim * 2 ** i_stage
            for i_layer in range(depths[i_stage]):
                sd_prob = stochastic_depth_prob * float(stage_block_id) / (total_stage_blocks - 1)
                stage.append(block(dim, num_heads[i_stage], window_size=window_size,
                                   shift_size=[0 if i_layer % 2 == 0 else w // 2 for w in window_size],
                                   mlp_ratio=mlp_ratio, dropout=dropout, attention_dropout=attention_dropout,
                                   stochastic_depth_prob=sd_prob, norm_layer=norm_layer))
                stage_block_id += 1
            layers.append(nn.Sequential(*stage))
            if i_stage < (len(depths) - 1):
                layers.append(downsample_layer(dim, norm_layer))
        self.features = nn.Sequential(*layers)
        num_features = embed_dim * 2 ** (len(depths) - 1)
        self.norm = norm_layer(num_features)
        self.permute = Permute([0, 3, 1, 2])  # B H W C -> B C H W
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten(1)
        self.head = nn.Linear(num_features, num_classes)

        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.trunc_normal_(m.weight, std=0.02)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def forward(self, x: Tensor) -> Tensor:
        x = self.permute(self.norm(self.features(x)))
        return self.head(self.flatten(self.avgpool(x)))


def _weights(name: str, file: str, crop_size: int, resize_size: int, accuracy: tuple[float, float], num_params: int,
             ops: float, file_size: float) -> Any:
    recipe = "https://github.com/pytorch/vision/tree/main/references/classification#swintransformer"
    return _imagenet_weights(f"https://download.pytorch.org/models/{file}", resize_size, accuracy,
                             crop_size=crop_size, interpolation=InterpolationMode.BICUBIC, num_params=num_params,
                             min_size=(crop_size, crop_size), recipe=recipe + ("-v2" if "_v2_" in name else ""),
                             _ops=ops, _file_size=file_size,
                             _docs="These weights reproduce closely the results of the paper using a similar "
                                   "training recipe.")


class Swin_T_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_t", "swin_t-704ceda3.pth", 224, 232, (81.474, 95.776), 28288354, 4.491, 108.19)
    DEFAULT = IMAGENET1K_V1


class Swin_S_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_s", "swin_s-5e29d889.pth", 224, 246, (83.196, 96.360), 49606258, 8.741, 189.786)
    DEFAULT = IMAGENET1K_V1


class Swin_B_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_b", "swin_b-68c6b09e.pth", 224, 238, (83.582, 96.640), 87768224, 15.431, 335.364)
    DEFAULT = IMAGENET1K_V1


class Swin_V2_T_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_v2_t", "swin_v2_t-b137f0e2.pth", 256, 260, (82.072, 96.132), 28351570, 5.94,
                             108.626)
    DEFAULT = IMAGENET1K_V1


class Swin_V2_S_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_v2_s", "swin_v2_s-637d8ceb.pth", 256, 260, (83.712, 96.816), 49737442, 11.546,
                             190.675)
    DEFAULT = IMAGENET1K_V1


class Swin_V2_B_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("swin_v2_b", "swin_v2_b-781e5279.pth", 256, 272, (84.112, 96.864), 87930848, 20.325,
                             336.372)
    DEFAULT = IMAGENET1K_V1


def _builder(name: str, weights_enum: type[WeightsEnum], embed_dim: int, depths: list[int], num_heads: list[int],
             stochastic_depth_prob: float):
    """The builder of this Swin (4x4 patches; V2: 8x8 windows, V2 blocks and patch merging; V1: 7x7 windows)."""
    v2 = {"block": SwinTransformerBlockV2, "downsample_layer": PatchMergingV2} if "_v2_" in name else {}

    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> SwinTransformer:
        factory = _fixed(SwinTransformer, patch_size=[4, 4], embed_dim=embed_dim, depths=depths,
                          num_heads=num_heads, window_size=[8, 8] if v2 else [7, 7],
                          stochastic_depth_prob=stochastic_depth_prob, **v2)
        return _build(factory, weights, progress, kwargs)
    doc = (f"{name} (``embed_dim`` {embed_dim}, ``depths`` {depths}). ``weights``: a ``{weights_enum.__name__}`` "
           f"(or its name) or None; ``kwargs``: ``SwinTransformer``'s arguments.")
    return _registered_builder(name, weights_enum, build, doc)


swin_t = _builder("swin_t", Swin_T_Weights, 96, [2, 2, 6, 2], [3, 6, 12, 24], 0.2)
swin_s = _builder("swin_s", Swin_S_Weights, 96, [2, 2, 18, 2], [3, 6, 12, 24], 0.3)
swin_b = _builder("swin_b", Swin_B_Weights, 128, [2, 2, 18, 2], [4, 8, 16, 32], 0.5)
swin_v2_t = _builder("swin_v2_t", Swin_V2_T_Weights, 96, [2, 2, 6, 2], [3, 6, 12, 24], 0.2)
swin_v2_s = _builder("swin_v2_s", Swin_V2_S_Weights, 96, [2, 2, 18, 2], [3, 6, 12, 24], 0.3)
swin_v2_b = _builder("swin_v2_b", Swin_V2_B_Weights, 128, [2, 2, 18, 2], [4, 8, 16, 32], 0.5)
