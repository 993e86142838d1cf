"""minitorch.optim: Adagrad, Adamax, NAdam, RAdam, Adadelta, Rprop, ASGD and LBFGS.

Tests taking ``lib`` run on minitorch and, when PyTorch is installed, on PyTorch too (conftest.py), so the
hand-derived expectations are checked against the specification. The ``*_matches_torch`` tests replay the
same gradients through both libraries for several option combinations and compare parameters, state and
hyper-parameters.
"""
import math

import numpy as np
import pytest

import minitorch
import minitorch.optim  # binds minitorch.optim, as torch.optim is bound in torch
from test_optim import _param, _steps, assert_same_run, torch_run
from torch_answers import torch_answer


# ---- update rules, by hand ------------------------------------------------------------------------------

def test_adagrad_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adagrad([p], lr=0.1)
    # step 1: sum = 4, p = 1 - 0.1 * 2 / (2 + 1e-10); step 2: sum = 5, p += 0.1 * 1 / (sqrt(5) + 1e-10)
    _steps(lib, opt, [p], [[[2.0]]])
    p1 = 1 - 0.2 / (2 + 1e-10)
    assert p.item() == pytest.approx(p1, rel=1e-14)
    _steps(lib, opt, [p], [[[-1.0]]])
    assert p.item() == pytest.approx(p1 + 0.1 / (math.sqrt(5) + 1e-10), rel=1e-14)
    assert list(opt.state[p]) == ["step", "sum"]
    assert opt.state[p]["sum"].item() == 5.0 and opt.state[p]["step"].item() == 2.0


def test_adagrad_lr_decay_initial_accumulator_weight_decay_maximize_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adagrad([p], lr=0.1, lr_decay=0.5, initial_accumulator_value=1.0, weight_decay=0.5,
                            maximize=True)
    # step 1: g = -2 + 0.5*1 = -1.5; sum = 1 + 2.25; clr = 0.1; p = 1 + 0.1 * 1.5 / sqrt(3.25)
    p1 = 1 + 0.15 / (math.sqrt(3.25) + 1e-10)
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(p1, rel=1e-14)
    # step 2: g = -2 + 0.5*p1; sum = 3.25 + g^2; clr = 0.1 / (1 + 0.5)
    g2 = -2 + 0.5 * p1
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(p1 - (0.1 / 1.5) * g2 / (math.sqrt(3.25 + g2 * g2) + 1e-10), rel=1e-14)


def test_adagrad_state_exists_from_construction(lib):
    p, q = _param(lib, [1.0, 2.0]), _param(lib, [3.0])
    opt = lib.optim.Adagrad([p, q], initial_accumulator_value=0.25)
    state = opt.state_dict()["state"]
    assert list(state) == [0, 1]
    assert state[0]["sum"].tolist() == [0.25, 0.25] and state[0]["step"].item() == 0.0
    _steps(lib, opt, [p, q], [[[1.0, 1.0], None]])  # q has no grad: its state stays as built
    assert opt.state[q]["step"].item() == 0.0 and opt.state[p]["step"].item() == 1.0


def test_adamax_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adamax([p], lr=0.1)
    # step 1: m = 0.2, u = max(0, 2 + eps); p = 1 - (0.1 / 0.1) * 0.2 / u
    eps = 1e-8
    u1 = 2 + eps
    p1 = 1 - 0.2 / u1
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(p1, rel=1e-14)
    # step 2: m = 0.18 - 0.1 = 0.08, u = max(0.999 * u1, 1 + eps); correction 1 - 0.81
    _steps(lib, opt, [p], [[[-1.0]]])
    assert p.item() == pytest.approx(p1 - (0.1 / 0.19) * 0.08 / (0.999 * u1), rel=1e-14)
    assert list(opt.state[p]) == ["step", "exp_avg", "exp_inf"]
    assert opt.state[p]["exp_inf"].item() == pytest.approx(0.999 * u1, rel=1e-14)


