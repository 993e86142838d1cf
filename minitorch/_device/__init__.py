"""The device layer: where tensors live, and what a CPU-only build answers about the devices it lacks.

minitorch computes on the CPU with numpy. Here are ``device`` (the class of ``tensor.device``) with the check every
``device=`` argument goes through, the process-wide settings of PyTorch's top level that concern devices and kernels
(``settings``), and the answers of the absent devices (``absent``): CUDA, Metal, XPU and the accelerator API say
there is no device, accept seeding and cache calls, and raise PyTorch's error for anything that needs one.
``minitorch.cuda``, ``minitorch.backends``, ``minitorch.mps``, ``minitorch.xpu`` and ``minitorch.accelerator`` are
the entry points under PyTorch's names and take their functions from here. This package imports nothing else of
minitorch, so the tensor can build on it.
"""
from __future__ import annotations

NOT_COMPILED = "Torch not compiled with CUDA enabled"


class device:
    """Where a tensor lives. minitorch is CPU-only: ``device('cpu')``."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int | None = None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        if ":" in type:
            type, idx = type.split(":")
            index = int(idx)
        self.type = type
        self.index = index

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


device.__module__ = "minitorch"  # as torch.device, it prints and pickles under the package's name
CPU = device("cpu")


def _check_device(d) -> None:
    """Accept None and the CPU; raise PyTorch's error for another device."""
    if d is None:
        return
    name = str(d) if isinstance(d, device) else d
    if isinstance(name, str) and (name.startswith("cuda") or name == "mps"):
        raise AssertionError(NOT_COMPILED if name.startswith("cuda") else "minitorch runs on the CPU only")
    if str(name) != "cpu":
        raise RuntimeError(f"Expected one of cpu device type at start of device string: {name}")
