"""ASGD: averaged stochastic gradient descent."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import get_default_dtype
from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _check_non_negative, _effective_grad, _increment,
                        _params_with_grad, _step_counter, _update_each, _zeros_like)


def _scalar(value: float) -> Tensor:
    """A 0-d tensor of the default dtype, as torch keeps ASGD's ``eta`` and ``mu``."""
    return Tensor._wrap(np.array(value, get_default_dtype().np))


class ASGD(Optimizer):
    """Averaged SGD, like ``torch.optim.ASGD``.

    ``p = p * (1 - lambd * eta) - eta * g``; the average ``ax`` copies ``p`` while ``mu == 1``, else
    ``ax += mu * (p - ax)``; then ``eta = lr / (1 + lambd * lr * t)**alpha`` and ``mu = 1 / max(1, t - t0)``.
    ``eta`` and ``mu`` are 0-d tensors of the default dtype in the state, read back as Python floats.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_lr(lr)
        _check_non_negative(weight_decay, "weight_decay value")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, lambd, alpha, t0 = float(group["lr"]), float(group["lambd"]), float(group["alpha"]), float(group["t0"])
        scalars = (lambd, float(group["weight_decay"]), group["maximize"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["eta"] = _scalar(lr)
                state["mu"] = _scalar(1.0)
                state["ax"] = _zeros_like(p)
            step = _increment(state["step"])
            eta, mu = float(state["eta"]._data), float(state["mu"]._data)  # this step's, before the updates below
            state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** alpha)
            state["mu"]._data[...] = 1 / max(1, step - t0)
            updates.append((p, (p._data, grad, state["ax"]._data), (*scalars, eta, mu)))
        _update_each(group, _asgd, updates)


def _asgd(x: np.ndarray, grad: np.ndarray, ax: np.ndarray, lambd: float, weight_decay: float, maximize: bool,
          eta: float, mu: float) -> None:
    g = _effective_grad(x, grad, weight_decay, maximize)
    x *= 1 - lambd * eta
    x += -eta * g
    if mu != 1:
        diff = x - ax
        diff *= mu
        ax += diff
    else:
        ax[...] = x
