"""Random streams: RNG.md's test vectors bit for bit, and (where PyTorch is installed) every random function,
nn.init and default module init compared with torch, values and generator state, byte for byte."""
import math

import numpy as np
import pytest

import minitorch
from torch_answers import fingerprint, torch_answer

SEEDS = [0, 1, 42, 2 ** 31, 2 ** 32 + 7, 2 ** 63 + 5, -1]
SIZES = [0, 1, 7, 15, 16, 17, 31, 33, 100, 1000, 4097]
FLOATS = ["float32", "float64", "float16"]


def bits(t) -> np.ndarray:
    """The raw bit patterns of a float tensor (or the values of an integer one)."""
    a = np.ascontiguousarray(t.detach().numpy())
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]) if a.dtype.kind == "f" else a


def f32(*patterns: int) -> np.ndarray:
    return np.array(patterns, np.uint32)


def seeded(seed: int, fn):
    minitorch.manual_seed(seed)
    return fn()


def state_field(raw: np.ndarray, offset: int, fmt: str):
    return raw[offset:offset + np.dtype(fmt).itemsize].view(fmt)[0]


# --- RNG.md section 14, without torch -------------------------------------------------------------------------

F32_VECTORS = [
    (0, lambda: minitorch.rand(4), None, f32(0x3EFE1558, 0x3F44AA2F, 0x3DB533A8, 0x3E073300)),
    (0, lambda: minitorch.randn(3), None, f32(0x3FC53F5C, 0xBE963C50, 0xC00B7149)),
    (0, lambda: minitorch.randn(16), [0, 1, 8, 15], f32(0xBF901B85, 0xBF93808A, 0x3EA50138, 0xBE7D367C)),
    (0, lambda: minitorch.randn(17), [0, 1, 15, 16], f32(0xBF901B85, 0xBFD91446, 0xBF57FB33, 0x3F6E8C30)),
    (42, lambda: minitorch.randn(100), [0, 50, 99], f32(0x3FF6A529, 0x3D9FCAFB, 0x3F1E061C)),
    (1, lambda: minitorch.empty(20).normal_(0.5, 0.02), [0, 19], f32(0x3EF060BE, 0x3F08C998)),
    (0, lambda: minitorch.empty(4).uniform_(-0.5, 0.5), None, f32(0xBB755400, 0x3E89545E, 0xBED2B316, 0xBEBC6680)),
    (0, lambda: minitorch.empty(3).exponential_(), None, f32(0x4060886B, 0x3F9D7D3F, 0x3F1D7388)),
    (0, lambda: minitorch.nn.Linear(4, 3).weight[0], None, f32(0xBB755400, 0x3E89545E, 0xBED2B316, 0xBEBC6680)),
    (0, lambda: minitorch.nn.Linear(4, 3).bias, None, f32(0xBEF491B8, 0xBEA98B52, 0xBE530EE8)),
    (0, lambda: minitorch.nn.Conv2d(3, 8, 3).weight[0, 0, 0], None, f32(0xBABCDA8B, 0x3DD36EC5, 0xBE223254)),
    (0, lambda: minitorch.nn.Conv2d(3, 8, 3).bias[:3], None, f32(0xBE1A25F7, 0xBDCE947B, 0x3E1F21B7)),
    (2 ** 32 + 7, lambda: minitorch.rand(2), None, f32(0x3F08F0AF, 0x3E4B9310)),
]


@pytest.mark.parametrize("seed, fn, index, expected", F32_VECTORS)
def test_float32_vectors(seed, fn, index, expected):
    out = bits(seeded(seed, fn))
    np.testing.assert_array_equal(out if index is None else out[index], expected)


@pytest.mark.parametrize("fn, index, expected", [
    (lambda: minitorch.rand(2, dtype=minitorch.float64), None, [0x3FEF0AAC97C4AA2F, 0x3FE6A675D821CCC0]),
    (lambda: minitorch.randn(3, dtype=minitorch.float64), None,
     [0x3FF8A7EB8902BE3A, 0xBFD2C78A087C6FEA, 0xC0016E2920A70EE5]),
    (lambda: minitorch.randn(16, dtype=minitorch.float64), [0, 8], [0xC0027BB92E9262DC, 0xBFF4BAE386384915]),
])
def test_float64_vectors(fn, index, expected):
    out = bits(seeded(0, fn))
    np.testing.assert_array_equal(out if index is None else out[index], np.array(expected, np.uint64))


