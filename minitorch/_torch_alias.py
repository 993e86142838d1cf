"""Make ``import torch`` (and ``torchvision``) resolve to minitorch, for ``python -m minitorch``.

A finder on ``sys.meta_path`` answers for ``torch``, ``torch.<sub>``, ``torchvision`` and
``torchvision.<sub>`` with the minitorch module of the same role: the very module object, so that
``torch.nn.Linear is minitorch.nn.Linear`` and isinstance checks agree across both spellings.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import pathlib
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
# torch's modules that are one module here, named exactly (their contents live in that minitorch module)
MODULES = {"torch.amp.autocast_mode": "minitorch.amp", "torch.amp.grad_scaler": "minitorch.amp",
           "torch.autograd.variable": "minitorch.autograd", "torch.nn.parallel.data_parallel": "minitorch.nn.parallel"}
# distributions that importlib.metadata reports for the aliased packages: name -> module holding __version__
DISTRIBUTIONS = {"torch": "minitorch.version", "torchvision": "minitorch.torchvision"}


def target(name: str) -> str | None:
    """The minitorch module that stands for ``name``, or None when ``name`` is not torch's or torchvision's."""
    if name in MODULES:
        return MODULES[name]
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

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        """``importlib.metadata``'s question: torch and torchvision are installed, at the versions minitorch follows."""
        wanted = context.name and _normal(context.name)
        return [_AliasDistribution(n) for n in DISTRIBUTIONS if wanted in (None, _normal(n))]


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


class _AliasDistribution(importlib.metadata.Distribution):
    """The metadata of an aliased package: its name, version and top-level module; no files."""

    def __init__(self, name: str):
        self._name = name

    def read_text(self, filename):
        if filename == "METADATA":
            version = importlib.import_module(DISTRIBUTIONS[self._name]).__version__
            return f"Metadata-Version: 2.1\nName: {self._name}\nVersion: {version}\n"
        if filename == "top_level.txt":
            return self._name + "\n"
        return None

    def locate_file(self, path):
        return pathlib.Path(__file__).parent / path


def install() -> None:
    """Resolve ``torch`` and ``torchvision`` imports to minitorch from now on, in this process."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
