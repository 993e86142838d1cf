"""Copies: clone, dtype conversion (``to``), the in-place fill_, zero_ and copy_, and ``set_`` (another tensor's
memory)."""
from __future__ import annotations

import numpy as np

from ... import _dtype
from ..._core.function import check_inplace
from ..._core.tensor import Tensor
from ..._device import _check_device, device
from ..._core.function import Op, zeros_for
from ..._dtype import wrap_int
from ..._core.shape import output_mismatch
from ..elementwise.broadcast import broadcast_shape
from ..._core.registry import register

_ndarray = np.ndarray


class Clone(Op):
    @staticmethod
    def forward(ctx, a):
        return a.copy()

    @staticmethod
    def backward(ctx, g):
        return g


class ToCopy(Op):
    """Conversion to another dtype (``.to``, ``.double()``, ...)."""

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.src = _dtype.from_numpy_dtype(a.dtype)
        if a.dtype.kind == "c" and dtype.np.kind != "c":
            a = a.real  # torch keeps the real part (numpy would warn)
        return a.astype(dtype.np)

    @staticmethod
    def backward(ctx, g):
        return to_copy(g, ctx.src)


class Fill(Op, name="FillBackward2"):
    """``fill_(value)``: every element becomes ``value``; no gradient reaches the old values."""

    @staticmethod
    def forward(ctx, a, value=0):
        r = np.empty_like(a)
        r.fill(wrap_int(value, r.dtype))
        return r

    @staticmethod
    def backward(ctx, g):
        return zeros_for(g)


Zero = Fill.named("Zero", "ZeroBackward0")


class Copy(Op, name="CopyBackwards"):
    """``dst.copy_(src)``: the destination's old values get no gradient."""

    @staticmethod
    def forward(ctx, dst, src):
        r = np.empty_like(dst)
        if type(src) is _ndarray and src.shape != dst.shape:
            shape = broadcast_shape(dst.shape, src.shape)
            if shape != dst.shape:
                raise output_mismatch(dst.shape, shape)
        r[...] = src
        return r

    @staticmethod
    def backward(ctx, g):
        return zeros_for(g), g


# ``fill_(value)`` with a 0-dim tensor ``value``, which gets the summed gradient.
FillTensor = Copy.named("FillTensor", "FillBackward3")


def to_copy(input, dtype):
    """``input`` converted to ``dtype`` (a minitorch dtype), in the graph."""
    return ToCopy.apply(input, dtype=dtype)


@register(top_level=False)
def to(self, *args, **kwargs):
    """Convert dtype (``to(minitorch.float64)``, ``to(other)``, ``to('cpu', dtype)``); device must be cpu.

    Returns ``self`` when nothing changes, unless ``copy=True``.
    """
    dt = kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    _check_device(kwargs.pop("device", None))
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, Tensor):
            dt = a.dtype
        elif isinstance(a, (str, device)):
            _check_device(a)
        elif a is not None:
            dt = a
    dt = self.dtype if dt is None else _dtype.to_dtype(dt)
    if dt is self.dtype and not copy:
        return self
    return to_copy(self, dt)


@register(differentiable=False, top_level=False)
def set_(self, source=None):
    """Make this tensor use ``source``'s memory, shape and strides (no argument: an empty tensor)."""
    check_inplace(self)
    if source is not None and not isinstance(source, Tensor):
        raise TypeError(f"set_(): argument 'source' must be Tensor, not {type(source).__name__}")
    self._data = np.empty((0,), self._data.dtype) if source is None else source._data
    self._bump("set_")
    return self


@register
def clone(input, *, memory_format=None):
    """A copy that stays in the graph (gradient flows back to ``input``)."""
    return Clone.apply(input)


# ``fill(input, value)``: a new tensor of ``value`` (torch names the out-of-place nodes differently).
FillOut = Fill.named("FillOut", "FillBackward0")
FillOutTensor = FillTensor.named("FillOutTensor", "FillBackward1")


_Fill_ = Fill.inplace_variant()
_Zero_ = Zero.inplace_variant()
_Copy_ = Copy.inplace_variant()
_FillTensor_ = FillTensor.inplace_variant()


def _fill(number_op, tensor_op, input, value):
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.dim()} dimensions.")
        return tensor_op.apply(input, value)
    return number_op.apply(input, value=value)


@register
def fill_(input, value):
    """Fill with a number, or with a one-element tensor (differentiable w.r.t. it)."""
    return _fill(_Fill_, _FillTensor_, input, value)


@register
def fill(input, value):
    """A tensor like ``input`` filled with ``value`` (a number or a 0-dim tensor, which gets the gradient)."""
    return _fill(FillOut, FillOutTensor, input, value)


@register
def zero_(input):
    return _Zero_.apply(input, value=0)


@register(top_level=False)
def copy_(input, other, non_blocking=False):
    """Copy ``other`` (broadcast) into ``input`` in place."""
    return _Copy_.apply(input, other)
