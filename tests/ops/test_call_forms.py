"""What PyTorch's call forms do, for the callables whose signatures tests/ops/test_signatures.py sweeps by name only:
torch.linalg's ``input`` and the torch.* forms that share those functions, the older tolerances of pinv and
matrix_rank, the ATen losses' integer reductions, trapezoid's dx, out_dtype, asarray, weighted l1/mse, out= forms,
deprecated keywords, from_dlpack, histogramdd, load/save's pickle arguments, and dense to_dense/sparse_dim/dense_dim.
Values against torch's answers (live where torch is installed, recorded in tests/fixtures/torch_answers otherwise)."""
import io
import pickle
import warnings
import zipfile

import numpy as np
import pytest

import minitorch as mt
import minitorch.nn.functional as F
from minitorch._factories import _warn_asarray_requires_grad
from minitorch.autograd import gradcheck
from torch_answers import assert_matches, torch_answer

SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])


def _linalg_by_input(lib, a):
    """Every torch.linalg function whose first parameter torch calls ``input``, called by keyword."""
    L, t = lib.linalg, lib.tensor(a)
    b = t[:, :2].contiguous()
    return {
        "cholesky": L.cholesky(input=t), "cholesky_ex": L.cholesky_ex(input=t).L, "cond": L.cond(input=t),
        "eig": lib.sort(L.eig(input=t).eigenvalues.real).values, "eigh": L.eigh(input=t).eigenvalues,
        "eigvals": lib.sort(L.eigvals(input=t).real).values, "eigvalsh": L.eigvalsh(input=t),
        "householder_product": L.householder_product(input=t, tau=lib.tensor([1.2, 0.5], dtype=lib.float64)),
        "ldl_factor": L.ldl_factor(input=t).LD, "ldl_factor_ex": L.ldl_factor_ex(input=t).LD,
        "lstsq": L.lstsq(input=t, b=b).solution, "matrix_exp": L.matrix_exp(input=t * 0.1),
        "matrix_norm": L.matrix_norm(input=t, ord=1), "matrix_power": L.matrix_power(input=t, n=3),
        "matrix_rank": L.matrix_rank(input=t), "norm": L.norm(input=t), "pinv": L.pinv(input=t),
        "solve_triangular": L.solve_triangular(input=t.triu(), B=b, upper=True),
        "tensorinv": L.tensorinv(input=t, ind=1), "tensorsolve": L.tensorsolve(input=t, other=b[:, 0]),
        "vector_norm": L.vector_norm(input=t[0], ord=3),
    }


def test_linalg_takes_input_by_keyword():
    assert_matches(_linalg_by_input(mt, SPD), torch_answer(_linalg_by_input, SPD), rtol=1e-9, atol=1e-12)


