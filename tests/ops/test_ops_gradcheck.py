"""Gradients of every differentiable op against finite differences, in float64 (no torch needed).

``gradcheck`` compares the backward pass with central differences; ``gradgradcheck``
does the same for the backward pass itself (recorded with ``create_graph``), which
checks that every backward formula is differentiable and that second derivatives
are right. Inputs stay away from kinks (ties, zeros of abs/relu, clamp bounds).
"""
import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import gradcheck, gradgradcheck

_rng = np.random.default_rng(7)


def case(name, fn, *inputs, low=-1.0, high=1.0, gradgrad=True):
    """One table row."""
    return pytest.param(fn, inputs, low, high, gradgrad, id=name)


def away_from(values, points, gap=0.1):
    """``values`` pushed at least ``gap`` away from each of ``points`` (kinks of the function)."""
    v = values.copy()
    for p in points:
        near = np.abs(v - p) < gap
        v[near] = p + np.where(v[near] >= p, gap, -gap)
    return v


def _input(spec, low, high):
    if isinstance(spec, tuple):
        spec = _rng.uniform(low, high, spec)
    if isinstance(spec, np.ndarray) and spec.dtype.kind == "f":
        return mt.tensor(spec, dtype=mt.float64, requires_grad=True)
    if isinstance(spec, np.ndarray):
        return mt.from_numpy(spec)
    return spec


def check(fn, inputs, low, high, gradgrad):
    tensors = [_input(i, low, high) for i in inputs]
    assert gradcheck(fn, tensors)
    if gradgrad:
        assert gradgradcheck(fn, tensors)


def setitem(y, index, value):
    y[index] = value
    return y


def modified(base, change):
    """``base`` after ``change(base)`` modified it (or one of its views) in place."""
    change(base)
    return base


M, V, B = (2, 3), (3,), (2, 2, 3)  # matrix, vector and batch shapes
WIDE = away_from(_rng.uniform(-2, 2, (2, 3)), [-1.0, 0.0, 1.0])  # away from kinks at -1, 0, 1
ARITHMETIC = [
    case(f"{name}-{a}-{b}", fn, a, b, low=0.5, high=1.5)
    for name, fn in {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
                     "div": lambda x, y: x / y, "pow": lambda x, y: x ** y, "maximum": mt.maximum,
                     "minimum": mt.minimum, "fmax": mt.fmax, "harmonic": lambda x, y: x * y / (x + y)}.items()
    for a, b in [(M, M), (M, V), ((2, 1), (1, 3)), ((), M), (M, ()), ((1, 3), (2, 2, 1))]
] + [
    case("add-alpha", lambda x, y: mt.add(x, y, alpha=-1.5), M, V),
    case("sub-alpha", lambda x, y: x.sub(y, alpha=2), M, V),
    case("rsub", lambda x, y: mt.rsub(x, y), M, V),
    case("rsub-scalar", lambda x: 3 - x, M),
    case("radd", lambda x: 2.5 + x, M),
    case("rmul", lambda x: -2 * x, M),
    case("div-scalar", lambda x: x / 3, M),
    case("rdiv", lambda x: 2 / x, M, low=0.5),
    case("pow-scalar", lambda x: x ** 3, M),
    case("pow-2", lambda x: x ** 2, M),
    case("pow-half", lambda x: x ** 0.5, M, low=0.5),
    case("pow-neg", lambda x: x ** -1.5, M, low=0.5),
    case("rpow", lambda x: 1.7 ** x, M),
    case("square", mt.square, M),
    case("neg", lambda x: -x, M),
    case("remainder", lambda x, y: mt.remainder(x, y), away_from(_rng.uniform(0.1, 0.9, M), [0.5]),
         np.full(V, 0.5)),
    case("remainder-scalar", lambda x: x % 0.7, away_from(_rng.uniform(-1, 1, M), [-0.7, 0.0, 0.7])),
    case("fmod", lambda x, y: mt.fmod(x, y), away_from(_rng.uniform(-0.9, 0.9, M), [-0.5, 0, 0.5]),
         np.full(V, 0.5)),
    case("where", lambda x, y: mt.where(x > 0, x, y), away_from(_rng.uniform(-1, 1, M), [0.0]), V),
    case("where-scalar", lambda x: mt.where(x > 0, x * x, 0.5), away_from(_rng.uniform(-1, 1, M), [0.0])),
    case("clamp", lambda x: x.clamp(-1, 1), WIDE),
    case("clamp-min", lambda x: mt.clamp(x, min=0), WIDE),
    case("clamp_max", lambda x: x.clamp_max(1), WIDE),
    case("clamp-tensors", lambda x, lo, hi: x.clamp(lo, hi), WIDE, np.full(V, -1.0), np.full((2, 1), 1.0)),
    case("clamp-tensor-min", lambda x, lo: x.clamp(min=lo), WIDE, np.full(V, 0.0)),
    case("div-floor", lambda x: mt.div(x, 0.3, rounding_mode="floor") * x, away_from(_rng.uniform(-1, 1, M),
                                                                                 [-0.9, -0.6, -0.3, 0, 0.3, 0.6])),
]

