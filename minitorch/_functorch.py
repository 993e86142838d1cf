"""``vmap``, ``cond`` and ``while_loop``, run eagerly.

PyTorch batches ``vmap``'s function with batching rules and compiles ``cond``/``while_loop`` into graphs;
minitorch runs them as the plain Python they describe: ``vmap`` calls the function once per slice of the
mapped dim and stacks the results (a Python loop over the batch, so it is as fast as that loop; gradients
flow through the slicing and stacking ops), ``cond`` calls one branch, ``while_loop`` loops."""
from __future__ import annotations

import functools
from typing import Any, Callable

from . import random
from ._core.tensor import Tensor
from ._ops.shape.joins import stack


def _fn_name(func) -> str:
    return getattr(func, "__name__", type(func).__name__)


def _batch_sizes(arg, in_dim, sizes: list, where: str) -> None:
    """Check ``in_dim`` against ``arg`` (a tensor or a nested list/tuple/dict of them) and note batch sizes."""
    if in_dim is None:
        return
    if isinstance(arg, (list, tuple)) and isinstance(in_dim, (list, tuple)):
        if len(arg) != len(in_dim):
            raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`.")
        for a, d in zip(arg, in_dim):
            _batch_sizes(a, d, sizes, where)
    elif isinstance(arg, (list, tuple)):
        for a in arg:
            _batch_sizes(a, in_dim, sizes, where)
    elif isinstance(arg, dict):
        for a in arg.values():
            _batch_sizes(a, in_dim, sizes, where)
    elif not isinstance(arg, Tensor):
        raise ValueError(f"{where}: Got in_dim={in_dim} for an input but the input is of type {type(arg)}. We "
                         "cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
    elif not isinstance(in_dim, int) or not -arg.dim() <= in_dim < arg.dim():
        raise ValueError(f"{where}: Got in_dim={in_dim} for some input, but that input is a Tensor of "
                         f"dimensionality {arg.dim()} so expected in_dim to satisfy -{arg.dim()} <= in_dim < "
                         f"{arg.dim()}.")
    else:
        sizes.append(arg.shape[in_dim])


def _slice(arg, in_dim, i: int):
    """Slice ``i`` of ``arg`` along ``in_dim`` (recursively through lists, tuples and dicts)."""
    if in_dim is None:
        return arg
    if isinstance(arg, (list, tuple)):
        dims = in_dim if isinstance(in_dim, (list, tuple)) else [in_dim] * len(arg)
        return type(arg)(_slice(a, d, i) for a, d in zip(arg, dims))
    if isinstance(arg, dict):
        return {k: _slice(a, in_dim, i) for k, a in arg.items()}
    return arg.select(in_dim, i)


def _stack_outputs(outs: list, out_dim, name: str):
    """The per-slice results ``outs`` stacked along ``out_dim`` (recursively through tuples and lists)."""
    first = outs[0]
    if isinstance(first, (list, tuple)):
        dims = out_dim if isinstance(out_dim, (list, tuple)) else [out_dim] * len(first)
        return type(first)(_stack_outputs([o[k] for o in outs], dims[k], name) for k in range(len(first)))
    if out_dim is None:
        return first
    if not isinstance(first, Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(first)}. Did you "
                         "mean to set out_dims= to None for output?")
    return stack(outs, out_dim)


def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``func`` mapped over dim ``in_dims`` of its inputs, the results stacked along ``out_dims``.

    ``in_dims``: an int for every input, or a tuple with one entry per positional input (an int, None
    for an input passed whole, or a nested tuple for a nested input). Runs ``func`` once per slice in a
    Python loop (``chunk_size`` has no effect). ``randomness='same'`` gives every slice the same random
    numbers; 'error' and 'different' give each its own (minitorch cannot detect random ops to refuse them).
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
                           f"{randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = _fn_name(func)

    @functools.wraps(func)
    def mapped(*args, **kwargs):
        where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
        if isinstance(in_dims, int):
            dims = (in_dims,) * len(args)
        elif isinstance(in_dims, tuple):
            if len(in_dims) != len(args):
                raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                                 f"{len(in_dims)} entries but there are {len(args)} inputs.")
            dims = in_dims
        else:
            raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                             f"structure of inputs, got: {type(in_dims)}.")
        sizes: list = []
        for a, d in zip(args, dims):
            _batch_sizes(a, d, sizes, where)
        if not sizes:
            raise ValueError(f"{where}: at least one input must be a Tensor mapped over a dim (not None)")
        if len(set(sizes)) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        if sizes[0] == 0:
            raise ValueError(f"{where}: minitorch's vmap runs {name} once per slice and cannot map over an empty "
                             "dimension")
        state = random.get_rng_state() if randomness == "same" else None
        outs = []
        for i in range(sizes[0]):
            if state is not None:
                random.set_rng_state(state)
            outs.append(func(*(_slice(a, d, i) for a, d in zip(args, dims)), **kwargs))
        return _stack_outputs(outs, out_dims, name)

    return mapped


def _check_pred(pred) -> bool:
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
        return bool(pred.item())
    if not isinstance(pred, (bool, int, float)):
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    return bool(pred)


def cond(pred, true_fn: Callable, false_fn: Callable, operands: tuple | list = ()):
    """``true_fn(*operands)`` if ``pred`` (a bool or a one-element tensor) holds, else ``false_fn(*operands)``."""
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(f"Expect operands to be a tuple of possibly nested dict/list/tuple that only consists "
                           f"of tensor leaves, but got {operands}.")
    return (true_fn if _check_pred(pred) else false_fn)(*operands)


def while_loop(cond_fn: Callable, body_fn: Callable, carried_inputs: tuple | list):
    """Run ``carried = body_fn(*carried)`` while ``cond_fn(*carried)`` holds; return the final ``carried`` tuple."""
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got {type(carried_inputs)}")
    carried = tuple(carried_inputs)
    while _check_pred(cond_fn(*carried)):
        out = body_fn(*carried)
        out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if len(out) != len(carried):
            raise RuntimeError(f"body_fn should return as many values as carried_inputs ({len(carried)}), "
                               f"got {len(out)}")
        carried = out
    return carried
