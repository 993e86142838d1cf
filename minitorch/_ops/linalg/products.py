"""Matrix products: mm, bmm, mv, dot, addmm, and matmul built from them as torch builds
it (batch dims folded into one ``mm`` or ``bmm``, then viewed back); the fused ``add*`` forms,
tensordot, multi_dot and the adjoint."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import lower_precision
from ... import _dtype
from ..._core.tensor import _C_TYPE_NAMES, Tensor, _wrap_dim
from ..._core.function import Op
from ..._core.out import _out
from ..elementwise.broadcast import broadcast_shape
from ..elementwise.complex import conj_if_complex as _conj
from ..._core.registry import functional_op, operator_alias, register
from ..shape.view import (Squeeze, UnsafeView, View, contiguous, expand, expanded_shape, permute, reshape, squeeze,
                          sum_to_size, t, transpose, unsqueeze, view)
from ..shape.joins import stack
from ..._core.samples import mt, leaf, quiet


def _same_dtype(a, b):
    if a.dtype != b.dtype:
        da, db = _dtype.from_numpy_dtype(a.dtype), _dtype.from_numpy_dtype(b.dtype)
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_C_TYPE_NAMES[da]} != "
                           f"{_C_TYPE_NAMES[db]}")


def _check_mm(a, b):
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    _same_dtype(a, b)


def _product_like(x, left, right):
    """``left @ right``, the gradient of ``x``, laid out like ``x`` (as torch does): computed as
    ``(right.mT @ left.mT).mT`` when ``x`` is a transposed matrix, such as ``linear``'s
    ``weight.t()``, so that the weight's gradient comes back contiguous."""
    if type(x) is np.ndarray and x.ndim >= 2 and x.strides[-2] < x.strides[-1]:
        return (right.mT @ left.mT).mT
    return left @ right


def _mm_grads(g, a, b, need_a, need_b):
    return ((_product_like(a, g, _conj(b.mT)) if need_a else None),
            (_product_like(b, _conj(a.mT), g) if need_b else None))


class Mm(Op):
    check = staticmethod(_check_mm)  # the operands' shapes and dtypes, with torch's errors

    @staticmethod
    def forward(ctx, a, b):
        ctx.check(a, b)
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return _mm_grads(g, a, b, *ctx.needs_input_grad)


def _check_bmm(a, b):
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.ndim != 3 else "batch2 must be a 3D tensor")
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    _same_dtype(a, b)


class Bmm(Mm):
    check = staticmethod(_check_bmm)


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
        ga = g.reshape((-1, 1)) * _conj(v.reshape((1, -1))) if need_a else None
        return ga, (_conj(a.mT) @ g if need_v else None)


class Dot(Op):
    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
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
        return g * _conj(b), g * _conj(a)


class Vdot(Dot):
    """The conjugating dot product: for real tensors the same as ``Dot``."""


class _AddProduct(Op):
    """``beta * input + alpha * product(m1, m2)``, the fused ops (addmm, addmv, addr, baddbmm, addbmm): each
    subclass names its ``check``, its ``product`` and that product's ``grads``. With ``beta`` 0 the input's
    values (nan included) do not reach the result."""

    @staticmethod
    def check(m1, m2, bias_shape) -> None:
        raise NotImplementedError

    @staticmethod
    def product(m1, m2):
        return m1 @ m2

    @staticmethod
    def grads(g, m1, m2, need_m1, need_m2):
        return _mm_grads(g, m1, m2, need_m1, need_m2)

    @staticmethod
    def inplace_error(bias, m1, m2, result) -> RuntimeError:
        """torch's error for an in-place form whose input cannot hold the result."""
        return RuntimeError(f"Bad in-place call: input tensor size {list(bias.shape)} and output tensor size "
                            f"{list(result.shape)} should match")

    @classmethod
    def forward(cls, ctx, bias, m1, m2, beta=1, alpha=1):
        ctx.bias_shape, ctx.beta, ctx.alpha = bias.shape, beta, alpha
        cls.check(m1, m2, bias.shape)
        r = cls.product(m1, m2)
        if cls.inplace and bias.shape != r.shape:
            raise cls.inplace_error(bias, m1, m2, r)
        expanded_shape(bias, r.shape)
        ctx.save_for_backward(m1, m2)
        if alpha != 1:
            r *= alpha
        if beta != 0:
            r += bias if beta == 1 else bias * beta
        return r

    @classmethod
    def backward(cls, ctx, g):
        m1, m2 = ctx.saved_tensors
        need_bias, need_m1, need_m2 = ctx.needs_input_grad
        gs = g if ctx.alpha == 1 else g * ctx.alpha
        g_bias = sum_to_size(g if ctx.beta == 1 else g * ctx.beta, ctx.bias_shape) if need_bias else None
        return (g_bias,) + cls.grads(gs, m1, m2, need_m1, need_m2)


