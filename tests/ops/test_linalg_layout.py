"""The memory layout (shape and strides) of every linear-algebra result, against PyTorch's: LAPACK works on
column-major matrices, so PyTorch returns the matrices its factorizations and solvers compute column by column
(batch outermost: a (2, 4, 4) result has strides (16, 1, 4)), and what it builds otherwise row by row. Each call
runs on batched and single matrices, square and not, in float32 and float64, and
with 1-D right-hand sides where they are allowed."""
import warnings

import numpy as np
import pytest

import minitorch
from torch_answers import torch_answer

REAL = ("float32", "float64")  # minitorch's linear algebra is real
BATCHES = ((), (2,))


def _inputs(lib, dtype: str, batch: tuple):
    """Well-conditioned operands: A square (4x4), S symmetric positive definite, U upper triangular, T tall (5x3),
    W wide (3x5), B and C right-hand sides (4x3, 5x2), b a vector; Z: A with its first matrix singular (and not
    positive definite); the same numbers for both libraries."""
    rng = np.random.default_rng(3)

    def draw(*shape):
        x = rng.standard_normal(batch + shape)
        return x

    A = draw(4, 4) + 4 * np.eye(4)
    S = A @ np.swapaxes(A, -1, -2) + np.eye(4)
    Z = S.copy()
    Z[(0,) * len(batch) + (slice(None), 1)] = 0
    arrays = dict(A=A, S=S, Z=Z, U=np.triu(A), T=draw(5, 3), W=draw(3, 5), B=draw(4, 3), Bt=draw(3, 4), C=draw(5, 2),
                  b=draw(4), K=draw(4, 2, 2)[(0,) * len(batch)] + 3 * np.eye(4).reshape(4, 2, 2))
    return {k: lib.tensor(v, dtype=getattr(lib, dtype)) for k, v in arrays.items()}


def _lu(lib, x):
    return lib.linalg.lu_factor(x["A"])


def _ldl(lib, x):
    return lib.linalg.ldl_factor(x["S"])


def _geqrf(lib, x):
    return lib.geqrf(x["T"])


def _chol(lib, x):
    return lib.linalg.cholesky(x["S"])


