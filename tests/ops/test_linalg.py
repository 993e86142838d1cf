"""torch.linalg and the linear algebra of the torch namespace, against PyTorch: values, dtypes, gradients and
error texts of the products, factorizations (SVD, eigh, QR, LU, Householder, Cholesky), solvers, inverses and
norms; LAPACK's conventions for the hand-written LU and Householder loops checked on hand-derived numbers."""
import warnings

import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error, helper_test_op

rng = np.random.default_rng(7)


def _spd(lib, a):
    return a @ a.mT + lib.eye(a.shape[-1], dtype=a.dtype)


def _shifted(lib, a):
    """Well conditioned: ``a`` plus 3 I."""
    return a + 3 * lib.eye(a.shape[-1], dtype=a.dtype)


def _zero_diagonal(lib, a):
    """A symmetric matrix with a zero diagonal: Bunch-Kaufman must take 2x2 pivots."""
    s = a + a.mT
    return s - lib.diag_embed(s.diagonal(0, -2, -1))


def _squared_columns(pair):
    """(E, X * X): eigenvectors without their arbitrary signs."""
    E, X = pair
    return E, X * X


def _quiet(fn):
    def call(lib, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return fn(lib, *args)
    return call


def _signs_fixed(factors):
    """The singular vectors or eigenvectors with each column's sign set by its first entry (LAPACK builds may
    choose either sign); the rest of the factorization as is."""
    *rest, last = factors
    if len(factors) == 3:  # U, S, Vh: flip U's columns and Vh's rows together
        U, S, Vh = factors
        s = U[..., :1, :].sign()
        return U * s, S, Vh * s.mT
    return (*rest, last * last[..., :1, :].sign())


_ITERATIVE = {"atol": 1e-6, "rtol": 1e-5, "grad_atol": 1e-5, "grad_rtol": 1e-4}


# ---- values and gradients against torch (float64, composites need no grad_fn match) ------------------------
CASES = {
    "addmv": (lambda t, i, m, v: t.addmv(i, m, v, beta=0.5, alpha=2), [(3,), (3, 4), (4,)]),
    "addmv_beta0": (lambda t, i, m, v: t.addmv(i * float("nan"), m, v, beta=0), [(3,), (3, 4), (4,)]),
    "addr": (lambda t, i, a, b: t.addr(i, a, b, alpha=3), [(1, 4), (3,), (4,)]),
    "baddbmm": (lambda t, i, a, b: t.baddbmm(i, a, b, beta=2), [(2, 3, 5), (2, 3, 4), (2, 4, 5)]),
    "addbmm": (lambda t, i, a, b: t.addbmm(i, a, b, alpha=0.5), [(3, 5), (2, 3, 4), (2, 4, 5)]),
    "addmm_": (lambda t, i, a, b: (i * 1).addmm_(a, b, beta=0.5), [(3, 5), (3, 4), (4, 5)]),
    "baddbmm_": (lambda t, i, a, b: (i * 1).baddbmm_(a, b, alpha=2), [(2, 3, 5), (2, 3, 4), (2, 4, 5)]),
    "tensordot_int": (lambda t, a, b: t.tensordot(a, b, dims=2), [(2, 3, 4), (3, 4, 5)]),
    "tensordot_lists": (lambda t, a, b: t.tensordot(a, b, dims=([0, 2], [1, 0])), [(2, 3, 4), (4, 2, 5)]),
    "vdot": (lambda t, a, b: t.vdot(a, b), [(5,), (5,)]),
    "multi_dot": (lambda t, a, b, c, d: t.linalg.multi_dot([a, b, c, d]), [(3,), (3, 6), (6, 2), (2,)]),
    "chain_matmul": (_quiet(lambda t, a, b, c: t.chain_matmul(a, b, c)), [(2, 5), (5, 3), (3, 4)]),
    "svd": (lambda t, a: _signs_fixed(t.linalg.svd(a, full_matrices=False)), [(2, 5, 3)]),
    "svd_wide_full_S": (lambda t, a: t.linalg.svd(a).S, [(3, 5)]),
    "torch_svd": (lambda t, a: t.svd(a).S, [(4, 3)]),
    "svdvals": (lambda t, a: t.linalg.svdvals(a), [(4, 3)]),
    "eigh": (lambda t, a: _signs_fixed(t.linalg.eigh(a + a.mT)), [(2, 4, 4)]),
    "eigh_upper": (lambda t, a: t.linalg.eigh(a, UPLO="U").eigenvalues, [(3, 3)]),
    "eigvalsh": (lambda t, a: t.linalg.eigvalsh(a + a.mT), [(4, 4)]),
    "qr": (lambda t, a: t.linalg.qr(a), [(2, 5, 3)]),
    "qr_wide": (lambda t, a: t.linalg.qr(a), [(3, 5)]),
    "qr_complete_square": (lambda t, a: t.linalg.qr(a, mode="complete"), [(4, 4)]),
    "torch_qr": (_quiet(lambda t, a: t.qr(a, some=False).R), [(5, 3)]),
    "pinv": (lambda t, a: t.linalg.pinv(a), [(4, 3)]),
    "pinv_hermitian": (lambda t, a: t.linalg.pinv(a @ a.mT, hermitian=True), [(3, 3)]),
    "pinverse": (lambda t, a: t.pinverse(a), [(2, 3, 5)]),
    "lstsq": (lambda t, a, b: t.linalg.lstsq(a, b).solution, [(5, 3), (5, 2)]),
    "lstsq_gelsd": (lambda t, a, b: t.linalg.lstsq(a, b, driver="gelsd")[:2], [(5, 3), (5, 2)]),
    "matrix_exp": (lambda t, a: t.linalg.matrix_exp(a), [(2, 3, 3)]),
    "matrix_exp_large": (lambda t, a: (a * 4).matrix_exp(), [(4, 4)]),
    "matrix_power": (lambda t, a: t.linalg.matrix_power(a, 5), [(3, 3)]),
    "matrix_power_neg": (lambda t, a: _shifted(t, a).matrix_power(-2), [(2, 3, 3)]),
    "matrix_norm_fro": (lambda t, a: t.linalg.matrix_norm(a), [(2, 3, 4)]),
    "matrix_norm_nuc": (lambda t, a: t.linalg.matrix_norm(a, "nuc", keepdim=True), [(2, 3, 4)]),
    "matrix_norm_2": (lambda t, a: t.linalg.matrix_norm(a, -2, dim=(0, 2)), [(3, 2, 4)]),
    "matrix_norm_1": (lambda t, a: t.linalg.matrix_norm(a, 1), [(3, 4)]),
    "matrix_norm_inf": (lambda t, a: t.linalg.matrix_norm(a, float("inf"), keepdim=True), [(2, 3, 4)]),
    "linalg_norm_matrix": (lambda t, a: t.linalg.norm(a, "nuc"), [(3, 4)]),
    "linalg_norm_dims": (lambda t, a: t.linalg.norm(a, -1, dim=(1, 2)), [(2, 3, 4)]),
    "norm_nuc": (lambda t, a: t.norm(a, p="nuc"), [(3, 4)]),
    "nuclear_norm": (_quiet(lambda t, a: t.nuclear_norm(a)), [(3, 4)]),
    "frobenius_norm": (_quiet(lambda t, a: t.frobenius_norm(a, dim=(0, 2))), [(2, 3, 4)]),
    "cond": (lambda t, a: t.linalg.cond(a), [(2, 3, 3)]),
    "cond_inf_singular": (lambda t, a: t.linalg.cond(a.detach() * 0 + 1, float("inf")), [(2, 3, 3)]),
    "cond_1": (lambda t, a: t.linalg.cond(_shifted(t, a).detach(), 1), [(3, 3)]),  # torch's backward fails
    "cholesky_upper": (lambda t, a: t.linalg.cholesky(_spd(t, a), upper=True), [(3, 3)]),
    "torch_cholesky": (_quiet(lambda t, a: t.cholesky(_spd(t, a))), [(3, 3)]),
    "cholesky_solve": (lambda t, b, a: t.cholesky_solve(b, t.linalg.cholesky(_spd(t, a))), [(3, 2), (3, 3)]),
    "cholesky_solve_upper": (lambda t, b, a: t.cholesky_solve(b, t.linalg.cholesky(_spd(t, a)).mT, upper=True),
                             [(2, 3, 2), (3, 3)]),
    "cholesky_inverse": (lambda t, a: t.cholesky_inverse(t.linalg.cholesky(_spd(t, a))), [(3, 3)]),
    "triangular_solve": (_quiet(lambda t, b, a: t.triangular_solve(b, _shifted(t, a))), [(3, 2), (3, 3)]),
    "triangular_solve_flags": (_quiet(lambda t, b, a: t.triangular_solve(b, a, upper=False, transpose=True,
                                                                  unitriangular=True).solution), [(3, 2), (3, 3)]),
    "solve_triangular_right": (lambda t, a, b: t.linalg.solve_triangular(_shifted(t, a), b, upper=True, left=False),
                               [(3, 3), (2, 3)]),
    "solve_triangular_unit": (lambda t, a, b: t.linalg.solve_triangular(a, b, upper=False, unitriangular=True),
                              [(2, 3, 3), (3, 2)]),
    "inv_ex": (lambda t, a: t.linalg.inv_ex(_shifted(t, a)), [(2, 3, 3)]),
    "solve_ex": (lambda t, a, b: t.linalg.solve_ex(_shifted(t, a), b), [(3, 3), (3,)]),
    "solve_ex_right": (lambda t, a, b: t.linalg.solve_ex(_shifted(t, a), b, left=False).result, [(3, 3), (2, 3)]),
    "cholesky_ex": (lambda t, a: t.linalg.cholesky_ex(_spd(t, a)), [(3, 3)]),
    "lu_factor": (lambda t, a: t.linalg.lu_factor(a), [(2, 4, 4)]),
    "lu_factor_ex": (lambda t, a: t.linalg.lu_factor_ex(a), [(4, 3)]),
    "lu": (lambda t, a: t.linalg.lu(a), [(2, 4, 4)]),
    "lu_wide": (lambda t, a: t.linalg.lu(a)[0], [(3, 5)]),
    "lu_unpack_tall": (lambda t, a: t.lu_unpack(*t.linalg.lu_factor(a.detach())), [(5, 3)]),
    "lu_solve": (lambda t, a, b: t.linalg.lu_solve(*t.linalg.lu_factor(a), b), [(3, 3), (2, 3, 2)]),
    "lu_solve_adjoint_right": (lambda t, a, b: t.linalg.lu_solve(*t.linalg.lu_factor(a), b, left=False,
                                                                 adjoint=True), [(3, 3), (2, 3)]),
    "torch_lu_solve": (_quiet(lambda t, a, b: t.lu_solve(b, *t.linalg.lu_factor(a))), [(3, 3), (3, 1)]),
    "torch_lu": (_quiet(lambda t, a: t.lu(a, get_infos=True)), [(3, 3)]),
    "geqrf": (lambda t, a: t.geqrf(a.detach()), [(2, 5, 3)]),  # not differentiable
    "householder_product": (lambda t, a, tau: t.linalg.householder_product(a, tau), [(5, 3), (2,)]),
    "orgqr": (lambda t, a: t.orgqr(*t.geqrf(a.detach())), [(4, 3)]),
    "ormqr": (lambda t, a, tau, c: t.ormqr(a, tau, c), [(4, 3), (3,), (4, 2)]),
    "ormqr_right_t": (lambda t, a, tau, c: t.ormqr(a, tau, c, left=False, transpose=True), [(4, 3), (3,), (2, 4)]),
    "ldl_factor": (lambda t, a: t.linalg.ldl_factor(a.detach() + a.detach().mT), [(2, 5, 5)]),
    "ldl_factor_zero_diagonal": (lambda t, a: t.linalg.ldl_factor_ex(_zero_diagonal(t, a.detach())), [(6, 6)]),
    "ldl_solve": (lambda t, a, b: t.linalg.ldl_solve(*t.linalg.ldl_factor(_zero_diagonal(t, a.detach())), b.detach()),
                  [(5, 5), (2, 5, 3)]),  # not differentiable
    # torch's iterations stop at a tolerance of about 1e-8 (minitorch solves exactly: gradcheck in the registry)
    "lobpcg": (lambda t, a: _squared_columns(t.lobpcg(a @ a.mT, k=2)), [(7, 7)], _ITERATIVE),
    "lobpcg_smallest_B": (lambda t, a, b: _squared_columns(t.lobpcg(a @ a.mT, k=2, B=_spd(t, b), largest=False)),
                          [(7, 7), (7, 7)], {**_ITERATIVE, "grad": False}),  # torch: no backward with B
    "vander": (lambda t, x: t.vander(x.detach()), [(4,)]),  # torch's backward fails: gradients in a test below
    "vander_increasing": (lambda t, x: t.vander(x.detach(), N=3, increasing=True), [(4,)]),
    "linalg_vander": (lambda t, x: t.linalg.vander(x, N=4), [(2, 3)]),
    "vecdot": (lambda t, a, b: t.linalg.vecdot(a, b, dim=0), [(3, 4), (3, 1)]),
    "linalg_matmul": (lambda t, a, b: t.linalg.matmul(a, b), [(2, 3, 4), (4, 2)]),
    "linalg_diagonal": (lambda t, a: t.linalg.diagonal(a, offset=1), [(2, 3, 4)]),
    "tensorinv": (lambda t, a: t.linalg.tensorinv(_shifted(t, a.reshape(4, 4)).reshape(4, 2, 2), ind=1), [(16,)]),
    "tensorsolve": (lambda t, a, b: t.linalg.tensorsolve(_shifted(t, a.reshape(6, 6)).reshape(2, 3, 6), b),
                    [(36,), (2, 3)]),
    "adjoint": (lambda t, a: (a.adjoint(), a.mH, a[0].H), [(2, 3, 4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch(name):
    fn, shapes, *tolerances = CASES[name]
    helper_test_op(shapes, fn, dtype=np.float64, check_node=False, **(tolerances[0] if tolerances else {}))


@pytest.mark.parametrize("name", ["svd", "qr", "lu_factor", "cholesky_upper", "matrix_exp", "pinv", "eigh"])
def test_float32_stays_float32(name):
    fn, shapes = CASES[name][:2]
    helper_test_op(shapes, fn, dtype=np.float32, grad=False, check_node=False, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("name", ["svd", "eigh", "qr", "lu_factor", "matrix_exp", "pinv", "addmv", "addr", "baddbmm",
                                  "addbmm", "addmm_", "baddbmm_"])
def test_grad_fn_names_match_torch(name):
    fn, shapes = CASES[name][:2]
    helper_test_op(shapes, fn, dtype=np.float64)


# ---- second derivatives of the factorizations, by gradgradcheck ---------------------------------------------
def _t(*shape, seed=0):
    values = np.random.default_rng(seed).uniform(-1, 1, shape)
    return mt.tensor(values, dtype=mt.float64, requires_grad=True)


GRADGRAD = {
    "svd_tall": (lambda a: mt.linalg.svd(a, full_matrices=False), (4, 3)),
    "svd_wide_full": (lambda a: mt.linalg.svd(a)[:2], (3, 4)),  # Vh's extra row is arbitrary
    "eigh": (lambda a: mt.linalg.eigh(a + a.mT), (3, 3)),
    "qr_wide": (lambda a: mt.linalg.qr(a), (3, 4)),
    "pinv_wide": (lambda a: mt.linalg.pinv(a), (3, 4)),
    "lstsq": (lambda a: mt.linalg.lstsq(a, a[:, :2] * 2 + 1).solution, (4, 3)),
    "cond": (lambda a: mt.linalg.cond(a), (3, 3)),
    "matrix_norm_2": (lambda a: mt.linalg.matrix_norm(a, 2), (3, 4)),
    "lu": (lambda a: mt.linalg.lu(a)[1:], (3, 3)),
    "householder_product": (lambda a: mt.linalg.householder_product(a, a[0] * 0.5), (4, 3)),
    "inv_ex": (lambda a: mt.linalg.inv_ex(a + 3 * mt.eye(3, dtype=mt.float64)).inverse, (3, 3)),
    "cholesky_ex": (lambda a: mt.linalg.cholesky_ex(a @ a.mT + mt.eye(3, dtype=mt.float64)).L, (3, 3)),
    "vecdot": (lambda a: mt.linalg.vecdot(a, a.flip(0)), (3, 4)),
    "lobpcg_B": (lambda b: mt.lobpcg(mt.diag(mt.arange(1.0, 4.0, dtype=mt.float64)), k=1, B=b @ b.mT + mt.eye(
        3, dtype=mt.float64)), (3, 3)),
    "vander": (lambda a: mt.linalg.vander(a, N=4), (2, 3)),
}


@pytest.mark.parametrize("name", sorted(GRADGRAD))
def test_gradcheck_and_gradgradcheck(name):
    fn, shape = GRADGRAD[name]
    a = _t(*shape)
    assert gradcheck(fn, (a,))
    assert gradgradcheck(fn, (a,))


# ---- hand-derived numbers (these run without torch) ---------------------------------------------------------
def test_lu_factor_follows_lapack_conventions():
    A = mt.tensor([[1.0, 2.0], [3.0, 4.0]])
    LU, pivots = mt.linalg.lu_factor(A)
    # row 2 is the pivot (|3| > |1|): L = [[1, 0], [1/3, 1]], U = [[3, 4], [0, 2 - 4/3]]
    np.testing.assert_allclose(LU.numpy(), [[3.0, 4.0], [1 / 3, 2 - 4 / 3]], rtol=1e-6)
    assert pivots.dtype == mt.int32 and pivots.tolist() == [2, 2]
    P, L, U = mt.lu_unpack(LU, pivots)
    np.testing.assert_allclose((P @ L @ U).numpy(), A.numpy(), rtol=1e-6)
    info = mt.linalg.lu_factor_ex(mt.tensor([[[0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]])).info
    assert info.tolist() == [1, 0] and info.dtype == mt.int32


def test_ldl_factor_takes_a_2x2_pivot_and_solves():
    A = mt.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]], dtype=mt.float64)
    LD, pivots = mt.linalg.ldl_factor(A)
    # a zero diagonal forces a 2x2 block: rows 2 and 3 swapped (pivots -3, -3), then a 1x1 block
    assert pivots.tolist() == [-3, -3, 3]
    np.testing.assert_allclose(LD.numpy(), [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.5, 0.5, -3.0]])
    X = mt.linalg.ldl_solve(LD, pivots, mt.ones(3, 1, dtype=mt.float64))
    np.testing.assert_allclose((A @ X).numpy(), np.ones((3, 1)), atol=1e-12)
    assert mt.linalg.ldl_factor_ex(mt.zeros(2, 2)).info.item() == 1


def test_geqrf_reflectors_rebuild_the_qr_factors():
    A = mt.tensor([[3.0, 1.0], [4.0, 2.0]], dtype=mt.float64)
    a, tau = mt.geqrf(A)
    # x = (3, 4): beta = -5, tau = (beta - alpha) / beta = 8/5, v = (1, 4 / (3 + 5))
    np.testing.assert_allclose(a.numpy()[:, 0], [-5.0, 0.5])
    np.testing.assert_allclose(tau.numpy()[0], 1.6)
    Q = mt.linalg.householder_product(a, tau)
    np.testing.assert_allclose((Q @ a.triu()).numpy(), A.numpy(), atol=1e-12)


def test_matrix_exp_of_a_rotation_generator_and_a_large_norm():
    theta = 2.5
    A = mt.tensor([[0.0, -theta], [theta, 0.0]], dtype=mt.float64)
    expected = [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]]
    np.testing.assert_allclose(mt.linalg.matrix_exp(A).numpy(), expected, atol=1e-13)
    big = mt.tensor([[30.0, 0.0], [0.0, -2.0]], dtype=mt.float64)  # scaled and squared several times
    np.testing.assert_allclose(mt.matrix_exp(big).numpy(), np.diag(np.exp([30.0, -2.0])), rtol=1e-13)


def test_ex_forms_report_info_and_keep_the_good_batch_elements():
    A = mt.tensor([[[2.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]], dtype=mt.float64, requires_grad=True)
    inverse, info = mt.linalg.inv_ex(A)
    assert info.tolist() == [0, 2]
    np.testing.assert_allclose(inverse[0].detach().numpy(), [[0.5, 0.0], [0.0, 0.25]])
    assert np.isnan(inverse[1].detach().numpy()).all()
    inverse[0].sum().backward()
    np.testing.assert_allclose(A.grad[0].numpy(), [[-0.25, -0.125], [-0.125, -0.0625]])
    assert not A.grad[1].numpy().any()
    L, info = mt.linalg.cholesky_ex(mt.tensor([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    assert info.item() == 2  # the leading 2x2 minor has determinant 0


def test_lstsq_fields_follow_the_driver():
    A = mt.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=mt.float64)
    B = mt.tensor([[1.0], [2.0], [0.0]], dtype=mt.float64)
    X, residuals, rank, sv = mt.linalg.lstsq(A, B, driver="gelsd")
    # normal equations [[2, 1], [1, 2]] X = [[1], [2]]: X = (0, 1); residual (1-0)^2 + (2-1)^2 + (0-1)^2 = 3
    np.testing.assert_allclose(X.numpy(), [[0.0], [1.0]], atol=1e-12)
    np.testing.assert_allclose(residuals.numpy(), [3.0])
    assert rank.item() == 2 and rank.dtype == mt.int64
    np.testing.assert_allclose(sv.numpy(), [np.sqrt(3.0), 1.0])
    gelsy = mt.linalg.lstsq(A, B)
    assert gelsy.residuals.shape == (0,) and gelsy.singular_values.shape == (0,) and gelsy.rank.item() == 2


def test_matrix_rank_and_its_tolerances():
    A = mt.tensor([[1.0, 2.0], [2.0, 4.0 + 1e-3]], dtype=mt.float64)
    assert mt.linalg.matrix_rank(A).item() == 2
    assert mt.linalg.matrix_rank(A, atol=1e-2).item() == 1
    assert mt.linalg.matrix_rank(A, rtol=1e-2, hermitian=True).item() == 1
    assert mt.linalg.matrix_rank(mt.zeros(2, 3, 4)).tolist() == [0, 0]


def test_multi_dot_picks_the_cheapest_order():
    from minitorch._ops.linalg.products import _chain_order
    # (10x100)(100x5)(5x50): (AB)C costs 5000 + 2500, A(BC) 25000 + 50000
    assert _chain_order([(10, 100), (100, 5), (5, 50)])[0][2] == 1


def test_h_and_mh_are_views_and_h_on_0d_warns():
    x = mt.arange(6.0).reshape(2, 3)
    h, mh = x.H, x.mH
    x[1, 0] = 10.0
    assert h[0, 1].item() == 10.0 and mh[0, 1].item() == 10.0 and h.shape == (3, 2)
    with pytest.warns(UserWarning, match="Tensor.H is deprecated on 0-D tensors"):
        assert mt.tensor(2.0).H.item() == 2.0


def test_svd_lowrank_and_pca_lowrank_recover_a_low_rank_matrix():
    g = np.random.default_rng(3)
    A = mt.tensor(g.standard_normal((2, 8, 2)) @ g.standard_normal((2, 2, 6)))  # rank 2, batched
    mt.manual_seed(0)
    U, S, V = mt.svd_lowrank(A, q=3)
    assert U.shape == (2, 8, 3) and S.shape == (2, 3) and V.shape == (2, 6, 3)
    np.testing.assert_allclose((U * S.unsqueeze(-2) @ V.mT).numpy(), A.numpy(), atol=1e-4)
    np.testing.assert_allclose(S[:, :2].numpy(), mt.linalg.svdvals(A)[:, :2].numpy(), rtol=1e-4)
    centred = A - A.mean(-2, keepdim=True)
    U, S, V = mt.pca_lowrank(A.mT.mT, q=2)
    np.testing.assert_allclose(S.numpy(), mt.linalg.svdvals(centred)[:, :2].numpy(), rtol=1e-4)
    np.testing.assert_allclose((U * S.unsqueeze(-2) @ V.mT).numpy(), centred.numpy(), atol=1e-4)
    with pytest.raises(ValueError, match=r"^q\(=9\) must be non-negative integer and not greater than min"):
        mt.pca_lowrank(A, q=9)


def test_out_fills_each_tensor_of_a_tuple():
    A = mt.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=mt.float64)
    out = (mt.empty(0, dtype=mt.float64), mt.empty(0, dtype=mt.float64))
    result = mt.linalg.eigh(A, out=out)
    assert result.eigenvalues is out[0] and result.eigenvectors is out[1]
    np.testing.assert_allclose(out[0].numpy(), [(5 - 5 ** 0.5) / 2, (5 + 5 ** 0.5) / 2])
    LU, pivots = mt.empty(0, dtype=mt.float64), mt.empty(0, dtype=mt.int32)
    mt.linalg.lu_factor(A, out=(LU, pivots))
    X = mt.empty(0, dtype=mt.float64)
    mt.linalg.lu_solve(LU, pivots, A, out=X)
    np.testing.assert_allclose(X.numpy(), np.eye(2), atol=1e-12)


def test_printed_named_tuple():
    r = mt.linalg.qr(mt.eye(2))
    assert repr(r).startswith("minitorch.return_types.linalg_qr(\nQ=tensor(")


# ---- errors: torch's exception types and texts --------------------------------------------------------------
ERRORS = {
    "addmv_sizes": (lambda t, i, m, v: t.addmv(i, m, v), [(3,), (3, 4), (5,)]),
    "addmv_input": (lambda t, i, m, v: t.addmv(i, m, v), [(4,), (3, 4), (4,)]),
    "addr_dims": (lambda t, i, a, b: t.addr(i, a, b), [(3, 4), (3, 1), (4,)]),
    "addr_expand": (lambda t, i, a, b: t.addr(i, a, b), [(3, 3), (3,), (4,)]),
    "baddbmm_sizes": (lambda t, i, a, b: t.baddbmm(i, a, b), [(2, 3, 5), (2, 3, 4), (2, 3, 5)]),
    "addbmm_batches": (lambda t, i, a, b: t.addbmm(i, a, b), [(3, 5), (2, 3, 4), (3, 4, 5)]),
    "addr_inplace": (lambda t, i, a, b: i.addr_(a, b), [(1, 4), (3,), (4,)]),
    "addr_inplace_1d": (lambda t, i, a, b: i.addr_(a, b), [(3,), (3,), (3,)]),
    "addmm_inplace": (lambda t, i, a, b: i.addmm_(a, b), [(3, 1), (3, 2), (2, 5)]),
    "addmv_inplace": (lambda t, i, a, b: i.addmv_(a, b), [(1,), (3, 4), (4,)]),
    "baddbmm_inplace": (lambda t, i, a, b: i.baddbmm_(a, b), [(3, 1), (2, 3, 4), (2, 4, 5)]),
    "tensordot": (lambda t, a, b: t.tensordot(a, b, dims=([1], [1])), [(3, 4), (4, 6)]),
    "vdot": (lambda t, a, b: t.vdot(a, b), [(3,), (4,)]),
    "multi_dot_one": (lambda t, a: t.linalg.multi_dot([a]), [(3,)]),
    "multi_dot_shapes": (lambda t, a, b: t.linalg.multi_dot([a, b]), [(3, 3), (4, 3)]),
    "chain_matmul_1d": (_quiet(lambda t, a: t.chain_matmul(a)), [(3,)]),
    "H_3d": (lambda t, a: a.H, [(2, 2, 2)]),
    "mH_1d": (lambda t, a: a.mH, [(3,)]),
    "adjoint_1d": (lambda t, a: a.adjoint(), [(3,)]),
    "svd_1d": (lambda t, a: t.linalg.svd(a), [(3,)]),
    "svd_int": (lambda t, a: t.linalg.svd(a), [np.ones((3, 3), np.int64)]),
    "eigh_square": (lambda t, a: t.linalg.eigh(a), [(2, 3)]),
    "eigh_uplo": (lambda t, a: t.linalg.eigh(a, UPLO="X"), [(2, 2)]),
    "qr_mode": (lambda t, a: t.linalg.qr(a, mode="x"), [(3, 3)]),
    "qr_r_backward": (lambda t, a: t.linalg.qr(a, mode="r").R.sum().backward(), [(3, 3)]),
    "qr_complete_tall_backward": (lambda t, a: t.linalg.qr(a, mode="complete").Q.sum().backward(), [(4, 3)]),
    "matrix_power": (lambda t, a: t.linalg.matrix_power(a, 2), [(2, 3)]),
    "matrix_exp": (lambda t, a: t.linalg.matrix_exp(a), [(2, 3)]),
    "pinv_1d": (lambda t, a: t.linalg.pinv(a), [(3,)]),
    "matrix_norm_1d": (lambda t, a: t.linalg.matrix_norm(a), [(3,)]),
    "matrix_norm_ord": (lambda t, a: t.linalg.matrix_norm(a, ord=3), [(3, 3)]),
    "cond_p": (lambda t, a: t.linalg.cond(a, p="x"), [(3, 3)]),
    "inv_singular": (lambda t, a: t.linalg.inv(a), [np.array([[1.0, 2.0], [2.0, 4.0]])]),
    "inv_singular_batch": (lambda t, a: t.linalg.inv(a), [np.zeros((2, 2, 2))]),
    "inv_ex_check": (lambda t, a: t.linalg.inv_ex(a, check_errors=True), [np.zeros((2, 2))]),
    "solve_singular": (lambda t, a, b: t.linalg.solve(a, b), [np.zeros((2, 2)), (2,)]),
    "solve_ex_check": (lambda t, a, b: t.linalg.solve_ex(a, b, check_errors=True), [np.zeros((2, 2)), (2,)]),
    "cholesky_not_pd": (lambda t, a: t.linalg.cholesky(a), [np.diag([1.0, -1.0, 1.0])]),
    "cholesky_ex_check": (lambda t, a: t.linalg.cholesky_ex(a, check_errors=True), [np.zeros((2, 2))]),
    "cholesky_solve_sizes": (lambda t, b, a: t.cholesky_solve(b, a), [(3, 1), (2, 2)]),
    "triangular_solve_sizes": (_quiet(lambda t, b, a: t.triangular_solve(b, a)), [(3, 1), (2, 2)]),
    "lu_factor_singular": (lambda t, a: t.linalg.lu_factor(a), [np.zeros((2, 2))]),
    "lu_factor_ex_check": (lambda t, a: t.linalg.lu_factor_ex(a, check_errors=True), [np.zeros((2, 2))]),
    "lu_factor_1d": (lambda t, a: t.linalg.lu_factor(a), [(3,)]),
    "lu_no_pivot": (lambda t, a: t.linalg.lu_factor(a, pivot=False), [(2, 2)]),
    "lu_solve_sizes": (lambda t, a, b: t.linalg.lu_solve(*t.linalg.lu_factor(a), b), [(2, 2), (3, 1)]),
    "ldl_1d": (lambda t, a: t.linalg.ldl_factor(a), [(3,)]),
    "ldl_square": (lambda t, a: t.linalg.ldl_factor(a), [(2, 3)]),
    "ldl_int": (lambda t, a: t.linalg.ldl_factor(a), [np.ones((2, 2), np.int64)]),
    "ldl_solve_sizes": (lambda t, a, b: t.linalg.ldl_solve(*t.linalg.ldl_factor(a), b), [np.eye(2), (3, 1)]),
    "norm_fro_dim_int": (lambda t, a: t.linalg.norm(a, "fro", dim=0), [(2, 2)]),
    "norm_three_dims": (lambda t, a: t.linalg.norm(a, "nuc", dim=(0, 1, 2)), [(2, 2, 2)]),
    "norm_ord_3d": (lambda t, a: t.linalg.norm(a, 2), [(2, 2, 2)]),
    **{f"{name}_int": (fn, [np.ones((2, 2), np.int64)]) for name, fn in (
        ("matrix_norm", lambda t, a: t.linalg.matrix_norm(a)), ("vecdot", lambda t, a: t.linalg.vecdot(a, a)),
        ("eigvalsh", lambda t, a: t.linalg.eigvalsh(a)), ("lu_factor", lambda t, a: t.linalg.lu_factor(a)),
        ("geqrf", lambda t, a: t.geqrf(a)), ("inv", lambda t, a: t.linalg.inv(a)),
        ("cholesky", lambda t, a: t.linalg.cholesky(a)), ("matrix_rank", lambda t, a: t.linalg.matrix_rank(a)),
        ("cond", lambda t, a: t.linalg.cond(a)), ("svdvals", lambda t, a: t.linalg.svdvals(a)),
        ("pinv", lambda t, a: t.linalg.pinv(a)), ("matrix_exp", lambda t, a: t.linalg.matrix_exp(a)))},
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    fn, inputs = ERRORS[name]
    check_error(fn, *inputs, grad=True, dtype=np.float64)


def test_singular_error_names_the_zero_pivot_without_torch():
    with pytest.raises(mt.linalg.LinAlgError, match=r"^linalg.inv: The diagonal element 2 is zero, the inversion"):
        mt.linalg.inv(mt.tensor([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(RuntimeError, match=r"the leading minor of order 2 is not positive-definite"):
        mt.linalg.cholesky(mt.tensor([[1.0, 0.0], [0.0, -1.0]]))


LEGACY = {
    "chain_matmul": (lambda a: mt.chain_matmul(a, a), "torch.chain_matmul is deprecated and will be removed"),
    "lu": (lambda a: mt.lu(a), "torch.lu is deprecated in favor of torch.linalg.lu_factor"),
    "lu_solve": (lambda a: mt.lu_solve(a, *mt.linalg.lu_factor(a)), "torch.lu_solve is deprecated in favor of"),
    "cholesky": (lambda a: mt.cholesky(a), "torch.cholesky is deprecated in favor of torch.linalg.cholesky"),
    "qr": (lambda a: mt.qr(a), "torch.qr is deprecated in favor of torch.linalg.qr"),
    "triangular_solve": (lambda a: mt.triangular_solve(a, a), "torch.triangular_solve is deprecated in favor of"),
    "nuclear_norm": (lambda a: mt.nuclear_norm(a), "at::nuclear_norm is deprecated"),
    "frobenius_norm": (lambda a: mt.frobenius_norm(a), "at::frobenius_norm is deprecated"),
}


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_legacy_functions_warn_as_torch_does(name):
    fn, message = LEGACY[name]
    with pytest.warns(UserWarning, match="^" + message):
        fn(mt.eye(2) * 2)
