"""The ``out=`` argument, as torch handles it: a result written into a given tensor. ``Op.apply`` takes it for the
functions ``Op.function()`` makes; ``with_out`` adds it to a function written without it."""
from __future__ import annotations

import functools
import inspect
import re
import warnings

import numpy as np

from .. import _dtype

_OUT_KIND = {"b": 0, "u": 1, "i": 1, "f": 2, "V": 2, "c": 3}
_RESIZED = ("An output with one or more elements was resized since it had shape {}, which does not match the "
            "required output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not "
            "be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
            "inplace, to zero elements with t.resize_(0).")


def _out(result, out, name: str | None = None):
    """The ``out=`` argument, as torch handles it: ``result`` written into ``out`` (resized, with torch's
    warning when it had elements, and cast to its dtype unless that loses a category: float into an integer
    tensor is an error) and ``out`` returned. Refused when ``result`` is part of a graph, as torch refuses
    out= arguments that require grad; ``name`` (default: from the graph node) names the function."""
    if out is None:
        return result
    if result._requires_grad:
        fn = name or re.sub(r"Backward\d*$", "", result.grad_fn.name()).lower()
        raise RuntimeError(f"{fn}(): functions with out=... arguments don't support automatic differentiation, but "
                           "one of the arguments requires grad.")
    r, o = result._data, out._data
    if _OUT_KIND[r.dtype.kind] > _OUT_KIND[o.dtype.kind]:
        raise RuntimeError(f"result type {_dtype.C_NAMES[_dtype.from_numpy_dtype(r.dtype)]} can't be cast to the "
                           f"desired output type {_dtype.C_NAMES[_dtype.from_numpy_dtype(o.dtype)]}")
    if o.shape != r.shape:
        if o.size:
            warnings.warn(_RESIZED.format(list(o.shape), list(r.shape)), UserWarning, stacklevel=3)
        out._data = o = np.empty_like(r, o.dtype)  # (laid out as the result, as torch resizes it)
    o[...] = r
    out._bump()
    return out


def _outs(results, out, name: str | None = None):
    """``out=`` for functions returning several tensors: each result written into its tensor of ``out``."""
    if out is None:
        return results
    for result, target in zip(results, out):
        _out(result, target, name)
    return type(results)(*out) if hasattr(results, "_fields") else tuple(out)


def signature_with_out(fn) -> inspect.Signature:
    """``fn``'s signature with a keyword-only ``out=None`` added (before ``**kwargs``), for wrappers that add it."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    if "out" not in sig.parameters:
        at = len(params) - (params and params[-1].kind == inspect.Parameter.VAR_KEYWORD)
        params.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
    return sig.replace(parameters=params)


def with_out(fn):
    """``fn`` with torch's ``out=`` argument (a tensor, or a tuple of them for several results)."""
    @functools.wraps(fn)
    def with_out_argument(*args, out=None, **kwargs):
        result = fn(*args, **kwargs)
        if out is None:
            return result
        return (_outs if isinstance(result, tuple) else _out)(result, out, fn.__name__)
    with_out_argument.__signature__ = signature_with_out(fn)
    return with_out_argument