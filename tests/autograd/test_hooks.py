"""Hooks on tensors and graph nodes, retain_grad, and post-accumulate hooks."""
import pytest


def test_leaf_hook_replaces_the_gradient_and_can_be_removed(lib):
    a = lib.ones(2, requires_grad=True)
    handle = a.register_hook(lambda g: g * 2)
    (a * 3).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]
    handle.remove()
    a.grad = None
    (a * 3).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_non_leaf_hooks_run_in_order_and_change_what_flows_on(lib):
    a = lib.ones(2, requires_grad=True)
    b = a * 2
    seen = []
    b.register_hook(lambda g: seen.append(("first", g.tolist())))
    b.register_hook(lambda g: g * 10)
    b.register_hook(lambda g: seen.append(("third", g.tolist())))
    b.retain_grad()
    (b * 3).sum().backward()
    assert seen == [("first", [3.0, 3.0]), ("third", [30.0, 30.0])]
    assert b.grad.tolist() == [30.0, 30.0]   # retain_grad sees the hooked gradient
    assert a.grad.tolist() == [60.0, 60.0]


def test_hook_handle_as_context_manager(lib):
    a = lib.ones(1, requires_grad=True)
    with a.register_hook(lambda g: g * 0):
        (a * 2).sum().backward()
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0]


def test_retain_grad(lib):
    a = lib.ones(2, requires_grad=True)
    c = a * 2
    assert not c.retains_grad
    c.retain_grad()
    assert c.retains_grad and not a.retains_grad
    (c * 1).sum().backward(retain_graph=True)
    (c * 2).sum().backward()
    assert c.grad.tolist() == [3.0, 3.0]  # accumulates like a leaf's grad


def test_non_leaf_grad_is_none_with_a_warning(lib):
    a = lib.ones(2, requires_grad=True)
    c = a * 2
    c.sum().backward()
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert c.grad is None


def test_node_hooks(lib):
    a = lib.ones(2, requires_grad=True)
    n = a * 2
    calls = []
    n.grad_fn.register_prehook(lambda grad_outputs: calls.append(("pre", [g.tolist() for g in grad_outputs])))
    n.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append(
        ("post", [None if g is None else g.tolist() for g in grad_inputs], [g.tolist() for g in grad_outputs])))
    n.sum().backward()
    assert calls == [("pre", [[1.0, 1.0]]), ("post", [[2.0, 2.0], None], [[1.0, 1.0]])]


def test_node_hook_can_replace_gradients(lib):
    a = lib.ones(2, requires_grad=True)
    n = a * 2
    n.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 0 + 7, None))
    n.sum().backward()
    assert a.grad.tolist() == [7.0, 7.0]


def test_post_accumulate_grad_hook(lib):
    a = lib.ones(2, requires_grad=True)
    seen = []
    a.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    (a * 2).sum().backward()
    assert seen == [[2.0, 2.0]]


def test_hook_errors(lib):
    with pytest.raises(RuntimeError, match="^cannot register a hook on a tensor that doesn't require gradient$"):
        lib.ones(2).register_hook(lambda g: g)
    with pytest.raises(RuntimeError, match="^can't retain_grad on Tensor that has requires_grad=False$"):
        lib.ones(2).retain_grad()


def test_hooks_also_run_for_autograd_grad(lib):
    a = lib.ones(2, requires_grad=True)
    a.register_hook(lambda g: g * 5)
    (g,) = lib.autograd.grad((a * 2).sum(), a)
    assert g.tolist() == [10.0, 10.0]
