"""``minitorch.backends``: PyTorch's backend switches, as they read on a CPU-only build.

The flags are settable (``cudnn.benchmark = True`` is common tutorial boilerplate) and change
nothing: minitorch's kernels are numpy's. ``winograd`` is minitorch's own switch, and does switch its kernels.
"""
from . import cuda, cudnn, mps, winograd  # noqa: F401
