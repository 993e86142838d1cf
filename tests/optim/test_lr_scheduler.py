"""minitorch.optim.lr_scheduler: lr sequences by hand and against PyTorch, state_dict, warnings, errors.

Tests taking ``lib`` run on minitorch and, when PyTorch is installed, on PyTorch too (conftest.py).
"""
import copy
import math
import subprocess
import sys
import warnings

import pytest

import minitorch
import minitorch.optim  # binds minitorch.optim, as torch.optim is bound in torch
from locations import CORPUS
from minitorch.optim import lr_scheduler as S
from torch_answers import torch_answer


def _optimizer(lib, name="SGD", lrs=(1.0,), **kwargs):
    """An optimizer with one single-parameter group per entry of ``lrs``."""
    groups = [{"params": [lib.zeros(2, requires_grad=True)], "lr": lr} for lr in lrs]
    return getattr(lib.optim, name)(groups, **kwargs)


def _lrs(opt, scheduler, epochs):
    """``[lrs of epoch 0, lrs of epoch 1, ...]``, stepping the optimizer (no grads: a no-op) then the scheduler."""
    out = [scheduler.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        out.append(scheduler.get_last_lr())
    return out


def _first(seq):
    return [lrs[0] for lrs in seq]


# ---- sequences by hand ------------------------------------------------------------------------------------

def test_step_lr(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    assert _first(_lrs(opt, s, 32)) == [0.5 ** (e // 3) for e in range(33)]
    assert opt.param_groups[0]["lr"] == 0.5 ** 10 and opt.param_groups[0]["initial_lr"] == 1.0
    assert s.last_epoch == 32 and s.base_lrs == [1.0]


def test_multistep_lr_counts_repeated_milestones(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 9], gamma=0.5)
    assert _first(_lrs(opt, s, 31)) == [0.5 ** sum(m <= e for m in (2, 5, 5, 9)) for e in range(32)]


def test_exponential_lr(lib):
    opt = _optimizer(lib, lrs=(1.0, 0.1))
    s = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    assert _lrs(opt, s, 30) == [[0.5 ** e, 0.1 * 0.5 ** e] for e in range(31)]  # powers of two: exact
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    assert _first(_lrs(opt, s, 40)) == pytest.approx([0.9 ** e for e in range(41)], rel=1e-13)


def test_cosine_annealing_lr_over_several_periods(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.1)
    got = _first(_lrs(opt, s, 35))
    # eta_min + (base - eta_min) * (1 + cos(pi * e / T_max)) / 2: down to 0.1 at 10, back up to 1 at 20, ...
    assert got == pytest.approx([0.1 + 0.9 * (1 + math.cos(math.pi * e / 10)) / 2 for e in range(36)], rel=1e-12)
    assert got[10] == pytest.approx(0.1, rel=1e-12) and got[20] == pytest.approx(1.0, rel=1e-12)


def test_lambda_lr_per_group(lib):
    opt = _optimizer(lib, lrs=(1.0, 2.0))
    s = lib.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1 / (e + 1), lambda e: e % 4])
    assert _lrs(opt, s, 30) == [[1.0 * (1 / (e + 1)), 2.0 * (e % 4)] for e in range(31)]


def test_linear_and_constant_lr(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, end_factor=1.0, total_iters=4)
    assert _first(_lrs(opt, s, 30)) == pytest.approx([0.25, 0.4375, 0.625, 0.8125] + [1.0] * 27, rel=1e-14)
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=3)
    assert _first(_lrs(opt, s, 30)) == [0.5] * 3 + [1.0] * 28


def _cos(start, end, pct):
    return end + (start - end) * (1 + math.cos(math.pi * pct)) / 2