def _shared_forms(lib, a):
    """The torch.* and Tensor forms that share a linalg function (their own parameter names), and linalg's ``A``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.lu_solve's deprecation
        return _shared_calls(lib, lib.tensor(a))


def _shared_calls(lib, t):
    LU, pivots = lib.linalg.lu_factor(t)
    b = t[:, :1].contiguous()
    tau = lib.tensor([1.2, 0.5], dtype=lib.float64)
    L = lib.linalg.cholesky(t)
    return {
        "det": lib.det(input=t), "linalg.det": lib.linalg.det(A=t), "inverse": lib.inverse(input=t),
        "linalg.inv": lib.linalg.inv(A=t), "logdet": lib.logdet(input=t), "slogdet": lib.slogdet(input=t),
        "linalg.slogdet": lib.linalg.slogdet(A=t), "matrix_exp": lib.matrix_exp(t * 0.1),
        "Tensor.matrix_exp": (t * 0.1).matrix_exp(), "norm": lib.norm(input=t), "Tensor.norm": t.norm(p=1),
        "orgqr": lib.orgqr(input=t, input2=tau), "Tensor.orgqr": t.orgqr(input2=tau),
        "cholesky_inverse": lib.cholesky_inverse(input=L), "lu_solve": lib.lu_solve(input=b, LU_data=LU,
                                                                                    LU_pivots=pivots),
        "swapaxes": lib.swapaxes(t[:2], axis0=0, axis1=1), "Tensor.swapaxes": t[:2].swapaxes(axis0=1, axis1=0),
        "Tensor.swapaxes_": t[:2].clone().swapaxes_(axis0=0, axis1=1),
    }


def test_shared_functions_keep_each_namespace_s_names():
    assert_matches(_shared_forms(mt, SPD), torch_answer(_shared_forms, SPD), rtol=1e-9, atol=1e-12)
    out = (mt.empty(0, dtype=mt.float64), mt.empty(0, dtype=mt.float64))
    assert all(r is o for r, o in zip(mt.slogdet(mt.tensor(SPD), out=out), out))


def _older_tolerances(lib, a):
    t = lib.tensor(a)
    L = lib.linalg
    return [L.pinv(t, 0.3), L.pinv(t, rcond=0.3, hermitian=True), L.pinv(t, rtol=0.1), L.matrix_rank(t, 0.6),
            L.matrix_rank(t, tol=2.5, hermitian=True), L.matrix_rank(t, atol=0.6)]


def test_pinv_rcond_and_matrix_rank_tol():
    a = np.diag([2.0, 0.5, 0.1])
    assert_matches(_older_tolerances(mt, a), torch_answer(_older_tolerances, a), rtol=1e-12)
    with pytest.raises(TypeError):
        mt.linalg.matrix_rank(mt.tensor(a), 0.5, atol=1.0)
    with pytest.raises(TypeError):
        mt.linalg.pinv(mt.tensor(a), 0.5, rtol=1.0)


_LOSSES = {
    "binary_cross_entropy_with_logits": (np.array([0.3, -1.2, 2.0]), np.array([1.0, 0.0, 0.7])),
    "cosine_embedding_loss": (np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1]]),
                              np.array([[0.5, 1.0], [1.0, 1.0], [-1.0, 0.3]]), np.array([1.0, -1.0, -1.0])),
    "hinge_embedding_loss": (np.array([0.3, 1.7, -0.4]), np.array([1.0, -1.0, -1.0])),
    "kl_div": (np.log(np.array([[0.2, 0.8], [0.6, 0.4]])), np.array([[0.3, 0.7], [0.5, 0.5]])),
    "margin_ranking_loss": (np.array([0.3, 1.7, -0.4]), np.array([1.0, 0.2, 0.1]), np.array([1.0, -1.0, 1.0])),
    "triplet_margin_loss": (np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([[0.5, 1.0], [1.0, 1.0]]),
                            np.array([[0.0, 2.5], [0.5, -0.5]])),
}


def _aten_losses(lib, name, arrays):
    fn = getattr(lib, name)
    args = [lib.tensor(a) for a in arrays]
    return [fn(*args)] + [fn(*args, reduction=r) for r in (0, 1, 2)]


@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_aten_losses_default_to_no_reduction_as_torch_does(name):
    """torch's signatures say reduction=1, but its calls without one return the unreduced losses (as 0)."""
    mine = _aten_losses(mt, name, _LOSSES[name])
    answer = torch_answer(_aten_losses, name, _LOSSES[name])
    assert_matches(mine, answer, rtol=1e-12)
    assert answer[0].shape == answer[1].shape != () and answer[2].shape == answer[3].shape == ()


def test_trapezoid_dx_defaults_to_one():
    y, x = mt.tensor([1.0, 2.0, 4.0]), mt.tensor([0.0, 1.0, 3.0])
    assert mt.trapezoid(y).item() == mt.trapz(y).item() == 4.5 and mt.trapezoid(y, dx=2).item() == 9.0
    assert mt.cumulative_trapezoid(y).tolist() == [1.5, 4.5] and mt.trapezoid(y, x).item() == 7.5
    for fn in (mt.trapezoid, mt.trapz, mt.cumulative_trapezoid):
        with pytest.raises(TypeError):
            fn(y, x, dx=2)


