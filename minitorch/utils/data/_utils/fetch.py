"""Fetchers: turn what the sampler yields (an index, or a batch of indices) into collated data."""
from __future__ import annotations

from collections.abc import Callable

from ..dataset import IterableDataset


class MapDatasetFetcher:
    """Reads ``dataset[i]`` for each index (``__getitems__`` for a whole batch when the dataset has it)."""

    def __init__(self, dataset, auto_collation: bool, collate_fn: Callable) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn

    def fetch(self, index):
        if not self.auto_collation:
            return self.collate_fn(self.dataset[index])
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.collate_fn(self.dataset.__getitems__(index))
        return self.collate_fn([self.dataset[i] for i in index])


class IterableDatasetFetcher:
    """Takes the next samples from the dataset's iterator; raises StopIteration when it is exhausted."""

    def __init__(self, dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool) -> None:
        self.dataset_iter = iter(dataset)
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.ended = False

    def fetch(self, index):
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self.collate_fn(next(self.dataset_iter))
        data = []
        for _ in index:  # the indices are placeholders; only their number matters
            try:
                data.append(next(self.dataset_iter))
            except StopIteration:
                self.ended = True
                break
        if len(data) == 0 or (self.drop_last and len(data) < len(index)):
            raise StopIteration
        return self.collate_fn(data)


def create_fetcher(dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool):
    """The fetcher for ``dataset``'s kind (map-style or iterable)."""
    if isinstance(dataset, IterableDataset):
        return IterableDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)
    return MapDatasetFetcher(dataset, auto_collation, collate_fn)
