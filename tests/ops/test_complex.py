"""Complex tensors: dtypes and promotion, printing, the complex ops and the gradients of the core ops on
complex data (against PyTorch), linalg.eig/eigvals, and the names minitorch refuses (chalf, torch.eig).

Complex inputs are made inside the compared functions as ``view_as_complex`` of a real (..., 2) array, and
complex outputs compared through ``view_as_real``: the helpers then compare gradients w.r.t. real leaves."""
import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error, helper_test_op
from torch_answers import torch_answer


def as_real(lib, y):
    return lib.view_as_real(y.resolve_conj()) if y.is_complex() else y


def on_complex(fn):
    """``fn(lib, *complex_tensors)`` on complex inputs given as real (..., 2) arrays, compared as real tensors."""
    return lambda lib, *xs: as_real(lib, fn(lib, *[lib.view_as_complex(x) for x in xs]))


def test_complex_dtypes():
    assert mt.cfloat is mt.complex64 and mt.cdouble is mt.complex128
    assert mt.complex64.is_complex and not mt.complex64.is_floating_point and mt.complex64.itemsize == 8
    assert repr(mt.complex128) == "minitorch.complex128"
    assert mt.tensor([1 + 2j]).dtype is mt.complex64
    assert mt.tensor([1, 2.5j], dtype=mt.complex128).dtype is mt.complex128
    assert mt.from_numpy(np.ones(2, np.complex128)).dtype is mt.complex128
    assert mt.tensor([1 + 2j]).type() == "torch.ComplexFloatTensor"
    assert mt.tensor([1.0]).cdouble().dtype is mt.complex128 and mt.tensor([1]).cfloat().dtype is mt.complex64
    assert mt.is_complex(mt.zeros(2, dtype=mt.cfloat)) and not mt.zeros(2).is_complex()


@pytest.mark.parametrize("a, b, expected", [
    ("float64", "complex64", "complex128"), ("int64", "complex64", "complex64"), ("float16", "complex64", "complex64"),
    ("complex128", "complex64", "complex128"), ("bool", "complex128", "complex128"),
])
def test_promote_types(a, b, expected):
    assert mt.promote_types(getattr(mt, a), getattr(mt, b)) is getattr(mt, expected)


def test_result_types_with_numbers_and_zero_dim_tensors():
    helper_test_op([(3,)], lambda L, x: as_real(L, x.double() * 1j), grad=False)
    helper_test_op([(3,)], lambda L, x: as_real(L, x.int() + 2j), grad=False)
    helper_test_op([(3,)], lambda L, x: as_real(L, x * L.tensor(1j, dtype=L.complex128)), grad=False)
    helper_test_op([(3,)], lambda L, x: as_real(L, x.long() * L.tensor(1j, dtype=L.complex128)), grad=False)
    helper_test_op([(3, 2)], on_complex(lambda L, z: z * L.tensor(2.0, dtype=L.float64)), grad=False)
    assert (mt.ones(2, dtype=mt.float64) * 1j).dtype is mt.complex128
    assert mt.result_type(mt.ones(2), 1j) is mt.complex64


PRINTED = [
    (lambda L: L.tensor([1 + 2j, 3 - 1j]), "tensor([1.+2.j, 3.-1.j])"),
    (lambda L: L.tensor([[1.5 + 2j, 3 - 1e-5j], [1e6j, 0]]),
     "tensor([[1.5000+2.0000e+00j, 3.0000-1.0000e-05j],\n        [0.0000+1.0000e+06j, 0.0000+0.0000e+00j]])"),
    (lambda L: L.tensor(1 + 1j), "tensor(1.+1.j)"),
    (lambda L: L.tensor(-0.5 - 1j, dtype=L.complex128), "tensor(-0.5000-1.j, dtype=torch.complex128)"),
    (lambda L: L.zeros(2, dtype=L.cfloat), "tensor([0.+0.j, 0.+0.j])"),
    (lambda L: L.zeros(0, dtype=L.cfloat), "tensor([], dtype=torch.complex64)"),
    (lambda L: L.tensor([float("nan") + 1j, float("inf") - 2.5j]), "tensor([nan+1.0000j, inf-2.5000j])"),
    (lambda L: L.tensor([1 + 1j], requires_grad=True) * 2, "tensor([2.+2.j], grad_fn=<MulBackward0>)"),
    (lambda L: L.fft.rfft(L.arange(3000.0, dtype=L.float64) / 7)[:2],
     "tensor([ 6.4264e+05+0.0000j, -2.1429e+02+204627.7092j], dtype=torch.complex128)"),
]


