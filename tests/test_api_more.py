"""Smaller pieces of PyTorch's API that real programs import: DistributedSampler (index arithmetic, no
process group needed) and the allow-list of globals for PyTorch checkpoints (serialization.safe_globals)."""
import io
import pickle

import numpy as np
import pytest

import minitorch
from minitorch.utils.data import DistributedSampler
from torch_answers import torch, torch_answer


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


class Config:  # a class a checkpoint may hold once the user allows it
    def __init__(self, n, name):
        self.n, self.name = n, name


def _torch_checkpoint_with_config(torch):
    """The bytes torch.save writes for a dict holding a Config and a tensor."""
    buffer = io.BytesIO()
    torch.save({"cfg": Config(3, "adam"), "w": torch.ones(2)}, buffer)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy()


def test_safe_globals_allow_a_class_in_a_torch_checkpoint(tmp_path):
    path = tmp_path / "with_config.pth"
    path.write_bytes(torch_answer(_torch_checkpoint_with_config).tobytes())
    with pytest.raises(pickle.UnpicklingError, match=r"Please use `torch.serialization.add_safe_globals\(\[\S*Config\]\)`"):
        minitorch.load(path)
    with minitorch.serialization.safe_globals([Config]):
        loaded = minitorch.load(path)
    assert (loaded["cfg"].n, loaded["cfg"].name, loaded["w"].tolist()) == (3, "adam", [1.0, 1.0])
    with pytest.raises(pickle.UnpicklingError):  # allowed inside the block only
        minitorch.load(path)
    minitorch.serialization.add_safe_globals([Config])
    try:
        assert minitorch.serialization.get_safe_globals() == [Config]
        assert minitorch.load(path)["cfg"].n == 3
    finally:
        minitorch.serialization.clear_safe_globals()
    assert minitorch.serialization.get_safe_globals() == []
