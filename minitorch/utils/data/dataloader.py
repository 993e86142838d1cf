"""DataLoader: batches from a dataset, loaded in the main process or in worker processes."""
from __future__ import annotations

import itertools
import math
import multiprocessing
import multiprocessing.connection
import multiprocessing.context
import os
import signal
import sys
import warnings
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from ... import _dtype
from ..._factories import empty
from ...random import Generator
from ._utils.collate import default_collate, default_convert
from ._utils.fetch import create_fetcher
from ._utils.worker import (MP_STATUS_CHECK_INTERVAL, ExceptionWrapper, IterableDatasetStopIteration,
                            ResumeIteration, get_worker_info, worker_loop)
from .dataset import Dataset, IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

T_co = TypeVar("T_co", covariant=True)


class _InfiniteConstantSampler(Sampler):
    """None forever: the 'indices' for an IterableDataset, which decides itself when it ends."""

    def __iter__(self):
        while True:
            yield None


class DataLoader(Generic[T_co]):
    """Iterate over ``dataset`` in batches.

    Args:
        dataset: a map-style ``Dataset`` (``__getitem__``/``__len__``) or an ``IterableDataset``.
        batch_size: samples per batch; None turns batching off (each sample goes through ``default_convert``).
        shuffle: reshuffle the indices at every epoch (map-style datasets only).
        sampler / batch_sampler: the order of indices / of index batches (instead of shuffle / batch_size).
        num_workers: worker processes that load batches ahead; 0 loads in the main process.
        collate_fn: merges a list of samples into a batch (default: ``default_collate``).
        pin_memory: accepted; minitorch is CPU-only, so it changes nothing.
        drop_last: drop the last batch if it is smaller than ``batch_size``.
        timeout: seconds to wait for a batch from the workers (0: forever).
        worker_init_fn: called as ``worker_init_fn(worker_id)`` in each worker after seeding.
        multiprocessing_context: start method name or context for the workers (default 'fork' on Linux).
        generator: draws the shuffling order and the workers' base seed (default: the global generator).
        prefetch_factor: batches in flight per worker (default 2 when ``num_workers > 0``).
        persistent_workers: keep the workers alive between epochs.
        in_order: with workers, yield batches in sampler order; False yields them as they are ready.
    """

    _initialized = False

    def __init__(self, dataset: Dataset[T_co], batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable | None = None, batch_sampler: Sampler[list] | Iterable[list] | None = None,
                 num_workers: int = 0, collate_fn: Callable[[list], Any] | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context=None, generator: Generator | None = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        prefetch_factor = _checked_prefetch_factor(num_workers, timeout, prefetch_factor, persistent_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            _check_iterable_dataset_options(shuffle, sampler, batch_sampler)
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None:
            sampler = _default_sampler(dataset, shuffle, generator)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self._initialized = True
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        self._multiprocessing_context = _checked_context(context, self.num_workers)

    def __setattr__(self, attr: str, val) -> None:
        if self._initialized and attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                                          "persistent_workers"):
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    def __iter__(self) -> _BaseDataLoaderIter:
        """A new pass over the data (persistent workers are reused from the previous pass)."""
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    def _get_iterator(self) -> _BaseDataLoaderIter:
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        """What the iterators draw from: index batches when batching, single indices otherwise."""
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self) -> int:
        """The number of batches (for an IterableDataset, estimated from ``len(dataset)``)."""
        if not isinstance(self.dataset, IterableDataset):
            return len(self._index_sampler)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is not None:
            length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
        return length

    def check_worker_number_rationality(self) -> None:
        """Warn when there are more workers than CPUs this process may run on."""
        if self.num_workers == 0:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        max_workers = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if max_workers is None or self.num_workers > max_workers:
            warnings.warn(_too_many_workers_message(max_workers, self.num_workers, cpuset_checked), stacklevel=2)


