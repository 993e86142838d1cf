"""torchvision's random draws on minitorch's default generator, in torchvision's order and sizes (see the
package docstring), and the base of the transforms applied with probability ``p``."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

import minitorch
from minitorch import Tensor


def _rand() -> float:
    """``torch.rand(1).item()`` on the default generator."""
    return minitorch.rand(1).item()


def _rand_below(p: float) -> bool:
    """``torch.rand(1) < p``: a tensor comparison, so ``p`` is rounded to float32 first."""
    return bool(np.float32(_rand()) < np.float32(p))


def _randint(low: int, high: int) -> int:
    """``torch.randint(low, high, size=(1,)).item()`` on the default generator."""
    return int(minitorch.randint(low, high, (1,)).item())


def _uniform(low: float, high: float) -> float:
    """``torch.empty(1).uniform_(low, high).item()``: a float32 draw, returned as a Python float."""
    return minitorch.empty(1).uniform_(low, high).item()


def _random_area_and_ratio(area: int, scale: Sequence[float], log_ratio: tuple[float, float]) -> tuple[float, float]:
    """One try of RandomResizedCrop/RandomErasing: ``area`` times a uniform scale, and exp of a uniform log ratio
    (torch computes that exp in float32)."""
    target_area = area * _uniform(scale[0], scale[1])
    return target_area, float(np.float32(math.exp(_uniform(*log_ratio))))


# torch's float32 log (MKL's vector math) of the default ratio bounds of RandomResizedCrop and RandomErasing, where it
# is one ulp away from the correctly rounded log: a shifted bound moves every aspect ratio drawn from it
_TORCH_LOG32 = {0.75: -0.28768205642700195, 3.299999952316284: 1.193922519683838}


def _log_ratio(ratio: Sequence[float]) -> tuple[float, float]:
    """``torch.log(torch.tensor(ratio))``: float32 logs of the float32 bounds."""
    bounds = (float(np.float32(r)) for r in ratio)
    low, high = (_TORCH_LOG32.get(r, float(np.float32(math.log(r)))) for r in bounds)
    return low, high


class _RandomlyApplied:
    """Apply ``self._apply(img)`` with probability ``p``."""

    # torchvision tests ``torch.rand(1) < p`` (in float32) here, ``torch.rand(1).item() < p`` (in float64) in the
    # transforms that came with the PIL-style functions (RandomInvert and the others that set this False)
    _float32_test = True

    def __init__(self, p: float = 0.5) -> None:
        self.p = p

    def _apply(self, img: Any) -> Any:
        raise NotImplementedError

    def __call__(self, img: Image.Image | Tensor) -> Image.Image | Tensor:
        applied = _rand_below(self.p) if self._float32_test else _rand() < self.p
        if applied:
            return self._apply(img)
        return img

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(p={self.p})"
