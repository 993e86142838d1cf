"""Every public class and function minitorch has is importable from each module path PyTorch (and torchvision)
exposes it under (recorded by tests/fixtures/make_module_paths_fixture.py), through ``python -m minitorch``'s
alias, as the very object minitorch has."""
import importlib
import json
import pathlib
import subprocess
import sys

import pytest

import minitorch  # noqa: F401  (its modules are searched for names PyTorch keeps outside its namespaces)
from minitorch._torch_alias import target

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
RECORDED = {module: names for file in ("module_paths.json", "module_paths_torchvision.json")
            for module, names in json.loads((FIXTURES / file).read_text())["paths"].items()}


def minitorch_module(torch_name: str):
    """The module ``import <torch_name>`` gives under the alias, or None when there is none."""
    try:
        return importlib.import_module(target(torch_name))
    except ModuleNotFoundError:
        return None


def minitorch_object(name: str, home: str):
    """minitorch's object for torch's ``<home>.<name>``: found at the home's alias, else the one class of that name
    defined in a minitorch module beside it (``torch.nn.modules.linear.NonDynamicallyQuantizableLinear``
    may live in another module of ``minitorch.nn.modules``); None when minitorch has no such object."""
    module = minitorch_module(home)
    if module is not None and hasattr(module, name):
        return getattr(module, name)
    package = target(home).rpartition(".")[0]
    if "." not in package:
        return None
    found = {id(obj): obj for mod_name, mod in list(sys.modules.items())
             if mod_name.startswith(package + ".") and mod is not None
             for obj in [vars(mod).get(name)] if isinstance(obj, type) and obj.__module__ == mod_name}
    return next(iter(found.values())) if len(found) == 1 else None


def missing_paths(module_name: str) -> list:
    module = minitorch_module(module_name)
    missing = []
    for name, home in RECORDED[module_name].items():
        obj = minitorch_object(name, home)
        if obj is not None and getattr(module, name, None) is not obj:
            missing.append(name)
    return missing


@pytest.mark.parametrize("module_name", sorted(RECORDED))
def test_names_import_from_torchs_module_paths(module_name):
    assert missing_paths(module_name) == []


def test_the_sweep_covers_the_families():
    covered = sum(minitorch_object(n, h) is not None for names in RECORDED.values() for n, h in names.items())
    assert covered > 1200 and "torch.nn.modules.linear" in RECORDED and "torchvision.models.resnet" in RECORDED


def test_the_alias_imports_from_those_paths():
    code = ("from minitorch._torch_alias import install; install()\nimport minitorch, torch.functional\n"
            "from torch.nn.modules.linear import NonDynamicallyQuantizableLinear as A\n"
            "from torch.optim.adam import Adam\nfrom torch.amp.autocast_mode import autocast\n"
            "from torch.nn.modules.activation import MultiheadAttention\n"
            "print(A.__name__, Adam is minitorch.optim.Adam, autocast is minitorch.autocast, torch.functional.einsum is "
            "minitorch.einsum, MultiheadAttention(4, 2).out_proj.__class__ is A)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["NonDynamicallyQuantizableLinear", "True", "True", "True", "True"], out.stderr
