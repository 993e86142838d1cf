"""Multi-tensor updates: one call updates all of a parameter group (PyTorch's ``foreach``), split over the threads.

An update rule is written once, as an elementwise kernel ``kernel(*arrays, *scalars)`` that updates numpy arrays
in place (the parameter, its gradient, its state). ``foreach_update`` runs the kernel over every element of the
group's parameters: the elements are split across the intra-op threads (whole parameters, or contiguous runs of
rows of big ones), and each thread walks its share in blocks small enough that the kernel's temporaries stay in
the core's cache (one trip to memory per array instead of one per operation). Each element goes through the same
operations in the same order however it is split, so the result is the same bits at any thread count and as the
plain loop over whole parameters (``foreach=False``).
"""
from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core import parallel as _parallel

# One parameter's arrays (of one shape, the parameter first; None for a state the rule does not keep), and the
# kernel's scalars for that parameter.
Arrays = Sequence["np.ndarray | None"]
Item = tuple[Arrays, tuple[Any, ...]]

BLOCK_BYTES = 1 << 20  # per array and block: a block's arrays and temporaries stay in a core's caches


def foreach_update(kernel: Callable[..., None], items: list[Item], foreach: bool | None = None) -> None:
    """``kernel(*arrays, *scalars)`` for every ``(arrays, scalars)`` of ``items``: with ``foreach=False`` on each
    parameter's whole arrays in turn, else on all items' elements at once, split across threads and blocks.
    Kernels never see 0-d arrays (they get 1-element views), so that they may write into temporaries with ``out=``."""
    if foreach is False:
        for arrays, scalars in items:
            kernel(*_at_least_1d(arrays), *scalars)
        return
    pieces, starts = [], [0]  # pieces: (size, itemsize, arrays, scalars) of the items with elements
    for arrays, scalars in items:
        size = arrays[0].size
        if size:
            pieces.append((size, arrays[0].itemsize, _at_least_1d(arrays), scalars))
            starts.append(starts[-1] + size)

    def chunk(begin: int, end: int) -> None:
        for i in range(bisect.bisect_right(starts, begin) - 1, len(pieces)):
            start = starts[i]
            if start >= end:
                break
            size, itemsize, arrays, scalars = pieces[i]
            if begin <= start and start + size <= end and size * itemsize <= BLOCK_BYTES:
                kernel(*arrays, *scalars)
            else:
                _blocks(kernel, arrays, scalars, begin - start, end - start, itemsize)

    if pieces:  # a thread's share is at least a block: handing work to a pool thread costs tens of microseconds
        _parallel.parallel_for(0, starts[-1], max(_parallel.GRAIN_SIZE, BLOCK_BYTES // pieces[0][1]), chunk)


def _at_least_1d(arrays: Arrays) -> Arrays:
    if arrays[0].ndim:
        return arrays
    return [None if a is None else a.reshape(1) for a in arrays]


def _blocks(kernel: Callable[..., None], arrays: Arrays, scalars: tuple[Any, ...], begin: int, end: int,
            itemsize: int) -> None:
    """The kernel on one parameter's elements ``[begin, end)`` (clipped to them), a block at a time: on 1-d views
    where every array is C-contiguous, else on rows of the arrays' own first axis (any layout splits there), each
    row going to the range that holds its first element."""
    if all(a is None or a.flags.c_contiguous for a in arrays):
        arrays = [None if a is None else a.reshape(-1) for a in arrays]
    rows = len(arrays[0])
    row_size = arrays[0].size // rows
    first, last = -(-max(begin, 0) // row_size), min(-(-end // row_size), rows)
    step = max(1, BLOCK_BYTES // (itemsize * row_size))
    for r in range(first, last, step):
        stop = min(r + step, last)
        kernel(*(None if a is None else a[r:stop] for a in arrays), *scalars)