def test_one_cycle_lr_cos_with_momentum(lib):
    opt = _optimizer(lib, momentum=0.9)
    s = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=30)
    lrs, momenta = [s.get_last_lr()[0]], [opt.param_groups[0]["momentum"]]
    for _ in range(29):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr()[0])
        momenta.append(opt.param_groups[0]["momentum"])
    # warm-up over steps 0..8 (pct_start * 30 - 1) from 1/25 to 1, then down to 1/25/1e4 at step 29;
    # the momentum goes the other way, 0.95 -> 0.85 -> 0.95
    want_lr = [_cos(0.04, 1.0, e / 8) if e <= 8 else _cos(1.0, 4e-6, (e - 8) / 21) for e in range(30)]
    want_momentum = [_cos(0.95, 0.85, e / 8) if e <= 8 else _cos(0.85, 0.95, (e - 8) / 21) for e in range(30)]
    assert lrs == pytest.approx(want_lr, rel=1e-12)
    assert momenta == pytest.approx(want_momentum, rel=1e-12)
    group = opt.param_groups[0]
    assert (group["initial_lr"], group["max_lr"], group["min_lr"]) == (0.04, 1.0, 0.04 / 1e4)
    assert (group["max_momentum"], group["base_momentum"]) == (0.95, 0.85)
    opt.step()
    s.step()  # step 30 is still allowed, 31 is not
    with pytest.raises(ValueError, match="^Tried to step 31 times. The specified number of total steps is 30$"):
        s.step()


def test_one_cycle_lr_three_phase_linear_cycles_adam_beta1(lib):
    opt = _optimizer(lib, "Adam", betas=(0.9, 0.99))
    s = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=2.0, epochs=4, steps_per_epoch=10, pct_start=0.25,
                                          anneal_strategy="linear", three_phase=True, div_factor=10.0,
                                          final_div_factor=100.0)
    lrs, beta1 = [s.get_last_lr()[0]], [opt.param_groups[0]["betas"][0]]
    for _ in range(39):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr()[0])
        beta1.append(opt.param_groups[0]["betas"][0])
        assert opt.param_groups[0]["betas"][1] == 0.99
    # phases end at steps 9, 18 and 39: 0.2 -> 2 -> 0.2 -> 0.002 (linear), beta1 0.95 -> 0.85 -> 0.95 -> 0.95
    want = [0.2 + 1.8 * e / 9 if e <= 9 else 2.0 - 1.8 * (e - 9) / 9 if e <= 18 else 0.2 - 0.198 * (e - 18) / 21
            for e in range(40)]
    assert lrs == pytest.approx(want, rel=1e-12)
    assert beta1[9] == pytest.approx(0.85) and beta1[18] == pytest.approx(0.95) and beta1[39] == 0.95


def test_sequential_lr(lib):
    opt = _optimizer(lib)
    sched = lib.optim.lr_scheduler
    s = sched.SequentialLR(opt, [sched.LinearLR(opt, start_factor=0.5, total_iters=2), sched.ExponentialLR(opt, 0.5)],
                           milestones=[3])
    # linear warm-up 0.5, 0.75, 1 (then flat); the exponential decay starts from the base lr at epoch 3
    assert _first(_lrs(opt, s, 30)) == pytest.approx([0.5, 0.75, 1.0] + [0.5 ** k for k in range(28)], rel=1e-14)


def test_reduce_lr_on_plateau(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2, cooldown=1, threshold=0.1,
                                                 min_lr=0.2)
    got = []
    for metric in [10, 9.5, 9.2, 9.1, 8.0] + [8.0] * 11:
        s.step(metric)
        got.append(s.get_last_lr()[0])
    # 9.5, 9.2, 9.1 are not 10% better than 10: the third bad epoch halves the lr; 8.0 improves (and is the
    # cooldown epoch); three more bad epochs halve it again; the next reduction stops at min_lr = 0.2
    assert got == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.2, 0.2, 0.2, 0.2, 0.2]
    assert s.best == 8.0 and s.last_epoch == 16

    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold_mode="abs", threshold=1.0, patience=0)
    for metric in [1.0, 1.5, 3.0]:  # 1.5 is not 1 better than 1.0: reduce at once (patience 0); 3.0 is
        s.step(metric)
    assert s.get_last_lr() == [0.1] and s.best == 3.0


