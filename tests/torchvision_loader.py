"""torchvision's Python transforms, for the tests that compare minitorch.datasets.transforms with them."""
import importlib
import importlib.util
import sys
import types

import pytest


def load_torchvision_transforms():
    """torchvision.transforms, or None. torchvision's compiled ops may not load beside this torch; the v1 transforms
    do not use them, so its pure-Python modules are then imported under a bare package (removed again afterwards)."""
    pytest.importorskip("torch")
    saved = {k: v for k, v in sys.modules.items() if k == "torchvision" or k.startswith("torchvision.")}
    try:
        return importlib.import_module("torchvision.transforms")
    except ImportError:
        return None
    except RuntimeError:  # the package imported, but registering its C++ ops failed
        spec = importlib.util.find_spec("torchvision")
        for k in [k for k in sys.modules if k == "torchvision" or k.startswith("torchvision.")]:
            del sys.modules[k]
        package = types.ModuleType("torchvision")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["torchvision"] = package
        try:
            return importlib.import_module("torchvision.transforms")
        finally:
            for k in [k for k in sys.modules if k == "torchvision" or k.startswith("torchvision.")]:
                del sys.modules[k]
            sys.modules.update(saved)

