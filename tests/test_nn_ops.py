"""nn.functional's ops: in-place activation nodes, losses with ignored targets, and the state that
pooling and batch norm keep in their own op (against PyTorch where it is installed)."""
import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F

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
    torch = pytest.importorskip("torch")
    fn, kwargs, node = INPLACE[name]
    x = torch.linspace(-4, 4, 12, requires_grad=True)
    assert type(fn(torch.nn.functional)(x * 1, inplace=True, **kwargs).grad_fn).__name__ == node
