"""Adagrad: per-coordinate learning rates from the running sum of squared gradients."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _effective_grad, _increment,
                        _params_with_grad, _step_counter, _update_each)


class Adagrad(Optimizer):
    """Adagrad, like ``torch.optim.Adagrad``.

    ``sum += g * g`` (``sum`` starts at ``initial_accumulator_value``), then
    ``p -= clr * g / (sqrt(sum) + eps)`` with ``clr = lr / (1 + (t - 1) * lr_decay)``. As in torch, the
    state (``step`` and ``sum``) is created for every parameter when the optimizer is built.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        _check_lr(lr)
        _check_non_negative(lr_decay, "lr_decay value")
        _check_non_negative(weight_decay, "weight_decay value")
        _check_non_negative(initial_accumulator_value, "initial_accumulator_value value")
        _check_non_negative(eps, "epsilon value")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group)

    def _init_state(self, p: Tensor, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[p]
        state["step"] = _step_counter()
        state["sum"] = Tensor._wrap(np.full_like(p._data, group["initial_accumulator_value"]))
        return state

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, lr_decay = float(group["lr"]), float(group["lr_decay"])
        scalars = (float(group["eps"]), float(group["weight_decay"]), group["maximize"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:  # a parameter added by add_param_group after construction
                state = self._init_state(p, group)
            step = _increment(state["step"])
            clr = lr / (1 + (step - 1) * lr_decay)
            updates.append((p, (p._data, grad, state["sum"]._data), (*scalars, clr)))
        _update_each(group, _adagrad, updates)


def _adagrad(x: np.ndarray, grad: np.ndarray, state_sum: np.ndarray, eps: float, weight_decay: float, maximize: bool,
             clr: float) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    state_sum += g * g
    std = np.sqrt(state_sum)
    std += eps
    update = g / std
    update *= -clr
    x += update