class Addmm(_AddProduct):
    """``beta * input + alpha * (m1 @ m2)``, the fused form ``nn.Linear`` uses."""

    @staticmethod
    def check(m1, m2, bias_shape):
        _check_mm(m1, m2)


class Addmv(_AddProduct):
    @staticmethod
    def check(mat, vec, bias_shape):
        if mat.ndim == 2 and vec.ndim == 1 and (mat.shape[1] != vec.shape[0] or
                                                bias_shape[-1:] not in ((), (1,), (mat.shape[0],))):
            size = bias_shape[0] if bias_shape else 1
            raise RuntimeError(f"size mismatch, got input ({size}), mat ({mat.shape[0]}x{mat.shape[1]}), "
                               f"vec ({vec.shape[0]})")
        _same_dtype(mat, vec)

    @staticmethod
    def grads(g, mat, vec, need_mat, need_vec):
        return (unsqueeze(g, -1) * vec if need_mat else None), (mat.mT @ g if need_vec else None)


class Addr(_AddProduct):
    @staticmethod
    def check(vec1, vec2, bias_shape):
        for name, v in (("vec1", vec1), ("vec2", vec2)):
            if v.ndim != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.ndim}-D")

    @staticmethod
    def product(vec1, vec2):
        return vec1[:, None] * vec2[None, :]

    @staticmethod
    def inplace_error(bias, vec1, vec2, result):
        if bias.ndim != 2:
            return RuntimeError(f"2D tensor expected, got {bias.ndim}D tensor for input")
        return RuntimeError(f"size mismatch, input: {list(bias.shape)}, v1: {list(vec1.shape)}, v2: "
                            f"{list(vec2.shape)}")

    @staticmethod
    def grads(g, vec1, vec2, need1, need2):
        return (g @ vec2 if need1 else None), (g.mT @ vec1 if need2 else None)


class Baddbmm(_AddProduct):
    @staticmethod
    def check(batch1, batch2, bias_shape):
        _check_bmm(batch1, batch2)


class Addbmm(_AddProduct):
    """The products of the batch summed: one (n, b*k) by (b*k, p) product."""

    @staticmethod
    def check(batch1, batch2, bias_shape):
        for name, b in (("batch1", batch1), ("batch2", batch2)):
            if b.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        if batch1.shape[0] != batch2.shape[0]:
            raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
                               f"{batch2.shape[0]}")
        _check_bmm(batch1, batch2)

    @staticmethod
    def product(batch1, batch2):
        b, n, k = batch1.shape
        return batch1.transpose(1, 0, 2).reshape(n, b * k) @ batch2.reshape(b * k, batch2.shape[2])

    @staticmethod
    def grads(g, batch1, batch2, need1, need2):
        return (matmul(g, batch2.mT) if need1 else None), (matmul(batch1.mT, g) if need2 else None)


def _no_out_dtype_kernel(op: str, out_dtype, out=None) -> None:
    """The ``out_dtype`` overloads of the matrix products have no CPU kernel in torch: a dtype given raises its
    dispatcher's error."""
    if out_dtype is not None:
        overload = "dtype_out" if out is not None else "dtype"
        raise NotImplementedError(
            f"Could not run 'aten::{op}.{overload}' with arguments from the 'CPU' backend. This could be because the "
            "operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
            "using custom build).")


