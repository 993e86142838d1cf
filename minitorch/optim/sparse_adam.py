"""SparseAdam: Adam for sparse gradients. minitorch has no sparse tensors, so every gradient is dense and
``step`` raises torch's error for dense gradients (as ``torch.optim.SparseAdam`` does for them)."""
from __future__ import annotations

from typing import Any

from .._core.tensor import Tensor
from .optimizer import Optimizer, ParamsT


class SparseAdam(Optimizer):
    """``torch.optim.SparseAdam``: its construction and checks; ``step`` with a (dense) gradient raises."""

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        complex_params = [[i, j] for i, group in enumerate(self.param_groups)
                          for j, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(f"Complex params at indices {complex_params}: SparseAdam does not support complex "
                             "parameters")

    def _update_group(self, group: dict[str, Any]) -> None:
        if any(p.grad is not None for p in group["params"]):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
