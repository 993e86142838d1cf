"""Adadelta: step sizes from running averages of squared gradients and squared updates."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _decay_add_square, _effective_grad,
                        _increment, _params_with_grad, _step_counter, _update_each, _zeros_like)


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
        scalars = (float(group["lr"]), float(group["rho"]), float(group["eps"]), float(group["weight_decay"]),
                   group["maximize"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["square_avg"] = _zeros_like(p)
                state["acc_delta"] = _zeros_like(p)
            _increment(state["step"])
            updates.append((p, (p._data, grad, state["square_avg"]._data, state["acc_delta"]._data), scalars))
        _update_each(group, _adadelta, updates)


def _adadelta(x: np.ndarray, grad: np.ndarray, square_avg: np.ndarray, acc_delta: np.ndarray, lr: float, rho: float,
              eps: float, weight_decay: float, maximize: bool) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    _decay_add_square(square_avg, g, rho)
    std = square_avg + eps
    np.sqrt(std, out=std)
    delta = acc_delta + eps
    np.sqrt(delta, out=delta)
    delta /= std
    delta *= g
    _decay_add_square(acc_delta, delta, rho)
    x += -lr * delta