@register(out=True, sample=(None, lambda: (leaf(2, 3), leaf(3, 4))))
def mm(input, mat2, out_dtype=None):
    """Matrix product of two 2-D tensors (the first one may be sparse: see ``minitorch.sparse``)."""
    _no_out_dtype_kernel("mm", out_dtype)
    if input.is_sparse:
        return input.mm(mat2)
    input, mat2 = lower_precision(input, mat2)
    return Mm.apply(input, mat2)


@register(out=True, sample=(None, lambda: (leaf(2, 2, 3), leaf(2, 3, 2))))
def bmm(input, mat2, out_dtype=None):
    """Batched matrix product of two 3-D tensors with the same batch size."""
    _no_out_dtype_kernel("bmm", out_dtype)
    input, mat2 = lower_precision(input, mat2)
    return Bmm.apply(input, mat2)


@register(out=True, sample=(None, lambda: (leaf(2, 3), leaf(3))))
def mv(input, vec):
    return Mv.apply(input, vec)


@register(out=True, sample=(None, lambda: (leaf(4), leaf(4, seed=1))))
def dot(input, tensor):
    """Inner product of two 1-D tensors."""
    return Dot.apply(input, tensor)


@register(binary=True, out=True)
def inner(input, other):
    """Sum of products over the last dims: shape ``input.shape[:-1] + other.shape[:-1]``."""
    input, other = lower_precision(input, other)
    sa, sb = np.shape(input), np.shape(other)
    if not sa or not sb:
        return input * other
    if sa[-1] != sb[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes {list(sa)} "
                           f"and {list(sb)}")
    return view(Mm.apply(reshape(input, -1, sa[-1]), t(reshape(other, -1, sb[-1]))), sa[:-1] + sb[:-1])


@register(out=True, sample=(None, lambda: (leaf(2, 4), leaf(2, 3), leaf(3, 4))))
def addmm(input, mat1, mat2, out_dtype=None, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    _no_out_dtype_kernel("addmm", out_dtype)
    input, mat1, mat2 = lower_precision(input, mat1, mat2)
    return Addmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def deprecated(message: str) -> None:
    """torch's warning for a legacy linear algebra function, pointing at the caller."""
    warnings.warn(message, UserWarning, stacklevel=3)


@register(sample=(lambda i, m, v: mt.addmv(i, m, v, beta=0.5, alpha=2),
                  lambda: (leaf(2), leaf(2, 3, seed=1), leaf(3, seed=2))))
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * (mat @ vec)``."""
    return _out(Addmv.apply(input, mat, vec, beta=beta, alpha=alpha), out)


@register(sample=(lambda i, a, b: mt.addr(i, a, b, beta=2), lambda: (leaf(2, 3), leaf(2, seed=1), leaf(3, seed=2))))
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    return _out(Addr.apply(input, vec1, vec2, beta=beta, alpha=alpha), out)


@register(sample=(lambda i, a, b: mt.baddbmm(i, a, b, alpha=0.5), lambda: (leaf(2, 2, 4), leaf(2, 2, 3, seed=1),
                                                                         leaf(2, 3, 4, seed=2))))
def baddbmm(input, batch1, batch2, out_dtype=None, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    _no_out_dtype_kernel("baddbmm", out_dtype, out)
    input, batch1, batch2 = lower_precision(input, batch1, batch2)
    return _out(Baddbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha), out)


@register(sample=(lambda i, a, b: mt.addbmm(i, a, b, beta=3),
                  lambda: (leaf(2, 4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2))))
def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]``: the batch of products summed."""
    input, batch1, batch2 = lower_precision(input, batch1, batch2)
    return _out(Addbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha), out)


addmm_ = Addmm.inplace_function("addmm_",
                                sample=(lambda i, a, b: (i * 1).addmm_(a, b, beta=2),
                                        lambda: (leaf(2, 4), leaf(2, 3, seed=1), leaf(3, 4, seed=2))))
# torch.addmv_ exists; the others are methods only
addmv_ = Addmv.inplace_function("addmv_", top_level=True,
                                sample=(lambda i, m, v: (i * 1).addmv_(m, v, alpha=2),
                                        lambda: (leaf(2), leaf(2, 3, seed=1), leaf(3, seed=2))))
