"""Automatic differentiation: ``backward``, ``grad``, custom ``Function``, grad modes and checks."""
from __future__ import annotations

import sys

import numpy as np

from . import engine, function, graph, inplace
from .anomaly_mode import detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled, set_detect_anomaly
from .engine import run_backward
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)


def Variable(data, requires_grad: bool = False, volatile: bool = False):
    """The pre-0.4 wrapper, kept for old tutorials: returns ``data`` (a tensor), set to require grad if asked."""
    return data.requires_grad_() if requires_grad else data


Tensor = None  # minitorch.Tensor, handed over by _bind_tensor (the class is defined after this package)


def _bind_tensor(cls) -> None:
    """Hand the Tensor class to the autograd modules: they load before it exists, since
    ``minitorch._tensor`` builds on them. The one place where that cycle is closed."""
    for module in (sys.modules[__name__], graph, engine, function, inplace, _gradcheck, functional):
        module.Tensor = cls


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs, grads, create_graph: bool) -> list:
    """The gradients the backward pass starts from: given, or ones for one-element outputs."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad and out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._requires_grad and out._data.dtype.kind == "c":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                   f"torch.{out.dtype.name}")
            g_arr = np.ones_like(out._data)
            result.append(Tensor._wrap(g_arr) if create_graph else g_arr)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a "
                               f"shape of {out.shape}.")
        if create_graph:
            result.append(g if g.dtype is out.dtype else g.to(out.dtype))
        else:
            result.append(g._data if g._data.dtype == out._data.dtype else g._data.astype(out._data.dtype))
    return result


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate into the ``.grad`` of the graph leaves the gradient of ``tensors``.

    ``grad_tensors`` gives the vector of a vector-Jacobian product (needed for
    outputs with more than one element); ``retain_graph`` keeps saved tensors for
    another backward; ``create_graph`` records the backward pass for higher-order
    derivatives; ``inputs`` limits accumulation to those tensors.
    """
    outputs = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors if grad_tensors is not None else grad_variables)
    if not grads:
        grads = (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    inputs = _as_tuple(inputs) or None
    if inputs is not None and inputs == ():
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    run_backward(outputs, _make_grads(outputs, grads, create_graph), retain_graph, create_graph, inputs=inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned (``.grad`` is left alone)."""
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    grads = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in outputs:
        if not t._requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    result = run_backward(outputs, _make_grads(outputs, grads, create_graph), retain_graph, create_graph,
                          inputs=inputs_t, accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        result = tuple(Tensor._wrap(np.zeros_like(i._data)) if g is None else g for g, i in zip(result, inputs_t))
    return result


from . import functional, gradcheck as _gradcheck  # noqa: E402  (both build on grad, above)
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402

__all__ = ["backward", "grad", "Variable", "Function", "FunctionCtx", "once_differentiable", "gradcheck", "gradgradcheck",
           "functional", "graph", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_grad_enabled", "is_inference_mode_enabled", "detect_anomaly", "set_detect_anomaly",
           "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]
