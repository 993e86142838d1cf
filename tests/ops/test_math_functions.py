"""Inverse trigonometry and special functions (minitorch/_ops/elementwise/trigonometric.py, special.py, minitorch.special):
against PyTorch (values, dtypes, node names, gradients; float32, float64, integer inputs, domain edges) and, without
it, against hand-derived values."""
import math

import numpy as np
import pytest

import minitorch as mt
from op_helper import check_error, floats, helper_test_op, ints

f32, f64 = np.float32, np.float64
INF, NAN = math.inf, math.nan
# the domain edges and beyond, and the special values
EDGES = np.array([-INF, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, INF, NAN], f64)

# name -> (low, high) of random inputs inside the domain
UNARY = {
    "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "atan": (-3, 3), "sinh": (-3, 3), "cosh": (-3, 3),
    "asinh": (-3, 3), "acosh": (1.1, 3), "atanh": (-0.9, 0.9), "deg2rad": (-360, 360), "rad2deg": (-4, 4),
    "exp2": (-5, 5), "erfc": (-4, 4), "erfinv": (-0.95, 0.95), "lgamma": (0.1, 6), "digamma": (0.1, 6),
    "sinc": (-3, 3), "logit": (0.05, 0.95), "i0": (-5, 5),
}
ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
           "arctanh": "atanh"}


def fn_of(name):
    return lambda t, x: getattr(t, name)(x)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [f32, f64])
def test_unary_in_its_domain(name, dtype):
    low, high = UNARY[name]
    helper_test_op([(3, 4)], fn_of(name), dtype=dtype, low=low, high=high)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_of_integers_and_bools_compute_in_the_default_float(name):
    helper_test_op([ints((5,), -3, 4)], fn_of(name))
    helper_test_op([np.array([True, False])], fn_of(name))


@pytest.mark.parametrize("name", sorted(set(UNARY) - {"lgamma", "digamma"}))
def test_unary_at_the_domain_edges(name):
    helper_test_op([EDGES], fn_of(name))


def test_lgamma_and_digamma_at_poles_and_negative_arguments():
    edges = np.array([-INF, -3.5, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, INF, NAN], f64)
    helper_test_op([edges], fn_of("lgamma"), grad=False)
    helper_test_op([edges[1:]], fn_of("digamma"), grad=False)
    helper_test_op([np.array([-3.7, -2.3, -1.5, -0.4, 0.3, 2.5, 7.5, 31.2, 150.5], f64)], fn_of("lgamma"))
    helper_test_op([np.array([-3.7, -2.3, -1.5, -0.4, 0.3, 2.5, 7.5, 31.2, 150.5], f64)], fn_of("digamma"))


# torch has no derivative for these in-place forms (minitorch has: the out-of-place one's)
NO_INPLACE_GRAD_IN_TORCH = {"asinh", "acosh", "atanh"}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_arc_aliases_are_the_same_functions(alias):
    name = ALIASES[alias]
    assert getattr(mt, alias) is getattr(mt, name)
    low, high = UNARY[name]
    helper_test_op([(4,)], lambda t, x: getattr(x, alias)(), low=low, high=high)
    helper_test_op([(4,)], lambda t, x: getattr(x * 1, alias + "_")(), low=low, high=high,
                   grad=name not in NO_INPLACE_GRAD_IN_TORCH)


@pytest.mark.parametrize("name", sorted(set(UNARY) - {"logit"}))
def test_in_place_forms(name):
    low, high = UNARY[name]
    helper_test_op([(3, 4)], lambda t, x: getattr(x * 1, name + "_")(), low=low, high=high,
                   grad=name not in NO_INPLACE_GRAD_IN_TORCH)


def test_in_place_inverse_hyperbolic_forms_have_a_gradient():
    x = mt.tensor([1.5, 2.0], dtype=mt.float64, requires_grad=True)
    y = (x * 1).acosh_()
    assert y.grad_fn.name() == "AcoshBackward1"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 1 / np.sqrt(np.array([1.5, 2.0]) ** 2 - 1))