addr_ = Addr.inplace_function("addr_",
                              sample=(lambda i, a, b: (i * 1).addr_(a, b),
                                      lambda: (leaf(2, 3), leaf(2, seed=1), leaf(3, seed=2))))
baddbmm_ = Baddbmm.inplace_function("baddbmm_",
                                    sample=(lambda i, a, b: (i * 1).baddbmm_(a, b),
                                            lambda: (leaf(2, 2, 4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2))))
addbmm_ = Addbmm.inplace_function("addbmm_",
                                  sample=(lambda i, a, b: (i * 1).addbmm_(a, b),
                                          lambda: (leaf(2, 4), leaf(2, 2, 3, seed=1), leaf(2, 3, 4, seed=2))))


@register(sample=(None, lambda: (leaf(4), leaf(4, seed=1))))
def vdot(input, other, *, out=None):
    """The dot product of two 1-D tensors (for real tensors the same as ``dot``)."""
    return _out(Vdot.apply(input, other), out)


@register(method=False,
          sample=(lambda a, b: mt.tensordot(a, b, dims=([0, 2], [1, 0])),
                  lambda: (leaf(2, 3, 4), leaf(4, 2, 5, seed=1))))
def tensordot(a, b, dims=2, out=None):
    """Sums of products over ``dims``: the last ``dims`` dims of ``a`` with the first of ``b`` (an int), or the
    listed dims of each (a pair of lists)."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        da, db = list(range(-dims, 0)), list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(da) != len(db):
        raise RuntimeError("both dimension lists should have same length")
    for i, j in zip(da, db):
        if a.shape[i] != b.shape[j]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[i]} in dim {i} "
                               f"and second has size {b.shape[j]} in dim {j}")
    ca, cb = [_wrap_dim(d, a.dim()) for d in da], [_wrap_dim(d, b.dim()) for d in db]
    fa, fb = [d for d in range(a.dim()) if d not in ca], [d for d in range(b.dim()) if d not in cb]
    if fa or fb:  # (torch contracting every dim computes no matrix product: autocast leaves that one alone)
        a, b = lower_precision(a, b)
    k = int(np.prod([a.shape[d] for d in ca], dtype=np.int64))
    sa, sb = [a.shape[d] for d in fa], [b.shape[d] for d in fb]
    m = Mm.apply(reshape(permute(a, *fa, *ca), -1, k), reshape(permute(b, *cb, *fb), k, -1))
    return _out(reshape(m, *sa, *sb), out)


def _chain_order(shapes: list[tuple[int, int]]) -> list[list[int]]:
    """The cheapest parenthesisation of a chain of matrices by dynamic programming: split[i][j] is where the
    product of matrices i..j splits."""
    n = len(shapes)
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j], split[i][j] = min((cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1], k)
                                          for k in range(i, j))
    return split


def _chain(tensors, split, i, j):
    if i == j:
        return tensors[i]
    k = split[i][j]
    return Mm.apply(_chain(tensors, split, i, k), _chain(tensors, split, k + 1, j))


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices in the cheapest order (the first and last may be vectors)."""
    tensors = list(tensors)
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for i, x in enumerate(tensors):
        allowed = (1, 2) if i in (0, n - 1) else (2,)
        if x.dim() not in allowed:
            where_ = "first" if i == 0 else "last" if i == n - 1 else None
            raise RuntimeError(f"multi_dot(): the {where_} tensor must be 1D or 2D but got {x.dim()}D" if where_
                               else f"multi_dot(): tensor {i} must be 2D but got {x.dim()}D")
    first_vec, last_vec = tensors[0].dim() == 1, tensors[-1].dim() == 1
    if first_vec:
        tensors[0] = unsqueeze(tensors[0], 0)
    if last_vec:
        tensors[-1] = unsqueeze(tensors[-1], 1)
    for i in range(n - 1):
        if tensors[i].shape[1] != tensors[i + 1].shape[0]:
            shape = [list(x.shape) for x in (tensors[i], tensors[i + 1])]
            if first_vec and i == 0:
                shape[0] = shape[0][1:]
            if last_vec and i + 1 == n - 1:
                shape[1] = shape[1][:1]
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {shape[0]} and {shape[1]} cannot "
                               "be multiplied")
    result = _chain(tensors, _chain_order([tuple(x.shape) for x in tensors]), 0, n - 1)
    if first_vec or last_vec:
        result = reshape(result, *(d for d, keep in zip(result.shape, (not first_vec, not last_vec)) if keep))
    return _out(result, out)


