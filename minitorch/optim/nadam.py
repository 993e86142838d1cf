"""NAdam: Adam with Nesterov momentum and a momentum-decay schedule."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import get_default_dtype
from .._core.tensor import Tensor
from .optimizer import (AdamHyper, Optimizer, ParamsT, _adam_moments, _check_adam_args, _check_non_negative,
                        _increment, _params_with_grad, _step_counter, _update_each, _zeros_like)


class NAdam(Optimizer):
    """NAdam, like ``torch.optim.NAdam``.

    With ``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))`` and ``mu_product`` their running product
    (kept in ``state['mu_product']``, a 0-d tensor of the default dtype, as torch does):
    ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g``,
    ``denom = sqrt(v / (1 - beta2**t)) + eps`` and
    ``p -= lr * (1 - mu_t) / (1 - mu_product) * g / denom + lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom``.
    ``weight_decay`` is L2 (added to ``g``), or with ``decoupled_weight_decay`` scales ``p`` by ``1 - lr * wd``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        _check_adam_args(lr, eps, betas, weight_decay)
        _check_non_negative(momentum_decay, "momentum_decay value")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, eps, momentum_decay = float(group["lr"]), float(group["eps"]), float(group["momentum_decay"])
        hyper = AdamHyper.of(group, group["decoupled_weight_decay"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["mu_product"] = Tensor._wrap(np.ones((), get_default_dtype().np))
                state["exp_avg"] = _zeros_like(p)
                state["exp_avg_sq"] = _zeros_like(p)
            step = _increment(state["step"])
            mu = hyper.beta1 * (1.0 - 0.5 * 0.96 ** (step * momentum_decay))
            mu_next = hyper.beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentum_decay))
            mu_product = state["mu_product"]._data
            mu_product *= mu
            mu_prod = float(mu_product)  # rounded to the counter's dtype, as torch reads it back
            grad_step = -lr * (1.0 - mu) / (1.0 - mu_prod)
            avg_step = (-lr * mu_next) / (1.0 - mu_prod * mu_next)
            arrays = (p._data, grad, state["exp_avg"]._data, state["exp_avg_sq"]._data)
            updates.append((p, arrays, (hyper, eps, 1 - hyper.beta2 ** step, grad_step, avg_step)))
        _update_each(group, _nadam, updates)


def _nadam(x: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray, exp_avg_sq: np.ndarray, hyper: AdamHyper, eps: float,
           bias_correction2: float, grad_step: float, avg_step: float) -> None:
    g = _adam_moments(x, grad, exp_avg, exp_avg_sq, hyper)
    denom = exp_avg_sq / bias_correction2
    np.sqrt(denom, out=denom)
    denom += eps
    update = g / denom
    update *= grad_step
    x += update
    update = exp_avg / denom
    update *= avg_step
    x += update
