"""minitorch.utils.data: datasets, samplers, collation and the DataLoader, with and without workers.

Tests taking ``lib`` state behaviour that does not depend on the random streams and run on
PyTorch too where it is installed. Worker tests use tiny datasets defined at module level
(so the 'spawn' start method can pickle them).
"""
import collections
import gc
import math
import multiprocessing
import os
import random
import re
import signal
import time

import numpy as np
import pytest

import minitorch
import minitorch.utils.data
from minitorch.utils.data import DistributedSampler
from torch_answers import torch, torch_answer

mdata = minitorch.utils.data  # for the tests that run on minitorch only
Point = collections.namedtuple("Point", ["x", "y"])


def describe(obj):
    """A comparable picture of a batch: tensors as (dtype, shape, values), containers by type."""
    if type(obj).__name__ == "Tensor":  # a minitorch or a torch tensor
        return ("tensor", str(obj.dtype).split(".")[-1], tuple(obj.shape), obj.tolist())
    if isinstance(obj, dict):
        return {k: describe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [describe(v) for v in obj])
    return obj


def T(dtype, values):
    """What ``describe`` gives for a tensor of ``dtype`` holding ``values``."""
    return ("tensor", dtype, np.shape(values), values)


def L(*items):
    return ("list", list(items))


class Items:
    """Map-style dataset: item i is (float32 array [i, -i], i)."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.array([i, -i], dtype=np.float32), i


def flat_labels(loader):
    return [label for _, labels in loader for label in labels.tolist()]


def make_stream(lib, start, end, reported_len=None):
    """An IterableDataset over range(start, end), split between workers like torch's docs do.

    Its ``__len__`` says ``reported_len`` (default: the true length)."""
    base = lib.utils.data.IterableDataset

    class Stream(base):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            if info is None:
                return iter(range(start, end))
            per_worker = math.ceil((end - start) / info.num_workers)
            lo = start + info.id * per_worker
            return iter(range(lo, min(lo + per_worker, end)))

    Stream.__len__ = lambda self: end - start if reported_len is None else reported_len
    return Stream()


# ---- batching, order and len -------------------------------------------------------------------------
def test_sequential_batches(lib):
    batches = [describe(b) for b in lib.utils.data.DataLoader(Items(5), batch_size=2)]
    assert batches == [L(T("float32", [[0.0, -0.0], [1.0, -1.0]]), T("int64", [0, 1])),
                       L(T("float32", [[2.0, -2.0], [3.0, -3.0]]), T("int64", [2, 3])),
                       L(T("float32", [[4.0, -4.0]]), T("int64", [4]))]


@pytest.mark.parametrize("n, batch_size, drop_last, sizes", [
    (10, 3, False, [3, 3, 3, 1]), (10, 3, True, [3, 3, 3]), (9, 3, True, [3, 3, 3]), (2, 5, False, [2]),
    (2, 5, True, [])])
def test_drop_last_and_len(lib, n, batch_size, drop_last, sizes):
    loader = lib.utils.data.DataLoader(Items(n), batch_size=batch_size, drop_last=drop_last)
    assert [len(labels) for _, labels in loader] == sizes
    assert len(loader) == len(sizes)


def test_batch_size_none_converts_items_without_batching(lib):
    items = [describe(b) for b in lib.utils.data.DataLoader(Items(2), batch_size=None)]
    assert items == [L(T("float32", [0.0, -0.0]), 0), L(T("float32", [1.0, -1.0]), 1)]
    assert len(lib.utils.data.DataLoader(Items(7), batch_size=None)) == 7


def test_manual_seed_makes_shuffle_reproducible(lib):
    lib.manual_seed(0)
    first = flat_labels(lib.utils.data.DataLoader(Items(20), batch_size=4, shuffle=True))
    lib.manual_seed(0)
    again = flat_labels(lib.utils.data.DataLoader(Items(20), batch_size=4, shuffle=True))
    assert first == again and sorted(first) == list(range(20)) and first != list(range(20))


def test_generator_order_independent_of_global_seed(lib):
    def order(global_seed):
        lib.manual_seed(global_seed)
        gen = lib.Generator().manual_seed(1)
        return flat_labels(lib.utils.data.DataLoader(Items(20), batch_size=4, shuffle=True, generator=gen))

    assert order(0) == order(123) and sorted(order(0)) == list(range(20))
    lib.manual_seed(0)
    assert flat_labels(lib.utils.data.DataLoader(Items(20), batch_size=4, shuffle=True)) != order(0)


def test_reshuffles_every_epoch(lib):
    loader = lib.utils.data.DataLoader(Items(20), batch_size=5, shuffle=True, generator=lib.Generator().manual_seed(3))
    epochs = [flat_labels(loader) for _ in range(3)]
    assert all(sorted(e) == list(range(20)) for e in epochs)
    assert epochs[0] != epochs[1] != epochs[2]


def test_custom_collate_fn(lib):
    loader = lib.utils.data.DataLoader(Items(5), batch_size=2, collate_fn=lambda batch: [label for _, label in batch])
    assert list(loader) == [[0, 1], [2, 3], [4]]


def test_sampler_and_batch_sampler_options(lib):
    D = lib.utils.data
    assert flat_labels(D.DataLoader(Items(6), batch_size=4, sampler=[5, 0, 3])) == [5, 0, 3]
    loader = D.DataLoader(Items(6), batch_sampler=[[4, 1], [2], [0, 5, 3]])
    assert [labels.tolist() for _, labels in loader] == [[4, 1], [2], [0, 5, 3]] and len(loader) == 3
    assert loader.batch_size is None and loader.drop_last is False


def test_subset_of_tensor_dataset_in_loader(lib):
    D = lib.utils.data
    x, y = lib.arange(10.0).reshape(5, 2), lib.arange(5)
    subset = D.Subset(D.TensorDataset(x, y), [4, 0, 2])
    assert [describe(b) for b in D.DataLoader(subset, batch_size=2)] == [
        L(T("float32", [[8.0, 9.0], [0.0, 1.0]]), T("int64", [4, 0])), L(T("float32", [[4.0, 5.0]]), T("int64", [2]))]


# ---- collation ---------------------------------------------------------------------------------------
def test_collate_numbers_strings_and_tuples(lib):
    batch = [(1, 2.0, True, "a", b"x"), (3, 4.5, False, "b", b"y")]
    assert describe(lib.utils.data.default_collate(batch)) == L(
        T("int64", [1, 3]), T("float64", [2.0, 4.5]), T("bool", [True, False]), ("tuple", ["a", "b"]),
        ("tuple", [b"x", b"y"]))
    assert lib.utils.data.default_collate(["a", "b"]) == ["a", "b"]


def test_collate_dicts_arrays_and_namedtuples(lib):
    batch = [{"img": np.zeros((2, 3), np.float32), "p": Point(np.int32(1), np.float64(0.5)), "ids": [1, 2]},
             {"img": np.ones((2, 3), np.float32), "p": Point(np.int32(2), np.float64(1.5)), "ids": [3, 4]}]
    out = lib.utils.data.default_collate(batch)
    assert type(out) is dict and type(out["p"]) is Point
    assert describe(out) == {"img": T("float32", [[[0.0] * 3] * 2, [[1.0] * 3] * 2]),
                             "p": ("Point", [T("int32", [1, 2]), T("float64", [0.5, 1.5])]),
                             "ids": L(T("int64", [1, 3]), T("int64", [2, 4]))}


def test_collate_tensors_stack_on_a_new_dim(lib):
    out = lib.utils.data.default_collate([lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0]), lib.tensor([5.0, 6.0])])
    assert describe(out) == T("float32", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    scalars = lib.utils.data.default_collate([lib.tensor(1, dtype=lib.int16), lib.tensor(2, dtype=lib.int16)])
    assert describe(scalars) == T("int16", [1, 2])


def _collated(lib, batch):
    return [describe(lib.utils.data.default_collate(batch)), describe(lib.utils.data.default_convert(batch))]


def test_collate_matches_torch_on_a_nested_batch():
    batch = [{"a": (np.arange(3, dtype=np.uint8), [0.5, 7]), "b": Point("s", np.float32(2)), "c": np.bool_(True)},
             {"a": (np.arange(3, 6, dtype=np.uint8), [1.5, 8]), "b": Point("t", np.float32(3)), "c": np.bool_(False)}]
    assert _collated(minitorch, batch) == torch_answer(_collated, batch)


@pytest.mark.parametrize("batch, error, message", [
    ([[1, 2], [3]], RuntimeError, "each element in list of batch should be of equal size"),
    ([object(), object()], TypeError,
     "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class 'object'>"),
    ([np.array(["a"]), np.array(["b"])], TypeError,
     "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <U1"),
    ([np.zeros(2), np.zeros(3)], RuntimeError,
     "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"),
])
def test_collate_errors(lib, batch, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        lib.utils.data.default_collate(batch)


def test_default_convert(lib):
    convert = lib.utils.data.default_convert
    assert describe(convert((np.array([1, 2]), 3, "s"))) == L(T("int64", [1, 2]), 3, "s")
    assert describe(convert(Point(np.array(0.5), np.float32(1)))) == ("Point", [T("float64", 0.5), T("float32", 1.0)])
    assert describe(convert({"k": [np.int16(4)]})) == {"k": L(T("int16", 4))}
    strings = np.array(["a", "b"])
    assert convert(strings) is strings and convert(7) == 7


# ---- samplers ----------------------------------------------------------------------------------------
def test_sequential_and_batch_samplers(lib):
    D = lib.utils.data
    assert list(D.SequentialSampler(range(4))) == [0, 1, 2, 3] and len(D.SequentialSampler(range(4))) == 4
    batches = D.BatchSampler(D.SequentialSampler(range(7)), batch_size=3, drop_last=False)
    assert list(batches) == [[0, 1, 2], [3, 4, 5], [6]] and len(batches) == 3
    dropped = D.BatchSampler(range(7), batch_size=3, drop_last=True)
    assert list(dropped) == [[0, 1, 2], [3, 4, 5]] and len(dropped) == 2


def test_random_samplers(lib):
    D = lib.utils.data
    gen = lib.Generator().manual_seed(0)
    perm = list(D.RandomSampler(range(10), generator=gen))
    assert sorted(perm) == list(range(10))
    longer = list(D.RandomSampler(range(4), num_samples=10, generator=gen))
    assert len(longer) == 10 and sorted(longer[:4]) == sorted(longer[4:8]) == [0, 1, 2, 3]
    drawn = list(D.RandomSampler(range(3), replacement=True, num_samples=70, generator=gen))
    assert len(drawn) == 70 and set(drawn) == {0, 1, 2}
    subset = D.SubsetRandomSampler([10, 20, 30], generator=gen)
    assert sorted(subset) == [10, 20, 30] and len(subset) == 3
    weighted = D.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], 50, generator=gen)
    assert len(list(weighted)) == 50 and set(weighted) == {1, 3} and len(weighted) == 50
    assert sorted(D.WeightedRandomSampler([1.0, 2.0, 3.0], 3, replacement=False, generator=gen)) == [0, 1, 2]


def test_random_sampler_reseeds_from_global_generator(lib):
    sampler = lib.utils.data.RandomSampler(range(30))
    lib.manual_seed(7)
    first, second = list(sampler), list(sampler)
    lib.manual_seed(7)
    assert list(sampler) == first and first != second


@pytest.mark.parametrize("consume", [
    lambda lib: list(lib.utils.data.RandomSampler(range(100))),  # one seed per pass, whatever the length
    lambda lib: list(lib.utils.data.DataLoader(Items(3))),  # the workers' base seed, even without workers
])
def test_global_generator_advances_by_one_draw(lib, consume):
    lib.manual_seed(0)
    consume(lib)
    after = lib.rand(3)
    lib.manual_seed(0)
    lib.empty((), dtype=lib.int64).random_()
    assert lib.equal(lib.rand(3), after)


@pytest.mark.parametrize("make, error, message", [
    (lambda D: D.RandomSampler(range(3), replacement=1), TypeError,
     "replacement should be a boolean value, but got replacement=1"),
    (lambda D: D.RandomSampler([]), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda D: D.WeightedRandomSampler([1.0], 0), ValueError,
     "num_samples should be a positive integer value, but got num_samples=0"),
    (lambda D: D.WeightedRandomSampler([1.0], 1, replacement=None), ValueError,
     "replacement should be a boolean value, but got replacement=None"),
    (lambda D: D.WeightedRandomSampler([[1.0]], 1), ValueError,
     "weights should be a 1d sequence but given weights have shape (1, 1)"),
    (lambda D: D.BatchSampler(range(3), 0, False), ValueError,
     "batch_size should be a positive integer value, but got batch_size=0"),
    (lambda D: D.BatchSampler(range(3), 2, 1), ValueError, "drop_last should be a boolean value, but got drop_last=1"),
])
def test_sampler_errors(lib, make, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        make(lib.utils.data)


# ---- datasets ----------------------------------------------------------------------------------------
def test_tensor_dataset(lib):
    D = lib.utils.data
    ds = D.TensorDataset(lib.arange(6).reshape(3, 2), lib.tensor([7, 8, 9]))
    assert len(ds) == 3 and [t.tolist() for t in ds[1]] == [[2, 3], 8]
    with pytest.raises(AssertionError, match="^Size mismatch between tensors$"):
        D.TensorDataset(lib.zeros(3), lib.zeros(2))


def test_concat_dataset_and_subset(lib):
    D = lib.utils.data
    cat = D.ConcatDataset([range(3), range(10, 12)])
    assert len(cat) == 5 and [cat[i] for i in range(5)] == [0, 1, 2, 10, 11] and cat[-1] == 11 and cat[-5] == 0
    assert cat.cumulative_sizes == [3, 5]
    with pytest.raises(ValueError, match="^absolute value of index should not exceed dataset length$"):
        cat[-6]
    with pytest.raises(IndexError):
        cat[5]
    with pytest.raises(AssertionError, match="^datasets should not be an empty iterable$"):
        D.ConcatDataset([])
    with pytest.raises(AssertionError, match="^ConcatDataset does not support IterableDataset$"):
        D.ConcatDataset([range(2), make_stream(lib, 0, 2)])
    joined = D.TensorDataset(lib.tensor([1, 2])) + D.TensorDataset(lib.tensor([3]))
    assert isinstance(joined, D.ConcatDataset) and [joined[i][0].item() for i in range(3)] == [1, 2, 3]
    sub = D.Subset(range(10, 20), [5, 2, 8])
    assert len(sub) == 3 and [sub[i] for i in range(3)] == [15, 12, 18] and sub.__getitems__([2, 0]) == [18, 15]


def test_subset_subclass_must_override_getitems(lib):
    class Doubled(lib.utils.data.Subset):
        def __getitem__(self, idx):
            return 2 * super().__getitem__(idx)

    with pytest.raises(NotImplementedError, match="^Doubled overrides __getitem__ but not __getitems__"):
        Doubled(range(3), [0])


def test_dataset_base_class(lib):
    with pytest.raises(NotImplementedError, match="^Subclasses of Dataset should implement __getitem__.$"):
        lib.utils.data.Dataset()[0]


@pytest.mark.parametrize("n, lengths, sizes", [(10, [3, 7], [3, 7]), (11, [0.5, 0.5], [6, 5]),
                                               (10, [0.3, 0.3, 0.4], [3, 3, 4]), (7, [0.25] * 4, [2, 2, 2, 1])])
def test_random_split_sizes_and_disjointness(lib, n, lengths, sizes):
    parts = lib.utils.data.random_split(range(n), lengths, generator=lib.Generator().manual_seed(0))
    assert [len(p) for p in parts] == sizes
    assert sorted(x for p in parts for x in p) == list(range(n))


def test_random_split_reproducible(lib):
    def split(seed):
        parts = lib.utils.data.random_split(range(20), [5, 15], generator=lib.Generator().manual_seed(seed))
        return [list(p) for p in parts]

    assert split(4) == split(4) and split(4) != split(5)
    lib.manual_seed(1)
    first = [list(p) for p in lib.utils.data.random_split(range(20), [0.5, 0.5])]
    lib.manual_seed(1)
    assert [list(p) for p in lib.utils.data.random_split(range(20), [0.5, 0.5])] == first


def test_random_split_errors(lib):
    D = lib.utils.data
    with pytest.raises(ValueError, match="^Sum of input lengths does not equal the length of the input dataset!$"):
        D.random_split(range(5), [2, 2])
    with pytest.raises(ValueError, match="^Fraction at index 0 is not between 0 and 1$"):
        D.random_split(range(5), [1.5, -0.5])
    with pytest.warns(UserWarning, match="^Length of split at index 2 is 0. This might result in an empty dataset.$"):
        D.random_split(range(2), [0.5, 0.5, 0.0])


def test_iterable_dataset(lib):
    D = lib.utils.data
    stream = make_stream(lib, 0, 7)
    assert [b.tolist() for b in D.DataLoader(stream, batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in D.DataLoader(stream, batch_size=3, drop_last=True)] == [[0, 1, 2], [3, 4, 5]]
    assert list(D.DataLoader(stream, batch_size=None)) == list(range(7))
    assert len(D.DataLoader(stream, batch_size=3)) == 3 and len(D.DataLoader(stream, batch_size=3, drop_last=True)) == 2
    chained = make_stream(lib, 0, 2) + make_stream(lib, 5, 6)
    assert isinstance(chained, D.ChainDataset) and list(chained) == [0, 1, 5] and len(chained) == 3


# ---- argument validation -----------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, error, message", [
    (dict(num_workers=-1), ValueError, "num_workers option should be non-negative; use num_workers=0 to disable "
                                       "multiprocessing."),
    (dict(timeout=-1), ValueError, "timeout option should be non-negative"),
    (dict(prefetch_factor=2), ValueError, "prefetch_factor option could only be specified in multiprocessing.let "
     "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None."),
    (dict(num_workers=1, prefetch_factor=-1), ValueError, "prefetch_factor option should be non-negative"),
    (dict(persistent_workers=True), ValueError, "persistent_workers option needs num_workers > 0"),
    (dict(multiprocessing_context="fork"), ValueError, "multiprocessing_context can only be used with multi-process "
     "loading (num_workers > 0), but got num_workers=0"),
    (dict(num_workers=1, multiprocessing_context="bogus"), ValueError, "multiprocessing_context option should specify "
     f"a valid start method in {multiprocessing.get_all_start_methods()!r}, but got multiprocessing_context='bogus'"),
    (dict(num_workers=1, multiprocessing_context=3), TypeError, "multiprocessing_context option should be a valid "
     "context object or a string specifying the start method, but got multiprocessing_context=3"),
    (dict(sampler=[0, 1], shuffle=True), ValueError, "sampler option is mutually exclusive with shuffle"),
    (dict(batch_sampler=[[0]], batch_size=2), ValueError, "batch_sampler option is mutually exclusive with "
     "batch_size, shuffle, sampler, and drop_last"),
    (dict(batch_sampler=[[0]], drop_last=True), ValueError, "batch_sampler option is mutually exclusive with "
     "batch_size, shuffle, sampler, and drop_last"),
    (dict(batch_size=None, drop_last=True), ValueError, "batch_size=None option disables auto-batching and is "
     "mutually exclusive with drop_last"),
    (dict(batch_size=0), ValueError, "batch_size should be a positive integer value, but got batch_size=0"),
])
def test_dataloader_argument_errors(lib, kwargs, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        lib.utils.data.DataLoader(Items(3), **kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(shuffle=True), "DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=True"),
    (dict(sampler=[0, 1]), "DataLoader with IterableDataset: expected unspecified sampler option, but got "
                           "sampler=[0, 1]"),
    (dict(batch_sampler=[[0]]), "DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                                "batch_sampler=[[0]]"),
])
def test_iterable_dataset_argument_errors(lib, kwargs, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        lib.utils.data.DataLoader(make_stream(lib, 0, 3), **kwargs)


def test_attributes_are_frozen_and_pin_memory_warns(lib):
    loader = lib.utils.data.DataLoader(Items(3), pin_memory=True)
    with pytest.raises(ValueError, match="^batch_size attribute should not be set after DataLoader is initialized$"):
        loader.batch_size = 2
    message = ("'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't "
               "be used.")
    with pytest.warns(UserWarning, match=f"^{re.escape(message)}$"):
        assert flat_labels(loader) == [0, 1, 2]


def test_iteration_errors(lib):
    with pytest.raises(AssertionError, match="^_SingleProcessDataLoaderIter requires timeout == 0$"):
        iter(lib.utils.data.DataLoader(Items(3), timeout=1))


def test_zero_prefetch_factor_fails_on_iteration():  # torch too, but its half-made iterator then fails in __del__
    message = "prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter"
    with pytest.raises(AssertionError, match=f"^{message}$"):
        iter(mdata.DataLoader(Items(3), num_workers=1, prefetch_factor=0))


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="the message differs without sched_getaffinity")
def test_more_workers_than_cpus_warns(lib):
    cpus = len(os.sched_getaffinity(0))
    with pytest.warns(UserWarning, match=f"^This DataLoader will create {cpus + 1} worker processes in total. Our "
                                         f"suggested max number of worker in current system is {cpus}, which is "
                                         "smaller than what this DataLoader is going to create. Please be aware"):
        lib.utils.data.DataLoader(Items(3), num_workers=cpus + 1)


def test_iterable_dataset_longer_than_its_len_warns(lib):
    loader = lib.utils.data.DataLoader(make_stream(lib, 0, 3, reported_len=2), batch_size=None)
    assert len(loader) == 2
    with pytest.warns(UserWarning, match=r"^Length of IterableDataset .* was reported to be 2\(when accessing "
                                         r"len\(dataloader\)\), but 3 samples have been fetched. $"):
        assert list(loader) == [0, 1, 2]


# ---- worker processes (minitorch only) ---------------------------------------------------------------
class SlowFirstBatch(Items):
    """Items 0 and 1 take a while, so with two workers the second batch is ready first."""

    def __getitem__(self, i):
        if i < 2:
            time.sleep(0.15)
        return super().__getitem__(i)


class RandomItems:
    """Each item is drawn from the worker's generators: (worker id, worker seed, minitorch, random, numpy)."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = mdata.get_worker_info()
        return info.id, info.seed, minitorch.rand(1).item(), random.random(), np.random.rand()


