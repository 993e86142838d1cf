"""NaN, inf, -inf, signed zeros and boundary points as PyTorch: values and gradients of every registered
differentiable op (tests/edge_value_cases.py builds the cases from the registry samples and ``EDGES``), against
PyTorch's answers recorded in tests/fixtures/edge_values.json by tests/fixtures/make_edge_value_fixtures.py;
where PyTorch is installed, the recorded answers are checked against it too."""
import json
import math

import numpy as np
import pytest

import minitorch as mt
import minitorch.nn.functional as F
import registry_cases as registry
from edge_value_cases import FIXTURE, TorchForm, cases, differences, digest, encode, rng_kept, run

RECORDED = json.loads(FIXTURE.read_text())["cases"]


def _each(names, parts):
    return [f"{name}/{part}" for name in names for part in parts]


_IN_PLACE = ("acosh_", "arccosh_", "asinh_", "arcsinh_", "atanh_", "arctanh_")
_LAPACK = ("LAPACK's arithmetic on NaN and inf (pivot choices, which entries turn NaN, signs of zeros, error codes in "
           "messages) differs between numpy's OpenBLAS and torch's MKL; numpy's LAPACK even hangs on an inf in an SVD, "
           "so minitorch refuses non-finite SVD input up front")
_FUSED_NORM = ("torch's normalization kernels compute x * (w * rstd) + (b - mean * w * rstd) and their statistics by "
               "Welford updates: an inf weight or input gives NaN there (±inf with strided input, where torch takes "
               "another kernel); minitorch computes (x - mean) * rstd * w + b")

# Differences kept on purpose: case key -> why. A key that matches PyTorch again fails the test (remove it).
KEPT = {
    **dict.fromkeys(_each(_IN_PLACE, ("clean", "nan/0", "inf/0", "zero/0")) + _each(
        ("acosh_", "arccosh_", "atanh_", "arctanh_"), ("edge",)),
        "torch 2.13 has no derivative for the in-place acosh_/asinh_/atanh_ (NotImplementedError in backward); "
        "minitorch's passes gradcheck"),
    **dict.fromkeys(_each(["as_strided_scatter"], ("clean", "nan/0", "inf/0", "zero/0", "nan/1", "inf/1", "zero/1")),
                    "torch's as_strided_scatter gradient is wrong (it fails torch's own gradcheck); minitorch's passes"),
    **dict.fromkeys(_each(["vander"], ("clean", "nan/0", "inf/0", "zero/0")),
                    "torch's vander backward raises (its in-place cumprod bumps a version); minitorch's passes "
                    "gradcheck (the values match: x^0 is 1 for NaN and inf too)"),
    **dict.fromkeys(["poisson/clean", "poisson/zero/0"],
                    "minitorch's Poisson sampler draws other numbers than torch's (NaN and negative rates: both raise)"),
    **dict.fromkeys(["lobpcg/clean", "lobpcg/zero/0"],
                    "torch's lobpcg has no backward for a generalized problem (B given): ValueError; minitorch's "
                    "gradient passes gradcheck"),
    **dict.fromkeys(["svd/clean", "svd/inf/0", "svd/zero/0", "lobpcg/nan/0", "lobpcg/inf/0", "nuclear_norm/inf/0", "pinverse/inf/0", "det/inf/0",
                     "inverse/nan/0", "lu_solve/inf/0", "lu_unpack/inf/0", "lu_unpack/zero/0", "qr/inf/0",
                     "slogdet/nan/0", "slogdet/inf/0", "pca_lowrank/clean", "pca_lowrank/zero/0", "orgqr/zero/0",
                     "orgqr/zero/1", "ormqr/zero/1"], _LAPACK),
    **dict.fromkeys(["orgqr/nan/1", "ormqr/inf/0", "ormqr/nan/1", "ormqr/inf/1", "ormqr/nan/2"],
                    "torch's orgqr/ormqr gradients are dense formulas (a NaN reaches every entry); minitorch's follow "
                    "LAPACK's per-reflector updates, as both libraries' forward values do"),
    **dict.fromkeys(["F.group_norm/inf/1", "F.instance_norm/inf/1", "group_norm/inf/1", "instance_norm/inf/1",
                     "native_group_norm/inf/0"], _FUSED_NORM),
    **dict.fromkeys(["amin/zero/0", "min/zero/0"],
                    "which of -0.0 and 0.0 torch's min reductions return depends on its kernel's order of comparison "
                    "(its amin and min disagree on one input)"),
    "topk/edge": "the order of tied values is unspecified in torch's topk (its partial sort picks the last of equals)",
    **dict.fromkeys(["digamma/edge", "digamma_/edge"],
                    "torch's trigamma at a pole (-1, -2) is a finite ~1e32 (1 / sin(pi x)^2 of a rounded sin); "
                    "minitorch gives the pole's inf"),
    **dict.fromkeys(["grid_sampler/nan/1", "grid_sampler/inf/1", "grid_sampler_3d/nan/1"],
                    "a NaN or inf grid coordinate makes torch convert floor(NaN) to an integer index: undefined "
                    "behaviour in C++ (grid_sampler_2d with reflection padding crashes on it)"),
    **dict.fromkeys(_each(["grid_sampler_2d"], ("clean", "nan/0", "inf/0", "zero/0", "zero/1")) + [
        "grid_sampler_3d/inf/1"], "the sign of a zero grid gradient: torch multiplies it by its reflection's or "
                                  "clipping's -1, minitorch's composed coordinate maps leave +0.0"),
    "F.grid_sample/inf/0": ("an inf pixel under bicubic sampling: torch's kernel sums its tap gradients directly "
                            "(inf), minitorch's composed gathers meet 0 * inf (NaN)"),
}

