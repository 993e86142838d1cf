"""Random number generators: ``Generator``, the default generator and ``manual_seed``.

A ``Generator`` wraps numpy's PCG64 bit generator, so every stream is
reproducible from its seed. The numbers differ from PyTorch's (another
algorithm); the API and the determinism are the same.
"""
from __future__ import annotations

import json
import os

import numpy as np

class Generator:
    """A seeded stream of random numbers, as ``torch.Generator``."""

    def __init__(self, device: str = "cpu"):
        self.device = device
        self.manual_seed(67280421310721)  # a new Generator's fixed seed, as in torch

    def manual_seed(self, seed: int) -> "Generator":
        """Restart the stream from ``seed``; returns self."""
        seed = int(seed)
        if not -0x8000_0000_0000_0000 <= seed <= 0xFFFF_FFFF_FFFF_FFFF:
            raise RuntimeError("Overflow when unpacking long long")
        self._seed = seed & 0xFFFF_FFFF_FFFF_FFFF
        self.np = np.random.Generator(np.random.PCG64(self._seed))
        return self

    def seed(self) -> int:
        """Reseed from a non-deterministic source and return the new seed."""
        s = int.from_bytes(os.urandom(8), "little") >> 1
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self):
        """The generator state as a uint8 tensor (pass it to ``set_state``)."""
        from ._tensor import Tensor
        raw = json.dumps({"seed": self._seed, "state": self.np.bit_generator.state}).encode()
        return Tensor._wrap(np.frombuffer(raw, np.uint8).copy())

    def set_state(self, new_state) -> "Generator":
        state = json.loads(bytes(new_state._data.astype(np.uint8)).decode())
        self._seed = state["seed"]
        self.np = np.random.Generator(np.random.PCG64())
        self.np.bit_generator.state = state["state"]
        return self


default_generator = Generator()
default_generator.seed()  # like torch, a fresh process starts from a non-deterministic seed


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (and thus every random op without ``generator=``)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    default_generator.set_state(new_state)


def numpy_generator(generator: Generator | None) -> np.random.Generator:
    """The numpy generator behind ``generator`` (or the default one)."""
    return (generator or default_generator).np
