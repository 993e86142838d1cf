"""``minitorch.backends.cuda``: not built with CUDA (see ``minitorch._device.absent``); the matmul flags are kept for
code that sets them, with PyTorch's defaults, and change nothing."""
from .._device.absent import is_built  # noqa: F401


class _MatmulFlags:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()
