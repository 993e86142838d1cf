"""``torch.autograd``: ``backward``, ``grad``, custom ``Function``, grad modes and checks.

The graph, the engine and the grad modes are the core layer (``minitorch._core``); this package is their public
namespace, plus what builds on the ops: ``gradcheck`` and ``functional`` (jacobian, hessian, ...)."""
from . import anomaly_mode, function, functional, grad_mode, graph
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)
from .gradcheck import gradcheck, gradgradcheck
from .._core.engine import backward, grad


def Variable(data, requires_grad: bool = False, volatile: bool = False):
    """The pre-0.4 wrapper, kept for old tutorials: returns ``data`` (a tensor), set to require grad if asked."""
    return data.requires_grad_() if requires_grad else data


__all__ = ["backward", "grad", "Variable", "Function", "FunctionCtx", "once_differentiable", "gradcheck", "gradgradcheck",
           "functional", "graph", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "detect_anomaly", "set_detect_anomaly",
           "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]
