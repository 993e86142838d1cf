"""``DistributedSampler``: each of ``num_replicas`` processes reads its own share of the dataset.

minitorch runs in one process, but the sampler is plain arithmetic on indices: given
``num_replicas`` and ``rank`` it yields exactly the share PyTorch's would (padded to an even split,
or trimmed with ``drop_last``), shuffled per epoch with minitorch's generator."""
from __future__ import annotations

import math
from typing import Iterator

from ... import _random_factories
from ...random import Generator
from .sampler import Sampler


class DistributedSampler(Sampler[int]):
    def __init__(self, dataset, num_replicas: int | None = None, rank: int | None = None, shuffle: bool = True,
                 seed: int = 0, drop_last: bool = False):
        if num_replicas is None or rank is None:
            raise RuntimeError("Requires distributed package to be available")  # torch's text: no process group
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.shuffle, self.seed, self.drop_last = 0, shuffle, seed, drop_last
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        if self.shuffle:
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = _random_factories.randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """A new shuffle for each epoch (the same on every replica)."""
        self.epoch = epoch
