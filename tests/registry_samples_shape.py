"""Registry sweep inputs for the shape ops of minitorch/_ops/shape/joins.py and shape/view_copy.py,
the joins and unsafe splits of minitorch/_ops/shape/view.py, and the Tensor methods that convert, resize and alias."""
import minitorch as mt
from registry_inputs import x


def _pair():
    return (x(3, 4), x(3, 4, seed=1))


def _vectors():
    return (x(3), x(2, seed=1))


SAMPLES = {
    "as_strided_copy": (lambda t: mt.as_strided_copy(t, (3, 3), (1, 2), 1), lambda: (x(3, 4),)),
    "unfold_copy": (lambda t: mt.unfold_copy(t, 1, 2, 1), lambda: (x(3, 4),)),
    "view_copy": (lambda t: mt.view_copy(t.t(), (2, 6)), lambda: (x(3, 4),)),
    "slice_copy": (lambda t: mt.slice_copy(t, 1, 1, None, 2), lambda: (x(3, 4),)),
    "expand_copy": (lambda t: mt.expand_copy(t, (2, 3, 4)), lambda: (x(3, 4),)),
    "select_copy": (lambda t: mt.select_copy(t, 1, -1), lambda: (x(3, 4),)),
    "permute_copy": (lambda t: mt.permute_copy(t, (2, 0, 1)), lambda: (x(2, 3, 4),)),
    "unsqueeze_copy": (lambda t: mt.unsqueeze_copy(t, 1), lambda: (x(3, 4),)),
    "transpose_copy": (lambda t: mt.transpose_copy(t, 0, 1), lambda: (x(3, 4),)),
    "split_copy": (lambda t: mt.split_copy(t, 3, 1), lambda: (x(3, 4),)),
    "split_with_sizes_copy": (lambda t: mt.split_with_sizes_copy(t, [1, 3], 1), lambda: (x(3, 4),)),
    "narrow_copy": (lambda t: t.narrow_copy(1, 1, 2), lambda: (x(3, 4),)),
    "unsafe_split": (lambda t: t.unsafe_split(3, 1), lambda: (x(3, 4),)),
    "unsafe_split_with_sizes": (lambda t: t.unsafe_split_with_sizes([2, 2], 1), lambda: (x(3, 4),)),
    "unsafe_chunk": (lambda t: t.unsafe_chunk(2, 1), lambda: (x(3, 4),)),
    "atleast_1d": (None, lambda: (x(),)),
    "atleast_2d": (lambda a, b: mt.atleast_2d(a, b), lambda: (x(), x(4, seed=1))),
    "atleast_3d": (lambda a, b: mt.atleast_3d([a, b]), lambda: (x(4), x(3, 4, seed=1))),
    "cat": (lambda a, b: mt.cat([a, mt.zeros(0, dtype=a.dtype), b], 1), _pair),  # the 1-dim empty one is skipped
    "concat": (lambda a, b: mt.concat([a, b]), _pair),
    "concatenate": (lambda a, b: mt.concatenate([a, b], -1), _pair),
    "stack": (lambda a, b: mt.stack([a, b], 1), _pair),
    "hstack": (lambda a, b: mt.hstack([a, b]), lambda: (x(), x(3, seed=1))),
    "vstack": (lambda a, b: mt.vstack([a, b]), lambda: (x(4), x(2, 4, seed=1))),
    "column_stack": (lambda a, b: mt.column_stack([a, b]), lambda: (x(3), x(3, 2, seed=1))),
    "row_stack": (lambda a, b: mt.row_stack([a, b]), _pair),
    "dstack": (lambda a, b: mt.dstack([a, b]), _pair),
    "hsplit": (lambda t: t.hsplit([1, 3]), lambda: (x(3, 4),)),
    "vsplit": (lambda t: t.vsplit(3), lambda: (x(3, 4),)),
    "dsplit": (lambda t: t.dsplit(2), lambda: (x(2, 3, 4),)),
    "block_diag": (lambda a, b, c: mt.block_diag(a, b, c), lambda: (x(2, 3), x(), x(2, seed=1))),
    "broadcast_tensors": (lambda a, b: mt.broadcast_tensors(a, b), lambda: (x(3, 1), x(4, seed=1))),
    "cartesian_prod": (lambda a, b: mt.cartesian_prod(a, b), _vectors),
    "combinations": (lambda t: mt.combinations(t, 3, with_replacement=True), lambda: (x(3),)),
    "meshgrid": (lambda a, b: mt.meshgrid(a, b, indexing="ij"), _vectors),
    "sum_to_size": (lambda t: t.sum_to_size(1, 4), lambda: (x(3, 4),)),
    "to": (lambda t: t.to(mt.float64, copy=True), lambda: (x(3, 4),)),
    "resize": (lambda t: t.resize(4, 3), lambda: (x(3, 4),)),
    "resize_as": (lambda t, u: t.resize_as(u), lambda: (x(3, 4), x(4, 3, seed=1))),
    "as_subclass": (lambda t: t.as_subclass(mt.Tensor), lambda: (x(3, 4),)),
}