@pytest.mark.parametrize("seed, fn, expected", [
    (0, lambda: minitorch.randint(0, 10, (8,)), [4, 9, 3, 0, 3, 9, 7, 3]),
    (0, lambda: minitorch.randint(-5, 2 ** 30, (3,)), [500684172, 173853861, 226251419]),
    (0, lambda: minitorch.empty(3, dtype=minitorch.int64).random_(),
     [900450186894289455, 3969543146641149120, 1895649597198586619]),
    (0, lambda: minitorch.randperm(10), [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]),
    (0, lambda: minitorch.empty(10).bernoulli_(0.5), [0, 0, 1, 0, 0, 0, 1, 1, 0, 1]),
    (0, lambda: minitorch.nn.functional.dropout(minitorch.ones(8), 0.5, training=True), [0, 0, 2, 0, 0, 0, 2, 2]),
    # the noise is laid out as the input where that is dense (transposed), else row-major (stepped slice, expanded)
    (0, lambda: minitorch.nn.functional.dropout(minitorch.ones(3, 4).t()[:, 1:], 0.5, training=True).flatten(),
     [0, 0, 0, 0, 2, 2, 0, 2]),
    (0, lambda: minitorch.nn.functional.dropout(minitorch.ones(4, 6)[:, ::2], 0.5, training=True).flatten(),
     [0, 0, 2, 0, 0, 0, 2, 2, 0, 2, 2, 2]),
    (0, lambda: minitorch.nn.functional.dropout(minitorch.ones(1, 4).expand(2, 4), 0.5, training=True).flatten(),
     [0, 0, 2, 0, 0, 0, 2, 2]),
    (0, lambda: minitorch.multinomial(minitorch.tensor([.1, .2, .3, .4]), 4), [2, 1, 3, 0]),
    (0, lambda: minitorch.multinomial(minitorch.tensor([.1, .2, .3, .4]), 8, replacement=True),
     [3, 3, 2, 3, 3, 3, 1, 2]),
    (42, lambda: minitorch.randn(2, generator=minitorch.Generator().manual_seed(42)).numpy().view(np.uint32),
     [0x3EAC62AE, 0x3E03E69D]),
])
def test_value_vectors(seed, fn, expected):
    out = seeded(seed, fn)
    np.testing.assert_array_equal(np.asarray(out.numpy() if hasattr(out, "numpy") else out), expected)


def test_raw_words_and_seeds():
    g = minitorch.Generator().manual_seed(0)
    np.testing.assert_array_equal(g._words(4), [2357136044, 2546248239, 3071714933, 3626093760])
    assert minitorch.Generator().initial_seed() == 67280421310721
    minitorch.manual_seed(-1)
    assert minitorch.initial_seed() == 2 ** 64 - 1
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        minitorch.manual_seed(2 ** 64)
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        minitorch.manual_seed(-2 ** 63 - 1)
    minitorch.manual_seed(-2 ** 63)
    assert minitorch.initial_seed() == 2 ** 63


def test_seed_7_and_2_32_plus_7_share_the_stream():
    a, b = minitorch.Generator().manual_seed(7), minitorch.Generator().manual_seed(2 ** 32 + 7)
    np.testing.assert_array_equal(a._words(700), b._words(700))
    assert (a.initial_seed(), b.initial_seed()) == (7, 2 ** 32 + 7)


def test_state_layout_after_seeding():
    minitorch.manual_seed(2 ** 40 + 3)
    raw = minitorch.get_rng_state().numpy()
    assert raw.dtype == np.uint8 and raw.shape == (5056,)
    assert state_field(raw, 0, "<u8") == 2 ** 40 + 3
    assert (state_field(raw, 8, "<i4"), state_field(raw, 12, "<i4"), state_field(raw, 16, "<u8")) == (1, 1, 0)
    words = raw[24:5016].view("<u8")
    assert words[0] == 3 and words[1] == (1812433253 * (3 ^ (3 >> 30)) + 1) % 2 ** 32
    assert not raw[5016:].any()  # no cached normal, padding zero


