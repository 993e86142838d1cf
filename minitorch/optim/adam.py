"""Adam, with optional AMSGrad and decoupled (AdamW-style) weight decay."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (AdamHyper, Optimizer, ParamsT, _adam_moments, _check_adam_args, _increment, _params_with_grad,
                        _step_counter, _update_each, _zeros_like)

BetasT = tuple[float | Tensor, float | Tensor]


class Adam(Optimizer):
    """Adam, like ``torch.optim.Adam``.

    Per parameter: ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g`` (with
    ``amsgrad``, the running maximum of ``v`` is used instead of ``v``), then
    ``p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)``. ``weight_decay`` adds
    ``weight_decay * p`` to ``g``, or with ``decoupled_weight_decay`` scales ``p`` by ``1 - lr * weight_decay``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, betas: BetasT = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        _check_adam_args(lr, eps, betas, weight_decay)
        if not any(all(isinstance(beta, kind) for beta in betas) for kind in (float, Tensor)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, eps, amsgrad = float(group["lr"]), float(group["eps"]), group["amsgrad"]
        hyper = AdamHyper.of(group, group["decoupled_weight_decay"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["exp_avg"] = _zeros_like(p)
                state["exp_avg_sq"] = _zeros_like(p)
                if amsgrad:
                    state["max_exp_avg_sq"] = _zeros_like(p)
            step = _increment(state["step"])
            arrays = (p._data, grad, state["exp_avg"]._data, state["exp_avg_sq"]._data,
                      state["max_exp_avg_sq"]._data if amsgrad else None)
            step_size = -lr / (1 - hyper.beta1 ** step)
            updates.append((p, arrays, (hyper, eps, step_size, (1 - hyper.beta2 ** step) ** 0.5)))
        _update_each(group, _adam, updates)


def _adam(x: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray, exp_avg_sq: np.ndarray, max_exp_avg_sq: np.ndarray | None,
          hyper: AdamHyper, eps: float, step_size: float, bias_correction2_sqrt: float) -> None:
    _adam_moments(x, grad, exp_avg, exp_avg_sq, hyper)
    if max_exp_avg_sq is not None:  # amsgrad
        np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        exp_avg_sq = max_exp_avg_sq
    denom = np.sqrt(exp_avg_sq)
    denom /= bias_correction2_sqrt
    denom += eps
    update = exp_avg * step_size
    update /= denom
    x += update
