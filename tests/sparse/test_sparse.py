"""Sparse COO tensors (minitorch.sparse): every case of sparse_cases.py prints what PyTorch printed (recorded in
tests/fixtures/sparse_coo.json), gradients pass gradcheck and gradgradcheck in float64, and sparse tensors go
through torch.save files both ways."""
import copy
import io
import json
import pickle

import numpy as np
import pytest

import minitorch as mt
import sparse_cases
from minitorch.autograd import gradcheck, gradgradcheck
from printed_numbers import assert_same_printout
from locations import FIXTURES

try:
    import torch
except ImportError:
    torch = None

RECORDED = json.loads((FIXTURES / "sparse_coo.json").read_text())
needs_torch = pytest.mark.skipif(torch is None, reason="the live comparison needs PyTorch")
pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks")  # PyTorch's, at each construction


def as_torch_prints(text: str) -> str:
    return text.replace("minitorch.", "torch.")


@pytest.mark.parametrize("name", sorted(sparse_cases.CASES))
def test_case_prints_what_pytorch_printed(name):
    assert_same_printout(as_torch_prints(sparse_cases.run(mt, name)), RECORDED["cases"][name])


@needs_torch
def test_the_recorded_cases_are_pytorchs_answers_today():
    assert set(RECORDED["cases"]) == set(sparse_cases.CASES)
    for name in sparse_cases.CASES:
        assert_same_printout(sparse_cases.run(torch, name), RECORDED["cases"][name])


# ---- gradients ---------------------------------------------------------------------------------------------

def _x(*shape, seed=0):
    return mt.tensor(np.random.default_rng(seed).uniform(-1.5, 1.5, shape), requires_grad=True)


def _coo(values):
    return mt.sparse_coo_tensor(sparse_cases.DUP, values, (3, 3))


def _hybrid(values):
    return mt.sparse_coo_tensor(sparse_cases.IDX, values, (3, 3, 2))


GRADIENT_CASES = {
    "sparse.mm": (lambda v, d: mt.sparse.mm(_coo(v), d), (5,), (3, 2)),
    "matmul": (lambda v, d: _coo(v) @ d, (5,), (3, 4)),
    "sparse.mm constant matrix": (lambda d: mt.sparse.mm(_coo(mt.arange(5.0, dtype=mt.float64)), d), (3, 2)),
    "mm": (lambda v, d: mt.mm(_coo(v).coalesce(), d), (5,), (3, 1)),
    "sparse.addmm": (lambda v, d, m: mt.sparse.addmm(m, _coo(v), d, beta=0.5, alpha=-2.0), (5,), (3, 2), (1, 2)),
    "to_sparse": (lambda a, d: mt.sparse.mm((a * mt.tensor(sparse_cases.DENSE[:, :3] != 0)).to_sparse(), d),
                  (3, 3), (3, 2)),
    "to_sparse matmul": (lambda a, d: (a * mt.tensor(sparse_cases.DENSE[:, :3] != 0)).to_sparse() @ d, (3, 3), (3, 2)),
    "to_dense": (lambda v: _coo(v).to_dense(), (5,)),
    "to_dense hybrid": (lambda v: _hybrid(v).to_dense(), (4, 2)),
    "coalesce": (lambda v: _coo(v).coalesce().values(), (5,)),
    "sparse.sum": (lambda v: mt.sparse.sum(_coo(v)), (5,)),
    "sparse.sum dim": (lambda v: mt.sparse.sum(_coo(v), 0).to_dense(), (5,)),
    "sparse.sum dense dim": (lambda v: mt.sparse.sum(_hybrid(v), (1, 2)).to_dense(), (4, 2)),
    "sparse.softmax": (lambda v: mt.sparse.softmax(_coo(v), 1).to_dense(), (5,)),
    "sparse.log_softmax": (lambda v: mt.sparse.log_softmax(_coo(v), 0).to_dense(), (5,)),
    "sparse.softmax dense dim": (lambda v: mt.sparse.softmax(_hybrid(v), 2).to_dense(), (4, 2)),
    "scaled": (lambda v: (_coo(v) * 3).to_dense(), (5,)),
}


@pytest.mark.parametrize("name", GRADIENT_CASES)
def test_gradients_pass_gradcheck_and_gradgradcheck(name):
    fn, *shapes = GRADIENT_CASES[name]
    inputs = tuple(_x(*shape, seed=i) for i, shape in enumerate(shapes))
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_a_sparse_leaf_gets_a_sparse_gradient_at_its_indices():
    s = mt.sparse_coo_tensor(sparse_cases.IDX, [3.0, 4.0, 5.0, 6.0], (3, 3), dtype=mt.float64, requires_grad=True)
    d = _x(3, 2)
    mt.sparse.mm(s, d).sum().backward()
    expected = d.detach().numpy().sum(1)[np.array(sparse_cases.IDX[1])]  # d/ds_ij of sum(S @ D) = sum_k D_jk
    assert s.grad.is_sparse and s.grad.is_coalesced() is s.is_coalesced()
    np.testing.assert_allclose(s.grad._values().numpy(), expected)
    np.testing.assert_array_equal(s.grad._indices().numpy(), sparse_cases.IDX)
    s.grad = None
    assert s.grad is None and s.is_leaf and s.grad_fn is None


def test_dense_operations_refuse_a_sparse_tensor():
    s = _coo([1.0, 2.0, 3.0, 4.0, 5.0])
    assert isinstance(s, mt.Tensor) and s.layout is mt.sparse_coo and mt.ones(1).layout is mt.strided
    for op in (lambda: s.exp(), lambda: s + 1, lambda: mt.ones(3, 3) @ s):
        with pytest.raises(NotImplementedError, match="'SparseCPU' backend"):
            op()


# ---- saving and loading ------------------------------------------------------------------------------------

def _saved(obj) -> io.BytesIO:
    f = io.BytesIO()
    mt.save(obj, f)
    f.seek(0)
    return f


def test_a_torch_saved_sparse_checkpoint_loads():
    loaded = mt.load(FIXTURES / "sparse_coo_torch.pt")
    assert_same_printout(as_torch_prints(sparse_cases.describe(loaded)), RECORDED["checkpoint"])


def test_a_minitorch_saved_sparse_checkpoint_loads_back():
    loaded = mt.load(_saved(sparse_cases.checkpoint(mt)))
    assert_same_printout(as_torch_prints(sparse_cases.describe(loaded)), RECORDED["checkpoint"])


@needs_torch
def test_torch_loads_a_minitorch_saved_sparse_checkpoint():
    loaded = torch.load(_saved(sparse_cases.checkpoint(mt)))
    assert_same_printout(sparse_cases.describe(loaded), RECORDED["checkpoint"])


def test_a_sparse_tensor_pickles_and_copies_with_its_requires_grad():
    s = mt.sparse_coo_tensor(sparse_cases.IDX, [3.0, 4.0, 5.0, 6.0], (3, 3), requires_grad=True)
    for other in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert repr(other) == repr(s) and other.requires_grad


def test_safetensors_refuses_a_sparse_tensor(tmp_path):
    with pytest.raises(TypeError, match=r"the sparse tensor at obj\['adj'\] needs \.to_dense"):
        mt.save({"adj": _coo([1.0, 2.0, 3.0, 4.0, 5.0])}, tmp_path / "x.safetensors")


def test_the_safe_loader_refuses_malformed_sparse_data():
    s = mt.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (2,))
    s._size = mt.Size((1,))  # an index beyond the size: what a crafted file could claim
    with pytest.raises(pickle.UnpicklingError, match="size is inconsistent with indices"):
        mt.load(_saved(s))