def test_nadam_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.NAdam([p], lr=0.1)
    # mu_t = 0.9 * (1 - 0.5 * 0.96**(0.004 t)); mu_product is kept in a float32 0-d tensor
    mu1 = 0.9 * (1 - 0.5 * 0.96 ** 0.004)
    mu2 = 0.9 * (1 - 0.5 * 0.96 ** 0.008)
    prod = float(np.float32(mu1))
    # m = 0.2, v = 0.004, denom = sqrt(0.004 / 0.001) + eps = 2 + eps
    denom = 2 + 1e-8
    want = 1 - 0.1 * (1 - mu1) / (1 - prod) * 2 / denom - 0.1 * mu2 / (1 - prod * mu2) * 0.2 / denom
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(want, rel=1e-14)
    assert list(opt.state[p]) == ["step", "mu_product", "exp_avg", "exp_avg_sq"]
    assert opt.state[p]["mu_product"].item() == prod and opt.state[p]["mu_product"].dim() == 0


def test_nadam_decoupled_weight_decay_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.NAdam([p], lr=0.1, weight_decay=0.5, decoupled_weight_decay=True)
    mu1 = 0.9 * (1 - 0.5 * 0.96 ** 0.004)
    mu2 = 0.9 * (1 - 0.5 * 0.96 ** 0.008)
    prod = float(np.float32(mu1))
    denom = 2 + 1e-8  # the moments see the raw gradient; p is first scaled by 1 - 0.1 * 0.5
    want = 0.95 - 0.1 * (1 - mu1) / (1 - prod) * 2 / denom - 0.1 * mu2 / (1 - prod * mu2) * 0.2 / denom
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(want, rel=1e-14)


def _radam_reference(p, grads, lr, beta1, beta2, eps):
    """RAdam's update rule from its documentation, in float64 Python scalars."""
    m = v = 0.0
    rho_inf = 2 / (1 - beta2) - 1
    for t, g in enumerate(grads, 1):
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat = m / (1 - beta1 ** t)
        rho_t = rho_inf - 2 * t * beta2 ** t / (1 - beta2 ** t)
        if rho_t > 5:
            ell = math.sqrt(1 - beta2 ** t) / (math.sqrt(v) + eps)
            r = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            p -= lr * m_hat * ell * r
        else:
            p -= lr * m_hat
    return p


def test_radam_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.RAdam([p], lr=0.1)
    # step 1: rho_1 = 1999 - 2 * 0.999 / 0.001 = 1 <= 5: the plain momentum step p = 1 - 0.1 * 0.2 / 0.1
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(0.8, rel=1e-14)
    assert list(opt.state[p]) == ["step", "exp_avg", "exp_avg_sq"]
    # with beta2 = 0.9, rho_t passes 5 at step 6: both branches within 9 steps
    grads = [2.0, -1.0, 0.5, 3.0, -2.0, 1.0, 0.25, -0.5, 1.5]
    q = _param(lib, [1.0])
    opt = lib.optim.RAdam([q], lr=0.1, betas=(0.8, 0.9))
    _steps(lib, opt, [q], [[[g]] for g in grads])
    assert q.item() == pytest.approx(_radam_reference(1.0, grads, 0.1, 0.8, 0.9, 1e-8), rel=1e-12)


def test_adadelta_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.Adadelta([p])  # lr = 1, rho = 0.9, eps = 1e-6
    # step 1: v = 0.1 * 4 = 0.4; delta = sqrt(0 + eps) / sqrt(0.4 + eps) * 2; u = 0.1 * delta^2; p = 1 - delta
    delta1 = math.sqrt(1e-6) / math.sqrt(0.4 + 1e-6) * 2
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(1 - delta1, rel=1e-14)
    # step 2: v = 0.36 + 0.1 = 0.46; delta = sqrt(u + eps) / sqrt(v + eps) * (-1)
    u1 = 0.1 * delta1 * delta1
    delta2 = -math.sqrt(u1 + 1e-6) / math.sqrt(0.46 + 1e-6)
    _steps(lib, opt, [p], [[[-1.0]]])
    assert p.item() == pytest.approx(1 - delta1 - delta2, rel=1e-14)
    assert list(opt.state[p]) == ["step", "square_avg", "acc_delta"]
    assert opt.state[p]["acc_delta"].item() == pytest.approx(0.9 * u1 + 0.1 * delta2 * delta2, rel=1e-13)


