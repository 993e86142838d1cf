"""Intra-op parallelism: the one layer kernels use to split work over the cores (ATen's ``at::parallel_for``).

numpy releases the GIL inside ufuncs, copies and most reductions, so Python threads that run numpy on disjoint
slices of an array use several cores at once. A kernel hands ``parallel_for`` a range and a function of one chunk
``[begin, end)``; the chunks run on a persistent pool of ``get_num_threads() - 1`` workers plus the calling thread.

The rules every kernel follows, so that results never depend on the thread count:

- ``parallel_for``: a chunk's function computes each output element by the same operations whatever the chunk's
  bounds (elementwise work, copies, per-row or per-channel work split at row or channel boundaries).
- ``parallel_reduce``: partial results over chunks whose bounds depend only on the range and the grain, combined
  in chunk order on the calling thread.
- Work below ``grain_size`` items stays on the calling thread; work started inside a chunk runs inline (no nesting).
- Chunks call no BLAS (BLAS has its own threads; ``set_num_threads`` sizes both), except through
  ``parallel_products``, which runs BLAS on one thread while its chunks run: a stack of small matrix products
  is split across the threads, each product by single-threaded BLAS, as at 1 thread.
"""
from __future__ import annotations

import os
import queue
import threading
from typing import Callable, Sequence

from threadpoolctl import ThreadpoolController, threadpool_limits

GRAIN_SIZE = 32768  # elements: below this, splitting costs more than it gains (ATen's internal::GRAIN_SIZE)


