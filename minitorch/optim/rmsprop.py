"""RMSprop, optionally centered and with momentum."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _decay_add_square, _effective_grad,
                        _increment, _lerp_, _params_with_grad, _step_counter, _update_each, _zeros_like)


class RMSprop(Optimizer):
    """RMSprop, like ``torch.optim.RMSprop``.

    ``v = alpha * v + (1 - alpha) * g * g``; with ``centered``, ``avg = sqrt(v - ga * ga)`` where ``ga`` is
    the running mean of ``g`` (``lerp(ga, g, 1 - alpha)``), else ``avg = sqrt(v)``; then ``avg += eps`` and
    ``p -= lr * g / avg``, or with momentum ``buf = momentum * buf + g / avg`` and ``p -= lr * buf``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        _check_lr(lr)
        _check_non_negative(eps, "epsilon value")
        _check_non_negative(momentum, "momentum value")
        _check_non_negative(weight_decay, "weight_decay value")
        _check_non_negative(alpha, "alpha value")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        momentum, centered = float(group["momentum"]), group["centered"]
        scalars = (float(group["lr"]), float(group["alpha"]), float(group["eps"]), float(group["weight_decay"]),
                   group["maximize"], momentum)
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["square_avg"] = _zeros_like(p)
                if momentum > 0:
                    state["momentum_buffer"] = _zeros_like(p)
                if centered:
                    state["grad_avg"] = _zeros_like(p)
            _increment(state["step"])
            arrays = (p._data, grad, state["square_avg"]._data, state["grad_avg"]._data if centered else None,
                      state["momentum_buffer"]._data if momentum > 0 else None)
            updates.append((p, arrays, scalars))
        _update_each(group, _rmsprop, updates)


def _rmsprop(x: np.ndarray, grad: np.ndarray, square_avg: np.ndarray, grad_avg: np.ndarray | None,
             buf: np.ndarray | None, lr: float, alpha: float, eps: float, weight_decay: float, maximize: bool,
             momentum: float) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    _decay_add_square(square_avg, g, alpha)
    if grad_avg is not None:  # centered
        _lerp_(grad_avg, g, 1 - alpha)
        avg = square_avg - grad_avg * grad_avg
        np.sqrt(avg, out=avg)
    else:
        avg = np.sqrt(square_avg)
    avg += eps
    if buf is not None:
        buf *= momentum
        buf += g / avg
        x += -lr * buf
    else:
        update = -lr * g
        update /= avg
        x += update
