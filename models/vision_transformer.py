"""Vision Transformer (Dosovitskiy et al., "An Image is Worth 16x16 Words", 2020) with torchvision's structure:
the same classes, arguments, attribute names and state_dict keys (``class_token``, ``conv_proj.weight``,
``encoder.pos_embedding``, ``encoder.layers.encoder_layer_0.self_attention.in_proj_weight``, ...,
``heads.head.weight``), so torchvision checkpoints load; ``interpolate_embeddings`` adapts a checkpoint to
another image size."""
from __future__ import annotations

import math
from collections import OrderedDict
from functools import partial
from typing import Any, Callable, NamedTuple

import minitorch
from minitorch import Tensor, nn

from ._api import WeightsEnum, _imagenet_weights, _swag_weights, new_recipe_docs
from ._utils import _build, _fixed, _ovewrite_named_param, _registered_builder
from .ops.misc import MLP, Conv2dNormActivation

__all__ = ["VisionTransformer", "ViT_B_16_Weights", "ViT_B_32_Weights", "ViT_L_16_Weights", "ViT_L_32_Weights",
           "ViT_H_14_Weights", "vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14"]


class ConvStemConfig(NamedTuple):
    """A layer of a convolutional stem (Xiao et al., 2021) replacing the patchify convolution."""

    out_channels: int
    kernel_size: int
    stride: int
    norm_layer: Callable[..., nn.Module] = nn.BatchNorm2d
    activation_layer: Callable[..., nn.Module] = nn.ReLU


class MLPBlock(MLP):
    """The transformer's MLP: Linear to ``mlp_dim``, GELU, Dropout, Linear back, Dropout. Checkpoints of its
    first layout (``linear_1``, ``linear_2``) load too."""

    _version = 2

    def __init__(self, in_dim: int, mlp_dim: int, dropout: float) -> None:
        super().__init__(in_dim, [mlp_dim, in_dim], activation_layer=nn.GELU, inplace=None, dropout=dropout)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.xavier_uniform_(m.weight)
                if m.bias is not None:
                    nn.init.normal_(m.bias, std=1e-6)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        version = local_metadata.get("version", None)
        if version is None or version < 2:
            for i in range(2):
                for kind in ["weight", "bias"]:
                    old_key = f"{prefix}linear_{i + 1}.{kind}"
                    if old_key in state_dict:
                        state_dict[f"{prefix}{3 * i}.{kind}"] = state_dict.pop(old_key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)


