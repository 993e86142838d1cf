"""minitorch.optim: Adafactor, Muon and SparseAdam.

Hand-derived first steps run on minitorch and, when PyTorch is installed, on PyTorch too (the ``lib`` fixture);
the ``*_matches_torch`` tests replay the same gradients through both libraries and compare parameters, state
and hyper-parameters.
"""
import copy
import math

import numpy as np
import pytest

import minitorch
import minitorch.optim  # binds minitorch.optim, as torch.optim is bound in torch
from test_optim import _param, _steps, assert_same_run, torch_run
from test_adaptive_optimizers import _trajectory
from torch_answers import torch_answer


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
    ours, ours_opt = _trajectory(minitorch, "Adafactor", kwargs, dtype=dtype)
    expected = torch_answer(torch_run, _trajectory, "Adafactor", kwargs, 30, dtype)
    rtol, atol = (1e-5, 1e-6) if dtype == np.float32 else (1e-12, 1e-13)
    assert_same_run(ours, ours_opt, expected, rtol=rtol, atol=atol)


def _run(lib, name, shapes, kwargs, steps=8, dtype=np.float32):
    rng = np.random.default_rng(3)
    params = [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in shapes]
    opt = getattr(lib.optim, name)(params, **kwargs)
    for _ in range(steps):
        _steps(lib, opt, params, [[rng.standard_normal(s).astype(dtype) for s in shapes]])
    return params, opt


def test_adafactor_batched_and_scalar_parameters_match_torch():
    shapes = [(2, 3, 4), ()]
    ours, ours_opt = _run(minitorch, "Adafactor", shapes, {"lr": 0.05})
    expected = torch_answer(torch_run, _run, "Adafactor", shapes, {"lr": 0.05})
    assert_same_run(ours, ours_opt, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs", [{"lr": 0.02},
                                    {"lr": 0.02, "nesterov": False, "adjust_lr_fn": "match_rms_adamw",
                                     "weight_decay": 0.0},
                                    {"lr": 0.02, "momentum": 0.5, "ns_steps": 3, "adjust_lr_fn": "original"}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_muon_matches_torch(kwargs, dtype):
    shapes = [(4, 3), (3, 5), (6, 6)]  # tall, wide and square
    ours, ours_opt = _run(minitorch, "Muon", shapes, kwargs, dtype=dtype)
    expected = torch_answer(torch_run, _run, "Muon", shapes, kwargs, 8, dtype)
    # the Newton-Schulz iteration runs in bfloat16 in both: they agree to the last float32 digits
    assert_same_run(ours, ours_opt, expected, rtol=1e-5, atol=1e-6)


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
    values = np.ones(shape).tolist()
    ours = getattr(minitorch.optim, name)([_param(minitorch, values)])
    defaults, groups, text = torch_answer(_torch_defaults, name, values)
    assert ours.defaults == defaults and list(ours.defaults) == list(defaults)
    assert ours.state_dict()["param_groups"] == groups
    assert repr(ours) == text


def _torch_defaults(torch, name, values):
    opt = getattr(torch.optim, name)([_param(torch, values)])
    return opt.defaults, opt.state_dict()["param_groups"], repr(opt)


# ---- swa_utils ------------------------------------------------------------------------------------------

def _model(lib):
    rng = np.random.default_rng(5)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype))
    return model


def _averaged_trajectory(lib, **kwargs):
    """An AveragedModel over five perturbed versions of one model (the batch-norm buffers change through
    training-mode forward passes)."""
    rng = np.random.default_rng(6)
    model = _model(lib)
    averaged = lib.optim.swa_utils.AveragedModel(model, **kwargs)
    for _ in range(5):
        with lib.no_grad():
            for p in model.parameters():
                p.add_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
        model(lib.tensor(rng.standard_normal((8, 3)).astype(np.float32)))
        averaged.update_parameters(model)
    return averaged


def _averaged_run(lib, which):
    utils = lib.optim.swa_utils
    kwargs = {"swa": {}, "ema_multi": {"multi_avg_fn": utils.get_ema_multi_avg_fn(0.9)},
              "ema_buffers": {"multi_avg_fn": utils.get_ema_multi_avg_fn(0.8), "use_buffers": True},
              "swa_multi": {"multi_avg_fn": utils.get_swa_multi_avg_fn()},
              "ema": {"avg_fn": utils.get_ema_avg_fn(0.7)}}[which]
    return _averaged_trajectory(lib, **kwargs)


@pytest.mark.parametrize("which", ["swa", "ema_multi", "ema_buffers", "swa_multi", "ema"])
def test_averaged_model_matches_torch(which):
    ours = _averaged_run(minitorch, which)
    ours_sd, their_sd = ours.state_dict(), torch_answer(lambda torch: _averaged_run(torch, which).state_dict())
    assert list(ours_sd) == list(their_sd)
    for key, value in their_sd.items():
        np.testing.assert_allclose(ours_sd[key].numpy(), value.numpy(), rtol=1e-5, atol=1e-6, err_msg=key)
    assert ours.n_averaged.item() == 5 and str(ours.n_averaged.dtype).endswith("int64")


