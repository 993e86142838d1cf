"""Autograd for in-place operations: the modified tensor takes the op's node as its
new history, and an in-place op on a view rewrites the history of the view's base
through ``CopySlices``, as PyTorch does."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .function import Op
from .graph import NO_EDGE, Node, _sequence, gradient_edge


def rebase_history(op, inputs, arrays, snapshot=None) -> None:
    """Connect in-place ``op`` (already run) so that ``inputs[0]`` now comes out of it.

    ``snapshot`` is the tensor's value before the change, if ``op`` saved it.
    """
    t = inputs[0]
    op._link(inputs)
    if snapshot is None:
        op._save(arrays, inputs, (arrays[0],), (t,))
    else:
        op._save(list(arrays) + [snapshot._data], tuple(inputs) + (snapshot,), (arrays[0],), (t,))
    base = t._base
    if base is None:
        t.grad_fn, t._output_nr, t._requires_grad = op, 0, True
    else:
        base.grad_fn, base._output_nr, base._requires_grad = CopySlices(base, t._data, op), 0, True
    _refresh_views(base if base is not None else t)


def _refresh_views(base) -> None:
    """Every live view of ``base`` now reads from the base's new history."""
    if not base._views:
        return
    edge = (base.grad_fn, base._output_nr)
    for view in list(base._views):
        view.grad_fn, view._output_nr, view._requires_grad = AsStridedBackward0(edge, base, view), 0, True


class _Region:
    """Where a view lies inside its base's memory. The base may be laid out in any dense
    order (a result of ops on transposed tensors keeps their layout), which the
    gradient arrays built here reproduce."""

    def __init__(self, base_arr: np.ndarray, view_arr: np.ndarray):
        self.base_shape, self.dtype = base_arr.shape, base_arr.dtype
        self.perm = tuple(np.argsort([-s for s in base_arr.strides], kind="stable"))
        dense = np.empty([base_arr.shape[p] for p in self.perm], self.dtype).transpose(np.argsort(self.perm))
        if base_arr.size > 1 and any(a != b for a, b, n in zip(dense.strides, base_arr.strides, base_arr.shape)
                                     if n > 1):
            raise NotImplementedError("autograd of an in-place operation on a view needs a base without gaps in "
                                      "memory; call .contiguous() on the base first")
        self.shape, self.strides = view_arr.shape, view_arr.strides
        offset = view_arr.__array_interface__["data"][0] - base_arr.__array_interface__["data"][0]
        self.offset = offset // base_arr.itemsize

    def like_base(self, values) -> np.ndarray:
        """A new array laid out like the base, filled with ``values``."""
        out = np.empty([self.base_shape[p] for p in self.perm], self.dtype).transpose(np.argsort(self.perm))
        out[...] = values
        return out

    def of(self, full: np.ndarray) -> np.ndarray:
        """The view's region of ``full``, an array made by ``like_base``."""
        flat = full.transpose(self.perm).reshape(-1)  # the dense buffer, as a flat view
        return as_strided(flat[self.offset:], self.shape, self.strides)


class CopySlices(Node):
    """History of a base whose view was modified in place by ``fn``."""

    def __init__(self, base, view_arr, fn):
        self.next_functions = (gradient_edge(base) if base._requires_grad else NO_EDGE,) + fn.next_functions[1:]
        self._seq = next(_sequence)
        self._set_meta((base._data,))
        self.fn = fn
        self.region = _Region(base._data, view_arr)

    # what the in-place op saved is this node's: backward frees it here, and summaries show it
    _saved = property(lambda self: self.fn._saved, lambda self, value: setattr(self.fn, "_saved", value))
    _released = property(lambda self: self.fn._released, lambda self, value: setattr(self.fn, "_released", value))

    def _saved_entries(self) -> list:
        return self.fn._saved_entries()

    def _apply(self, grads, create_graph):
        grad = grads[0]
        fn_grads = self.fn._apply([RegionOf.apply(grad, region=self.region)], create_graph)
        # the view's old values are replaced: their gradient comes from fn, the rest passes through
        inner = 0.0 if fn_grads[0] is None else fn_grads[0]
        return (WithRegion.apply(grad, inner, region=self.region),) + tuple(fn_grads[1:])


class AsStridedBackward0(Node):
    """History of a view after an in-place change of its base: a region of the base's new history."""

    def __init__(self, base_edge, base, view):
        self.next_functions = (base_edge,)
        self._seq = next(_sequence)
        self._set_meta((view._data,))
        self.region = _Region(base._data, view._data)

    def _apply(self, grads, create_graph):
        return (WithRegion.apply(self.region.like_base(0), grads[0], region=self.region),)


class RegionOf(Op):
    """A copy of the view's region of a base-shaped array."""

    @staticmethod
    def forward(ctx, full, region=None):
        ctx.region = region
        return region.of(region.like_base(full)).copy()

    @staticmethod
    def backward(ctx, g):
        return WithRegion.apply(ctx.region.like_base(0), g, region=ctx.region)


class WithRegion(Op):
    """A copy of ``full`` whose view region holds ``values``."""

    @staticmethod
    def forward(ctx, full, values, region=None):
        ctx.region = region
        out = region.like_base(full)
        region.of(out)[...] = values
        return out

    @staticmethod
    def backward(ctx, g):
        need_full, need_values = ctx.needs_input_grad
        g_full = WithRegion.apply(g, 0.0, region=ctx.region) if need_full else None
        return g_full, (RegionOf.apply(g, region=ctx.region) if need_values else None)
