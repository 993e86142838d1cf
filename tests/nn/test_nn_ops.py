"""nn.functional's ops: in-place activation nodes, losses with ignored targets, and the state that
pooling and batch norm keep in their own op (against PyTorch where it is installed)."""
import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F
from torch_answers import torch_answer

# (function, keyword arguments, torch's node name for the in-place form)
INPLACE = {
    "hardtanh": (lambda F: F.hardtanh, {}, "HardtanhBackward0"),
    "relu6": (lambda F: F.relu6, {}, "HardtanhBackward0"),
    "leaky_relu": (lambda F: F.leaky_relu, {"negative_slope": 0.2}, "LeakyReluBackward1"),
    "elu": (lambda F: F.elu, {}, "EluBackward1"),
    "selu": (lambda F: F.selu, {}, "EluBackward1"),
    "celu": (lambda F: F.celu, {"alpha": 0.5}, "CeluBackward1"),
    "silu": (lambda F: F.silu, {}, "SiluBackward0"),
    "hardswish": (lambda F: F.hardswish, {}, "HardswishBackward0"),
    "hardsigmoid": (lambda F: F.hardsigmoid, {}, "HardsigmoidBackward0"),
    "mish": (lambda F: F.mish, {}, "MishBackward0"),
    "threshold": (lambda F: F.threshold, {"threshold": 0.1, "value": -2.0}, "ThresholdBackward1"),
}


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_activation_node_is_made_once(name):
    fn, kwargs, node = INPLACE[name]
    x = minitorch.tensor(np.linspace(-4, 4, 12).reshape(3, 4), requires_grad=True)
    first, second = (fn(F)(x * 1, inplace=True, **kwargs) for _ in range(2))
    assert type(first.grad_fn) is type(second.grad_fn)
    assert type(first.grad_fn).__name__ == node
    # the same values and gradient as the out-of-place form
    (g_inplace,) = minitorch.autograd.grad(first.sum(), x)
    out = fn(F)(x, **kwargs)
    (g_out,) = minitorch.autograd.grad(out.sum(), x)
    np.testing.assert_allclose(first.detach().numpy(), out.detach().numpy())
    np.testing.assert_allclose(g_inplace.numpy(), g_out.numpy())


@pytest.mark.parametrize("name", list(INPLACE))
def test_inplace_activation_node_name_matches_torch(name):
    fn, kwargs, node = INPLACE[name]

    def torch_node(torch, name):
        x = torch.linspace(-4, 4, 12, requires_grad=True)
        return type(fn(torch.nn.functional)(x * 1, inplace=True, **kwargs).grad_fn).__name__
    assert torch_answer(torch_node, name) == node  # the table's node names are torch's


# ---- batch norm: one op computes the statistics, updates the running ones and differentiates -------------
def _bn_inputs(rng, shape, affine):
    c = shape[1]
    x = minitorch.tensor(rng.standard_normal(shape) * 3 + 1, requires_grad=True)
    w = minitorch.tensor(rng.uniform(0.5, 2, c), requires_grad=True) if affine else None
    b = minitorch.tensor(rng.standard_normal(c), requires_grad=True) if affine else None
    return x, w, b


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 4, 5)])
def test_batch_norm_first_order_gradient_is_the_higher_order_one(shape, affine, training):
    """The backward runs on arrays for a first-order gradient and on tensors under create_graph:
    both give the same gradients."""
    rng = np.random.default_rng(0)
    x, w, b = _bn_inputs(rng, shape, affine)
    rm, rv = minitorch.tensor(rng.standard_normal(shape[1])), minitorch.tensor(rng.uniform(0.5, 2, shape[1]))
    g = minitorch.tensor(rng.standard_normal(shape))
    inputs = [t for t in (x, w, b) if t is not None]
    y = F.batch_norm(x, rm, rv, w, b, training=training)
    fast = minitorch.autograd.grad(y, inputs, g, retain_graph=True)
    recorded = minitorch.autograd.grad(y, inputs, g, create_graph=True)
    for a, r in zip(fast, recorded):
        np.testing.assert_allclose(a.numpy(), r.detach().numpy(), rtol=1e-10, atol=1e-12)


def _batch_norm_gradients(lib, x, g):
    """BatchNorm2d: the gradients of the input, weight and bias, and the running statistics after one batch."""
    bn = lib.nn.BatchNorm2d(3, momentum=0.3)
    xt = lib.from_numpy(x.copy()).requires_grad_()
    bn(xt).backward(lib.from_numpy(g.copy()))
    return [t.detach().numpy().copy() for t in (xt.grad, bn.weight.grad, bn.bias.grad, bn.running_mean, bn.running_var)]


def test_batch_norm_gradients_match_torch():
    rng = np.random.default_rng(1)
    x, g = rng.standard_normal((4, 3, 5, 5)).astype(np.float32), rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    for mine, theirs in zip(_batch_norm_gradients(minitorch, x, g), torch_answer(_batch_norm_gradients, x, g),
                            strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)


