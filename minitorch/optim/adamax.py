"""Adamax: Adam with the infinity norm in place of the second moment."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_adam_args, _effective_grad, _increment, _lerp_,
                        _params_with_grad, _step_counter, _update_each, _zeros_like)


class Adamax(Optimizer):
    """Adamax, like ``torch.optim.Adamax``.

    ``m = lerp(m, g, 1 - beta1)``, ``u = max(beta2 * u, |g| + eps)``, then
    ``p -= lr / (1 - beta1**t) * m / u``. State: ``step``, ``exp_avg`` (``m``) and ``exp_inf`` (``u``).
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, beta1 = float(group["lr"]), float(group["betas"][0])
        scalars = (float(group["eps"]), float(group["weight_decay"]), beta1, float(group["betas"][1]), group["maximize"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["exp_avg"] = _zeros_like(p)
                state["exp_inf"] = _zeros_like(p)
            step = _increment(state["step"])
            arrays = (p._data, grad, state["exp_avg"]._data, state["exp_inf"]._data)
            updates.append((p, arrays, (*scalars, -lr / (1 - beta1 ** step))))
        _update_each(group, _adamax, updates)


def _adamax(x: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray, exp_inf: np.ndarray, eps: float, weight_decay: float,
            beta1: float, beta2: float, maximize: bool, step_size: float) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    _lerp_(exp_avg, g, 1 - beta1)
    exp_inf *= beta2
    norm = np.abs(g)
    norm += eps
    np.maximum(exp_inf, norm, out=exp_inf)
    update = exp_avg / exp_inf
    update *= step_size
    x += update
