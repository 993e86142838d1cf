"""minitorch.utils.data draws PyTorch's random streams: DataLoader base seeds, sampler orders, splits, worker seeds.

The first tests use RNG.md §14 vectors and need no torch; the rest compare with torch's own
``torch.utils.data``, including the generator state bytes after every epoch.
"""
import random
import warnings

import numpy as np
import pytest

import minitorch
import minitorch.utils.data as MD
from minitorch.utils.data._utils.worker import numpy_seed
from torch_answers import digest, fingerprint, torch_answer


def global_state(lib) -> str:
    """A fingerprint of the global generator's state bytes."""
    return fingerprint(lib.get_rng_state())


def generator_state(lib, g) -> str | None:
    return None if g is None else fingerprint(g.get_state())


def _torch_digests(torch, run, cases):
    return [digest(run(torch, torch.utils.data, *case)) for case in cases]


def same_as_torch(run, cases=((),)):
    """``run(lib, lib.utils.data, *case)`` gives on minitorch what it gives on torch, for each case (compared by a
    digest of the whole result: batches, seeds, state fingerprints)."""
    for case, theirs in zip(cases, torch_answer(_torch_digests, run, cases), strict=True):
        assert digest(run(minitorch, MD, *case)) == theirs, case


class Probe:
    """Map-style dataset reporting, per item, the worker it ran in and that worker's first random draws."""

    def __init__(self, lib_name: str) -> None:
        self.lib_name = lib_name

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i):
        if self.lib_name == "minitorch":
            lib, info = minitorch, MD.get_worker_info()
        else:
            import torch
            lib, info = torch, torch.utils.data.get_worker_info()
        return [info.id, info.seed, lib.initial_seed(), lib.randint(0, 2**20, (3,)).tolist(), lib.rand(2).tolist(),
                random.getrandbits(32), int(np.random.randint(0, 2**31))]


def probe_epochs(lib, D, lib_name: str, epochs: int = 2) -> list:
    lib.manual_seed(0)
    loader = D.DataLoader(Probe(lib_name), batch_size=None, num_workers=2)
    out = []
    for _ in range(epochs):
        it = iter(loader)
        out.append((it._base_seed, list(it)))
    return out


# ---- without torch: RNG.md §14 -----------------------------------------------------------------------------

def test_reference_order_and_base_seed():
    minitorch.manual_seed(0)
    it = iter(MD.DataLoader(list(range(10)), batch_size=10, shuffle=True))
    assert it._base_seed == 900450186894289455
    assert next(it).tolist() == [6, 7, 1, 4, 2, 0, 9, 8, 3, 5]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_epoch_without_generator_costs_four_global_words(num_workers):
    minitorch.manual_seed(0)
    assert sum(len(b) for b in MD.DataLoader(list(range(10)), batch_size=3, shuffle=True,
                                                  num_workers=num_workers)) == 10
    after = global_state(minitorch)
    minitorch.manual_seed(0)
    minitorch.default_generator._words(4)
    assert after == global_state(minitorch)


def test_epoch_with_generator_costs_base_seed_and_two_permutations():
    n = 10
    g = minitorch.Generator().manual_seed(3)
    minitorch.manual_seed(0)
    before = global_state(minitorch)
    list(MD.DataLoader(list(range(n)), batch_size=4, shuffle=True, generator=g))
    assert global_state(minitorch) == before
    h = minitorch.Generator().manual_seed(3)
    h._words(2 + 2 * (n - 1))
    assert generator_state(minitorch, g) == generator_state(minitorch, h)


def test_worker_seeds_without_torch():
    first = probe_epochs(minitorch, MD, "minitorch", epochs=1)[0]
    base = 900450186894289455
    assert first[0] == base
    # (worker id, seed, initial_seed, ..., random.getrandbits(32), np.random.randint) as torch 2.13's workers give
    assert [(r[0], r[1], r[2], r[5], r[6]) for r in first[1]] == [
        (0, base, base, 915486900, 1448108554), (1, base + 1, base + 1, 3321668219, 731306218),
        (0, base, base, 3432518842, 1602943273), (1, base + 1, base + 1, 3491267394, 433669527)]
    assert first[1][0][3] == [539218, 899242, 860452]


