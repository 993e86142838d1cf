"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict (and the deprecated Container)."""
from __future__ import annotations

import operator
import warnings
from collections import OrderedDict
from typing import Iterable, Iterator, Mapping

from ..parameter import Parameter
from .module import Module, _addindent


def _index(idx: int, size: int) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class Sequential(Module):
    """Modules called one after another: ``Sequential(a, b)(x) == b(a(x))``.

    Built from modules (named "0", "1", ...) or from an OrderedDict of named modules.
    """

    def __init__(self, *args: Module | OrderedDict):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_index(idx, len(self))]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules.keys())[_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules.keys())
        for key in (keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(self))]]):
            del self._modules[key]
        # renumber so that names stay "0", "1", ... as in torch
        self._renumber(list(self._modules.values()))

    def _renumber(self, modules: list) -> None:
        self._modules.clear()
        for i, module in enumerate(modules):
            self._modules[str(i)] = module

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)
        return self

    def extend(self, modules: Iterable[Module]) -> Sequential:
        for module in modules:
            self.append(module)
        return self

    def pop(self, idx: int) -> Module:
        module = self[idx]
        del self[idx]
        return module


class ModuleList(Module):
    """A list of modules, registered so their parameters are found."""

    def __init__(self, modules: Iterable[Module] | None = None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self)))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_index(idx, len(self))), module)

    def __delitem__(self, idx) -> None:
        modules = list(self._modules.values())
        del modules[idx]
        self._modules.clear()
        self.extend(modules)

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        self.extend(modules)

    def __repr__(self) -> str:
        """Runs of identical modules are folded, as torch prints them: ``(0-1): 2 x ReLU()``."""
        lines, items = [], list(self._modules.items())
        i = 0
        while i < len(items):
            text = repr(items[i][1])
            j = i
            while j + 1 < len(items) and repr(items[j + 1][1]) == text:
                j += 1
            label = items[i][0] if i == j else f"{items[i][0]}-{items[j][0]}"
            prefix = "" if i == j else f"{j - i + 1} x "
            lines.append(f"({label}): {prefix}" + _addindent(text, 2))
            i = j + 1
        if not lines:
            return self._get_name() + "()"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class _RegistryDict(Module):
    """dict access to one of Module's registries (``_registry`` names it: ``_modules`` or ``_parameters``)."""

    _registry: str

    def _dict(self) -> dict:
        return self.__dict__[self._registry]

    def __getitem__(self, key: str):
        return self._dict()[key]

    def __delitem__(self, key: str) -> None:
        del self._dict()[key]

    def __len__(self) -> int:
        return len(self._dict())

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __contains__(self, key: str) -> bool:
        return key in self._dict()

    def keys(self):
        return self._dict().keys()

    def values(self):
        return self._dict().values()

    def items(self):
        return self._dict().items()

    def pop(self, key: str):
        return self._dict().pop(key)

    def clear(self) -> None:
        self._dict().clear()

    def update(self, items) -> None:
        for key, value in (items.items() if isinstance(items, Mapping) else items):
            self[key] = value


class ModuleDict(_RegistryDict):
    """A dict of modules, registered in insertion order."""

    _registry = "_modules"

    def __init__(self, modules: Mapping[str, Module] | None = None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)


class ParameterList(Module):
    """A list of parameters, registered as "0", "1", ..."""

    def __init__(self, values: Iterable[Parameter] | None = None):
        super().__init__()
        for value in values or ():
            self.append(value)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def __getitem__(self, idx: int) -> Parameter:
        return self._parameters[str(_index(idx, len(self)))]

    def __setitem__(self, idx: int, param: Parameter) -> None:
        self.register_parameter(str(_index(idx, len(self))), _as_parameter(param))

    def append(self, value: Parameter) -> ParameterList:
        self.register_parameter(str(len(self)), _as_parameter(value))
        return self

    def extend(self, values: Iterable[Parameter]) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"({i}): Parameter containing: [{p.type()} of size {'x'.join(map(str, p.shape))}]"
                         for i, p in enumerate(self))


class ParameterDict(_RegistryDict):
    """A dict of parameters, registered in insertion order."""

    _registry = "_parameters"

    def __init__(self, parameters: Mapping[str, Parameter] | None = None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __setitem__(self, key: str, value: Parameter) -> None:
        self.register_parameter(key, _as_parameter(value))


def _as_parameter(value) -> Parameter:
    return value if isinstance(value, Parameter) else Parameter(value)


class Container(Module):
    """Deprecated: a Module holding the modules given as keywords."""

    def __init__(self, **kwargs) -> None:
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                      "Subclass that instead.", FutureWarning, stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)