@pytest.mark.parametrize("make, text", PRINTED)
def test_printing_as_torch(make, text):
    assert repr(make(mt)).replace("minitorch.", "torch.") == text
    assert torch_answer(lambda torch, make: repr(make(torch)), make) == text  # the expectation is torch's


def test_printing_long_complex_tensors_wraps_and_summarizes_as_torch():
    values = (np.arange(24.0) / 7 - 1.5) * (1 - 0.5j)
    for shape, n in (((4, 6), 24), ((1500,), 1500)):
        data = np.resize(values, n).reshape(shape)
        assert repr(mt.tensor(data, dtype=mt.complex128)).replace("minitorch.", "torch.") == torch_answer(
            lambda torch, data: repr(torch.tensor(data, dtype=torch.complex128)), data)


@pytest.mark.parametrize("name, fn", [
    ("real", lambda L, z: z.real),
    ("imag", lambda L, z: z.imag),
    ("real fn", lambda L, z: L.real(z) * L.imag(z)),
    ("conj", lambda L, z: z.conj()),
    ("conj_physical", lambda L, z: L.conj_physical(z)),
    ("abs", lambda L, z: z.abs()),
    ("power spectrum", lambda L, z: z.abs() ** 2),
    ("angle", lambda L, z: z.angle()),
    ("sgn", lambda L, z: z.sgn()),
    ("mul", lambda L, z: z * z.flip(0) * (2 - 1j)),
    ("mul real", lambda L, z: z * z.real),
    ("div", lambda L, z: (z + 3) / (z * z + 2)),
    ("div by number", lambda L, z: z / (1 + 2j) - 1j / (z.abs() + 1)),
    ("add sub", lambda L, z: z + z.flip(0) - 2j * z),
    ("pow 2", lambda L, z: z ** 2),
    ("pow 3", lambda L, z: z ** 3),
    ("square", lambda L, z: z * z.conj()),
    ("sum mean", lambda L, z: z.sum(0) + z.mean(1, keepdim=True)),
    ("matmul", lambda L, z: z @ z.mT),
    ("mv", lambda L, z: L.mv(z, z[0])),
    ("einsum outer kron", lambda L, z: L.einsum("ij,jk->ik", z, z * 1j) + L.outer(z[0], z[1]) + L.kron(z[0], z[2])[:3]),
    ("dot", lambda L, z: L.dot(z[0], z[1]) * z),
    ("to real", lambda L, z: z.to(L.float64) if z.dtype == L.complex128 else z.float()),
])
def test_ops_on_complex_tensors_match_torch(name, fn):
    helper_test_op([(3, 3, 2)], on_complex(fn), check_node=False)
    helper_test_op([(3, 3, 2)], on_complex(fn), dtype=np.float64, check_node=False)


def test_making_complex_tensors_from_real_ones():
    helper_test_op([(3, 4), (3, 4)], lambda L, a, b: L.view_as_real(L.complex(a, b) * (1 + 1j)))
    helper_test_op([(3, 1), (4,)], lambda L, a, b: L.view_as_real(L.complex(a, b)))
    helper_test_op([(3, 4), (3, 4)], lambda L, a, b: L.view_as_real(L.polar(a.abs() + 0.5, b)))
    helper_test_op([(3, 4, 2)], lambda L, x: L.view_as_real(L.view_as_complex(x) * 1j))
    helper_test_op([(3, 4)], lambda L, x: L.view_as_real(x.cfloat() * (1 - 1j)))
    helper_test_op([(3, 4)], lambda L, x: x.angle(), dtype=np.float64)
    helper_test_op([np.array([-1, 0, 2])], lambda L, x: x.angle())


def test_views_share_memory():
    z = mt.tensor([1 + 2j, 3 + 4j])
    z.real.mul_(2)
    z.imag[0] = 5
    assert z.tolist() == [2 + 5j, 6 + 4j]
    pairs = mt.view_as_real(z)
    pairs[1, 1] = -1
    assert z[1].item() == 6 - 1j
    back = mt.view_as_complex(pairs)
    back[0] = 0
    assert z[0].item() == 0 and mt.view_as_real(z[1:]).shape == (1, 2)
    z.real = mt.ones(2)
    z.imag = 3
    assert z.tolist() == [1 + 3j, 1 + 3j]


def test_gradcheck_of_complex_functions():
    z = mt.tensor(np.array([[1 + 2j, -0.5 + 1j], [0.3 - 1j, 2 + 0.1j]]), requires_grad=True)
    for fn in (lambda z: z * z.conj() * (1 + 1j), lambda z: z.abs() / (z + 3), lambda z: z.angle() * z.sgn(),
               lambda z: (z @ z.mT) ** 2, lambda z: mt.view_as_real(z).sum(-1)):
        assert gradcheck(fn, (z,)) and gradgradcheck(fn, (z,))


def test_gradients_reach_real_leaves_as_real_numbers():
    x = mt.tensor([1.0, 2.0], dtype=mt.float64, requires_grad=True)
    (x * 1j).imag.sum().backward()
    assert x.grad.dtype is mt.float64 and x.grad.tolist() == [1.0, 1.0]
    z = mt.tensor([3 + 4j], requires_grad=True)
    z.abs().sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), [0.6 + 0.8j])  # d|z| = (dRe + i dIm)|z| = z / |z|


def test_errors_match_torch():
    check_error(lambda L, x: x.imag, (3,), exc=RuntimeError,
                msg="imag is not implemented for tensors with non-complex dtypes.")
    check_error(lambda L, x: L.view_as_complex(x).sign(), (3, 2), exc=NotImplementedError,
                msg="Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn "
                    "instead.")
    check_error(lambda L, x: L.view_as_complex(x), (3, 3), exc=RuntimeError,
                msg="Tensor must have a last dimension of size 2")
    check_error(lambda L, x: L.view_as_complex(x.t()), (2, 3), exc=RuntimeError,
                msg="Tensor must have a last dimension with stride 1")
    check_error(lambda L, x: L.view_as_complex(x[:, :2]), (3, 3), exc=RuntimeError,
                msg="Tensor must have a stride divisible by 2 for all but last dimension")
    check_error(lambda L, x: L.view_as_complex(x.long()), (3, 2), exc=RuntimeError,
                msg="view_as_complex is only supported for half, float and double tensors, but got a tensor of "
                    "scalar type: Long")
    check_error(lambda L, x: L.complex(x, x.double()), (3,), exc=RuntimeError,
                msg="Expected object of scalar type Float but got scalar type Double for second argument")
    check_error(lambda L, x: (x * 1j).sum().backward(), (3,), grad=True, exc=RuntimeError,
                msg="grad can be implicitly created only for real scalar outputs but got torch.complex64")


def _eig(lib, a):
    """eig's values and squared moduli of the vectors, and the gradients of losses that do not depend on the
    eigenvectors' arbitrary phases, through eig and eigvals."""
    x = lib.tensor(a, requires_grad=True)
    values, vectors = lib.linalg.eig(x)
    (lib.view_as_real(values).sum() + (vectors.abs() ** 2 * lib.tensor(np.arange(16.0).reshape(4, 4))).sum()).backward()
    y = lib.tensor(a, requires_grad=True)
    lib.linalg.eigvals(y).abs().sum().backward()
    return [values.detach().numpy(), (vectors.abs() ** 2).detach().numpy(), x.grad.numpy(), y.grad.numpy()]


def test_linalg_eig_matches_torch():
    a = np.random.default_rng(0).standard_normal((2, 4, 4))
    for m, t in zip(_eig(mt, a), torch_answer(_eig, a), strict=True):
        np.testing.assert_allclose(m, t, atol=1e-10)
    assert mt.linalg.eig(mt.eye(2))._fields == ("eigenvalues", "eigenvectors")
    assert mt.linalg.eigvals(mt.eye(2)).dtype is mt.complex64


