"""Helpers shared by the distributions (as ``torch.distributions.utils``)."""
from __future__ import annotations

import functools
from numbers import Number

import numpy as np

from .. import _factories
from .. import _random_factories
from .._core.tensor import Tensor
from .._ops.elementwise.unary import sigmoid
from .._ops.elementwise.clamp import clamp
from .._ops.reduction.softmax import softmax
from .._ops.elementwise.unary import log, log1p
from .._ops.shape.view import broadcast_to


def _np_dtype(t: Tensor):
    return t._data.dtype


def broadcast_all(*values):
    """Numbers and tensors to tensors of one broadcast shape (numbers take the tensors' dtype)."""
    if not all(isinstance(v, (Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    if not any(isinstance(v, Tensor) for v in values):
        return tuple(_factories.tensor(float(v)) for v in values)
    dtype = next(v.dtype for v in values if isinstance(v, Tensor))
    values = [v if isinstance(v, Tensor) else _factories.tensor(v, dtype=dtype) for v in values]
    shape = np.broadcast_shapes(*(tuple(v.shape) for v in values))
    return tuple(v if tuple(v.shape) == shape else broadcast_to(v, shape) for v in values)


def init_probs_or_logits(dist, probs, logits, validate_args, **others) -> None:
    """``__init__`` of a distribution given by ``probs`` or ``logits`` (exactly one of them), broadcast with the
    scalar parameters ``others``, and set the batch shape."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    name, given = ("probs", probs) if probs is not None else ("logits", logits)
    params = {**others, name: given}
    dist._init_params(validate_args, **params)


def _standard_normal(shape, dtype):
    return _random_factories.randn(tuple(shape), dtype=dtype)


def _sum_rightmost(value, dim: int):
    """Sum out the ``dim`` rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:value.dim() - dim]) + (-1,)).sum(-1)


def clamp_probs(probs):
    eps = float(np.finfo(_np_dtype(probs)).eps)
    return clamp(probs, min=eps, max=1 - eps)


def logits_to_probs(logits, is_binary: bool = False):
    if is_binary:
        return sigmoid(logits)
    return softmax(logits, dim=-1)


def probs_to_logits(probs, is_binary: bool = False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return log(ps_clamped) - log1p(-ps_clamped)
    return log(ps_clamped)


class lazy_property:
    """Computed on first access, then cached in the instance ``__dict__`` (shown by ``repr`` from then on)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value


def _tril_mask(n: int, diag: int) -> np.ndarray:
    rows, cols = np.indices((n, n))
    return cols <= rows + diag


def vec_to_tril_matrix(vec, diag: int = 0):
    """The lower triangle (from diagonal ``diag``) of a square matrix filled row by row from ``vec``'s last dim."""
    m = vec.shape[-1]
    # solve n (n + 1) / 2 + diag-adjusted count == m for the matrix size n
    n = round((-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2)
    mask = _tril_mask(n, diag)
    rows, cols = np.nonzero(mask)
    index = rows * n + cols
    flat = vec.new_zeros(tuple(vec.shape[:-1]) + (n * n,))
    full_index = _factories.tensor(index).expand(tuple(vec.shape[:-1]) + (len(index),))
    return flat.scatter(-1, full_index, vec).reshape(tuple(vec.shape[:-1]) + (n, n))


def tril_matrix_to_vec(mat, diag: int = 0):
    """The entries on and below diagonal ``diag`` of the last two dims, row by row (the inverse of the above)."""
    n = mat.shape[-1]
    rows, cols = np.nonzero(_tril_mask(n, diag))
    index = _factories.tensor(rows * n + cols)
    flat = mat.reshape(tuple(mat.shape[:-2]) + (n * n,))
    return flat.index_select(-1, index)


class BinaryParams:
    """``logits`` and ``probs`` of a binary outcome, each computed from the other on first use (a base listed
    before ``Distribution``)."""

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)
