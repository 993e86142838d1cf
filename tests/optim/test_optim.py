"""minitorch.optim: SGD, Adam, AdamW, RMSprop and the Optimizer base.

Tests taking ``lib`` run on minitorch and, when PyTorch is installed, on PyTorch too (conftest.py), so
their hand-computed expectations are checked against the specification. The ``*_matches_torch`` tests
replay the same gradients through both libraries for every option combination.
"""
import copy
import importlib
import math

import numpy as np
import pytest

import minitorch
import minitorch.optim  # binds minitorch.optim, as torch.optim is bound in torch
from torch_answers import torch_answer


def _param(lib, values, dtype=None):
    return lib.tensor(values, dtype=dtype or lib.float64, requires_grad=True)


def _steps(lib, opt, params, grads):
    """One optimizer step per entry of ``grads`` (a list of per-parameter values; None leaves no grad)."""
    for step_grads in grads:
        for p, g in zip(params, step_grads):
            p.grad = None if g is None else lib.tensor(g, dtype=p.dtype)
        opt.step()


# ---- update rules, by hand ------------------------------------------------------------------------------

def test_sgd_plain_by_hand(lib):
    p = _param(lib, [1.0, -2.0])
    opt = lib.optim.SGD([p], lr=0.1)
    expected = [[0.95, -2.1], [1.05, -2.3], [1.025, -1.9]]  # p -= 0.1 * g
    for g, want in zip([[0.5, 1.0], [-1.0, 2.0], [0.25, -4.0]], expected):
        _steps(lib, opt, [p], [[g]])
        assert p.tolist() == pytest.approx(want, rel=1e-14)


def test_sgd_momentum_dampening_weight_decay_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.1)
    # step 1: d = 1 + 0.1*1 = 1.1; the buffer starts as d itself (no dampening): buf = 1.1; p = 1 - 0.11
    # step 2: d = 2 + 0.1*0.89 = 2.089; buf = 0.9*1.1 + 0.5*2.089 = 2.0345; p = 0.89 - 0.20345
    # step 3: d = -1 + 0.1*0.68655 = -0.931345; buf = 0.9*2.0345 + 0.5*d = 1.3653775; p = 0.68655 - 0.13653775
    for g, want_p, want_buf in [(1.0, 0.89, 1.1), (2.0, 0.68655, 2.0345), (-1.0, 0.55001225, 1.3653775)]:
        _steps(lib, opt, [p], [[[g]]])
        assert p.item() == pytest.approx(want_p, rel=1e-13)
        assert opt.state[p]["momentum_buffer"].item() == pytest.approx(want_buf, rel=1e-13)


def test_sgd_nesterov_by_hand(lib):
    p = _param(lib, [2.0])
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.5, nesterov=True)
    # step 1: buf = 1; step along g + 0.5*buf = 1.5: p = 2 - 0.15
    # step 2: buf = 0.5*1 + 3 = 3.5; step along 3 + 0.5*3.5 = 4.75: p = 1.85 - 0.475
    _steps(lib, opt, [p], [[[1.0]]])
    assert p.item() == pytest.approx(1.85, rel=1e-14)
    _steps(lib, opt, [p], [[[3.0]]])
    assert p.item() == pytest.approx(1.375, rel=1e-14)


def test_sgd_maximize_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.9, maximize=True)
    # g = -2: buf = -2, p = 1 + 0.2; then buf = 0.9*(-2) - 2 = -3.8, p = 1.2 + 0.38
    _steps(lib, opt, [p], [[[2.0]], [[2.0]]])
    assert p.item() == pytest.approx(1.58, rel=1e-14)
    assert opt.state[p]["momentum_buffer"].item() == pytest.approx(-3.8, rel=1e-14)


