"""``minitorch.fft``: discrete Fourier transforms, as ``torch.fft``, with gradients.

Every transform takes ``norm``: "backward" (default; no scaling forward, ``1/n`` inverse), "ortho"
(``1/sqrt(n)`` both ways) or "forward" (``1/n`` forward). ``n``/``s`` pad with zeros or trim the
signal along the transformed dims first (for ``irfft``/``hfft`` they give the output length).
The Hermitian transforms are the real ones with the conjugate and the dual normalization:
``hfft(x) = irfft(conj(x))`` and ``ihfft(x) = conj(rfft(x))``, scaled the other way.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _dtype
from ._factories import _leaf
from ._core.out import _out
from ._ops.elementwise.complex import conj
from ._ops.fft import DUAL, FftC2C, FftC2R, FftR2C, check_norm, check_real, dims_and_sizes
from ._ops.shape.view import roll
from ._core.tensor import Tensor

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

def _c2c(input: Tensor, s, dim, norm, forward: bool, out=None) -> Tensor:
    dims, sizes = dims_and_sizes(input, s, dim)
    norm = check_norm(norm)
    if not dims:  # (a 0-dim tensor): nothing to transform
        return _out(input + 0j, out)
    if input._data.dtype.kind != "c":  # a real signal: torch's two-sided real-to-complex transform
        if forward:
            return _out(FftR2C.apply(input, dims=dims, sizes=sizes, norm=norm, onesided=False), out)
        input = input + 0j if input._data.dtype.kind in "fV" else input
    return _out(FftC2C.apply(input, dims=dims, sizes=sizes, norm=norm, forward=forward), out)


def _r2c(input: Tensor, s, dim, norm, out=None, one_dim: bool = False) -> Tensor:
    check_real(input, "rfft expects a real input tensor, but got " if one_dim
               else "rfftn expects a real-valued input tensor, but got ")
    dims, sizes = dims_and_sizes(input, s, dim)
    return _out(FftR2C.apply(input, dims=dims, sizes=sizes, norm=check_norm(norm)), out)


def _c2r(input: Tensor, s, dim, norm, out=None) -> Tensor:
    dims, sizes = dims_and_sizes(input, s, dim)
    if s is None or s[-1] == -1:  # the default real length: that of a spectrum of n // 2 + 1 frequencies
        sizes = sizes[:-1] + (2 * (sizes[-1] - 1),)
    if sizes[-1] < 1:
        raise RuntimeError(f"Invalid number of data points ({sizes[-1]}) specified")
    return _out(FftC2R.apply(input, dims=dims, sizes=sizes, norm=check_norm(norm)), out)


def _n(n: int | None) -> tuple | None:
    return None if n is None else (n,)


def fft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
        out: Tensor | None = None) -> Tensor:
    """The 1-D discrete Fourier transform along ``dim``."""
    return _c2c(input, _n(n), (dim,), norm, True, out)


def ifft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The 1-D inverse discrete Fourier transform along ``dim``."""
    return _c2c(input, _n(n), (dim,), norm, False, out)


def fft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The 2-D discrete Fourier transform over ``dim``."""
    return _c2c(input, s, dim, norm, True, out)


def ifft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The 2-D inverse discrete Fourier transform over ``dim``."""
    return _c2c(input, s, dim, norm, False, out)


def fftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
         *, out: Tensor | None = None) -> Tensor:
    """The N-D discrete Fourier transform over ``dim`` (all dims, or the last ``len(s)``)."""
    return _c2c(input, s, dim, norm, True, out)


def ifftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
          *, out: Tensor | None = None) -> Tensor:
    """The N-D inverse discrete Fourier transform over ``dim`` (all dims, or the last ``len(s)``)."""
    return _c2c(input, s, dim, norm, False, out)


def rfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The 1-D transform of a real signal: its ``n // 2 + 1`` non-negative frequencies."""
    return _r2c(input, _n(n), (dim,), norm, out, one_dim=True)


def irfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The real signal of length ``n`` (default ``2 * (m - 1)``) whose one-sided spectrum is ``input``."""
    return _c2r(input, _n(n), (dim,), norm, out)


def rfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The 2-D transform of a real signal, one-sided along the last of ``dim``."""
    return _r2c(input, s, dim, norm, out)


def irfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """The inverse of :func:`rfft2`."""
    return _c2r(input, s, dim, norm, out)


def rfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
          *, out: Tensor | None = None) -> Tensor:
    """The N-D transform of a real signal, one-sided along the last of ``dim``."""
    return _r2c(input, s, dim, norm, out)


def irfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
           *, out: Tensor | None = None) -> Tensor:
    """The inverse of :func:`rfftn`."""
    return _c2r(input, s, dim, norm, out)


def _hermitian(input: Tensor, s, dim, norm, out) -> Tensor:
    """The transform of a one-sided Hermitian signal (a real spectrum): ``irfftn(conj(x))``, dual normalization."""
    return _c2r(conj(input), s, dim, DUAL[check_norm(norm)], out)


def _inverse_hermitian(input: Tensor, s, dim, norm, out, one_dim: bool = False) -> Tensor:
    """The inverse of :func:`_hermitian`: ``conj(rfftn(x))``, dual normalization."""
    check_real(input, "ihfft expects a real input tensor, but got " if one_dim
               else "Only supports floating-point dtypes, but found: ")
    dims, sizes = dims_and_sizes(input, s, dim)
    return _out(conj(FftR2C.apply(input, dims=dims, sizes=sizes, norm=DUAL[check_norm(norm)])), out)


def hfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
         out: Tensor | None = None) -> Tensor:
    """The 1-D transform of a Hermitian-symmetric signal given by its first half: a real spectrum of length ``n``."""
    return _hermitian(input, _n(n), (dim,), norm, out)


def ihfft(input: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The inverse of :func:`hfft`: the one-sided inverse transform of a real signal."""
    return _inverse_hermitian(input, _n(n), (dim,), norm, out, one_dim=True)


def hfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
          out: Tensor | None = None) -> Tensor:
    """The 2-D form of :func:`hfft`."""
    return _hermitian(input, s, dim, norm, out)


def ihfft2(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] = (-2, -1), norm: str | None = None, *,
           out: Tensor | None = None) -> Tensor:
    """The 2-D form of :func:`ihfft`."""
    return _inverse_hermitian(input, s, dim, norm, out)


def hfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
          *, out: Tensor | None = None) -> Tensor:
    """The N-D form of :func:`hfft`."""
    return _hermitian(input, s, dim, norm, out)


def ihfftn(input: Tensor, s: Sequence[int] | None = None, dim: Sequence[int] | None = None, norm: str | None = None,
           *, out: Tensor | None = None) -> Tensor:
    """The N-D form of :func:`ihfft`."""
    return _inverse_hermitian(input, s, dim, norm, out)


def _frequencies(k: np.ndarray, n: int, d: float, dtype, requires_grad: bool, out: Tensor | None) -> Tensor:
    """The frequencies ``k / (d n)`` (``k``: float64 indices) as a new tensor of ``dtype``."""
    dt = _dtype.get_default_dtype() if dtype is None else _dtype.to_dtype(dtype)
    return _out(_leaf((k / (n * d) if n else k).astype(dt.np), requires_grad), out)


def fftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype=None, layout=None, device=None,
            pin_memory: bool | None = None, requires_grad: bool = False) -> Tensor:
    """The frequencies of :func:`fft`'s outputs for ``n`` samples spaced ``d`` apart: ``[0, 1, ..., -1] / (d n)``."""
    k = np.fft.ifftshift(np.arange(-(n // 2), n - n // 2, dtype=np.float64))
    return _frequencies(k, n, d, dtype, requires_grad, out)


def rfftfreq(n: int, d: float = 1.0, *, out: Tensor | None = None, dtype=None, layout=None, device=None,
             pin_memory: bool | None = None, requires_grad: bool = False) -> Tensor:
    """The frequencies of :func:`rfft`'s outputs for ``n`` samples spaced ``d`` apart: ``[0, ..., n // 2] / (d n)``."""
    k = np.arange(n // 2 + 1, dtype=np.float64)
    return _frequencies(k, n, d, dtype, requires_grad, out)


def _shift(input: Tensor, dim, inverse: bool) -> Tensor:
    dims = tuple(range(input._data.ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if not dims:
        raise RuntimeError("`shifts` required")
    shape = input._data.shape
    shifts = tuple(-(shape[d] // 2) if inverse else shape[d] // 2 for d in dims)
    return roll(input, shifts, dims)


def fftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """Reorder :func:`fftn`'s output so that frequency zero is in the middle of each of ``dim`` (default all)."""
    return _shift(input, dim, False)


def ifftshift(input: Tensor, dim: int | Sequence[int] | None = None) -> Tensor:
    """The inverse of :func:`fftshift`."""
    return _shift(input, dim, True)
