"""Adafactor: Adam-like steps with a factored second moment (row and column means for matrices)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import Optimizer, ParamsT, _effective_grad, _increment, _lerp_, _params_with_grad, _step_counter


class Adafactor(Optimizer):
    """Adafactor, like ``torch.optim.Adafactor`` (torch's variant: ``lr`` caps the relative step size and
    scales the decoupled weight decay; ``eps1`` guards the variance estimate and the update).

    At step t: ``beta2_t = 1 - t**beta2_decay``, ``rho = min(lr, 1/sqrt(t))``,
    ``alpha = max(eps2, RMS(p)) * rho``; ``p *= 1 - lr * weight_decay``. For a gradient of two or more dims
    the second moment is kept as the moving averages of its row means ``R`` and column means ``C`` of ``g*g``
    over the last two dims, and estimated as ``R C / max(mean(R), eps1)``; otherwise as the moving average
    ``V`` of ``g*g``. Then ``u = g / sqrt(max(V, eps1**2))``, clipped to ``RMS(u) <= d``, and ``p -= alpha u``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: bool | None = None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        checks = ((0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
                  (0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}"),
                  (eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}"),
                  (0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
                  (1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}"),
                  (0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}"))
        for ok, message in checks:
            if not ok:
                raise ValueError(message)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, d, weight_decay = float(group["lr"]), float(group["d"]), float(group["weight_decay"])
        eps1, eps2 = group["eps"]
        for p, grad in _params_with_grad(group):
            x = p._data
            g = _effective_grad(x, grad, 0.0, group["maximize"])
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                if g.ndim > 1:
                    state["row_var"] = Tensor._wrap(np.zeros(g.shape[:-1] + (1,), g.dtype))
                    state["col_var"] = Tensor._wrap(np.zeros(g.shape[:-2] + (1,) + g.shape[-1:], g.dtype))
                else:
                    state["variance"] = Tensor._wrap(np.zeros_like(g))
            e1 = float(np.finfo(x.dtype).eps) if eps1 is None else eps1
            step = _increment(state["step"])
            weight = step ** float(group["beta2_decay"])  # 1 - beta2_t
            rho = min(lr, 1 / step ** 0.5)
            alpha = max(eps2, float(np.linalg.norm(x.ravel())) / x.size ** 0.5) * rho
            if weight_decay != 0:
                x *= 1 - lr * weight_decay
            squared = g * g
            if g.ndim > 1:
                row_var, col_var = state["row_var"]._data, state["col_var"]._data
                _lerp_(row_var, squared.mean(-1, keepdims=True), weight)
                _lerp_(col_var, squared.mean(-2, keepdims=True), weight)
                variance = row_var @ col_var
                variance /= np.maximum(row_var.mean(-2, keepdims=True), e1)
            else:
                variance = state["variance"]._data
                _lerp_(variance, squared, weight)
            update = g / np.sqrt(np.maximum(variance, e1 * e1))
            denom = max(1.0, float(np.linalg.norm(update.ravel())) / (update.size ** 0.5 * d))
            x += (-alpha / denom) * update
            p._bump()
