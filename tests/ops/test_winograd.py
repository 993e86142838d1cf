"""The Winograd kernels of stride-1 3x3 convolutions (minitorch/_ops/conv/winograd.py).

The path is forced onto test-sized shapes by lowering its private thresholds: ``_MIN_CHANNELS`` and
``_MIN_WEIGHT_GRAD_SIDE`` to 1, and ``_F4_MIN_SIDE`` to 1 (F(4x4, 3x3) everywhere) or out of reach (F(2x2, 3x3)
everywhere); chunks of few tiles (``_CHUNK_BYTES``, ``_MIN_TILES``) make several per call, some with a shorter last.

Stated float32 tolerances, as max |error| / max |reference| against torch: F(2x2) 5e-6 (measured on resnet18's
3x3 layers: <= 7e-7 against a float64 reference, as the im2col path's 2e-7-6e-7); F(4x4) 1e-4 (measured: 3e-6 to
1.3e-5).
"""
import numpy as np
import pytest

import minitorch as mt
import minitorch.nn.functional as F
from minitorch._ops.conv import winograd
from minitorch.autograd import gradcheck, gradgradcheck
from torch_answers import torch_answer

ALGORITHMS = {"F2": (1 << 30, 5e-6), "F4": (1, 1e-4)}

SHAPES = [  # (batch, in channels, out channels, height, width, padding)
    (2, 3, 4, 5, 6, 1),
    (3, 4, 3, 9, 7, (0, 2)),
    (1, 2, 5, 4, 4, 0),
]


@pytest.fixture(params=sorted(ALGORITHMS))
def algorithm(request, monkeypatch):
    """Forces one algorithm onto every stride-1 3x3 convolution; gives its float32 tolerance."""
    side, tolerance = ALGORITHMS[request.param]
    monkeypatch.setattr(winograd, "_MIN_CHANNELS", 1)
    monkeypatch.setattr(winograd, "_MIN_WEIGHT_GRAD_SIDE", 1)
    monkeypatch.setattr(winograd, "_F4_MIN_SIDE", side)
    monkeypatch.setattr(winograd, "_CHUNK_BYTES", 1)
    monkeypatch.setattr(winograd, "_MIN_TILES", 16)
    return tolerance


@pytest.fixture
def calls(monkeypatch):
    """Counts the Winograd kernels' calls."""
    count = {"conv": 0, "weight_grad": 0}
    for name in count:
        def spy(*args, _kernel=getattr(winograd, name), _name=name):
            count[_name] += 1
            return _kernel(*args)
        monkeypatch.setattr(winograd, name, spy)
    return count


def _data(rng, n, c, o, h, w, dtype):
    x = rng.standard_normal((n, c, h, w)).astype(dtype)
    wt = (rng.standard_normal((o, c, 3, 3)) / np.sqrt(9 * c)).astype(dtype)
    return x, wt


@pytest.mark.parametrize("n, c, o, h, w, padding", SHAPES)
def test_gradcheck_float64(algorithm, calls, n, c, o, h, w, padding):
    x, wt = _data(np.random.default_rng(0), n, c, o, h, w, np.float64)
    x, wt = mt.tensor(x, requires_grad=True), mt.tensor(wt, requires_grad=True)
    assert gradcheck(lambda a, b: F.conv2d(a, b, padding=padding), (x, wt))
    assert gradgradcheck(lambda a, b: F.conv2d(a, b, padding=padding), (x, wt))
    assert calls["conv"] and calls["weight_grad"]


def _conv(lib, name, arrays, padding, weighted=False):
    """``F.<name>`` on ``arrays``: the output, and the inputs' gradients of a random weighting of it (``weighted``)
    or of its sum."""
    inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
    y = getattr(lib.nn.functional, name)(*inputs, padding=padding)
    y.backward(lib.tensor(np.random.default_rng(3).standard_normal(tuple(y.shape)).astype(np.float32)) if weighted
               else lib.ones_like(y))
    return [t.detach().numpy() for t in (y, *(x.grad for x in inputs))]


