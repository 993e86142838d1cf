"""backward() and autograd.grad(): accumulation, vector-Jacobian products, retain_graph,
inputs=, create_graph (higher-order derivatives), and their errors."""
import pytest


def test_gradients_of_q(lib):
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    b = lib.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a ** 3 - b ** 2
    q.backward(gradient=lib.tensor([1.0, 1.0]))
    assert a.grad.tolist() == [36.0, 81.0]  # 9 a^2
    assert b.grad.tolist() == [-12.0, -8.0]  # -2 b


def test_vector_jacobian_product_weights_each_output(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(lib.tensor([1.0, 0.5, -1.0]))
    assert x.grad.tolist() == [2.0, 2.0, -6.0]


def test_gradients_accumulate_across_backward_calls(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    (x * x).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0]


def test_gradients_sum_where_a_tensor_feeds_several_ops(lib):
    x = lib.tensor(2.0, requires_grad=True)
    h = x * 3           # a non-leaf used twice
    y = h * h + h.exp() * 0 + h
    y.backward()
    assert x.grad.item() == pytest.approx(3 * (2 * 6 + 1))


def test_implicit_gradient_only_for_one_element_outputs(lib):
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        (a * 2).backward()
    (a * 2)[0:1].backward()  # one element, any shape: fine
    assert a.grad.tolist() == [2.0, 0.0]


def test_backward_of_a_tensor_outside_the_graph(lib):
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and does not have a grad_fn$"):
        lib.tensor([1.0]).sum().backward()


def test_gradient_shape_must_match():
    import minitorch
    a = minitorch.tensor([2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        (a * 2).backward(minitorch.ones(3))
    assert str(e.value) == ("Mismatch in shape: grad_output[0] has a shape of minitorch.Size([3]) and output[0] has a "
                            "shape of minitorch.Size([2]).")


SECOND_TIME = ("Trying to backward through the graph a second time (or directly access saved tensors after they "
               "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
               "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
               "or if you need to access saved tensors after calling backward.")


def test_second_backward_needs_retain_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as e:
        y.backward()
    assert str(e.value) == SECOND_TIME


def test_retain_graph_allows_another_backward(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_nodes_that_save_nothing_can_run_twice(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()  # AddBackward0 and SumBackward0 keep no tensors
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_backward_inputs_limits_accumulation(lib):
    z = lib.ones(3, requires_grad=True)
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (z * w).sum().backward(inputs=[z])
    assert z.grad.tolist() == [1.0, 2.0, 3.0]
    assert w.grad is None


def test_backward_inputs_can_name_a_non_leaf(lib):
    x = lib.ones(2, requires_grad=True)
    h = x * 2
    (h * 3).sum().backward(inputs=[h])
    assert h.grad.tolist() == [3.0, 3.0]
    assert x.grad is None


def test_autograd_grad_returns_without_touching_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    (g,) = lib.autograd.grad(y, x)
    assert g.tolist() == [3.0, 12.0]
    assert x.grad is None


def test_autograd_grad_of_an_intermediate(lib):
    a = lib.tensor([1, 2, 3])
    b = lib.tensor([2, 3, 4.0], requires_grad=True)
    c = a * b
    (g,) = lib.autograd.grad(c.sum(), c)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_autograd_grad_unused_input(lib):
    x = lib.ones(2, requires_grad=True)
    unused = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        lib.autograd.grad((x * 2).sum(), [x, unused])
    assert str(e.value) == ("The differentiated Tensor at index 1 appears to not have been used in the graph. "
                            "Set allow_unused=True if this is the desired behavior.")
    gx, gu = lib.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0] and gu is None
    gx, gu = lib.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True)
    assert gu.tolist() == [0.0, 0.0]


def test_autograd_grad_input_must_require_grad(lib):
    x = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require grad$"):
        lib.autograd.grad((x * 2).sum(), [lib.ones(2)])


def test_autograd_grad_with_grad_outputs(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (g,) = lib.autograd.grad(x * x, x, grad_outputs=lib.tensor([1.0, -1.0]))
    assert g.tolist() == [2.0, -4.0]


def test_second_derivative_with_create_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (g,) = lib.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad
    (gg,) = lib.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]  # d2/dx2 x^3 = 6x


def test_third_derivative(lib):
    x = lib.tensor(2.0, requires_grad=True)
    y = x.sin() * x ** 2
    (d1,) = lib.autograd.grad(y, x, create_graph=True)
    (d2,) = lib.autograd.grad(d1, x, create_graph=True)
    (d3,) = lib.autograd.grad(d2, x)
    s, c = lib.tensor(2.0).sin().item(), lib.tensor(2.0).cos().item()
    # y''' = -x^2 cos x - 6 x sin x + 6 cos x
    assert d3.item() == pytest.approx(-4 * c - 12 * s + 6 * c, rel=1e-5)


def test_backward_with_create_graph_records_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.grad_fn is not None
    grad = x.grad
    x.grad = None
    grad.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]


def test_gradient_penalty_through_double_backward(lib):
    """A gradient penalty differentiates a gradient: checked against finite differences."""
    x = lib.tensor([1.0, -1.0], dtype=lib.float64, requires_grad=True)

    def penalty(w):
        (gx,) = lib.autograd.grad((w @ x).tanh().sum(), x, create_graph=True)
        return (gx ** 2).sum()

    w = lib.tensor([[0.1, 0.2], [0.3, -0.4]], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(penalty, (w,))


def test_grad_dtype_follows_the_input(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)  # float32
    y = lib.tensor([1.0, 2.0], dtype=lib.float64)
    (x * y).sum().backward()
    assert x.grad.dtype == lib.float32


def test_grad_of_broadcast_input_has_its_shape(lib):
    x = lib.ones(3, requires_grad=True)
    m = lib.ones(2, 3, requires_grad=True)
    (m * x).sum().backward()
    assert x.grad.shape == (3,) and x.grad.tolist() == [2.0, 2.0, 2.0]


def test_backward_of_several_outputs(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    lib.autograd.backward([(x * 2).sum(), (x * x).sum()])
    assert x.grad.tolist() == [4.0, 6.0]


def test_frozen_leaves_get_no_gradient(lib):
    frozen = lib.ones(2, 2, requires_grad=True)
    frozen.requires_grad_(False)
    head = lib.ones(2, requires_grad=True)
    out = (frozen @ head).sum()
    assert out.grad_fn.next_functions[0][0].next_functions[0] == (None, 0)
    out.backward()
    assert frozen.grad is None and head.grad.tolist() == [2.0, 2.0]
