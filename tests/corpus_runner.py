"""Running Python programs the way the corpus tests do: under ``python -m minitorch`` (``import torch`` means
minitorch) or, for the reference, on PyTorch itself; ``CORPUS`` is the folder of unmodified PyTorch programs."""
import subprocess
import sys

from locations import CORPUS

__all__ = ["CORPUS", "has_torchvision", "run", "torch"]

try:
    import torch
except ImportError:  # the expected values are written out; torch confirms them when installed
    torch = None


def run(args, *, minitorch_runner: bool = True) -> str:
    cmd = [sys.executable] + (["-m", "minitorch"] if minitorch_runner else []) + [str(a) for a in args]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.replace("minitorch.", "torch.")


def has_torchvision() -> bool:
    try:
        import torchvision  # noqa: F401
    except Exception:  # absent, or PyPI's build beside this torch fails to import
        return False
    return True