def test_swa_average_by_hand():
    model = minitorch.nn.Linear(1, 1, bias=False)
    averaged = minitorch.optim.swa_utils.AveragedModel(model)
    for value in (1.0, 2.0, 6.0):
        with minitorch.no_grad():
            model.weight.fill_(value)
        averaged.update_parameters(model)
    assert averaged.module.weight.item() == 3.0  # (1 + 2 + 6) / 3
    assert averaged(minitorch.tensor([[2.0]])).item() == 6.0
    with pytest.raises(ValueError, match=r"Invalid decay value 1.5 provided. Please provide a value in \[0,1\] range."):
        minitorch.optim.swa_utils.get_ema_avg_fn(1.5)


def test_update_bn_matches_torch():
    rng = np.random.default_rng(8)
    batches = [rng.standard_normal((6, 3)).astype(np.float32) for _ in range(3)]
    for ours, theirs in zip(_updated_bn(minitorch, batches), torch_answer(_updated_bn, batches)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def _updated_bn(lib, batches):
    """The batch-norm buffers ``update_bn`` leaves after the batches."""
    model = _model(lib)
    model.eval()
    lib.optim.swa_utils.update_bn([(lib.tensor(b), 0) for b in batches], model)
    bn = model[1]
    assert not model.training and bn.momentum == 0.1
    return [bn.running_mean.numpy(), bn.running_var.numpy(), bn.num_batches_tracked.item()]


@pytest.mark.parametrize("strategy,epochs", [("cos", 3), ("linear", 4), ("cos", 0)])
def test_swalr_matches_torch(strategy, epochs):
    np.testing.assert_allclose(_swalr_lrs(minitorch, strategy, epochs), torch_answer(_swalr_lrs, strategy, epochs),
                               rtol=1e-15)


def _swalr_lrs(lib, strategy, epochs):
    """The learning rates SWALR sets over six steps."""
    params = [_param(lib, [1.0]), _param(lib, [2.0])]
    opt = lib.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.5}], lr=1.0)
    scheduler = lib.optim.swa_utils.SWALR(opt, swa_lr=[0.05, 0.1], anneal_epochs=epochs, anneal_strategy=strategy)
    seen = []
    for _ in range(6):
        opt.step()
        scheduler.step()
        seen.append(scheduler.get_last_lr())
    state = scheduler.state_dict()
    assert "anneal_func" not in state and "optimizer" not in state
    return seen


def test_swalr_rejects_bad_arguments(lib):
    opt = lib.optim.SGD([_param(lib, [1.0])], lr=1.0)
    with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear', instead got exp"):
        lib.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0, got -1"):
        lib.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
    with pytest.raises(ValueError, match="swa_lr must have the same length as optimizer.param_groups"):
        lib.optim.swa_utils.SWALR(opt, swa_lr=[0.1, 0.2])


# ---- swap_in_optimizer_params_and_state ------------------------------------------------------------------

def _swap_in_run(lib):
    """Adam on live parameters; then one step on swapped-in copies of the parameters and state (with another lr)."""
    live = [_param(lib, [1.0, 2.0]), _param(lib, [3.0])]
    opt = lib.optim.Adam([{"params": live[:1]}, {"params": live[1:], "lr": 0.2}], lr=0.1)
    _steps(lib, opt, live, [[[0.5, -1.0], [2.0]]])
    copies = {"a": live[0].detach().clone().requires_grad_(), "b": live[1].detach().clone().requires_grad_()}
    swapin_state = copy.deepcopy(opt.state_dict())
    swapin_state["param_groups"][0]["lr"] = 0.01
    with lib.optim.swap_in_optimizer_params_and_state(opt, copies, swapin_state):
        assert opt.param_groups[0]["params"][0] is copies["a"] and opt.param_groups[0]["lr"] == 0.01
        _steps(lib, opt, list(copies.values()), [[[1.0, 1.0], [-1.0]]])
    assert opt.param_groups[0]["params"][0] is live[0] and opt.param_groups[0]["lr"] == 0.1
    assert opt.state[live[0]]["step"].item() == 1.0
    return live, copies, swapin_state


def test_swap_in_optimizer_params_and_state_matches_torch():
    ours, theirs = _swap_in_run(minitorch), torch_answer(_swap_in_run)
    for a, b in zip(ours[0] + list(ours[1].values()), theirs[0] + list(theirs[1].values())):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-14)
    # the swapped-in state was updated in place
    assert ours[2]["state"][0]["step"].item() == 2.0
    np.testing.assert_allclose(ours[2]["state"][0]["exp_avg"].numpy(), theirs[2]["state"][0]["exp_avg"].numpy(),
                               rtol=1e-14)


def test_swap_in_optimizer_params_and_state_checks(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.9)
    swap = lib.optim.swap_in_optimizer_params_and_state
    with pytest.raises(RuntimeError, match="requires initialized optimizer state"):
        with swap(opt, {"p": p}, opt.state_dict()):
            pass
    _steps(lib, opt, [p], [[[1.0]]])
    bad = opt.state_dict()
    bad["param_groups"] = [dict(bad["param_groups"][0], extra=1)]
    with pytest.raises(RuntimeError, match=r"Keys only in swap-in: \['extra'\]. Keys only in live: \[\]."):
        with swap(opt, {"p": p}, bad):
            pass
    with pytest.raises(RuntimeError, match=r"got extra keys \[5\]"):
        with swap(opt, {"p": p}, {"state": {5: {}}, "param_groups": opt.state_dict()["param_groups"]}):
            pass
