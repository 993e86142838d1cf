"""Complex numbers: real and imaginary parts, conjugation, ``view_as_real``/``view_as_complex``,
``complex``, ``polar``, ``sgn`` and ``angle``.

Gradients follow PyTorch's convention: the gradient of a real loss ``L`` w.r.t. a complex ``z``
is ``dL/dRe(z) + i dL/dIm(z)``; so a holomorphic ``f`` has ``grad_in = grad_out * conj(f'(z))``,
and a real input receives the real part of a complex gradient (the engine takes it).
"""
from __future__ import annotations

import builtins
import functools

import numpy as np

from ... import _dtype
from ..._core.registry import register
from ..._core.tensor import Tensor
from ..._core.function import Op, zeros_for
from ..return_types import _return_type
from .broadcast import broadcast_shape
from ..shape.view import contiguous
from .clamp import where
from ..._core.samples import mt, leaf, cx

_as_strided = np.lib.stride_tricks.as_strided


def _is_complex(x) -> bool:
    """Whether ``x`` (array, tensor or number) holds complex values."""
    if isinstance(x, Tensor):
        return x._data.dtype.kind == "c"
    return np.iscomplexobj(x)


def conj_if_complex(x):
    """``conj(x)`` for complex ``x`` (an array, tensor or number), else ``x``: what backward formulas take
    from a factor or a derivative (``grad_in = grad_out * conj(f'(z))``)."""
    t = type(x)
    if t is np.ndarray:  # the common cases, first
        return np.conj(x) if x.dtype.kind == "c" else x
    if t is float or t is int:
        return x
    if t is builtins.complex:  # a Python number keeps its weak type in promotion (`complex` is torch.complex here)
        return x.conjugate()
    return Conj.apply(x) if _is_complex(x) else x


def _type_name(a: np.ndarray) -> str:
    return _dtype.C_NAMES[_dtype.from_numpy_dtype(a.dtype)]


class Real(Op, name="SelectBackward0"):  # (torch selects from view_as_real)
    """The real part of a complex tensor (a view)."""

    view = True

    @staticmethod
    def forward(ctx, a):
        return a.real

    @staticmethod
    def backward(ctx, g):
        return g  # the engine makes it the complex gradient g + 0j


class Imag(Op, name="SelectBackward0"):
    """The imaginary part of a complex tensor (a view)."""

    view = True

    @staticmethod
    def forward(ctx, a):
        return a.imag

    @staticmethod
    def backward(ctx, g):
        return g * 1j


class Conj(Op):
    """The complex conjugate (a copy; torch's lazy conjugate bit does not exist here)."""

    @staticmethod
    def forward(ctx, a):
        return np.conj(a)

    @staticmethod
    def backward(ctx, g):
        return Conj.apply(g)


class ConjPhysical(Conj):
    """``conj_physical``: the same, named as torch names it."""


class ViewAsReal(Op):
    """A complex tensor seen as real pairs in a new last dimension of size 2 (a view)."""

    view = True

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind != "c":
            raise RuntimeError("view_as_real is only supported for complex tensors")
        re = a.real  # the float view of the same memory, then a last dim stepping from real to imaginary part
        return _as_strided(re, a.shape + (2,), a.strides + (re.itemsize,))

    @staticmethod
    def backward(ctx, g):
        return ViewAsComplex.apply(contiguous(g) if isinstance(g, Tensor) else np.ascontiguousarray(g))


class ViewAsComplex(Op):
    """Real pairs in the last dimension (of size 2) seen as a complex tensor (a view)."""

    view = True

    @staticmethod
    def forward(ctx, a):
        if a.dtype not in (np.float32, np.float64):
            raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a "
                               f"tensor of scalar type: {_type_name(a)}" if a.dtype != np.float16 else
                               "minitorch has no complex32 dtype (numpy has none): view float32 pairs instead")
        if a.ndim == 0 or a.shape[-1] != 2:
            raise RuntimeError("Tensor must have a last dimension of size 2")
        if a.strides[-1] != a.itemsize:
            raise RuntimeError("Tensor must have a last dimension with stride 1")
        if any(s % (2 * a.itemsize) for s in a.strides[:-1]):
            raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
        return a.view(np.complex64 if a.dtype == np.float32 else np.complex128)[..., 0]

    @staticmethod
    def backward(ctx, g):
        return ViewAsReal.apply(g)