# ---- against PyTorch ------------------------------------------------------------------------------------

def _schedulers():
    """name -> (optimizer name, optimizer kwargs, scheduler factory); two param groups each."""
    return {
        "StepLR": ("SGD", {}, lambda L, o: L.StepLR(o, 7, gamma=0.3)),
        "MultiStepLR": ("SGD", {}, lambda L, o: L.MultiStepLR(o, [3, 10, 10, 25], gamma=0.3)),
        "ExponentialLR": ("SGD", {}, lambda L, o: L.ExponentialLR(o, 0.93)),
        "CosineAnnealingLR": ("SGD", {}, lambda L, o: L.CosineAnnealingLR(o, 12, eta_min=0.001)),
        "LambdaLR": ("SGD", {}, lambda L, o: L.LambdaLR(o, [lambda e: 0.95 ** e, lambda e: 1 / (e + 1)])),
        "LinearLR": ("SGD", {}, lambda L, o: L.LinearLR(o, 0.1, 0.9, total_iters=17)),
        "ConstantLR": ("SGD", {}, lambda L, o: L.ConstantLR(o, 0.3, total_iters=6)),
        "OneCycleLR": ("SGD", {"momentum": 0.9}, lambda L, o: L.OneCycleLR(o, [1.0, 0.3], total_steps=41)),
        "OneCycleLR-adam": ("Adam", {}, lambda L, o: L.OneCycleLR(o, 0.01, total_steps=45, pct_start=0.25,
                                                                  anneal_strategy="linear", three_phase=True)),
        "SequentialLR": ("SGD", {}, lambda L, o: L.SequentialLR(
            o, [L.LinearLR(o, 0.1, total_iters=5), L.CosineAnnealingLR(o, 13), L.ExponentialLR(o, 0.9)], [5, 25])),
    }


