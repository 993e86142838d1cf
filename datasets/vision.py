"""``VisionDataset``: the base of the image datasets, as in torchvision (root, transforms and the repr)."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from minitorch.utils.data import Dataset


class StandardTransform:
    """Applies ``transform`` to the input and ``target_transform`` to the target."""

    def __init__(self, transform: Callable | None = None, target_transform: Callable | None = None) -> None:
        self.transform = transform
        self.target_transform = target_transform

    def __call__(self, input: Any, target: Any) -> tuple[Any, Any]:
        return _transformed(self, input, target)

    @staticmethod
    def _format_transform_repr(transform: Callable, head: str) -> list[str]:
        lines = repr(transform).splitlines()
        return [f"{head}{lines[0]}"] + [" " * len(head) + line for line in lines[1:]]

    def __repr__(self) -> str:
        body = [self.__class__.__name__]
        if self.transform is not None:
            body += self._format_transform_repr(self.transform, "Transform: ")
        if self.target_transform is not None:
            body += self._format_transform_repr(self.target_transform, "Target transform: ")
        return "\n".join(body)


class VisionDataset(Dataset):
    """Base class of the image datasets: stores ``root``, ``transform`` and ``target_transform``.

    ``transforms`` (a callable on ``(input, target)``) and ``transform``/``target_transform`` are exclusive.
    """

    _repr_indent = 4

    def __init__(self, root: str | os.PathLike | None = None, transforms: Callable | None = None,
                 transform: Callable | None = None, target_transform: Callable | None = None) -> None:
        if isinstance(root, (str, os.PathLike)):
            root = os.path.expanduser(root)
        self.root = root
        has_separate_transform = transform is not None or target_transform is not None
        if transforms is not None and has_separate_transform:
            raise ValueError("Only transforms or transform/target_transform can be passed as argument")
        self.transform = transform
        self.target_transform = target_transform
        if has_separate_transform:
            transforms = StandardTransform(transform, target_transform)
        self.transforms = transforms

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def _transformed(self, input: Any, target: Any) -> tuple[Any, Any]:
        """``(transform(input), target_transform(target))``, each applied only when set."""
        return _transformed(self, input, target)

    def __len__(self) -> int:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        body = [f"Number of datapoints: {self.__len__()}"]
        if self.root is not None:
            body.append(f"Root location: {self.root}")
        body += self.extra_repr().splitlines()
        if self.transforms is not None:
            body += repr(self.transforms).splitlines()
        return "\n".join([f"Dataset {self.__class__.__name__}"] + [" " * self._repr_indent + line for line in body])


def _transformed(owner, input: Any, target: Any) -> tuple[Any, Any]:
    if owner.transform is not None:
        input = owner.transform(input)
    if owner.target_transform is not None:
        target = owner.target_transform(target)
    return input, target