def test_state_bytes_after_randn_1():
    minitorch.manual_seed(0)
    minitorch.randn(1)
    raw = minitorch.get_rng_state().numpy()
    assert state_field(raw, 5024, "<u8") == 0xBFD2C78A087C6FEA
    assert (state_field(raw, 5040, "<i4"), state_field(raw, 8, "<i4"), state_field(raw, 16, "<u8")) == (1, 621, 4)


def test_set_rng_state_errors():
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056 but found the input RNG "
                                           "state size to be 10"):
        minitorch.set_rng_state(minitorch.zeros(10, dtype=minitorch.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        minitorch.set_rng_state(minitorch.zeros(5056))
    bad = minitorch.get_rng_state().numpy().copy()
    bad[8:12] = 0
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        minitorch.set_rng_state(minitorch.tensor(bad))


def test_state_round_trip_keeps_the_normal_cache():
    minitorch.manual_seed(3)
    minitorch.randn(1)
    state = minitorch.get_rng_state()
    first = bits(minitorch.randn(5))
    minitorch.set_rng_state(state)
    np.testing.assert_array_equal(bits(minitorch.randn(5)), first)


def test_fork_rng_restores_the_state():
    minitorch.manual_seed(5)
    minitorch.randn(3)
    before = minitorch.get_rng_state().numpy()
    with minitorch.random.fork_rng():
        minitorch.rand(100)
        minitorch.randn(1)
    np.testing.assert_array_equal(minitorch.get_rng_state().numpy(), before)


def test_generator_is_independent_of_the_global_stream():
    minitorch.manual_seed(9)
    g = minitorch.Generator().manual_seed(9)
    minitorch.randn(5)
    np.testing.assert_array_equal(g._words(10), minitorch.Generator().manual_seed(9)._words(10))
    global_state = minitorch.get_rng_state().numpy()
    minitorch.rand(10, generator=g)
    minitorch.randn(3, generator=g)
    np.testing.assert_array_equal(minitorch.get_rng_state().numpy(), global_state)


def test_normal_cache_spans_calls():
    minitorch.manual_seed(0)
    split = np.concatenate([bits(minitorch.randn(3)), bits(minitorch.randn(3))])
    np.testing.assert_array_equal(split, bits(seeded(0, lambda: minitorch.randn(6))))


# --- Differential tests against torch ------------------------------------------------------------------------
# A call is ``(seed, fn, args, generator)``: ``fn(lib, g, *args)`` after seeding the global stream (and a fresh
# generator ``g`` when ``generator``, else g is None). Both libraries must give the same bytes and leave the same
# generator states; torch's side is a short fingerprint of those bytes, live or recorded.

def call(seed: int, fn, *args, generator: bool = False) -> tuple:
    return seed, fn, args, generator


def seeded_fingerprint(lib, seed, fn, args, generator) -> str:
    """A fingerprint of the call's results (dtype, shape and bytes: -0.0 and NaN payloads count) and of the
    generator states after it."""
    g = lib.Generator().manual_seed(seed) if generator else None
    lib.manual_seed(seed)
    out = fn(lib, g, *args)
    flat = list(out) if isinstance(out, (tuple, list)) else [out]
    return fingerprint(*flat, lib.get_rng_state(), *([g.get_state()] if generator else []))


def torch_fingerprints(torch, calls) -> list:
    """torch's ``seeded_fingerprint`` of each call; None where torch rejects the call."""
    out = []
    for c in calls:
        try:
            out.append(seeded_fingerprint(torch, *c))
        except (RuntimeError, TypeError, NotImplementedError):
            out.append(None)
    return out


def compare(calls) -> int:
    """Run each call on minitorch that torch accepts, compare with torch's; return how many were compared."""
    expected = torch_answer(torch_fingerprints, calls)
    for (seed, fn, args, generator), theirs in zip(calls, expected):
        if theirs is not None:
            mine = seeded_fingerprint(minitorch, seed, fn, args, generator)
            assert mine == theirs, f"seed {seed}, args {args}, generator {generator}: not torch's bytes"
    return sum(theirs is not None for theirs in expected)


def dt(lib, name: str):
    return getattr(lib, name)


FILL_OPS = {
    "rand": lambda L, g, n, d: L.rand(n, dtype=dt(L, d), generator=g),
    "randn": lambda L, g, n, d: L.randn(n, dtype=dt(L, d), generator=g),
    "rand_like": lambda L, g, n, d: L.rand_like(L.zeros(n, 2, dtype=dt(L, d))),
    "randn_like": lambda L, g, n, d: L.randn_like(L.zeros(2, n, dtype=dt(L, d))),
    "randint_like": lambda L, g, n, d: L.randint_like(L.zeros(n, dtype=dt(L, d)), -3, 1000),
    "normal_size": lambda L, g, n, d: L.normal(0.5, 0.02, (n,), generator=g, dtype=dt(L, d)),
    "uniform_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).uniform_(a, b, generator=g)
                                    for a, b in [(0, 1), (-1 / math.sqrt(3), 1 / math.sqrt(3)), (2.0, 5.5), (-3, 1e-3)]],
    "normal_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).normal_(m, s, generator=g)
                                   for m, s in [(0, 1), (0.5, 0.02), (-3, 2.5)]],
    "bernoulli_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).bernoulli_(p, generator=g) for p in (0.3, 0.5, 0.9)],
    "exponential_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).exponential_(lam, generator=g) for lam in (1, 2.5)],
    "cauchy_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).cauchy_(m, s, generator=g) for m, s in [(0, 1), (1, 2)]],
    "geometric_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).geometric_(p, generator=g) for p in (0.3, 0.9)],
    "log_normal_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).log_normal_(m, s, generator=g)
                                       for m, s in [(0, 1), (1, 0.5)]],
    "random_": lambda L, g, n, d: [L.empty(n, dtype=dt(L, d)).random_(generator=g),
                                   L.empty(n, dtype=dt(L, d)).random_(100, generator=g),
                                   L.empty(n, dtype=dt(L, d)).random_(-10, 10, generator=g)],
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("op", list(FILL_OPS))
def test_float_fills_match_torch(op, seed):
    assert compare([call(seed, FILL_OPS[op], n, d) for d in FLOATS for n in SIZES]) >= 2 * len(SIZES)