class FailsAt:
    def __init__(self, bad_index, error):
        self.bad_index, self.error = bad_index, error

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == self.bad_index:
            raise self.error
        return i


class Sleepy(Items):
    def __getitem__(self, i):
        time.sleep(0.6)
        return i


class DiesAt(Items):
    """The worker process ends on item 2, with no exception and no cleanup."""

    def __init__(self, n, exit_code):
        super().__init__(n)
        self.exit_code = exit_code

    def __getitem__(self, i):
        if i == 2:
            os._exit(self.exit_code)
        return i


class Hangs(Items):
    def __getitem__(self, i):
        time.sleep(60)
        return i


class ReportsWorker(Items):
    """Items carry the worker's id, the worker count and a tag set by worker_init_fn on this worker's copy."""

    tag = "main"

    def __getitem__(self, i):
        info = mdata.get_worker_info()
        return info.id, info.num_workers, info.dataset is self, self.tag


def tag_dataset(worker_id):
    mdata.get_worker_info().dataset.tag = f"init{worker_id}"


def same_batches(a, b):
    return [describe(x) for x in a] == [describe(x) for x in b]


def new_children(before):
    return [p for p in multiprocessing.active_children() if p not in before]


class TestWorkers:
    """Every test here must leave no worker process behind once its loaders are garbage."""

    @pytest.fixture(autouse=True)
    def no_leaked_workers(self):
        before = multiprocessing.active_children()
        yield
        gc.collect()
        assert new_children(before) == []

    def test_workers_give_the_same_batches_in_order(self):
        single = list(mdata.DataLoader(SlowFirstBatch(9), batch_size=2))
        multi = list(mdata.DataLoader(SlowFirstBatch(9), batch_size=2, num_workers=2))
        assert same_batches(multi, single) and len(multi) == 5

    def test_workers_same_shuffled_order_as_main_process(self):
        def batches(num_workers):
            minitorch.manual_seed(5)
            return list(mdata.DataLoader(Items(11), batch_size=3, shuffle=True, num_workers=num_workers))

        assert same_batches(batches(2), batches(0)) and flat_labels(batches(0)) != list(range(11))

    def test_in_order_false_yields_ready_batches_first(self):
        loader = mdata.DataLoader(SlowFirstBatch(4), batch_size=2, num_workers=2, in_order=False)
        assert [labels.tolist() for _, labels in loader] == [[2, 3], [0, 1]]

    def test_worker_seeds_differ_per_worker_and_are_reproducible(self):
        def run(**kwargs):
            return [tuple(row) for row in mdata.DataLoader(RandomItems(), batch_size=None, num_workers=2, **kwargs)]

        minitorch.manual_seed(0)
        first = run()
        minitorch.manual_seed(0)
        assert run() == first
        assert [row[0] for row in first] == [0, 1, 0, 1, 0, 1]
        worker0, worker1 = ({value for row in first if row[0] == w for value in row[2:]} for w in (0, 1))
        assert len(worker0) == len(worker1) == 9 and worker0.isdisjoint(worker1)  # minitorch, random, numpy draws
        seeds = {row[0]: row[1] for row in first}
        assert seeds[1] == seeds[0] + 1
        seeded = [run(generator=minitorch.Generator().manual_seed(9)) for _ in range(2)]
        assert seeded[0] == seeded[1]
        minitorch.manual_seed(1)
        assert run() != first

    def test_get_worker_info_and_worker_init_fn(self):
        assert mdata.get_worker_info() is None
        rows = list(mdata.DataLoader(ReportsWorker(4), batch_size=None, num_workers=2, worker_init_fn=tag_dataset))
        assert rows == [[0, 2, True, "init0"], [1, 2, True, "init1"], [0, 2, True, "init0"], [1, 2, True, "init1"]]

    def test_iterable_dataset_split_between_workers(self):
        loader = mdata.DataLoader(make_stream(minitorch, 0, 10), batch_size=2, num_workers=2, timeout=5)
        # Workers take turns: worker 0 holds 0..4, worker 1 holds 5..9.
        assert [b.tolist() for b in loader] == [[0, 1], [5, 6], [2, 3], [7, 8], [4], [9]]

    @pytest.mark.parametrize("error, shown", [(ValueError("bad item 3"), "bad item 3"), (KeyError("k"), "'k'")])
    def test_worker_exception_is_reraised_with_traceback(self, error, shown):
        with pytest.raises(type(error)) as info:
            list(mdata.DataLoader(FailsAt(3, error), batch_size=None, num_workers=2))
        text = str(info.value)
        name = type(error).__name__
        assert text.startswith(f"Caught {name} in DataLoader worker process 1.\n"
                               "Original Traceback (most recent call last):")
        assert "in __getitem__" in text and text.rstrip().endswith(f"{name}: {shown}")

    def test_worker_init_fn_exception_is_reraised(self):
        def broken_init(worker_id):
            raise RuntimeError(f"no setup in {worker_id}")

        with pytest.raises(RuntimeError, match=r"^Caught RuntimeError in DataLoader worker process 0\.\n(.|\n)*"
                                               r"RuntimeError: no setup in 0\n$"):
            next(iter(mdata.DataLoader(Items(4), num_workers=1, worker_init_fn=broken_init)))

    def test_early_break_shuts_workers_down(self):
        before = multiprocessing.active_children()
        for _ in mdata.DataLoader(Items(50), batch_size=2, num_workers=2):
            assert len(new_children(before)) == 2
            break
        assert new_children(before) == []

    def test_persistent_workers_are_reused_across_epochs(self):
        before = multiprocessing.active_children()
        loader = mdata.DataLoader(Items(7), batch_size=3, num_workers=2, persistent_workers=True, timeout=5)
        first = list(loader)
        workers = new_children(before)
        assert len(workers) == 2 and same_batches(list(loader), first) and set(new_children(before)) == set(workers)
        stream_loader = mdata.DataLoader(make_stream(minitorch, 0, 4), batch_size=None, num_workers=2,
                                         persistent_workers=True, timeout=5)
        assert list(stream_loader) == list(stream_loader) == [0, 2, 1, 3]
        for _ in loader:  # an epoch broken off early does not leak batches into the next one
            break
        assert same_batches(list(loader), first)

    def test_timeout(self):
        with pytest.raises(RuntimeError, match=r"^DataLoader timed out after 0.2 seconds$"):
            next(iter(mdata.DataLoader(Sleepy(2), num_workers=1, timeout=0.2)))

    # A worker that dies is noticed as soon as it exits, not at a periodic status check (5 s): the bound
    # of 2 s is generous, for a loaded machine, and the clock starts once the worker is up.
    @pytest.mark.parametrize("exit_code", [1, 0])
    def test_worker_exiting_is_reported_at_once(self, exit_code):
        batches = iter(mdata.DataLoader(DiesAt(4, exit_code), batch_size=None, num_workers=1))
        assert next(batches) == 0
        pid = batches._workers[0].pid
        start = time.monotonic()
        with pytest.raises(RuntimeError) as info:
            list(batches)
        assert time.monotonic() - start < 2
        assert str(info.value) == f"DataLoader worker (pid(s) {pid}) exited unexpectedly"
        how = None if exit_code == 0 else (f"DataLoader worker (pid {pid}) exited unexpectedly with exit code 1. "
                                           "Details are lost due to multiprocessing. Rerunning with num_workers=0 "
                                           "may give better error trace.")
        assert (info.value.__cause__ and str(info.value.__cause__)) == how

    def test_killed_worker_is_reported_at_once(self):
        batches = iter(mdata.DataLoader(Hangs(4), batch_size=None, num_workers=1, timeout=30))
        pid = batches._workers[0].pid
        os.kill(pid, signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(RuntimeError, match=rf"^DataLoader worker \(pid\(s\) {pid}\) exited unexpectedly$") as info:
            next(batches)
        assert time.monotonic() - start < 2
        assert str(info.value.__cause__) == f"DataLoader worker (pid {pid}) is killed by signal: Killed. "

    def test_persistent_worker_killed_between_epochs_is_reported_at_once(self):
        loader = mdata.DataLoader(Items(4), batch_size=2, num_workers=2, persistent_workers=True)
        assert len(list(loader)) == 2
        pid = loader._iterator._workers[1].pid
        os.kill(pid, signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(RuntimeError, match=rf"^DataLoader worker \(pid\(s\) {pid}\) exited unexpectedly$"):
            list(loader)
        assert time.monotonic() - start < 2

    def test_spawn_context(self):
        loader = mdata.DataLoader(Items(5), batch_size=2, num_workers=1, multiprocessing_context="spawn")
        assert same_batches(loader, mdata.DataLoader(Items(5), batch_size=2))


# ---- DistributedSampler: index arithmetic, no process group needed ----------------------------------------

@pytest.mark.parametrize("replicas, rank, drop_last, expected", [
    (3, 0, False, [0, 3, 6, 9]), (3, 2, False, [2, 5, 8, 1]), (3, 1, True, [1, 4, 7]), (4, 3, False, [3, 7, 1]),
])
def test_distributed_sampler_shares(replicas, rank, drop_last, expected):
    samplers = [DistributedSampler(range(10), num_replicas=replicas, rank=rank, shuffle=False, drop_last=drop_last)]
    if torch is not None:
        from torch.utils.data.distributed import DistributedSampler as TorchSampler
        samplers.append(TorchSampler(range(10), num_replicas=replicas, rank=rank, shuffle=False, drop_last=drop_last))
    for s in samplers:
        assert list(s) == expected and len(s) == len(expected)


def test_distributed_sampler_shuffles_per_epoch_and_covers_the_data():
    shares = [DistributedSampler(range(10), num_replicas=2, rank=r, seed=3) for r in (0, 1)]
    first = [list(s) for s in shares]
    assert sorted(first[0] + first[1]) == list(range(10))
    for s in shares:
        s.set_epoch(1)
    assert [list(s) for s in shares] != first and [list(s) for s in shares] == [list(s) for s in shares]
    with pytest.raises(ValueError, match=r"^Invalid rank 2, rank should be in the interval \[0, 1\]$"):
        DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises(RuntimeError, match="^Requires distributed package to be available$"):
        DistributedSampler(range(4))
