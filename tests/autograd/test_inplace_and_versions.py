"""Version counters, views and in-place operations: what autograd allows, what it
refuses, and the gradients it computes through in-place changes."""
import numpy as np
import pytest

HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def modified(kind, shape, producer, version, expected=0):
    where = f", which is output 0 of {producer}," if producer else ""
    return (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[torch.{kind} [{shape}]]{where} is at version {version}; expected version {expected} instead. {HINT}")


def torch_text(error) -> str:
    """torch's message: minitorch adds a line saying where the tensor was changed."""
    return str(error).split("\n")[0]


def test_inplace_ops_bump_the_version(lib):
    x = lib.zeros(3)
    assert x._version == 0
    x.add_(1)
    x.mul_(2)
    x[0] = 5
    x += 1
    assert x._version == 4
    assert x.tolist() == [6.0, 3.0, 3.0]


def test_views_share_storage_and_version(lib):
    base = lib.zeros(2, 3)
    for view in (base[0], base.view(6), base.t(), base.unsqueeze(0), base[:, 1:], base.narrow(1, 0, 2),
                 base.permute(1, 0), base.flatten(), base.unbind()[1], base.split(1)[0], base.detach()):
        before = base._version
        view.add_(1)
        assert base._version == view._version == before + 1
    assert base.sum().item() > 0


def test_data_has_its_own_version_counter(lib):
    x = lib.zeros(3)
    d = x.data
    d.add_(1)
    assert x.tolist() == [1.0, 1.0, 1.0]  # same storage
    assert x._version == 0 and d._version == 1


def test_modified_saved_input_is_caught(lib):
    a = lib.tensor([1, 2, 3])
    b = lib.tensor([2, 3, 4.0], requires_grad=True)
    d = (a * b + b).sum()
    a[0] = 0.1
    with pytest.raises(RuntimeError) as e:
        d.backward()
    assert torch_text(e.value) == modified("LongTensor", "3", None, 1)


def test_the_message_names_the_producer_of_a_modified_tensor(lib):
    x = lib.ones(3, requires_grad=True)
    y = x * 1
    z = y.sigmoid()  # saves its output
    z.mul_(2)
    with pytest.raises(RuntimeError) as e:
        z.sum().backward()
    assert torch_text(e.value) == modified("FloatTensor", "3", "Sigmoid", 1)


def test_modified_zero_dim_input(lib):
    a = lib.tensor(2.0, requires_grad=True)
    c = a * 3
    e = c * lib.tensor(4.0, requires_grad=True)
    c += 1
    with pytest.raises(RuntimeError) as err:
        e.backward()
    assert torch_text(err.value) == modified("FloatTensor", "", "Add", 1)


def test_ops_that_save_nothing_tolerate_inplace_changes(lib):
    a = lib.tensor(2.0, requires_grad=True)
    c = a * 3
    e = c + lib.tensor(4.0, requires_grad=True)
    c += 1
    e.backward()
    assert a.grad.item() == 3.0


def test_inplace_on_a_leaf_that_requires_grad(lib):
    a = lib.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place operation.$"):
        a.add_(1)
    for write in (lambda: a[0].add_(1), lambda: a.view(2).mul_(2), lambda: a.__setitem__(0, 1.0)):
        with pytest.raises(RuntimeError,
                           match="^a view of a leaf Variable that requires grad is being used in an in-place operation.$"):
            write()
    with lib.no_grad():  # how optimizers update parameters
        a.sub_(0.5)
        a[1] = 3.0
    assert a.tolist() == [0.5, 3.0] and a.is_leaf and a.requires_grad


def test_inplace_on_a_result_rewrites_its_history(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(3)
    assert y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
    y.relu_().sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_augmented_assignment_is_differentiable(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    out = x * 1
    out += x * x      # a residual connection written in place
    out *= 2
    out.sum().backward()
    assert x.grad.tolist() == [6.0, 10.0]  # 2 (1 + 2x)


def test_inplace_on_a_view_rewrites_the_base(lib):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    row = y[0]
    row.mul_(10)
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert type(row.grad_fn).__name__ == "AsStridedBackward0"
    assert y.tolist() == [[10.0, 20.0], [3.0, 4.0]]
    (y * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert x.grad.tolist() == [[10.0, 20.0], [3.0, 4.0]]


def test_setitem_with_a_value_that_requires_grad(lib):
    b = lib.ones(2, 3, requires_grad=True)
    x = lib.zeros(2, 3)
    x[0] = b[0] * 2
    assert not x.is_leaf and type(x.grad_fn).__name__ == "CopySlices"
    assert [(None if f is None else type(f).__name__) for f, _ in x.grad_fn.next_functions] == [None, "MulBackward0"]
    (x * lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    assert b.grad.tolist() == [[2.0, 4.0, 6.0], [0.0, 0.0, 0.0]]


def test_setitem_overwrites_the_gradient_of_replaced_values(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    y[1:] = 0.0
    y[[0]] = y[[0]] * 5
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 0.0, 0.0]


def test_setitem_stores_like_torch(lib):
    x = lib.zeros(3, dtype=lib.int64)
    x[0] = 2.7  # truncated into the integer tensor
    x[1] = lib.tensor(3.9)
    assert x.tolist() == [2, 3, 0]
    m = lib.zeros(2, 3)
    m[m == 0] = 1.0
    m[:, 1] = lib.tensor([5.0, 6.0])
    m[1] = lib.ones(1, 3) * 7  # a leading 1-dim of the value is dropped
    assert m.tolist() == [[1.0, 5.0, 1.0], [7.0, 7.0, 7.0]]


def test_multi_output_views_cannot_be_modified_inplace(lib):
    x = lib.ones(3, requires_grad=True) * 1
    with pytest.raises(RuntimeError) as e:
        x.unbind()[0].mul_(2)
    assert str(e.value) == ("Output 0 of UnbindBackward0 is a view and is being modified inplace. This view is the "
                            "output of a function that returns multiple views. Such functions do not allow the output "
                            "views to be modified inplace. You should replace the inplace operation by an out-of-place "
                            "one.").replace("UnbindBackward0", "Unbind")


def test_writing_into_an_expanded_tensor(lib):
    with pytest.raises(RuntimeError) as e:
        lib.ones(2).expand(3, 2).add_(1)
    assert str(e.value) == ("unsupported operation: more than one element of the written-to tensor refers to a single "
                            "memory location. Please clone() the tensor before performing the operation.")


def test_detach_shares_storage_and_leaves_the_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad and d.grad_fn is None
    d[0] = 100.0
    assert y[0].item() == 100.0
    y.detach_()
    assert y.is_leaf and not y.requires_grad


def test_numpy_shares_memory_and_refuses_graph_tensors(lib):
    t = lib.zeros(3)
    arr = t.numpy()
    arr[0] = 7
    assert t[0].item() == 7
    assert np.shares_memory(arr, t.numpy())
    with pytest.raises(RuntimeError) as e:
        lib.ones(1, requires_grad=True).numpy()
    assert str(e.value) == "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
    with lib.no_grad():  # grad mode off: allowed, sharing memory
        leaf = lib.ones(2, requires_grad=True)
        assert np.shares_memory(leaf.numpy(), leaf.detach().numpy())


def test_inplace_op_uses_the_value_before_the_change(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([3.0, 4.0], requires_grad=True)
    y = x * 1
    y.mul_(w)  # d/dw needs y before the multiplication
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0] and w.grad.tolist() == [1.0, 2.0]


def test_views_read_the_new_history_of_their_base(lib):
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    base = x * 1
    col = base[:, 0]          # a view taken before the change
    v = lib.tensor([5.0, 6.0], requires_grad=True)
    base[1] = v * 2           # changes the base through another view
    col.sum().backward()      # col now contains 2 * v[0]
    assert x.grad.tolist() == [[1.0, 0.0], [0.0, 0.0]] and v.grad.tolist() == [2.0, 0.0]


def test_inplace_on_a_view_of_a_transposed_result(lib):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = x.t() * 2             # laid out like the transpose
    w[0].mul_(3)
    w.sum().backward()
    assert x.grad.tolist() == [[6.0, 2.0, 2.0], [6.0, 2.0, 2.0]]


def test_inplace_into_an_integer_tensor_is_not_recorded(lib):
    a = lib.tensor([1, 2])
    a.copy_(lib.tensor([1.5, 2.5], requires_grad=True))
    assert a.tolist() == [1, 2] and not a.requires_grad and a.grad_fn is None


def test_second_derivative_through_a_value_changed_in_place(lib):
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([3.0, 4.0], dtype=lib.float64, requires_grad=True)
    z = (x * x).mul_(y)       # dz/dy needs x*x from before the multiplication
    (gy,) = lib.autograd.grad(z.sum(), y, create_graph=True)
    assert gy.tolist() == [1.0, 4.0] and gy.requires_grad
    (gx,) = lib.autograd.grad(gy.sum(), x)
    assert gx.tolist() == [2.0, 4.0]


def test_the_message_says_where_the_tensor_was_changed():
    import inspect

    import minitorch
    x = minitorch.ones(3, requires_grad=True)
    y = x * 1
    z = y.sigmoid()
    z.mul_(2); line = inspect.currentframe().f_lineno  # noqa: E702
    with pytest.raises(RuntimeError) as e:
        z.sum().backward()
    assert str(e.value).split("\n")[1] == f"It was last modified by mul_ at tests/autograd/test_inplace_and_versions.py:{line}."
    w = minitorch.ones(2, requires_grad=True)
    opt = minitorch.optim.SGD([w], lr=0.1)
    loss = (w * w).sum()
    loss.backward(retain_graph=True)
    opt.step(); line = inspect.currentframe().f_lineno  # noqa: E702
    with pytest.raises(RuntimeError) as e:
        loss.backward()
    assert str(e.value).split("\n")[1] == f"It was last modified by SGD.step at tests/autograd/test_inplace_and_versions.py:{line}."