@pytest.mark.parametrize("name", ["atan2", "hypot", "logaddexp", "logaddexp2", "xlogy"])
@pytest.mark.parametrize("dtype", [f32, f64])
def test_binary_with_broadcasting(name, dtype):
    helper_test_op([(3, 4), (4,)], lambda t, a, b: getattr(t, name)(a, b), dtype=dtype, low=0.1, high=3)
    helper_test_op([(2, 1), (1, 3)], lambda t, a, b: getattr(a, name)(b), dtype=dtype, low=-3, high=3)
    if name not in ("logaddexp", "logaddexp2"):  # torch has no in-place forms of these
        helper_test_op([(4,), (4,)], lambda t, a, b: getattr(a * 1, name + "_")(b), dtype=dtype, low=0.1, high=3)


def test_binary_of_mixed_dtypes():
    helper_test_op([floats((4,), dtype=f64), floats((4,))], lambda t, a, b: t.atan2(a, b))
    helper_test_op([floats((4,), dtype=f64), floats((4,))], lambda t, a, b: t.logaddexp(a, b))
    # a float32 result: the 0-dim float64 input's gradient is summed in float32 precision (in torch too)
    helper_test_op([floats((4,)), np.array(0.5, f64)], lambda t, a, b: t.hypot(a, b), grad_rtol=1e-5)


def test_atan2_and_xlogy_of_integers():
    helper_test_op([ints((5,), -3, 4), ints((5,), -3, 4)], lambda t, a, b: t.atan2(a, b))
    helper_test_op([ints((5,), -3, 4), ints((5,), 0, 4)], lambda t, a, b: t.xlogy(a, b))
    helper_test_op([np.array([True, False]), np.array([True, True])], lambda t, a, b: t.arctan2(a, b))


@pytest.mark.parametrize("name", ["hypot", "logaddexp", "logaddexp2"])
def test_integer_hypot_and_logaddexp_are_refused(name):
    kernel = name + "_cpu"
    check_error(lambda t, a, b: getattr(t, name)(a, b), ints((3,)), ints((3,)), exc=NotImplementedError,
                msg=f"\"{kernel}\" not implemented for 'Long'")


def test_binary_edges():
    a = np.array([0.0, 0.0, 1.0, -1.0, INF, -INF, INF, NAN, 0.0, -0.0], f64)
    b = np.array([0.0, -0.0, 0.0, 0.0, INF, -INF, -INF, 1.0, NAN, -1.0], f64)
    for name in ["atan2", "hypot", "logaddexp", "logaddexp2", "xlogy"]:
        helper_test_op([a, b], lambda t, x, y: getattr(t, name)(x, y), grad=False)
    helper_test_op([np.array([-1.0, 0.5, 2.0], f64), np.array([-1.0, 0.0, 2.0], f64)], lambda t, x, y: t.xlogy(x, y))


def test_xlogy_with_numbers():
    x = np.array([0.0, 0.5, 2.0, -1.0], f64)
    helper_test_op([x], lambda t, a: t.xlogy(a, 2.0))
    helper_test_op([x], lambda t, a: t.xlogy(a, 0.0))
    helper_test_op([np.array([0.5, 2.0, 3.0], f64)], lambda t, b: t.xlogy(3.0, b))
    helper_test_op([np.array([0.5, 2.0, 3.0], f32)], lambda t, b: t.xlogy(2, b))
    helper_test_op([ints((4,), 0, 3)], lambda t, a: t.xlogy(a, 2.5))
    helper_test_op([x], lambda t, a: (a * 1).xlogy_(2.0))
    helper_test_op([x], lambda t, a: t.special.xlogy(a, 2.0))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("dtype", [f32, f64])
