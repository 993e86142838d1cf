"""CPU autocast's casts, as the ops of its lists take their inputs: ``lower_precision`` for the ops of
PyTorch's lower-precision list (matmul, linear, convolutions, ...), ``full_precision`` for those of its
float32 list (losses, decompositions, ...). Each such op calls one of them on its tensor arguments first;
``minitorch.amp.autocast`` sets ``region.cast_to`` while a region is active."""
from __future__ import annotations

from types import SimpleNamespace

from .. import _dtype

region = SimpleNamespace(cast_to=None)  # the dtype of the CPU autocast region the program is in (None: not in one)


def _cast(tensors: tuple, to):
    out = []
    for t in tensors:
        if getattr(t, "is_floating_point", None) and t.is_floating_point() and t.dtype not in (to, _dtype.float64):
            t = t.to(to)
        out.append(t)
    return tuple(out) if len(out) != 1 else out[0]


def lower_precision(*tensors):
    """``tensors`` as an op of autocast's lower-precision list takes them: floating ones (not float64) in the
    autocast dtype inside an autocast region; unchanged outside one. Non-tensors pass through."""
    if region.cast_to is None:
        return tensors if len(tensors) != 1 else tensors[0]
    return _cast(tensors, region.cast_to)


def full_precision(*tensors):
    """``tensors`` as an op of autocast's float32 list takes them: floating ones (not float64) in float32
    inside an autocast region; unchanged outside one."""
    if region.cast_to is None:
        return tensors if len(tensors) != 1 else tensors[0]
    return _cast(tensors, _dtype.float32)
