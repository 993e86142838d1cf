"""Packaging: what pyproject.toml installs, editable or not."""
import os
import pathlib
import subprocess
import sys

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+
ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_listed():
    mapping = {folder: name for name, folder in CONFIG["package-dir"].items()} | {"minitorch": "minitorch"}
    found = {"minitorch.weights"}  # data only, no __init__.py
    for folder, name in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name,) + parts))
    assert sorted(CONFIG["packages"]) == sorted(found)


@pytest.mark.slow
def test_plain_install_has_the_subpackages_and_the_weights(tmp_path):
    """``pip install .`` (not editable): models and datasets only under minitorch, weights that load."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                    "--target", str(target), str(ROOT)], check=True, capture_output=True)
    assert not (target / "models").exists() and not (target / "datasets").exists()
    script = (
        "import minitorch, minitorch.models as m, minitorch.datasets as d\n"
        "assert all(x.__file__.startswith(%r) for x in (minitorch, m, d)), (minitorch.__file__, m.__file__)\n"
        "print(m.weights_dir().relative_to(%r))\n"
        "net = m.cifar_resnet20(weights='SYNTHETIC_V1')\n"
        "print(sum(p.numel() for p in net.parameters()))\n") % (str(target), str(target))
    env = {k: v for k, v in os.environ.items() if k != "MINITORCH_WEIGHTS_DIR"} | {"PYTHONPATH": str(target)}
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [os.path.join("minitorch", "weights"), "272474"]
