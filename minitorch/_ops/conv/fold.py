"""unfold (im2col: every sliding block of an image as a column) and fold (col2im: the columns summed back
into an image), each the other's gradient."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op
from .convolution import _ntuple
from .geometry import Geometry, _pad, _window_slice, _windows
from ..._core.samples import F, leaf


class Im2Col(Op):
    """(N, C, H, W) -> (N, C * kh * kw, oh * ow): the input under each kernel position, per output pixel."""

    @staticmethod
    def forward(ctx, x, geometry=None, kernel=(1, 1), blocks=(1, 1)):
        ctx.args = geometry, kernel, blocks, x.shape[-2:]
        x4 = x.reshape((-1,) + x.shape[-3:])  # (C, H, W) images are unbatched
        win = _windows(_pad(x4, geometry.pads), *kernel, *blocks, geometry)
        return win.reshape(x.shape[:-3] + (-1, blocks[0] * blocks[1]))

    @staticmethod
    def backward(ctx, g):
        geometry, kernel, blocks, size = ctx.args
        return Col2Im.apply(g, geometry=geometry, kernel=kernel, blocks=blocks, size=size)


class Col2Im(Op):
    """(N, C * kh * kw, oh * ow) -> (N, C, H, W): each column added back under its kernel positions."""

    @staticmethod
    def forward(ctx, cols, geometry=None, kernel=(1, 1), blocks=(1, 1), size=(1, 1)):
        ctx.args = geometry, kernel, blocks
        (pt, pb), (pl, pr) = geometry.pads
        lead, (kh, kw) = cols.shape[:-2], kernel  # (C * kh * kw, L) columns are unbatched
        cols = cols.reshape(-1, cols.shape[-2] // (kh * kw), kh, kw, *blocks)
        out = np.zeros(cols.shape[:2] + (size[0] + pt + pb, size[1] + pl + pr), cols.dtype)
        for i in range(kh):
            for j in range(kw):
                out[_window_slice(i, j, *blocks, geometry)] += cols[:, :, i, j]
        return out[:, :, pt:pt + size[0], pl:pl + size[1]].reshape(lead + out.shape[1:2] + tuple(size))

    @staticmethod
    def backward(ctx, g):
        geometry, kernel, blocks = ctx.args
        return Im2Col.apply(g, geometry=geometry, kernel=kernel, blocks=blocks)


def _block_args(kernel_size, dilation, padding, stride):
    kernel, dilation, padding, stride = (_ntuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    for name, v, low in (("kernel", kernel, 1), ("dilation", dilation, 1), ("padding", padding, 0),
                         ("stride", stride, 1)):
        if min(v) < low:
            relation = "greater than zero" if low else "non-negative"
            raise RuntimeError(f"{name} should be {relation}, but got {name}_height: {v[0]} {name}_width: {v[1]}")
    return kernel, dilation, padding, stride


def _blocks(size, kernel, dilation, padding, stride) -> tuple[int, int]:
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, d, p, s in zip(size, kernel, dilation, padding,
                                                                                  stride))


@register(method=False, top_level=False, functional=True,
          sample=(lambda a: F.unfold(a, 2, padding=1, stride=(2, 1)), lambda: (leaf(1, 2, 3, 4),)))
def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Every sliding (kh, kw) block of (N, C, H, W) as a column: (N, C * kh * kw, blocks)."""
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    kernel, dilation, padding, stride = _block_args(kernel_size, dilation, padding, stride)
    size = tuple(input.shape[-2:])
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size {size}, kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, calculated shape of the array of sliding blocks as {blocks}, but its "
                           "components must be at least one.")
    geometry = Geometry(stride, tuple((p, p) for p in padding), dilation, 1)
    return Im2Col.apply(input, geometry=geometry, kernel=kernel, blocks=blocks)


@register(method=False, top_level=False, functional=True,
          sample=(lambda a: F.fold(a, (3, 4), 2, dilation=(1, 2)), lambda: (leaf(1, 8, 4),)))
def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """The columns (N, C * kh * kw, blocks) of ``unfold`` summed back into (N, C, H, W) images."""
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    kernel, dilation, padding, stride = _block_args(kernel_size, dilation, padding, stride)
    size = _ntuple(output_size, 2)
    rows, count = input.shape[-2:]  # C * kh * kw rows, one column per block
    if rows % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={rows} and kernel_size={kernel}.")
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if blocks[0] * blocks[1] != count:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={count}.")
    geometry = Geometry(stride, tuple((p, p) for p in padding), dilation, 1)
    return Col2Im.apply(input, geometry=geometry, kernel=kernel, blocks=blocks, size=size)
