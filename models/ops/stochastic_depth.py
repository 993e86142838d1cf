"""Stochastic depth (Huang et al., "Deep Networks with Stochastic Depth", 2016), as
``torchvision.ops.stochastic_depth``: a residual branch dropped at random while training."""
from __future__ import annotations

import minitorch
from minitorch import Tensor, nn

__all__ = ["stochastic_depth", "StochasticDepth"]


def stochastic_depth(input: Tensor, p: float, mode: str, training: bool = True) -> Tensor:
    """Zero ``input`` with probability ``p`` and scale what survives by ``1 / (1 - p)``: each row (sample of
    the batch, ``mode="row"``) on its own, or the whole batch at once (``mode="batch"``). The identity when not
    ``training`` or ``p == 0``. The draws are torch's: one ``bernoulli_(1 - p)`` of shape ``[N, 1, ...]``
    (row) or ``[1, ...]`` (batch) in ``input``'s dtype."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"drop probability has to be between 0 and 1, but got {p}")
    if mode not in ["batch", "row"]:
        raise ValueError(f"mode has to be either 'batch' or 'row', but got {mode}")
    if not training or p == 0.0:
        return input
    survival_rate = 1.0 - p
    size = [input.shape[0]] + [1] * (input.ndim - 1) if mode == "row" else [1] * input.ndim
    noise = minitorch.empty(size, dtype=input.dtype).bernoulli_(survival_rate)
    if survival_rate > 0.0:
        noise.div_(survival_rate)
    return input * noise


class StochasticDepth(nn.Module):
    """The module form of ``stochastic_depth``, active in training mode."""

    def __init__(self, p: float, mode: str) -> None:
        super().__init__()
        self.p = p
        self.mode = mode

    def forward(self, input: Tensor) -> Tensor:
        return stochastic_depth(input, self.p, self.mode, self.training)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p}, mode={self.mode})"