def test_numpy_seed_vector():
    # torch.utils.data._utils.worker._generate_state(0, 0) and (900450186894289455, 1)
    assert numpy_seed(0, 0) == [2968811710, 3677149159, 745650761, 2884920346]
    assert numpy_seed(900450186894289455, 1) == _generate_state_reference(900450186894289455, 1)


def _generate_state_reference(base_seed: int, worker_id: int) -> list[int]:
    """numpy's SeedSequence spelled out (pool of 4 words, uint32 output), as a check independent of numpy."""
    mask = 0xFFFFFFFF
    hash_const = 0x43B0D7E5

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value = (value ^ hash_const) & mask
        hash_const = (hash_const * 0x931E8875) & mask
        value = (value * hash_const) & mask
        return value ^ (value >> 16)

    def mix(x: int, y: int) -> int:
        r = (0xCA01F9DD * x - 0x4973F715 * y) & mask
        return r ^ (r >> 16)

    pool = [hashmix(v) for v in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    out, const_b = [], 0x8B51F9DD
    for v in pool:
        v ^= const_b
        const_b = (const_b * 0x58F38DED) & mask
        v = (v * const_b) & mask
        out.append(v ^ (v >> 16))
    return out


# ---- against torch -------------------------------------------------------------------------------------------

KINDS = ["shuffle", "random_replacement", "random_num_samples", "subset", "weighted", "weighted_no_replacement"]


def make_sampler(D, kind: str, data: list, g):
    n = len(data)
    weights = [(i * 7) % 5 + 0.5 for i in range(n)]
    if kind == "random_replacement":
        return D.RandomSampler(data, replacement=True, num_samples=2 * n + 37, generator=g)
    if kind == "random_num_samples":
        return D.RandomSampler(data, num_samples=2 * n + 3, generator=g)
    if kind == "subset":
        return D.SubsetRandomSampler(list(range(0, n, 2)), generator=g)
    if kind == "weighted":
        return D.WeightedRandomSampler(weights, n + 3, generator=g)
    return D.WeightedRandomSampler(weights, max(1, n // 2), replacement=False, generator=g)


def loader_epochs(lib, D, kind: str, n: int, batch_size: int, drop_last: bool, gen_seed: int | None,
                  epochs: int = 3) -> list:
    """Per epoch: the base seed, the batches, the global state and the explicit generator's state."""
    lib.manual_seed(1234)
    g = None if gen_seed is None else lib.Generator().manual_seed(gen_seed)
    data = list(range(n))
    if kind == "shuffle":
        loader = D.DataLoader(data, batch_size=batch_size, shuffle=True, drop_last=drop_last, generator=g)
    else:
        loader = D.DataLoader(data, batch_size=batch_size, drop_last=drop_last, sampler=make_sampler(D, kind, data, g))
    out = []
    for _ in range(epochs):
        it = iter(loader)
        batches = [b.tolist() for b in it]
        out.append((it._base_seed, batches, global_state(lib), generator_state(lib, g)))
    return out


@pytest.mark.parametrize("n", [1, 10, 100, 1000])
@pytest.mark.parametrize("kind", KINDS)
def test_loader_epochs_match_torch(kind, n):
    same_as_torch(loader_epochs, [(kind, n, batch_size, drop_last, gen_seed) for batch_size in (1, 3, 10, 64)
                                  for drop_last in (False, True) for gen_seed in (None, 5)])


@pytest.mark.parametrize("n,batch_size", [(10, 1), (10, 3), (100, 10), (100, 7)])
def test_partial_epoch_states_match_torch(n, batch_size):
    def run(lib, D, drop_last, gen_seed, k):
        lib.manual_seed(4)
        g = None if gen_seed is None else lib.Generator().manual_seed(gen_seed)
        it = iter(D.DataLoader(list(range(n)), batch_size=batch_size, shuffle=True, drop_last=drop_last, generator=g))
        batches = [b.tolist() for b, _ in zip(it, range(k))]
        return batches, global_state(lib), generator_state(lib, g)

    same_as_torch(run, [(drop_last, gen_seed, k) for drop_last in (False, True) for gen_seed in (None, 5)
                        for k in range(n // batch_size + 2)])


def test_unbatched_and_iterable_loaders_match_torch():
    def run(lib, D):
        stream = type("Stream", (D.IterableDataset,), {"__iter__": lambda self: iter(range(5))})()
        lib.manual_seed(8)
        order = [int(x) for x in D.DataLoader(list(range(20)), batch_size=None, shuffle=True)]
        seeds = [iter(D.DataLoader(stream))._base_seed for _ in range(2)]
        return order, seeds, global_state(lib)

    same_as_torch(run)


@pytest.mark.parametrize("n", [1, 7, 10, 100, 1000])
def test_random_split_matches_torch(n):
    def run(lib, D, lengths, gen_seed):
        lib.manual_seed(99)
        g = lib.default_generator if gen_seed is None else lib.Generator().manual_seed(gen_seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zero-length splits for small n
            explicit = D.random_split(list(range(n)), lengths, generator=g)
            default = D.random_split(list(range(n)), lengths)
        return [list(s.indices) for s in explicit + default], global_state(lib), generator_state(lib, g)

    same_as_torch(run, [(lengths, gen_seed) for lengths in ([n], [0.5, 0.5], [0.3, 0.3, 0.4], [0.1] * 10,
                                                            [n - n // 3, n // 3]) for gen_seed in (None, 3)])


@pytest.mark.parametrize("n", [1, 10, 11, 100, 1000])
def test_distributed_sampler_matches_torch(n):
    def run(lib, D, replicas, shuffle, drop_last, seed):
        out = []
        for rank in range(replicas):
            s = D.DistributedSampler(list(range(n)), num_replicas=replicas, rank=rank, shuffle=shuffle, seed=seed,
                                     drop_last=drop_last)
            for epoch in range(3):
                s.set_epoch(epoch)
                out.append((list(s), len(s)))
        return out

    minitorch.manual_seed(0)
    before = global_state(minitorch)
    same_as_torch(run, [(replicas, shuffle, drop_last, seed) for replicas in (1, 2, 3, 4) for shuffle in (True, False)
                        for drop_last in (False, True) for seed in (0, 7)])
    assert global_state(minitorch) == before  # its own generator only


def _torch_generate_state(torch, cases):
    from torch.utils.data._utils.worker import _generate_state
    return [_generate_state(base_seed, worker_id) for base_seed, worker_id in cases]


def test_numpy_seed_matches_torch_generate_state():
    rng = random.Random(0)
    cases = [(0, 0), (2**63 - 1, 63), (2**32 - 1, 0), (2**32, 1)]
    cases += [(rng.randrange(2**63), rng.randrange(64)) for _ in range(500)]
    cases += [(rng.randrange(2**32), rng.randrange(4)) for _ in range(100)]
    for (base_seed, worker_id), expected in zip(cases, torch_answer(_torch_generate_state, cases), strict=True):
        assert numpy_seed(base_seed, worker_id) == expected == _generate_state_reference(base_seed, worker_id)


def test_worker_seeds_match_torch():
    same_as_torch(lambda lib, D: probe_epochs(lib, D, lib.__name__))


def test_shuffled_workers_match_torch():
    def run(lib, D):
        lib.manual_seed(5)
        loader = D.DataLoader(list(range(50)), batch_size=4, shuffle=True, num_workers=2, persistent_workers=True)
        out = []
        for _ in range(2):
            it = iter(loader)
            out.append((it._base_seed, [b.tolist() for b in it], global_state(lib)))
        return out

    same_as_torch(run)