@register(method=False,
          sample=(quiet(lambda *a: mt.chain_matmul(*a)), lambda: (leaf(2, 3), leaf(3, 4, seed=1), leaf(4, 2, seed=2))))
def chain_matmul(*matrices, out=None):
    """Deprecated form of ``linalg.multi_dot`` taking the matrices as arguments."""
    deprecated("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
               "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
               "parameters.")
    for x in matrices:
        if x.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {x.dim()}, expected 2 instead.")
    if len(matrices) == 1:
        return _out(matrices[0].clone(), out)
    return multi_dot(matrices, out=out)


def _matrix_transpose(input, name: str):
    nd = input.dim()
    if nd < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got {nd}-D tensor.")
    return transpose(input, -2, -1)


@register
def adjoint(input):
    """The conjugate transpose of the last two dims, a view (for real tensors: the transpose)."""
    return _matrix_transpose(input, "adjoint()")


def mH_property(self):
    """``x.mH``: the conjugate transpose of the last two dims."""
    return _matrix_transpose(self, "mH")


def H_property(self):
    """``x.H``: the conjugate transpose of a matrix."""
    nd = self.dim()
    if nd == 0:
        warnings.warn("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2)
        return view(self, ())
    if nd != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {nd}-D tensor." +
                           (" For batches of matrices, consider using tensor.mH" if nd > 2 else ""))
    return transpose(self, 0, 1)


@register(binary=True, out=True)
def outer(input, vec2):
    """``input[i] * vec2[j]`` for 1-D tensors."""
    for name, x in (("self", input), ("vec2", vec2)):
        if np.ndim(x) != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {np.ndim(x)}-D")
    return unsqueeze(input, 1) * vec2


ger = register(outer, name="ger")


class SqueezeOut(Squeeze, name="SqueezeBackward4"):
    """The in-place ``squeeze_`` torch applies to the fresh result of a vector-matrix product (not a view)."""

    view = False


@register(binary=True)
def matmul(input, other, *, out=None):
    """Matrix product with torch's rules for 1-D operands and broadcast batch dims.

    As in torch: a batch against a matrix or vector is folded into one ``mm``/``mv``
    (transposed when the batch is on the right); other batched cases expand both
    operands to the broadcast batch and run one ``bmm``. ``out``: a tensor to write the result into.
    """
    input, other = lower_precision(input, other)
    return _out(_product(input, other), out)


@operator_alias("__rmatmul__")
def _rproduct(self, other):
    return _product(other, self)


@operator_alias("__matmul__")
def _product(input, other):
    """``matmul`` without ``out``."""
    if getattr(input, "is_sparse", False):
        return input.mm(other)
    input, other = lower_precision(input, other)
    da, db = np.ndim(input), np.ndim(other)
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):  # arrays, in a first-order backward
        return np.matmul(input, other)
    if da == 1 and db == 1:
        return Dot.apply(input, other)
    if da == 2 and db == 1:
        return Mv.apply(input, other)
    if da == 1 and db == 2:
        return SqueezeOut.apply(Mm.apply(unsqueeze(input, 0), other), dims=(0,))
    if da == 2 and db == 2:
        return Mm.apply(input, other)
    if _should_fold(input, other):
        return _folded(input, other)
    sa, sb = np.shape(input), np.shape(other)
    if da == 3 and db == 3 and sa[0] != sb[0]:  # a batch of one that requires grad is squeezed, as in torch
        if sa[0] == 1 and getattr(input, "_requires_grad", False):
            return _product(squeeze(input, 0), other)
        if sb[0] == 1 and getattr(other, "_requires_grad", False):
            return _product(input, squeeze(other, 0))
    return _batched(input, other)


