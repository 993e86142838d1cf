"""``randint``/``random_`` (one word per value below a range of 2**28, two above) and ``randperm``
(PyTorch's sequential swaps)."""
from __future__ import annotations

import numpy as np

_WIDE = 1 << 28           # ranges from here on take a 64-bit draw
_MAX_SWAP_PERM = 214748364  # randperm below this size swaps with 32-bit draws


def _mod_draws(gen, n: int, span: int) -> np.ndarray:
    """``n`` draws reduced modulo ``span`` (1 <= span <= 2**64), as uint64."""
    raw = gen._words64(n) if span >= _WIDE else gen._words(n)
    return raw if span == 1 << 64 else raw % np.uint64(span)


def randint(gen, n: int, low: int, high: int, dt: np.dtype) -> np.ndarray:
    """``n`` integers in [low, high) as ``dt``: ``low + draw mod (high - low)`` with int64 wrap-around
    (the full 64-bit range takes the draws as they are)."""
    span = (high - low) % (1 << 64)
    if span == 0:
        return gen._words64(n).view(np.int64).astype(dt, copy=False)
    v = (_mod_draws(gen, n, span) + np.uint64(low % (1 << 64))).view(np.int64)
    return v.astype(dt, copy=False)


def random_full(gen, n: int, dt: np.dtype) -> np.ndarray:
    """``random_()`` without bounds: the non-negative integers ``dt`` holds exactly (floats: up to 2**digits),
    from one word per value except for the 64-bit dtypes."""
    top = to_inclusive_max(dt) if dt.kind != "b" else 1
    raw = gen._words64(n) if dt.itemsize == 8 else gen._words(n)
    return (raw % np.uint64(top + 1)).astype(dt)


def to_inclusive_max(dt: np.dtype) -> int:
    """The upper bound of ``random_(from_, None)``: the dtype's largest value (floats: 2**digits)."""
    return 1 << (np.finfo(dt).nmant + 1) if dt.kind in "fV" else int(np.iinfo(dt).max)


def randperm(gen, n: int) -> np.ndarray:
    """A permutation of ``0..n-1`` as int64: swap ``i`` with ``i + draw mod (n - i)`` for each ``i``."""
    perm = list(range(n))
    if n < _MAX_SWAP_PERM:
        steps = (gen._words(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        for i, z in enumerate(steps):
            j = i + z
            perm[i], perm[j] = perm[j], perm[i]
    else:  # inside-out shuffle with 64-bit draws
        draws = gen._words64(n)
        for i in range(n):
            z = int(draws[i] % np.uint64(i + 1))
            perm[i] = perm[z]
            perm[z] = i
    return np.array(perm, np.int64)
