"""The parallel layer: chunks cover the range once, grain and nesting rules, errors, fork, thread-count independence."""
import os
import threading

import numpy as np
import pytest

import minitorch
from minitorch._core import parallel as _parallel
from minitorch._core.parallel import parallel_for, parallel_reduce


@pytest.fixture(params=[1, 2, 3, 4])
def threads(request):
    before = minitorch.get_num_threads()
    minitorch.set_num_threads(request.param)
    yield request.param
    minitorch.set_num_threads(before)


def chunks_of(begin, end, grain):
    seen, lock = [], threading.Lock()

    def record(b, e):
        with lock:
            seen.append((b, e, threading.current_thread().name))

    parallel_for(begin, end, grain, record)
    return sorted(seen)


@pytest.mark.parametrize("begin,end,grain", [(0, 10, 1), (5, 1006, 100), (0, 7, 3), (3, 4, 1), (0, 100, 1000)])
def test_chunks_cover_the_range_once_and_hold_at_least_a_grain(threads, begin, end, grain):
    seen = chunks_of(begin, end, grain)
    assert [b for b, _, _ in seen][0] == begin and seen[-1][1] == end
    assert all(e0 == b1 for (_, e0, _), (b1, _, _) in zip(seen, seen[1:]))
    n = end - begin
    assert len(seen) == max(1, min(threads, n // grain))
    if len(seen) > 1:
        assert all(e - b >= grain for b, e, _ in seen)
        assert len({name for _, _, name in seen}) >= 2  # chunk 0 on the caller, the others on the pool


def test_small_work_and_empty_ranges_stay_on_the_caller(threads):
    assert [name for _, _, name in chunks_of(0, 100, 100)] == [threading.current_thread().name]
    assert chunks_of(4, 4, 1) == [] and chunks_of(5, 2, 1) == []


def test_nested_parallel_for_runs_inline(threads):
    inner = []

    def outer(b, e):
        inner.append(chunks_of(0, 1000, 1))

    parallel_for(0, 1000, 1, outer)
    assert all(len(c) == 1 for c in inner)  # inside a chunk, no further split


def test_the_first_error_is_raised_after_every_chunk_finished(threads):
    finished = []

    def work(b, e):
        if b == 0:
            raise ValueError("chunk 0 failed")
        threading.Event().wait(0.01)
        finished.append(b)

    with pytest.raises(ValueError, match="chunk 0 failed"):
        parallel_for(0, 4, 1, work)
    assert len(finished) == min(threads, 4) - 1
    parallel_for(0, 4, 1, lambda b, e: None)  # the pool still works


@pytest.mark.parametrize("n,grain", [(1, 4), (1000, 7), (100_003, 4096)])
def test_reduce_bits_do_not_depend_on_the_thread_count(n, grain):
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    results = []
    for t in (1, 2, 3, 4):
        minitorch.set_num_threads(t)
        results.append(parallel_reduce(0, n, grain, lambda b, e: x[b:e].sum(dtype=np.float32), np.add))
    minitorch.set_num_threads(2)
    assert len({r.tobytes() for r in results}) == 1
    expected = np.float32(0)
    for b in range(0, n, grain):  # left to right over fixed chunks, by hand
        expected = expected + x[b:b + grain].sum(dtype=np.float32)
    assert results[0].tobytes() == expected.tobytes()


def test_parallel_writes_equal_serial_writes(threads):
    x = np.random.default_rng(1).standard_normal(100_001).astype(np.float32)
    out = np.empty_like(x)
    parallel_for(0, x.size, 1000, lambda b, e: np.exp(x[b:e], out=out[b:e]))
    assert out.tobytes() == np.exp(x).tobytes()


def test_set_num_threads_sizes_the_pool_and_blas():
    from threadpoolctl import threadpool_info
    before = minitorch.get_num_threads()
    try:
        minitorch.set_num_threads(3)
        assert minitorch.get_num_threads() == 3
        assert len(chunks_of(0, 300, 1)) == 3 and _parallel._pool.size == 2  # the caller is the third thread
        assert all(p["num_threads"] == 3 for p in threadpool_info() if p["user_api"] == "blas")
        with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
            minitorch.set_num_threads(0)
    finally:
        minitorch.set_num_threads(before)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_gets_a_new_pool():
    minitorch.set_num_threads(2)
    parallel_for(0, 2, 1, lambda b, e: None)  # the parent's pool exists
    pid = os.fork()
    if pid == 0:  # the child: its pool's threads were not copied; a new one must serve it
        try:
            out = []
            parallel_for(0, 2, 1, lambda b, e: out.append(b))
            os._exit(0 if sorted(out) == [0, 1] and _parallel._pool is not None else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
