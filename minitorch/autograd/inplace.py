"""Autograd for in-place operations: the modified tensor takes the op's node as its
new history, and an in-place op on a view rewrites the history of the view's base
through ``CopySlices``, as PyTorch does."""
from __future__ import annotations

import numpy as np

from .function import Op, _edge
from .graph import NO_EDGE, Node, _sequence


def rebase_history(op, inputs, arrays) -> None:
    """Connect in-place ``op`` (already run) so that ``inputs[0]`` now comes out of it."""
    t = inputs[0]
    op._link(inputs)
    op._save(arrays, inputs, (arrays[0],), (t,))
    base = t._base
    if base is None:
        t.grad_fn, t._output_nr, t._requires_grad = op, 0, True
        return
    copy = CopySlices(base, t._data, op)
    base.grad_fn, base._output_nr, base._requires_grad = copy, 0, True
    t.grad_fn, t._output_nr, t._requires_grad = AsStridedBackward0(copy), 0, True


class _Region:
    """Where a view lies inside its base's (C-contiguous) memory."""

    def __init__(self, base_arr: np.ndarray, view_arr: np.ndarray):
        if not base_arr.flags.c_contiguous:
            raise NotImplementedError("autograd of an in-place operation on a view needs a contiguous base; "
                                      "call .contiguous() on the base first")
        self.base_shape, self.dtype = base_arr.shape, base_arr.dtype
        self.shape, self.strides = view_arr.shape, view_arr.strides
        self.offset = view_arr.__array_interface__["data"][0] - base_arr.__array_interface__["data"][0]

    def of(self, full: np.ndarray) -> np.ndarray:
        """The view's region of ``full``, a C-contiguous array shaped like the base."""
        return np.ndarray(self.shape, self.dtype, buffer=full, offset=self.offset, strides=self.strides)


class CopySlices(Node):
    """History of a base whose view was modified in place by ``fn``."""

    def __init__(self, base, view_arr, fn):
        self.next_functions = (_edge(base) if base._requires_grad else NO_EDGE,) + fn.next_functions[1:]
        self._seq = next(_sequence)
        self.fn = fn
        self.region = _Region(base._data, view_arr)

    def _apply(self, grads, create_graph):
        grad = grads[0]
        fn_grads = self.fn._apply([RegionOf.apply(grad, region=self.region)], create_graph)
        # the view's old values are replaced: their gradient comes from fn, the rest passes through
        inner = 0.0 if fn_grads[0] is None else fn_grads[0]
        return (WithRegion.apply(grad, inner, region=self.region),) + tuple(fn_grads[1:])


class AsStridedBackward0(Node):
    """History of a view after an in-place op on it: a region of the base's new history."""

    def __init__(self, copy_slices: CopySlices):
        self.next_functions = ((copy_slices, 0),)
        self._seq = next(_sequence)
        self.region = copy_slices.region

    def _apply(self, grads, create_graph):
        zeros = np.zeros(self.region.base_shape, self.region.dtype)
        return (WithRegion.apply(zeros, grads[0], region=self.region),)


class RegionOf(Op):
    """A copy of the view's region of a base-shaped array."""

    @staticmethod
    def forward(ctx, full, region=None):
        ctx.region = region
        return region.of(np.ascontiguousarray(full)).copy()

    @staticmethod
    def backward(ctx, g):
        return WithRegion.apply(np.zeros(ctx.region.base_shape, ctx.region.dtype), g, region=ctx.region)


class WithRegion(Op):
    """A copy of ``full`` whose view region holds ``values``."""

    @staticmethod
    def forward(ctx, full, values, region=None):
        ctx.region = region
        out = np.array(full, dtype=region.dtype, order="C", copy=True)
        region.of(out)[...] = values
        return out

    @staticmethod
    def backward(ctx, g):
        need_full, need_values = ctx.needs_input_grad
        g_full = WithRegion.apply(g, 0.0, region=ctx.region) if need_full else None
        return g_full, (RegionOf.apply(g, region=ctx.region) if need_values else None)
