"""Muon: momentum, then the update orthogonalized by a Newton-Schulz iteration (2-d parameters only)."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.tensor import Tensor
from .optimizer import Optimizer, ParamsT, _lerp_, _params_with_grad, _zeros_like

_EPS = 1e-7
_NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)


def _bfloat16(a: np.ndarray) -> np.ndarray:
    """``a`` rounded to bfloat16 (to nearest, ties to even), kept in float32: torch runs the iteration in
    bfloat16, whose rounding sets its results' last digits."""
    bits = np.array(a, np.float32, order="C").view(np.uint32)
    rounded = (bits + (0x7FFF + ((bits >> 16) & 1))) & np.uint32(0xFFFF0000)
    return np.where(np.isnan(a), np.float32(np.nan), rounded.view(np.float32))


def _newton_schulz(g: np.ndarray, coefficients: tuple[float, float, float], steps: int, eps: float) -> np.ndarray:
    """The quintic Newton-Schulz iteration towards the orthogonal factor of ``g``, in bfloat16 as torch's."""
    if steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if g.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = coefficients
    tall = g.shape[0] > g.shape[1]
    x = _bfloat16(g.T if tall else g)
    x = _bfloat16(x / max(float(_bfloat16(np.linalg.norm(x))), eps))
    for _ in range(steps):
        gram = _bfloat16(x @ x.T)
        gram = _bfloat16(b * gram + c * (gram @ gram))
        x = _bfloat16(a * x + gram @ x)
    return x.T if tall else x


def _adjusted_lr(lr: float, adjust_lr_fn: str | None, shape: tuple[int, ...]) -> float:
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return lr * 0.2 * math.sqrt(max(rows, cols))
    return lr


class Muon(Optimizer):
    """Muon, like ``torch.optim.Muon``, for 2-d parameters.

    ``buf = lerp(buf, g, 1 - momentum)``; the update ``lerp(g, buf, momentum)`` with ``nesterov``, else
    ``buf``, is orthogonalized by ``ns_steps`` Newton-Schulz steps (in bfloat16, as torch's); then
    ``p *= 1 - lr * weight_decay`` and ``p -= lr' * update``, with ``lr'`` = ``lr * sqrt(max(1, rows / cols))``
    (``adjust_lr_fn="original"``, the default) or ``0.2 * lr * sqrt(max(rows, cols))`` (``"match_rms_adamw"``).
    """

    def __init__(self, params: ParamsT, lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True, ns_coefficients: tuple[float, float, float] = _NS_COEFFICIENTS,
                 eps: float = _EPS, ns_steps: int = 5, adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
                    "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps, "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    def _update_group(self, group: dict[str, Any]) -> None:
        lr, weight_decay, momentum = float(group["lr"]), float(group["weight_decay"]), float(group["momentum"])
        for p, grad in _params_with_grad(group):
            state = self.state[p]
            if "momentum_buffer" not in state:
                state["momentum_buffer"] = _zeros_like(p)
            if grad.ndim != 2:
                raise ValueError("Param gradient must be a 2D matrix")
            buf = state["momentum_buffer"]._data
            _lerp_(buf, grad, 1 - momentum)
            if group["nesterov"]:
                update = grad.copy()
                _lerp_(update, buf, momentum)
            else:
                update = buf
            update = _newton_schulz(update, group["ns_coefficients"], group["ns_steps"], group["eps"])
            x = p._data
            x *= 1 - lr * weight_decay
            x += -_adjusted_lr(lr, group["adjust_lr_fn"], x.shape) * update.astype(x.dtype, copy=False)
            p._bump()
