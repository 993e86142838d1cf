"""``minitorch.models`` as PyTorch code: the same source with ``minitorch`` replaced by ``torch``.

The benchmarks run the same architectures on both libraries with it, and the model fixtures and tests
build their PyTorch twins with it. Needs torch installed; minitorch itself never imports this.
"""
import importlib.util
import pathlib
import re
import sys
import tempfile

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models"
PRESETS = pathlib.Path(__file__).resolve().parent / "presets_in_torch.py"
INTERPOLATION = MODELS.parent / "datasets" / "transforms" / "_interpolation.py"


def to_torch(source: str) -> str:
    """Python source written against minitorch, rewritten to use torch. Imports from ``minitorch.datasets`` (the
    weights' preprocessing presets, which torch itself lacks) come from ``torch_models._presets`` instead."""
    source = re.sub(r"\bminitorch\.datasets(\.\w+)*", "torch_models._presets", source)
    return re.sub(r"\bminitorch\b", "torch", source)


def torch_models():
    """The rewritten package, imported once as ``torch_models``."""
    if "torch_models" in sys.modules:
        return sys.modules["torch_models"]
    with tempfile.TemporaryDirectory() as tmp:  # the package imports all its modules at once
        package = pathlib.Path(tmp) / "torch_models"
        package.mkdir()
        # models/_api.py reads the ImageNet class names from its sibling weights/ at import
        (pathlib.Path(tmp) / "weights").symlink_to(MODELS.parent / "weights", target_is_directory=True)
        for source in MODELS.rglob("*.py"):
            target = package / source.relative_to(MODELS)
            target.parent.mkdir(exist_ok=True)
            target.write_text(to_torch(source.read_text()))
        (package / "_presets.py").write_text(PRESETS.read_text())
        (package / "_interpolation.py").write_text(INTERPOLATION.read_text())
        spec = importlib.util.spec_from_file_location("torch_models", package / "__init__.py",
                                                      submodule_search_locations=[str(package)])
        module = importlib.util.module_from_spec(spec)
        sys.modules["torch_models"] = module
        spec.loader.exec_module(module)
    return module
