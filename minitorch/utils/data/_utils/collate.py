"""Turning a list of samples into a batch: ``default_collate`` and ``default_convert``.

``collate`` walks the structure of the first sample: containers (mappings, namedtuples,
sequences) are rebuilt with their fields collated across the batch; leaves (tensors, numpy
arrays, numbers, strings) are handled by the function registered for their type in
``default_collate_fn_map`` (extend it to teach ``default_collate`` a new type).
"""
from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable

import numpy as np

from .... import _dtype
from ...._factories import as_tensor, tensor
from ...._ops.shape.joins import stack
from ...._core.tensor import Tensor

_STRING_OR_OBJECT = re.compile(r"[SaUO]")  # numpy dtype codes that cannot become tensors
_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_convert(data):
    """Turn numpy arrays and numpy scalars inside ``data`` into tensors; leave everything else as is.

    This is the DataLoader's ``collate_fn`` when automatic batching is off (``batch_size=None``).
    """
    if isinstance(data, Tensor):
        return data
    if type(data).__module__ == "numpy" and not isinstance(data, np.str_):
        if isinstance(data, np.ndarray) and _STRING_OR_OBJECT.search(data.dtype.str):
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data


def collate(batch: list | tuple, *, collate_fn_map: dict[type | tuple[type, ...], Callable] | None = None):
    """Collate ``batch`` using ``collate_fn_map`` (type -> ``fn(batch, *, collate_fn_map)``) for the leaves."""
    elem = batch[0]
    if collate_fn_map is not None:
        if type(elem) in collate_fn_map:
            return collate_fn_map[type(elem)](batch, collate_fn_map=collate_fn_map)
        for collate_type, fn in collate_fn_map.items():
            if isinstance(elem, collate_type):
                return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                                       for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        collated = [collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        # Tuples become lists, as in torch (backwards compatibility there).
        return collated if isinstance(elem, tuple) else _rebuild_sequence(elem, collated)
    raise TypeError(_ERROR.format(type(elem)))


def _rebuild_mapping(like, values: dict):
    """``values`` in a mapping of the same type as ``like`` where that type allows it, else a dict."""
    try:
        if isinstance(like, collections.abc.MutableMapping):
            clone = copy.copy(like)  # keeps any extra attributes of a custom mapping type
            clone.update(values)
            return clone
        return type(like)(values)
    except TypeError:
        return values


def _rebuild_sequence(like, values: list):
    """``values`` in a sequence of the same type as ``like`` where that type allows it, else a list."""
    try:
        if isinstance(like, collections.abc.MutableSequence):
            clone = copy.copy(like)
            for i, value in enumerate(values):
                clone[i] = value
            return clone
        return type(like)(values)
    except TypeError:
        return values


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if _STRING_OR_OBJECT.search(batch[0].dtype.str):
        raise TypeError(_ERROR.format(batch[0].dtype))
    return collate([as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return tensor(batch, dtype=_dtype.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return tensor(batch)  # int64, or bool for a batch of bools


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map: dict[type | tuple[type, ...], Callable] = {
    Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch: list):
    """Stack a list of samples into a batch with a new leading dimension.

    Tensors are stacked; numpy arrays become tensors and are stacked; Python floats give a
    float64 tensor, ints an int64 tensor, bools a bool tensor; strings and bytes are left as
    they come (a list at the top level, a tuple inside a transposed sequence, as in torch).
    Mappings, namedtuples and other sequences keep their structure with each field collated
    across the batch (tuples come back as lists). Sequences must all have the same length.
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)