def _out_dtype_errors(lib):
    a, b = lib.ones(2, 3), lib.ones(3, 4)
    calls = (lambda: lib.mm(a, b, lib.float32), lambda: lib.bmm(a[None], b[None], out_dtype=lib.float32),
             lambda: lib.addmm(lib.zeros(2, 4), a, b, lib.float64),
             lambda: lib.baddbmm(lib.zeros(1, 2, 4), a[None], b[None], lib.float32, out=lib.empty(1, 2, 4)))
    found = []
    for call in calls:
        try:
            call()
            found.append(None)
        except NotImplementedError as e:
            found.append(str(e).split(" This could")[0])
    return found


def test_out_dtype_has_no_cpu_kernel():
    """torch 2.13's CPU build has no kernel for the out_dtype overloads: any dtype raises its dispatcher's error."""
    assert _out_dtype_errors(mt) == torch_answer(_out_dtype_errors)
    assert mt.mm(mt.ones(2, 3), mt.ones(3, 4)).tolist() == [[3.0] * 4] * 2


def test_asarray_shares_copies_and_sets_requires_grad():
    x = mt.tensor([1.0, 2.0])
    assert mt.asarray(x) is x and mt.asarray(x, copy=False) is x and mt.asarray(x, device="cpu") is x
    copied = mt.asarray(x, copy=True)
    copied[0] = 5.0
    assert copied is not x and x.tolist() == [1.0, 2.0]
    assert mt.asarray(x, dtype=mt.float64).dtype == mt.float64
    with pytest.raises(ValueError, match="can't alias tensor with dtype 'Float' into dtype 'Double'."):
        mt.asarray(x, dtype=mt.float64, copy=False)
    with pytest.raises(ValueError, match="can't alias arbitrary sequence into a tensor."):
        mt.asarray([1, 2], copy=False)
    assert mt.asarray(x, requires_grad=True) is x and x.requires_grad  # set in place, as torch
    _warn_asarray_requires_grad.cache_clear()  # (torch warns once per process)
    with pytest.warns(UserWarning, match="unspecified requires_grad now defaults to obj.requires_grad"):
        assert mt.asarray(x) is x
    y = x * 2
    assert mt.asarray(y, copy=True).grad_fn.name() == "CloneBackward0"
    assert mt.asarray(y, dtype=mt.float64).grad_fn.name() == "ToCopyBackward0"
    assert mt.asarray(x, requires_grad=False) is x and not x.requires_grad
    a = np.array([1.0, 2.0])
    shared, own = mt.asarray(a), mt.asarray(a, copy=True)
    a[0] = 9.0
    assert shared.tolist() == [9.0, 2.0] and own.tolist() == [1.0, 2.0]
    assert mt.asarray([1, 2]).dtype == mt.int64 and mt.asarray([1.0], requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        mt.asarray([1, 2], requires_grad=True)
    with pytest.raises(TypeError):
        mt.asarray(x, None)  # dtype is keyword-only


def _lazy_norms(lib):
    nn = lib.nn
    found = []
    for cls, x in ((nn.LazyBatchNorm1d, lib.ones(4, 3)), (nn.LazyInstanceNorm2d, lib.ones(2, 3, 2, 2))):
        m = cls(bias=False)
        m(x)
        found.append([str(m), list(m.state_dict()), m.bias is None])
    return found


def test_lazy_norms_take_bias():
    assert _lazy_norms(mt) == torch_answer(_lazy_norms)


W_INPUT = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
W_TARGET = np.array([[0.0, 0.0, 1.0], [1.0, 7.0, 2.0]])
WEIGHT = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0]])


def _weighted_losses(lib, x, y, w):
    fns = lib.nn.functional
    x, y, w = lib.tensor(x), lib.tensor(y), lib.tensor(w)
    return [fn(x, y, reduction=r, weight=w) for fn in (fns.l1_loss, fns.mse_loss) for r in ("none", "mean", "sum")]


