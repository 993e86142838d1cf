"""Ops real programs use beyond the core set: sorting and selection, triangles, roll,
vector norms, einsum, matmul(out=), range indices, the same tensor named twice in autograd.grad;
values, dtypes, node names and gradients against PyTorch, errors with its texts."""
import numpy as np
import pytest

import minitorch
from op_helper import check_error, floats, helper_test_op
from torch_answers import torch_answer

f32 = np.float32
TIES = np.array([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 5.0, -1.0], [2.0, 2.0, 2.0, 2.0]], f32)


def case(name, fn, *inputs, **opts):
    return pytest.param(fn, inputs, opts, id=name)


CASES = [
    case("sort", lambda t, x: t.sort(x), (3, 5)),
    case("sort-dim0-desc", lambda t, x: x.sort(0, descending=True), (4, 3)),
    case("sort-ties-stable", lambda t, x: t.sort(x, stable=True), TIES),
    case("sort-ties-desc", lambda t, x: t.sort(x, descending=True, stable=True), TIES),
    case("sort-0d", lambda t, x: t.sort(x), ()),
    case("argsort", lambda t, x: x.argsort(dim=0, descending=True, stable=True), TIES),
    case("topk", lambda t, x: t.topk(x, 2), (3, 5)),
    case("topk-smallest-dim0", lambda t, x: x.topk(3, dim=0, largest=False), (4, 3)),
    case("topk-distinct", lambda t, x: t.topk(x, 2, dim=1), np.array([[3.0, 1.0, 2.0, 0.0], [0.0, 5.0, 4.0, -1.0]], f32)),
    case("tril", lambda t, x: t.tril(x), (3, 4)),
    case("triu-batch-diag", lambda t, x: t.triu(x, 1), (2, 3, 3)),
    case("tril-neg", lambda t, x: x.tril(-1), (4, 3)),
    case("tril_", lambda t, x: x.clone().tril_(1), (3, 3)),
    case("triu_", lambda t, x: x.clone().triu_(), (3, 3)),
    case("unsqueeze_", lambda t, x: (x * 1).unsqueeze_(-1), (2, 3)),
    case("squeeze_-all", lambda t, x: (x * 1).squeeze_(), (2, 1, 3, 1)),
    case("squeeze_-dim", lambda t, x: (x * 1).squeeze_(1), (2, 1, 3)),
    case("squeeze_-dims", lambda t, x: (x * 1).squeeze_((1, 3)), (2, 1, 3, 1)),
    case("transpose_", lambda t, x: (x * 1).transpose_(0, 2), (2, 3, 4)),
    case("swapdims_", lambda t, x: (x * 1).swapdims_(0, 1), (2, 3)),
    case("t_", lambda t, x: (x * 1).t_(), (2, 3)),
    case("roll-flat", lambda t, x: t.roll(x, 2), (3, 4)),
    case("roll-dims", lambda t, x: x.roll((1, -1), (0, 1)), (3, 4)),
    case("roll-neg-dim", lambda t, x: x.roll(5, -1), (2, 3)),
    case("norm", lambda t, x: x.norm(), (3, 4)),
    case("norm-dim", lambda t, x: t.norm(x, dim=1), (3, 4)),
    case("norm-p1-keepdim", lambda t, x: x.norm(p=1, dim=0, keepdim=True), (3, 4)),
    case("norm-p3", lambda t, x: x.norm(p=3, dim=(0, 1)), (3, 4)),
    case("norm-inf-ties", lambda t, x: x.norm(p=float("inf"), dim=1), TIES),
    case("norm-neginf", lambda t, x: t.linalg.vector_norm(x, ord=float("-inf"), dim=0), (3, 4)),
    case("norm-zero-vector", lambda t, x: (x * 0).norm(dim=1), (2, 3)),
    case("vector_norm-p0", lambda t, x: t.linalg.vector_norm(x, ord=0), (3, 4)),
    case("linalg.norm", lambda t, x: t.linalg.norm(x), (3, 4)),
    case("norm-float64", lambda t, x: x.norm(dim=0), (3, 4), dtype=np.float64),
]
LINALG = [
    case("inv", lambda t, a: t.linalg.inv(a + 3 * t.eye(3)), (3, 3)),
    case("inverse-batch", lambda t, a: (a + 3 * t.eye(3)).inverse(), (2, 3, 3)),
    case("det", lambda t, a: t.linalg.det(a), (3, 3)),
    case("det-batch", lambda t, a: a.det(), (2, 3, 3)),
    case("slogdet", lambda t, a: t.linalg.slogdet(a).logabsdet, (3, 3)),
    case("logdet-spd", lambda t, a: t.logdet(a @ a.mT + t.eye(3)), (3, 3)),
    case("solve", lambda t, a, b: t.linalg.solve(a + 3 * t.eye(3), b), (3, 3), (3, 2)),
    case("solve-vector", lambda t, a, b: t.linalg.solve(a + 3 * t.eye(3), b), (3, 3), (3,)),
    case("solve-batch-broadcast", lambda t, a, b: t.linalg.solve(a + 3 * t.eye(3), b), (2, 3, 3), (3, 2)),
    case("cholesky", lambda t, a: t.linalg.cholesky(a @ a.mT + t.eye(3)), (3, 3)),
    case("solve_triangular", lambda t, a, b: t.linalg.solve_triangular(a.triu() + 3 * t.eye(3), b, upper=True),
         (3, 3), (3, 2)),
]
# written with other ops: values and gradients as torch's, nodes those of the ops they are made of
COMPOSED = [
    case("diagonal", lambda t, x: x.diagonal(1), (3, 4)),
    case("diagonal-dims", lambda t, x: t.diagonal(x, -1, 0, 2), (3, 2, 4)),
    case("diag-vector", lambda t, x: t.diag(x, -1), (3,)),
    case("diag-matrix", lambda t, x: t.diag(x), (3, 4)),
    case("diag_embed", lambda t, x: t.diag_embed(x, 1), (2, 3)),
    case("trace", lambda t, x: t.trace(x), (3, 4)),
    case("repeat_interleave", lambda t, x: x.repeat_interleave(2, dim=1), (2, 3)),
    case("repeat_interleave-flat", lambda t, x: t.repeat_interleave(x, 3), (2, 2)),
    case("take", lambda t, x: t.take(x, t.tensor([[0, 5], [3, 3]])), (2, 3)),
    case("rot90", lambda t, x: t.rot90(x, 1, (0, 1)), (2, 3)),
    case("rot90-k3", lambda t, x: x.rot90(3, (1, 2)), (2, 3, 4)),
    case("meshgrid-ij", lambda t, x, y: t.meshgrid(x, y, indexing="ij"), (2,), (3,)),
    case("meshgrid-xy", lambda t, x, y: t.meshgrid(x, y, indexing="xy"), (2,), (3,)),
    case("cross", lambda t, x, y: t.cross(x, y, dim=1), (2, 3), (2, 3)),
    case("linalg.cross", lambda t, x, y: t.linalg.cross(x, y), (4, 3), (4, 3)),
    case("kron", lambda t, x, y: t.kron(x, y), (2, 3), (3, 2)),
    case("cdist", lambda t, x, y: t.cdist(x, y), (3, 4), (2, 4)),
    case("cdist-p1-batch", lambda t, x, y: t.cdist(x, y, p=1), (2, 3, 4), (2, 2, 4)),
    case("median", lambda t, x: x.median(), (3, 5)),
    case("median-dim", lambda t, x: t.median(x, 1), (3, 5)),
    case("lerp", lambda t, x, y: t.lerp(x, y, 0.3), (3, 4), (3, 4)),
    case("lerp-tensor-weight", lambda t, x, y, w: x.lerp(y, w), (3, 4), (3, 4), (4,)),
    case("addcmul", lambda t, x, y, z: t.addcmul(x, y, z, value=0.5), (3, 4), (3, 4), (4,)),
    case("addcdiv", lambda t, x, y, z: x.addcdiv(y, z, value=2), (3, 4), (3, 4), floats((4,), 1.0, 2.0)),
    case("nan_to_num", lambda t, x: t.nan_to_num(x / (x > 0), nan=0.5), (3, 4)),
]
COUNTS = [
    case("unique", lambda t, x: t.unique(x, return_inverse=True, return_counts=True), np.array([3, 1, 3, 2])),
    case("bincount", lambda t, x: t.bincount(x, minlength=6), np.array([0, 1, 1, 3])),
    case("bincount-weights", lambda t, x, w: t.bincount(x, w), np.array([0, 1, 1, 3]), np.array([0.5, 1, 2, 3], f32)),
    case("histc", lambda t, x: t.histc(x, bins=5), (20,)),
    case("searchsorted", lambda t, s, v: t.searchsorted(s, v, right=True), np.array([1, 3, 5]), np.array([3, 0, 6])),
    case("bucketize", lambda t, v, b: t.bucketize(v, b), np.array([0.5, 3.0], f32), np.array([1.0, 2.0, 3.0], f32)),
]
EINSUM = [
    case("einsum-mm", lambda t, a, b: t.einsum("ij,jk->ik", a, b), (2, 3), (3, 4)),
    case("einsum-batch", lambda t, a, b: t.einsum("bij,bjk->bik", a, b), (2, 2, 3), (2, 3, 4)),
    case("einsum-ellipsis-implicit", lambda t, a, b: t.einsum("...ij,jk", a, b), (5, 2, 3), (3, 4)),
    case("einsum-sum-one-operand", lambda t, a: t.einsum("ij->j", a), (3, 4)),
    case("einsum-outer", lambda t, a, b: t.einsum("i,j->ij", a, b), (3,), (4,)),
    case("einsum-list", lambda t, a, b: t.einsum("ij,ij->i", [a, b]), (3, 4), (3, 4)),
    case("einsum-unshared-index", lambda t, a, b: t.einsum("ij,kl->jk", a, b), (2, 3), (4, 5)),
    case("einsum-spaces-transpose", lambda t, a: t.einsum("b i j -> b j i", a), (2, 3, 4)),
]


