"""pixel_shuffle / pixel_unshuffle: each the other's gradient (torch's PixelShuffleBackward0 and
PixelUnshuffleBackward0 nodes)."""
from __future__ import annotations

from ..._core.function import Op
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.samples import mt, leaf


def shuffle(a, r: int):
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r) on a numpy array."""
    *lead, c, h, w = a.shape
    n = len(lead)
    x = a.reshape(*lead, c // (r * r), r, r, h, w).transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*lead, c // (r * r), h * r, w * r)


def unshuffle(a, r: int):
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W) on a numpy array."""
    *lead, c, h, w = a.shape
    n = len(lead)
    x = a.reshape(*lead, c, h // r, r, w // r, r).transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*lead, c * r * r, h // r, w // r)


class PixelShuffle(Op):
    @staticmethod
    def forward(ctx, a, upscale_factor=1):
        ctx.r = upscale_factor
        return shuffle(a, upscale_factor)

    @staticmethod
    def backward(ctx, g):
        return PixelUnshuffle.apply(g, downscale_factor=ctx.r)


class PixelUnshuffle(Op):
    @staticmethod
    def forward(ctx, a, downscale_factor=1):
        ctx.r = downscale_factor
        return unshuffle(a, downscale_factor)

    @staticmethod
    def backward(ctx, g):
        return PixelShuffle.apply(g, upscale_factor=ctx.r)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
def _pixel_check(input, name, factor, what):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           "dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


@register(method=False, functional=True, sample=(lambda a: mt.pixel_shuffle(a, 2), lambda: (leaf(1, 8, 2, 3),)))
def pixel_shuffle(input, upscale_factor: int) -> Tensor:
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r)."""
    r = upscale_factor
    _pixel_check(input, "pixel_shuffle", r, "upscale_factor")
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return PixelShuffle.apply(input, upscale_factor=r)


@register(method=False, functional=True, sample=(lambda a: mt.pixel_unshuffle(a, 2), lambda: (leaf(1, 2, 4, 6),)))
def pixel_unshuffle(input, downscale_factor: int) -> Tensor:
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W)."""
    r = downscale_factor
    _pixel_check(input, "pixel_unshuffle", r, "downscale_factor")
    *lead, c, h, w = input.shape
    for name, size, dim in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={size} is not divisible by {r}")
    return PixelUnshuffle.apply(input, downscale_factor=r)


@register(method=False, functional=True, aliases=("native_channel_shuffle",),
          sample=(lambda a: mt.channel_shuffle(a, 2), lambda: (leaf(2, 6, 3),)))
def channel_shuffle(input, groups: int) -> Tensor:
    """(N, g * k, *) -> (N, k * g, *): the channels regrouped, ``[c0 of group 0, c0 of group 1, ...]``."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    n, c, *rest = input.shape
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    return input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(input.shape)
