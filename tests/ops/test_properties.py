"""Property tests over random shapes: broadcasting, reductions, views and matmul agree with
numpy, and gradients have the input's shape and the values numpy's reduction rules give."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch as mt

SETTINGS = settings(max_examples=25, deadline=None)
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "maximum": np.maximum}


def values(draw, shape, low=-2.0, high=2.0):
    """A float32 array of ``shape`` with values drawn by hypothesis (kept away from 0 for division)."""
    seed = draw(st.integers(0, 2**32 - 1))
    arr = np.random.default_rng(seed).uniform(low, high, shape).astype(np.float32)
    return np.where(np.abs(arr) < 0.1, 0.5, arr).astype(np.float32)


def leaf(arr):
    return mt.tensor(arr, requires_grad=True)


def reduce_to(g, shape):
    """numpy's reading of the gradient of broadcasting: sum ``g`` down to ``shape``."""
    g = g.sum(axis=tuple(range(g.ndim - len(shape)))) if g.ndim > len(shape) else g
    return g.sum(axis=tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1), keepdims=True)


def assert_close(actual, expected, tol=1e-5):
    np.testing.assert_allclose(np.asarray(actual, np.float64), np.asarray(expected, np.float64), rtol=tol, atol=tol)


@st.composite
def broadcast_case(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4))
    a, b = (values(draw, s) for s in shapes.input_shapes)
    return a, b, draw(st.sampled_from(sorted(BINARY)))


@SETTINGS
@given(broadcast_case())
def test_binary_broadcasting_matches_numpy_and_reduces_gradients(case):
    a, b, name = case
    x, y = leaf(a), leaf(b)
    out = getattr(mt, name)(x, y)
    expected = BINARY[name](a, b)
    assert out.shape == expected.shape and out.dtype == mt.float32
    assert_close(out.detach().numpy(), expected)
    w = np.random.default_rng(0).standard_normal(expected.shape).astype(np.float32)
    out.backward(mt.tensor(w))
    # d(out)/da and d(out)/db elementwise, before reduction to the input shapes
    da, db = {"add": (1, 1), "sub": (1, -1), "mul": (b, a), "div": (1 / b, -a / (b * b)),
              "maximum": ((a > b) + 0.5 * (a == b), (a < b) + 0.5 * (a == b))}[name]  # ties share
    for t, arr, d in ((x, a, da), (y, b, db)):
        assert t.grad.shape == arr.shape
        assert_close(t.grad.numpy(), reduce_to(w * np.broadcast_to(d, expected.shape), arr.shape), 1e-4)


@st.composite
def reduction_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=4))
    dims = draw(st.lists(st.integers(-len(shape), len(shape) - 1), unique_by=lambda d: d % len(shape), max_size=3))
    return values(draw, shape), tuple(dims), draw(st.booleans()), draw(st.sampled_from(["sum", "mean", "amax"]))


@SETTINGS
@given(reduction_case())
def test_reductions_match_numpy_and_spread_gradients(case):
    a, dims, keepdim, name = case
    x = leaf(a)
    axis = dims or None  # an empty dim list reduces everything, as in torch
    out = getattr(x, name)(dims, keepdim=keepdim)
    expected = {"sum": np.sum, "mean": np.mean, "amax": np.max}[name](a, axis=axis, keepdims=keepdim)
    assert out.shape == np.shape(expected)
    assert_close(out.detach().numpy(), expected)
    out.sum().backward()
    assert x.grad.shape == a.shape
    count = a.size if axis is None else np.prod([a.shape[d] for d in axis])
    if name == "sum":
        assert_close(x.grad.numpy(), np.ones_like(a))
    elif name == "mean":
        assert_close(x.grad.numpy(), np.full_like(a, 1 / count))
    else:  # every element equal to its group's max shares that group's gradient
        hit = a == np.max(a, axis=axis, keepdims=True)
        assert_close(x.grad.numpy(), hit / hit.sum(axis=axis, keepdims=True))


@st.composite
def permutation_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=5, max_side=3))
    return values(draw, shape), draw(st.permutations(range(len(shape))))


@SETTINGS
@given(permutation_case())
def test_permute_round_trip_and_gradient(case):
    a, perm = case
    x = leaf(a)
    p = x.permute(*perm)
    np.testing.assert_array_equal(p.detach().numpy(), a.transpose(perm))
    back = p.permute(*np.argsort(perm).tolist())
    np.testing.assert_array_equal(back.detach().numpy(), a)
    w = np.arange(a.size, dtype=np.float32).reshape(a.transpose(perm).shape)
    p.backward(mt.tensor(w))
    np.testing.assert_array_equal(x.grad.numpy(), w.transpose(np.argsort(perm)))


@st.composite
def reshape_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=4))
    size = int(np.prod(shape))
    factors, rest = [], size
    for p in (2, 3, 2, 5, 3):  # a random factorisation of the size gives a compatible new shape
        if rest % p == 0 and draw(st.booleans()):
            factors.append(p)
            rest //= p
    new = factors + [rest]
    if draw(st.booleans()):
        new[draw(st.integers(0, len(new) - 1))] = -1
    return values(draw, shape), tuple(new), draw(st.booleans())