def _should_fold(a, b) -> bool:
    """torch's choice: fold when the smaller operand requires grad, or when the larger folds without a copy."""
    big, small = (a, b) if np.ndim(a) >= np.ndim(b) else (b, a)
    if np.ndim(big) < 3 or np.ndim(small) > 2:
        return False
    if getattr(small, "_requires_grad", False):
        return True
    if np.ndim(a) == 2:
        return False  # folding would need a transpose and a copy of the result
    arr = big._data if big is a else np.swapaxes(big._data, -1, -2)
    if arr.size == 0:
        return True
    return all(arr.strides[i] == arr.strides[i + 1] * arr.shape[i + 1] for i in range(arr.ndim - 2))


def _folded(a, b):
    """A batch (N-D) against a matrix or vector as one ``mm``/``mv`` over the batch folded into rows."""
    swap = np.ndim(b) > np.ndim(a)
    big = transpose(b, -1, -2) if swap else a
    small = (t(a) if np.ndim(a) == 2 else a) if swap else b
    sizes = np.shape(big)
    folded = reshape(big, math.prod(sizes[:-1]), sizes[-1])  # not -1: ambiguous when a size is 0
    if np.ndim(small) == 1:
        return UnsafeView.apply(Mv.apply(folded, small), shape=sizes[:-1])
    out = UnsafeView.apply(Mm.apply(folded, small), shape=sizes[:-1] + (np.shape(small)[1],))
    return contiguous(transpose(out, -1, -2)) if swap else out


def _batched(a, b):
    """Both operands expanded to the broadcast batch shape and multiplied by one ``bmm``."""
    sa, sb = np.shape(a), np.shape(b)
    n, m1 = (sa[-2] if len(sa) > 1 else 1), sa[-1]
    m2, p = (sb[-2], sb[-1]) if len(sb) > 1 else (sb[0], 1)
    batch = broadcast_shape(sa[:-2], sb[:-2])
    count = math.prod(batch)  # not -1: ambiguous when a size is 0
    a3 = reshape(expand(a, batch + (n, m1)), count, n, m1)
    if len(sb) > 1:
        b3 = reshape(expand(b, batch + (m2, p)), count, m2, p)
    else:
        b3 = unsqueeze(reshape(expand(b, batch + (m2,)), count, m2), 2)
    out = Bmm.apply(a3, b3)
    shape = batch + ((n,) if len(sa) > 1 else ()) + ((p,) if len(sb) > 1 else ())
    return UnsafeView.apply(out if len(sb) > 1 else squeeze(out, -1), shape=shape)


# ---- einsum -----------------------------------------------------------------------------------------------
def _einsum_subscripts(equation: str, ndims: list[int]) -> tuple[list[str], str]:
    """Input and output subscripts of ``equation`` with ``...`` spelled out as letters (right-aligned)."""
    equation = equation.replace(" ", "")
    lhs, arrow, out = equation.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ndims):
        raise ValueError("einsum(): more operands were provided than specified in the equation"
                         if len(ndims) > len(ins) else "einsum(): fewer operands were provided than specified in "
                         "the equation")
    free = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in equation]
    width = max((n - len(s.replace("...", "")) for s, n in zip(ins, ndims) if "..." in s), default=0)
    ell = "".join(free[:width])
    ins = [s.replace("...", ell[width - (n - len(s.replace("...", ""))):]) for s, n in zip(ins, ndims)]
    if arrow:
        out = out.replace("...", ell)
    else:  # implicit output: the ellipsis dims, then the letters used once, in order
        letters = "".join(ins)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell))
    return ins, out