def _checked_prefetch_factor(num_workers: int, timeout: float, prefetch_factor: int | None,
                             persistent_workers: bool) -> int | None:
    """Validate the worker options; returns the prefetch factor to use."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
                         "enable multiprocessing, otherwise set prefetch_factor to None.")
    if num_workers > 0 and prefetch_factor is None:
        prefetch_factor = 2
    elif prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    return prefetch_factor


def _checked_context(context, num_workers: int):
    """``multiprocessing_context`` as a context object (None stays None)."""
    if context is None:
        return None
    if num_workers == 0:
        raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                         f"but got num_workers={num_workers}")
    if isinstance(context, str):
        valid_start_methods = multiprocessing.get_all_start_methods()
        if context not in valid_start_methods:
            raise ValueError(f"multiprocessing_context option should specify a valid start method in "
                             f"{valid_start_methods!r}, but got multiprocessing_context={context!r}")
        context = multiprocessing.get_context(context)
    if not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError("multiprocessing_context option should be a valid context object or a string specifying "
                        f"the start method, but got multiprocessing_context={context}")
    return context


def _default_context():
    """'fork' on Linux (workers start at once and inherit the dataset), 'spawn' elsewhere."""
    fork = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if fork else "spawn")


def _check_iterable_dataset_options(shuffle, sampler, batch_sampler) -> None:
    """An IterableDataset decides its own order: no shuffle, sampler or batch_sampler."""
    if shuffle not in {False, None}:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                         f"shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                         f"sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                         f"batch_sampler={batch_sampler}")


def _default_sampler(dataset, shuffle: bool, generator: Generator | None) -> Sampler:
    if isinstance(dataset, IterableDataset):
        return _InfiniteConstantSampler()
    return RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)


def _too_many_workers_message(max_workers: int | None, num_workers: int, cpuset_checked: bool) -> str:
    if max_workers is None:
        suggestion = "DataLoader is not able to compute a suggested max number of worker in current system."
    else:
        cpuset = "" if cpuset_checked else " (`cpuset` is not taken into account)"
        suggestion = (f"Our suggested max number of worker in current system is {max_workers}{cpuset}, which is "
                      "smaller than what this DataLoader is going to create.")
    return (f"This DataLoader will create {num_workers} worker processes in total. {suggestion} Please be aware "
            "that excessive worker creation might get DataLoader running slow or even freeze, lower the worker "
            "number to avoid potential slowness/freeze if necessary.")


class _BaseDataLoaderIter:
    """One pass over a DataLoader: draws index batches from the sampler and turns them into batches."""

    def __init__(self, loader: DataLoader) -> None:
        self._dataset = loader.dataset
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._persistent_workers = loader.persistent_workers
        _warn_about_pin_memory(loader)
        self._sampler_iter = iter(self._index_sampler)
        # Drawn even without workers, so the generator advances the same way whatever num_workers is.
        self._base_seed = int(empty((), dtype=_dtype.int64).random_(generator=loader.generator).item())
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def __iter__(self) -> _BaseDataLoaderIter:
        return self

    def _reset(self, loader: DataLoader) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self) -> Any:
        data = self._next_data()
        self._num_yielded += 1
        if self._IterableDataset_len_called is not None and self._num_yielded > self._IterableDataset_len_called:
            self._warn_longer_than_reported()
        return data

    def _warn_longer_than_reported(self) -> None:
        msg = (f"Length of IterableDataset {self._dataset} was reported to be {self._IterableDataset_len_called}"
               f"(when accessing len(dataloader)), but {self._num_yielded} samples have been fetched. ")
        if self._num_workers > 0:
            msg += ("For multiprocessing data-loading, this could be caused by not properly configuring the "
                    "IterableDataset replica at each worker. Please see "
                    "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
        warnings.warn(msg, stacklevel=3)

    def __len__(self) -> int:
        return len(self._index_sampler)


def _warn_about_pin_memory(loader: DataLoader) -> None:
    if loader.pin_memory and loader.pin_memory_device:
        warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                      f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=4)
    if loader.pin_memory:
        warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                      "memory won't be used.", stacklevel=4)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """Loads each batch in the main process when it is asked for."""

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._fetcher = create_fetcher(self._dataset, self._auto_collation, self._collate_fn, self._drop_last)

    def _next_data(self):
        return self._fetcher.fetch(self._next_index())


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Worker processes load batches ahead of the training loop.

    Every index batch from the sampler becomes a numbered task, sent round-robin to the
    workers' index queues, ``prefetch_factor`` tasks per worker in flight. The workers put
    ``(task, batch)`` on one shared result queue; answers that arrive before their turn wait
    in ``_results`` so batches come out in sampler order (``in_order=False`` yields them as
    they arrive). Each batch handed out lets one more task be sent.
    """

    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        if self._prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter")
        self._in_order = loader.in_order
        context = loader.multiprocessing_context or _default_context()
        self._result_queue = context.Queue()
        self._done_event = context.Event()
        self._index_queues = []
        self._workers = []
        # Shut the workers down when this iterator is garbage. A finalizer rather than __del__: it
        # keeps the queues alive, whereas in a reference cycle the garbage collector could close
        # them (multiprocessing's own finalizers) before __del__ ran. At exit multiprocessing
        # terminates the daemonic workers itself.
        self._shutdown_workers = weakref.finalize(self, _stop_workers, self._workers, self._index_queues,
                                                  self._done_event)
        self._shutdown_workers.atexit = False
        for worker_id in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()  # never block exit on tasks a dead worker will not read
            worker = context.Process(
                target=worker_loop, daemon=True,
                args=(self._dataset, index_queue, self._result_queue, self._done_event, self._auto_collation,
                      self._collate_fn, self._drop_last, self._base_seed, loader.worker_init_fn, worker_id,
                      self._num_workers))
            worker.start()
            self._index_queues.append(index_queue)
            self._workers.append(worker)
        self._reset(loader, first_iter=True)

    def _reset(self, loader: DataLoader, first_iter: bool = False) -> None:
        super()._reset(loader)
        self._send_idx = 0  # the number of the next task to send
        self._rcvd_idx = 0  # the number of the next task to yield, in order
        self._task_worker = {}  # task -> worker, for tasks sent and not answered yet
        self._results = {}  # task -> data, for answers that came before their turn
        self._worker_active = [True] * self._num_workers  # False once a worker's IterableDataset ended
        self._worker_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            self._resume_workers()
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _resume_workers(self) -> None:
        """Start a new epoch on persistent workers, dropping answers to the previous epoch's tasks."""
        for index_queue in self._index_queues:
            index_queue.put(ResumeIteration())
        waiting = self._num_workers
        while waiting > 0:
            task, _ = self._get_data()
            if isinstance(task, ResumeIteration):
                waiting -= 1

    def _try_put_index(self) -> None:
        """Send the sampler's next index batch to the next active worker, if there is one of each."""
        try:
            index = self._next_index()
        except StopIteration:
            return
        if not any(self._worker_active):
            return
        worker_id = next(w for w in self._worker_cycle if self._worker_active[w])
        self._index_queues[worker_id].put((self._send_idx, index))
        self._task_worker[self._send_idx] = worker_id
        self._send_idx += 1

    def _next_data(self):
        while True:
            self._skip_tasks_without_answer()
            if self._rcvd_idx == self._send_idx:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if self._rcvd_idx in self._results:
                return self._process(self._rcvd_idx, self._results.pop(self._rcvd_idx))
            task, data = self._get_data()
            worker_id = self._task_worker.pop(task)
            if isinstance(data, IterableDatasetStopIteration):
                self._worker_active[worker_id] = False  # it answers no more tasks this epoch
                self._try_put_index()
            elif task == self._rcvd_idx or not self._in_order:
                return self._process(task, data)
            else:
                self._results[task] = data

    def _skip_tasks_without_answer(self) -> None:
        """Move past tasks already yielded out of order, or sent to a worker whose stream has ended."""
        while self._rcvd_idx < self._send_idx and self._rcvd_idx not in self._results:
            worker_id = self._task_worker.get(self._rcvd_idx)
            if worker_id is not None and self._worker_active[worker_id]:
                return
            self._task_worker.pop(self._rcvd_idx, None)
            self._rcvd_idx += 1

    def _process(self, task: int, data):
        if task == self._rcvd_idx:
            self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _get_data(self):
        """The next ``(task, data)`` from any worker; a worker that dies meanwhile is an error at once."""
        # Wait for a result or for the exit of a worker still expected to answer, whichever comes first.
        # Waiting on the queue's reading end is safe: this process is its only reader (concurrent.futures
        # waits on its result queue the same way).
        workers = [w for w, active in zip(self._workers, self._worker_active) if active]
        ready = multiprocessing.connection.wait([self._result_queue._reader] + [w.sentinel for w in workers],
                                                timeout=self._timeout if self._timeout > 0 else None)
        dead = [w for w in workers if w.sentinel in ready]
        if dead:
            pids = ", ".join(str(w.pid) for w in dead)
            raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from _how_it_ended(dead[0])
        if not ready:
            raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
        return self._result_queue.get()


