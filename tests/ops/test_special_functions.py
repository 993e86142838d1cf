"""torch.special's Bessel functions, erfcx, log_ndtr, ndtri, zeta, gammainc/gammaincc (torch.igamma/igammac)
and orthogonal polynomials: values against torch (float64 over wide ranges, and float32), against reference
values (computed to 30 digits) where torch's own kernels are less accurate, gradients, dtypes and errors."""
import numpy as np
import pytest

import minitorch
import minitorch.special as S
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error, helper_test_op
from torch_answers import torch_answer

_rng = np.random.default_rng(7)
# wide ranges: both signs, tiny and huge magnitudes, the switch points of the kernels, and +-0, +-inf, nan
WIDE = np.concatenate([np.linspace(-30, 30, 601), _rng.uniform(-800, 800, 200), 10.0 ** _rng.uniform(-300, 3, 200),
                       [2.0, 25.0, 30.0, 1e6, 0.0, -0.0, np.inf, -np.inf, np.nan]])

ACCURATE = ["i0e", "i1e", "erfcx", "log_ndtr", "spherical_bessel_j0", "modified_bessel_i0", "modified_bessel_i1",
            "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"]


def _float64(lib, values):
    return lib.tensor(np.asarray(values, np.float64), dtype=lib.float64)


def _assert_close(ours, theirs, rtol, atol=0.0):
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=rtol, atol=atol, equal_nan=True)


def _call(lib, path, *args):
    """``lib.<path>(*args)`` (``path`` such as ``"special.ndtri"``), array arguments as float64 tensors."""
    fn = lib
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn(*[_float64(lib, a) if isinstance(a, np.ndarray) else a for a in args])


def _assert_as_torch(path, *args, rtol, atol=0.0):
    """``path`` called on minitorch gives what it gives on torch, within the tolerances."""
    _assert_close(_call(minitorch, path, *args), torch_answer(_call, path, *args), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ACCURATE)
def test_unary_values_match_torch_in_float64_over_wide_ranges(name):
    values = WIDE[np.abs(WIDE) < 700] if name.startswith("modified_bessel_i") else WIDE  # torch overflows early
    _assert_as_torch(f"special.{name}", values, rtol=1e-12)


def test_ndtri_matches_torch_down_to_the_smallest_probabilities():
    rng = np.random.default_rng(8)
    p = np.concatenate([rng.uniform(0, 1, 500), 10.0 ** rng.uniform(-320, 0, 300), 1 - 10.0 ** rng.uniform(-16, 0, 100),
                        [0.0, 1.0, 0.5, -0.1, 1.1, np.nan]])
    _assert_as_torch("special.ndtri", p, rtol=1e-12, atol=1e-14)


# J0, J1, Y0, Y1 at x, to 30 digits (torch's kernels are off by up to ~1e-6 between 2 and 25)
BESSEL_REFERENCE = np.array([
    (0.5, 0.9384698072408129, 0.2422684576748739, -0.44451873350670656, -1.471472392670243),
    (1, 0.7651976865579666, 0.4400505857449335, 0.08825696421567696, -0.7812128213002887),
    (5.52, -2.657836947993624e-05, -0.3402696204082896, -0.3389385097854615, -0.030444278398032446),
    (10, -0.24593576445134835, 0.04347274616886144, 0.055671167283599395, 0.24901542420695388),
    (24, -0.056230274166859266, -0.15403806518312121, -0.15283402879758778, 0.05305977612120217),
    (40, 0.00736689058423729, 0.126038318037585, 0.12593641705826092, -0.005793505821549633),
    (1000, 0.024786686152420176, 0.004728311907089524, 0.0047159179776228135, -0.024784331292351778)])


