"""Registry sweep inputs for the linear algebra ops (minitorch/_ops/linalg.py, decompositions.py,
factorizations.py, lu.py, householder.py): operands of matching shapes, well-conditioned square matrices,
symmetric positive-definite ones for the Cholesky family, distinct singular values for the SVD."""
import warnings

import minitorch as mt
from registry_inputs import x


def _spd(a):
    """A symmetric positive-definite matrix made from ``a``."""
    return a @ a.mT + mt.eye(a.shape[-1], dtype=mt.float64)


def _well_conditioned(a):
    return a + 3 * mt.eye(a.shape[-1], dtype=mt.float64)


def _quiet(fn):
    """``fn`` with its deprecation warning silenced (chain_matmul, torch.lu, torch.qr, ...)."""
    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return fn(*args)
    return call


SAMPLES = {
    "addmv": (lambda i, m, v: mt.addmv(i, m, v, beta=0.5, alpha=2), lambda: (x(2), x(2, 3, seed=1), x(3, seed=2))),
    "addr": (lambda i, a, b: mt.addr(i, a, b, beta=2), lambda: (x(2, 3), x(2, seed=1), x(3, seed=2))),
    "baddbmm": (lambda i, a, b: mt.baddbmm(i, a, b, alpha=0.5), lambda: (x(2, 2, 4), x(2, 2, 3, seed=1),
                                                                         x(2, 3, 4, seed=2))),
    "addbmm": (lambda i, a, b: mt.addbmm(i, a, b, beta=3), lambda: (x(2, 4), x(2, 2, 3, seed=1), x(2, 3, 4, seed=2))),
    "addmm_": (lambda i, a, b: (i * 1).addmm_(a, b, beta=2), lambda: (x(2, 4), x(2, 3, seed=1), x(3, 4, seed=2))),
    "addmv_": (lambda i, m, v: (i * 1).addmv_(m, v, alpha=2), lambda: (x(2), x(2, 3, seed=1), x(3, seed=2))),
    "addr_": (lambda i, a, b: (i * 1).addr_(a, b), lambda: (x(2, 3), x(2, seed=1), x(3, seed=2))),
    "baddbmm_": (lambda i, a, b: (i * 1).baddbmm_(a, b), lambda: (x(2, 2, 4), x(2, 2, 3, seed=1), x(2, 3, 4, seed=2))),
    "addbmm_": (lambda i, a, b: (i * 1).addbmm_(a, b), lambda: (x(2, 4), x(2, 2, 3, seed=1), x(2, 3, 4, seed=2))),
    "vdot": (None, lambda: (x(4), x(4, seed=1))),
    "tensordot": (lambda a, b: mt.tensordot(a, b, dims=([0, 2], [1, 0])), lambda: (x(2, 3, 4), x(4, 2, 5, seed=1))),
    "chain_matmul": (_quiet(mt.chain_matmul), lambda: (x(2, 3), x(3, 4, seed=1), x(4, 2, seed=2))),
    "svd": (lambda a: mt.svd(a), lambda: (x(4, 3, low=-1.0, high=1.0),)),
    "qr": (_quiet(lambda a: mt.qr(a)), lambda: (x(4, 3, low=-1.0, high=1.0),)),
    "pinverse": (None, lambda: (x(3, 4, low=-1.0, high=1.0),)),
    "matrix_exp": (None, lambda: (x(2, 3, 3, low=-1.0, high=1.0),)),
    "matrix_power": (lambda a: mt.matrix_power(_well_conditioned(a), -3), lambda: (x(3, 3),)),
    "nuclear_norm": (_quiet(mt.nuclear_norm), lambda: (x(3, 4, low=-1.0, high=1.0),)),
    "frobenius_norm": (_quiet(lambda a: mt.frobenius_norm(a, (0, 1))), lambda: (x(3, 4),)),
    "vander": (lambda a: mt.vander(a, 4), lambda: (x(3),)),
    "lu": (_quiet(lambda a: mt.lu(a)[0]), lambda: (x(3, 3, low=-1.0, high=1.0),)),
    "lu_unpack": (lambda a: mt.lu_unpack(*mt.linalg.lu_factor(a))[1:], lambda: (x(3, 3, low=-1.0, high=1.0),)),
    "lu_solve": (_quiet(lambda a, b: mt.lu_solve(b, *mt.linalg.lu_factor(a))), lambda: (x(3, 3, low=-1.0, high=1.0),
                                                                             x(3, 2, seed=1))),
    "orgqr": (lambda a, t: mt.orgqr(a, t), lambda: (x(4, 3, low=-1.0, high=1.0), x(2, seed=1))),
    "ormqr": (lambda a, t, c: mt.ormqr(a, t, c, left=False, transpose=True),
              lambda: (x(3, 2, low=-1.0, high=1.0), x(2, seed=1), x(2, 3, seed=2))),
    "cholesky": (_quiet(lambda a: mt.cholesky(_spd(a), upper=True)), lambda: (x(3, 3),)),
    "cholesky_solve": (lambda b, a: mt.cholesky_solve(b, mt.linalg.cholesky(_spd(a))), lambda: (x(3, 2),
                                                                                               x(3, 3, seed=1))),
    "cholesky_inverse": (lambda a: mt.cholesky_inverse(mt.linalg.cholesky(_spd(a)).mT, upper=True),
                         lambda: (x(3, 3),)),
    "triangular_solve": (_quiet(lambda b, a: mt.triangular_solve(b, _well_conditioned(a), transpose=True)),
                         lambda: (x(3, 2), x(3, 3, seed=1))),
    # randomised: the same draws on every call (gradcheck calls many times); q = min(m, n) makes them exact SVDs
    "svd_lowrank": (lambda a: (mt.manual_seed(0), mt.svd_lowrank(a, q=2, niter=1))[1],
                    lambda: (x(3, 2, low=-1.0, high=1.0),)),
    "pca_lowrank": (lambda a: (mt.manual_seed(0), mt.pca_lowrank(a, q=2, niter=1))[1][:2],
                    lambda: (x(3, 3, low=-1.0, high=1.0),)),
    "lobpcg": (lambda a: mt.lobpcg(a + a.mT, k=1, B=_spd(x(4, 4, seed=1).detach())), lambda: (x(4, 4),)),
}
