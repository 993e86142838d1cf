"""Transforms made of other transforms or of a user function: Compose, RandomApply, RandomOrder,
RandomChoice, Lambda."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._random import _rand


class Compose:
    """Apply ``transforms`` one after the other."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        self.transforms = transforms

    def __call__(self, img: Any) -> Any:
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class RandomTransforms:
    """Base of the transforms that apply a random selection of ``transforms``."""

    def __init__(self, transforms: Sequence[Callable]) -> None:
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        self.transforms = transforms

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError()

    def __repr__(self) -> str:
        return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class RandomApply:
    """Apply all of ``transforms`` with probability ``p``, else none."""

    def __init__(self, transforms: Sequence[Callable], p: float = 0.5) -> None:
        self.transforms = transforms
        self.p = p

    def __call__(self, img: Any) -> Any:
        if np.float32(self.p) < np.float32(_rand()):  # torch.rand(1) compared in float32
            return img
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        return (self.__class__.__name__ + f"(\n    p={self.p}" + "".join(f"\n    {t}" for t in self.transforms)
                + "\n)")


class RandomOrder(RandomTransforms):
    """Apply ``transforms`` in a random order (shuffled with Python's ``random``, as in torchvision)."""

    def __call__(self, img: Any) -> Any:
        order = list(range(len(self.transforms)))
        random.shuffle(order)
        for i in order:
            img = self.transforms[i](img)
        return img


class RandomChoice(RandomTransforms):
    """Apply one of ``transforms``, picked with weights ``p`` (uniform by default) by Python's ``random.choices``."""

    def __init__(self, transforms: Sequence[Callable], p: Sequence[float] | None = None) -> None:
        super().__init__(transforms)
        if p is not None and not isinstance(p, Sequence):
            raise TypeError("Argument p should be a sequence")
        self.p = p

    def __call__(self, *args: Any) -> Any:
        t = random.choices(self.transforms, weights=self.p)[0]
        return t(*args)

    def __repr__(self) -> str:
        return f"{super().__repr__()}(p={self.p})"


class Lambda:
    """Apply a user function as a transform."""

    def __init__(self, lambd: Callable[[Any], Any]) -> None:
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img: Any) -> Any:
        return self.lambd(img)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"
