"""pixel_shuffle / pixel_unshuffle: each the other's gradient (torch's PixelShuffleBackward0 and
PixelUnshuffleBackward0 nodes)."""
from __future__ import annotations

from ..._core.function import Op


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
