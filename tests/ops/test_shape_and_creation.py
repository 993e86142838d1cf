"""Shape, creation, copy variants, predicates and settings, against PyTorch:
the *_copy functions, stacking and splitting helpers, window functions, finfo/iinfo, layout constants,
legacy Tensor methods, vmap/cond/while_loop, DLPack, and the process-wide switches."""
import warnings

import numpy as np
import pytest

import minitorch as mt
from op_helper import check_error, helper_test_op
from torch_answers import torch, torch_answer

# ---- differentiable shape ops: values, dtypes and gradients (node names differ: composites) --------
SHAPE_CASES = {
    "view_copy": ([(3, 4)], lambda m, x: m.view_copy(x.t(), (2, 6))),
    "view_copy_dtype": ([(3, 4)], lambda m, x: m.view_copy(x.detach(), m.int32)),
    "alias_copy": ([(3, 4)], lambda m, x: m.alias_copy(x)),
    "slice_copy": ([(3, 5)], lambda m, x: m.slice_copy(x, 1, 1, None, 2)),
    "slice_copy_clamped": ([(3, 4)], lambda m, x: m.slice_copy(x, 0, -10, 10)),
    "expand_copy": ([(1, 4)], lambda m, x: m.expand_copy(x, [2, 3, 4])),
    "diagonal_copy": ([(3, 4)], lambda m, x: m.diagonal_copy(x, 1)),
    "select_copy": ([(3, 4)], lambda m, x: m.select_copy(x, 1, -1)),
    "permute_copy": ([(2, 3, 4)], lambda m, x: m.permute_copy(x, (2, 0, 1))),
    "as_strided_copy": ([(3, 4)], lambda m, x: m.as_strided_copy(x, (2, 2), (1, 2), 1)),
    "unfold_copy": ([(3, 5)], lambda m, x: m.unfold_copy(x, 1, 2, 2)),
    "squeeze_copy": ([(3, 1, 4)], lambda m, x: m.squeeze_copy(x)),
    "unsqueeze_copy": ([(3, 4)], lambda m, x: m.unsqueeze_copy(x, -1)),
    "t_copy": ([(3, 4)], lambda m, x: m.t_copy(x)),
    "transpose_copy": ([(2, 3, 4)], lambda m, x: m.transpose_copy(x, 0, 2)),
    "split_copy": ([(5, 2)], lambda m, x: m.split_copy(x, 2)),
    "split_with_sizes_copy": ([(3, 4)], lambda m, x: m.split_with_sizes_copy(x, [1, 3], 1)),
    "unbind_copy": ([(3, 4)], lambda m, x: m.unbind_copy(x, 1)),
    "narrow_copy": ([(3, 4)], lambda m, x: x.narrow_copy(1, 1, 2)),
    "narrow_copy_top": ([(3, 4)], lambda m, x: m.narrow_copy(x, 0, 1, 2)),
    "unsafe_split": ([(5, 2)], lambda m, x: m.unsafe_split(x, 2)),
    "unsafe_chunk": ([(5, 2)], lambda m, x: x.unsafe_chunk(2)),
    "unsafe_split_with_sizes": ([(3, 4)], lambda m, x: m.unsafe_split_with_sizes(x, [3, 1], 1)),
    "split_with_sizes": ([(3, 4)], lambda m, x: m.split_with_sizes(x, [1, 3], 1)),
    "atleast_1d": ([()], lambda m, x: m.atleast_1d(x)),
    "atleast_2d_many": ([(), (3,), (2, 2)], lambda m, a, b, c: m.atleast_2d(a, b, c)),
    "atleast_3d_list": ([(3,), (2, 3), (1, 2, 3, 1)], lambda m, a, b, c: m.atleast_3d([a, b, c])),
    "column_stack": ([(), (1, 2), (1,)], lambda m, a, b, c: m.column_stack([a, b, c])),
    "row_stack": ([(4,), (2, 4)], lambda m, a, b: m.row_stack((a, b))),
    "dstack": ([(3,), (1, 3), (1, 3, 2)], lambda m, a, b, c: m.dstack([a, b, c])),
    "hsplit_1d": ([(6,)], lambda m, x: m.hsplit(x, 3)),
    "hsplit_indices": ([(2, 5)], lambda m, x: x.hsplit([1, 4])),
    "vsplit": ([(4, 2)], lambda m, x: m.vsplit(x, [3])),
    "dsplit": ([(1, 2, 4)], lambda m, x: x.dsplit(2)),
    "fliplr": ([(3, 4)], lambda m, x: m.fliplr(x)),
    "block_diag": ([(2, 3), (), (2,)], lambda m, a, b, c: m.block_diag(a, b, c)),
    "broadcast_tensors": ([(3, 1), (4,), ()], lambda m, a, b, c: m.broadcast_tensors(a, b, c)),
    "cartesian_prod": ([(2,), (3,), (2,)], lambda m, a, b, c: m.cartesian_prod(a, b, c)),
    "cartesian_prod_one": ([(3,)], lambda m, a: m.cartesian_prod(a)),
    "combinations": ([(4,)], lambda m, x: m.combinations(x)),
    "combinations_r3_replacement": ([(3,)], lambda m, x: m.combinations(x, 3, with_replacement=True)),
    "combinations_none": ([(2,)], lambda m, x: m.combinations(x, r=3)),
    "diagflat": ([(2, 2)], lambda m, x: m.diagflat(x, -1)),
    "resize_keeps_graph": ([(2, 3)], lambda m, x: _quiet(lambda: x.resize(3, 2))),
    "as_subclass": ([(3,)], lambda m, x: (x * 2).as_subclass(m.Tensor)),
    "vmap_matvec": ([(3, 2, 2), (2,)], lambda m, a, b: m.vmap(lambda u, v: u @ v, in_dims=(0, None))(a, b)),
    "vmap_nested_out_dims": ([(2, 3, 4)], lambda m, x: m.vmap(m.vmap(lambda r: (r * r).sum()), out_dims=1)(x)),
    "vmap_tuple_out": ([(2, 3)], lambda m, x: m.vmap(lambda r: (r.exp(), r.sum()), in_dims=1, out_dims=(1, 0))(x)),
    "vmap_dict_kwargs": ([(4, 3)], lambda m, x: m.vmap(lambda d, k=1.0: d["x"] * k)({"x": x}, k=3.0)),
}
# torch's graph node names where minitorch records the same node (the rest are composites or copies)
SAME_NODE = {"unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes", "split_with_sizes", "fliplr", "broadcast_tensors", "hsplit_1d",
             "hsplit_indices", "vsplit", "dsplit", "as_subclass", "cartesian_prod_one"}


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


@pytest.mark.parametrize("name", sorted(SHAPE_CASES))
def test_shape_ops_match_torch(name):
    inputs, fn = SHAPE_CASES[name]
    helper_test_op(inputs, fn, check_node=name in SAME_NODE)


@pytest.mark.parametrize("fn", [
    lambda m: m.block_diag(m.tensor(1), m.tensor([2.0, 3.0]), m.ones(2, 1, dtype=m.int32)),
    lambda m: m.block_diag(),
    lambda m: m.cartesian_prod(m.tensor([1, 2]), m.tensor([3, 4])),
    lambda m: m.combinations(m.tensor([1, 2, 3]), with_replacement=True),
    lambda m: m.combinations(m.tensor([1, 2, 3]), r=0),
    lambda m: m.broadcast_shapes((2, 1), (3,), 1, ()),
    lambda m: m.broadcast_shapes(),
    lambda m: m.unravel_index(m.tensor([4, -1, 6]), (3, 2)),
    lambda m: m.unravel_index(m.tensor([[1, 5], [2, 3]], dtype=m.int32), 6),
    lambda m: m.unravel_index(m.tensor(5), (3, 2)),
    lambda m: m.tril_indices(3, 4, 1),
    lambda m: m.triu_indices(4, 3, -1, dtype=m.int32),
    lambda m: m.tril_indices(0, 0),
    lambda m: m.scalar_tensor(3),
    lambda m: m.scalar_tensor(True, dtype=m.float64),
    lambda m: m.scalar_tensor(2, dtype=m.int32),
    lambda m: _quiet(lambda: m.range(0, 1, 0.3)),
    lambda m: _quiet(lambda: m.range(3, 1, -1, dtype=m.int32)),
    lambda m: _quiet(lambda: m.range(1, 4)),
    lambda m: m.empty_strided((2, 3), (1, 2), dtype=m.float64).stride(),
    lambda m: m.empty_strided((2, 0), (5, 7)).shape,
    lambda m: m.empty_permuted((2, 3, 4), (0, 2, 1)).stride(),
    lambda m: m.ones(3).new_empty_strided((2, 2), (1, 2)).stride(),
    lambda m: m.ones(2, 3).new(2, 1).shape,
    lambda m: m.ones(2, dtype=m.int32).new([1.5, 2.5]),
    lambda m: m.ones(2).new(),
    lambda m: m.ones(2, dtype=m.int32).new(m.tensor([1, 2], dtype=m.int32)),
    lambda m: m.tensor([1.0, 2.0, 3.0]).resize_(2),
    lambda m: m.tensor([1.0, 2.0, 3.0]).resize_as_(m.ones(3, 1)),
    lambda m: m.resize_as_(m.tensor([1.0, 2.0, 3.0, 4.0]), m.ones(2, 2)),
])
def test_creation_and_shape_helpers_match_torch(fn):
    helper_test_op([], fn, grad=False)