def _default_threads() -> int:
    env = os.environ.get("OMP_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


_num_threads = _default_threads()
_pool: "_Pool | None" = None
_local = threading.local()   # ``busy``: this thread is running a chunk (nested calls run inline)
_blas_limits = None          # keeps the BLAS limit of set_num_threads applied
_blas: ThreadpoolController | None = None  # made on first use by parallel_products


class _Latch:
    """Counts finished chunks; keeps the first exception a chunk raised."""

    def __init__(self, n: int):
        self.left, self.error = n, None
        self.lock, self.done = threading.Lock(), threading.Event()

    def finish(self, error: BaseException | None) -> None:
        with self.lock:
            if error is not None and self.error is None:
                self.error = error
            self.left -= 1
            if self.left == 0:
                self.done.set()


class _Pool:
    """``n`` daemon threads taking ``(function, begin, end, latch)`` tasks from one queue."""

    def __init__(self, n: int):
        self.size, self.tasks = n, queue.SimpleQueue()
        for i in range(n):
            threading.Thread(target=self._work, name=f"minitorch-intraop-{i}", daemon=True).start()

    def _work(self) -> None:
        _local.busy = True
        while True:
            task = self.tasks.get()
            if task is None:
                return
            fn, begin, end, latch = task
            error = None
            try:
                fn(begin, end)
            except BaseException as e:  # handed to the caller, which raises it
                error = e
            latch.finish(error)

    def close(self) -> None:
        for _ in range(self.size):
            self.tasks.put(None)


def _run(fn: Callable[[int, int], object], bounds: Sequence[tuple[int, int]]) -> None:
    """Run ``fn`` on every chunk: the first on this thread, the others on the pool; raise the first error."""
    global _pool
    if _pool is None or _pool.size != _num_threads - 1:
        if _pool is not None:
            _pool.close()
        _pool = _Pool(_num_threads - 1)
    latch = _Latch(len(bounds))
    for begin, end in bounds[1:]:
        _pool.tasks.put((fn, begin, end, latch))
    error = None
    _local.busy = True
    try:
        fn(*bounds[0])
    except BaseException as e:
        error = e
    finally:
        _local.busy = False
    latch.finish(error)
    latch.done.wait()  # every chunk has finished before anything is raised or returned
    if latch.error is not None:
        raise latch.error


def _threads_for(n: int, grain_size: int) -> int:
    if n < 2 * grain_size or getattr(_local, "busy", False):
        return 1
    return min(_num_threads, n // max(grain_size, 1))


def parallel_for(begin: int, end: int, grain_size: int, fn: Callable[[int, int], object]) -> None:
    """Call ``fn(b, e)`` on chunks covering ``[begin, end)``, of at least ``grain_size`` items each, in parallel."""
    n = end - begin
    if n <= 0:
        return
    threads = _threads_for(n, grain_size)
    if threads == 1:
        fn(begin, end)
        return
    step, extra = divmod(n, threads)
    bounds, b = [], begin
    for i in range(threads):
        e = b + step + (i < extra)
        bounds.append((b, e))
        b = e
    _run(fn, bounds)


def parallel_reduce(begin: int, end: int, grain_size: int, fn: Callable[[int, int], object],
                    combine: Callable[[object, object], object]) -> object:
    """``fn`` over the chunks ``[begin + k*grain_size, ...)`` combined left to right with ``combine``.

    The chunk bounds depend only on the range and ``grain_size``, never on the thread count, so the result is the
    same bits at any number of threads.
    """
    if end <= begin:
        raise ValueError("parallel_reduce of an empty range")
    starts = range(begin, end, max(grain_size, 1))
    partials = [None] * len(starts)

    def chunk_of_chunks(first: int, last: int) -> None:
        for k in range(first, last):
            partials[k] = fn(starts[k], min(starts[k] + grain_size, end))

    parallel_for(0, len(starts), 1, chunk_of_chunks)
    result = partials[0]
    for p in partials[1:]:
        result = combine(result, p)
    return result


BLOCK = 1 << 16  # elements per block of ``map_blocks``: a chain of passes over one block stays in the L2 cache


def parallel_rows(n: int, row_size: int, fn: Callable[[int, int], object]) -> None:
    """``fn(b, e)`` over rows ``[0, n)`` of ``row_size`` elements each, split in parallel at row boundaries
    (at least ``GRAIN_SIZE`` elements per chunk)."""
    parallel_for(0, n, -(-GRAIN_SIZE // max(row_size, 1)), fn)


def parallel_copy(dst, src) -> None:
    """``dst[...] = src`` (same shape), split over the first axis, or the second when the first is short."""
    axis = 0 if dst.ndim < 2 or dst.shape[0] >= 4 else 1
    if dst.size == 0:
        return
    rows, lead = dst.shape[axis], (slice(None),) * axis

    def copy(b: int, e: int) -> None:
        dst[lead + (slice(b, e),)] = src[lead + (slice(b, e),)]

    parallel_rows(rows, dst.size // rows, copy)


def map_blocks(fn: Callable[..., object], out, *inputs) -> None:
    """Elementwise ``out = fn(*inputs)`` over C-contiguous arrays of one size: ``fn(out_block, *input_blocks)``
    fills its block; the blocks (``BLOCK`` elements each, whatever the thread count) are split across threads."""
    size = out.size
    flat_out, flats = out.reshape(-1), [a.reshape(-1) for a in inputs]

    def blocks(b: int, e: int) -> None:
        for k in range(b, e):
            s = slice(k * BLOCK, min((k + 1) * BLOCK, size))
            fn(flat_out[s], *(f[s] for f in flats))

    parallel_for(0, -(-size // BLOCK), -(-GRAIN_SIZE // BLOCK), blocks)


def parallel_products(n: int, item_size: int, fn: Callable[[int, int], object]) -> None:
    """``fn(b, e)`` over ``n`` items of ``item_size`` output elements each whose work is BLAS calls (a stack of
    small matrix products): split across the threads at item boundaries, BLAS on one thread meanwhile, so that
    every product is computed by single-threaded BLAS whatever the split. Threading each small product inside
    BLAS instead costs more in synchronisation than it gains. Unsplit work keeps BLAS's threads."""
    global _blas
    grain = -(-GRAIN_SIZE // max(item_size, 1))
    if _threads_for(n, grain) == 1:
        parallel_for(0, n, grain, fn)
        return
    if _blas is None:
        _blas = ThreadpoolController()
    with _blas.limit(limits=1, user_api="blas"):
        parallel_for(0, n, grain, fn)


def set_num_threads(num: int) -> None:
    """Use ``num`` threads for intra-op work, in minitorch's kernels and in BLAS, like ``torch.set_num_threads``."""
    global _num_threads, _blas_limits
    if int(num) < 1:
        raise RuntimeError("set_num_threads expects a positive integer")
    _num_threads = int(num)
    _blas_limits = threadpool_limits(limits=_num_threads, user_api="blas")


def get_num_threads() -> int:
    """The number of threads used for intra-op parallelism."""
    return _num_threads


def _after_fork_in_child() -> None:
    # The pool's threads do not exist in a forked child: start a new pool on first use there.
    global _pool
    _pool = None
    _local.busy = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