def test_bessel_first_and_second_kind_against_reference_values():
    x = minitorch.tensor(BESSEL_REFERENCE[:, 0], dtype=minitorch.float64)
    for column, fn in enumerate((S.bessel_j0, S.bessel_j1, S.bessel_y0, S.bessel_y1), start=1):
        np.testing.assert_allclose(fn(x).numpy(), BESSEL_REFERENCE[:, column], rtol=1e-13, atol=1e-15)
    # parity: J0 even, J1 odd
    np.testing.assert_allclose(S.bessel_j0(-x).numpy(), BESSEL_REFERENCE[:, 1], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(S.bessel_j1(-x).numpy(), -BESSEL_REFERENCE[:, 2], rtol=1e-13, atol=1e-15)


# Ai(x), to 30 digits
AIRY_REFERENCE = np.array([(-100, 0.1767533932395529), (-20, -0.1764061270779847), (-5, 0.35076100902411433),
                           (-2.5, -0.11232506769296609), (-1, 0.5355608832923521), (0, 0.3550280538878172),
                           (0.5, 0.23169360648083348), (1.5, 0.07174949700810541), (4, 0.0009515638512048018),
                           (20, 1.6916728686705404e-27), (50, 4.5849417240748285e-104)])


def test_airy_ai_against_reference_values():
    ai = S.airy_ai(minitorch.tensor(AIRY_REFERENCE[:, 0], dtype=minitorch.float64)).numpy()
    np.testing.assert_allclose(ai, AIRY_REFERENCE[:, 1], rtol=2e-13)
    first_zero = S.airy_ai(minitorch.tensor([-2.338107410459767], dtype=minitorch.float64)).item()
    assert abs(first_zero) < 1e-15  # torch's kernel gives 7e-7 there


@pytest.mark.parametrize("name", ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "airy_ai"])
def test_bessel_first_and_second_kind_match_torch(name):
    values = WIDE[np.abs(WIDE) < 1e5]
    _assert_as_torch(f"special.{name}", values, rtol=1e-5, atol=2e-6)  # the tolerance of torch's own error (see above)


@pytest.mark.parametrize("name", ACCURATE + ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "airy_ai", "ndtri"])
def test_float32_and_integer_inputs(name):
    low, high = (0.05, 0.95) if name == "ndtri" else (-8.0, 8.0)
    helper_test_op([(40,)], lambda lib, t: getattr(lib.special, name)(t), low=low, high=high, atol=2e-6, rtol=1e-5,
                   grad=False)
    helper_test_op([np.arange(-3, 4)], lambda lib, t: getattr(lib.special, name)(t), grad=False)


@pytest.mark.parametrize("name,low,high", [("i0e", -4, 4), ("i1e", -4, 4), ("erfcx", -3, 5), ("log_ndtr", -12, 4),
                                           ("ndtri", 0.01, 0.99)])
def test_gradients_match_torch_and_pass_gradcheck(name, low, high):
    fn = getattr(S, name)
    helper_test_op([(3, 4)], lambda lib, t: getattr(lib.special, name)(t), low=low, high=high, dtype=np.float64)
    t = minitorch.tensor(np.random.default_rng(0).uniform(low, high, (3, 4)), dtype=minitorch.float64,
                         requires_grad=True)
    assert gradcheck(fn, (t,)) and gradgradcheck(fn, (t,))


@pytest.mark.parametrize("name", ["bessel_j0", "bessel_y1", "modified_bessel_k0", "scaled_modified_bessel_k1",
                                  "spherical_bessel_j0", "modified_bessel_i1", "airy_ai"])
def test_bessel_functions_without_derivative_record_no_graph(name):
    t = minitorch.tensor([0.5, 1.5], requires_grad=True)
    out = getattr(S, name)(t)
    assert out.grad_fn is None and not out.requires_grad


def test_out_argument_and_namespace():
    out = minitorch.empty(3)
    result = S.erfcx(minitorch.tensor([0.0, 1.0, 30.0]), out=out)
    assert result is out and out[0].item() == 1.0
    S.chebyshev_polynomial_t(minitorch.tensor([0.5, 2.0]), 3, out=out)
    assert out.tolist() == [-1.0, 26.0]  # T3(x) = 4x^3 - 3x
    assert S.Tensor is minitorch.Tensor and S.round is minitorch.round


