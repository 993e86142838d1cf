"""minitorch.optim: Adafactor, Muon and SparseAdam.

Hand-derived first steps run on minitorch and, when PyTorch is installed, on PyTorch too (the ``lib`` fixture);
the ``*_matches_torch`` tests replay the same gradients through both libraries and compare parameters, state
and hyper-parameters.
"""
import math

import numpy as np
import pytest

import minitorch
import minitorch.optim  # binds minitorch.optim, as torch.optim is bound in torch
from test_optim import _param, _steps
from test_optim_more import _compare, _trajectory


def test_adafactor_first_step_by_hand(lib):
    p = _param(lib, [3.0, 4.0])
    opt = lib.optim.Adafactor([p], lr=0.1)
    # step 1: 1 - beta2 = 1, so V = g^2 and u = g / |g| = sign(g): RMS(u) = 1 = d, no clipping;
    # rho = min(0.1, 1) and alpha = max(1e-3, RMS(p)) * rho = sqrt(12.5) * 0.1
    _steps(lib, opt, [p], [[[2.0, -0.5]]])
    alpha = math.sqrt(12.5) * 0.1
    assert p.tolist() == pytest.approx([3.0 - alpha, 4.0 + alpha], rel=1e-14)
    assert list(opt.state[p]) == ["step", "variance"]


def test_adafactor_factored_matrix_step_by_hand(lib):
    p = _param(lib, [[1.0, 1.0], [1.0, 1.0]])
    opt = lib.optim.Adafactor([p], lr=0.5, weight_decay=0.2)
    # step 1: R = row means of g^2 = [2.5, 12.5], C = column means = [5, 10]; V = R C / mean(R) = R C / 7.5;
    # u = g / sqrt(V), then scaled down to RMS(u) = 1; p *= 1 - 0.5 * 0.2; p -= alpha * u, alpha = 1 * 0.5
    g = np.array([[1.0, 2.0], [3.0, 4.0]])
    _steps(lib, opt, [p], [[g.tolist()]])
    v = np.outer([2.5, 12.5], [5.0, 10.0]) / 7.5
    u = g / np.sqrt(v)
    u /= max(1.0, np.sqrt((u * u).mean()))
    np.testing.assert_allclose(p.detach().numpy(), 0.9 - 0.5 * u, rtol=1e-14)
    assert list(opt.state[p]) == ["step", "row_var", "col_var"]
    assert tuple(opt.state[p]["row_var"].shape) == (2, 1) and tuple(opt.state[p]["col_var"].shape) == (1, 2)