def _run(lib, name, epochs=40):
    opt_name, opt_kwargs, make = _schedulers()[name]
    opt = _optimizer(lib, opt_name, lrs=(0.1, 0.05), **opt_kwargs)
    scheduler = make(lib.optim.lr_scheduler, opt)
    groups = []
    seq = [scheduler.get_last_lr()]
    for _ in range(epochs):
        opt.step()
        scheduler.step()
        seq.append(scheduler.get_last_lr())
        groups.append([{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups])
    return seq, groups, scheduler


@pytest.mark.parametrize("name", list(_schedulers()))
def test_matches_torch_exactly(name):
    ours, our_groups, our_sched = _run(minitorch, name)
    theirs, their_groups, their_state = torch_answer(_torch_run, name)
    assert ours == theirs  # bit for bit, over 40 epochs
    assert our_groups == their_groups  # initial_lr, max_lr, momentum, betas ...
    assert our_sched.state_dict() == their_state


def _torch_run(torch, name):
    seq, groups, scheduler = _run(torch, name)
    return seq, groups, scheduler.state_dict()


@pytest.mark.parametrize("name", list(_schedulers()))
def test_state_dict_round_trip(lib, name):
    full, _, _ = _run(lib, name, epochs=40)
    opt_name, opt_kwargs, make = _schedulers()[name]
    opt = _optimizer(lib, opt_name, lrs=(0.1, 0.05), **opt_kwargs)
    scheduler = make(lib.optim.lr_scheduler, opt)
    first = _lrs(opt, scheduler, 15)
    saved_sched, saved_opt = copy.deepcopy(scheduler.state_dict()), copy.deepcopy(opt.state_dict())

    opt2 = _optimizer(lib, opt_name, lrs=(0.1, 0.05), **opt_kwargs)
    scheduler2 = make(lib.optim.lr_scheduler, opt2)
    scheduler2.load_state_dict(saved_sched)
    opt2.load_state_dict(saved_opt)
    assert scheduler2.get_last_lr() == first[-1] and scheduler2.last_epoch == scheduler.last_epoch
    rest = _lrs(opt2, scheduler2, 25)
    assert first + rest[1:] == full


def test_state_dict_contents(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
    _lrs(opt, s, 3)
    assert s.state_dict() == {"step_size": 2, "gamma": 0.1, "base_lrs": [1.0], "last_epoch": 3, "_step_count": 4,
                              "_is_initial": False, "_get_lr_called_within_step": False,
                              "_last_lr": [pytest.approx(0.1)]}
    lam = lib.optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0)
    assert lam.state_dict()["lr_lambdas"] == [None] and "optimizer" not in lam.state_dict()


# ---- warnings and errors ----------------------------------------------------------------------------------

def test_warnings(lib):
    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.StepLR(opt, 2)
    with pytest.warns(UserWarning, match=r"^Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"):
        s.step()
    with pytest.warns(UserWarning, match=r"^To get the last learning rate computed by the scheduler, please use "
                                         r"`get_last_lr\(\)`.$"):
        assert s.get_lr() == [1.0]
    with pytest.warns(UserWarning, match=r"^The epoch parameter in `scheduler.step\(\)` was not necessary"):
        s.step(7)  # the closed form: 1.0 * 0.1 ** (7 // 2)
    assert s.last_epoch == 7 and s.get_last_lr() == [pytest.approx(1e-3)]

    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.StepLR(opt, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        s.step()  # the right order: no warning

    opt = _optimizer(lib)
    s = lib.optim.lr_scheduler.StepLR(opt, 2)
    opt.step = lambda closure=None: None
    with pytest.warns(UserWarning, match=r"^Seems like `optimizer.step\(\)` has been overridden"):
        s.step()


def test_errors(lib):
    sched = lib.optim.lr_scheduler
    opt = _optimizer(lib)
    cases = [
        (lambda: sched.StepLR(object(), 2), TypeError, "object is not an Optimizer"),
        (lambda: sched.LinearLR(opt, start_factor=0), ValueError,
         "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."),
        (lambda: sched.LinearLR(opt, end_factor=1.5), ValueError,
         "Ending multiplicative factor expected to be between 0 and 1."),
        (lambda: sched.ConstantLR(opt, factor=2.0), ValueError,
         "Constant multiplicative factor expected to be between 0 and 1."),
        (lambda: sched.LambdaLR(opt, [lambda e: 1, lambda e: 2]), ValueError, "Expected 1 lr_lambdas, but got 2"),
        (lambda: sched.OneCycleLR(opt, 1.0), ValueError,
         "You must define either total_steps OR (epochs AND steps_per_epoch)"),
        (lambda: sched.OneCycleLR(opt, 1.0, total_steps=0), ValueError,
         "Expected positive integer total_steps, but got 0"),
        (lambda: sched.OneCycleLR(opt, 1.0, total_steps=10, pct_start=1.5), ValueError,
         "Expected float between 0 and 1 pct_start, but got 1.5"),
        (lambda: sched.OneCycleLR(opt, 1.0, total_steps=10, anneal_strategy="exp"), ValueError,
         "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
        (lambda: sched.OneCycleLR(opt, [1.0, 2.0], total_steps=10), ValueError,
         "max_lr must have the same length as optimizer.param_groups. max_lr has 2 values, param_groups has 1."),
        (lambda: sched.SequentialLR(opt, [sched.StepLR(opt, 2), sched.StepLR(opt, 3)], milestones=[]), ValueError,
         ("Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone "
          "points, but got number of schedulers 2 and the number of milestones to be equal to 0")),
        (lambda: sched.ReduceLROnPlateau(opt, factor=1.0), ValueError, "Factor should be < 1.0."),
        (lambda: sched.ReduceLROnPlateau(opt, mode="mid"), ValueError, "mode mid is unknown!"),
        (lambda: sched.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]), ValueError, "expected 1 min_lrs, got 2"),
    ]
    for make, kind, message in cases:
        with pytest.raises(kind) as info:
            make()
        assert str(info.value) == message
    with pytest.raises(KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\] when resuming"):
        sched.StepLR(_optimizer(lib), 2, last_epoch=3)


def test_resuming_with_last_epoch(lib):
    opt = _optimizer(lib)
    opt.param_groups[0]["initial_lr"] = 1.0
    s = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, last_epoch=4)
    # the initial step only advances to epoch 5, keeping the current lr; later steps rescale it recursively
    assert s.get_last_lr() == [1.0] and s.last_epoch == 5 and s.base_lrs == [1.0]
    opt.step()
    s.step()
    assert s.get_last_lr() == [pytest.approx((1 + math.cos(math.pi * 6 / 10)) / (1 + math.cos(math.pi * 5 / 10)),
                                             rel=1e-12)]