@pytest.mark.parametrize("op", ["rand", "randn", "normal_size", "uniform_", "normal_", "bernoulli_",
                                "exponential_", "cauchy_", "geometric_", "log_normal_", "random_"])
def test_generator_argument_matches_torch(op):
    calls = [call(seed, FILL_OPS[op], n, d, generator=True) for seed in SEEDS for d in FLOATS for n in (1, 15, 17, 100)]
    assert compare(calls) >= 2 * 4 * len(SEEDS)


RANGES = [(0, 10), (-5, 5), (-100, 2 ** 28 - 101), (0, 2 ** 28), (0, 2 ** 28 + 1), (-5, 2 ** 30),
          (-2 ** 40, 2 ** 40), (0, 2 ** 62)]


def randint(L, g, low, high, n, d):
    return L.randint(low, high, (n,), dtype=dt(L, d), generator=g)


@pytest.mark.parametrize("seed", SEEDS)
def test_randint_matches_torch(seed):
    calls = []
    for low, high in RANGES:
        dtypes = ["int64"] + (["float64"] if high - low <= 2 ** 53 else [])
        dtypes += ["int32"] if high <= 2 ** 31 and low >= -2 ** 31 else []
        calls += [call(seed, randint, low, high, n, d, generator=n % 2 == 1) for d in dtypes for n in SIZES]
    assert compare(calls) == len(calls)


def random_(L, g, n, d, *args):
    return L.empty(n, dtype=dt(L, d)).random_(*args, generator=g)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_integer_dtypes_match_torch(seed):
    calls = []
    for d in ["int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64", "float16"]:
        for n in (0, 1, 17, 1000):
            calls.append(call(seed, random_, n, d))
            if d != "bool":
                calls += [call(seed, random_, n, d, 2, 100), call(seed, random_, n, d, 7)]
    calls += [call(seed, random_, 33, "int64", *args) for args in [(2 ** 40,), (-2 ** 40, 2 ** 41), (5, None),
                                                                 (-2 ** 63, None)]]
    assert compare(calls) == len(calls)


@pytest.mark.parametrize("seed", SEEDS)
def test_randperm_matches_torch(seed):
    calls = [c for n in SIZES for c in (call(seed, lambda L, g, n: L.randperm(n, generator=g), n),
                                        call(seed, lambda L, g, n: L.randperm(n, generator=g, dtype=L.int32), n,
                                             generator=True))]
    assert compare(calls) == len(calls)