# name: (the call, the dtypes PyTorch computes it in)
CALLS = {
    "linalg.inv": (lambda lib, x: lib.linalg.inv(x["A"]), REAL),
    "inverse": (lambda lib, x: lib.inverse(x["A"]), REAL),
    "linalg.inv_ex": (lambda lib, x: lib.linalg.inv_ex(x["A"]), REAL),
    "linalg.cholesky": (lambda lib, x: lib.linalg.cholesky(x["S"]), REAL),
    "linalg.cholesky upper": (lambda lib, x: lib.linalg.cholesky(x["S"], upper=True), REAL),
    "cholesky": (lambda lib, x: lib.cholesky(x["S"]), REAL),
    "cholesky upper": (lambda lib, x: lib.cholesky(x["S"], upper=True), REAL),
    "linalg.cholesky_ex": (lambda lib, x: lib.linalg.cholesky_ex(x["S"]), REAL),
    "linalg.cholesky_ex failed upper": (lambda lib, x: lib.linalg.cholesky_ex(x["Z"], upper=True), REAL),
    "linalg.inv_ex singular": (lambda lib, x: lib.linalg.inv_ex(x["Z"]), REAL),
    "linalg.solve_ex singular right": (lambda lib, x: lib.linalg.solve_ex(x["Z"], x["Bt"], left=False), REAL),
    "linalg.solve_ex singular vector": (lambda lib, x: lib.linalg.solve_ex(x["Z"], x["b"]), REAL),
    "linalg.solve": (lambda lib, x: lib.linalg.solve(x["A"], x["B"]), REAL),
    "linalg.solve vector": (lambda lib, x: lib.linalg.solve(x["A"], x["b"]), REAL),
    "linalg.solve right": (lambda lib, x: lib.linalg.solve(x["A"], x["Bt"], left=False), REAL),
    "linalg.solve_ex": (lambda lib, x: lib.linalg.solve_ex(x["A"], x["B"]), REAL),
    "linalg.qr tall": (lambda lib, x: lib.linalg.qr(x["T"]), REAL),
    "linalg.qr wide": (lambda lib, x: lib.linalg.qr(x["W"]), REAL),
    "linalg.qr complete": (lambda lib, x: lib.linalg.qr(x["T"], mode="complete"), REAL),
    "linalg.qr r": (lambda lib, x: lib.linalg.qr(x["T"], mode="r"), REAL),
    "qr": (lambda lib, x: lib.qr(x["T"]), REAL),
    "qr some=False": (lambda lib, x: lib.qr(x["W"], some=False), REAL),
    "linalg.eigh": (lambda lib, x: lib.linalg.eigh(x["S"]), REAL),
    "linalg.eigvalsh": (lambda lib, x: lib.linalg.eigvalsh(x["S"]), REAL),
    "linalg.eig": (lambda lib, x: lib.linalg.eig(x["A"]), REAL),
    "linalg.eigvals": (lambda lib, x: lib.linalg.eigvals(x["A"]), REAL),
    "linalg.svd tall": (lambda lib, x: lib.linalg.svd(x["T"]), REAL),
    "linalg.svd wide reduced": (lambda lib, x: lib.linalg.svd(x["W"], full_matrices=False), REAL),
    "linalg.svdvals": (lambda lib, x: lib.linalg.svdvals(x["T"]), REAL),
    "svd": (lambda lib, x: lib.svd(x["T"]), REAL),
    "svd some=False": (lambda lib, x: lib.svd(x["W"], some=False), REAL),
    "svd compute_uv=False": (lambda lib, x: lib.svd(x["T"], compute_uv=False), REAL),
    "linalg.lu_factor": (_lu, REAL),
    "linalg.lu_factor_ex": (lambda lib, x: lib.linalg.lu_factor_ex(x["A"]), REAL),
    "linalg.lu_factor tall": (lambda lib, x: lib.linalg.lu_factor(x["T"]), REAL),
    "linalg.lu": (lambda lib, x: lib.linalg.lu(x["T"]), REAL),
    "lu": (lambda lib, x: lib.lu(x["A"], get_infos=True), REAL),
    "lu_unpack": (lambda lib, x: lib.lu_unpack(*_lu(lib, x)), REAL),
    "linalg.lu_solve": (lambda lib, x: lib.linalg.lu_solve(*_lu(lib, x), x["B"]), REAL),
    "linalg.lu_solve right": (lambda lib, x: lib.linalg.lu_solve(*_lu(lib, x), x["Bt"], left=False), REAL),
    "linalg.lu_solve adjoint": (lambda lib, x: lib.linalg.lu_solve(*_lu(lib, x), x["B"], adjoint=True), REAL),
    "lu_solve": (lambda lib, x: lib.lu_solve(x["B"], *_lu(lib, x)), REAL),
    "cholesky_solve": (lambda lib, x: lib.cholesky_solve(x["B"], _chol(lib, x)), REAL),
    "cholesky_inverse": (lambda lib, x: lib.cholesky_inverse(_chol(lib, x)), REAL),
    "linalg.solve_triangular": (lambda lib, x: lib.linalg.solve_triangular(x["U"], x["B"], upper=True), REAL),
    "linalg.solve_triangular right": (lambda lib, x: lib.linalg.solve_triangular(x["U"], x["Bt"], upper=True,
                                                                                  left=False), REAL),
    "triangular_solve": (lambda lib, x: lib.triangular_solve(x["B"], x["U"]), REAL),
    "geqrf": (_geqrf, REAL),
    "orgqr": (lambda lib, x: lib.orgqr(*_geqrf(lib, x)), REAL),
    "linalg.householder_product": (lambda lib, x: lib.linalg.householder_product(*_geqrf(lib, x)), REAL),
    "ormqr": (lambda lib, x: lib.ormqr(*_geqrf(lib, x), x["C"]), REAL),
    "ormqr right transposed": (lambda lib, x: lib.ormqr(*_geqrf(lib, x), x["C"].mT, left=False, transpose=True),
                               REAL),
    "linalg.ldl_factor": (_ldl, REAL),
    "linalg.ldl_factor_ex": (lambda lib, x: lib.linalg.ldl_factor_ex(x["S"]), REAL),
    "linalg.ldl_solve": (lambda lib, x: lib.linalg.ldl_solve(*_ldl(lib, x), x["B"]), REAL),
    "linalg.tensorinv": (lambda lib, x: lib.linalg.tensorinv(x["K"], ind=1), REAL),
    "linalg.tensorsolve": (lambda lib, x: lib.linalg.tensorsolve(x["K"], x["K"][:, 0, 0]), REAL),
    "linalg.lstsq": (lambda lib, x: lib.linalg.lstsq(x["T"], x["C"]), REAL),
    "linalg.lstsq vector": (lambda lib, x: lib.linalg.lstsq(x["T"], x["C"][..., 0]), REAL),
    "linalg.lstsq gelsd": (lambda lib, x: lib.linalg.lstsq(x["T"], x["C"], driver="gelsd"),
                           REAL),
    "linalg.pinv": (lambda lib, x: lib.linalg.pinv(x["T"]), REAL),
    "linalg.matrix_exp": (lambda lib, x: lib.linalg.matrix_exp(x["A"]), REAL),
    "linalg.matrix_power": (lambda lib, x: lib.linalg.matrix_power(x["A"], 3), REAL),
    "linalg.matrix_power -2": (lambda lib, x: lib.linalg.matrix_power(x["A"], -2), REAL),
    "linalg.det": (lambda lib, x: lib.linalg.det(x["A"]), REAL),
    "linalg.slogdet": (lambda lib, x: lib.linalg.slogdet(x["A"]), REAL),
    "svd_lowrank": (lambda lib, x: lib.svd_lowrank(x["T"], q=2), REAL),
    "pca_lowrank": (lambda lib, x: lib.pca_lowrank(x["T"], q=2), REAL),
}


