"""PyTorch's CPU random streams in numpy: the kernels that turn Mersenne Twister words into samples.

Every function here takes a ``minitorch.Generator`` and draws its words exactly as PyTorch 2.13 does on
x86-64 (see the project's RNG specification), so seeded programs give PyTorch's numbers bit for bit.
"""
from __future__ import annotations

import math

import numpy as np


def libm(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` (a ``math`` function) on every element of a float64 array.

    PyTorch's float64 samplers call the platform libm, and numpy's own ``log``/``log1p`` differ from it in the
    last bit for some inputs; Python's ``math`` calls the same libm, so this keeps the draws bit for bit.
    """
    return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


BLOCK = 1 << 16  # values per block: whole-array temporaries of millions of values are fresh, page-faulting mmaps


def u24(gen, n: int) -> np.ndarray:
    """``n`` float32 uniforms in [0, 1), each from the low 24 bits of one word."""
    out = np.empty(n, np.float32)
    for start in range(0, n, BLOCK):
        low = gen._words(min(BLOCK, n - start)).view(np.uint32)[::2]  # the words' (little-endian) low halves
        np.multiply((low & np.uint32(0xFFFFFF)).view(np.int32), np.float32(2.0 ** -24), out=out[start:start + BLOCK])
    return out


def u53(gen, n: int) -> np.ndarray:
    """``n`` float64 uniforms in [0, 1), each from the low 53 bits of a 64-bit draw (two words, first high)."""
    out = np.empty(n, np.float64)
    for start in range(0, n, BLOCK):
        halves = gen._words(2 * min(BLOCK, n - start)).view(np.uint32)
        high, low = halves[0::4], halves[2::4]
        chunk = out[start:start + BLOCK]
        np.multiply(high & np.uint32(0x1FFFFF), 2.0 ** 32, out=chunk)
        chunk += low
        chunk *= 2.0 ** -53
    return out


def memory_axes(like: np.ndarray) -> list[int]:
    """``like``'s axes from the slowest-moving in memory to the fastest: the order in which torch's kernels
    walk a strided tensor."""
    if like.flags.c_contiguous or like.ndim < 2:
        return list(range(like.ndim))
    return sorted(range(like.ndim), key=lambda d: -abs(like.strides[d]))


def empty_like_axes(like: np.ndarray) -> list[int]:
    """The memory order of torch's ``empty_like(like)``: ``like``'s own where its elements tile a block of memory
    (non-overlapping and dense, e.g. transposed), else row-major (sliced with steps, expanded)."""
    axes, expected = memory_axes(like), like.itemsize
    for d in reversed(axes):
        if like.shape[d] != 1:
            if like.strides[d] != expected:
                return list(range(like.ndim))
            expected *= like.shape[d]
    return axes


def in_memory_order(values: np.ndarray, like: np.ndarray, axes: list[int] | None = None) -> np.ndarray:
    """``values`` (drawn one after another) arranged so that walking ``like``'s memory (or ``axes``) meets them
    in order: PyTorch fills a transposed or sliced tensor in the order of its storage, not of its indices."""
    axes = memory_axes(like) if axes is None else axes
    if axes == sorted(axes):
        return values.reshape(like.shape)
    placed = np.empty(like.shape, values.dtype)
    placed.transpose(axes)[...] = values.reshape([like.shape[d] for d in axes])
    return placed


def cast(values: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Float64 samples in dtype ``dt``; float16 goes through float32, as torch's kernels round."""
    if dt == np.float16 and values.dtype == np.float64:
        values = values.astype(np.float32)
    return values.astype(dt, copy=False)


TWO_PI = 2.0 * math.pi