def _assert_within(got, want, tolerance):
    for a, b in zip(got, want, strict=True):
        assert a.shape == b.shape
        assert np.abs(a - b).max() <= tolerance * np.abs(b).max()


@pytest.mark.parametrize("n, c, o, h, w, padding", SHAPES + [(5, 6, 7, 13, 11, 1)])
def test_float32_against_torch(algorithm, calls, n, c, o, h, w, padding):
    x, wt = _data(np.random.default_rng(1), n, c, o, h, w, np.float32)
    args = "conv2d", [x, wt, np.random.default_rng(2).standard_normal(o).astype(np.float32)], padding, True
    _assert_within(_conv(mt, *args), torch_answer(_conv, *args), algorithm)
    assert calls["conv"] == 2 and calls["weight_grad"] == 1  # forward, input gradient, weight gradient


def _conv_transpose(lib, u, wt, padding):
    return lib.nn.functional.conv_transpose2d(lib.tensor(u), lib.tensor(wt), padding=padding).numpy()


def test_conv_transpose_stride_1(algorithm, calls):
    rng = np.random.default_rng(4)
    u, wt = rng.standard_normal((2, 4, 6, 5)).astype(np.float32), rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    for padding in (0, 1, 2):
        _assert_within([_conv_transpose(mt, u, wt, padding)], [torch_answer(_conv_transpose, u, wt, padding)],
                       algorithm)
    assert calls["conv"] == 3


def test_switch_off_uses_im2col(algorithm, calls, monkeypatch):
    x, wt = _data(np.random.default_rng(5), 2, 3, 4, 8, 8, np.float64)
    on = F.conv2d(mt.tensor(x), mt.tensor(wt), padding=1)
    assert calls["conv"] == 1
    monkeypatch.setattr(mt.backends.winograd, "enabled", False)
    mx, mw = mt.tensor(x, requires_grad=True), mt.tensor(wt, requires_grad=True)
    off = F.conv2d(mx, mw, padding=1)
    off.sum().backward()
    assert calls == {"conv": 1, "weight_grad": 0}
    np.testing.assert_allclose(off.detach().numpy(), on.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kwargs, weight", [
    ({"stride": 2, "padding": 1}, (128, 128, 3, 3)),
    ({"dilation": 2, "padding": 2}, (128, 128, 3, 3)),
    ({"groups": 2, "padding": 1}, (128, 64, 3, 3)),
    ({"padding": 2}, (128, 128, 5, 5)),
    ({"padding": 1}, (64, 128, 3, 3)),
    ({"padding": 1}, (128, 64, 3, 3)),
])
def test_other_convolutions_keep_im2col(calls, kwargs, weight):
    x = mt.randn(1, weight[1] * kwargs.get("groups", 1), 8, 8)
    F.conv2d(x, mt.randn(*weight), **kwargs)
    assert calls["conv"] == 0


def test_many_channels_take_it_by_default(calls):
    F.conv2d(mt.randn(1, 128, 7, 7), mt.randn(128, 128, 3, 3), padding=1)
    F.conv2d(mt.randn(1, 64, 7, 7), mt.randn(64, 64, 3, 3), padding=1)
    assert calls["conv"] == 1


def test_small_map_weight_gradient_keeps_im2col(calls):
    x, wt = mt.randn(1, 128, 7, 7, requires_grad=True), mt.randn(128, 128, 3, 3, requires_grad=True)
    F.conv2d(x, wt, padding=1).sum().backward()
    assert calls == {"conv": 2, "weight_grad": 0}


def test_conv3d(algorithm, calls):
    rng = np.random.default_rng(6)
    x, wt = rng.standard_normal((2, 3, 4, 6, 5)).astype(np.float32), rng.standard_normal((4, 3, 2, 3, 3))
    args = "conv3d", [x, wt.astype(np.float32)], 1
    _assert_within(_conv(mt, *args), torch_answer(_conv, *args), algorithm)
    assert calls["conv"] == 2 and calls["weight_grad"] == 1
