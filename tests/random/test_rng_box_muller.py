"""The float32 Box-Muller kernel of randn/normal_ against RNG.md's test vectors and, bitwise, against torch."""
import numpy as np
import pytest

import minitorch
from minitorch._rng.box_muller import box_muller32
from torch_answers import fingerprint, torch_answer

MEAN_STD = [(0.0, 1.0), (0.5, 0.02), (-3.0, 2.5)]


def u24(words: np.ndarray) -> np.ndarray:
    return (words & np.uint64(0xFFFFFF)).astype(np.float32) * np.float32(2 ** -24)


def randn32(seed: int, n: int, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
    """float32 ``normal_`` for contiguous n >= 16: full chunks over n words, then a fresh tail chunk over the last 16."""
    g = minitorch.Generator().manual_seed(seed)
    d = u24(g._words(n))
    full = n - n % 16
    d[:full] = box_muller32(d[:full], mean, std)
    if n % 16:
        d[n - 16:] = box_muller32(u24(g._words(16)), mean, std)
    return d


def bits(*patterns: int) -> np.ndarray:
    return np.array(patterns, np.uint32)


@pytest.mark.parametrize("seed, n, mean, std, index, expected", [
    (0, 16, 0.0, 1.0, [0, 1, 8, 15], bits(0xBF901B85, 0xBF93808A, 0x3EA50138, 0xBE7D367C)),
    (0, 17, 0.0, 1.0, [0, 1, 15, 16], bits(0xBF901B85, 0xBFD91446, 0xBF57FB33, 0x3F6E8C30)),
    (42, 100, 0.0, 1.0, [0, 50, 99], bits(0x3FF6A529, 0x3D9FCAFB, 0x3F1E061C)),
    (1, 20, 0.5, 0.02, [0, 19], bits(0x3EF060BE, 0x3F08C998)),
])
def test_spec_vectors(seed, n, mean, std, index, expected):
    np.testing.assert_array_equal(randn32(seed, n, mean, std)[index].view(np.uint32), expected)


def test_returns_new_float32_array():
    d = u24(minitorch.Generator().manual_seed(3)._words(48))
    before = d.copy()
    out = box_muller32(d, 0.0, 1.0)
    assert out.dtype == np.float32 and out.shape == (48,)
    np.testing.assert_array_equal(d, before)


def test_u1_one_gives_positive_zero():
    # d[j] = 0 makes u1 = 1, LOG = +0 and R = -0; the affine fma with mean 0 turns -0 into +0.
    out = box_muller32(np.zeros(16, np.float32), 0.0, 1.0)
    np.testing.assert_array_equal(out.view(np.uint32), np.zeros(16, np.uint32))


@pytest.mark.parametrize("shape", [(15,), (20,), (4, 16)])
def test_rejects_bad_shapes(shape):
    with pytest.raises(ValueError):
        box_muller32(np.zeros(shape, np.float32), 0.0, 1.0)


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 31, 2 ** 32 + 7])
def test_matches_torch_over_seeds(seed):
    cases = [(n, mean, std) for n in (16, 32, 4096, 65536, 10 ** 6) for mean, std in MEAN_STD]
    for (n, mean, std), expected in zip(cases, torch_answer(_torch_normals, seed, cases), strict=True):
        assert fingerprint(randn32(seed, n, mean, std)) == expected, f"{n} {mean} {std}"


def _torch_normals(torch, seed, cases):
    """Fingerprints of torch's ``empty(n).normal_(mean, std)`` after ``manual_seed(seed)``, per case."""
    out = []
    for n, mean, std in cases:
        torch.manual_seed(seed)
        out.append(fingerprint(torch.empty(n).normal_(mean, std)))
    return out


def untemper(y: np.ndarray) -> np.ndarray:
    """The MT19937 state words whose tempered outputs are ``y``."""
    y = y ^ (y >> np.uint64(18))
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    t = y
    for _ in range(5):
        t = y ^ ((t << np.uint64(7)) & np.uint64(0x9D2C5680))
    y = t & np.uint64(0xFFFFFFFF)
    t = y
    for _ in range(3):
        t = y ^ (t >> np.uint64(11))
    return t


_PER_CALL = 608  # a state with left = 624, next = 0 emits its first 623 words untouched by a twist


def torch_normal_from_words(torch, words: np.ndarray, mean: float, std: float) -> np.ndarray:
    """torch's ``normal_`` fed exactly ``words`` (a multiple of 608), through crafted generator states."""
    calls = words.size // _PER_CALL
    states = np.zeros((calls, 5056), np.uint8)
    states[:, 8:16] = np.array([624, 1], "<i4").view(np.uint8)  # left, seeded; next (16-23) stays 0
    keys = np.zeros((calls, 624), "<u8")
    keys[:, :_PER_CALL] = untemper(words).reshape(calls, _PER_CALL)
    states[:, 24:24 + 8 * 624] = keys.view(np.uint8)
    g, buf = torch.Generator(), torch.empty(_PER_CALL)
    out = np.empty(words.size, np.float32)
    for i in range(calls):
        g.set_state(torch.from_numpy(states[i]))
        out[i * _PER_CALL:(i + 1) * _PER_CALL] = buf.normal_(mean, std, generator=g).numpy()
    return out


def every_uniform():
    """Batches of words holding every one of the 2**24 uniforms, once as u1 and once as u2, with random high bits
    (which must be ignored)."""
    rng = np.random.default_rng(7)
    u1 = np.arange(2 ** 24, dtype=np.uint64)
    u2 = rng.permutation(u1)
    batch = 19 * 2 ** 14  # pairs per batch: chunks of 8 pairs fill whole crafted states
    for start in range(0, u1.size, batch):
        pairs = np.stack([u1[start:start + batch].reshape(-1, 8), u2[start:start + batch].reshape(-1, 8)], axis=1)
        words = pairs.reshape(-1)
        words = np.concatenate([words, np.zeros(-words.size % _PER_CALL, np.uint64)])
        words |= rng.integers(0, 256, words.size, dtype=np.uint64) << np.uint64(24)
        yield words


@pytest.mark.parametrize("mean, std", MEAN_STD)
def test_matches_torch_for_every_uniform(mean, std):
    for words in every_uniform():
        expected = torch_answer(lambda torch, words, mean, std: fingerprint(torch_normal_from_words(
            torch, words, mean, std)), words, mean, std)
        assert fingerprint(box_muller32(u24(words), mean, std)) == expected
