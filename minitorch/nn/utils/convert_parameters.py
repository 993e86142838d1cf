"""Flatten parameters into one vector and back."""
from __future__ import annotations

from typing import Iterable

from ..._ops.shape.joins import cat
from ..._core.tensor import Tensor
from ...autograd.grad_mode import no_grad


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters, flattened and concatenated (differentiable)."""
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    start = 0
    with no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[start:start + n].view_as(p))
            start += n
