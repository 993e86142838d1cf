"""batch_norm's numpy kernels (BLAS row sums, per-channel values repeated along rows, float64 statistics)
against PyTorch in float32, and gradchecked in float64, on every path they take: batches under and over
4 samples, rows under and over 8 values, training and eval, with and without weight and bias."""
import numpy as np
import pytest

import minitorch
from minitorch.autograd import gradcheck, gradgradcheck
from torch_answers import torch, torch_answer

BIG = (64, 16, 32, 32)  # 2M values per run: compared with torch where it is installed, too many to record
SHAPES = [pytest.param(BIG, marks=pytest.mark.skipif(torch is None, reason="compared live with torch only")),
          (2, 3, 5, 7), (6, 4, 3), (16, 8), (5, 3, 2, 3, 4), (8, 5, 9, 9)]


def _data(shape, seed=0):
    """x off-centre (mean 2, std 1.5: the statistics must not lose digits to the offset), g, weight, bias."""
    rng = np.random.default_rng(seed)
    c = shape[1]
    x = (2 + 1.5 * rng.standard_normal(shape)).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    return x, g, (0.5 + rng.random(c)).astype(np.float32), rng.standard_normal(c).astype(np.float32)


def _run(lib, x, g, w, b, training, affine):
    xt = lib.tensor(x, requires_grad=True)
    params = [lib.tensor(a, requires_grad=True) for a in (w, b)] if affine else [None, None]
    rm, rv = lib.zeros(x.shape[1]), lib.ones(x.shape[1])
    if not training:  # running statistics that are not the batch's
        rm, rv = lib.tensor(x.mean(axis=tuple(i for i in range(x.ndim) if i != 1)) + 0.3), rv * 2.5
    y = lib.nn.functional.batch_norm(xt, rm, rv, *params, training=training, momentum=0.2)
    y.backward(lib.tensor(g))
    arrays = [y, xt.grad, rm, rv] + ([p.grad for p in params] if affine else [])
    return [a.detach().numpy() for a in arrays]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_matches_torch_float32(shape, training, affine):
    args = *_data(shape), training, affine
    ours, theirs = _run(minitorch, *args), _run(torch, *args) if shape == BIG else torch_answer(_run, *args)
    for name, a, e in zip(["out", "grad x", "running mean", "running var", "grad weight", "grad bias"], ours, theirs):
        assert a.dtype == np.float32, name
        # float32 rounding of sums over up to 65536 values, relative to the largest value
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=2e-5 * np.abs(e).max(), err_msg=name)


@pytest.mark.parametrize("shape", [(5, 3, 2, 9), (2, 3, 10), (6, 4, 3), (4, 2)])
@pytest.mark.parametrize("training", [True, False])
def test_gradcheck_float64(shape, training):
    rng = np.random.default_rng(1)
    c = shape[1]
    x = minitorch.tensor(rng.standard_normal(shape), requires_grad=True)
    w = minitorch.tensor(0.5 + rng.random(c), requires_grad=True)
    b = minitorch.tensor(rng.standard_normal(c), requires_grad=True)
    rm, rv = minitorch.tensor(rng.standard_normal(c)), minitorch.tensor(0.5 + rng.random(c))

    def fn(x, w, b):
        return minitorch.nn.functional.batch_norm(x, rm.clone(), rv.clone(), w, b, training=training)

    assert gradcheck(fn, (x, w, b))
    assert gradcheck(lambda x: minitorch.nn.functional.batch_norm(x, rm.clone(), rv.clone(), training=training),
                     (x,))
    assert gradgradcheck(fn, (x, w, b))


def test_running_statistics_in_float64_accuracy():
    """The running variance is updated with the unbiased batch variance, taken around the batch mean."""
    x, _, _, _ = _data((64, 16, 32, 32), seed=3)
    rm, rv = minitorch.zeros(16), minitorch.ones(16)
    minitorch.nn.functional.batch_norm(minitorch.tensor(x), rm, rv, training=True, momentum=1.0)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(rm.numpy(), x64.mean((0, 2, 3)), rtol=1e-6)
    np.testing.assert_allclose(rv.numpy(), x64.var((0, 2, 3), ddof=1), rtol=1e-6)