class EncoderBlock(nn.Module):
    """Pre-norm transformer layer: ``x = input + dropout(attention(ln_1(input)))``, ``x + mlp(ln_2(x))``."""

    def __init__(self, num_heads: int, hidden_dim: int, mlp_dim: int, dropout: float, attention_dropout: float,
                 norm_layer: Callable[..., nn.Module] = partial(nn.LayerNorm, eps=1e-6)) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.ln_1 = norm_layer(hidden_dim)
        self.self_attention = nn.MultiheadAttention(hidden_dim, num_heads, dropout=attention_dropout,
                                                    batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.ln_2 = norm_layer(hidden_dim)
        self.mlp = MLPBlock(hidden_dim, mlp_dim, dropout)

    def forward(self, input: Tensor) -> Tensor:
        minitorch._assert(input.dim() == 3, f"Expected (batch_size, seq_length, hidden_dim) got {input.shape}")
        x = self.ln_1(input)
        x, _ = self.self_attention(x, x, x, need_weights=False)
        x = self.dropout(x) + input
        return x + self.mlp(self.ln_2(x))


class Encoder(nn.Module):
    """Learnt position embeddings (``pos_embedding``), dropout, ``num_layers`` encoder blocks, a final norm."""

    def __init__(self, seq_length: int, num_layers: int, num_heads: int, hidden_dim: int, mlp_dim: int,
                 dropout: float, attention_dropout: float,
                 norm_layer: Callable[..., nn.Module] = partial(nn.LayerNorm, eps=1e-6)) -> None:
        super().__init__()
        self.pos_embedding = nn.Parameter(minitorch.empty(1, seq_length, hidden_dim).normal_(std=0.02))  # as BERT
        self.dropout = nn.Dropout(dropout)
        layers: OrderedDict[str, nn.Module] = OrderedDict()
        for i in range(num_layers):
            layers[f"encoder_layer_{i}"] = EncoderBlock(num_heads, hidden_dim, mlp_dim, dropout, attention_dropout,
                                                        norm_layer)
        self.layers = nn.Sequential(layers)
        self.ln = norm_layer(hidden_dim)

    def forward(self, input: Tensor) -> Tensor:
        minitorch._assert(input.dim() == 3, f"Expected (batch_size, seq_length, hidden_dim) got {input.shape}")
        return self.ln(self.layers(self.dropout(input + self.pos_embedding)))


class VisionTransformer(nn.Module):
    """``image_size`` images cut into ``patch_size`` patches by ``conv_proj`` (a strided conv, or the conv stem of
    ``conv_stem_configs``), a class token prepended, the ``encoder``, and ``heads`` on the class token (Linear,
    or Linear to ``representation_size``, Tanh, Linear)."""

    def __init__(self, image_size: int, patch_size: int, num_layers: int, num_heads: int, hidden_dim: int,
                 mlp_dim: int, dropout: float = 0.0, attention_dropout: float = 0.0, num_classes: int = 1000,
                 representation_size: int | None = None,
                 norm_layer: Callable[..., nn.Module] = partial(nn.LayerNorm, eps=1e-6),
                 conv_stem_configs: list[ConvStemConfig] | None = None) -> None:
        super().__init__()
        minitorch._assert(image_size % patch_size == 0, "Input shape indivisible by patch size!")
        self.image_size = image_size
        self.patch_size = patch_size
        self.hidden_dim = hidden_dim
        self.mlp_dim = mlp_dim
        self.attention_dropout = attention_dropout
        self.dropout = dropout
        self.num_classes = num_classes
        self.representation_size = representation_size
        self.norm_layer = norm_layer

        if conv_stem_configs is not None:
            seq_proj = nn.Sequential()
            prev_channels = 3
            for i, cfg in enumerate(conv_stem_configs):
                seq_proj.add_module(f"conv_bn_relu_{i}", Conv2dNormActivation(
                    in_channels=prev_channels, out_channels=cfg.out_channels, kernel_size=cfg.kernel_size,
                    stride=cfg.stride, norm_layer=cfg.norm_layer, activation_layer=cfg.activation_layer))
                prev_channels = cfg.out_channels
            seq_proj.add_module("conv_last", nn.Conv2d(in_channels=prev_channels, out_channels=hidden_dim,
                                                       kernel_size=1))
            self.conv_proj: nn.Module = seq_proj
        else:
            self.conv_proj = nn.Conv2d(in_channels=3, out_channels=hidden_dim, kernel_size=patch_size,
                                       stride=patch_size)
        seq_length = (image_size // patch_size) ** 2 + 1  # the patches and the class token
        self.class_token = nn.Parameter(minitorch.zeros(1, 1, hidden_dim))
        self.encoder = Encoder(seq_length, num_layers, num_heads, hidden_dim, mlp_dim, dropout, attention_dropout,
                               norm_layer)
        self.seq_length = seq_length
        heads_layers: OrderedDict[str, nn.Module] = OrderedDict()
        if representation_size is None:
            heads_layers["head"] = nn.Linear(hidden_dim, num_classes)
        else:
            heads_layers["pre_logits"] = nn.Linear(hidden_dim, representation_size)
            heads_layers["act"] = nn.Tanh()
            heads_layers["head"] = nn.Linear(representation_size, num_classes)
        self.heads = nn.Sequential(heads_layers)

        if isinstance(self.conv_proj, nn.Conv2d):
            fan_in = self.conv_proj.in_channels * self.conv_proj.kernel_size[0] * self.conv_proj.kernel_size[1]
            nn.init.trunc_normal_(self.conv_proj.weight, std=math.sqrt(1 / fan_in))
            if self.conv_proj.bias is not None:
                nn.init.zeros_(self.conv_proj.bias)
        elif self.conv_proj.conv_last is not None and isinstance(self.conv_proj.conv_last, nn.Conv2d):
            nn.init.normal_(self.conv_proj.conv_last.weight, mean=0.0,
                            std=math.sqrt(2.0 / self.conv_proj.conv_last.out_channels))
            if self.conv_proj.conv_last.bias is not None:
                nn.init.zeros_(self.conv_proj.conv_last.bias)
        if hasattr(self.heads, "pre_logits") and isinstance(self.heads.pre_logits, nn.Linear):
            nn.init.trunc_normal_(self.heads.pre_logits.weight, std=math.sqrt(1 / self.heads.pre_logits.in_features))
            nn.init.zeros_(self.heads.pre_logits.bias)
        if isinstance(self.heads.head, nn.Linear):
            nn.init.zeros_(self.heads.head.weight)
            nn.init.zeros_(self.heads.head.bias)

    def _process_input(self, x: Tensor) -> Tensor:
        """``(n, 3, image_size, image_size)`` images as ``(n, patches, hidden_dim)`` sequences."""
        n, c, h, w = x.shape
        p = self.patch_size
        minitorch._assert(h == self.image_size, f"Wrong image height! Expected {self.image_size} but got {h}!")
        minitorch._assert(w == self.image_size, f"Wrong image width! Expected {self.image_size} but got {w}!")
        x = self.conv_proj(x).reshape(n, self.hidden_dim, (h // p) * (w // p))
        return x.permute(0, 2, 1)

    def forward(self, x: Tensor) -> Tensor:
        x = self._process_input(x)
        x = minitorch.cat([self.class_token.expand(x.shape[0], -1, -1), x], dim=1)
        x = self.encoder(x)
        return self.heads(x[:, 0])


_URL = "https://download.pytorch.org/models/"
_DEIT_DOCS = ("These weights were trained from scratch by using a modified version of `DeIT "
              "<https://arxiv.org/abs/2012.12877>`_'s training recipe.")


def _weights(file: str, resize_size: int, accuracy: tuple[float, float], num_params: int, ops: float,
             file_size: float, docs: str = _DEIT_DOCS) -> Any:
    """An entry trained from scratch on ImageNet-1K with torchvision's references (evaluated at 224 pixels)."""
    name = file.split("-")[0]
    return _imagenet_weights(_URL + file, resize_size, accuracy, num_params=num_params, min_size=(224, 224),
                             recipe=f"https://github.com/pytorch/vision/tree/main/references/classification#{name}",
                             _ops=ops, _file_size=file_size, _docs=docs)


def _swag(file: str, size: int, linear: bool, accuracy: tuple[float, float], num_params: int, ops: float,
          file_size: float) -> Any:
    return _swag_weights(_URL + file, size, accuracy, linear, num_params=num_params, min_size=(size, size), _ops=ops,
                         _file_size=file_size)


class ViT_B_16_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("vit_b_16-c867db91.pth", 256, (81.072, 95.318), 86567656, 17.564, 330.285)
    IMAGENET1K_SWAG_E2E_V1 = _swag("vit_b_16_swag-9ac1b537.pth", 384, False, (85.304, 97.650), 86859496, 55.484,
                                   331.398)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("vit_b_16_lc_swag-4e70ced5.pth", 224, True, (81.886, 96.180), 86567656, 17.564,
                                      330.285)
    DEFAULT = IMAGENET1K_V1


class ViT_B_32_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("vit_b_32-d86f8d99.pth", 256, (75.912, 92.466), 88224232, 4.409, 336.604)
    DEFAULT = IMAGENET1K_V1


class ViT_L_16_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("vit_l_16-852ce7e3.pth", 242, (79.662, 94.638), 304326632, 61.555, 1161.023,
                             new_recipe_docs("a modified version of ", "were trained from scratch"))
    IMAGENET1K_SWAG_E2E_V1 = _swag("vit_l_16_swag-4f3808c9.pth", 512, False, (88.064, 98.512), 305174504, 361.986,
                                   1164.258)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("vit_l_16_lc_swag-4d563306.pth", 224, True, (85.146, 97.422), 304326632,
                                      61.555, 1161.023)
    DEFAULT = IMAGENET1K_V1


class ViT_L_32_Weights(WeightsEnum):
    IMAGENET1K_V1 = _weights("vit_l_32-c7638314.pth", 256, (76.972, 93.070), 306535400, 15.378, 1169.449)
    DEFAULT = IMAGENET1K_V1


class ViT_H_14_Weights(WeightsEnum):
    IMAGENET1K_SWAG_E2E_V1 = _swag("vit_h_14_swag-80465313.pth", 518, False, (88.552, 98.694), 633470440, 1016.717,
                                   2416.643)
    IMAGENET1K_SWAG_LINEAR_V1 = _swag("vit_h_14_lc_swag-c1eb923e.pth", 224, True, (85.708, 97.730), 632045800,
                                      167.295, 2411.209)
    DEFAULT = IMAGENET1K_SWAG_E2E_V1


def _vision_transformer(patch_size: int, num_layers: int, num_heads: int, hidden_dim: int,
                        mlp_dim: int) -> Callable[..., VisionTransformer]:
    """What builds this ViT from ``(weights, progress, kwargs)``: ``image_size`` (default 224) is the weights'
    ``min_size`` when weights are given."""
    def build(weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> VisionTransformer:
        if weights is not None:
            assert weights.meta["min_size"][0] == weights.meta["min_size"][1]
            _ovewrite_named_param(kwargs, "image_size", weights.meta["min_size"][0])
        factory = _fixed(VisionTransformer, image_size=kwargs.pop("image_size", 224), patch_size=patch_size,
                          num_layers=num_layers, num_heads=num_heads, hidden_dim=hidden_dim, mlp_dim=mlp_dim)
        return _build(factory, weights, progress, kwargs)
    return build


def _builder(name: str, weights_enum: type[WeightsEnum], *settings: int, legacy_weights: str | None = "IMAGENET1K_V1"):
    doc = (f"{name} (``patch_size, num_layers, num_heads, hidden_dim, mlp_dim`` = {settings}). ``weights``: a "
           f"``{weights_enum.__name__}`` (or its name) or None; ``kwargs``: ``VisionTransformer``'s arguments "
           f"(``image_size`` 224 by default).")
    return _registered_builder(name, weights_enum, _vision_transformer(*settings), doc, legacy_weights)


vit_b_16 = _builder("vit_b_16", ViT_B_16_Weights, 16, 12, 12, 768, 3072)
vit_b_32 = _builder("vit_b_32", ViT_B_32_Weights, 32, 12, 12, 768, 3072)
vit_l_16 = _builder("vit_l_16", ViT_L_16_Weights, 16, 24, 16, 1024, 4096)
vit_l_32 = _builder("vit_l_32", ViT_L_32_Weights, 32, 24, 16, 1024, 4096)
vit_h_14 = _builder("vit_h_14", ViT_H_14_Weights, 14, 32, 16, 1280, 5120, legacy_weights=None)


def interpolate_embeddings(image_size: int, patch_size: int, model_state: OrderedDict[str, Tensor],
                           interpolation_mode: str = "bicubic", reset_heads: bool = False) -> OrderedDict[str, Tensor]:
    """``model_state`` (a ViT state_dict) with its position embeddings resized for ``image_size`` images of
    ``patch_size`` patches: the grid of patch embeddings interpolated (``interpolation_mode``, corners aligned),
    the class token's kept; without the ``heads`` entries when ``reset_heads`` (and the size changed)."""
    pos_embedding = model_state["encoder.pos_embedding"]
    n, seq_length, hidden_dim = pos_embedding.shape
    if n != 1:
        raise ValueError(f"Unexpected position embedding shape: {pos_embedding.shape}")
    new_seq_length = (image_size // patch_size) ** 2 + 1
    if new_seq_length != seq_length:
        seq_length -= 1
        new_seq_length -= 1
        pos_embedding_token = pos_embedding[:, :1, :]
        pos_embedding_img = pos_embedding[:, 1:, :].permute(0, 2, 1)
        seq_length_1d = int(math.sqrt(seq_length))
        if seq_length_1d * seq_length_1d != seq_length:
            raise ValueError(f"seq_length is not a perfect square! Instead got seq_length_1d * seq_length_1d = "
                             f"{seq_length_1d * seq_length_1d} and seq_length = {seq_length}")
        pos_embedding_img = pos_embedding_img.reshape(1, hidden_dim, seq_length_1d, seq_length_1d)
        new_pos_embedding_img = nn.functional.interpolate(pos_embedding_img, size=image_size // patch_size,
                                                          mode=interpolation_mode, align_corners=True)
        new_pos_embedding_img = new_pos_embedding_img.reshape(1, hidden_dim, new_seq_length).permute(0, 2, 1)
        model_state["encoder.pos_embedding"] = minitorch.cat([pos_embedding_token, new_pos_embedding_img], dim=1)
        if reset_heads:
            model_state = OrderedDict((k, v) for k, v in model_state.items() if not k.startswith("heads"))
    return model_state
