"""CatTransform and StackTransform of ``torch.distributions.transforms``: one transform per piece of a tensor cut
along a dimension. ``transforms`` exports them under torch's module path."""
from __future__ import annotations

import operator
from functools import reduce

import numpy as np

from .._ops.shape.joins import cat, stack
from . import constraints
from .transforms import Transform
from .utils import _sum_rightmost


class _Pieces(Transform):
    """Shared by Cat/StackTransform: one transform per piece of the input along ``dim``."""

    def __init__(self, tseq, dim: int, cache_size: int):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    def _apply(self, x, inverse: bool):
        pieces = self._split(x)
        return self._join([(t.inv if inverse else t)(p) for t, p in zip(self.transforms, pieces)])

    def _call(self, x):
        return self._apply(x, False)

    def _inverse(self, y):
        return self._apply(y, True)


class CatTransform(_Pieces):
    """Transforms consecutive slices of ``lengths`` along ``dim`` separately, concatenating the results."""

    def __init__(self, tseq, dim: int = 0, lengths=None, cache_size: int = 0):
        super().__init__(tseq, dim, cache_size)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError

    @property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _split(self, x):
        starts = np.cumsum([0] + self.lengths[:-1])
        return [x.narrow(self.dim, int(s), n) for s, n in zip(starts, self.lengths)]

    def _join(self, pieces):
        return cat(pieces, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        terms = []
        for t, a, b in zip(self.transforms, self._split(x), self._split(y)):
            terms.append(_sum_rightmost(t.log_abs_det_jacobian(a, b), self.event_dim - t.event_dim))
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        if dim < 0:  # the pieces are split along a batch dimension: their log-Jacobians concatenate
            return cat(terms, dim=dim)
        return reduce(operator.add, terms)


class StackTransform(_Pieces):
    """Transforms the slices ``x.select(dim, i)`` by ``tseq[i]``, stacking the results along ``dim``."""

    def __init__(self, tseq, dim: int = 0, cache_size: int = 0):
        super().__init__(tseq, dim, cache_size)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)

    def with_cache(self, cache_size=1):
        return self if self._cache_size == cache_size else StackTransform(self.transforms, self.dim, cache_size)

    def _split(self, x):
        return [x.select(self.dim, i) for i in range(x.size(self.dim))]

    def _join(self, pieces):
        return stack(pieces, dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        return self._join([t.log_abs_det_jacobian(a, b)
                           for t, a, b in zip(self.transforms, self._split(x), self._split(y))])
