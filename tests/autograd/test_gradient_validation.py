"""The engine checks every gradient a node returns against its input, with PyTorch's texts
(``validate_outputs``): wrong count, incompatible shape, non-tensor; broadcast shapes are summed
back and other dtypes cast, as PyTorch does. Tensor hooks may not change a gradient's size or type."""
import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import Function

from torch_answers import torch

# the expected texts are written out; torch, where installed, confirms them (as the ``lib`` fixture does)
LIBS = [pytest.param(mt, id="minitorch")] + ([pytest.param(torch, id="torch")] if torch is not None else [])


def _function(lib, backward, n_inputs=1):
    """A custom Function ``<name>`` doubling its first input, with the given backward."""
    def forward(ctx, *xs):
        return xs[0] * 2
    return type("MyFn", (lib.autograd.Function,), {"forward": staticmethod(forward),
                                                   "backward": staticmethod(backward)})


@pytest.mark.parametrize("lib", LIBS)
def test_a_gradient_of_the_wrong_shape_is_refused(lib):
    x = lib.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        _function(lib, lambda ctx, g: g.sum(0)).apply(x).sum().backward()
    assert str(e.value) == ("Function MyFnBackward returned an invalid gradient at index 0 - got [3] but expected "
                            "shape compatible with [2, 3]")


@pytest.mark.parametrize("lib", LIBS)
def test_a_gradient_of_the_broadcast_shape_is_summed_back(lib):
    x = lib.ones(3, requires_grad=True)
    _function(lib, lambda ctx, g: g.expand(4, 3) * 1.0).apply(x).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]


@pytest.mark.parametrize("lib", LIBS)
def test_a_gradient_of_another_dtype_is_cast_to_the_input_dtype(lib):
    x = lib.ones(3, requires_grad=True)
    _function(lib, lambda ctx, g: g.double() * 3).apply(x).sum().backward()
    assert x.grad.dtype == lib.float32 and x.grad.tolist() == [3.0, 3.0, 3.0]


@pytest.mark.parametrize("lib", LIBS)
def test_a_wrong_number_of_gradients_is_refused(lib):
    x = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        _function(lib, lambda ctx, g: (g, g)).apply(x).sum().backward()
    assert str(e.value) == "function MyFnBackward returned an incorrect number of gradients (expected 1, got 2)"
    with pytest.raises(RuntimeError) as e:
        _function(lib, lambda ctx, g: (g,)).apply(x, x).sum().backward()
    assert str(e.value) == "function MyFnBackward returned an incorrect number of gradients (expected 2, got 1)"


@pytest.mark.parametrize("lib", LIBS)
def test_a_gradient_that_is_not_a_tensor_is_refused(lib):
    x = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        _function(lib, lambda ctx, g: 1.0).apply(x).sum().backward()
    assert str(e.value) == "expected Variable or None (got float)"
    with pytest.raises(RuntimeError) as e:
        _function(lib, lambda ctx, g: np.ones(2, np.float32)).apply(x).sum().backward()
    assert str(e.value) == "expected Variable or None (got numpy.ndarray)"


@pytest.mark.parametrize("lib", LIBS)
def test_a_hook_may_not_change_the_size_or_type_of_a_gradient(lib):
    x = lib.ones(2, 3, requires_grad=True)

    def shrink(g):
        return g.sum(0)

    def widen(g):
        return g.double()
    for hook, text in ((shrink, "hook 'shrink' has changed the size of value"),
                       (widen, "hook 'widen' has changed the type of value (was torch.FloatTensor got "
                               "torch.DoubleTensor)")):
        y = x * 2
        y.register_hook(hook)
        with pytest.raises(RuntimeError) as e:
            y.sum().backward()
        assert str(e.value) == text


def test_a_built_in_op_returning_a_wrong_gradient_is_named():
    class Broken(mt.autograd.function.Op):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g[:1]
    x = mt.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Function BrokenBackward0 returned an invalid gradient at index 0 - "
                                           r"got \[1\] but expected shape compatible with \[3\]$"):
        Broken.apply(x).sum().backward()


def test_broadcasting_ops_reduce_gradients_in_the_graph_too():
    a = mt.tensor([[1.0, 2.0, 3.0]], dtype=mt.float64, requires_grad=True)
    b = mt.tensor([[1.0], [2.0]], dtype=mt.float64, requires_grad=True)
    (ga,) = mt.autograd.grad((a * b * a).sum(), a, create_graph=True)  # d/da = 2 a * sum(b)
    assert ga.shape == (1, 3) and ga.tolist() == [[6.0, 12.0, 18.0]]
    (gb,) = mt.autograd.grad(ga.sum(), b)  # sum over a of 2 a = 12, for each b
    assert gb.tolist() == [[12.0], [12.0]]


def test_a_first_gradient_becomes_grad_without_sharing_memory_with_another():
    x = mt.ones(3, requires_grad=True)
    y = mt.ones(3, requires_grad=True)
    (x + y).sum().backward()  # AddBackward0 hands one array to both leaves
    assert not np.shares_memory(x.grad.numpy(), y.grad.numpy())
    x.grad.add_(1.0)
    assert y.grad.tolist() == [1.0, 1.0, 1.0]
    g = mt.full((3,), 2.0)
    z = mt.ones(3, requires_grad=True)
    z.backward(g)  # the user's gradient tensor is not adopted as .grad
    z.grad.add_(1.0)
    assert g.tolist() == [2.0, 2.0, 2.0]


def test_custom_function_gradient_is_not_adopted_as_grad():
    kept = []

    class Keep(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            out = g * 2
            kept.append(out)
            return out
    x = mt.ones(2, requires_grad=True)
    Keep.apply(x).sum().backward()
    x.grad.add_(1.0)
    assert kept[0].tolist() == [2.0, 2.0]
