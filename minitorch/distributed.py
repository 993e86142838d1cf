"""``minitorch.distributed``: minitorch runs in one process, so there is no process group.

The module imports (scripts import it at the top), ``is_available()`` and ``is_initialized()`` say
False, and every other entry point raises an error that says so: the same code and checkpoints
run distributed under PyTorch.
"""
from __future__ import annotations

ONE_PROCESS = ("minitorch runs in one process: torch.distributed.{name}() is not available. The same code and "
               "checkpoints run distributed under PyTorch.")


def is_available() -> bool:
    return False


def is_initialized() -> bool:
    return False


def _one_process(name: str):
    def unavailable(*args, **kwargs):
        raise RuntimeError(ONE_PROCESS.format(name=name))
    unavailable.__name__ = unavailable.__qualname__ = name
    return unavailable


def __getattr__(name: str):
    """Any other public name: a function that raises the error above when called."""
    if name.startswith("__"):
        raise AttributeError(name)
    return _one_process(name)
