"""The backward graph: leaves, grad_fn, next_functions, AccumulateGrad, node names,
and the graph's lifetime (saved tensors freed, no reference cycles, no recursion)."""
import gc
import re
import weakref

import numpy as np
import pytest

import minitorch


def edge_names(fn):
    return [(None if f is None else type(f).__name__, i) for f, i in fn.next_functions]


def test_leaves_and_results(lib):
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    b = lib.tensor([6.0, 4.0])
    q = a * b
    assert a.is_leaf and b.is_leaf and not q.is_leaf
    assert a.grad_fn is None and b.grad_fn is None
    assert q.requires_grad and not b.requires_grad
    assert not (b * 2).requires_grad  # no input requires grad: nothing is recorded
    assert (b * 2).grad_fn is None


def test_next_functions_as_torch_builds_them(lib):
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    b = lib.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a ** 3 - b ** 2
    assert type(q.grad_fn).__name__ == "SubBackward0"
    assert edge_names(q.grad_fn) == [("MulBackward0", 0), ("PowBackward0", 0)]
    mul = q.grad_fn.next_functions[0][0]
    assert edge_names(mul) == [("PowBackward0", 0), (None, 0)]  # the number 3 is an input without grad
    pow_a = mul.next_functions[0][0]
    assert edge_names(pow_a) == [("AccumulateGrad", 0)]  # a scalar exponent is not an input
    assert pow_a.next_functions[0][0].variable is a


def test_accumulate_grad_node_is_shared_while_alive(lib):
    a = lib.ones(2, requires_grad=True)
    y, z = a * 2, a * 3
    acc = y.grad_fn.next_functions[0][0]
    assert acc is z.grad_fn.next_functions[0][0]
    assert acc.variable is a
    assert acc.next_functions == ()


def test_multi_output_nodes_number_their_outputs(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b, c, d = a.unbind()
    assert b.grad_fn is c.grad_fn is d.grad_fn
    assert (b.output_nr, c.output_nr, d.output_nr) == (0, 1, 2)
    e = b * c * d
    assert edge_names(e.grad_fn) == [("MulBackward0", 0), ("UnbindBackward0", 2)]
    e.backward()
    assert a.grad.tolist() == [6.0, 3.0, 2.0]


@pytest.mark.parametrize("expr, name", [
    ("a + b", "AddBackward0"), ("a - b", "SubBackward0"), ("a * b", "MulBackward0"), ("a / b", "DivBackward0"),
    ("1 - a", "RsubBackward1"), ("a ** 2", "PowBackward0"), ("a ** b", "PowBackward1"), ("2 ** a", "PowBackward2"),
    ("a.sum()", "SumBackward0"), ("a.sum(0)", "SumBackward1"), ("a.mean()", "MeanBackward0"),
    ("a.mean(1)", "MeanBackward1"), ("a @ c", "MmBackward0"), ("a.max()", "MaxBackward1"),
    ("a.max(1)[0]", "MaxBackward0"), ("a.view(6)", "ViewBackward0"), ("a.t().reshape(6)", "UnsafeViewBackward0"),
    ("a[0]", "SelectBackward0"), ("a[:, 1:]", "SliceBackward0"), ("a[[0, 1]]", "IndexBackward0"),
    ("a.unbind()[0]", "UnbindBackward0"), ("a.exp()", "ExpBackward0"), ("a.log1p()", "Log1PBackward0"),
    ("a.relu()", "ReluBackward0"), ("a.clamp(0, 1)", "ClampBackward1"), ("a.softmax(1)", "SoftmaxBackward0"),
    ("a.expand(3, 2, 3)", "ExpandBackward0"), ("a.t()", "TBackward0"), ("a.T", "PermuteBackward0"),
    ("a.transpose(0, 1)", "TransposeBackward0"), ("a.var()", "VarBackward0"), ("a.clone()", "CloneBackward0"),
    ("a.double()", "ToCopyBackward0"), ("lib.cat([a, b])", "CatBackward0"), ("lib.stack([a, b])", "StackBackward0"),
])
def test_node_names(lib, expr, name):
    variables = {"lib": lib, "a": lib.ones(2, 3, requires_grad=True), "b": lib.ones(2, 3, requires_grad=True),
                 "c": lib.ones(3, 4, requires_grad=True)}
    assert eval(expr, variables).grad_fn.name() == name


def test_node_repr_and_metadata(lib):
    fn = (lib.ones(2, requires_grad=True) * 2).grad_fn
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", repr(fn))
    fn.metadata["step"] = 1
    assert fn.metadata == {"step": 1}


def test_saved_tensors_are_freed_after_backward():
    x = minitorch.ones(3, requires_grad=True)
    y = x * x
    node = y.grad_fn
    assert node._saved is not None
    y.sum().backward()
    assert node._saved is None
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        node.saved_tensors


def test_retain_graph_keeps_saved_tensors():
    x = minitorch.ones(3, requires_grad=True)
    y = x * x
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved is not None


def test_graph_is_freed_by_reference_counting_alone():
    """No reference cycles: the graph dies as soon as the output does, without the cyclic collector."""
    x = minitorch.ones(4, requires_grad=True)
    gc.disable()
    try:
        y = (x * 2).exp().sum()
        node = weakref.ref(y.grad_fn)
        saved_output = weakref.ref(y.grad_fn.next_functions[0][0])  # ExpBackward0 saves its own output
        del y
        assert node() is None and saved_output() is None
    finally:
        gc.enable()


def test_saved_arrays_are_released_after_backward():
    """While the graph object is still referenced, backward drops the intermediate arrays it saved."""
    x = minitorch.ones(1000, requires_grad=True)
    t = x * 2
    array = weakref.ref(t._data)
    y = t.sin().sum()  # SinBackward0 saves its input t
    del t
    assert array() is not None
    y.backward()
    assert array() is None


def test_deep_graph_has_no_recursion_limit():
    x = minitorch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    assert x.grad.tolist() == [1.0]


def test_leaf_gradient_is_not_aliased():
    """a + b passes the same gradient array to both leaves; their .grad must not share memory."""
    a = minitorch.zeros(3, requires_grad=True)
    b = minitorch.zeros(3, requires_grad=True)
    (a + b).sum().backward()
    a.grad.add_(1)
    assert b.grad.tolist() == [1.0, 1.0, 1.0]
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