UNARY = [
    case(name, fn, M, low=low, high=high)
    for name, (fn, low, high) in {
        "exp": (mt.exp, -1, 1), "log": (mt.log, 0.5, 2), "log1p": (mt.log1p, -0.5, 1), "expm1": (mt.expm1, -1, 1),
        "log2": (mt.log2, 0.5, 2), "log10": (mt.log10, 0.5, 2), "sqrt": (mt.sqrt, 0.5, 2),
        "rsqrt": (mt.rsqrt, 0.5, 2), "reciprocal": (mt.reciprocal, 0.5, 2), "sin": (mt.sin, -2, 2),
        "cos": (mt.cos, -2, 2), "tan": (mt.tan, -1, 1), "tanh": (mt.tanh, -2, 2), "sigmoid": (mt.sigmoid, -3, 3),
        "abs": (lambda x: mt.abs(x * 2 - 1), 0.6, 1), "relu": (lambda x: mt.relu(x - 1.5), 0.5, 1),
        "relu-pos": (lambda x: x.relu(), 0.2, 1), "sign": (lambda x: x.sign() * x, 0.2, 1),
        "frac": (lambda x: x.frac(), 0.1, 0.9), "floor": (lambda x: x.floor() + x * x, 0.1, 0.9),
        "ceil": (lambda x: x.ceil() * x, 0.1, 0.9), "round": (lambda x: x.round() * x, 0.1, 0.4),
        "trunc": (lambda x: mt.trunc(x) + x, 0.1, 0.9), "chain": (lambda x: (x.exp() + 1).log().sigmoid() * x, -1, 1),
    }.items()
]

ZERO_DIM = [
    case("0d-mul-div", lambda x, y: x * y / (x + 2), (), ()),
    case("0d-pow", lambda x, y: x ** y, (), (), low=0.5, high=1.5),
    case("0d-unary-chain", lambda x: (x.sigmoid() * x.exp()).tanh().abs(), (), low=0.2),
    case("0d-broadcast", lambda x, y: (x * y).sum() + x, (), M),
    case("0d-reductions", lambda x: x.sum() + x.mean(0) + x.amax() + x.logsumexp(0) + x.cumsum(0) + x.prod(0), ()),
    case("0d-softmax", lambda x, y: (x * y).softmax(0) + (x + y).log_softmax(0), (), ()),
    case("0d-where-clamp", lambda x, y: mt.where(x > 0, x * y, y).clamp(-0.9, 0.9), np.array(0.5), ()),
]

