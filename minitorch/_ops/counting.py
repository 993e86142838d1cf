"""Counting and binning: unique, bincount, histc, searchsorted, bucketize. Their results are counts,
positions or distinct values: none is differentiable (as in torch)."""
from __future__ import annotations

import numpy as np

from .._registry import register
from .._tensor import Tensor, _wrap_dim


def _leaf(arr) -> Tensor:
    return Tensor._wrap(np.asarray(arr))


@register
def unique(input, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,  # noqa: A002
           dim: int | None = None):
    """The distinct values (sorted), and optionally where each input element went and how often each occurs."""
    data = input._data
    if dim is None:
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(data.shape)
    else:
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True, axis=_wrap_dim(dim, data.ndim))
        inverse = inverse.reshape(-1)
    out = [_leaf(values)]
    if return_inverse:
        out.append(_leaf(inverse.astype(np.int64)))
    if return_counts:
        out.append(_leaf(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


@register
def bincount(input, weights=None, minlength: int = 0):
    """How often each value 0..max occurs in a 1-D int tensor (or the sum of ``weights`` there)."""
    data = input._data
    if data.ndim != 1 or data.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if data.size and data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._data
    counts = np.bincount(data, weights=w, minlength=minlength)
    return _leaf(counts.astype(np.int64 if w is None else w.dtype))


@register
def histc(input, bins: int = 100, min: float = 0, max: float = 0):  # noqa: A002
    """A histogram of ``bins`` equal bins between ``min`` and ``max`` (the data's range when both are 0)."""
    data = input._data
    lo, hi = (float(data.min()), float(data.max())) if min == max == 0 and data.size else (float(min), float(max))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data, bins=bins, range=(lo, hi))
    return _leaf(counts.astype(data.dtype))


@register
def searchsorted(sorted_sequence, input, *, out_int32: bool = False, right: bool = False, side: str | None = None,
                 sorter=None):
    """Where each value of ``input`` would go in the (last dim of the) sorted ``sorted_sequence``."""
    right = side == "right" if side is not None else right
    seq = sorted_sequence._data
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    side_name = "right" if right else "left"
    if seq.ndim == 1:
        out = np.searchsorted(seq, values, side=side_name)
    else:
        flat_seq, flat_val = seq.reshape(-1, seq.shape[-1]), values.reshape(-1, values.shape[-1])
        out = np.stack([np.searchsorted(s, v, side=side_name) for s, v in zip(flat_seq, flat_val)]).reshape(
            values.shape)
    return _leaf(np.asarray(out).astype(np.int32 if out_int32 else np.int64))


@register
def bucketize(input, boundaries, *, out_int32: bool = False, right: bool = False):
    """The index of the bucket of ``boundaries`` each value of ``input`` falls in."""
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)