def test_linalg_eig_of_a_known_matrix_and_errors():
    rotation = mt.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=mt.float64)
    assert sorted(mt.linalg.eigvals(rotation).tolist(), key=lambda v: v.imag) == [-1j, 1j]
    check_error(lambda L, x: L.linalg.eig(x), (2, 3), exc=RuntimeError,
                msg="linalg.eig: A must be batches of square matrices, but they are 2 by 3 matrices")
    check_error(lambda L, x: L.linalg.eigvals(x), (3,), exc=RuntimeError,
                msg="linalg.eigvals: The input tensor A must have at least 2 dimensions.")


def test_removed_and_missing_names_raise_clear_errors():
    check_error(lambda L, x: L.eig(x), (2, 2), exc=RuntimeError)
    check_error(lambda L, x: x.eig(), (2, 2), exc=RuntimeError)
    with pytest.raises(TypeError, match="no complex32"):
        mt.ones(2).chalf()


def test_elementwise_math_on_complex_tensors():
    for fn in (lambda L, z: z.exp(), lambda L, z: L.exp(1j * z.real) * z, lambda L, z: z.log(), lambda L, z: z.sqrt(),
               lambda L, z: z.reciprocal(), lambda L, z: 1 / z, lambda L, z: -z):
        helper_test_op([(3, 4, 2)], on_complex(fn), dtype=np.float64, check_node=False)
    z = mt.tensor([1 + 2j, -0.5 - 1j], requires_grad=True, dtype=mt.complex128)
    assert gradcheck(lambda z: (z.exp() + z.log()) * z.sqrt().reciprocal(), (z,))
    with pytest.raises(NotImplementedError, match="the derivative of SinBackward0 is not implemented for complex"):
        z.sin()
    with mt.no_grad():  # values need no derivative
        np.testing.assert_allclose(z.sin().numpy(), np.sin(z.detach().numpy()))


def test_factories_make_complex_tensors():
    assert mt.full((2,), 1 + 1j).tolist() == [1 + 1j, 1 + 1j] and mt.full((2,), 1j).dtype is mt.complex64
    assert mt.zeros(2, dtype=mt.cdouble).dtype is mt.complex128
    mt.manual_seed(0)
    z = mt.randn(20000, dtype=mt.cfloat)  # torch: real and imaginary parts each of variance 1/2
    assert z.dtype is mt.complex64 and abs(z.real.var().item() - 0.5) < 0.03 and abs(z.imag.var().item() - 0.5) < 0.03
    u = mt.rand(20000, dtype=mt.cdouble)
    assert 0 <= u.real.min().item() and u.imag.max().item() < 1 and abs(u.imag.mean().item() - 0.5) < 0.02
    filled = mt.zeros(20000, dtype=mt.cfloat).uniform_(2, 3)
    assert 2 <= filled.imag.min().item() and filled.imag.max().item() < 3
    normal = mt.zeros(20000, dtype=mt.cfloat).normal_(1.0, 2.0)
    assert abs(normal.real.mean().item() - 1) < 0.05 and abs(normal.imag.mean().item() - 1) < 0.05  # as torch
    assert abs(normal.imag.var().item() - 2) < 0.1


def test_complex_tensors_save_and_load(tmp_path):
    z = mt.tensor([1 + 2j, 3 - 1j])
    mt.save({"z": z, "w": z.cdouble()}, tmp_path / "mine.pt")
    loaded = mt.load(tmp_path / "mine.pt")
    assert loaded["z"].tolist() == z.tolist() and loaded["w"].dtype is mt.complex128
    (tmp_path / "torch.pt").write_bytes(torch_answer(_torch_saved_complex).tobytes())
    from_torch = mt.load(tmp_path / "torch.pt")
    assert from_torch["z"].tolist() == [1 + 2j] and from_torch["w"].dtype is mt.complex128


def _torch_saved_complex(torch):
    """The bytes torch.save writes for a dict of a complex64 and a complex128 tensor."""
    import io
    buffer = io.BytesIO()
    torch.save({"z": torch.tensor([1 + 2j]), "w": torch.tensor([1j], dtype=torch.complex128)}, buffer)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy()