def layouts(lib, name: str):
    """(shape, strides) of each result of the call ``name``, per dtype and batch; no strides for an empty result
    (numpy gives them as 0, torch as for a contiguous tensor: a difference of every op, not of these)."""
    call, dtypes = CALLS[name]
    found = []
    for dtype in dtypes:
        for batch in BATCHES:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = call(lib, _inputs(lib, dtype, batch))
            results = result if isinstance(result, tuple) else (result,)
            found.append([(tuple(r.shape), tuple(r.stride()) if r.numel() else None) for r in results])
    return found


@pytest.mark.parametrize("name", sorted(CALLS))
def test_layout_as_pytorch(name):
    assert layouts(minitorch, name) == torch_answer(layouts, name)



def _out_layouts(lib):
    """Strides of ``out=`` tensors: an empty one is resized as the result is laid out (column-major here, and the
    transposed input's order for ``add``); one of the right shape keeps its own strides."""
    x = _inputs(lib, "float64", (2,))
    a, tau = _geqrf(lib, x)
    square, vector = (2, 4, 4), (2, 4)
    calls = [(lambda o: lib.linalg.inv(x["A"], out=o[0]), [square]),
             (lambda o: lib.linalg.cholesky(x["S"], out=o[0]), [square]),
             (lambda o: lib.linalg.solve(x["A"], x["A"], out=o[0]), [square]),
             (lambda o: lib.add(x["A"].mT, 1, out=o[0]), [square]),
             (lambda o: lib.linalg.householder_product(a, tau, out=o[0]), [(2, 5, 3)]),
             (lambda o: lib.linalg.svd(x["A"], out=o), [square, vector, square])]
    found = []
    for empty in (True, False):
        for call, shapes in calls:
            outs = tuple(lib.empty(0 if empty else shape, dtype=lib.float64) for shape in shapes)
            call(outs)
            found.append([tuple(o.stride()) for o in outs])
    return found


def test_out_tensors_laid_out_as_pytorch():
    assert _out_layouts(minitorch) == torch_answer(_out_layouts)