EPS = 1e-8
# Adam with lr=0.1, betas=(0.9, 0.999) and gradients 2 then -1 from p = 1:
#   step 1: m = 0.1*2 = 0.2, v = 0.001*4 = 0.004; bias corrections 1-0.9 = 0.1 and 1-0.999 = 0.001
#           p = 1 - (0.1/0.1) * 0.2 / (sqrt(0.004)/sqrt(0.001) + eps) = 1 - 0.2/(2 + eps)
#   step 2: m = 0.9*0.2 + 0.1*(-1) = 0.08, v = 0.999*0.004 + 0.001*1 = 0.004996; corrections 0.19, 0.001999
ADAM_P1 = 1 - 0.2 / (2 + EPS)
ADAM_P2 = ADAM_P1 - (0.1 / 0.19) * 0.08 / (math.sqrt(0.004996) / math.sqrt(0.001999) + EPS)


def test_adam_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adam([p], lr=0.1)
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(ADAM_P1, rel=1e-14)
    _steps(lib, opt, [p], [[[-1.0]]])
    assert p.item() == pytest.approx(ADAM_P2, rel=1e-14)
    state = opt.state[p]
    assert list(state) == ["step", "exp_avg", "exp_avg_sq"]
    assert state["step"].item() == 2.0 and state["step"].dim() == 0
    assert state["exp_avg"].item() == pytest.approx(0.08, rel=1e-14)
    assert state["exp_avg_sq"].item() == pytest.approx(0.004996, rel=1e-14)


def test_adam_maximize_and_l2_weight_decay_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adam([p], lr=0.1, maximize=True)
    _steps(lib, opt, [p], [[[2.0]]])  # the step follows -g: p = 1 + 0.2/(2 + eps)
    assert p.item() == pytest.approx(1 + 0.2 / (2 + EPS), rel=1e-14)

    q = _param(lib, [1.0])
    opt = lib.optim.Adam([q], lr=0.1, weight_decay=0.5)
    _steps(lib, opt, [q], [[[2.0]]])  # g = 2 + 0.5*1 = 2.5: m = 0.25, v = 0.00625, p = 1 - 0.25/(2.5 + eps)
    assert q.item() == pytest.approx(1 - 0.25 / (2.5 + EPS), rel=1e-14)
    assert opt.state[q]["exp_avg"].item() == pytest.approx(0.25, rel=1e-14)


def test_adamw_decoupled_weight_decay_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.AdamW([p], lr=0.1, weight_decay=0.5)
    # each step first scales p by 1 - 0.1*0.5 = 0.95; the moments see the raw gradients (as in plain Adam)
    _steps(lib, opt, [p], [[[2.0]]])
    p1 = 0.95 - 0.2 / (2 + EPS)
    assert p.item() == pytest.approx(p1, rel=1e-14)
    _steps(lib, opt, [p], [[[-1.0]]])
    assert p.item() == pytest.approx(p1 * 0.95 - (0.1 / 0.19) * 0.08 / (math.sqrt(0.004996) / math.sqrt(0.001999)
                                                                         + EPS), rel=1e-14)
    assert opt.param_groups[0]["decoupled_weight_decay"] is True


def test_amsgrad_uses_the_running_maximum_by_hand(lib):
    # gradients 2 then 0: v falls from 0.004 to 0.999*0.004 = 0.003996, amsgrad keeps 0.004; m = 0.18
    results = {}
    for amsgrad in (False, True):
        p = _param(lib, [1.0])
        opt = lib.optim.Adam([p], lr=0.1, amsgrad=amsgrad)
        _steps(lib, opt, [p], [[[2.0]], [[0.0]]])
        results[amsgrad] = p.item()
        if amsgrad:
            assert opt.state[p]["max_exp_avg_sq"].item() == pytest.approx(0.004, rel=1e-14)
    step2 = (0.1 / 0.19) * 0.18
    assert results[False] == pytest.approx(ADAM_P1 - step2 / (math.sqrt(0.003996) / math.sqrt(0.001999) + EPS),
                                           rel=1e-14)
    assert results[True] == pytest.approx(ADAM_P1 - step2 / (math.sqrt(0.004) / math.sqrt(0.001999) + EPS),
                                          rel=1e-14)


