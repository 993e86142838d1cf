"""``minitorch.nn.parallel``: ``DataParallel`` on the CPU is PyTorch's pass-through (no devices to
spread over); ``DistributedDataParallel`` needs a process group, which minitorch does not have."""
from __future__ import annotations

from ..distributed import ONE_PROCESS
from .modules.module import Module


class DataParallel(Module):
    """Runs ``module`` as is: with no GPU, PyTorch's DataParallel calls the module directly."""

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0):
        super().__init__()
        self.module = module
        self.dim = dim
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    def __init__(self, module: Module, *args, **kwargs):
        raise RuntimeError(ONE_PROCESS.format(name="nn.parallel.DistributedDataParallel"))
