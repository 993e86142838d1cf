"""What runs inside a DataLoader worker process, and ``get_worker_info``."""
from __future__ import annotations

import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass

import numpy as np

from ...._core.parallel import set_num_threads
from ....random import manual_seed
from ..dataset import Dataset
from .fetch import IterableDatasetFetcher, create_fetcher

# How often (seconds) a waiting worker checks that the main process is still alive; also how long shutdown
# waits for a worker to exit. (The main process notices a dead worker at once: it waits on their sentinels.)
MP_STATUS_CHECK_INTERVAL = 5.0

_worker_info: WorkerInfo | None = None


@dataclass(frozen=True)
class WorkerInfo:
    """Who this worker is: ``id`` (0 to ``num_workers - 1``), its ``seed`` and its copy of the ``dataset``."""

    id: int
    num_workers: int
    seed: int
    dataset: Dataset


def get_worker_info() -> WorkerInfo | None:
    """The ``WorkerInfo`` of the DataLoader worker process calling it; None in the main process."""
    return _worker_info


@dataclass(frozen=True)
class IterableDatasetStopIteration:
    """A worker's answer once its copy of an IterableDataset is exhausted."""

    worker_id: int


@dataclass(frozen=True)
class ResumeIteration:
    """Tells a persistent worker that a new epoch starts; it echoes this back when ready."""


class KeyErrorMessage(str):
    """A message that KeyError prints as is (KeyError shows the repr of its argument)."""

    def __repr__(self) -> str:
        return self


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process as its type and traceback text."""

    def __init__(self, where: str) -> None:
        exc_type, exc, tb = sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc, tb))
        self.where = where

    def reraise(self):
        """Raise the same exception type, its message naming the worker and quoting the original traceback."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = KeyErrorMessage(msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        raise exception


def seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed Python's, numpy's and minitorch's global generators for this worker; returns the worker's seed."""
    seed = base_seed + worker_id
    random.seed(seed)
    manual_seed(seed)
    np.random.seed(numpy_seed(base_seed, worker_id))
    return seed


def numpy_seed(base_seed: int, worker_id: int) -> list[int]:
    """The four 32-bit words a torch worker seeds numpy's legacy global generator with.

    torch's ``_generate_state`` is a re-implementation of numpy's ``SeedSequence`` hash of the
    entropy ``[worker_id, base_seed]`` (low word, then high word), so numpy's own gives the same words.
    """
    return np.random.SeedSequence([worker_id, base_seed]).generate_state(4).tolist()


def worker_loop(dataset, index_queue, result_queue, done_event, auto_collation: bool, collate_fn, drop_last: bool,
                base_seed: int, init_fn, worker_id: int, num_workers: int) -> None:
    """Answer ``(task_idx, indices)`` messages with ``(task_idx, batch)`` until told to stop with None."""
    global _worker_info
    try:
        set_num_threads(1)  # workers run side by side: one thread each (kernels and BLAS), as torch's workers do
        seed = seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
        where = f"in DataLoader worker process {worker_id}"
        init_error = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = create_fetcher(dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where)
        iteration_ended = False
        parent = os.getppid()
        while os.getppid() == parent:  # an orphaned worker exits
            try:
                message = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if message is None:
                break
            if isinstance(message, ResumeIteration):
                iteration_ended = False
                fetcher = create_fetcher(dataset, auto_collation, collate_fn, drop_last)
                result_queue.put((message, None))
                continue
            if done_event.is_set() or iteration_ended:
                continue  # shutting down, or nothing left to read: the main process expects no answer
            task_idx, index = message
            data = init_error or _fetch(fetcher, index, where, worker_id)
            iteration_ended = isinstance(data, IterableDatasetStopIteration)
            result_queue.put((task_idx, data))
            del data  # do not hold a batch while waiting for the next task
    except KeyboardInterrupt:
        pass  # the main process sees Ctrl-C too and shuts the workers down
    if done_event.is_set():
        # Nobody reads the results any more: exit without flushing them.
        result_queue.cancel_join_thread()
        result_queue.close()


def _fetch(fetcher, index, where: str, worker_id: int):
    """The collated batch, an end-of-stream marker, or the exception wrapped for the main process."""
    try:
        return fetcher.fetch(index)
    except Exception as e:
        if isinstance(e, StopIteration) and isinstance(fetcher, IterableDatasetFetcher):
            return IterableDatasetStopIteration(worker_id)
        return ExceptionWrapper(where)