def _how_it_ended(worker) -> RuntimeError | None:
    """PyTorch's account of a dead worker's exit code or signal (None for a clean exit)."""
    worker.join(timeout=MP_STATUS_CHECK_INTERVAL)  # its end of the sentinel pipe closes just before it can be reaped
    code = worker.exitcode
    if code is not None and code < 0:
        text = f"DataLoader worker (pid {worker.pid}) is killed by signal: {signal.strsignal(-code)}. "
        if -code == signal.SIGBUS:
            text += ("It is possible that dataloader's workers are out of shared memory. Please try to raise your "
                     "shared memory limit.")
        return RuntimeError(text)
    if code:
        return RuntimeError(f"DataLoader worker (pid {worker.pid}) exited unexpectedly with exit code {code}. "
                            "Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better "
                            "error trace.")
    return None


def _stop_workers(workers: list, index_queues: list, done_event) -> None:
    """Stop the workers (politely, then by force) and close their index queues."""
    try:
        done_event.set()
        for index_queue in index_queues:
            index_queue.put(None)
        for worker in workers:
            worker.join(timeout=MP_STATUS_CHECK_INTERVAL)
        for index_queue in index_queues:
            index_queue.close()
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
                worker.join(timeout=MP_STATUS_CHECK_INTERVAL)
