"""The number of threads numpy's BLAS uses for matrix products (and so convolutions)."""
from __future__ import annotations

from threadpoolctl import threadpool_info, threadpool_limits

_limits = None  # keeps the current limit applied


def set_num_threads(n: int) -> None:
    """Use ``n`` threads in BLAS, like ``torch.set_num_threads``."""
    global _limits
    if int(n) < 1:
        raise RuntimeError("set_num_threads expects a positive integer")
    _limits = threadpool_limits(limits=int(n), user_api="blas")


def get_num_threads() -> int:
    """The number of threads BLAS uses."""
    counts = [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]
    return max(counts, default=1)
