"""tril and triu: the lower or upper triangle of the last two dims (the rest zero), and their
in-place forms. Each is linear: its gradient is the same triangle of the incoming gradient."""
from __future__ import annotations

import numpy as np

from ..._core.registry import register
from ..._core.function import Op


class Tril(Op):
    kernel = staticmethod(np.tril)

    @classmethod
    def forward(cls, ctx, a, diagonal=0):
        if a.ndim < 2:
            raise RuntimeError(f"{cls.kernel.__name__}: input tensor must have at least 2 dimensions")
        ctx.diagonal = diagonal
        return cls.kernel(a, diagonal)

    @classmethod
    def backward(cls, ctx, g):
        return cls.apply(g, diagonal=ctx.diagonal)


class Triu(Tril):
    kernel = staticmethod(np.triu)


_Tril_, _Triu_ = Tril.inplace_variant(), Triu.inplace_variant()


@register(out=True)
def tril(input, diagonal: int = 0):
    """The lower triangle (on and below ``diagonal``) of the last two dims; zeros elsewhere."""
    return Tril.apply(input, diagonal=diagonal)


@register(out=True)
def triu(input, diagonal: int = 0):
    """The upper triangle (on and above ``diagonal``) of the last two dims; zeros elsewhere."""
    return Triu.apply(input, diagonal=diagonal)


@register(top_level=False)
def tril_(input, diagonal: int = 0):
    return _Tril_.apply(input, diagonal=diagonal)


@register(top_level=False)
def triu_(input, diagonal: int = 0):
    return _Triu_.apply(input, diagonal=diagonal)