def test_polygamma(n, dtype):
    helper_test_op([(3, 4)], lambda t, x: t.polygamma(n, x), dtype=dtype, low=0.2, high=6)
    helper_test_op([np.array([-3.7, -2.3, -1.5, -0.4, 0.3, 2.5, 7.5, 31.2], dtype)],
                   lambda t, x: x.polygamma(n), rtol=1e-4 if dtype == f32 else None)


def test_polygamma_forms_and_errors():
    helper_test_op([(4,)], lambda t, x: (x * 1).polygamma_(2), low=0.2, high=3)
    helper_test_op([(4,)], lambda t, x: (x * 1).polygamma_(0), low=0.2, high=3)
    helper_test_op([ints((4,), 1, 5)], lambda t, x: t.polygamma(1, x))
    helper_test_op([np.array([0.0, -1.0, NAN], f64)], lambda t, x: t.polygamma(2, x), grad=False)
    check_error(lambda t, x: t.polygamma(-1, x), (3,), exc=RuntimeError)
    for n in (1, 3):  # far below zero: by reflection
        helper_test_op([np.array([-2000.3, -1e4 - 0.7], f64)], lambda t, x: t.polygamma(n, x), rtol=1e-7)


def test_logit_with_eps():
    x = np.array([-0.5, 0.0, 0.05, 0.3, 0.9, 0.97, 1.0, 1.5], f64)
    helper_test_op([x], lambda t, a: t.logit(a, 0.1))
    helper_test_op([x], lambda t, a: a.logit(eps=0.1))
    helper_test_op([x], lambda t, a: (a * 1).logit_(0.1))
    helper_test_op([(3, 4)], lambda t, a: (a * 1).logit_(), low=0.1, high=0.9)


def test_higher_order_gradients():
    for name, (low, high) in UNARY.items():
        x = mt.tensor(np.random.default_rng(0).uniform(low, high, (3,)), dtype=mt.float64, requires_grad=True)
        assert mt.autograd.gradgradcheck(getattr(mt, name), (x,)), name


@pytest.mark.parametrize("name,dim", [("gammaln", None), ("psi", None), ("digamma", None), ("expit", None),
                                      ("erf", None), ("erfc", None), ("erfinv", None), ("expm1", None),
                                      ("exp2", None), ("log1p", None), ("logit", None), ("sinc", None),
                                      ("i0", None), ("i1", None),
                                      ("logsumexp", 1), ("softmax", 1), ("log_softmax", 1)])
def test_special_namespace(name, dim):
    args = () if dim is None else (dim,)
    helper_test_op([(3, 4)], lambda t, x: getattr(t.special, name)(x, *args), dtype=f64, low=0.1, high=0.9)


def test_bessel_i0_and_i1():
    x = np.array([-40.0, -30.5, -3.0, 0.0, 1e-3, 2.5, 29.9, 35.0, 100.0], f64)
    helper_test_op([x], lambda t, a: t.special.i1(a))
    helper_test_op([x], lambda t, a: t.special.i0(a))
    helper_test_op([ints((4,), -3, 3)], lambda t, a: t.special.i1(a))
    helper_test_op([np.array([0.0, -1.0, 1.0], f64)], lambda t, a: t.special.i1(a).sin())
    x = mt.tensor([-2.0, 0.0, 0.7, 31.0], dtype=mt.float64, requires_grad=True)
    assert mt.autograd.gradcheck(mt.special.i1, (x,)) and mt.autograd.gradgradcheck(mt.special.i1, (x,))
    np.testing.assert_allclose(values(mt.i0, [0.0, 1.0]), [1.0, 1.2660658777520082], rtol=1e-15)
    np.testing.assert_allclose(values(mt.special.i1, [0.0, 1.0]), [0.0, 0.5651591039924851], rtol=1e-15)


