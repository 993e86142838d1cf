"""Stochastic gradient descent, optionally with (Nesterov) momentum."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _effective_grad, _params_with_grad,
                        _update_each)


class SGD(Optimizer):
    """Stochastic gradient descent, like ``torch.optim.SGD``.

    With ``g`` the gradient (negated if ``maximize``, plus ``weight_decay * p``): the momentum buffer
    starts as a copy of the first ``g``, then ``buf = momentum * buf + (1 - dampening) * g``; the step
    follows ``g + momentum * buf`` with ``nesterov``, else ``buf``: ``p -= lr * step``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        _check_lr(lr)
        _check_non_negative(momentum, "momentum value")
        _check_non_negative(weight_decay, "weight_decay value")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, momentum, dampening = float(group["lr"]), float(group["momentum"]), float(group["dampening"])
        scalars = (lr, float(group["weight_decay"]), group["maximize"], momentum, dampening, group["nesterov"])
        updates = []
        for p, grad in _params_with_grad(group):
            buf, first = None, False
            if momentum != 0:  # only then does SGD keep state (torch's state_dict stays empty otherwise)
                state = self.state[p]
                first = state.get("momentum_buffer") is None
                if first:  # the kernel starts it as a copy of the first step's gradient
                    state["momentum_buffer"] = Tensor._wrap(np.empty_like(grad))
                buf = state["momentum_buffer"]._data
            updates.append((p, (p._data, grad, buf), (*scalars, first)))
        _update_each(group, _sgd, updates)


def _sgd(x: np.ndarray, grad: np.ndarray, buf: np.ndarray | None, lr: float, weight_decay: float, maximize: bool,
         momentum: float, dampening: float, nesterov: bool, first: bool) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    if buf is not None:
        if first:
            buf[...] = g
        else:
            buf *= momentum
            buf += g if dampening == 0 else (1 - dampening) * g
        g = g + momentum * buf if nesterov else buf
    x += -lr * g
