"""Gradient clipping, in place on ``.grad``."""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..._core.tensor import Tensor


def _grads(parameters) -> list:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Scale all gradients together so that their joint ``norm_type``-norm is at most ``max_norm``.

    Returns the total norm before clipping.
    """
    grads = _grads(parameters)
    if not grads:
        return Tensor._wrap(np.asarray(0.0, np.float32))
    norm_type = float(norm_type)
    if norm_type == float("inf"):
        norms = [np.abs(g._data).max() for g in grads]
        total = np.max(norms)
    else:
        norms = [np.linalg.norm(g._data.reshape(-1).astype(np.float64), norm_type) for g in grads]
        total = np.linalg.norm(np.asarray(norms), norm_type)
    total = np.asarray(total, grads[0]._data.dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    coef = float(max_norm) / (float(total) + 1e-6)
    if coef < 1:
        for g in grads:
            g._data *= g._data.dtype.type(coef)
            g._bump()
    return Tensor._wrap(total)


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]``."""
    for g in _grads(parameters):
        np.clip(g._data, -clip_value, clip_value, out=g._data)
        g._bump()