def test_rprop_by_hand(lib):
    p = _param(lib, [1.0, 1.0, 1.0])
    opt = lib.optim.Rprop([p], lr=0.1)
    # step 1: no previous gradient: step sizes stay 0.1, p -= 0.1 * sign(g)
    _steps(lib, opt, [p], [[[1.0, -1.0, 0.0]]])
    assert p.tolist() == pytest.approx([0.9, 1.1, 1.0], rel=1e-14)
    # step 2: g * prev = [2, -1, 0]: sizes [0.12, 0.05, 0.1]; the sign flip zeroes that coordinate's step
    _steps(lib, opt, [p], [[[2.0, 1.0, 3.0]]])
    assert p.tolist() == pytest.approx([0.78, 1.1, 0.9], rel=1e-14)
    state = opt.state[p]
    assert list(state) == ["step", "prev", "step_size"]
    assert state["step_size"].tolist() == pytest.approx([0.12, 0.05, 0.1], rel=1e-14)
    assert state["prev"].tolist() == [2.0, 0.0, 3.0]


def test_rprop_step_size_bounds_and_maximize(lib):
    p = _param(lib, [0.0, 0.0])
    opt = lib.optim.Rprop([p], lr=0.1, etas=(0.25, 3.0), step_sizes=(0.05, 0.2), maximize=True)
    # maximize follows +g; sizes 0.1 -> 0.2 (clamped from 0.3) on agreement, 0.1 -> 0.05 (from 0.025) on a flip
    _steps(lib, opt, [p], [[[1.0, 1.0]], [[1.0, -1.0]]])
    assert p.tolist() == pytest.approx([0.3, 0.1], rel=1e-14)
    assert opt.state[p]["step_size"].tolist() == pytest.approx([0.2, 0.05], rel=1e-14)


def test_asgd_by_hand(lib):
    p = _param(lib, [1.0])
    opt = lib.optim.ASGD([p], lr=0.1, lambd=0.01, alpha=0.5, t0=1)
    eta0 = float(np.float32(0.1))  # eta and mu live in float32 0-d tensors and are read back as floats
    p1 = 1 * (1 - 0.01 * eta0) - eta0 * 2
    _steps(lib, opt, [p], [[[2.0]]])
    assert p.item() == pytest.approx(p1, rel=1e-14)
    state = opt.state[p]
    assert list(state) == ["step", "eta", "mu", "ax"]
    assert state["ax"].item() == p1  # mu was 1: ax copies p
    eta1 = float(np.float32(0.1 / (1 + 0.01 * 0.1 * 1) ** 0.5))
    assert state["eta"].item() == eta1 and state["mu"].item() == 1.0
    _steps(lib, opt, [p], [[[1.0]], [[1.0]]])  # after step 2 mu = 1 / max(1, 2 - 1) = 1; after step 3 it is 1/2
    assert state["mu"].item() == 0.5
    eta2 = float(np.float32(0.1 / (1 + 0.01 * 0.1 * 2) ** 0.5))
    p2 = p1 * (1 - 0.01 * eta1) - eta1
    p3 = p2 * (1 - 0.01 * eta2) - eta2
    assert p.item() == pytest.approx(p3, rel=1e-14)
    assert state["ax"].item() == pytest.approx(p3, rel=1e-14)
    _steps(lib, opt, [p], [[[1.0]]])  # mu = 1/2: ax moves halfway to p
    assert state["ax"].item() == pytest.approx((p3 + p.item()) / 2, rel=1e-14)


# ---- behaviour shared by all of them --------------------------------------------------------------------

NAMES = ["Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta", "Rprop", "ASGD"]


@pytest.mark.parametrize("name", NAMES)
def test_float32_stays_float32_and_grad_untouched(lib, name):
    p = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = getattr(lib.optim, name)([p], lr=0.1)
    g = [0.5, -0.25, 2.0]
    for _ in range(3):
        p.grad = lib.tensor(g)
        opt.step()
        assert p.dtype == lib.float32
        assert p.grad.tolist() == g
    for key, value in opt.state[p].items():
        assert value.dtype == lib.float32, key