OPS = [name for name in registry.DIFFERENTIABLE if registry._case(name) is not None]


def _mismatches(name):
    """{key: problems} for each case of ``name`` that differs from PyTorch's recorded answer."""
    out = {}
    for key, fn, inputs in cases(name):
        recorded = RECORDED.get(key)
        assert recorded is not None and recorded["inputs"] == digest(inputs), (
            f"{key}: no PyTorch answer for these inputs; run tests/fixtures/make_edge_value_fixtures.py")
        if "crash" in recorded:  # PyTorch crashed on it: nothing to compare with
            continue
        mine = run(mt, fn, inputs)
        problems = differences(recorded, mine)
        if problems and "scalar_path" in recorded and not differences(recorded["scalar_path"], mine):
            continue  # torch's vectorized and scalar kernels disagree here: minitorch gives the scalar kernel's answer
        if problems:
            out[key] = problems
    return out


@pytest.mark.parametrize("name", OPS)
def test_edge_values_match_pytorch(name):
    with rng_kept(mt):
        found = _mismatches(name)
    unexpected = {k: p for k, p in found.items() if k not in KEPT}
    assert not unexpected, "\n".join(f"{k}: {'; '.join(p)}" for k, p in unexpected.items())
    stale = [k for k in KEPT if k.split("/")[0] == name and k not in found]
    assert not stale, f"{stale} match PyTorch now: remove them from KEPT"


def test_every_kept_difference_names_a_recorded_case():
    assert not [k for k in KEPT if k not in RECORDED]


@pytest.mark.parametrize("name", sorted({key.split("/")[0] for key in RECORDED if key.endswith("/edge")}))
def test_the_recorded_edge_cases_are_pytorch_s_answers(name):
    """The fixture against live PyTorch, for the cases at the boundary points (where PyTorch is installed)."""
    torch = pytest.importorskip("torch")
    form = TorchForm()
    for key, fn, inputs in cases(name):
        if key.endswith("/edge"):
            with rng_kept(torch):
                assert not differences(RECORDED[key], run(torch, form(fn), inputs), rtol=1e-12), key


# The examples of issue 19 (PyTorch's answers on small tensors, where its CPU kernels run their scalar path).
NAN, INF = math.nan, math.inf


def _value_and_grad(f, *values):
    xs = [mt.tensor(v, dtype=mt.float64, requires_grad=True) for v in values]
    y = f(*xs)
    return y.detach().numpy(), [g.numpy() for g in mt.autograd.grad(y.sum(), xs)]


@pytest.mark.parametrize("f, values, expected, grads", [
    (lambda x: F.threshold(x, 0.5, 0.0), ([NAN, 1.5, -0.5, 0.5],), [NAN, 1.5, 0.0, 0.0], [[1, 1, 0, 0]]),
    (lambda x, y: F.smooth_l1_loss(x, y, reduction="none"), ([NAN, 1.0, 0.0, INF], [0.0, 0.0, 1.0, 0.0]),
     [NAN, 0.5, 0.5, INF], [[NAN, 1, -1, 1], [NAN, -1, 1, -1]]),
    (lambda x, y: F.huber_loss(x, y, reduction="none"), ([NAN, 2.0], [0.0, 0.0]), [NAN, 1.5], [[NAN, 1], [NAN, -1]]),
    (F.hardtanh, ([NAN, 1.0, -1.0, 0.5],), [NAN, 1.0, -1.0, 0.5], [[1, 0, 0, 1]]),
    (F.relu6, ([NAN, 0.0, 6.0, 0.5],), [NAN, 0.0, 6.0, 0.5], [[1, 0, 0, 1]]),
    (F.elu, ([NAN, -0.0, -INF],), [NAN, -0.0, -1.0], [[1, 1, 0]]),
    (F.selu, ([NAN],), [NAN], [[1.0507009873554805]]),
    (lambda x: mt.sign(x) * x, ([NAN, INF, -INF, -1.0],), [NAN, INF, INF, 1.0], [[0, 1, -1, -1]]),
    (lambda x: F.multi_margin_loss(x.reshape(1, -1), mt.tensor([0])), ([NAN, 0.0, INF, 1.0],), 0.0, [[0, 0, 0, 0]]),
])
def test_the_issue_examples(f, values, expected, grads):
    value, got = _value_and_grad(f, *values)
    np.testing.assert_allclose(value, expected)
    for g, want in zip(got, grads):
        np.testing.assert_allclose(g, want)


def test_binary_cross_entropy_refuses_nan_as_torch():
    with pytest.raises(RuntimeError, match="^all elements of input should be between 0 and 1$"):
        F.binary_cross_entropy(mt.tensor([NAN, 0.5]), mt.tensor([0.0, 1.0]))
    with pytest.raises(RuntimeError, match="^all elements of target should be between 0 and 1$"):
        F.binary_cross_entropy(mt.tensor([0.5, 0.5]), mt.tensor([NAN, 1.0]))


def test_encode_keeps_nan_inf_and_signed_zeros():
    a = np.array([NAN, INF, -INF, -0.0, 0.0, 1.5])
    back = differences({"out": encode({"out": [a]})["out"], "grad": []}, {"out": [a.copy()], "grad": []})
    assert not back
    flipped = a.copy()
    flipped[3] = 0.0
    assert differences({"out": encode({"out": [a]})["out"], "grad": []}, {"out": [flipped], "grad": []})