def linspace(L, n: int, d: str, lo: float, hi: float):
    return L.tensor(np.linspace(lo, hi, n), dtype=dt(L, d))


@pytest.mark.parametrize("seed", SEEDS)
def test_normal_tensor_forms_match_torch(seed):
    calls = []
    for d in ["float32", "float64"]:
        for n in SIZES:
            calls += [
                call(seed, lambda L, g, n, d: L.normal(linspace(L, n, d, -2, 3), linspace(L, n, d, 0.1, 2),
                                                       generator=g), n, d),
                call(seed, lambda L, g, n, d: L.normal(linspace(L, n, d, -2, 3), 0.3, generator=g), n, d),
                call(seed, lambda L, g, n, d: L.normal(1.5, linspace(L, n, d, 0, 2), generator=g), n, d,
                     generator=True),
                call(seed, lambda L, g, n: L.normal(2.0, 3.0, (n,), generator=g), n)]
        calls.append(call(seed, lambda L, g, d: L.normal(linspace(L, 6, d, -2, 3).reshape(2, 3),
                                                         linspace(L, 3, d, 0.5, 1), generator=g), d))
    assert compare(calls) == len(calls)


@pytest.mark.parametrize("seed", SEEDS)
def test_bernoulli_matches_torch(seed):
    calls = []
    for d in ["float32", "float64"]:
        for n in SIZES:
            calls += [call(seed, lambda L, g, n, d: L.bernoulli(linspace(L, n, d, 0, 1), generator=g), n, d),
                      call(seed, lambda L, g, n, d: L.empty(n).bernoulli_(linspace(L, n, d, 0.2, 0.7), generator=g),
                           n, d, generator=True)]
        calls.append(call(seed, lambda L, g: L.empty(30, dtype=L.int64).bernoulli_(0.4, generator=g)))
    assert compare(calls) == len(calls)


def multinomial(L, g, rows, d, k, replacement):
    return L.multinomial(L.tensor(rows, dtype=dt(L, d)), k, replacement=replacement, generator=g)


@pytest.mark.parametrize("seed", SEEDS)
def test_multinomial_matches_torch(seed):
    weights = np.random.RandomState(seed & 0xFFFF).rand(3, 50) + 0.01
    calls = [call(seed, multinomial, rows, d, k, replacement, generator=k == 3)
             for d in ["float32", "float64"] for rows in (weights[0, :10], weights[0], weights)
             for k, replacement in [(1, False), (1, True), (3, False), (10, False), (10, True), (100, True)]]
    assert compare(calls) == len(calls)


FILLS = [lambda t: t.normal_(), lambda t: t.normal_(0.5, 2.0), lambda t: t.uniform_(-2, 3)]


@pytest.mark.parametrize("seed", SEEDS)
def test_non_contiguous_fills_match_torch(seed):
    calls = [call(seed, lambda L, g, i, shape, d: FILLS[i](L.empty(*shape, dtype=dt(L, d)).t()), i, shape, d)
             for d in FLOATS for shape in [(3, 5), (40, 30)] for i in range(len(FILLS))]
    assert compare(calls) == len(calls)


def test_normal_cache_across_calls_matches_torch():
    def sequence(L, g):
        return [L.randn(3), L.randn(20), L.randn(1, dtype=L.float64), L.empty(5).normal_(1, 2),
                L.empty(4).log_normal_(), L.randn(7, dtype=L.float16), L.randn(2)]
    assert compare([call(seed, sequence) for seed in SEEDS]) == len(SEEDS)


def round_trips(lib) -> list:
    """Fingerprints of draws after states passed through their bytes: the global stream (with a cached normal,
    and across a twist) and a generator's."""
    seen = []

    def reload(state):
        seen.append(fingerprint(state))
        return lib.tensor(state.numpy().copy())
    lib.manual_seed(11)
    lib.randn(5)  # leaves a cached normal
    lib.rand(3)
    lib.set_rng_state(reload(lib.get_rng_state()))
    seen += [fingerprint(lib.randn(9)), fingerprint(lib.rand(700))]  # the second crosses a twist
    lib.manual_seed(12)
    lib.randn(1, dtype=lib.float64)
    lib.randint(0, 2 ** 40, (10,))
    lib.set_rng_state(reload(lib.get_rng_state()))
    seen += [fingerprint(lib.randn(3)), fingerprint(lib.randperm(50)), fingerprint(lib.get_rng_state())]
    g = lib.Generator().manual_seed(4)
    lib.randn(3, generator=g)
    g.set_state(reload(g.get_state()))
    return seen + [fingerprint(lib.randn(3, generator=g)), fingerprint(g.get_state())]


