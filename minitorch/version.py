"""``minitorch.version``: as PyTorch's for a CPU-only build."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
