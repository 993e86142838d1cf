"""``minitorch.backends``: PyTorch's backend switches, as they read on a CPU-only build.

The answers about absent devices come from the device layer (``minitorch._device``). The flags are settable
(``cudnn.benchmark = True`` is common tutorial boilerplate) and change nothing: minitorch's kernels are numpy's.
``winograd`` is minitorch's own kernel switch, as PyTorch keeps its CPU kernel switches here (``mkldnn``,
``opt_einsum``): it is no device fact, and it does switch the kernels of ``minitorch._ops.winograd``.
"""
from . import cuda, cudnn, mps, winograd  # noqa: F401