def test_adam_beta1_at_least_half(lib):
    # beta1 = 0.25: m moves by lerp weight 0.75 (torch switches formula at 0.5); from p = 0, g = 4 then 1:
    # m = 3, v = 0.5*16 = 8 -> p = -(0.1/0.75) * 3 / (sqrt(8)/sqrt(0.5) + eps)
    p = _param(lib, [0.0])
    opt = lib.optim.Adam([p], lr=0.1, betas=(0.25, 0.5))
    _steps(lib, opt, [p], [[[4.0]]])
    p1 = -(0.1 / 0.75) * 3 / (math.sqrt(8) / math.sqrt(0.5) + EPS)
    assert p.item() == pytest.approx(p1, rel=1e-14)
    # m = 0.25*3 + 0.75*1 = 1.5, v = 0.5*8 + 0.5*1 = 4.5; corrections 1-0.0625, 1-0.25
    _steps(lib, opt, [p], [[[1.0]]])
    assert p.item() == pytest.approx(p1 - (0.1 / 0.9375) * 1.5 / (math.sqrt(4.5) / math.sqrt(0.75) + EPS), rel=1e-14)


def test_rmsprop_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.RMSprop([p], lr=0.01)  # alpha = 0.99
    # step 1: v = 0.01*4 = 0.04, p = 1 - 0.01*2/(0.2 + eps); step 2: v = 0.99*0.04 + 0.01*1 = 0.0496
    _steps(lib, opt, [p], [[[2.0]]])
    p1 = 1 - 0.02 / (0.2 + EPS)
    assert p.item() == pytest.approx(p1, rel=1e-14)
    _steps(lib, opt, [p], [[[1.0]]])
    assert p.item() == pytest.approx(p1 - 0.01 / (math.sqrt(0.0496) + EPS), rel=1e-14)
    assert opt.state[p]["square_avg"].item() == pytest.approx(0.0496, rel=1e-14)
    assert list(opt.state[p]) == ["step", "square_avg"]


def test_rmsprop_centered_momentum_weight_decay_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.RMSprop([p], lr=0.01, momentum=0.9, centered=True, weight_decay=0.1)
    # step 1: g = 2 + 0.1*1 = 2.1; v = 0.01*4.41 = 0.0441; mean g = 0.021; avg = sqrt(0.0441 - 0.021^2) + eps
    #         buf = g/avg; p = 1 - 0.01*buf
    avg1 = math.sqrt(0.0441 - 0.021 ** 2) + EPS
    buf1 = 2.1 / avg1
    p1 = 1 - 0.01 * buf1
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(p1, rel=1e-13)
    # step 2: g = 1 + 0.1*p1; v = 0.99*0.0441 + 0.01*g^2; mean = 0.99*0.021 + 0.01*g; buf = 0.9*buf1 + g/avg
    g2 = 1 + 0.1 * p1
    v2, mean2 = 0.99 * 0.0441 + 0.01 * g2 * g2, 0.99 * 0.021 + 0.01 * g2
    buf2 = 0.9 * buf1 + g2 / (math.sqrt(v2 - mean2 ** 2) + EPS)
    _steps(lib, opt, [p], [[[1.0]]])
    assert p.item() == pytest.approx(p1 - 0.01 * buf2, rel=1e-13)
    state = opt.state[p]
    assert list(state) == ["step", "square_avg", "momentum_buffer", "grad_avg"]
    assert state["grad_avg"].item() == pytest.approx(mean2, rel=1e-13)
    assert state["momentum_buffer"].item() == pytest.approx(buf2, rel=1e-13)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop"])
def test_per_group_hyperparameters_apply(lib, name):
    p, q = _param(lib, [1.0]), _param(lib, [1.0])
    opt = getattr(lib.optim, name)([{"params": [p]}, {"params": [q], "lr": 0.0}], lr=0.1)
    _steps(lib, opt, [p, q], [[[1.0], [1.0]]])
    assert p.item() != 1.0 and q.item() == 1.0
    opt.param_groups[1]["lr"] = 0.1  # a changed lr takes effect at the next step (as schedulers rely on)
    _steps(lib, opt, [p, q], [[[1.0], [1.0]]])
    assert q.item() != 1.0


