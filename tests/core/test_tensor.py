"""Tensor attributes, conversions and Python protocols."""
import copy
import pickle

import numpy as np
import pytest

import minitorch


def test_metadata(lib):
    t = lib.zeros(2, 3)
    assert t.shape == (2, 3) and t.size() == (2, 3) and t.size(1) == 3 and t.size(-2) == 2
    assert t.dim() == t.ndim == 2 and t.numel() == 6 and len(t) == 2
    assert t.dtype == lib.float32 and str(t.device) == "cpu" and not t.is_cuda
    assert t.stride() == (3, 1) and t.t().stride() == (1, 3)
    assert t.is_contiguous() and not t.t().is_contiguous() and t.t().contiguous().is_contiguous()
    assert t.element_size() == 4 and t.nbytes == 24
    assert t.T.shape == (3, 2) and t.mT.shape == (3, 2)
    assert t.is_floating_point() and not lib.ones(1, dtype=lib.int32).is_floating_point()


@pytest.mark.parametrize("shape, strides", [((0, 3), (3, 1)), ((3, 0), (1, 1)), ((2, 0, 4), (4, 4, 1)), ((0,), (1,)),
                                             ((1, 0, 2), (2, 2, 1))])
def test_empty_tensors_have_contiguous_strides(lib, shape, strides):
    """A size 0 counts as 1 (numpy reports 0 for every stride of an empty array)."""
    t = lib.zeros(shape)
    assert t.stride() == strides and t.stride(-1) == strides[-1] and t.is_contiguous()


def test_size_prints_as_minitorch_size():
    s = minitorch.ones(2, 3).shape
    assert repr(s) == "minitorch.Size([2, 3])" and s == (2, 3) and s.numel() == 6
    assert isinstance(s[0:1], minitorch.Size)


def test_python_scalars(lib):
    t = lib.tensor([2.5])
    assert t.item() == 2.5 and float(t) == 2.5 and int(lib.tensor(3.7)) == 3 and bool(lib.tensor([1]))
    assert f"{lib.tensor(3.14159):.2f}" == "3.14"
    with pytest.raises(RuntimeError, match="^a Tensor with 2 elements cannot be converted to Scalar$"):
        lib.ones(2).item()
    with pytest.raises(RuntimeError, match="^Boolean value of Tensor with more than one value is ambiguous$"):
        bool(lib.ones(2))
    with pytest.raises(ValueError, match="^only one element tensors can be converted to Python scalars$"):
        float(lib.ones(2))
    with pytest.raises(TypeError, match="^len\\(\\) of a 0-d tensor$"):
        len(lib.tensor(1.0))


def test_tolist_and_iteration(lib):
    assert lib.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert lib.tensor(3.0).tolist() == 3.0
    rows = list(lib.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert [r.tolist() for r in rows] == [[1.0, 2.0], [3.0, 4.0]]


def test_dtype_conversions(lib):
    t = lib.tensor([1.5, -2.5])
    assert t.double().dtype == lib.float64 and t.half().dtype == lib.float16
    assert t.long().tolist() == [1, -2] and t.int().dtype == lib.int32 and t.bool().tolist() == [True, True]
    assert t.to(lib.float64).dtype == lib.float64 and t.to("cpu", lib.int64).dtype == lib.int64
    assert t.to(lib.zeros(1, dtype=lib.float16)).dtype == lib.float16
    assert t.type() == "torch.FloatTensor" and lib.tensor([1]).type() == "torch.LongTensor"
    assert t.type("torch.DoubleTensor").dtype == lib.float64
    assert t.to(lib.float32) is t and t.float() is t
    assert t.type_as(lib.tensor([1])).dtype == lib.int64


def test_cuda_is_not_available(lib):
    if lib.__name__ == "torch" and lib.cuda.is_available():
        pytest.skip("a GPU build of torch")
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled$"):
        lib.ones(1).cuda()


def test_grad_assignment_is_checked(lib):
    a = lib.tensor([2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        a.grad = lib.ones(3)
    assert str(e.value) == ("attempting to assign a gradient of size '[3]' to a tensor of size '[2]'. Please ensure "
                            "that the gradient and the tensor are the same size")
    with pytest.raises(RuntimeError, match="^attempting to assign a gradient with dtype 'double' to a tensor with "
                                           "grad_dtype 'Float'"):
        a.grad = lib.ones(2, dtype=lib.float64)
    a.grad = lib.ones(2)
    assert a.grad.tolist() == [1.0, 1.0]
    del a.grad
    assert a.grad is None


def test_data_property(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    d = a.data
    assert not d.requires_grad and d.is_leaf
    a.data = lib.tensor([5.0, 6.0, 7.0])
    assert a.tolist() == [5.0, 6.0, 7.0] and a.requires_grad


def test_clone_stays_in_the_graph(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    c = a.clone()
    assert c.grad_fn.name() == "CloneBackward0"
    (c * 3).sum().backward()
    assert a.grad.tolist() == [3.0, 3.0]


def test_numpy_interop(lib):
    t = lib.tensor([1.0, 2.0])
    assert np.asarray(t).tolist() == [1.0, 2.0]
    r = np.float32(2.0) * t  # numpy scalars defer to the tensor
    assert type(r).__name__ == "Tensor" and r.tolist() == [2.0, 4.0]
    assert lib.from_numpy(np.arange(3)).dtype == lib.int64


def test_new_factories_follow_the_tensor(lib):
    a = lib.ones(2, dtype=lib.float64)
    assert a.new_zeros(3).dtype == lib.float64 and a.new_ones(2, 2).shape == (2, 2)
    assert a.new_tensor([1, 2]).dtype == lib.float64 and a.new_full((2,), 3.0).tolist() == [3.0, 3.0]


def test_legacy_constructors(lib):
    assert lib.Tensor([1, 2]).tolist() == [1.0, 2.0] and lib.Tensor([1, 2]).dtype == lib.float32
    assert lib.Tensor(2, 3).shape == (2, 3)
    assert lib.FloatTensor([1, 2]).dtype == lib.float32 and lib.LongTensor([1.7]).tolist() == [1]


def test_copy_and_pickle(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = copy.deepcopy(a)
    assert b.requires_grad and b.tolist() == [1.0, 2.0] and b is not a
    b.data[0] = 9.0
    assert a[0].item() == 1.0
    c = pickle.loads(pickle.dumps(a))
    assert c.requires_grad and c.tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="^Only Tensors created explicitly by the user"):
        copy.deepcopy(a * 2)


def test_hash_is_identity(lib):
    a, b = lib.ones(1), lib.ones(1)
    assert len({a, b}) == 2 and a in {a: 1}


def test_comparison_with_none(lib):
    assert (lib.ones(1) == None) is False  # noqa: E711
    assert (lib.ones(1) != None) is True  # noqa: E711


def test_set_num_threads():
    before = minitorch.get_num_threads()
    try:
        minitorch.set_num_threads(1)
        assert minitorch.get_num_threads() == 1
    finally:
        minitorch.set_num_threads(before)
    assert minitorch.get_num_threads() == before
    with pytest.raises(RuntimeError):
        minitorch.set_num_threads(0)
