"""``x[index]`` and ``x[index] = value`` with torch's rules: integers, slices and None are applied first, as views
(select, slice, unsqueeze), then the tensor/list indices, as one advanced-indexing op (``Index``, ``IndexPut_`` in
``indexing.py``) over the dims that remain."""
from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from ..._core.tensor import Tensor
from ..._core.registry import operator_alias
from .copying import copy_, fill_
from .indexing import ARRAY, Alias, Index, IndexPut_, Select, Slice
from .view import expanded_shape, reshape, unsqueeze

_ndarray = np.ndarray


def _is_advanced(item) -> bool:
    """Tensor, list, range and bool indices (a bool is a 0-dim mask: True adds a dim of 1, False of 0)."""
    return isinstance(item, (Tensor, _ndarray, list, range, bool, np.bool_))


def _advanced_array(item, tensor_shape, dim):
    """A torch tensor/list index as a numpy array, checked as torch checks it."""
    arr = item._data if isinstance(item, Tensor) else np.asarray(item)
    if arr.dtype == np.bool_:
        shape = tensor_shape[dim:dim + arr.ndim]
        for k, (m, s) in enumerate(zip(arr.shape, shape)):
            if m != s:
                raise IndexError(f"The shape of the mask {list(arr.shape)} at index {k} does not match the shape of "
                                 f"the indexed tensor {list(tensor_shape)} at index {dim + k}")
        return arr
    if arr.dtype.kind not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if arr.size:
        size = tensor_shape[dim]
        bad = arr[(arr >= size) | (arr < -size)]
        if bad.size:
            raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")
    return arr


def _int_index(item):
    if isinstance(item, Tensor) and item._data.ndim == 0 and item._data.dtype.kind in "iu":
        return int(item._data)
    if isinstance(item, (bool, np.bool_)):
        return None
    if isinstance(item, (int, np.integer)):
        return int(item)
    return None


_SEQUENCE_INDEX = ("Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
                   "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
                   "tensor index, x[torch.tensor(seq)], which will result either in an error or a different result")


def _sequence_as_tuple(index) -> bool:
    """Whether ``index`` is read as a tuple of indices: torch (after numpy's old rule) reads so a list or other
    sequence of fewer than 32 items of which one is a tensor, a sequence, a slice, None or ``...``, and warns."""
    if isinstance(index, (Tensor, np.ndarray)) or not isinstance(index, Sequence) or len(index) >= 32:
        return False
    if any(isinstance(i, (Tensor, np.ndarray, Sequence, slice)) or i is None or i is Ellipsis for i in index):
        warnings.warn(_SEQUENCE_INDEX, UserWarning, stacklevel=4)
        return True
    return False


def _expand_index(input, index):
    """Split a torch index into basic view steps and advanced index arrays (dim, array)."""
    if not isinstance(index, tuple):
        index = tuple(index) if _sequence_as_tuple(index) else (index,)
    ndim = input._data.ndim
    consumed = sum(1 if not _is_advanced(i) else _consumed_dims(i) for i in index
                   if i is not None and i is not Ellipsis)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    steps, advanced = [], []
    d = 0         # the dim of the result so far that the next item indexes
    source = 0    # the position torch's errors name: every item counts one, whatever dims it spans
    shape = list(input._data.shape)
    for item in index:
        k = _int_index(item)
        if k is not None:
            size = shape[d]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for dimension {source} with size {size}")
            steps.append(("select", d, k % size))
            del shape[d]
            source += 1
        elif isinstance(item, slice):
            start, stop, step = item.indices(shape[d])
            if step <= 0:
                raise ValueError("step must be greater than zero")
            if (start, stop, step) != (0, shape[d], 1) or len(index) == 1:
                steps.append(("slice", d, item))
                shape[d] = len(range(start, stop, step))
            d += 1
            source += 1
        elif item is None:
            steps.append(("unsqueeze", d, None))
            shape.insert(d, 1)
            d += 1
            source += 1
        elif item is Ellipsis:
            d += ndim - consumed
            source += 1
        elif _is_advanced(item):
            arr = _advanced_array(item, tuple(shape), d)
            advanced.append((d, arr, item if isinstance(item, Tensor) else arr))
            d += arr.ndim if arr.dtype == np.bool_ else 1
            source += 1
        elif isinstance(item, str):
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                             f"valid indices (got {type(item).__name__})")
    return steps, advanced


def _consumed_dims(item) -> int:
    arr = item._data if isinstance(item, Tensor) else np.asarray(item)
    return arr.ndim if arr.dtype == np.bool_ else 1


def _apply_basic(x, steps):
    if not steps:
        return Alias.apply(x, index=(Ellipsis,))
    for kind, d, arg in steps:
        if kind == "select":
            x = Select.apply(x, index=(slice(None),) * d + (arg, Ellipsis))
        elif kind == "slice":
            x = Slice.apply(x, index=(slice(None),) * d + (arg,))
        else:
            x = unsqueeze(x, d)
    return x


def _advanced_index(advanced) -> tuple:
    """The index template and its arrays (tensors where the index gave tensors) for the advanced indices,
    checked to broadcast together."""
    shapes = [(np.count_nonzero(a),) * a.ndim if a.dtype == np.bool_ else a.shape for _, a, _ in advanced]
    if len(shapes) > 1:
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                             + ", ".join(str(list(s)) for s in shapes)) from None
    index = []
    for d, _, _ in advanced:
        index += [slice(None)] * (d - len(index)) if d > len(index) else []
        index.append(ARRAY)
    return tuple(index), [source for _, _, source in advanced]


@operator_alias("__getitem__", any_operand=True)
def getitem(self, index):
    """``self[index]`` with torch's semantics."""
    steps, advanced = _expand_index(self, index)
    if not advanced:
        return _apply_basic(self, steps)
    x = _apply_basic(self, steps) if steps else self
    template, arrays = _advanced_index(advanced)
    return Index.apply(x, *arrays, index=template)


@operator_alias("__setitem__", any_operand=True)
def setitem(self, index, value) -> None:
    """``self[index] = value`` (a tensor or a number): a fill or copy into a view, or ``index_put_`` for tensor
    indices."""
    _setitem(self, index, value)
    vc = self._vc
    if vc is not None and vc.site is not None:  # error messages name the user's operation
        vc.site = ("__setitem__",) + vc.site[1:]


def _setitem(self, index, value) -> None:
    if not isinstance(value, (Tensor, int, float, np.generic)):
        raise TypeError(f"can't assign a {_type_name(value)} to a {self.type()}")
    steps, advanced = _expand_index(self, index)
    if advanced:
        x = _apply_basic(self, steps) if steps else self
        template, arrays = _advanced_index(advanced)
        IndexPut_.apply(x, value, *arrays, index=template)
        return
    view = _apply_basic(self, steps)
    if isinstance(value, Tensor):
        shape = value._data.shape
        lead = next((i for i, s in enumerate(shape) if s != 1), len(shape))
        if lead:  # leading dims of size 1 are dropped, as torch does
            value = reshape(value, shape[lead:])
        if value._data.ndim:
            expanded_shape(value, view._data.shape)
            copy_(view, value)
            return
    fill_(view, value)


def _type_name(value) -> str:
    t = type(value)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__.split('.')[0]}.{t.__name__}"