@pytest.mark.parametrize("name", NAMES)
def test_params_without_grad_are_skipped(lib, name):
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    opt = getattr(lib.optim, name)([p, q], lr=0.1)
    _steps(lib, opt, [p, q], [[[1.0], None]])
    assert p.item() != 1.0 and q.item() == 2.0


@pytest.mark.parametrize("name", NAMES)
def test_state_dict_round_trip_continues_identically(lib, name):
    rng = np.random.default_rng(1)
    grads = [rng.standard_normal(3).astype(np.float32) for _ in range(8)]

    def run(reload):
        p = _param(lib, [1.0, -1.0, 0.5], dtype=lib.float32)
        opt = getattr(lib.optim, name)([p], lr=0.05)
        _steps(lib, opt, [p], [[g] for g in grads[:4]])
        if reload:
            sd = opt.state_dict()
            opt = getattr(lib.optim, name)([p], lr=0.05)
            opt.load_state_dict(sd)
        _steps(lib, opt, [p], [[g] for g in grads[4:]])
        return p.tolist()

    assert run(True) == run(False)


def test_loaded_scalar_state_takes_the_param_dtype(lib):
    # as in torch, load_state_dict casts every floating state tensor but 'step' to the parameter's dtype,
    # NAdam's mu_product and ASGD's eta and mu included (so a reloaded float64 run continues in float64)
    p = _param(lib, [1.0])
    for name, keys in [("NAdam", ["mu_product"]), ("ASGD", ["eta", "mu"])]:
        opt = getattr(lib.optim, name)([p])
        _steps(lib, opt, [p], [[[1.0]]])
        assert all(opt.state[p][k].dtype == lib.float32 for k in keys)
        reloaded = getattr(lib.optim, name)([p])
        reloaded.load_state_dict(opt.state_dict())
        assert all(reloaded.state[p][k].dtype == lib.float64 for k in keys)
        assert reloaded.state[p]["step"].dtype == lib.float32