# ---- behaviour of a step -------------------------------------------------------------------------------

OPTIMIZERS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("Adam", {"lr": 0.1, "amsgrad": True}),
    ("AdamW", {"lr": 0.1}),
    ("RMSprop", {"lr": 0.1, "momentum": 0.5, "centered": True}),
]


@pytest.mark.parametrize("name,kwargs", OPTIMIZERS)
def test_frozen_parameters_are_untouched_and_get_no_state(lib, name, kwargs):
    p = _param(lib, [1.0, 2.0], lib.float32)
    frozen = _param(lib, [3.0, 4.0], lib.float32)
    before = frozen.detach().clone()
    opt = getattr(lib.optim, name)([p, frozen], **kwargs)
    _steps(lib, opt, [p, frozen], [[[1.0, 1.0], None]] * 3)
    assert lib.equal(frozen, before) and frozen._version == 0
    assert frozen not in opt.state
    keeps_state = name != "SGD" or "momentum" in kwargs
    assert list(opt.state_dict()["state"]) == ([0] if keeps_state else [])


@pytest.mark.parametrize("name,kwargs", OPTIMIZERS)
def test_float32_stays_float32(lib, name, kwargs):
    p = _param(lib, [[1.0, -2.0], [0.5, 3.0]], lib.float32)
    opt = getattr(lib.optim, name)([p], **kwargs)
    _steps(lib, opt, [p], [[[[0.1, 0.2], [0.3, 0.4]]]] * 2)
    assert p.dtype == lib.float32 and p.is_leaf and p.requires_grad and p.grad_fn is None
    for key, value in opt.state[p].items():
        assert value.dtype == lib.float32 and not value.requires_grad, key


def test_float32_update_is_computed_in_float32():
    # the update rounds like float32 arithmetic, not like float64 arithmetic rounded at the end
    rng = np.random.default_rng(3)
    p0, g = rng.standard_normal(64).astype(np.float32), rng.standard_normal(64).astype(np.float32)
    p = minitorch.tensor(p0, requires_grad=True)
    _steps(minitorch, minitorch.optim.SGD([p], lr=0.01), [p], [[g]])
    want = p0 + np.float32(-0.01) * g
    assert not np.array_equal(want, (p0.astype(np.float64) - 0.01 * g.astype(np.float64)).astype(np.float32))
    assert p.dtype == minitorch.float32 and np.array_equal(p.detach().numpy(), want)


def test_step_modifies_parameters_in_place_and_bumps_their_version(lib):
    p = _param(lib, [1.0, 2.0])
    y = (p * p).sum()
    p.grad = lib.ones(2, dtype=lib.float64)
    storage = p.detach()
    lib.optim.SGD([p], lr=0.5).step()
    assert storage.tolist() == [0.5, 1.5] and p._version == 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_closure_runs_with_grad_enabled_and_its_loss_is_returned(lib):
    p = _param(lib, [3.0])
    opt = lib.optim.SGD([p], lr=0.1)
    seen = []

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        seen.append(lib.is_grad_enabled())
        return loss

    with lib.no_grad():
        loss = opt.step(closure)
    assert seen == [True] and loss.item() == 9.0
    assert p.item() == pytest.approx(3.0 - 0.1 * 6.0)
    assert opt.step() is None


def test_zero_grad(lib):
    p, q = _param(lib, [1.0, 2.0]), _param(lib, [3.0])
    opt = lib.optim.SGD([p, q], lr=0.1)
    p.grad = lib.tensor([1.0, 1.0], dtype=lib.float64)
    opt.zero_grad()  # set_to_none=True by default
    assert p.grad is None and q.grad is None

    grad = lib.tensor([1.0, 1.0], dtype=lib.float64, requires_grad=True) * 2  # a grad with history
    p.grad = grad
    opt.zero_grad(set_to_none=False)
    assert p.grad is grad and p.grad.tolist() == [0.0, 0.0]
    assert p.grad.grad_fn is None and not p.grad.requires_grad
    assert q.grad is None


