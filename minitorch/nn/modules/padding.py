"""Padding layers over ``F.pad``: constant (and zero), reflection, replication and circular, 1-D, 2-D and 3-D."""
from __future__ import annotations

from .. import functional as F
from .module import Module


def _ntuple(padding, n: int) -> tuple:
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n


class _PadNd(Module):
    mode = "constant"
    _n = 2

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, self._n)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _n = 2


class ConstantPad2d(_ConstantPadNd):
    _n = 4


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dims with a constant."""

    _n = 6


class _ZeroPad(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad, ConstantPad1d):
    pass


class ZeroPad2d(_ZeroPad, ConstantPad2d):
    pass


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    """Pad the last three dims with zeros."""


class ReflectionPad1d(_PadNd):
    mode, _n = "reflect", 2


class ReflectionPad2d(_PadNd):
    mode, _n = "reflect", 4


class ReplicationPad1d(_PadNd):
    mode, _n = "replicate", 2


class ReplicationPad2d(_PadNd):
    mode, _n = "replicate", 4


class CircularPad1d(_PadNd):
    mode, _n = "circular", 2


class CircularPad2d(_PadNd):
    mode, _n = "circular", 4


class ReflectionPad3d(_PadNd):
    """Pad the last three dims with their reflection."""

    mode, _n = "reflect", 6


class ReplicationPad3d(_PadNd):
    """Pad the last three dims by repeating their edges."""

    mode, _n = "replicate", 6


class CircularPad3d(_PadNd):
    """Pad the last three dims circularly."""

    mode, _n = "circular", 6