class Complex(Op):
    """``real + i imag`` from two real tensors of the same dtype (broadcast)."""

    @staticmethod
    def forward(ctx, real, imag):
        if real.dtype != imag.dtype:
            raise RuntimeError(f"Expected object of scalar type {_type_name(real)} but got scalar type "
                               f"{_type_name(imag)} for second argument")
        if real.dtype not in (np.float32, np.float64):
            raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                               f"{_type_name(real)} and {_type_name(imag)}")
        r = np.empty(broadcast_shape(real.shape, imag.shape), np.complex64 if real.dtype == np.float32 else np.complex128)
        r.real, r.imag = real, imag
        ctx.save_for_backward(real, imag)  # only to check their versions, as torch's node does
        return r

    @staticmethod
    def backward(ctx, g):
        ctx.check_saved()
        return Real.apply(g), Imag.apply(g)


@register(method=False, sample=(None, lambda: (cx(3, 4),)))
def real(input: Tensor) -> Tensor:
    """The real part: a view of a complex tensor, the tensor itself when real."""
    return Real.apply(input) if input._data.dtype.kind == "c" else input


@register(method=False, sample=(None, lambda: (cx(3, 4),)))
def imag(input: Tensor) -> Tensor:
    """The imaginary part of a complex tensor (a view)."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return Imag.apply(input)


def real_property(self) -> Tensor:
    """``x.real``: the real part (a view of a complex tensor; a real tensor itself). Assigning to it copies values
    in."""
    return real(self)


def imag_property(self) -> Tensor:
    """``x.imag``: the imaginary part of a complex tensor (a view). Assigning to it copies values in."""
    return imag(self)


def set_real(self, value) -> None:
    real(self).copy_(value)


def set_imag(self, value) -> None:
    imag(self).copy_(value)


@register(sample=(None, lambda: (cx(3, 4),)))
def conj(input: Tensor) -> Tensor:
    """The complex conjugate (a new tensor); a real tensor is returned as is."""
    return Conj.apply(input) if input._data.dtype.kind == "c" else input


@register(out=True, sample=(None, lambda: (cx(3, 4),)))
def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, always a new tensor."""
    return ConjPhysical.apply(input) if input._data.dtype.kind == "c" else input.clone()


@register(sample=(lambda t: mt.resolve_conj(t * 1), lambda: (cx(3, 4),)))
def resolve_conj(input: Tensor) -> Tensor:
    """The tensor itself: conjugates here are never lazy."""
    return input


@register(differentiable=False)
def is_conj(input: Tensor) -> bool:
    """False: conjugates here are computed, never marked lazily."""
    return False