def test_l1_and_mse_loss_weight():
    mine = _weighted_losses(mt, W_INPUT, W_TARGET, WEIGHT)
    assert_matches(mine, torch_answer(_weighted_losses, W_INPUT, W_TARGET, WEIGHT), rtol=1e-12)
    x = mt.tensor(W_INPUT, requires_grad=True)
    w = mt.tensor(WEIGHT, requires_grad=True)
    for fn in (F.l1_loss, F.mse_loss):
        assert gradcheck(lambda x, w: fn(x, mt.tensor(W_TARGET), weight=w), (x, w))
        with pytest.raises(ValueError, match="Weights and input must have the same size."):
            fn(x, mt.tensor(W_TARGET), weight=mt.ones(3))


def test_out_forms():
    x = mt.tensor([-1.0, 0.2, 1.0])
    for fn, kwargs in ((F.hardshrink, {"lambd": 0.5}), (F.normalize, {"dim": 0})):
        out = mt.empty(0)
        assert fn(x, **kwargs, out=out) is out and out.tolist() == fn(x, **kwargs).tolist()
    assert F.hardshrink(x, 0.5).tolist() == [-1.0, 0.0, 1.0]
    norm = 2.04 ** 0.5
    assert F.normalize(x, 2.0, 0, 1e-12, mt.empty(3)).tolist() == pytest.approx([-1 / norm, 0.2 / norm, 1 / norm])
    with pytest.raises(RuntimeError, match="functions with out=... arguments don't support automatic"):
        F.normalize(x.clone().requires_grad_(), dim=0, out=mt.empty(3))
    out = mt.empty(0, dtype=mt.int64)
    assert mt.nonzero_static(mt.tensor([0, 1, 0, 2]), size=3, out=out) is out and out.tolist() == [[1], [3], [-1]]
    with pytest.raises(RuntimeError, match="Expected out tensor to have scalar type Long but got scalar typeInt"):
        mt.nonzero_static(mt.tensor([0, 1]), size=1, out=mt.empty(1, 1, dtype=mt.int32))
    x = mt.tensor([[1.0, 2.0, 0.0], [3.0, 6.0, 1.0]])
    outs = tuple(mt.empty(0) for _ in range(3))
    got = mt.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5, out=outs)
    assert all(g is o for g, o in zip(got, outs)) and outs[1].tolist() == [2.0, 4.0, 0.5]
    assert np.allclose(outs[0].numpy(), mt.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5)[0].numpy())
    with pytest.raises(TypeError, match="argument 'out' must be tuple of Tensors, not Tensor"):
        mt.native_batch_norm(x, None, None, None, None, True, 0.1, 1e-5, out=mt.empty(0))


def test_hardtanh_deprecated_keywords():
    with pytest.warns(FutureWarning, match="keyword argument `min_value` is deprecated and renamed to `min_val`"):
        m = mt.nn.Hardtanh(min_value=-0.5)
    with pytest.warns(FutureWarning, match="`max_value` is deprecated and renamed to `max_val`"):
        assert repr(mt.nn.Hardtanh(-1.0, 1.0, False, None, 3.0)) == "Hardtanh(min_val=-1.0, max_val=3.0)"
    assert m(mt.tensor([-2.0, 0.2, 2.0])).tolist() == [-0.5, pytest.approx(0.2), 1.0]
    with pytest.raises(AssertionError, match=r"max_val \(1.0\) must be greater than min_val \(2.0\)"):
        mt.nn.Hardtanh(2.0, 1.0)


def _rrelu_with_generator(lib):
    g = lib.Generator().manual_seed(3)
    return lib.nn.functional.rrelu_(-lib.arange(1.0, 6.0), 0.1, 0.3, True, g)