def test_batch_norm_eval_backward_uses_the_statistics_of_its_forward():
    """Running statistics updated between an eval forward and its backward do not change its gradient."""
    rng = np.random.default_rng(2)
    bn = minitorch.nn.BatchNorm1d(3)
    bn.running_mean.copy_(minitorch.tensor([0.5, -1.0, 2.0]))
    x = minitorch.tensor(rng.standard_normal((4, 3)), dtype=minitorch.float32)
    expected = minitorch.autograd.grad(bn.eval()(x).sum(), bn.weight)[0]
    y = bn.eval()(x)
    bn.train()(x * 5 + 3)  # moves the running statistics
    np.testing.assert_allclose(minitorch.autograd.grad(y.sum(), bn.weight)[0].numpy(), expected.numpy())


# ---- pooling: the op builds its own plan ---------------------------------------------------------------------
def test_max_pool_without_grad_then_with_grad():
    """The positions of the maxima are kept only when a gradient can be asked for; both results agree."""
    x = minitorch.tensor(np.random.default_rng(3).standard_normal((2, 3, 7, 7)), requires_grad=True)
    with minitorch.no_grad():
        plain = F.max_pool2d(x, 3, 2, 1)
    y = F.max_pool2d(x, 3, 2, 1)
    values, indices = F.max_pool2d(x.detach(), 3, 2, 1, return_indices=True)
    np.testing.assert_array_equal(plain.numpy(), y.detach().numpy())
    np.testing.assert_array_equal(values.numpy(), plain.numpy())
    (grad,) = minitorch.autograd.grad(y.sum(), x)
    counts = np.zeros(2 * 3 * 49)
    np.add.at(counts, (indices.numpy() + 49 * np.arange(6).reshape(2, 3, 1, 1)).ravel(), 1)
    np.testing.assert_array_equal(grad.numpy().ravel(), counts)


# ---- losses: every target ignored ------------------------------------------------------------------------------
IGNORED = {
    "nll mean": (lambda F, lib, x: F.nll_loss(x, lib.tensor([-100, -100, -100])), float("nan")),
    "nll sum": (lambda F, lib, x: F.nll_loss(x, lib.tensor([-100, -100, -100]), reduction="sum"), 0.0),
    "nll none": (lambda F, lib, x: F.nll_loss(x, lib.tensor([-100, -100, -100]), reduction="none"), [0.0] * 3),
    "ce weighted mean": (lambda F, lib, x: F.cross_entropy(x, lib.tensor([7, 7, 7]), ignore_index=7,
                                                           weight=lib.tensor([1.0, 2.0, 0.5, 3.0])), float("nan")),
    "ce smoothing mean": (lambda F, lib, x: F.cross_entropy(x, lib.tensor([-100, -100, -100]), label_smoothing=0.2),
                          float("nan")),
    "ce smoothing sum": (lambda F, lib, x: F.cross_entropy(x, lib.tensor([-100, -100, -100]), label_smoothing=0.2,
                                                           reduction="sum"), 0.0),
    "ce spatial mean": (lambda F, lib, x: F.cross_entropy(x.reshape(1, 4, 3, 1).expand(2, 4, 3, 2),
                                                          lib.full((2, 3, 2), -100)), float("nan")),
}


@pytest.mark.parametrize("name", list(IGNORED))
@pytest.mark.filterwarnings("error")  # no numpy warning about 0/0 either
def test_every_target_ignored_gives_zero_gradients(name, lib):
    fn, value = IGNORED[name]
    x = lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), requires_grad=True)
    loss = fn(lib.nn.functional, lib, x)
    np.testing.assert_array_equal(loss.detach().numpy(), value)
    loss.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 4)))


def test_a_fully_ignored_batch_leaves_the_weights_finite():
    model = minitorch.nn.Linear(4, 3)
    opt = minitorch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    before = [p.detach().clone() for p in model.parameters()]
    loss = F.cross_entropy(model(minitorch.ones(2, 4)), minitorch.tensor([-100, -100]))
    assert np.isnan(loss.item())
    loss.backward()
    opt.step()
    for p, b in zip(model.parameters(), before):
        np.testing.assert_array_equal(p.detach().numpy(), b.numpy())


def test_zero_total_weight_of_counted_targets_gives_nan_gradients_as_torch():
    """Targets that count but weigh 0: torch's 0 * (1 / 0) is nan in their gradient; ignored rows stay 0."""
    x = minitorch.zeros(3, 2, requires_grad=True)
    F.nll_loss(x, minitorch.tensor([0, -100, 0]), weight=minitorch.tensor([0.0, 1.0])).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[np.nan, 0.0], [0.0, 0.0], [np.nan, 0.0]])