@SETTINGS
@given(reshape_case())
def test_reshape_round_trip_on_contiguous_and_transposed_inputs(case):
    a, new_shape, transposed = case
    x = leaf(a)
    src = x.mT if transposed and a.ndim >= 2 else x
    ref = src.detach().numpy()
    r = src.reshape(new_shape)
    np.testing.assert_array_equal(r.detach().numpy(), ref.reshape(new_shape))
    np.testing.assert_array_equal(r.reshape(src.shape).detach().numpy(), ref)
    w = np.arange(ref.size, dtype=np.float32).reshape(r.shape)
    r.backward(mt.tensor(w))
    expected = w.reshape(ref.shape)
    np.testing.assert_array_equal(x.grad.numpy(), expected.swapaxes(-1, -2) if src is not x else expected)


NONCONTIG_OPS = {
    "exp": lambda t: t.exp(), "sigmoid": lambda t: t.sigmoid(), "sum0": lambda t: t.sum(0),
    "softmax": lambda t: t.softmax(-1), "cumsum": lambda t: t.cumsum(0), "mul-self": lambda t: t * t.flip(0),
    "matmul": lambda t: t @ t.mT, "view-1": lambda t: t.reshape(-1), "max-dim": lambda t: t.max(-1).values,
    "getitem": lambda t: t[1:][..., ::2], "var": lambda t: t.var(0), "where": lambda t: mt.where(t > 0, t, -t),
}


@st.composite
def noncontig_case(draw):
    shape = draw(hnp.array_shapes(min_dims=2, max_dims=3, min_side=2, max_side=4))
    how = draw(st.sampled_from(["transpose", "step", "flip-dims", "expand"]))
    return values(draw, shape), how, draw(st.sampled_from(sorted(NONCONTIG_OPS)))


def _strided(x, how):
    if how == "transpose":
        return x.transpose(0, -1)
    if how == "step":
        return x[::2]
    if how == "flip-dims":
        return x.permute(*range(x.ndim - 1, -1, -1))[1:]
    return x[:1].expand(3, *x.shape[1:])


@SETTINGS
@given(noncontig_case())
def test_noncontiguous_inputs_give_the_results_of_contiguous_copies(case):
    a, how, name = case
    fn = NONCONTIG_OPS[name]
    x1, x2 = leaf(a), leaf(a)
    strided = _strided(x1, how)
    copy = _strided(x2, how).contiguous()
    r1, r2 = fn(strided), fn(copy)
    assert r1.shape == r2.shape and r1.dtype == r2.dtype
    assert_close(r1.detach().numpy(), r2.detach().numpy())
    w = mt.tensor(np.random.default_rng(1).standard_normal(tuple(r1.shape)).astype(np.float32))
    r1.backward(w)
    r2.backward(w)
    assert_close(x1.grad.numpy(), x2.grad.numpy(), 1e-4)


@st.composite
def matmul_case(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(signature="(m?,n),(n,p?)->(m?,p?)", max_dims=4, max_side=3))
    return tuple(values(draw, s) for s in shapes.input_shapes), draw(st.sampled_from([(1, 1), (1, 0), (0, 1)]))


@SETTINGS
@given(matmul_case())
def test_matmul_batch_broadcasting_matches_numpy(case):
    (a, b), needs = case
    x, y = mt.tensor(a, requires_grad=bool(needs[0])), mt.tensor(b, requires_grad=bool(needs[1]))
    out = x @ y
    expected = np.matmul(a.astype(np.float64), b.astype(np.float64))
    assert out.shape == expected.shape
    assert_close(out.detach().numpy(), expected, 1e-4)
    w = np.random.default_rng(2).standard_normal(expected.shape)
    out.backward(mt.tensor(w.astype(np.float32)))
    # numpy's gradients of matmul: promote vectors to matrices, multiply by the transposes, reduce the batch
    a2, b2 = (a[None] if a.ndim == 1 else a), (b[:, None] if b.ndim == 1 else b)
    w2 = w.reshape(np.matmul(a2, b2).shape)
    if needs[0]:
        assert_close(x.grad.numpy(), reduce_to(w2 @ np.swapaxes(b2, -1, -2), a2.shape).reshape(a.shape), 1e-4)
    if needs[1]:
        assert_close(y.grad.numpy(), reduce_to(np.swapaxes(a2, -1, -2) @ w2, b2.shape).reshape(b.shape), 1e-4)


@st.composite
def slicing_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=5))
    index = draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True, allow_ellipsis=True))
    return values(draw, shape), index


@SETTINGS
@given(slicing_case())
def test_basic_indexing_matches_numpy_and_scatters_the_gradient(case):
    a, index = case
    if isinstance(index, tuple) and any(isinstance(i, slice) and (i.step or 1) < 0 for i in index) or (
            isinstance(index, slice) and (index.step or 1) < 0):
        index = np.s_[...]  # torch has no negative slice steps
    x = leaf(a)
    r = x[index]
    np.testing.assert_array_equal(r.detach().numpy(), a[index])
    w = np.arange(1, a[index].size + 1, dtype=np.float32).reshape(a[index].shape)
    (r * mt.tensor(w)).sum().backward()
    expected = np.zeros_like(a)
    expected[index] += w
    np.testing.assert_array_equal(x.grad.numpy(), expected)