POLYNOMIALS = [name for name in S.__all__ if name.endswith(("_polynomial_t", "_polynomial_u", "_polynomial_v",
                                                             "_polynomial_w", "_polynomial_h", "_polynomial_he",
                                                             "_polynomial_l", "_polynomial_p"))]


def test_all_twelve_polynomials_are_exported():
    assert len(POLYNOMIALS) == 12


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomials_match_torch(name):
    rng = np.random.default_rng(9)
    x = np.concatenate([rng.uniform(-1.5, 1.5, 60), [1.0, -1.0, 0.0, 0.5]])
    n = np.concatenate([rng.integers(-2, 12, 60), [7, 8, 30, 2]]).astype(np.float64)
    _assert_as_torch(f"special.{name}", x, n, rtol=1e-10, atol=1e-12)
    for degree in (0, 1, 5, 2.7, -1.0):  # a number of degree: truncated, 0 below 0
        _assert_as_torch(f"special.{name}", x, degree, rtol=1e-10, atol=1e-12)
    # dtypes: float32 stays float32 (a 0-d float64 degree does not promote it), integers give the default dtype
    helper_test_op([(8,), np.array(3.0)], lambda lib, t, k: getattr(lib.special, name)(t, k), grad=False,
                   low=-1.0, high=1.0)
    helper_test_op([np.arange(-2, 3), np.array([0, 1, 2, 3, 4])], lambda lib, t, k: getattr(lib.special, name)(t, k),
                   grad=False)
    helper_test_op([2.0, np.array([1.0, 2.0, 3.0], np.float32)],
                   lambda lib, t, k: getattr(lib.special, name)(t, k), grad=False)


def test_polynomials_by_hand():
    x = minitorch.tensor([0.5, 2.0], dtype=minitorch.float64)
    assert S.hermite_polynomial_h(x, 3).tolist() == [8 * 0.125 - 12 * 0.5, 8 * 8 - 12 * 2]      # 8x^3 - 12x
    assert S.hermite_polynomial_he(x, 3).tolist() == [0.125 - 1.5, 8 - 6]                       # x^3 - 3x
    assert S.legendre_polynomial_p(x, 2).tolist() == [(3 * 0.25 - 1) / 2, (3 * 4 - 1) / 2]      # (3x^2 - 1) / 2
    assert S.laguerre_polynomial_l(x, 2).tolist() == [(0.25 - 2 + 2) / 2, (4 - 8 + 2) / 2]      # (x^2 - 4x + 2) / 2
    assert S.shifted_chebyshev_polynomial_t(x, 2).tolist() == [-1.0, 17.0]                      # T2(2x - 1)
    assert S.chebyshev_polynomial_w(x, 2).tolist() == [4 * 0.25 + 2 * 0.5 - 1, 16 + 4 - 1]     # 4x^2 + 2x - 1


def test_igamma_matches_torch_over_wide_ranges():
    rng = np.random.default_rng(10)
    a = np.concatenate([10.0 ** rng.uniform(-3, 3, 400), [0, 0, 1, 1, np.inf, np.inf, 2, -1, 1, np.nan]])
    x = np.concatenate([a[:400] * 10.0 ** rng.uniform(-1, 1, 400), [0, 1, 0, np.inf, 1, np.inf, -1, 1, np.nan, 1]])
    for path in ("igamma", "igammac", "special.gammainc", "special.gammaincc"):
        # torch's own kernel is good to about 2e-9 here (checked against 30-digit values)
        _assert_as_torch(path, a, x, rtol=5e-9, atol=1e-300)


