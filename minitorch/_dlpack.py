"""DLPack exchange, through numpy's implementation: ``from_dlpack`` takes any object with ``__dlpack__``
(a numpy array, a torch CPU tensor, another minitorch tensor) or a legacy DLPack capsule and shares its
memory; ``to_dlpack`` makes such a capsule from a tensor."""
from __future__ import annotations

import numpy as np

from ._device import _check_device
from ._factories import from_numpy
from ._core.tensor import Tensor

_CPU = (1, 0)  # DLPack's (device type, id) of the CPU


class _Capsule:
    """A legacy DLPack capsule dressed as an exporter, the form ``numpy.from_dlpack`` reads."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, *args, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return _CPU


def from_dlpack(ext_tensor, *, device=None, copy: bool | None = None) -> Tensor:
    """A tensor sharing memory with ``ext_tensor`` (a CPU DLPack exporter or capsule); a copy with ``copy=True``.
    ``device``: the CPU only."""
    if isinstance(device, int):
        raise AssertionError(f"from_dlpack: unsupported device type: {type(device)}")
    _check_device(device)
    if not hasattr(ext_tensor, "__dlpack__"):
        ext_tensor = _Capsule(ext_tensor)
    arr = np.from_dlpack(ext_tensor)
    return from_numpy(arr.copy() if copy else arr)


def to_dlpack(tensor: Tensor):
    """A DLPack capsule of ``tensor``'s memory (to be consumed once by another library's ``from_dlpack``)."""
    return tensor.__dlpack__()