def test_xlog1py_entr_and_multigammaln():
    a = np.array([0.0, 0.0, 1.0, 0.0, 2.0, -1.5, NAN], f64)
    b = np.array([-1.0, NAN, -1.0, -2.0, 0.5, 3.0, 1.0], f64)
    helper_test_op([a, b], lambda t, x, y: t.special.xlog1py(x, y), grad=False)
    helper_test_op([(3, 4), (4,)], lambda t, x, y: t.special.xlog1py(x, y), dtype=f64, low=-0.5, high=2)
    helper_test_op([np.array([0.0, 0.5, -2.0], f64)], lambda t, x: t.special.xlog1py(x, -1.0))
    helper_test_op([np.array([0.0, 0.5, 2.0], f64)], lambda t, x: t.special.xlog1py(x, 1.5))
    helper_test_op([np.array([0.5, 2.0], f32)], lambda t, y: t.special.xlog1py(2.0, y))
    helper_test_op([ints((4,), 0, 3), ints((4,), 0, 3)], lambda t, x, y: t.special.xlog1py(x, y))
    helper_test_op([np.array([0.0, -1.0, 0.5, 2.0, INF, NAN], f64)], lambda t, x: t.special.entr(x), grad=False)
    helper_test_op([(3, 4)], lambda t, x: t.special.entr(x), low=0.1, high=3)
    for p in (1, 2, 5):
        helper_test_op([(3, 4)], lambda t, x: t.special.multigammaln(x, p), dtype=f64, low=2.1, high=6)
        helper_test_op([(3, 4)], lambda t, x: x.mvlgamma(p), low=2.1, high=6)
        helper_test_op([(3, 4)], lambda t, x: (x * 1).mvlgamma_(p), low=2.1, high=6)
    helper_test_op([ints((4,), 2, 5)], lambda t, x: t.mvlgamma(x, 2))
    check_error(lambda t, x: t.mvlgamma(x, 0), (3,), exc=RuntimeError, msg="p has to be greater than or equal to 1")
    x = mt.tensor([0.3, 2.0], dtype=mt.float64, requires_grad=True)
    y = mt.tensor([0.45, 3.0], dtype=mt.float64, requires_grad=True)
    assert mt.autograd.gradgradcheck(mt.special.xlog1py, (x, y)) and mt.autograd.gradgradcheck(mt.special.entr, (x,))


def test_special_ndtr_and_polygamma():
    helper_test_op([(3, 4)], lambda t, x: t.special.ndtr(x), dtype=f64, check_node=False)
    helper_test_op([(3, 4)], lambda t, x: t.special.polygamma(1, x), dtype=f64, low=0.2, high=3)


# ---- hand-derived values (no torch) ------------------------------------------------------------------------


def values(fn, *xs):
    return fn(*[mt.tensor(np.asarray(x, f64)) for x in xs]).numpy()


EULER = 0.5772156649015329