REDUCTIONS = [
    case("sum", lambda x: x.sum(), B),
    case("sum-dim", lambda x: x.sum(1), B),
    case("sum-dims-keepdim", lambda x: x.sum((0, 2), keepdim=True), B),
    case("mean", lambda x: x.mean(), B),
    case("mean-dim", lambda x: x.mean(-1, keepdim=True), B),
    case("prod", lambda x: x.prod(), M, low=0.5, high=1.5),
    case("prod-dim", lambda x: x.prod(1), M, low=0.5, high=1.5),
    case("prod-one-zero", lambda x: x.prod(1), np.array([[0.0, 0.5, 2.0], [1.5, 0.7, 0.3]]), gradgrad=False),
    case("max", lambda x: x.max(), M),
    case("max-dim", lambda x: x.max(1).values, M),
    case("min-dim-keepdim", lambda x: x.min(0, keepdim=True)[0], M),
    case("amax", lambda x: x.amax((0, 1)), B),
    case("amin-dim", lambda x: mt.amin(x, -1), B),
    case("var", lambda x: x.var(), M),
    case("var-dim", lambda x: x.var(1, keepdim=True), B),
    case("var-correction0", lambda x: x.var((0, 2), correction=0), B),
    case("std", lambda x: x.std(), M),
    case("std-dim", lambda x: x.std(0, unbiased=False), M),
    case("var_mean", lambda x: mt.var_mean(x, 1), M),
    case("std_mean", lambda x: mt.std_mean(x, correction=0), M),
    case("logsumexp", lambda x: x.logsumexp(1), B),
    case("logsumexp-dims", lambda x: mt.logsumexp(x, (0, 2), keepdim=True), B),
    case("softmax", lambda x: x.softmax(-1), B),
    case("softmax-dim0", lambda x: mt.softmax(x, 0), M),
    case("log_softmax", lambda x: x.log_softmax(1), B),
    case("cumsum", lambda x: x.cumsum(1), B),
    case("cumsum-dim0", lambda x: mt.cumsum(x, 0), M),
]

MATMUL = [
    case(f"matmul-{a}-{b}", lambda x, y: x @ y, a, b)
    for a, b in [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)), ((2, 2, 3), (3,)), ((3,), (2, 3, 2)),
                 ((2, 2, 3), (3, 2)), ((2, 3), (2, 3, 2)), ((2, 2, 3), (2, 3, 2)), ((2, 1, 2, 3), (2, 3, 1)),
                 ((1, 2, 3), (2, 3, 2))]
] + [
    case("mm", mt.mm, M, (3, 2)),
    case("bmm", mt.bmm, B, (2, 3, 2)),
    case("mv", mt.mv, M, V),
    case("dot", mt.dot, V, V),
    case("inner", mt.inner, M, (2, 3)),
    case("outer", mt.outer, (2,), V),
    case("addmm", mt.addmm, (2, 2), M, (3, 2)),
    case("addmm-broadcast-alpha-beta", lambda b, x, y: mt.addmm(b, x, y, beta=0.5, alpha=-2), (2,), M, (3, 2)),
    case("matmul-transposed", lambda x, y: x.mT @ y.t(), (2, 3, 2), (2, 3)),
]