class Einsum(Op):
    """``einsum(equation, *operands)``; each operand's gradient is another einsum of the others."""

    @staticmethod
    def forward(ctx, *operands, equation=""):
        ins, out = _einsum_subscripts(equation, [np.ndim(o) for o in operands])
        ctx.ins, ctx.out, ctx.shapes = ins, out, [np.shape(o) for o in operands]
        ctx.save_for_backward(*operands)
        return np.asarray(np.einsum(",".join(ins) + "->" + out, *operands))

    @staticmethod
    def backward(ctx, g):
        operands = ctx.saved_tensors
        grads = []
        for i, (sub, need) in enumerate(zip(ctx.ins, ctx.needs_input_grad)):
            if not need:
                grads.append(None)
                continue
            if len(set(sub)) != len(sub):
                raise NotImplementedError("minitorch: the einsum gradient of an operand with a repeated index "
                                          f"('{sub}': a trace or a diagonal) is not implemented")
            others = [s for j, s in enumerate(ctx.ins) if j != i]
            seen = set(ctx.out).union(*others)
            kept = "".join(c for c in sub if c in seen)
            spec = ",".join([ctx.out] + others) + "->" + kept
            part = Einsum.apply(g, *[_conj(o) for j, o in enumerate(operands) if j != i], equation=spec)
            shape = ctx.shapes[i]
            if kept != sub:  # letters summed within this operand alone: the gradient is constant along them
                part = expand(part.reshape(tuple(n if c in kept else 1 for c, n in zip(sub, shape))), shape)
            grads.append(part)
        return tuple(grads)


@register(sample=(lambda a, b, c: mt.einsum("ij,jk,k->i", a, b, c),
                  lambda: (leaf(2, 3), leaf(3, 4, seed=1), leaf(4, seed=2))))
def einsum(equation: str, *operands):
    """Sums of products over the indices ``equation`` names, as ``numpy.einsum``/``torch.einsum``."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    operands = tuple(lower_precision(o) for o in operands)
    return Einsum.apply(*operands, equation=equation)


# ---- products and distances written with other ops -----------------------------------------------------------
@register(out=True, sample=(lambda a, b: mt.cross(a, b, dim=1), lambda: (leaf(2, 3), leaf(2, 3, seed=1))))
def cross(input, other, dim: int | None = None):
    """The cross product of 3-vectors along ``dim`` (the first dim of size 3 when not given)."""
    if dim is None:
        dim = next((d for d, n in enumerate(np.shape(input)) if n == 3), -1)
    d = _wrap_dim(dim, np.ndim(input))
    if np.shape(input)[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {np.shape(input)[d]} and "
                           f"{np.shape(other)[d]}")
    a = [input.select(d, i) for i in range(3)]
    b = [other.select(d, i) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return stack(parts, d)


@register(out=True, sample=(None, lambda: (leaf(2, 3), leaf(3, 2, seed=1))))
def kron(input, other):
    """The Kronecker product: every entry of ``input`` times the whole of ``other``, tiled."""
    nd = max(input.dim(), other.dim())
    a = input.reshape((1,) * (nd - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (nd - other.dim()) + tuple(other.shape))
    a_e = a.reshape(tuple(x for n in a.shape for x in (n, 1)))
    b_e = b.reshape(tuple(x for n in b.shape for x in (1, n)))
    return (a_e * b_e).reshape(tuple(m * n for m, n in zip(a.shape, b.shape)))


# ---- the nn.functional forms ---------------------------------------------------------------------------------------
@functional_op(sample=(None, lambda: (leaf(2, 3), leaf(4, 3, seed=1), leaf(4, seed=2))))
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: one addmm (batch dims folded into rows), or a matmul without bias."""
    input, weight, bias = lower_precision(input, weight, bias)
    if bias is None:
        return matmul(input, weight.t())
    for name, arg in (("self", bias), ("mat1", input)):  # torch's addmm checks
        if arg._data.dtype != weight._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {_dtype.C_NAMES[arg.dtype]} and "
                               f"{_dtype.C_NAMES[weight.dtype]}")
    if input.dim() == 2:
        return Addmm.apply(bias, input, weight.t())
    shape = input.shape
    out = Addmm.apply(bias, reshape(input, -1, shape[-1]), weight.t())
    return View.apply(out, shape=tuple(shape[:-1]) + (weight.shape[0],))


@register(method=False, functional=True,
          sample=(None, lambda: (leaf(2, 3), leaf(2, 4, seed=1), leaf(5, 3, 4, seed=2), leaf(5, seed=3))))
def bilinear(input1, input2, weight, bias=None) -> Tensor:
    """``y[..., o] = input1 @ weight[o] @ input2 + bias[o]``."""
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for d in range(input1.dim() - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: got "
                               f"{input1.shape[d]} and {input2.shape[d]}")
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but "
                           f"expected {weight.shape[1]}")
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but "
                           f"expected {weight.shape[2]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    out = einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias
