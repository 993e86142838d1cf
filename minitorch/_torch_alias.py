"""Make ``import torch`` (and ``torchvision``) resolve to minitorch, for ``python -m minitorch``.

A finder on ``sys.meta_path`` answers for ``torch``, ``torch.<sub>``, ``torchvision`` and
``torchvision.<sub>`` with the minitorch module of the same role: the very module object, so that
``torch.nn.Linear is minitorch.nn.Linear`` and isinstance checks agree across both spellings.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# Module prefixes and the minitorch modules that play their part (the longest prefix wins; the rest of the name
# carries over, so ``torchvision.transforms.functional`` is ``minitorch.datasets.transforms.functional``).
PREFIXES = {"torch": "minitorch", "torchvision": "minitorch.torchvision", "torchvision.datasets": "minitorch.datasets",
            "torchvision.models": "minitorch.models", "torchvision.ops": "minitorch.models.ops",
            "torchvision.transforms": "minitorch.datasets.transforms",
            "torchvision.transforms.transforms": "minitorch.datasets.transforms",  # where torchvision defines the classes
            "torchvision.transforms.v2": "minitorch.datasets.transforms",  # the v1 transforms stand in for v2
            "torchvision.transforms._presets": "minitorch.datasets._presets",
            "torchvision.utils": "minitorch.datasets.image_utils"}


def target(name: str) -> str | None:
    """The minitorch module that stands for ``name``, or None when ``name`` is not torch's or torchvision's."""
    for prefix in sorted(PREFIXES, key=len, reverse=True):
        if name == prefix or name.startswith(prefix + "."):
            return PREFIXES[prefix] + name[len(prefix):]
    return None


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target_module=None):
        real = target(name)
        if real is None:
            return None
        try:
            importlib.import_module(real)
        except ModuleNotFoundError:
            return None  # the ordinary "No module named 'torch.x'" follows
        return importlib.util.spec_from_loader(name, self, is_package=True)

    def create_module(self, spec):
        return sys.modules[target(spec.name)]

    def exec_module(self, module) -> None:
        """Nothing to run: the minitorch module is already imported."""


def install() -> None:
    """Resolve ``torch`` and ``torchvision`` imports to minitorch from now on, in this process."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