def test_known_values():
    np.testing.assert_allclose(values(mt.lgamma, [0.5, 1.0, 2.0, 5.0, -0.5]),
                               [0.5 * math.log(math.pi), 0, 0, math.log(24), math.log(2 * math.sqrt(math.pi))],
                               atol=1e-14)
    np.testing.assert_allclose(values(mt.digamma, [1.0, 0.5, 2.0]),
                               [-EULER, -EULER - 2 * math.log(2), 1 - EULER], rtol=1e-14)
    np.testing.assert_allclose(values(lambda x: mt.polygamma(1, x), [1.0, 0.5]), [math.pi ** 2 / 6, math.pi ** 2 / 2],
                               rtol=1e-14)
    np.testing.assert_allclose(values(mt.sinc, [0.0, 0.5, 1.0]), [1.0, 2 / math.pi, 0.0], atol=1e-15)
    np.testing.assert_allclose(values(mt.atan2, [1.0, 0.0], [-1.0, -1.0]), [3 * math.pi / 4, math.pi])
    np.testing.assert_allclose(values(mt.hypot, [3.0, 5.0], [4.0, 12.0]), [5.0, 13.0])
    np.testing.assert_allclose(values(mt.deg2rad, [180.0, -90.0]), [math.pi, -math.pi / 2])
    np.testing.assert_allclose(values(mt.logaddexp, [1000.0, -1000.0], [1000.0, -1000.0]),
                               [1000 + math.log(2), -1000 + math.log(2)])
    np.testing.assert_allclose(values(mt.logaddexp2, [3.0], [3.0]), [4.0])
    np.testing.assert_allclose(values(mt.xlogy, [0.0, 2.0, 0.0], [0.0, math.e, NAN]), [0.0, 2.0, NAN])
    np.testing.assert_allclose(values(mt.exp2, [10.0, -1.0]), [1024.0, 0.5])
    np.testing.assert_allclose(values(mt.logit, [0.5, 0.75]), [0.0, math.log(3)], atol=1e-15)
    np.testing.assert_allclose(values(lambda x: mt.mvlgamma(x, 2), [2.0]), [math.log(math.pi / 2)],
                               atol=1e-15)  # log(pi^(1/2) Gamma(2) Gamma(3/2)), Gamma(3/2) = pi^(1/2) / 2
    np.testing.assert_allclose(values(mt.special.xlog1py, [2.0], [math.e - 1]), [2.0])
    np.testing.assert_allclose(values(mt.special.entr, [0.5]), [0.5 * math.log(2)])


def test_lgamma_erfc_erfinv_against_the_math_module():
    x = np.concatenate([np.linspace(-20.3, 40.7, 301), [1e-8, 171.5, 1e4]])
    x = x[x != np.round(x)]  # (math.lgamma refuses the poles)
    np.testing.assert_allclose(values(mt.lgamma, x), [math.lgamma(v) for v in x], rtol=1e-12, atol=1e-13)
    x = np.linspace(-6, 27, 331)
    np.testing.assert_allclose(values(mt.erfc, x), [math.erfc(v) for v in x], rtol=1e-11, atol=0)
    y = np.concatenate([np.linspace(-0.999, 0.999, 201), [1 - 1e-12, -1 + 1e-15, 1e-10]])
    r = values(mt.erfinv, y)
    np.testing.assert_allclose([math.erf(v) for v in r[:-3]], y[:-3], rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose([math.erfc(abs(v)) for v in r[-3:-1]], 1 - np.abs(y[-3:-1]), rtol=1e-9)
    np.testing.assert_allclose(values(mt.erfinv, [1.0, -1.0, 1.5, 0.0]), [INF, -INF, NAN, 0.0])


def test_gradients_by_hand():
    x = mt.tensor([0.5, 1.0], dtype=mt.float64, requires_grad=True)
    mt.asin(x * 0.5).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 0.5 / np.sqrt(1 - np.array([0.25, 0.5]) ** 2))
    x = mt.tensor([0.0, 0.5], dtype=mt.float64, requires_grad=True)
    mt.sinc(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0.0, -4 / math.pi], atol=1e-15)
    x = mt.tensor([1.0], dtype=mt.float64, requires_grad=True)
    mt.lgamma(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-EULER])
    assert mt.asin(x).grad_fn.name() == "AsinBackward0"
    assert mt.xlogy(2.0, x).grad_fn.name() == "XlogyBackward1"
    assert mt.xlogy(x, 2.0).grad_fn.name() == "XlogyBackward2"


def test_erf_in_single_precision_is_within_3_ulp_of_the_correctly_rounded_value():
    import math
    x = np.linspace(-6, 6, 20001).astype(np.float32)
    exact = np.array([math.erf(v) for v in x.astype(np.float64)]).astype(np.float32)
    got = mt.erf(mt.from_numpy(x)).numpy()
    assert got.dtype == np.float32
    ulp = np.abs(got - exact) / np.spacing(np.maximum(np.abs(exact), np.float32(1e-30)))
    assert ulp.max() <= 3
    np.testing.assert_array_equal(np.sign(got), np.sign(x))  # odd, and 0 at 0
