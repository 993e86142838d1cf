"""Padding: constant padding (an op), and reflection, replication and circular padding (gathers by a padded index,
whose gradient scatters back); ``pad`` (nn.functional) and ``constant_pad_nd`` (ATen's form)."""
from __future__ import annotations

import numpy as np

from ..._core.function import Op
from ..._core.registry import functional_op, register
from ..._core.tensor import Tensor
from ..shape.indexing import Index, Made

def pad_index(size: int, before: int, after: int, mode: str, axis: int = 0, ndim: int = 1) -> np.ndarray:
    """Source positions for a dim padded by ``before``/``after`` in reflect, replicate or circular mode (along
    ``axis`` of ``ndim`` broadcasting axes)."""
    i = np.arange(-before, size + after)
    if mode == "reflect":
        period = 2 * (size - 1)
        i = np.abs(i) % period if period else np.zeros_like(i)
        i = np.where(i >= size, period - i, i)
    elif mode == "replicate":
        i = np.clip(i, 0, size - 1)
    else:  # circular
        i = i % size
    return i.reshape((-1,) + (1,) * (ndim - axis - 1))


class ConstantPadNd(Op):
    @staticmethod
    def forward(ctx, x, pads=(), value=0.0):
        ctx.crop = tuple(slice(b, x.shape[d] + b) for d, (b, _) in enumerate(pads))
        if any(b < 0 or a < 0 for b, a in pads):
            raise NotImplementedError("negative padding (cropping) is not supported")
        return np.pad(x, pads, constant_values=value)

    @staticmethod
    def backward(ctx, g):
        return Index.apply(g, index=ctx.crop)


class IndexPad(Index):
    """reflect / replicate / circular padding: a gather with a per-dim index map (``pad_index`` recipes)."""

    keeps_input = True


ReflectionPad2D = IndexPad.named("ReflectionPad2D", "ReflectionPad2DBackward0")
ReplicationPad2D = IndexPad.named("ReplicationPad2D", "ReplicationPad2DBackward0")
CircularPad2D = IndexPad.named("CircularPad2D", "CircularPad2DBackward0")
ReflectionPad1D = IndexPad.named("ReflectionPad1D", "ReflectionPad1DBackward0")
ReflectionPad3D = IndexPad.named("ReflectionPad3D", "ReflectionPad3DBackward0")
ReplicationPad1D = IndexPad.named("ReplicationPad1D", "ReplicationPad1DBackward0")
ReplicationPad3D = IndexPad.named("ReplicationPad3D", "ReplicationPad3DBackward0")


@register(method=False)
def constant_pad_nd(input: Tensor, pad, value: float = 0) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims with ``value`` (``pad = (left, right, top, bottom, ...)``); negative
    amounts crop."""
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * input.dim():
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(pad)}while the input has {input.dim()}dimensions.")
    pairs = [(0, 0)] * (input.dim() - len(pad) // 2) + [(pad[2 * i], pad[2 * i + 1])
                                                         for i in reversed(range(len(pad) // 2))]
    if any(n + min(b, 0) + min(a, 0) < 0 for n, (b, a) in zip(input.shape, pairs)):
        raise RuntimeError("narrow(): length must be non-negative.")
    if any(b < 0 or a < 0 for b, a in pairs):
        input = input[tuple(slice(-min(b, 0), n + min(a, 0)) for n, (b, a) in zip(input.shape, pairs))]
    return ConstantPadNd.apply(input, pads=tuple((max(b, 0), max(a, 0)) for b, a in pairs), value=value)


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
def _check_pad(input, pad, mode):
    """torch's checks of the non-constant padding modes: supported sizes, reflect below and circular up to the
    padded dims' sizes."""
    n, dims = len(pad) // 2, input.dim()
    if n not in (1, 2, 3) or dims not in (n + 1, n + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {dims}D input tensor.\n"
                                  "Supported combinations for non-constant padding:\n"
                                  "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                  "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                  "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    for i in range(n):
        size, (before, after) = input.shape[dims - 1 - i], pad[2 * i:2 * i + 2]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({before}, {after}) at dimension {dims - 1 - i} of "
                               f"input {list(input.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")


@functional_op
def pad(input, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)``."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    n = len(pad) // 2
    if n > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    pairs = [(0, 0)] * (input.dim() - n) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(n))]
    if mode == "constant":
        return ConstantPadNd.apply(input, pads=tuple(pairs), value=0.0 if value is None else value)
    ops = {"reflect": ReflectionPad2D, "replicate": ReplicationPad2D, "circular": CircularPad2D}
    if mode not in ops:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    _check_pad(input, pad, mode)
    op = {("reflect", 1): ReflectionPad1D, ("reflect", 3): ReflectionPad3D,
          ("replicate", 1): ReplicationPad1D, ("replicate", 3): ReplicationPad3D}.get((mode, n), ops[mode])
    index = tuple(slice(None) if b == a == 0 else Made(pad_index, input.shape[d], b, a, mode, d, input.dim())
                  for d, (b, a) in enumerate(pairs))
    return op.apply(input, index=index)
