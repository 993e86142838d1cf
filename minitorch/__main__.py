"""``python -m minitorch script.py [args]``: run an unmodified PyTorch script on minitorch.

Inside the script ``import torch``, ``import torch.nn as nn``, ``import torchvision`` and
``from torchvision import datasets, transforms, models`` resolve to minitorch's modules.
``python -m minitorch -m package.module [args]`` runs a module the same way.
"""
from __future__ import annotations

import os
import runpy
import sys

from ._torch_alias import install

USAGE = "usage: python -m minitorch script.py [args ...]  |  python -m minitorch -m module [args ...]"


def main(argv: list[str]) -> None:
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        raise SystemExit(0)
    if not argv or (argv[0].startswith("-") and argv[0] != "-m") or (argv[0] == "-m" and len(argv) < 2):
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    install()
    if argv[0] == "-m":
        sys.argv = [argv[1]] + argv[2:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(argv)
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))  # as `python script.py` does
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
