"""The ``*_copy`` functions (``view_copy``, ``permute_copy``, ...): each view op followed by a copy, so the
result owns its memory (PyTorch's functionalization variants). The gradient is the view op's, through
the copy: every one of them is made by ``_copy_of`` from its view op."""
from __future__ import annotations

import functools
import inspect

from ..._core.registry import register
from . import diagonal as _diagonal, indexing, joins, scatter, view
from .copying import clone
from ..._dtype import dtype as dtype_class


def _copy_of(view_fn, name: str, **facts):
    """``name``: ``view_fn`` with each result copied into fresh (contiguous) memory (taking ``out=``, as torch's)."""
    @functools.wraps(view_fn)
    def copy_variant(input, *args, **kwargs):
        out = view_fn(input, *args, **kwargs)
        return tuple(clone(t) for t in out) if isinstance(out, tuple) else clone(out)

    copy_variant.__name__ = copy_variant.__qualname__ = name
    copy_variant.__module__ = __name__
    copy_variant.__doc__ = f"``{view_fn.__name__}`` as a new tensor that shares no memory with ``input``."
    copy_variant.__signature__ = inspect.signature(view_fn)  # for help(); its source is here, not the view op's
    del copy_variant.__wrapped__
    return register(copy_variant, method=False, out=True, **facts)


def _view(input, *shape, size=None, dtype=None):
    """``view`` of a shape (reshaping a copy when the strides do not allow a view), or of a dtype."""
    if len(shape) == 1 and isinstance(shape[0], dtype_class):
        return view.view(input, shape[0])
    if dtype is not None and not shape and size is None:
        return view.view(input, dtype=dtype)
    return view.reshape(input, *shape, shape=size)


def _slice(input, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1):
    """``input[..., start:end:step]`` along ``dim``."""
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = view._wrap_dim(dim, input.dim())
    return indexing.Slice.apply(input, index=(slice(None),) * d + (slice(start, end, step),))


def _alias(input):
    """The whole of ``input``, as a view."""
    return indexing.Alias.apply(input, index=(Ellipsis,))


def _expand(input, size, *, implicit: bool = False):
    return input.expand(size)


def _detach(input):
    return input.detach()


view_copy = _copy_of(_view, "view_copy")
alias_copy = _copy_of(_alias, "alias_copy")
detach_copy = _copy_of(_detach, "detach_copy", differentiable=False)
slice_copy = _copy_of(_slice, "slice_copy")
expand_copy = _copy_of(_expand, "expand_copy")
diagonal_copy = _copy_of(_diagonal.diagonal, "diagonal_copy")
select_copy = _copy_of(indexing.select, "select_copy")
permute_copy = _copy_of(view.permute, "permute_copy")
squeeze_copy = _copy_of(view.squeeze, "squeeze_copy")
unsqueeze_copy = _copy_of(view.unsqueeze, "unsqueeze_copy")
t_copy = _copy_of(view.t, "t_copy")
transpose_copy = _copy_of(view.transpose, "transpose_copy")
split_copy = _copy_of(joins.split, "split_copy")
split_with_sizes_copy = _copy_of(joins.split_with_sizes, "split_with_sizes_copy")
unbind_copy = _copy_of(joins.unbind, "unbind_copy")
as_strided_copy = _copy_of(scatter.as_strided, "as_strided_copy")
unfold_copy = _copy_of(scatter.unfold, "unfold_copy")


@register(out=True)
def narrow_copy(input, dim: int, start: int, length: int):
    """``narrow`` as a new tensor that shares no memory with ``input``."""
    return clone(indexing.narrow(input, dim, start, length))
