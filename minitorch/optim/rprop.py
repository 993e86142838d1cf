"""Rprop: resilient backpropagation, sign-based steps with per-coordinate adaptive sizes."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import (Optimizer, ParamsT, _check_lr, _increment, _params_with_grad, _step_counter, _update_each,
                        _zeros_like)


class Rprop(Optimizer):
    """Rprop, like ``torch.optim.Rprop``.

    Per coordinate, where ``g * prev`` is positive the step size grows by ``etas[1]``, where negative it
    shrinks by ``etas[0]`` (and that coordinate's gradient counts as zero), and it is clamped to
    ``step_sizes``; then ``p -= sign(g) * step_size`` and ``prev = g``. Step sizes start at ``lr``.
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update_group(self, group: dict[str, Any]) -> None:
        scalars = (*group["etas"], *group["step_sizes"], group["maximize"])
        updates = []
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _step_counter()
                state["prev"] = _zeros_like(p)
                state["step_size"] = Tensor._wrap(np.full_like(grad, float(group["lr"])))
            _increment(state["step"])
            updates.append((p, (p._data, grad, state["prev"]._data, state["step_size"]._data), scalars))
        _update_each(group, _rprop, updates)


def _rprop(x: np.ndarray, grad: np.ndarray, prev: np.ndarray, step_size: np.ndarray, etaminus: float, etaplus: float,
           step_size_min: float, step_size_max: float, maximize: bool) -> None:
    g = -grad if maximize else grad
    product = g * prev
    shrink = product < 0
    factor = np.where(product > 0, step_size.dtype.type(etaplus), step_size.dtype.type(1))
    factor[shrink] = etaminus
    step_size *= factor
    np.clip(step_size, step_size_min, step_size_max, out=step_size)
    g = np.where(shrink, g.dtype.type(0), g)  # a copy: p.grad is left as it was
    x -= np.sign(g) * step_size
    prev[...] = g
