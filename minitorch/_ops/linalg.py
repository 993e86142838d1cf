"""Matrix products: mm, bmm, mv, dot, addmm, and matmul built from them as torch builds
it (batch dims folded into one ``mm`` or ``bmm``, then viewed back)."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from ..autograd.function import Op
from .broadcast import _broadcast_error
from .view import UnsafeView, expand, reshape, squeeze, sum_to_size, unsqueeze


def _same_dtype(a, b):
    if a.dtype != b.dtype:
        da, db = _dtype.from_numpy_dtype(a.dtype), _dtype.from_numpy_dtype(b.dtype)
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_dtype.C_NAMES[da].lower()} != "
                           f"{_dtype.C_NAMES[db].lower()}")


def _check_mm(a, b):
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    _same_dtype(a, b)


class Mm(Op):
    @staticmethod
    def forward(ctx, a, b):
        _check_mm(a, b)
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g @ b.mT if need_a else None), (a.mT @ g if need_b else None)


class Bmm(Op):
    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 3 or b.ndim != 3:
            raise RuntimeError("batch1 must be a 3D tensor" if a.ndim != 3 else "batch2 must be a 3D tensor")
        if b.shape[:2] != (a.shape[0], a.shape[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
        _same_dtype(a, b)
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g @ b.mT if need_a else None), (a.mT @ g if need_b else None)


class Mv(Op):
    @staticmethod
    def forward(ctx, a, v):
        if a.shape[1] != v.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                               f"vec ({v.shape[0]})")
        _same_dtype(a, v)
        ctx.save_for_backward(a, v)
        return a @ v

    @staticmethod
    def backward(ctx, g):
        a, v = ctx.saved_tensors
        need_a, need_v = ctx.needs_input_grad
        ga = g.reshape((-1, 1)) * v.reshape((1, -1)) if need_a else None
        return ga, (a.mT @ g if need_v else None)


class Dot(Op):
    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to "
                               f"have the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements "
                               "respectively")
        _same_dtype(a, b)
        ctx.save_for_backward(a, b)
        return np.asarray(a @ b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a


class Addmm(Op):
    """``beta * input + alpha * (m1 @ m2)``, the fused form ``nn.Linear`` uses."""

    @staticmethod
    def forward(ctx, bias, m1, m2, beta=1, alpha=1):
        ctx.bias_shape, ctx.beta, ctx.alpha = bias.shape, beta, alpha
        _check_mm(m1, m2)
        ctx.save_for_backward(m1, m2)
        r = m1 @ m2
        if alpha != 1:
            r *= alpha
        if beta != 0:
            r += bias if beta == 1 else bias * beta
        return r

    @staticmethod
    def backward(ctx, g):
        m1, m2 = ctx.saved_tensors
        need_bias, need_m1, need_m2 = ctx.needs_input_grad
        gs = g if ctx.alpha == 1 else g * ctx.alpha
        g_bias = sum_to_size(g if ctx.beta == 1 else g * ctx.beta, ctx.bias_shape) if need_bias else None
        return g_bias, (gs @ m2.mT if need_m1 else None), (m1.mT @ gs if need_m2 else None)


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    return Mm.apply(input, mat2)


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors with the same batch size."""
    return Bmm.apply(input, mat2)


def mv(input, vec):
    return Mv.apply(input, vec)


def dot(input, other):
    return Dot.apply(input, other)


inner = dot


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return Addmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def outer(input, vec2):
    return unsqueeze(input, 1) * unsqueeze(vec2, 0)


ger = outer


def matmul(input, other):
    """Matrix product with torch's rules for 1-D operands and broadcast batch dims."""
    da, db = np.ndim(input), np.ndim(other)
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return Dot.apply(input, other)
    if da == 2 and db == 1:
        return Mv.apply(input, other)
    if da == 1 and db == 2:
        return squeeze(Mm.apply(unsqueeze(input, 0), other), 0)
    if da == 2 and db == 2:
        return Mm.apply(input, other)
    sa, sb = np.shape(input), np.shape(other)
    if da >= 3 and db <= 2:
        # fold the batch dims of ``input`` into its rows: one mm (or mv)
        folded = reshape(input, -1, sa[-1])
        out = Mv.apply(folded, other) if db == 1 else Mm.apply(folded, other)
        return UnsafeView.apply(out, shape=sa[:-1] + (() if db == 1 else (sb[-1],)))
    if da == 1:
        return squeeze(matmul(unsqueeze(input, 0), other), -2)
    if db == 1:
        return squeeze(matmul(input, unsqueeze(other, -1)), -1)
    try:
        batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        raise _broadcast_error(np.empty(sa[:-2]), np.empty(sb[:-2])) from None
    a3 = reshape(expand(input, batch + sa[-2:]), -1, *sa[-2:])
    b3 = reshape(expand(other, batch + sb[-2:]), -1, *sb[-2:])
    return UnsafeView.apply(Bmm.apply(a3, b3), shape=batch + (sa[-2], sb[-1]))