@pytest.mark.parametrize("fn,inputs,opts", CASES)
def test_ops_match_torch(fn, inputs, opts):
    helper_test_op(inputs, fn, **opts)


@pytest.mark.parametrize("fn,inputs,opts", LINALG)
def test_linalg_matches_torch(fn, inputs, opts):
    helper_test_op(inputs, fn, dtype=np.float64, **opts)


@pytest.mark.parametrize("fn,inputs,opts", COMPOSED)
def test_composed_ops_match_torch(fn, inputs, opts):
    helper_test_op(inputs, fn, check_node=False, **opts)


@pytest.mark.parametrize("fn,inputs,opts", COUNTS)
def test_counting_ops_match_torch(fn, inputs, opts):
    helper_test_op(inputs, fn, grad=False, **opts)


@pytest.mark.parametrize("fn,inputs,opts", EINSUM)
def test_einsum_matches_torch(fn, inputs, opts):
    helper_test_op(inputs, fn, check_node=False, **opts)  # torch's nodes are the bmm/view it lowers to


@pytest.mark.parametrize("fn, inputs, exc, msg", [
    (lambda t, x: t.topk(x, 5), ((2, 4),), RuntimeError, "selected index k out of range"),
    (lambda t, x: t.linalg.inv(x), ((2, 3),), RuntimeError,
     "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda t, x: t.linalg.det(x), ((3,),), RuntimeError, "linalg.det: The input tensor A must have at least 2 dimensions."),
    (lambda t, x: x.requires_grad_().unsqueeze_(0), ((2,),), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
    (lambda t, x: (x * 1).t_(), ((2, 3, 4),), RuntimeError, "t_() expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda t, x: t.tril(x), ((3,),), RuntimeError, "tril: input tensor must have at least 2 dimensions"),
    (lambda t, x: x.triu(), ((3,),), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    (lambda t, x: t.roll(x, (1, 2)), ((2, 3),), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    (lambda t, x: t.roll(x, 1, (0, 1)), ((2, 3),), RuntimeError,
     "shifts and dimensions must align. shifts: 1, dims:2"),
    (lambda t, x: t.linalg.vector_norm(x.long()), ((2, 3),), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
])
def test_errors_match_torch(fn, inputs, exc, msg):
    check_error(fn, *inputs, exc=exc, msg=msg)


def test_norm_gradients_hand_derived():
    x = minitorch.tensor([[3.0, -4.0], [0.0, 0.0]], requires_grad=True)
    x.norm(dim=1).sum().backward()  # x / |x|, and 0 for the zero row (torch's subgradient)
    assert x.grad.tolist() == [[pytest.approx(0.6), pytest.approx(-0.8)], [0.0, 0.0]]
    z = minitorch.tensor([2.0, -2.0, 1.0], requires_grad=True)
    z.norm(p=float("inf")).backward()  # the maximum is shared by the two ties
    assert z.grad.tolist() == [0.5, -0.5, 0.0]


def test_sort_and_topk_without_torch():
    x = minitorch.tensor(TIES)
    values, indices = minitorch.sort(x, descending=True)
    assert indices.tolist() == [[0, 2, 1, 3], [1, 2, 0, 3], [0, 1, 2, 3]]
    assert values.tolist() == np.sort(TIES, 1)[:, ::-1].tolist()
    assert minitorch.topk(x, 1).indices.tolist() == [[0], [1], [0]]
    y = minitorch.tensor(TIES, requires_grad=True)
    y.topk(2).values.sum().backward()
    assert y.grad.tolist() == [[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]]


def test_einsum_without_torch():
    a, b = floats((2, 3)), floats((3, 4))
    ta, tb = minitorch.tensor(a, requires_grad=True), minitorch.tensor(b, requires_grad=True)
    out = minitorch.einsum("ij,jk->ik", ta, tb)
    np.testing.assert_allclose(out.detach().numpy(), a @ b, rtol=1e-6, atol=1e-5)  # float32 sums, any order
    out.sum().backward()
    np.testing.assert_allclose(ta.grad.numpy(), np.ones((2, 4), f32) @ b.T, rtol=1e-6, atol=1e-5)
    with pytest.raises(NotImplementedError, match="repeated index"):
        minitorch.einsum("ii->i", minitorch.ones(2, 2, requires_grad=True)).sum().backward()


def test_matmul_out_and_range_index():
    a, b = minitorch.ones(2, 3), minitorch.ones(3, 2)
    out = minitorch.zeros(2, 2)
    assert minitorch.matmul(a, b, out=out) is out and out.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    x = minitorch.arange(12.0).reshape(4, 3)
    assert x[range(1, 3)].tolist() == [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]


def test_grad_of_a_tensor_named_twice():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    g1, g2 = minitorch.autograd.grad((x * x).sum(), (x, x))
    assert g1.tolist() == g2.tolist() == [2.0, 4.0]


def test_matmul_and_reshape_take_arrays_inside_backward_formulas():
    a, b = floats((2, 3, 4)), floats((2, 4, 5))
    out = minitorch.matmul(a, b)
    assert type(out) is np.ndarray
    np.testing.assert_allclose(out, a @ b, rtol=1e-6)
    assert minitorch._ops.shape.view.reshape(floats((2, 3)).T, 6).shape == (6,)


def _product_and_gradients(lib, a, b):
    x = lib.tensor(np.arange(1.0, 1 + np.prod(a)).reshape(a), requires_grad=True)
    y = lib.tensor(np.arange(2.0, 2 + np.prod(b)).reshape(b), requires_grad=True)
    out = lib.matmul(x, y)
    out.sum().backward()
    return [t.detach().numpy() for t in (out, x.grad, y.grad)]


@pytest.mark.parametrize("a, b", [((2, 3, 1), (2, 1, 0)), ((2, 3, 0), (2, 0, 4)), ((2, 0, 3), (2, 3, 4)),
                                  ((2, 1, 3, 1), (3, 1, 0)), ((2, 3, 0), (0, 4)), ((0, 3, 4), (4,))])
def test_matmul_with_an_empty_dim(a, b):
    """Batched products where a size is 0 (householder_product's last reflector meets one): an empty sum is 0."""
    for mine, theirs in zip(_product_and_gradients(minitorch, a, b), torch_answer(_product_and_gradients, a, b)):
        assert mine.shape == theirs.shape and np.array_equal(mine, theirs)