@pytest.mark.parametrize("kwargs", [{"lr": 0.05}, {"lr": 0.05, "weight_decay": 0.1, "maximize": True},
                                    {"lr": 0.05, "eps": (1e-3, 1e-2), "d": 1.5, "beta2_decay": -0.5}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_adafactor_matches_torch(kwargs, dtype):
    torch = pytest.importorskip("torch")
    ours, ours_opt = _trajectory(minitorch, "Adafactor", kwargs, dtype=dtype)
    theirs, their_opt = _trajectory(torch, "Adafactor", kwargs, dtype=dtype)
    rtol, atol = (1e-5, 1e-6) if dtype == np.float32 else (1e-12, 1e-13)
    _compare(ours, ours_opt, theirs, their_opt, rtol=rtol, atol=atol)


def _run(lib, name, shapes, kwargs, steps=8, dtype=np.float32):
    rng = np.random.default_rng(3)
    params = [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in shapes]
    opt = getattr(lib.optim, name)(params, **kwargs)
    for _ in range(steps):
        _steps(lib, opt, params, [[rng.standard_normal(s).astype(dtype) for s in shapes]])
    return params, opt


def test_adafactor_batched_and_scalar_parameters_match_torch():
    torch = pytest.importorskip("torch")
    shapes = [(2, 3, 4), ()]
    ours, ours_opt = _run(minitorch, "Adafactor", shapes, {"lr": 0.05})
    theirs, their_opt = _run(torch, "Adafactor", shapes, {"lr": 0.05})
    _compare(ours, ours_opt, theirs, their_opt, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs", [{"lr": 0.02},
                                    {"lr": 0.02, "nesterov": False, "adjust_lr_fn": "match_rms_adamw",
                                     "weight_decay": 0.0},
                                    {"lr": 0.02, "momentum": 0.5, "ns_steps": 3, "adjust_lr_fn": "original"}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_muon_matches_torch(kwargs, dtype):
    torch = pytest.importorskip("torch")
    shapes = [(4, 3), (3, 5), (6, 6)]  # tall, wide and square
    ours, ours_opt = _run(minitorch, "Muon", shapes, kwargs, dtype=dtype)
    theirs, their_opt = _run(torch, "Muon", shapes, kwargs, dtype=dtype)
    # the Newton-Schulz iteration runs in bfloat16 in both: they agree to the last float32 digits
    _compare(ours, ours_opt, theirs, their_opt, rtol=1e-5, atol=1e-6)


def test_muon_update_is_nearly_orthogonal(lib):
    p = _param(lib, np.zeros((3, 3)).tolist())
    opt = lib.optim.Muon([p], lr=1.0, weight_decay=0.0, momentum=0.0, nesterov=False)
    _steps(lib, opt, [p], [[np.diag([4.0, 1.0, 0.25]).tolist()]])
    # -p is the iteration's image of a diagonal: diagonal, each entry within its band around 1
    update = -p.detach().numpy()
    assert np.allclose(update, np.diag(np.diag(update)))
    assert np.all((np.diag(update) > 0.6) & (np.diag(update) < 1.25))
    assert list(opt.state[p]) == ["momentum_buffer"]


def test_muon_rejects_non_matrix_parameters_and_bad_arguments(lib):
    with pytest.raises(ValueError, match=r"Muon only supports 2D parameters whereas we found a parameter with size: "
                                         r"(torch|minitorch)\.Size\(\[3\]\)"):
        lib.optim.Muon([_param(lib, [1.0, 2.0, 3.0])])
    matrix = _param(lib, [[1.0]])
    for kwargs, message in (({"lr": -1.0}, "Learning rate should be >= 0 but is: -1.0"),
                            ({"momentum": -0.5}, "momentum should be >= 0 but is: -0.5"),
                            ({"weight_decay": -0.1}, "weight decay should be >= 0 but is: -0.1"),
                            ({"adjust_lr_fn": "other"}, "Adjust learning rate function other is not supported")):
        with pytest.raises(ValueError, match=message):
            lib.optim.Muon([matrix], **kwargs)
    opt = lib.optim.Muon([matrix], ns_steps=100)
    matrix.grad = lib.tensor([[1.0]], dtype=lib.float64)
    with pytest.raises(ValueError, match="Number of steps must be less than 100 for computational efficiency"):
        opt.step()


def test_adafactor_rejects_bad_arguments(lib):
    p = _param(lib, [1.0])
    for kwargs, message in (({"lr": -1.0}, r"Learning rate should be >= 0 but is: -1.0"),
                            ({"beta2_decay": 0.5}, r"beta2_decay should be <= 0 but is: 0.5"),
                            ({"eps": (-1.0, 1e-3)}, r"epsilon1 should be >= 0 but is: -1.0"),
                            ({"eps": (None, -1.0)}, r"epsilon2 should be >= 0 but is: -1.0"),
                            ({"d": 0.5}, r"Clipping threshold d should be >= 1 but is: 0.5"),
                            ({"weight_decay": -1.0}, r"weight_decay should be >= 0 but is: -1.0")):
        with pytest.raises(ValueError, match=message):
            lib.optim.Adafactor([p], **kwargs)


def test_sparse_adam_raises_on_dense_gradients(lib):
    p = _param(lib, [1.0, 2.0])
    opt = lib.optim.SparseAdam([p], lr=0.1)
    opt.step()  # no gradient: nothing to do
    p.grad = lib.tensor([1.0, 1.0], dtype=lib.float64)
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients, please consider Adam instead"):
        opt.step()
    with pytest.raises(ValueError, match="Invalid learning rate: 0.0"):
        lib.optim.SparseAdam([p], lr=0.0)
    with pytest.raises(ValueError, match=r"Invalid beta parameter at index 1: 1.0"):
        lib.optim.SparseAdam([p], betas=(0.9, 1.0))


@pytest.mark.parametrize("name,shape", [("Adafactor", (1,)), ("Muon", (1, 1)), ("SparseAdam", (1,))])
def test_defaults_match_torch(name, shape):
    torch = pytest.importorskip("torch")
    values = np.ones(shape).tolist()
    ours = getattr(minitorch.optim, name)([_param(minitorch, values)])
    theirs = getattr(torch.optim, name)([_param(torch, values)])
    assert ours.defaults == theirs.defaults and list(ours.defaults) == list(theirs.defaults)
    assert ours.state_dict()["param_groups"] == theirs.state_dict()["param_groups"]
    assert repr(ours) == repr(theirs)
