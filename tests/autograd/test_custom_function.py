"""User-defined autograd Functions: ctx API, node naming, in-place and
non-differentiable outputs, errors, and higher-order gradients through them."""
import pytest


def make_exp(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result
    return Exp


def test_forward_backward_and_node(lib):
    Exp = make_exp(lib)
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    assert type(y.grad_fn).__name__ == "ExpBackward" and y.grad_fn.name() == "ExpBackward"
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([1.0, 2.718281828])


def test_custom_function_is_recorded_only_when_needed(lib):
    Exp = make_exp(lib)
    assert Exp.apply(lib.ones(1)).grad_fn is None
    with lib.no_grad():
        assert Exp.apply(lib.ones(1, requires_grad=True)).grad_fn is None


def test_non_tensor_arguments_and_needs_input_grad(lib):
    seen = {}

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, y):
            ctx.k = k
            seen["forward"] = ctx.needs_input_grad
            return x * k + y

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, g

    a = lib.ones(2, requires_grad=True)
    out = Scale.apply(a, 3.0, lib.ones(2))
    assert seen["forward"] == (True, False, False)
    assert [(f is None) for f, _ in out.grad_fn.next_functions] == [False, True]  # tensors only
    out.sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_setup_context_style(lib):
    class MulConst(lib.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    x = lib.ones(2, requires_grad=True)
    MulConst.apply(x, 3.0).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_non_differentiable_outputs(lib):
    class MaxWithIndex(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.max(0, keepdim=True)
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            ctx.n = x.shape[0]
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            (i,) = ctx.saved_tensors
            return lib.zeros(ctx.n).scatter(0, i, gv)

    x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
    v, i = MaxWithIndex.apply(x)
    assert v.requires_grad and not i.requires_grad and i.grad_fn is None
    v.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0]


def test_mark_dirty_for_inplace_forward(lib):
    class AddOne_(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = lib.ones(2, requires_grad=True)
    w = x * 1
    r = AddOne_.apply(w)
    assert r is w and w._version == 2 and w.grad_fn.name() == "AddOne_Backward"
    (w * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0] and w.tolist() == [2.0, 2.0]


def test_wrong_number_of_gradients(lib):
    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError) as e:
        Bad.apply(lib.ones(1, requires_grad=True)).sum().backward()
    assert str(e.value) == "function BadBackward returned an incorrect number of gradients (expected 1, got 2)"


def test_saved_tensor_versions_are_checked(lib):
    Exp = make_exp(lib)
    x = lib.ones(2, requires_grad=True)
    y = Exp.apply(x * 1)
    y.add_(1)
    with pytest.raises(RuntimeError, match="which is output 0 of Exp, is at version 1; expected version 0 instead"):
        y.sum().backward()


def test_double_backward_through_a_custom_function(lib):
    Exp = make_exp(lib)
    x = lib.tensor([0.5, 1.0], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(Exp.apply, (x,))
    assert lib.autograd.gradgradcheck(Exp.apply, (x,))


def test_once_differentiable_backward_runs_without_recording(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @lib.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            assert not lib.is_grad_enabled()
            return 2 * x * g

    x = lib.tensor([3.0], requires_grad=True)
    (g,) = lib.autograd.grad(Square.apply(x), x, create_graph=True)
    assert g.tolist() == [6.0] and not g.requires_grad
