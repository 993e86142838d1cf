"""Random number generators: ``Generator``, the default generator, ``manual_seed`` and ``fork_rng``.

A ``Generator`` is PyTorch's CPU engine: a 32-bit Mersenne Twister (numpy's ``MT19937``) seeded as
PyTorch seeds it, with PyTorch's one-value cache of the scalar normal sampler, and PyTorch's 5056-byte state
layout, so a state saved by one library loads in the other. The kernels in ``minitorch._rng`` turn its
words into samples exactly as PyTorch does.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import numpy as np

from ._core.tensor import Tensor
from ._device import _check_device, device as _device
from ._settings import thread_safe_generator  # noqa: F401  (torch.random has it too)

_STATE_SIZE = 5056
_N = 624  # Mersenne Twister state words
# Byte offsets in PyTorch's CPUGeneratorImplState.
_LEFT, _SEEDED, _NEXT, _WORDS, _NORMAL, _NORMAL_FLAG = 8, 12, 16, 24, 5024, 5040


def _seed_words(seed: int) -> np.ndarray:
    """The Mersenne Twister's reference initialisation from the low 32 bits of ``seed``."""
    mt = [seed & 0xFFFF_FFFF]
    for j in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFF_FFFF)
    return np.array(mt, np.uint32)


class Generator:
    """A seeded stream of random numbers, as ``torch.Generator``; ``generator=`` on every random function."""

    def __init__(self, device: str = "cpu"):
        _check_device(device)
        self.device = _device(device) if isinstance(device, str) else device
        self._bits = np.random.MT19937()
        self.manual_seed(67280421310721)  # a new Generator's fixed seed, as in torch

    def manual_seed(self, seed: int) -> "Generator":
        """Restart the stream from ``seed`` (only its low 32 bits drive the stream, as in torch); returns self."""
        seed = int(seed)
        if not -0x8000_0000_0000_0000 <= seed <= 0xFFFF_FFFF_FFFF_FFFF:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed & 0xFFFF_FFFF_FFFF_FFFF
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": _seed_words(self._seed), "pos": _N}}
        self._fresh = True          # torch's state says next = 0 until the first draw
        self._normal: float | None = None  # the second value of the last scalar Box-Muller pair
        return self

    def seed(self) -> int:
        """Reseed from a non-deterministic source and return the new seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        """The seed last given to ``manual_seed`` (all 64 bits)."""
        return self._seed

    def _words(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words of the stream (as uint64)."""
        if n:
            self._fresh = False
        return self._bits.random_raw(n)

    def _words64(self, n: int) -> np.ndarray:
        """``n`` 64-bit values, each of two consecutive words with the first one high."""
        w = self._words(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def get_state(self):
        """The generator state as a uint8 tensor of torch's layout (pass it to ``set_state``)."""
        raw = np.zeros(_STATE_SIZE, np.uint8)
        state = self._bits.state["state"]
        pos = int(state["pos"])
        nxt, left = (0, 1) if self._fresh else (pos, _N + 1 - pos)
        raw[0:8] = np.frombuffer(np.uint64(self._seed).tobytes(), np.uint8)
        raw[_LEFT:_LEFT + 8] = np.frombuffer(np.array([left, 1], "<i4").tobytes(), np.uint8)
        raw[_NEXT:_NEXT + 8] = np.frombuffer(np.uint64(nxt).tobytes(), np.uint8)
        raw[_WORDS:_WORDS + 8 * _N] = np.frombuffer(state["key"].astype("<u8").tobytes(), np.uint8)
        if self._normal is not None:
            raw[_NORMAL:_NORMAL + 8] = np.frombuffer(np.float64(self._normal).tobytes(), np.uint8)
            raw[_NORMAL_FLAG] = 1
        return Tensor._wrap(raw)

    def set_state(self, new_state) -> "Generator":
        """Restore a state from ``get_state`` (or from PyTorch's ``get_rng_state``)."""
        if not isinstance(new_state, Tensor) or new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = np.ascontiguousarray(new_state._data).reshape(-1)
        if raw.size != _STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_SIZE} but found the input RNG "
                               f"state size to be {raw.size}")
        left = int(raw[_LEFT:_LEFT + 4].view("<i4")[0])
        nxt = int(raw[_NEXT:_NEXT + 8].view("<u8")[0])
        if not 1 <= left <= _N or nxt > _N:
            raise RuntimeError("Invalid mt19937 state")
        key = raw[_WORDS:_WORDS + 8 * _N].view("<u8").astype(np.uint32)
        self._seed = int(raw[0:8].view("<u8")[0])
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": _N + 1 - left}}
        self._fresh = left == 1 and nxt == 0
        flag = int(raw[_NORMAL_FLAG:_NORMAL_FLAG + 4].view("<i4")[0])
        self._normal = float(raw[_NORMAL:_NORMAL + 8].view("<f8")[0]) if flag else None
        return self

    def __repr__(self) -> str:
        return f"<minitorch.Generator object at {id(self):#x}>"


default_generator = Generator()
default_generator.seed()  # like torch, a fresh process starts from a non-deterministic seed


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (and thus every random op without ``generator=``)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator non-deterministically; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a uint8 tensor of PyTorch's layout."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default generator from ``get_rng_state`` (PyTorch's states load too)."""
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng", _devices_kw: str = "devices",
             device_type=None) -> Iterator[None]:
    """Run the block with the default generator's state saved and restored afterwards."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def numpy_generator(generator: Generator | None) -> np.random.Generator:
    """A numpy generator seeded from two words of ``generator`` (or the default one), for the samplers whose
    PyTorch algorithm is not reproduced (gamma, Poisson, binomial, ...): ``manual_seed`` still decides them."""
    return np.random.Generator(np.random.PCG64(int((generator or default_generator)._words64(1)[0])))
