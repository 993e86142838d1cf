"""MultiplicativeLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR and ChainedScheduler: the lrs
(and cycled momentum) of 25 steps and the state_dict keys equal PyTorch's; hand-derived values without it."""
import math
import pathlib
import subprocess
import sys

import pytest

import minitorch
from minitorch.optim import lr_scheduler as S
from torch_answers import torch_answer

SCRIPT = pathlib.Path(__file__).resolve().parent / "corpus" / "schedulers.py"


def _run(lib: str) -> str:
    out = subprocess.run([sys.executable, str(SCRIPT), lib], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_schedules_equal_torch():
    assert _run("minitorch") == torch_answer(lambda torch: _run("torch"))


def _opt(**kw):
    return minitorch.optim.SGD([minitorch.nn.Parameter(minitorch.ones(1))], lr=0.1, **kw)


def _lrs(opt, scheduler, n):
    values = []
    for _ in range(n):
        opt.step()
        scheduler.step()
        values.append(round(opt.param_groups[0]["lr"], 10))
    return values


def test_polynomial_and_multiplicative_by_hand():
    opt = _opt()
    assert _lrs(opt, S.PolynomialLR(opt, total_iters=4, power=2.0), 5) == [
        round(0.1 * (1 - k / 4) ** 2, 10) for k in (1, 2, 3, 4, 4)]
    opt = _opt()
    assert _lrs(opt, S.MultiplicativeLR(opt, lambda e: 0.5), 3) == [0.05, 0.025, 0.0125]


def test_cyclic_triangle_and_momentum_by_hand():
    opt = _opt(momentum=0.9)
    scheduler = S.CyclicLR(opt, base_lr=0.0, max_lr=1.0, step_size_up=2, base_momentum=0.8, max_momentum=0.9)
    assert _lrs(opt, scheduler, 5) == [0.5, 1.0, 0.5, 0.0, 0.5]
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.85)
    with pytest.raises(ValueError, match="^optimizer must support momentum or beta1 with `cycle_momentum` option enabled$"):
        S.CyclicLR(minitorch.optim.Adagrad([minitorch.nn.Parameter(minitorch.ones(1))]), 0.1, 1.0)


def test_warm_restarts_by_hand():
    opt = _opt()
    lrs = _lrs(opt, S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2), 6)
    expected = [0.05, 0.1, round(0.05 * (1 + math.cos(math.pi / 4)), 10), 0.05,
                round(0.05 * (1 + math.cos(3 * math.pi / 4)), 10), 0.1]
    assert lrs == expected
    with pytest.raises(ValueError, match="^Expected positive integer T_0, but got 0$"):
        S.CosineAnnealingWarmRestarts(opt, T_0=0)


def test_chained_composes():
    opt = _opt()
    chained = S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=2), S.ExponentialLR(opt, gamma=0.5)])
    assert _lrs(opt, chained, 3) == [0.025, 0.025, 0.0125]  # x0.5 from epoch 0 to 2, x0.5 each step
    assert set(chained.state_dict()) >= {"_schedulers", "_last_lr"}
