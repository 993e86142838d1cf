"""nn.init distributions and nn.utils (gradient clipping, parameter vectors)."""
import math

import numpy as np
import pytest


def test_calculate_gain(lib):
    init = lib.nn.init
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init.calculate_gain("conv2d") == 1 and init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="^Unsupported nonlinearity foo$"):
        init.calculate_gain("foo")


def test_fan_errors(lib):
    with pytest.raises(ValueError, match="^Fan in and fan out can not be computed for tensor with fewer than 2 "
                                         "dimensions$"):
        lib.nn.init.xavier_uniform_(lib.empty(3))


@pytest.mark.parametrize("fill, low_high_or_std", [
    (lambda init, t: init.uniform_(t, -0.5, 2.0), ("uniform", -0.5, 2.0)),
    (lambda init, t: init.xavier_uniform_(t, gain=2.0), ("uniform", -2 * math.sqrt(6 / 500), 2 * math.sqrt(6 / 500))),
    (lambda init, t: init.kaiming_uniform_(t, nonlinearity="relu"), ("uniform", -math.sqrt(6 / 200), math.sqrt(6 / 200))),
    (lambda init, t: init.kaiming_uniform_(t, mode="fan_out"), ("uniform", -math.sqrt(6 / 300),
                                                                math.sqrt(6 / 300))),
    (lambda init, t: init.normal_(t, 1.0, 0.5), ("normal", 1.0, 0.5)),
    (lambda init, t: init.xavier_normal_(t), ("normal", 0.0, math.sqrt(2 / 500))),
    (lambda init, t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"), ("normal", 0.0, math.sqrt(2 / 300))),
])
def test_distributions(lib, fill, low_high_or_std):
    """fan_in = 200, fan_out = 300 for a (300, 200) weight."""
    lib.manual_seed(0)
    t = fill(lib.nn.init, lib.empty(300, 200))
    values = t.numpy().reshape(-1)
    kind, a, b = low_high_or_std
    if kind == "uniform":
        assert values.min() >= a and values.max() <= b
        assert values.min() < a + 0.01 * (b - a) and values.max() > b - 0.01 * (b - a)
        assert abs(values.mean() - (a + b) / 2) < 0.02 * (b - a)
    else:
        assert abs(values.mean() - a) < 0.02 * b and abs(values.std() - b) < 0.02 * b


def test_trunc_normal_and_constants(lib):
    init = lib.nn.init
    lib.manual_seed(0)
    t = init.trunc_normal_(lib.empty(10000), mean=0.0, std=1.0, a=-0.5, b=1.0)
    assert t.min().item() >= -0.5 and t.max().item() <= 1.0 and t.min().item() < -0.49
    assert init.constant_(lib.empty(3), 2.5).tolist() == [2.5] * 3
    assert init.ones_(lib.empty(2)).tolist() == [1.0, 1.0] and init.zeros_(lib.empty(2)).tolist() == [0.0, 0.0]
    assert init.eye_(lib.empty(2, 3)).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


def test_orthogonal(lib):
    lib.manual_seed(0)
    for shape in ((4, 6), (6, 4), (3, 2, 2)):
        q = lib.nn.init.orthogonal_(lib.empty(*shape), gain=2.0).numpy().reshape(shape[0], -1)
        small = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
        np.testing.assert_allclose(small, 4 * np.eye(small.shape[0]), atol=1e-5)


def test_init_does_not_record(lib):
    layer = lib.nn.Linear(2, 2)
    lib.nn.init.normal_(layer.weight)
    assert layer.weight.is_leaf and layer.weight.grad_fn is None


def test_clip_grad_norm(lib):
    w = lib.ones(3, requires_grad=True)
    v = lib.ones(2, requires_grad=True)
    w.grad, v.grad = lib.tensor([3.0, 4.0, 0.0]), lib.tensor([12.0, 0.0])
    total = lib.nn.utils.clip_grad_norm_([w, v], 1.0)
    assert total.item() == pytest.approx(13.0)
    np.testing.assert_allclose(w.grad.numpy(), [3 / 13, 4 / 13, 0], rtol=1e-5)
    np.testing.assert_allclose(v.grad.numpy(), [12 / 13, 0], rtol=1e-5)
    assert lib.nn.utils.clip_grad_norm_([w, v], 1.0, norm_type="inf").item() == pytest.approx(12 / 13, rel=1e-5)
    w.grad = lib.tensor([0.1, 0.0, 0.0])
    assert lib.nn.utils.clip_grad_norm_(w, 5.0).item() == pytest.approx(0.1) and w.grad.tolist()[0] == \
        pytest.approx(0.1)  # below the limit: unchanged


def test_clip_grad_norm_non_finite(lib):
    w = lib.ones(2, requires_grad=True)
    w.grad = lib.tensor([float("inf"), 1.0])
    with pytest.raises(RuntimeError, match="^The total norm of order 2.0 for gradients from `parameters` is "
                                           "non-finite"):
        lib.nn.utils.clip_grad_norm_(w, 1.0, error_if_nonfinite=True)


def test_clip_grad_value(lib):
    w = lib.ones(3, requires_grad=True)
    w.grad = lib.tensor([-3.0, 0.5, 2.0])
    lib.nn.utils.clip_grad_value_([w], 1.0)
    assert w.grad.tolist() == [-1.0, 0.5, 1.0]


def test_parameters_to_vector_and_back(lib):
    layer = lib.nn.Linear(2, 2)
    vec = lib.nn.utils.parameters_to_vector(layer.parameters())
    assert vec.shape == (6,) and vec[:4].tolist() == layer.weight.reshape(-1).tolist()
    lib.nn.utils.vector_to_parameters(lib.arange(6.0), layer.parameters())
    assert layer.weight.tolist() == [[0.0, 1.0], [2.0, 3.0]] and layer.bias.tolist() == [4.0, 5.0]