def test_state_round_trip_both_ways():
    """The states' bytes are torch's, so each library continues the other's stream."""
    assert round_trips(minitorch) == torch_answer(round_trips)


MIXED_OPS = [
    lambda L, n, d: L.rand(n, dtype=dt(L, d)),
    lambda L, n, d: L.randn(n, dtype=dt(L, d)),
    lambda L, n, d: L.randn_like(L.zeros(n, dtype=dt(L, d))),
    lambda L, n, d: L.randint(-7, 2 ** 29, (n,)),
    lambda L, n, d: L.randint(0, 13, (n,), dtype=L.int32),
    lambda L, n, d: L.randperm(n),
    lambda L, n, d: L.normal(0.5, 2.0, (n,), dtype=dt(L, d)),
    lambda L, n, d: L.normal(linspace(L, n, d, -1, 1), linspace(L, n, d, 0.5, 1.5)),
    lambda L, n, d: L.bernoulli(linspace(L, n, d, 0, 1)),
    lambda L, n, d: L.multinomial(linspace(L, n + 2, "float64", 0.1, 1), 2),
    lambda L, n, d: L.multinomial(linspace(L, n + 2, "float64", 0.1, 1), 5, replacement=True),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).uniform_(-0.3, 0.7),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).normal_(-1, 0.1),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).random_(),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).bernoulli_(0.3),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).exponential_(),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).cauchy_(),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).geometric_(0.2),
    lambda L, n, d: L.empty(n, dtype=dt(L, d)).log_normal_(),
    lambda L, n, d: L.empty(n, 3, dtype=dt(L, d)).t().normal_(),
]


def mixed_sequences(lib) -> list:
    """For 100 seeds, a fingerprint of 25 random draws of random ops, sizes and dtypes and of the state after."""
    choose = np.random.RandomState(2024)
    seen = []
    for _ in range(100):
        lib.manual_seed(int(choose.randint(0, 2 ** 63, dtype=np.int64)) * 2 + int(choose.randint(2)))
        draws = []
        for _ in range(25):
            op = MIXED_OPS[choose.randint(len(MIXED_OPS))]
            n = int(choose.choice([1, 2, 5, 15, 16, 17, 40, 100]))
            draws.append(op(lib, n, ["float32", "float64"][choose.randint(2)]))
        seen.append(fingerprint(*draws, lib.get_rng_state()))
    return seen


def test_random_mixed_sequences_match_torch():
    assert mixed_sequences(minitorch) == torch_answer(mixed_sequences)


# --- nn.init and default module initialisation ---------------------------------------------------------------

MODULES = {
    "Linear": lambda L: L.nn.Linear(7, 5),
    "Conv1d_groups": lambda L: L.nn.Conv1d(6, 4, 3, groups=2),
    "Conv2d": lambda L: L.nn.Conv2d(3, 8, 3),
    "ConvTranspose2d": lambda L: L.nn.ConvTranspose2d(4, 6, (2, 3), groups=2),
    "Embedding": lambda L: L.nn.Embedding(10, 17),
    "LSTM": lambda L: L.nn.LSTM(5, 7, num_layers=2),
    "GRU": lambda L: L.nn.GRU(4, 6, bidirectional=True),
    "MultiheadAttention": lambda L: L.nn.MultiheadAttention(8, 2),
    "Sequential": lambda L: L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.BatchNorm1d(4), L.nn.Linear(4, 2),
                                            L.nn.LayerNorm(2)),
}


def params(L, g, name) -> list:
    """The parameters module ``name`` initialises."""
    return [p.detach() for p in MODULES[name](L).parameters()]


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 31])
@pytest.mark.parametrize("name", list(MODULES))
def test_module_init_matches_torch(name, seed):
    assert compare([call(seed, params, name)]) == 1


def float64_params(L, g, name) -> list:
    """``params`` with float64 as the default dtype."""
    default = L.get_default_dtype()
    L.set_default_dtype(L.float64)
    try:
        return params(L, g, name)
    finally:
        L.set_default_dtype(default)


