"""RAdam: Adam with a rectified (variance-corrected) adaptive learning rate."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (AdamHyper, Optimizer, ParamsT, _adam_moments, _check_adam_args, _increment, _params_with_grad,
                        _step_counter, _update_each, _zeros_like)


class RAdam(Optimizer):
    """RAdam, like ``torch.optim.RAdam``.

    ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g``; with
    ``rho_inf = 2 / (1 - beta2) - 1`` and ``rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)``:
    if ``rho_t > 5``, ``p -= lr * m / (1 - beta1**t) * sqrt(1 - beta2**t) / (sqrt(v) + eps) * r_t`` with the
    rectification ``r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))``,
    else ``p -= lr * m / (1 - beta1**t)``. ``weight_decay`` as in NAdam (L2, or decoupled).
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        eps, hyper = float(group["eps"]), AdamHyper.of(group, group["decoupled_weight_decay"])
        beta2 = hyper.beta2
        rho_inf = 2 / (1 - beta2) - 1
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["exp_avg"] = _zeros_like(p)
                state["exp_avg_sq"] = _zeros_like(p)
            step = _increment(state["step"])
            bias_correction1 = 1 - hyper.beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
            rect = None  # the variance is not yet tractable: an SGD-with-momentum step
            if rho_t > 5.0:
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            arrays = (p._data, grad, state["exp_avg"]._data, state["exp_avg_sq"]._data)
            updates.append((p, arrays, (hyper, eps, bias_correction1, bias_correction2 ** 0.5, rect)))
        _update_each(group, _radam, updates)


def _radam(x: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray, exp_avg_sq: np.ndarray, hyper: AdamHyper, eps: float,
           bias_correction1: float, bias_correction2_sqrt: float, rect: float | None) -> None:
    _adam_moments(x, grad, exp_avg, exp_avg_sq, hyper)
    update = exp_avg / bias_correction1
    update *= hyper.lr
    if rect is not None:
        adaptive = np.sqrt(exp_avg_sq)
        adaptive += eps
        np.divide(bias_correction2_sqrt, adaptive, out=adaptive)
        update *= adaptive
        update *= rect
    x -= update