@pytest.mark.parametrize("name,kwargs,message", [
    ("Adagrad", {"lr_decay": -1}, "Invalid lr_decay value: -1"),
    ("Adagrad", {"initial_accumulator_value": -1}, "Invalid initial_accumulator_value value: -1"),
    ("Adagrad", {"eps": -1}, "Invalid epsilon value: -1"),
    ("Adamax", {"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
    ("NAdam", {"momentum_decay": -1}, "Invalid momentum_decay value: -1"),
    ("RAdam", {"betas": (0.9, -0.1)}, "Invalid beta parameter at index 1: -0.1"),
    ("Adadelta", {"rho": 1.5}, "Invalid rho value: 1.5"),
    ("Rprop", {"etas": (1.5, 2.0)}, "Invalid eta values: 1.5, 2.0"),
    ("ASGD", {"weight_decay": -1}, "Invalid weight_decay value: -1"),
    ("ASGD", {"lr": -1}, "Invalid learning rate: -1"),
])
def test_invalid_hyperparameters(lib, name, kwargs, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(".", r"\.") + "$"):
        getattr(lib.optim, name)([_param(lib, [1.0])], **kwargs)


# ---- against PyTorch ------------------------------------------------------------------------------------

def _options(base, **choices):
    """Every combination of ``choices`` on top of ``base``."""
    combos = [dict(base)]
    for key, values in choices.items():
        combos = [{**c, key: v} for c in combos for v in values]
    return combos


CASES = (
    [("Adagrad", kw) for kw in _options({"lr": 0.05}, lr_decay=(0.0, 0.1), weight_decay=(0.0, 0.1),
                                        initial_accumulator_value=(0.0, 0.3), maximize=(False, True))]
    + [("Adamax", kw) for kw in _options({"lr": 0.01}, betas=((0.9, 0.999), (0.3, 0.6)), weight_decay=(0.0, 0.1),
                                         maximize=(False, True))]
    + [("NAdam", kw) for kw in _options({"lr": 0.01}, betas=((0.9, 0.999), (0.3, 0.6)), weight_decay=(0.0, 0.1),
                                        decoupled_weight_decay=(False, True), momentum_decay=(4e-3, 0.1),
                                        maximize=(False, True))]
    + [("RAdam", kw) for kw in _options({"lr": 0.01}, betas=((0.9, 0.999), (0.3, 0.6), (0.9, 0.9)),
                                        weight_decay=(0.0, 0.1), decoupled_weight_decay=(False, True),
                                        maximize=(False, True))]
    + [("Adadelta", kw) for kw in _options({"lr": 0.5}, rho=(0.9, 0.5), weight_decay=(0.0, 0.1),
                                           maximize=(False, True))]
    + [("Rprop", kw) for kw in _options({"lr": 0.01}, etas=((0.5, 1.2), (0.3, 2.0)),
                                        step_sizes=((1e-6, 50), (0.005, 0.05)), maximize=(False, True))]
    + [("ASGD", kw) for kw in _options({"lr": 0.05}, lambd=(1e-4, 0.05), alpha=(0.75, 0.5), t0=(1e6, 10.0),
                                       weight_decay=(0.0, 0.1), maximize=(False, True))]
)


def _trajectory(lib, name, kwargs, steps=30, dtype=np.float32):
    """Run an optimizer over seeded gradients; the third parameter has no grad every third step, and the
    learning rate is changed halfway."""
    rng = np.random.default_rng(0)
    shapes = [(4, 3), (5,), (2,)]
    params = [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in shapes]
    opt = getattr(lib.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": kwargs["lr"] * 2}], **kwargs)
    for i in range(steps):
        grads = [rng.standard_normal(s).astype(dtype) for s in shapes]
        grads[2] = None if i % 3 == 0 else grads[2]
        _steps(lib, opt, params, [grads])
        if i == steps // 2:
            opt.param_groups[0]["lr"] *= 0.5
    return params, opt


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_matches_torch(name, kwargs):
    ours, ours_opt = _trajectory(minitorch, name, kwargs)
    # float32 all along: the two differ by float32 rounding only
    assert_same_run(ours, ours_opt, torch_answer(torch_run, _trajectory, name, kwargs), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_matches_torch_float64(name):
    kwargs = {"lr": 0.05, "maximize": True}
    if name != "Rprop":
        kwargs["weight_decay"] = 0.1
    ours, ours_opt = _trajectory(minitorch, name, kwargs, dtype=np.float64)
    expected = torch_answer(torch_run, _trajectory, name, kwargs, 30, np.float64)
    assert_same_run(ours, ours_opt, expected, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name", NAMES)
def test_defaults_match_torch(name):
    ours = getattr(minitorch.optim, name)([_param(minitorch, [1.0])])
    defaults, groups = torch_answer(_torch_defaults, name)
    assert ours.defaults == defaults
    assert list(ours.defaults) == list(defaults)
    assert ours.state_dict()["param_groups"] == groups


def _torch_defaults(torch, name):
    """torch's defaults and param_groups of optimizer ``name`` over one parameter."""
    opt = getattr(torch.optim, name)([_param(torch, [1.0])])
    return opt.defaults, opt.state_dict()["param_groups"]


# ---- LBFGS ----------------------------------------------------------------------------------------------

def _lbfgs_problem(lib, kind, dtype, **kwargs):
    """An LBFGS over a 6-vector and a closure for ``kind``: 'rosenbrock' or a positive-definite 'quadratic'."""
    x = lib.tensor(np.array([-1.5, 2.0, 0.5, -0.7, 1.0, 0.3], dtype=dtype), requires_grad=True)
    opt = lib.optim.LBFGS([x], **kwargs)
    a = np.random.default_rng(0).standard_normal((6, 6))
    m = lib.tensor((a @ a.T + 6 * np.eye(6)).astype(dtype))
    b = lib.tensor(np.arange(6.0, dtype=dtype))

    def closure():
        opt.zero_grad()
        if kind == "rosenbrock":
            head, tail = x[:-1], x[1:]
            loss = (100 * (tail - head * head) ** 2 + (1 - head) ** 2).sum()
        else:
            loss = 0.5 * (x * (m @ x)).sum() - (b * x).sum()
        loss.backward()
        return loss

    return x, opt, closure


def _lbfgs_trajectory(lib, kind, dtype, kwargs, steps=5):
    x, opt, closure = _lbfgs_problem(lib, kind, dtype, **kwargs)
    points, losses = [], []
    for _ in range(steps):
        losses.append(float(opt.step(closure).detach()))
        points.append(x.detach().numpy().copy())
    return points, losses, opt


def test_lbfgs_first_iteration_by_hand(lib):
    x = _param(lib, [1.0, 2.0])
    opt = lib.optim.LBFGS([x], max_iter=1)

    def closure():
        opt.zero_grad()
        loss = (x * x).sum()
        loss.backward()
        return loss

    # g = [2, 4]: the first step ever is -g scaled by min(1, 1 / sum|g|) = 1/6
    loss = opt.step(closure)
    assert loss.item() == 5.0
    assert x.tolist() == pytest.approx([2 / 3, 4 / 3], rel=1e-15)
    state = opt.state[x]
    assert list(state) == ["func_evals", "n_iter", "d", "t", "old_dirs", "old_stps", "ro", "H_diag",
                           "prev_flat_grad", "prev_loss"]
    assert state["func_evals"] == 1 and state["n_iter"] == 1 and state["H_diag"] == 1
    assert state["d"].tolist() == [-2.0, -4.0] and state["prev_loss"] == 5.0
    assert opt.param_groups[0]["max_eval"] == 1  # max_iter * 5 // 4


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_second_iteration_is_the_secant_newton_step(lib, line_search_fn):
    # f = 2 x^2 from x = 3: g = 12, t = 1/12, x = 2 (the first line-search trial already meets strong Wolfe);
    # then y = 8 - 12 = -4, s = -1, H = ys / yy = 1/4 = 1 / f'': d = -8/4 = -2, t = lr = 1, x = 0 exactly
    x = _param(lib, [3.0])
    opt = lib.optim.LBFGS([x], max_iter=2, max_eval=5, line_search_fn=line_search_fn)

    def closure():
        opt.zero_grad()
        loss = 2 * (x * x).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert x.item() == 0.0
    state = opt.state[x]
    assert state["H_diag"].item() == 0.25 and state["ro"][0].item() == 0.25
    assert state["old_dirs"][0].tolist() == [-4.0] and state["old_stps"][0].tolist() == [-1.0]
    assert len(state["al"]) == 100 and state["al"][1] is None
    assert state["n_iter"] == 2
    # at the optimum the next step returns after one evaluation, changing nothing
    evals = state["func_evals"]
    assert opt.step(closure).item() == 0.0
    assert state["func_evals"] == evals + 1 and state["n_iter"] == 2


def test_lbfgs_minimises_rosenbrock():
    x, opt, closure = _lbfgs_problem(minitorch, "rosenbrock", np.float64, line_search_fn="strong_wolfe",
                                      max_iter=200, tolerance_grad=1e-10, tolerance_change=1e-14)
    x.data = minitorch.tensor([-1.2, 1.0, -1.2, 1.0, -1.2, 1.0], dtype=minitorch.float64)
    for _ in range(3):
        opt.step(closure)
    loss = closure().item()
    assert loss < 1e-10 or abs(loss - 3.986579) < 1e-4  # the global minimum (all ones) or the known local one


def test_lbfgs_rejects_groups_and_unknown_line_search(lib):
    p, q = _param(lib, [1.0]), _param(lib, [2.0])
    with pytest.raises(ValueError, match=r"^LBFGS doesn't support per-parameter options \(parameter groups\)$"):
        lib.optim.LBFGS([{"params": [p]}, {"params": [q]}])
    opt = lib.optim.LBFGS([p], line_search_fn="armijo")

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        opt.step(closure)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_state_dict_round_trip(line_search_fn):
    kwargs = {"max_iter": 3, "history_size": 2, "line_search_fn": line_search_fn}
    x, opt, closure = _lbfgs_problem(minitorch, "rosenbrock", np.float64, **kwargs)
    for _ in range(2):
        opt.step(closure)
    y, reloaded, closure_y = _lbfgs_problem(minitorch, "rosenbrock", np.float64, **kwargs)
    y.data = x.detach().clone()
    reloaded.load_state_dict(opt.state_dict())
    for _ in range(2):
        opt.step(closure)
        reloaded.step(closure_y)
    assert y.tolist() == x.tolist()


LBFGS_CASES = [{"max_iter": 4}, {"max_iter": 4, "line_search_fn": "strong_wolfe"},
               {"max_iter": 3, "history_size": 2, "lr": 0.5},
               {"max_iter": 6, "history_size": 3, "line_search_fn": "strong_wolfe", "max_eval": 8}]


def _assert_same_state(ours, theirs, rtol, atol):
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        mine = ours[key]
        if isinstance(value, list):
            assert len(mine) == len(value), key
            pairs = list(zip(mine, value))
        else:
            pairs = [(mine, value)]
        for a, b in pairs:
            assert (a is None) == (b is None), key
            if b is None:
                continue
            np.testing.assert_allclose(np.asarray(a.tolist() if hasattr(a, "tolist") else a, dtype=float),
                                       np.asarray(b.tolist() if hasattr(b, "tolist") else b, dtype=float),
                                       rtol=rtol, atol=atol, err_msg=key)
            if key != "t":  # torch's t is a 0-d tensor or a number depending on how it was last computed
                assert hasattr(a, "shape") == hasattr(b, "shape"), key


@pytest.mark.parametrize("kind", ["rosenbrock", "quadratic"])
@pytest.mark.parametrize("kwargs", LBFGS_CASES, ids=[str(i) for i in range(len(LBFGS_CASES))])
def test_lbfgs_matches_torch_float64(kind, kwargs):
    ours, our_losses, our_opt = _lbfgs_trajectory(minitorch, kind, np.float64, kwargs)
    theirs, their_losses, their_sd, their_repr = torch_answer(_torch_lbfgs_trajectory, kind, np.float64, kwargs)
    # the same algorithm in float64: Rosenbrock's ill-conditioning grows the last-bit differences of dot
    # products summed in different orders to about 1e-10 over 5 steps
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-9)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-9)
    ours_sd = our_opt.state_dict()
    assert ours_sd["param_groups"] == their_sd["param_groups"]
    assert ours_sd["state"][0]["func_evals"] == their_sd["state"][0]["func_evals"]
    _assert_same_state(ours_sd["state"][0], their_sd["state"][0], rtol=1e-6, atol=1e-8)
    assert repr(our_opt) == their_repr


def _torch_lbfgs_trajectory(torch, kind, dtype, kwargs):
    """torch's points, losses, state_dict and repr after ``_lbfgs_trajectory``."""
    points, losses, opt = _lbfgs_trajectory(torch, kind, dtype, kwargs)
    return points, losses, opt.state_dict(), repr(opt)


@pytest.mark.parametrize("kwargs", LBFGS_CASES, ids=[str(i) for i in range(len(LBFGS_CASES))])
def test_lbfgs_matches_torch_float32(kwargs):
    # float32: the closures' losses differ in their last bits (sums in different orders), and near the
    # optimum the line search's comparisons of losses equal to float32 precision can go either way, so
    # iterates agree to the precision float32 locates a minimum with (about sqrt(eps) relative), and
    # the evaluation counts may differ
    ours, our_losses, our_opt = _lbfgs_trajectory(minitorch, "quadratic", np.float32, kwargs)
    theirs, their_losses, _, _ = torch_answer(_torch_lbfgs_trajectory, "quadratic", np.float32, kwargs)
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-5)
    for a, b in zip(ours, theirs):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)
    state = our_opt.state[our_opt.param_groups[0]["params"][0]]
    assert state["d"].dtype == minitorch.float32 and state["ro"][0].dtype == minitorch.float32


def test_lbfgs_defaults_match_torch():
    ours = minitorch.optim.LBFGS([_param(minitorch, [1.0])])
    defaults, _ = torch_answer(_torch_defaults, "LBFGS")
    assert ours.defaults == defaults and list(ours.defaults) == list(defaults)