VIEWS = [
    case("view", lambda x: x.view(3, 4), B),
    case("reshape-noncontig", lambda x: x.mT.reshape(-1), B),
    case("reshape-alias", lambda x: x[:, :, :2].reshape(2, 4), B),
    case("permute", lambda x: x.permute(2, 0, 1) * mt.arange(2.0), B),
    case("transpose", lambda x: x.transpose(0, 2), B),
    case("t", lambda x: x.t(), M),
    case("T", lambda x: x.T, M),
    case("mT", lambda x: x.mT, B),
    case("squeeze", lambda x: x.squeeze(), (1, 3, 1)),
    case("squeeze-dim", lambda x: x.squeeze(0), (1, 3, 1)),
    case("unsqueeze", lambda x: x.unsqueeze(1), M),
    case("expand", lambda x: x.expand(2, 2, 3), (2, 1)),
    case("expand_as", lambda x, y: x.expand_as(y) * y, V, M),
    case("flatten", lambda x: x.flatten(1), B),
    case("unflatten", lambda x: x.unflatten(1, (3, 1)), M),
    case("ravel", lambda x: x.t().ravel(), M),
    case("narrow", lambda x: x.narrow(2, 1, 2), B),
    case("select", lambda x: x.select(1, -1), B),
    case("repeat", lambda x: x.repeat(2, 1, 2), M),
    case("tile", lambda x: x.tile((2,)), V),
    case("flip", lambda x: x.flip((0, 2)), B),
    case("movedim", lambda x: x.movedim(0, -1), B),
    case("contiguous", lambda x: x.t().contiguous(), M),
    case("clone", lambda x: x.clone() * x, M),
    case("unbind", lambda x: x.unbind(1), M),
    case("split", lambda x: x.split(2, 1), M),
    case("split-sizes", lambda x: x.split([1, 2], -1)[1], M),
    case("chunk", lambda x: x.chunk(2, 2), B),
    case("tensor_split", lambda x: x.tensor_split([1, 2], 1), M),
    case("cat", lambda x, y: mt.cat([x, y, x], 1), M, (2, 1)),
    case("stack", lambda x, y: mt.stack([x, y], -1), M, M),
    case("hstack", lambda x, y: mt.hstack([x, y]), V, (2,)),
    case("iter", lambda x: [r * (i + 1) for i, r in enumerate(x)], M),
]

INDEXING = [
    case("getitem-basic", lambda x: x[1, ::2, None, -1:], (3, 4, 2)),
    case("getitem-ellipsis", lambda x: x[..., 1], B),
    case("getitem-list", lambda x: x[[0, 2, 2]], (3, 2)),
    case("getitem-tensors", lambda x: x[mt.tensor([0, 1, 1]), mt.tensor([2, 0, 2])], M),
    case("getitem-mixed", lambda x: x[:, [1, 1, 0], 1:], (2, 3, 3)),
    case("getitem-separated", lambda x: x[[0, 1], :, [2, 0]], B),
    case("getitem-mask", lambda x: x[x > 0], M),
    case("getitem-mask-row", lambda x: x[mt.tensor([True, False, True])], (3, 2)),
    case("setitem-basic", lambda x, v: setitem(x * 1, (0, slice(1, None)), v), M, (2,)),
    case("setitem-broadcast", lambda x, v: setitem(x * 1, slice(None), v), M, V),
    case("setitem-advanced", lambda x, v: setitem(x * 1, [1, 0], v), M, (2, 3)),
    case("setitem-mask", lambda x, v: setitem(x * 1, x > 0, v), M, ()),
    case("setitem-scalar", lambda x: setitem(x * 2, (slice(None), 1), 0.5), M),
    case("index_put-accumulate", lambda x, v: x.index_put((mt.tensor([0, 0, 1]),), v, accumulate=True), M, (3, 3)),
    case("gather", lambda x: x.gather(1, mt.tensor([[0, 2, 2], [1, 1, 0]])), M),
    case("scatter", lambda x, s: x.scatter(1, mt.tensor([[0], [2]]), s), M, (2, 1)),
    case("scatter-value", lambda x: x.scatter(0, mt.tensor([[1, 0, 1]]), 2.0), M),
    case("scatter_add", lambda x, s: x.scatter_add(1, mt.tensor([[0, 0, 2], [1, 1, 1]]), s), M, M),
    case("index_select", lambda x: x.index_select(1, mt.tensor([2, 0, 2])), M),
    case("masked_fill", lambda x: x.masked_fill(mt.tensor([True, False, True]), 0.5), M),
    case("masked_fill-tensor", lambda x, v: x.masked_fill(mt.tensor([[True], [False]]), v), M, ()),
    case("masked_select", lambda x: x.masked_select(mt.tensor([True, False, True])), M),
    case("take_along_dim", lambda x: mt.take_along_dim(x, mt.tensor([[1], [0]]), 1), M),
]

