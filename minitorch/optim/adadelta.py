"""Adadelta: step sizes from running averages of squared gradients and squared updates."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _effective_grad, _increment,
                        _params_with_grad, _step_counter, _zeros_like)


class Adadelta(Optimizer):
    """Adadelta, like ``torch.optim.Adadelta``.

    ``v = rho * v + (1 - rho) * g * g``, ``delta = sqrt(u + eps) / sqrt(v + eps) * g``,
    ``u = rho * u + (1 - rho) * delta * delta``, then ``p -= lr * delta``. State: ``step``,
    ``square_avg`` (``v``) and ``acc_delta`` (``u``).
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_non_negative(eps, "epsilon value")
        _check_non_negative(weight_decay, "weight_decay value")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, rho, eps, weight_decay = float(group["lr"]), float(group["rho"]), float(group["eps"]), \
            float(group["weight_decay"])
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["square_avg"] = _zeros_like(p)
                state["acc_delta"] = _zeros_like(p)
            _increment(state["step"])
            x = p._data
            g = _effective_grad(x, grad, weight_decay, group["maximize"])
            square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
            square_avg *= rho
            square_avg += (1 - rho) * g * g
            std = square_avg + eps
            np.sqrt(std, out=std)
            delta = acc_delta + eps
            np.sqrt(delta, out=delta)
            delta /= std
            delta *= g
            acc_delta *= rho
            acc_delta += (1 - rho) * delta * delta
            x += -lr * delta
            p._bump()
