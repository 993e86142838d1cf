"""``torch.autograd.function``: custom ``Function``s and their ``ctx``, and ``Op``, the base of minitorch's built-in
ops (defined in ``minitorch._core.function``)."""
from .._core.function import BackwardCFunction, Function, FunctionCtx, Op, once_differentiable

__all__ = ["BackwardCFunction", "Function", "FunctionCtx", "Op", "once_differentiable"]