# ---- MultiplicativeLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR and ChainedScheduler: the lrs (and
# cycled momentum) of 25 steps of corpus/schedulers.py and the state_dict keys equal PyTorch's; hand-derived values
# without it.
SCRIPT = CORPUS / "schedulers.py"


def _run_script(lib: str) -> str:
    out = subprocess.run([sys.executable, str(SCRIPT), lib], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_schedules_equal_torch():
    assert _run_script("minitorch") == torch_answer(lambda torch: _run_script("torch"))


def _opt(**kw):
    return minitorch.optim.SGD([minitorch.nn.Parameter(minitorch.ones(1))], lr=0.1, **kw)


def _group0_lrs(opt, scheduler, n):
    values = []
    for _ in range(n):
        opt.step()
        scheduler.step()
        values.append(round(opt.param_groups[0]["lr"], 10))
    return values


def test_polynomial_and_multiplicative_by_hand():
    opt = _opt()
    assert _group0_lrs(opt, S.PolynomialLR(opt, total_iters=4, power=2.0), 5) == [
        round(0.1 * (1 - k / 4) ** 2, 10) for k in (1, 2, 3, 4, 4)]
    opt = _opt()
    assert _group0_lrs(opt, S.MultiplicativeLR(opt, lambda e: 0.5), 3) == [0.05, 0.025, 0.0125]


def test_cyclic_triangle_and_momentum_by_hand():
    opt = _opt(momentum=0.9)
    scheduler = S.CyclicLR(opt, base_lr=0.0, max_lr=1.0, step_size_up=2, base_momentum=0.8, max_momentum=0.9)
    assert _group0_lrs(opt, scheduler, 5) == [0.5, 1.0, 0.5, 0.0, 0.5]
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.85)
    with pytest.raises(ValueError, match="^optimizer must support momentum or beta1 with `cycle_momentum` option enabled$"):
        S.CyclicLR(minitorch.optim.Adagrad([minitorch.nn.Parameter(minitorch.ones(1))]), 0.1, 1.0)


def test_warm_restarts_by_hand():
    opt = _opt()
    lrs = _group0_lrs(opt, S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2), 6)
    expected = [0.05, 0.1, round(0.05 * (1 + math.cos(math.pi / 4)), 10), 0.05,
                round(0.05 * (1 + math.cos(3 * math.pi / 4)), 10), 0.1]
    assert lrs == expected
    with pytest.raises(ValueError, match="^Expected positive integer T_0, but got 0$"):
        S.CosineAnnealingWarmRestarts(opt, T_0=0)


def test_chained_composes():
    opt = _opt()
    chained = S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=2), S.ExponentialLR(opt, gamma=0.5)])
    assert _group0_lrs(opt, chained, 3) == [0.025, 0.025, 0.0125]  # x0.5 from epoch 0 to 2, x0.5 each step
    assert set(chained.state_dict()) >= {"_schedulers", "_last_lr"}