def test_rrelu_in_place_takes_a_generator():
    assert F.rrelu_ is mt.rrelu_
    assert_matches(_rrelu_with_generator(mt), torch_answer(_rrelu_with_generator), rtol=1e-6)


def test_from_dlpack_device_and_copy():
    a = np.arange(3.0)
    shared, copied = mt.from_dlpack(a, device="cpu"), mt.from_dlpack(a, copy=True)
    a[0] = 9.0
    assert shared.tolist() == [9.0, 1.0, 2.0] and copied.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(AssertionError):
        mt.from_dlpack(a, device="cuda")
    with pytest.raises(AssertionError, match="from_dlpack: unsupported device type"):
        mt.from_dlpack(a, device=0)


def _histogramdd_positional(lib, points):
    hist, edges = lib.histogramdd(lib.tensor(points), 2, [0.0, 1.0, 0.0, 2.0], lib.tensor([1.0, 2.0, 0.5]), True)
    return [hist, *edges]


def test_histogramdd_takes_range_weight_density_by_position():
    points = np.array([[0.1, 0.2], [0.7, 1.5], [0.4, 1.9]], np.float32)
    assert_matches(_histogramdd_positional(mt, points), torch_answer(_histogramdd_positional, points), rtol=1e-6)


class Trusted:  # a class only a full (trusted) load may make
    pass


def test_load_pickle_module_means_a_trusted_file(monkeypatch):
    buf = io.BytesIO()
    mt.save({"a": mt.ones(2), "t": Trusted()}, buf)
    buf.seek(0)
    assert isinstance(mt.load(buf, None, pickle)["t"], Trusted)  # weights_only then defaults to False
    for force in (False, True):
        if force:
            monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
        buf.seek(0)
        with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
            mt.load(buf, pickle_module=pickle, weights_only=True if not force else None)
    monkeypatch.delenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD")
    with pytest.raises(NotImplementedError):
        mt.load(buf, pickle_module=io)
    buf = io.BytesIO()
    mt.save({"a": mt.ones(2)}, buf)
    buf.seek(0)
    with pytest.warns(UserWarning, match="pickle_load_args only works if `weights_only=False`."):
        assert mt.load(buf, encoding="latin1")["a"].tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        mt.load(buf, weights_only=False, foo=1)


def test_save_pickle_protocol_and_byteorder_record():
    buf = io.BytesIO()
    mt.save({"a": mt.arange(3.0)}, buf, pickle, 4, True, True)
    names = zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()
    pkl = zipfile.ZipFile(io.BytesIO(buf.getvalue())).read("archive/data.pkl")
    assert pkl[:2] == b"\x80\x04" and "archive/byteorder" not in names
    buf.seek(0)
    assert mt.load(buf)["a"].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(NotImplementedError):
        mt.save({}, io.BytesIO(), _use_new_zipfile_serialization=False)


def test_special_log_softmax_dtype_is_keyword_only():
    x = mt.tensor([1.0, 2.0, 4.0])
    got = mt.special.log_softmax(x, 0, dtype=mt.float64)
    assert got.dtype == mt.float64 and np.allclose(got.numpy(), mt.log_softmax(x.double(), 0).numpy())
    with pytest.raises(TypeError):
        mt.special.log_softmax(x, 0, mt.float64)
    assert mt.log_softmax(x, 0, mt.float64).dtype == mt.float64


def test_dense_tensors_are_their_own_dense_form():
    x = mt.ones(2, 3, requires_grad=True)
    assert x.to_dense() is x and x.to_dense(mt.float32) is x and x.to_dense(masked_grad=True) is x
    y = x.to_dense(mt.float64)
    assert y.dtype == mt.float64 and y.grad_fn.name() == "ToCopyBackward0"
    assert (x.sparse_dim(), x.dense_dim(), mt.tensor(1.0).dense_dim()) == (0, 2, 0)
    s = mt.ones(2, 3).to_sparse()
    assert (s.sparse_dim(), s.dense_dim()) == (2, 0)