def test_igamma_by_hand():
    a = minitorch.tensor([1.0, 1.0, 0.5, 3.0], dtype=minitorch.float64)
    x = minitorch.tensor([2.0, 30.0, 2.0, 1.0], dtype=minitorch.float64)
    # P(1, x) = 1 - e^-x; P(1/2, x) = erf(sqrt x); P(3, x) = 1 - e^-x (1 + x + x^2 / 2)
    expected = [1 - np.exp(-2.0), 1 - np.exp(-30.0), 0.9544997361036416, 1 - 2.5 * np.exp(-1.0)]
    np.testing.assert_allclose(minitorch.igamma(a, x).numpy(), expected, rtol=1e-14)
    # Q(1, x) = e^-x; Q(1/2, x) = erfc(sqrt x); Q(3, x) = e^-x (1 + x + x^2 / 2)
    expected_upper = [np.exp(-2.0), np.exp(-30.0), 0.04550026389635842, 2.5 * np.exp(-1.0)]
    np.testing.assert_allclose(a.igammac(x).numpy(), expected_upper, rtol=1e-13)
    assert a.clone().igamma_(x).tolist() == minitorch.igamma(a, x).tolist()


def test_igamma_gradient_in_its_second_argument_only():
    helper_test_op([(3, 4), (3, 4)], lambda lib, a, x: lib.igamma(a, x), low=0.5, high=3.0, dtype=np.float64,
                   grad=(False, True))
    helper_test_op([(3, 4), (3, 4)], lambda lib, a, x: lib.special.gammaincc(a, x), low=0.5, high=3.0,
                   dtype=np.float64, grad=(False, True))
    helper_test_op([(3, 4), (3, 4)], lambda lib, a, x: lib.igamma(a, x), low=0.5, high=3.0, dtype=np.float64)


def test_igamma_errors():
    check_error(lambda lib, t: lib.igamma(t, 2.0), (3,), exc=TypeError,
                msg="igamma(): argument 'other' (position 2) must be Tensor, not float")
    check_error(lambda lib, t: lib.special.gammainc(2.0, t), (3,), exc=TypeError,
                msg="special_gammainc(): argument 'input' (position 1) must be Tensor, not float")
    check_error(lambda lib, a, b: lib.igamma(a, b), (2,), (3,), exc=RuntimeError)
    check_error(lambda lib, a, b: lib.igammac(a, b), np.arange(3), np.arange(3), exc=NotImplementedError,
                msg="\"igammac_cpu\" not implemented for 'Long'")


def test_zeta_matches_torch():
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(1, 30, 300), [1, 0.5, 2, 2, 2.5, 3, 4, 2]])
    q = np.concatenate([10.0 ** rng.uniform(-3, 3, 300), [1, 1, -1, -1.5, -1.5, -2.5, -3.5, 0]])
    _assert_as_torch("special.zeta", x, q, rtol=1e-13)
    assert S.zeta(minitorch.tensor([2.0, 4.0], dtype=minitorch.float64), 1.0).numpy() == pytest.approx(
        [np.pi ** 2 / 6, np.pi ** 4 / 90], rel=1e-15)


def test_zeta_gradient_in_q_only_and_number_arguments():
    helper_test_op([(3, 4), (3, 4)], lambda lib, x, q: lib.special.zeta(x, q), low=1.5, high=3.0, dtype=np.float64,
                   grad=(False, True))
    helper_test_op([(3, 4), (3, 4)], lambda lib, x, q: lib.special.zeta(x, q), low=1.5, high=3.0, dtype=np.float64)
    helper_test_op([(3,)], lambda lib, q: lib.special.zeta(2.5, q), low=0.5, high=3.0)
    helper_test_op([(3,)], lambda lib, x: lib.special.zeta(x, 2.0), low=1.5, high=3.0, grad=False)
    q = minitorch.tensor(np.random.default_rng(1).uniform(0.5, 3.0, (3, 4)), dtype=minitorch.float64,
                         requires_grad=True)
    assert gradcheck(lambda t: S.zeta(2.5, t), (q,)) and gradgradcheck(lambda t: S.zeta(2.5, t), (q,))