INPLACE = [
    case("add_", lambda x, y: (x * 1).add_(y, alpha=2), M, V),
    case("sub_", lambda x, y: (x * 1).sub_(y), M, (2, 1)),
    case("mul_", lambda x, y: (x * 1).mul_(y), M, V),
    case("mul_-first-order", lambda x, y: (x * 1).mul_(y), M, V, gradgrad=False),
    case("mul_-scalar", lambda x: (x * 1).mul_(3) * x, M),
    case("div_", lambda x, y: (x * 1).div_(y), M, V, low=0.5),
    case("div_-first-order", lambda x, y: (x * 1).div_(y), M, V, low=0.5, gradgrad=False),
    case("pow_", lambda x: (x * 1).pow_(3), M),
    case("pow_-first-order", lambda x: (x * 1).pow_(3), M, gradgrad=False),
    case("pow_-tensor", lambda x, y: (x * 1).pow_(y), M, V, low=0.5),
    case("pow_-tensor-first-order", lambda x, y: (x * 1).pow_(y), M, V, low=0.5, gradgrad=False),
    case("clamp_", lambda x: (x * 1).clamp_(-1, 1), WIDE),
    case("relu_", lambda x: (x * 1).relu_(), WIDE),
    case("sigmoid_", lambda x: (x * 1).sigmoid_(), M),
    case("tanh_", lambda x: (x * 1).tanh_(), M),
    case("exp_", lambda x: (x * 1).exp_(), M),
    case("iadd-imul", lambda x, y: modified(x * 1, lambda z: z.__iadd__(y).__imul__(y)), M, V, gradgrad=False),
    case("copy_", lambda x, y: (x * 2).copy_(y), M, V),
    case("fill_-tensor", lambda x, v: (x * 2).fill_(v) * x, M, ()),
    case("zero_", lambda x: (x * 2).zero_() + x, M),
    case("masked_fill_", lambda x: (x * 2).masked_fill_(x > 0, 1.0), away_from(_rng.uniform(-1, 1, M), [0.0])),
    case("scatter_", lambda x, s: (x * 1).scatter_(1, mt.tensor([[2], [0]]), s), M, (2, 1)),
    case("index_put_", lambda x, v: (x * 1).index_put_((mt.tensor([1]), mt.tensor([2])), v), M, (1,)),
    case("chain", lambda x, y: (x * 1).mul_(y).add_(x).mul_(2).sigmoid_(), M, M, gradgrad=False),
    case("view-mul_", lambda x: modified(x * 1, lambda y: y[0].mul_(2)), M),
    case("view-sigmoid_", lambda x: modified(x * 1, lambda y: y[:, 1].sigmoid_()), M),
    case("view-setitem", lambda x, v: modified(x * 1, lambda y: y.__setitem__(slice(1, None), v)), (3, 2), (2,)),
    case("view-t-add_", lambda x, v: modified(x * 1, lambda y: y.t()[0].add_(v * v)), M, (2,)),
    case("view-then-use", lambda x, v: modified(x * 1, lambda y: y[1].copy_(v)).sum(0) * x[0], M, V),
    case("view-twice", lambda x: modified(x * 1, lambda y: (y[0].mul_(3), y[:, 0].exp_())), M),
]


@pytest.mark.parametrize("fn,inputs,low,high,gradgrad", ARITHMETIC + UNARY + ZERO_DIM + REDUCTIONS + MATMUL)
def test_math(fn, inputs, low, high, gradgrad):
    check(fn, inputs, low, high, gradgrad)


@pytest.mark.parametrize("fn,inputs,low,high,gradgrad", VIEWS + INDEXING + INPLACE)
def test_shapes_indexing_inplace(fn, inputs, low, high, gradgrad):
    check(fn, inputs, low, high, gradgrad)


def test_gradcheck_detects_a_wrong_gradient():
    """The checks above can fail: a Function with a wrong backward is caught."""

    class WrongSquare(mt.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x  # should be 2 * g * x

    x = mt.tensor([0.5, 1.5], dtype=mt.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        gradcheck(WrongSquare.apply, (x,))