@pytest.mark.parametrize("name", ["Linear", "Conv2d", "LSTM", "MultiheadAttention"])
def test_module_init_float64_default_matches_torch(name):
    assert compare([call(seed, float64_params, name) for seed in (0, 1, 42)]) == 3


INITS = {
    "normal_": lambda L, w: L.nn.init.normal_(w, 0.3, 0.02),
    "uniform_": lambda L, w: L.nn.init.uniform_(w, -0.7, 0.2),
    "xavier_uniform_": lambda L, w: L.nn.init.xavier_uniform_(w, gain=1.3),
    "xavier_normal_": lambda L, w: L.nn.init.xavier_normal_(w),
    "kaiming_uniform_": lambda L, w: L.nn.init.kaiming_uniform_(w, a=0.1, mode="fan_out"),
    "kaiming_uniform_relu": lambda L, w: L.nn.init.kaiming_uniform_(w, nonlinearity="relu"),
    "kaiming_normal_": lambda L, w: L.nn.init.kaiming_normal_(w),
    "kaiming_normal_tanh": lambda L, w: L.nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="tanh"),
    "trunc_normal_defaults": lambda L, w: L.nn.init.trunc_normal_(w),
    "trunc_normal_std": lambda L, w: L.nn.init.trunc_normal_(w, std=0.02),
    "trunc_normal_tail": lambda L, w: L.nn.init.trunc_normal_(w, a=2.0, b=3.0),
    "trunc_normal_shifted_tail": lambda L, w: L.nn.init.trunc_normal_(w, mean=1.0, std=0.5, a=-1.0, b=-0.5),
}


def init(L, g, name, shape, d):
    return INITS[name](L, L.empty(*shape, dtype=dt(L, d)))


@pytest.mark.filterwarnings("ignore:mean is more than 2 std")
@pytest.mark.parametrize("name", list(INITS))
def test_nn_init_matches_torch(name):
    calls = [call(seed, init, name, shape, d) for seed in (0, 1, 42, 2 ** 31)
             for shape, d in [((6, 4), "float32"), ((8, 3, 3, 3), "float32"), ((5, 17), "float64"), ((30, 40), "float32")]]
    assert compare(calls) == len(calls)


def test_sparse_init_matches_torch():
    calls = [call(seed, lambda L, g, shape, sparsity: L.nn.init.sparse_(L.empty(*shape), sparsity, std=0.05), shape,
                  sparsity) for seed in (0, 1, 42) for shape, sparsity in [((10, 6), 0.1), ((20, 5), 0.5), ((7, 7), 0.3)]]
    assert compare(calls) == len(calls)


def orthogonal(lib, seed, shape):
    """``orthogonal_`` after ``seed`` (its values, computed by a QR decomposition) and the state's fingerprint."""
    lib.manual_seed(seed)
    return lib.nn.init.orthogonal_(lib.empty(*shape), gain=1.5).detach().numpy(), fingerprint(lib.get_rng_state())


def test_orthogonal_init_close_to_torch():
    for seed in (0, 1, 42):
        for shape in [(5, 5), (3, 7), (8, 2), (4, 2, 3)]:
            mine, mine_state = orthogonal(minitorch, seed, shape)
            expected, state = torch_answer(orthogonal, seed, shape)
            np.testing.assert_allclose(mine, expected, rtol=1e-4, atol=1e-5)
            assert mine_state == state


@pytest.mark.parametrize("seed", SEEDS)
def test_bernoulli_of_strided_probabilities_matches_torch(seed):
    """A transposed probability tensor is sampled in its memory order, an expanded one row by row."""
    probs = np.random.default_rng(seed % 2 ** 32).random((6, 5))
    calls = []
    for d in ("float32", "float64"):
        calls += [call(seed, lambda L, g, d: L.bernoulli(L.tensor(probs, dtype=dt(L, d)).t()), d),
                  call(seed, lambda L, g, d: L.bernoulli(L.tensor(probs[0], dtype=dt(L, d)).expand(4, 5)), d),
                  call(seed, lambda L, g, d: L.empty(5, 6, dtype=dt(L, d)).bernoulli_(L.tensor(probs, dtype=dt(L, d)).t()),
                       d)]
    assert compare(calls) == len(calls)
