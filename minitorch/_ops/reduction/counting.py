"""Counting and binning: unique, unique_consecutive, isin, bincount, histc, histogram(dd), searchsorted,
bucketize. Their results are counts, positions or distinct values: none is differentiable (as in torch)."""
from __future__ import annotations

import builtins

import numpy as np

from ..._dtype import C_NAMES, from_numpy_dtype
from ..._core.out import _out
from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..return_types import _return_type, return_types


def _leaf(arr) -> Tensor:
    return Tensor._wrap(np.asarray(arr))


@register(differentiable=False)
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


@register(differentiable=False)
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


@register(differentiable=False, out=True)
def histc(input, bins: int = 100, min: float = 0, max: float = 0):  # noqa: A002
    """A histogram of ``bins`` equal bins between ``min`` and ``max`` (the data's range when both are 0)."""
    data = input._data
    lo, hi = (float(data.min()), float(data.max())) if min == max == 0 and data.size else (float(min), float(max))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data, bins=bins, range=(lo, hi))
    return _leaf(counts.astype(data.dtype))


@register(differentiable=False, out=True)
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


@register(differentiable=False, out=True)
def bucketize(input, boundaries, *, out_int32: bool = False, right: bool = False):
    """The index of the bucket of ``boundaries`` each value of ``input`` falls in."""
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@register(differentiable=False)
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False, out=None):
    """Whether each of ``elements`` occurs in ``test_elements`` (either may be a number)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got "
                        f"({type(elements).__name__}, {type(test_elements).__name__})")
    values = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    return _out(_leaf(np.isin(values, tests, invert=invert)), out)


@register(differentiable=False)
def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None):
    """The values (or slices along ``dim``) with consecutive repeats collapsed; optionally where each element
    went and the length of each run."""
    data = input._data
    if dim is None:
        lines = data.reshape(-1, 1)
    else:
        d = _wrap_dim(dim, data.ndim)
        lines = np.moveaxis(data, d, 0).reshape(data.shape[d], -1)
    starts = np.ones(lines.shape[0], bool)
    starts[1:] = (lines[1:] != lines[:-1]).any(-1)
    keep = np.flatnonzero(starts)
    values = data.reshape(-1)[keep] if dim is None else np.take(data, keep, axis=d)
    out = [_leaf(values)]
    if return_inverse:
        inverse = np.cumsum(starts) - 1
        out.append(_leaf(inverse.reshape(data.shape) if dim is None else inverse))
    if return_counts:
        out.append(_leaf(np.diff(np.append(keep, lines.shape[0]))))
    return out[0] if len(out) == 1 else tuple(out)


# ---- histograms ---------------------------------------------------------------------------------------------
return_types.histogram = _return_type("histogram", ("hist", "bin_edges"))
return_types.histogramdd = _return_type("histogramdd", ("hist", "bin_edges"))


def _edges(column, bins, limits, dim, dtype):
    """The bin edges of one coordinate: given (a tensor), or ``bins`` equal bins over ``limits`` or the data's
    range (widened by 0.5 both ways when it is one point, [0, 1] without data)."""
    if isinstance(bins, Tensor):
        if bins._data.dtype != dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {C_NAMES[from_numpy_dtype(dtype)].lower()} and bins for dimension "
                               f"{dim} with dtype {C_NAMES[bins.dtype].lower()}")
        return bins._data
    if limits is not None:
        lo, hi = float(limits[0]), float(limits[1])
    elif column.size:
        lo, hi = float(column.min()), float(column.max())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} for "
                           f"dimension {dim}")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, int(bins) + 1).astype(dtype)


def _histogramdd(points, bins, range, weight, density):  # noqa: A002
    data = points._data
    if data.dtype.kind not in "fV":
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{C_NAMES[points.dtype]}'")
    columns = data.reshape(-1, data.shape[-1])
    count = columns.shape[1]
    per_dim = bins if isinstance(bins, (list, tuple)) else [bins] * count
    limits = [None] * count if range is None else [range[2 * k:2 * k + 2] for k in builtins.range(count)]
    edges = [_edges(columns[:, k], per_dim[k], limits[k], k, data.dtype) for k in builtins.range(count)]
    w = None if weight is None else weight._data.reshape(-1)
    hist, _ = np.histogramdd(columns, bins=edges, weights=w, density=density)
    return hist.astype(data.dtype), [_leaf(e) for e in edges]


@register(out=True)
def histogram(input, bins, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """A histogram of ``input``: ``bins`` equal bins over ``range`` (or the data's range) or given edges;
    ``(hist, bin_edges)`` as floats, ``hist`` weighted and normalised as asked."""
    hist, edges = _histogramdd(input.reshape(-1, 1), bins, range, weight, density)
    return return_types.histogram(_leaf(hist), edges[0])


@register(out=True, method=False)
def histogramdd(input, bins, range=None, weight=None, density: bool = False):  # noqa: A002
    """A ``D``-dimensional histogram of the points in the last dim of ``input``; ``bins`` an int, one per
    dimension, or the edges of each."""
    hist, edges = _histogramdd(input, bins, range, weight, density)
    return return_types.histogramdd(_leaf(hist), tuple(edges))
