"""``minitorch.version``: as PyTorch's for a CPU-only build.

``__version__`` is the version of PyTorch whose behaviour minitorch follows, so that programs that pick code
paths by ``torch.__version__`` pick PyTorch 2.13's; minitorch's own package version is
``importlib.metadata.version("minitorch")``.
"""
from .torch_version import TorchVersion

__version__ = TorchVersion("2.13.0")
cuda = None
hip = None
rocm = None
xpu = None
debug = False