@register(method=False, sample=(None, lambda: (cx(3, 4),)))
def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor as a real one with a last dimension of size 2 (real, imaginary), sharing memory."""
    return ViewAsReal.apply(input)


@register(method=False, sample=(None, lambda: (leaf(3, 2),)))
def view_as_complex(input: Tensor) -> Tensor:
    """A real tensor with a last dimension of size 2 as a complex one, sharing memory."""
    return ViewAsComplex.apply(input)


@register(method=False, sample=(None, lambda: (leaf(3, 4), leaf(3, 4, seed=1))))
def complex(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A001  (torch.complex)
    """The complex tensor ``real + i imag``."""
    r = Complex.apply(real, imag)
    if out is not None:
        out._data = r._data
        return out
    return r


class Polar(Op):
    """``abs cos(angle) + i abs sin(angle)``, with torch's gradients: Re(conj(g) sgn(z)) for ``abs`` (0 where z is
    0, NaN where z is not finite) and Re(conj(g) i z) for ``angle``."""

    @staticmethod
    def forward(ctx, abs_, angle):
        z = Complex.forward(ctx, abs_ * np.cos(angle), abs_ * np.sin(angle))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx.saved_tensors
        g = conj_if_complex(g)
        return Real.apply(g * sgn(z)), Real.apply(g * (z * 1j))


@register(out=True, method=False, sample=(None, lambda: (leaf(3, 4), leaf(3, 4, low=-3.0, high=3.0, seed=1))))
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002  (torch's argument names)
    """The complex tensor with modulus ``abs`` and phase ``angle``."""
    return Polar.apply(abs, angle)


@register(out=True, sample=(None, lambda: (cx(3, 4),)))
def sgn(input: Tensor) -> Tensor:
    """``z / |z|`` (0 where ``z`` is 0) for complex tensors; the sign for real ones."""
    from .unary import Sgn, abs  # (unary builds on this module)
    if type(input) is np.ndarray:  # (in a backward formula, without create_graph)
        return np.sign(input)
    if input._data.dtype.kind != "c":
        return Sgn.apply(input)
    a = abs(input)
    return where(a == 0, 0.0, input / where(a == 0, 1.0, a))


class Angle(Op):
    """The phase ``atan2(imag, real)``; of real numbers 0 or pi (nan stays nan)."""

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        if a.dtype.kind in "biu":
            a = a.astype(_dtype.get_default_dtype().np)
        r = np.angle(a)
        if a.dtype.kind in "fV":
            r = np.where(np.isnan(a), a, r).astype(a.dtype)
        return r

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if not _is_complex(a):
            return zeros_for(g)
        # d angle = (x dy - y dx) / |z|^2, so the gradient is g (-y + ix) / |z|^2 = g i z / |z|^2
        return g * 1j * a / (Real.apply(a) ** 2 + Imag.apply(a) ** 2)


angle = Angle.function(sample=(None, lambda: (cx(3, 4),)))


@functools.cache
def _eig_result():
    """The named tuple ``linalg_eig(eigenvalues, eigenvectors)``."""
    return _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))


class Eig(Op, name="LinalgEigBackward0"):
    """Eigenvalues and unit eigenvectors of square matrices (complex, as LAPACK's geev gives them)."""

    @staticmethod
    def forward(ctx, a, name="eig"):
        if a.ndim < 2:
            raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
        if a.shape[-1] != a.shape[-2]:
            raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                               f"{a.shape[-1]} matrices")
        if a.dtype.kind not in "fcV":
            raise RuntimeError(f"Unknown Complex ScalarType for {_type_name(a)}")
        dt = np.complex128 if a.dtype in (np.float64, np.complex128) else np.complex64
        if not np.isfinite(a).all():
            raise RuntimeError(f"torch.linalg.{name}: input tensor should not contain infs or NaNs.")
        from ..linalg.layout import column_major  # (the linear algebra builds on this module)
        values, vectors = np.linalg.eig(a)
        values, vectors = values.astype(dt), column_major(vectors.astype(dt))
        ctx.save_for_backward(values, vectors)
        return values, vectors

    @staticmethod
    def backward(ctx, g_values, g_vectors):
        if ctx._as_tensors:
            raise NotImplementedError("minitorch: the second derivative of linalg.eig is not implemented")
        values, vectors = ctx.saved_tensors
        vh = np.conj(np.swapaxes(vectors, -1, -2))
        n = values.shape[-1]
        # gA = V^-H (diag(gL) + (V^H gV - V^H V diag(Re(diag(V^H gV)))) / conj(E)) V^H, E_ij = L_j - L_i
        inner = np.zeros(vectors.shape, vectors.dtype)
        if g_vectors is not None:
            vh_gv = vh @ g_vectors
            inner = vh_gv - (vh @ vectors) * np.real(np.diagonal(vh_gv, axis1=-2, axis2=-1))[..., None, :]
            gaps = values[..., None, :] - values[..., :, None]
            gaps[..., np.arange(n), np.arange(n)] = 1
            inner = inner / np.conj(gaps)
        inner[..., np.arange(n), np.arange(n)] = 0 if g_values is None else g_values
        return np.linalg.solve(vh, inner @ vh)


def eig(input: Tensor, *, out=None):
    """``(eigenvalues, eigenvectors)`` of square matrices ``input`` (complex), as ``torch.linalg.eig``; differentiable
    (first derivatives). Eigenvectors are of unit norm; their phase is LAPACK's choice, as in torch."""
    return _eig_result()(*Eig.apply(input))


def eigvals(input: Tensor, *, out=None) -> Tensor:
    """The (complex) eigenvalues of square matrices ``input``, as ``torch.linalg.eigvals``."""
    return Eig.apply(input, name="eigvals")[0]