@pytest.mark.parametrize("fn", [
    lambda m: m.hann_window(5), lambda m: m.hann_window(5, periodic=False), lambda m: m.hann_window(1),
    lambda m: m.hann_window(0), lambda m: m.hamming_window(6, True, 0.5, 0.3, dtype=m.float64),
    lambda m: m.hamming_window(5, False), lambda m: m.blackman_window(7), lambda m: m.blackman_window(6, False),
    lambda m: m.bartlett_window(5), lambda m: m.bartlett_window(6, False), lambda m: m.kaiser_window(5),
    lambda m: m.kaiser_window(6, False, 8.0, dtype=m.float64), lambda m: m.hann_window(4, requires_grad=True),
])
def test_windows_match_torch(fn):
    helper_test_op([], fn, grad=False, atol=1e-6)


def test_window_values_by_hand():
    np.testing.assert_allclose(mt.hann_window(4).numpy(), [0.0, 0.5, 1.0, 0.5], atol=1e-7)
    np.testing.assert_allclose(mt.bartlett_window(5, periodic=False).numpy(), [0.0, 0.5, 1.0, 0.5, 0.0])
    assert mt.blackman_window(3).dtype is mt.float32


ERRORS = [
    (lambda m: m.hsplit(m.tensor(1.0), 2), RuntimeError,
     "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!"),
    (lambda m: m.hsplit(m.ones(3, 4), 3), RuntimeError,
     "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 is not divisible by the "
     "split_size 3!"),
    (lambda m: m.vsplit(m.ones(3), 3), RuntimeError,
     "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!"),
    (lambda m: m.dsplit(m.ones(2, 2), 2), RuntimeError,
     "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!"),
    (lambda m: m.fliplr(m.ones(3)), RuntimeError, "Input must be >= 2-d."),
    (lambda m: m.block_diag(m.ones(2, 2, 2)), RuntimeError,
     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions"),
    (lambda m: m.broadcast_shapes((2, 3), (3, 3)), RuntimeError,
     "Attempting to broadcast a dimension of length 3 at -2! Mismatching argument at index 1 had (3, 3); but "
     "expected shape should be broadcastable to [2, 3]"),
    (lambda m: m.broadcast_tensors(m.ones(2, 3), m.ones(3, 3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda m: m.combinations(m.ones(1, 3)), RuntimeError, "Expect a 1D vector, but got shape [1, 3]"),
    (lambda m: m.cartesian_prod(m.tensor([1, 2]), m.tensor([1.0])), RuntimeError,
     "meshgrid expects all tensors to have the same dtype"),
    (lambda m: m.unravel_index(m.tensor([1.0]), (3, 2)), TypeError,
     "expected 'indices' to be integer dtype, but got minitorch.float32"),
    (lambda m: m.unravel_index(m.tensor([1]), (2, -1)), ValueError, "'shape' cannot have negative values, but got (2, -1)"),
    (lambda m: m.tril_indices(3, -1), RuntimeError, "col must be non-negative, got-1"),
    (lambda m: m.triu_indices(3, 3, dtype=m.float32), NotImplementedError, "\"triu_indices\" not implemented for 'Float'"),
    (lambda m: m.is_nonzero(m.tensor([])), RuntimeError, "Boolean value of Tensor with no values is ambiguous"),
    (lambda m: m.tensor([1, 2]).is_nonzero(), RuntimeError,
     "Boolean value of Tensor with more than one value is ambiguous"),
    (lambda m: _quiet(lambda: m.range(0, 1, 0)), RuntimeError, "step must be nonzero"),
    (lambda m: _quiet(lambda: m.range(0, 1, -1)), RuntimeError, "upper bound and lower bound inconsistent with step sign"),
    (lambda m: m.empty_strided((2, 3), (3,)), RuntimeError,
     "dimensionality of sizes (2) must match dimensionality of strides (1)"),
    (lambda m: m.empty_permuted((2, 3), (0, 0)), RuntimeError, "Duplicate dim not allowed"),
    (lambda m: m.hann_window(-1), RuntimeError, "hann_window requires non-negative window_length, got window_length=-1"),
    (lambda m: m.kaiser_window(4, dtype=m.int64), RuntimeError,
     "kaiser_window expects floating point dtypes, got: TensorOptions(dtype=long int, device=cpu, layout=Strided "
     "(default), requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))"),
    (lambda m: m.ones(2).new(m.ones(2, dtype=m.int64)), TypeError,
     "expected TensorOptions(dtype=float, device=cpu, layout=Strided, requires_grad=false (default), "
     "pinned_memory=false (default), memory_format=(nullopt)) (got TensorOptions(dtype=long int, device=cpu, "
     "layout=Strided, requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)))"),
    (lambda m: m.ones(3, requires_grad=True).resize_(2), RuntimeError, "cannot resize variables that require grad"),
    (lambda m: _quiet(lambda: m.ones(3).resize(2, 2)), RuntimeError,
     "requested resize to 2x2 (4 elements in total), but the given tensor has a size of 3 (3 elements). autograd's "
     "resize can only change the shape of a given tensor, while preserving the number of elements. "),
    (lambda m: m.ones(2, requires_grad=True).set_(m.ones(3)), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda m: _quiet(lambda: (m.ones(2, requires_grad=True) * 2).__setattr__("grad_dtype", None)), RuntimeError,
     "grad_dtype can only be set on leaf tensors."),
    (lambda m: m.finfo(m.int32), TypeError,
     "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'"),
    (lambda m: m.iinfo(m.float32), TypeError,
     "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'"),
    (lambda m: m.iinfo(m.bool), TypeError, "torch.bool is not supported by torch.iinfo"),
    (lambda m: m.layout(), TypeError, "cannot create 'minitorch.layout' instances"),
    (lambda m: m.memory_format(), TypeError, "cannot create 'minitorch.memory_format' instances"),
    (lambda m: m.set_deterministic_debug_mode("x"), RuntimeError,
     "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got x"),
    (lambda m: m.set_deterministic_debug_mode(3), RuntimeError,
     "invalid value of debug_mode, expected 0, 1, or 2, but got 3"),
    (lambda m: m.set_deterministic_debug_mode(1.5), TypeError, "debug_mode must be str or int, but got <class 'float'>"),
    (lambda m: m.set_num_interop_threads(0), RuntimeError, "set_num_interop_threads expects a positive integer"),
    (lambda m: m.set_num_interop_threads(1.5), RuntimeError, "set_num_interop_threads expects an int, but got float"),
    (lambda m: _quiet(lambda: m.set_default_tensor_type(m.LongTensor)), TypeError,
     "only floating-point types are supported as the default type"),
    (lambda m: m.frombuffer(3, dtype=m.float32), ValueError, "object does not implement Python buffer protocol."),
    (lambda m: m.frombuffer(bytearray(8), dtype=m.int32, count=3), ValueError,
     "requested buffer length (3 * 4 bytes) after offset (0 bytes) must not be greater than actual buffer length "
     "(8 bytes)"),
    (lambda m: m.frombuffer(bytearray(8), dtype=m.int32, offset=9), ValueError,
     "offset (9 bytes) must be non-negative and no greater than buffer length (8 bytes) minus 1"),
    (lambda m: m.frombuffer(bytearray(7), dtype=m.int32), ValueError,
     "buffer length (7 bytes) after offset (0 bytes) must be a multiple of element size (4)"),
    (lambda m: m.frombuffer(bytearray(8), dtype=m.int32, count=0), ValueError,
     "both buffer length (8) and count (0) must not be 0"),
    (lambda m: m.cond(m.tensor([True, False]), lambda: 1, lambda: 2), RuntimeError,
     "Expected pred to be bool or single-element tensor, but got tensor([ True, False])."),
    (lambda m: m.vmap(lambda a, b: a + b)(m.ones(2), m.ones(3)), ValueError,
     "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [2, 3] for the mapped "
     "dimension"),
    (lambda m: m.vmap(lambda a: a, in_dims=2)(m.ones(2)), ValueError,
     "vmap(<lambda>, in_dims=2, ...)(<inputs>): Got in_dim=2 for some input, but that input is a Tensor of "
     "dimensionality 1 so expected in_dim to satisfy -1 <= in_dim < 1."),
    (lambda m: m.vmap(lambda a, b: a, in_dims=0)(m.ones(2), 3), ValueError,
     "vmap(<lambda>, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is of type <class 'int'>. "
     "We cannot vmap over non-Tensor arguments, please use None as the respective in_dim"),
    (lambda m: m.vmap(lambda a: 3)(m.ones(2)), ValueError,
     "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type <class 'int'>. Did you mean to set "
     "out_dims= to None for output?"),
    (lambda m: m.vmap(lambda a: a, chunk_size=0)(m.ones(2)), ValueError,
     "vmap: chunk_size should be None or greater than 0. (got 0)"),
    (lambda m: m.vmap(lambda a: a, randomness="x")(m.ones(2)), RuntimeError,
     "Only allowed values for randomness are 'error', 'different', or 'same'. Got x"),
]


@pytest.mark.parametrize("fn,exc,msg", ERRORS)
def test_errors_match_torch(fn, exc, msg):
    check_error(fn, exc=exc, msg=msg)


def test_copy_variants_own_their_memory_and_keep_the_view_gradient():
    x = mt.arange(12.0).reshape(3, 4)
    for out in (mt.view_copy(x, (4, 3)), mt.t_copy(x), mt.alias_copy(x), *mt.split_copy(x, 2), mt.detach_copy(x)):
        assert out.is_contiguous() and not np.shares_memory(out.numpy(), x.numpy())
    leaf = mt.ones(3, 4, requires_grad=True)
    assert mt.detach_copy(leaf).grad_fn is None and not mt.detach_copy(leaf).requires_grad
    assert mt.view_copy.__name__ == "view_copy" and "view" in mt.view_copy.__doc__


def test_unsafe_split_shares_memory_and_allows_in_place_changes():
    x = mt.zeros(4, 2, requires_grad=True) * 1
    first, _ = mt.unsafe_split(x, 2)
    first.add_(1)  # torch allows this (split's views would refuse it)
    assert x[0].tolist() == [1.0, 1.0]


def test_atleast_returns_a_bare_tensor_for_one_tensor_and_tuples_otherwise():
    assert isinstance(mt.atleast_1d(mt.tensor(1.0)), mt.Tensor)
    assert isinstance(mt.atleast_1d([mt.tensor(1.0)]), tuple) and len(mt.atleast_2d(mt.ones(1), mt.ones(1))) == 2


def test_finfo_iinfo():
    f = mt.finfo(mt.float32)
    assert (f.bits, f.eps, f.tiny, f.smallest_normal, f.resolution, f.dtype) == (
        32, float(np.finfo(np.float32).eps), float(np.finfo(np.float32).tiny), f.tiny, 1e-06, "float32")
    assert mt.finfo().dtype == "float32" and mt.finfo(mt.float16).resolution == 0.001 and mt.finfo(mt.float16).max == 65504
    i = mt.iinfo(mt.int64)
    assert (i.bits, i.min, i.max, i.dtype) == (64, -2 ** 63, 2 ** 63 - 1, "int64")
    assert repr(mt.iinfo(mt.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"
    assert mt.finfo(mt.float64) == mt.finfo(mt.float64) != mt.finfo(mt.float32)


def _info(lib, kind, name, fields):
    info = getattr(lib, kind)(getattr(lib, name))
    return repr(info), {field: getattr(info, field) for field in fields}


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_torch(name):
    args = "finfo", name, ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
    assert _info(mt, *args) == torch_answer(_info, *args)


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_torch(name):
    args = "iinfo", name, ("bits", "min", "max", "dtype")
    assert _info(mt, *args) == torch_answer(_info, *args)


def test_layout_and_memory_format_constants():
    assert isinstance(mt.strided, mt.layout) and mt.ones(2).layout is mt.strided and repr(mt.strided) == "minitorch.strided"
    for name in ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d"):
        assert isinstance(getattr(mt, name), mt.memory_format) and repr(getattr(mt, name)) == "minitorch." + name
    import pickle
    assert pickle.loads(pickle.dumps(mt.channels_last)) is mt.channels_last


def test_exceptions_have_torch_bases():
    assert issubclass(mt.AcceleratorError, RuntimeError) and issubclass(mt.OutOfMemoryError, RuntimeError)
    assert issubclass(mt.FatalError, Exception) and not issubclass(mt.FatalError, RuntimeError)
    assert issubclass(mt.JITException, Exception) and not issubclass(mt.JITException, RuntimeError)
    assert mt.GradScaler is mt.amp.GradScaler


def test_tensor_predicates_and_properties():
    x = mt.ones(2, 3)
    assert x.is_cpu and x.name is None and not x.is_shared() and x.get_device() == mt.get_device(x) == -1
    assert x.dim_order() == (0, 1) and mt.ones(2, 3, 4).permute(1, 2, 0).dim_order() == (2, 0, 1)
    assert x.const_data_ptr() == x.data_ptr() and x.grad_dtype is mt.float32
    assert mt.is_same_size(x, mt.zeros(2, 3)) and not x.is_same_size(x.t())
    assert mt.is_signed(x) and mt.tensor([1], dtype=mt.int8).is_signed() and not mt.tensor([1], dtype=mt.uint8).is_signed()
    assert not mt.tensor([True]).is_signed()
    assert mt.is_nonzero(mt.tensor([2])) and not mt.tensor(0.0).is_nonzero()
    assert not mt.is_inference(x)
    with mt.inference_mode():
        assert mt.is_inference(mt.ones(1))
    with pytest.warns(UserWarning, match="volatile was removed"):
        assert x.volatile is False
    with pytest.raises(RuntimeError, match="^reinforce\\(\\) was removed"):
        x.reinforce(1.0)


def test_grad_dtype_none_accepts_a_gradient_of_another_dtype():
    x = mt.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad_dtype"):
        x.grad = mt.ones(2, dtype=mt.float64)
    x.grad_dtype = None
    x.grad = mt.ones(2, dtype=mt.float64)
    assert x.grad_dtype is None and x.grad.dtype is mt.float64


def test_set_and_is_set_to():
    a, b = mt.zeros(2, 3), mt.arange(4.0)
    assert a.set_(b) is a and a.is_set_to(b) and a._version == 1
    a.add_(1)
    assert b.tolist() == [1.0, 2.0, 3.0, 4.0] and not b.is_set_to(b.view(2, 2))
    assert a.set_().shape == (0,)


def test_resize_keeps_memory_when_shrinking_and_zero_fills_when_growing():
    x = mt.arange(6.0)
    y = x[:]
    x.resize_(2, 2)
    assert x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and np.shares_memory(x.numpy(), y.numpy())
    assert x.resize_(5).tolist() == [0.0, 1.0, 2.0, 3.0, 0.0]


def test_as_subclass_and_module_load():
    class Sub(mt.Tensor):
        pass
    x = mt.ones(3, requires_grad=True)
    s = x.as_subclass(Sub)
    assert type(s) is Sub and s.grad_fn is not None and np.shares_memory(s.detach().numpy(), x.detach().numpy())
    (s * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    p, other = mt.zeros(3), mt.arange(3.0)
    assert p.module_load(other).tolist() == [0.0, 1.0, 2.0] and p.tolist() == [0.0, 1.0, 2.0]
    assert p.module_load(other, assign=True).data_ptr() == other.data_ptr()


def test_frombuffer_shares_memory_and_from_file_reads(tmp_path):
    buf = bytearray(np.arange(4, dtype=np.int32).tobytes())
    t = mt.frombuffer(buf, dtype=mt.int32, count=2, offset=4)
    assert t.tolist() == [1, 2]
    t[0] = 7
    assert np.frombuffer(buf, np.int32)[1] == 7
    with pytest.warns(UserWarning, match="not writable"):
        assert mt.frombuffer(b"\x01\x00", dtype=mt.int16).tolist() == [1]
    path = tmp_path / "f.bin"
    np.arange(5, dtype=np.float32).tofile(path)
    assert mt.from_file(str(path), size=3).tolist() == [0.0, 1.0, 2.0]
    assert mt.from_file(str(path), shared=False, size=2, dtype=mt.float64).numpy().tolist() == \
        np.arange(4, dtype=np.float32).view(np.float64).tolist()
    assert mt.from_file(str(path)).shape == (0,)
    with pytest.raises(RuntimeError, match=r"^file <.*f\.bin> size <20> is smaller than the required mapping size <24>$"):
        mt.from_file(str(path), size=6)
    with pytest.raises(RuntimeError, match="^unable to open file <.*nope> in read-only mode: No such file"):
        mt.from_file(str(tmp_path / "nope"), size=1)
    with pytest.raises(RuntimeError, match="shared=True"):
        mt.from_file(str(path), shared=True, size=1)


@pytest.mark.skipif(torch is None, reason="exchanges tensors with torch")
def test_dlpack_round_trips_share_memory():
    x = mt.arange(6.0).reshape(2, 3)
    t = torch.from_dlpack(x)
    t.add_(1)
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    y = mt.from_dlpack(torch.arange(3))
    assert y.dtype is mt.int64 and y.tolist() == [0, 1, 2]
    z = mt.from_dlpack(mt.to_dlpack(x))
    assert z.data_ptr() == x.data_ptr() and torch.from_dlpack(mt.to_dlpack(x)).tolist() == x.tolist()


def test_dlpack_without_torch():
    a = np.arange(3.0)
    t = mt.from_dlpack(a)
    assert t.data_ptr() == a.__array_interface__["data"][0]
    assert np.from_dlpack(mt.ones(2)).tolist() == [1.0, 1.0]


def test_vmap_randomness_same_gives_every_slice_the_same_numbers():
    mt.manual_seed(0)
    same = mt.vmap(lambda r: r + mt.rand(3), randomness="same")(mt.zeros(2, 3))
    assert same[0].tolist() == same[1].tolist()
    different = mt.vmap(lambda r: r + mt.rand(3), randomness="different")(mt.zeros(2, 3))
    assert different[0].tolist() != different[1].tolist()


def test_vmap_is_differentiable_twice():
    x = mt.tensor(np.random.default_rng(0).uniform(0.5, 1.5, (3, 4)), requires_grad=True)
    f = mt.vmap(lambda r: (r.exp() * r).sum())
    assert mt.autograd.gradcheck(f, (x,)) and mt.autograd.gradgradcheck(f, (x,))


def test_while_loop_and_cond_values():
    i, t = mt.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * 2), (mt.tensor(0), mt.ones(2)))
    assert i.item() == 3 and t.tolist() == [8.0, 8.0]
    assert mt.cond(mt.tensor([1]), lambda: mt.ones(1), lambda: mt.zeros(1)).tolist() == [1.0]


def test_settings_switches():
    assert mt.set_flush_denormal(True) is False  # numpy cannot set the CPU's flush-to-zero mode
    assert mt.init_num_threads() is None and mt.thread_safe_generator() is None
    assert not mt.is_warn_always_enabled()
    mt.set_warn_always(True)
    assert mt.is_warn_always_enabled()
    mt.set_warn_always(False)
    assert mt.get_deterministic_debug_mode() == 0
    try:
        for mode, want in (("warn", (1, True, True)), (2, (2, True, False)), ("default", (0, False, False))):
            mt.set_deterministic_debug_mode(mode)
            assert (mt.get_deterministic_debug_mode(), mt.are_deterministic_algorithms_enabled(),
                    mt.is_deterministic_algorithms_warn_only_enabled()) == want
        mt.use_deterministic_algorithms(True, warn_only=True)
        assert mt.get_deterministic_debug_mode() == 1
    finally:
        mt.use_deterministic_algorithms(False)
    try:
        mt.set_anomaly_enabled(True, check_nan=False)
        assert mt.is_anomaly_enabled() and not mt.is_anomaly_check_nan_enabled()
    finally:
        mt.set_anomaly_enabled(False)
    assert not mt.is_anomaly_enabled() and mt.is_anomaly_check_nan_enabled()


def test_set_default_tensor_type_warns_and_sets_the_default_dtype():
    try:
        with pytest.warns(UserWarning, match="set_default_tensor_type\\(\\) is deprecated"):
            mt.set_default_tensor_type(mt.DoubleTensor)
        assert mt.get_default_dtype() is mt.float64 and mt.ones(1).dtype is mt.float64
        with pytest.warns(UserWarning):
            mt.set_default_tensor_type("torch.FloatTensor")
        assert mt.get_default_dtype() is mt.float32
    finally:
        mt.set_default_dtype(mt.float32)


def test_interop_threads_can_be_set_once():
    from minitorch import _settings
    saved = _settings._state["interop_threads"]
    _settings._state["interop_threads"] = None  # as in a fresh process
    try:
        assert mt.get_num_interop_threads() >= 1
        mt.set_num_interop_threads(3)
        assert mt.get_num_interop_threads() == 3
        with pytest.raises(RuntimeError, match="^Error: cannot set number of interop threads after parallel work has "
                                               "started or set_num_interop_threads called$"):
            mt.set_num_interop_threads(2)
    finally:
        _settings._state["interop_threads"] = saved