# ---- construction, param groups and errors ---------------------------------------------------------------

def test_param_groups_are_filled_from_defaults(lib):
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    opt = lib.optim.SGD([{"params": p}, {"params": (q,), "lr": 0.5, "momentum": 0.1}], lr=0.1, momentum=0.9)
    g0, g1 = opt.param_groups
    assert g0["params"] == [p] and g0["lr"] == 0.1 and g0["momentum"] == 0.9
    assert g1["params"] == [q] and g1["lr"] == 0.5 and g1["momentum"] == 0.1
    assert set(g1) == {"params", "lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize", "foreach",
                       "differentiable", "fused"}
    r = _param(lib, [3.0])
    opt.add_param_group({"params": [r], "nesterov": True})
    assert opt.param_groups[2]["nesterov"] is True and opt.param_groups[2]["lr"] == 0.1
    assert opt.defaults["lr"] == 0.1 and len(opt.state) == 0


def test_named_parameters(lib):
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    opt = lib.optim.Adam([("w", p), ("b", q)], lr=0.1)
    assert opt.param_groups[0]["params"] == [p, q] and opt.param_groups[0]["param_names"] == ["w", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["w", "b"]
    with pytest.raises(ValueError, match="^all optimizer param groups should be with/without names. cannot add "
                                         "param group without names to the optimizer$"):
        opt.add_param_group({"params": [_param(lib, [0.0])]})


def test_repr(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": [_param(lib, [2.0])], "lr": 0.01})
    assert repr(opt) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n"
        "    lr: 0.1\n    maximize: False\n    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n\n"
        "Parameter Group 1\n    dampening: 0\n    differentiable: False\n    foreach: None\n    fused: None\n"
        "    lr: 0.01\n    maximize: False\n    momentum: 0.9\n    nesterov: False\n    weight_decay: 0\n)")
    assert repr(lib.optim.Adam([p])) == (
        "Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n    capturable: False\n"
        "    decoupled_weight_decay: False\n    differentiable: False\n    eps: 1e-08\n    foreach: None\n"
        "    fused: None\n    lr: 0.001\n    maximize: False\n    weight_decay: 0\n)")


def _errors(lib):
    """(callable, exception type, exact message) for the constructor and param-group errors."""
    optim = lib.optim
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    return [
        (lambda: optim.SGD([p], lr=-1), ValueError, "Invalid learning rate: -1"),
        (lambda: optim.SGD([p], momentum=-0.5), ValueError, "Invalid momentum value: -0.5"),
        (lambda: optim.SGD([p], weight_decay=-1e-3), ValueError, "Invalid weight_decay value: -0.001"),
        (lambda: optim.SGD([p], nesterov=True), ValueError, "Nesterov momentum requires a momentum and zero dampening"),
        (lambda: optim.SGD([p], momentum=0.9, dampening=0.1, nesterov=True), ValueError,
         "Nesterov momentum requires a momentum and zero dampening"),
        (lambda: optim.Adam([p], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
        (lambda: optim.Adam([p], eps=-1.0), ValueError, "Invalid epsilon value: -1.0"),
        (lambda: optim.Adam([p], betas=(1.0, 0.999)), ValueError, "Invalid beta parameter at index 0: 1.0"),
        (lambda: optim.AdamW([p], betas=(0.9, -0.5)), ValueError, "Invalid beta parameter at index 1: -0.5"),
        (lambda: optim.Adam([p], betas=(0, 0.999)), ValueError, "betas must be either both floats or both Tensors"),
        (lambda: optim.AdamW([p], weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
        (lambda: optim.RMSprop([p], alpha=-0.1), ValueError, "Invalid alpha value: -0.1"),
        (lambda: optim.RMSprop([p], eps=-1e-8), ValueError, "Invalid epsilon value: -1e-08"),
        (lambda: optim.SGD([p], lr=lib.tensor([0.1, 0.2])), ValueError, "Tensor lr must be 1-element"),
        (lambda: optim.SGD([p], fused=True, foreach=True), RuntimeError,
         "`fused` and `foreach` cannot be `True` together."),
        (lambda: optim.SGD([]), ValueError, "optimizer got an empty parameter list"),
        (lambda: optim.SGD(p), TypeError, ("params argument given to the optimizer should be an iterable of Tensors "
                                           "or dicts, but got torch.DoubleTensor")),
        (lambda: optim.SGD([p, 1.5]), TypeError, "optimizer can only optimize Tensors, but one of the params is float"),
        (lambda: optim.SGD([p * 2]), ValueError, "can't optimize a non-leaf Tensor"),
        (lambda: optim.SGD([{"params": {p}}]), TypeError,
         ("optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets "
          "will change between runs. Please use a list instead.")),
        (lambda: optim.SGD([{"params": [p]}, {"params": [q, p]}]), ValueError,
         "some parameters appear in more than one parameter group"),
        (lambda: optim.SGD([p]).add_param_group([q]), TypeError, "param_group must be a dict, but got <class 'list'>"),
        (lambda: optim.SGD([("w", p), q]), ValueError,
         "all optimizer params should be with/without names. Some param names are missing"),
    ]


def test_errors(lib):
    for make, kind, message in _errors(lib):
        with pytest.raises(kind) as info:
            make()
        assert str(info.value) == message


def test_required_hyperparameter_and_duplicate_warning(lib):
    required = importlib.import_module(lib.__name__ + ".optim.optimizer").required

    class Plain(lib.optim.Optimizer):
        def __init__(self, params, lr=required):
            super().__init__(params, {"lr": lr})

    p = _param(lib, [1.0])
    with pytest.raises(ValueError, match="^parameter group didn't specify a value of required optimization "
                                         "parameter lr$"):
        Plain([p])
    assert Plain([p], lr=0.5).param_groups[0]["lr"] == 0.5
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        lib.optim.SGD([p, p])
    with pytest.raises(NotImplementedError):
        Plain([p], lr=0.1).step()


def test_differentiable_is_refused():
    p = _param(minitorch, [1.0])
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        minitorch.optim.Adam([p], differentiable=True)


# ---- state_dict / load_state_dict -------------------------------------------------------------------------

def test_state_dict_layout(lib):
    p, frozen, q = _param(lib, [1.0, 2.0]), _param(lib, [3.0]), _param(lib, [4.0])
    opt = lib.optim.SGD([{"params": [p, frozen]}, {"params": [q], "lr": 0.5}], lr=0.1, momentum=0.9)
    _steps(lib, opt, [p, frozen, q], [[[1.0, 1.0], None, [2.0]]])
    sd = opt.state_dict()
    assert list(sd) == ["state", "param_groups"]
    assert list(sd["state"]) == [0, 2]
    assert list(sd["state"][0]) == ["momentum_buffer"] and sd["state"][0]["momentum_buffer"].tolist() == [1.0, 1.0]
    assert sd["state"][0]["momentum_buffer"] is opt.state[p]["momentum_buffer"]  # not a copy (torch's layout)
    common = {"momentum": 0.9, "dampening": 0, "weight_decay": 0, "nesterov": False, "maximize": False,
              "foreach": None, "differentiable": False, "fused": None}
    assert sd["param_groups"] == [{"lr": 0.1, **common, "params": [0, 1]}, {"lr": 0.5, **common, "params": [2]}]
    assert list(sd["param_groups"][0]) == ["lr", *common, "params"]
    assert opt.param_groups[0]["params"] == [p, frozen]  # the optimizer's own groups keep their tensors

    adam = lib.optim.Adam([p, q], lr=0.1, amsgrad=True)
    _steps(lib, adam, [p, q], [[[1.0, 1.0], [1.0]]] * 3)
    state = adam.state_dict()["state"]
    assert list(state) == [0, 1] and list(state[1]) == ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"]
    assert state[1]["step"].dtype == lib.float32 and state[1]["step"].dim() == 0 and state[1]["step"].item() == 3.0
    assert adam.state_dict()["param_groups"][0] == {
        "lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-08, "weight_decay": 0, "amsgrad": True, "maximize": False,
        "foreach": None, "capturable": False, "differentiable": False, "fused": None, "decoupled_weight_decay": False,
        "params": [0, 1]}


RESUMABLE = [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.2, "maximize": True}),
    ("Adam", {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.05, "betas": (0.3, 0.8)}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True}),
]


@pytest.mark.parametrize("name,kwargs", RESUMABLE)
def test_resumed_run_is_bit_identical(lib, name, kwargs):
    rng = np.random.default_rng(7)
    init = [rng.standard_normal((3, 2)).astype(np.float32), rng.standard_normal(4).astype(np.float32)]
    grads = [[rng.standard_normal((3, 2)).astype(np.float32), rng.standard_normal(4).astype(np.float32)]
             for _ in range(12)]
    grads[3][1] = None  # one parameter skips a step: its state must still line up after the reload

    def fresh(values):
        params = [lib.tensor(v, requires_grad=True) for v in values]
        groups = [{"params": params[:1]}, {"params": params[1:], "lr": kwargs["lr"] / 2}]
        return params, groups

    params, groups = fresh(init)
    opt = getattr(lib.optim, name)(groups, **kwargs)
    _steps(lib, opt, params, grads)

    first, groups = fresh(init)
    opt1 = getattr(lib.optim, name)(groups, **kwargs)
    _steps(lib, opt1, first, grads[:5])
    saved = copy.deepcopy(opt1.state_dict())
    resumed, groups = fresh([p.detach().numpy() for p in first])
    opt2 = getattr(lib.optim, name)(groups, lr=123.0)  # hyper-parameters come from the state dict
    opt2.load_state_dict(saved)
    assert opt2.param_groups[0]["lr"] == kwargs["lr"] and opt2.param_groups[1]["params"] == resumed[1:]
    _steps(lib, opt2, resumed, grads[5:])

    for a, b in zip(params, resumed):
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())
    for a, b in zip(params, resumed):
        assert list(opt.state[a]) == list(opt2.state[b])
        for key in opt.state[a]:
            assert np.array_equal(opt.state[a][key].numpy(), opt2.state[b][key].numpy()), key


def test_load_state_dict_casts_to_the_parameter_dtype(lib):
    p = _param(lib, [1.0, 2.0], lib.float32)
    opt = lib.optim.Adam([p], lr=0.1)
    _steps(lib, opt, [p], [[[1.0, -1.0]]])
    q = _param(lib, [1.0, 2.0], lib.float64)
    opt2 = lib.optim.Adam([q], lr=0.1)
    opt2.load_state_dict(opt.state_dict())
    state = opt2.state[q]
    assert state["exp_avg"].dtype == lib.float64 and state["exp_avg_sq"].dtype == lib.float64
    assert state["step"].dtype == lib.float32  # step counters keep their dtype
    assert state["exp_avg"].tolist() == pytest.approx([0.1, -0.1])


def test_load_state_dict_copies_the_state():
    # (torch aliases the saved tensors when no dtype cast is needed; minitorch always copies)
    p = _param(minitorch, [1.0])
    opt = minitorch.optim.Adam([p], lr=0.1)
    _steps(minitorch, opt, [p], [[[1.0]]])
    q = _param(minitorch, [1.0])
    opt2 = minitorch.optim.Adam([q], lr=0.1)
    sd = opt.state_dict()
    opt2.load_state_dict(sd)
    loaded = {k: v.item() for k, v in opt2.state[q].items()}
    _steps(minitorch, opt, [p], [[[5.0]]])  # the source optimizer goes on; the loaded copy must not move
    assert {k: v.item() for k, v in opt2.state[q].items()} == loaded and loaded["step"] == 1.0
    assert sd["param_groups"][0]["params"] == [0] and opt2.param_groups[0]["params"] == [q]


def test_load_state_dict_errors(lib):
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    sd = lib.optim.SGD([p, q]).state_dict()
    with pytest.raises(ValueError, match="^loaded state dict has a different number of parameter groups$"):
        lib.optim.SGD([{"params": [p]}, {"params": [q]}]).load_state_dict(sd)
    with pytest.raises(ValueError, match="^loaded state dict contains a parameter group that doesn't match the size "
                                         "of optimizer's group$"):
        lib.optim.SGD([p]).load_state_dict(sd)


# ---- against PyTorch ------------------------------------------------------------------------------------

def _sgd_options():
    for momentum in (0.0, 0.9):
        for dampening in (0.0, 0.3):
            for nesterov in (False, True):
                if nesterov and (momentum == 0 or dampening != 0):
                    continue
                for weight_decay in (0.0, 0.05):
                    for maximize in (False, True):
                        yield {"lr": 0.05, "momentum": momentum, "dampening": dampening, "nesterov": nesterov,
                               "weight_decay": weight_decay, "maximize": maximize}


def _adam_options():
    for amsgrad in (False, True):
        for maximize in (False, True):
            for weight_decay in (0.0, 0.1):
                for betas in ((0.9, 0.999), (0.3, 0.6)):
                    yield {"lr": 0.01, "amsgrad": amsgrad, "maximize": maximize, "weight_decay": weight_decay,
                           "betas": betas}


def _rmsprop_options():
    for centered in (False, True):
        for momentum in (0.0, 0.8):
            for weight_decay in (0.0, 0.1):
                for maximize in (False, True):
                    yield {"lr": 0.01, "alpha": 0.9, "centered": centered, "momentum": momentum,
                           "weight_decay": weight_decay, "maximize": maximize}


CASES = ([("SGD", kw) for kw in _sgd_options()] + [("Adam", kw) for kw in _adam_options()]
         + [("AdamW", kw) for kw in _adam_options()] + [("RMSprop", kw) for kw in _rmsprop_options()])


def _trajectory(lib, name, kwargs, steps=60):
    """Run an optimizer over seeded float32 gradients; the third parameter has no grad every third step,
    and the learning rate is changed halfway."""
    rng = np.random.default_rng(0)
    shapes = [(4, 3), (5,), (2,)]
    params = [lib.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True) for s in shapes]
    opt = getattr(lib.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": kwargs["lr"] * 2}], **kwargs)
    for i in range(steps):
        grads = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        grads[2] = None if i % 3 == 0 else grads[2]
        _steps(lib, opt, params, [grads])
        if i == steps // 2:
            opt.param_groups[0]["lr"] *= 0.5
    return params, opt


def torch_run(torch, run, *args):
    """torch's parameters, state_dict and repr after ``run(torch, *args)`` (which returns params and optimizer)."""
    params, opt = run(torch, *args)
    return params, opt.state_dict(), repr(opt)


def assert_same_run(ours, ours_opt, expected, rtol, atol):
    """minitorch's parameters and optimizer against torch's ``torch_run`` answer: values, state, groups, repr."""
    theirs, their_sd, their_repr = expected
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.detach().numpy(), b.numpy(), rtol=rtol, atol=atol)
    ours_sd = ours_opt.state_dict()
    assert ours_sd["param_groups"] == their_sd["param_groups"]
    assert list(ours_sd["state"]) == list(their_sd["state"])
    for key, state in their_sd["state"].items():
        assert list(ours_sd["state"][key]) == list(state)
        for name_, value in state.items():
            ours_value = ours_sd["state"][key][name_]
            assert str(ours_value.dtype).split(".")[-1] == str(value.dtype).split(".")[-1], name_
            assert ours_value.shape == tuple(value.shape), name_
            np.testing.assert_allclose(ours_value.numpy(), value.numpy(), rtol=rtol, atol=atol, err_msg=name_)
    assert repr(ours_opt) == their_repr


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_matches_torch(name, kwargs):
    ours, ours_opt = _trajectory(minitorch, name, kwargs)
    # float32 all along; torch fuses multiply-adds (and its sqrt is not correctly rounded), so after 60 steps the
    # two differ by float32 rounding only
    assert_same_run(ours, ours_opt, torch_answer(torch_run, _trajectory, name, kwargs), rtol=1e-5, atol=1e-6)
