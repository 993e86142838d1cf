"""Higher-level derivatives of whole functions: jacobian, hessian, vjp, jvp, hvp, vhp.

All are built on ``autograd.grad``: a Jacobian is one backward pass per output
element; products with a vector need one (vjp) or two (jvp, hvp: the
double-backward trick) passes.
"""
from __future__ import annotations

import numpy as np

from .._core.engine import grad
from .._core.grad_mode import enable_grad
from .._core.tensor import Tensor
from .._ops.shape.joins import stack


def _zeros_like(x):
    return Tensor._wrap(np.zeros_like(x._data))


def _ones_like(x):
    return Tensor._wrap(np.ones_like(x._data))


def _tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _check(fn_name: str, **args) -> None:
    """PyTorch's TypeError unless each argument is a Tensor or a tuple of Tensors (a list is refused, as there)."""
    for arg, value in args.items():
        if value is None or isinstance(value, Tensor):
            continue
        if not isinstance(value, tuple):
            raise TypeError(f"The {arg} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                            f"given {arg} has type {type(value)}.")
        for i, el in enumerate(value):
            if not isinstance(el, Tensor):
                raise TypeError(f"The {arg} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                                f"value at index {i} has type {type(el)}.")


def _prepare(inputs, create_graph):
    """Fresh leaves that require grad (so the user's tensors are not modified)."""
    return tuple(x.detach().requires_grad_() if not create_graph or not x.requires_grad else x.view_as(x)
                 for x in _tuple(inputs))


def _grad(outputs, inputs, grad_outputs, create_graph):
    outputs = [o for o in outputs]
    needs = [o.requires_grad for o in outputs]
    if not any(needs):
        return tuple(_zeros_like(x) for x in inputs)
    grads = grad([o for o, n in zip(outputs, needs) if n], inputs,
                 [g for g, n in zip(grad_outputs, needs) if n], create_graph=create_graph, retain_graph=True,
                 allow_unused=True)
    return tuple(_zeros_like(x) if g is None else g for g, x in zip(grads, inputs))


def _finish(t, create_graph):
    return t if create_graph else t.detach()


def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``."""
    _check("vjp", inputs=inputs, v=v)
    is_tuple = not _is_tensor(inputs)
    with enable_grad():
        inputs = _prepare(inputs, create_graph)
        out = func(*inputs)
        outs = _tuple(out)
        vs = _tuple(v) if v is not None else tuple(_ones_like(o) for o in outs)
        grads = _grad(outs, inputs, vs, create_graph)
    outputs = tuple(_finish(o, create_graph) for o in outs)
    grads = tuple(_finish(g, create_graph) for g in grads)
    return (outputs if not _is_tensor(out) else outputs[0]), (grads if is_tuple else grads[0])


def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)`` by differentiating a vjp with respect to its vector."""
    _check("jvp", inputs=inputs, v=v)
    with enable_grad():
        inputs = _prepare(inputs, create_graph)
        out = func(*inputs)
        outs = _tuple(out)
        us = tuple(_zeros_like(o).requires_grad_() for o in outs)
        grads = _grad(outs, inputs, us, True)
        vs = _tuple(v) if v is not None else tuple(_ones_like(x) for x in inputs)
        jv = _grad(grads, us, vs, create_graph)
    outputs = tuple(_finish(o, create_graph) for o in outs)
    jv = tuple(_finish(g, create_graph) for g in jv)
    return (outputs if not _is_tensor(out) else outputs[0]), (jv if not _is_tensor(out) else jv[0])


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def jacobian(func, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: shape ``output.shape + input.shape`` per pair."""
    _check("jacobian", inputs=inputs)
    single_input = _is_tensor(inputs)
    with enable_grad():
        inputs = _prepare(inputs, create_graph)
        out = func(*inputs)
        outs = _tuple(out)
        result = []
        for o in outs:
            rows = []
            for j in range(o.numel()):
                v = np.zeros(o.numel(), o._data.dtype)
                v[j] = 1
                rows.append(_grad([o], inputs, [Tensor._wrap(v.reshape(o._data.shape))], create_graph))
            per_input = []
            for i, x in enumerate(inputs):
                if rows:
                    jac = stack([r[i] for r in rows]).reshape(tuple(o.shape) + tuple(x.shape))
                else:
                    jac = Tensor._wrap(np.zeros(tuple(o.shape) + tuple(x.shape), x._data.dtype))
                per_input.append(_finish(jac, create_graph))
            result.append(per_input[0] if single_input else tuple(per_input))
    return result[0] if _is_tensor(out) else tuple(result)


def hessian(func, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient."""
    _check("hessian", inputs=inputs)
    single_input = _is_tensor(inputs)

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The function given to hessian should return a single element Tensor")
        grads = jacobian(func, xs if not single_input else xs[0], create_graph=True)
        return grads

    return jacobian(gradient, inputs, create_graph=create_graph)


def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)``."""
    _check("vhp", inputs=inputs, v=v)
    is_tuple = not _is_tensor(inputs)
    with enable_grad():
        inputs = _prepare(inputs, True)
        out = func(*inputs)
        grads = _grad([out], inputs, [_ones_like(out)], True)
        vs = _tuple(v) if v is not None else tuple(_ones_like(x) for x in inputs)
        prods = _grad(grads, inputs, vs, create_graph)
    prods = tuple(_finish(p, create_graph) for p in prods)
    return _finish(out, create_graph), (prods if is_tuple else prods[0])


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)`` (equal to vhp: the Hessian of a scalar function is symmetric)."""
    _check("hvp", inputs=inputs, v=v)
    return vhp(func, inputs, v, create_graph, strict)
