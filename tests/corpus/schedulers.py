"""Learning-rate schedulers, stepped 25 times on two parameter groups: lrs, momentum and state_dict keys.

Run as ``python schedulers.py torch`` or ``python schedulers.py minitorch``; the outputs must be equal.
"""
import sys
import warnings

warnings.simplefilter("ignore")
torch = __import__(sys.argv[1])
S = torch.optim.lr_scheduler


def run(make, opt_cls="SGD", n=25, epoch_arg=None, **opt_kwargs):
    p, q = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2))
    opt = getattr(torch.optim, opt_cls)([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=0.1, **opt_kwargs)
    scheduler = make(opt)
    out = []
    for i in range(n):
        opt.step()
        if epoch_arg:
            scheduler.step(epoch_arg(i))
        else:
            scheduler.step()
        g = opt.param_groups[0]
        momentum = g.get("momentum", g.get("betas", [0])[0])
        out.append((round(g["lr"], 10), round(opt.param_groups[1]["lr"], 10), round(momentum, 10)))
    return out, sorted(scheduler.state_dict())


CASES = {
    "mult": lambda: run(lambda o: S.MultiplicativeLR(o, lambda e: 0.9)),
    "poly": lambda: run(lambda o: S.PolynomialLR(o, total_iters=10, power=2.0)),
    "cawr1": lambda: run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=5)),
    "cawr2": lambda: run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)),
    "cawr-frac": lambda: run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2), epoch_arg=lambda i: i * 0.7),
    "cyc-tri": lambda: run(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=4), momentum=0.9),
    "cyc-tri2": lambda: run(lambda o: S.CyclicLR(o, [0.01, 0.02], 0.1, step_size_up=3, step_size_down=5,
                                                 mode="triangular2"), momentum=0.9),
    "cyc-exp-adam": lambda: run(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.9),
                                opt_cls="Adam"),
    "cyc-nomom": lambda: run(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, cycle_momentum=False)),
    "chained": lambda: run(lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=4),
                                                         S.ExponentialLR(o, gamma=0.9)])),
}
for name, case in CASES.items():
    print(name, case())
