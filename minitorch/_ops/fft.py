"""Discrete Fourier transforms as differentiable ops: complex-to-complex, real-to-complex and
complex-to-real (``numpy.fft`` computes them), the zero-padding/trimming of the signal they
take, and ``stft``/``istft``. The public ``minitorch.fft`` functions are built on these.

Each transform is linear, so its gradient is its adjoint (PyTorch's convention for complex
gradients): the transform the other way with the dual normalization ("backward" and "forward"
swap, "ortho" stays), followed by the adjoint of the padding/trimming of the input.
"""
from __future__ import annotations

import numpy as np

from .. import _dtype
from .._registry import register
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Op

DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def check_norm(norm: str | None) -> str:
    """The normalization mode, "backward" by default, with torch's error for unknown ones."""
    if norm is None:
        return "backward"
    if norm not in DUAL:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    return norm


def _complex_dtype(a: np.ndarray) -> np.dtype:
    """The complex dtype a transform of ``a`` computes in: complex128 for double precision, else complex64."""
    if a.dtype == np.float16:
        raise RuntimeError("Unsupported dtype Half")
    return np.dtype(np.complex128 if a.dtype in (np.float64, np.complex128) else np.complex64)


def _as_transform_input(a: np.ndarray) -> np.ndarray:
    """Integer and bool signals transform in the default float dtype, as in torch."""
    return a.astype(_dtype.get_default_dtype().np) if a.dtype.kind in "biu" else a


class Resize(Op, name="ConstantPadNdBackward0"):
    """The signal zero-padded or trimmed (at the end) to ``sizes`` along ``dims``: what an FFT's ``n``/``s`` does."""

    @staticmethod
    def forward(ctx, a, dims=(), sizes=()):
        ctx.dims, ctx.in_sizes = dims, tuple(a.shape[d] for d in dims)
        index = [slice(None)] * a.ndim
        pad = [(0, 0)] * a.ndim
        for d, n in zip(dims, sizes):
            index[d] = slice(0, n)
            pad[d] = (0, max(n - a.shape[d], 0))
        return np.pad(a[tuple(index)], pad)

    @staticmethod
    def backward(ctx, g):
        return resize(g, ctx.dims, ctx.in_sizes)


def resize(x, dims, sizes):
    """``x`` (array or tensor) padded or trimmed to ``sizes`` along ``dims``; itself when nothing changes."""
    shape = x.shape
    if all(shape[d] == n for d, n in zip(dims, sizes)):
        return x
    return Resize.apply(x, dims=tuple(dims), sizes=tuple(sizes))


class FftC2C(Op):
    """The complex transform over ``dims``, forward or inverse, of the input resized to ``sizes``."""

    @staticmethod
    def forward(ctx, a, dims=(), sizes=(), norm="backward", forward=True):
        ctx.dims, ctx.norm, ctx.forward_ = dims, norm, forward
        ctx.in_sizes = tuple(a.shape[d] for d in dims)
        transform = np.fft.fftn if forward else np.fft.ifftn
        return transform(a, s=sizes, axes=dims, norm=norm).astype(_complex_dtype(a), copy=False)

    @staticmethod
    def backward(ctx, g):
        sizes = tuple(g.shape[d] for d in ctx.dims)
        r = FftC2C.apply(g, dims=ctx.dims, sizes=sizes, norm=DUAL[ctx.norm], forward=not ctx.forward_)
        return resize(r, ctx.dims, ctx.in_sizes)


class FftR2C(Op):
    """The forward transform of a real signal over ``dims`` (resized to ``sizes``); ``onesided`` keeps only
    the ``n // 2 + 1`` non-redundant frequencies of the last dim."""

    @staticmethod
    def forward(ctx, a, dims=(), sizes=(), norm="backward", onesided=True):
        a = _as_transform_input(a)
        ctx.dims, ctx.norm, ctx.sizes = dims, norm, sizes
        ctx.in_sizes = tuple(a.shape[d] for d in dims)
        r = np.fft.rfftn(a, s=sizes, axes=dims, norm=norm).astype(_complex_dtype(a), copy=False)
        return r if onesided else _two_sided(r, dims, sizes[-1])

    @staticmethod
    def backward(ctx, g):
        full = resize(g, ctx.dims[-1:], ctx.sizes[-1:])  # the dropped half of the spectrum gets no gradient
        r = FftC2C.apply(full, dims=ctx.dims, sizes=ctx.sizes, norm=DUAL[ctx.norm], forward=False)
        return resize(r, ctx.dims, ctx.in_sizes)  # the engine keeps the real part, for the real input


class FftC2R(Op):
    """The inverse transform over ``dims`` of a one-sided Hermitian spectrum to a real signal with ``sizes``
    (the last one is the real signal's length ``n``; the input is resized to ``n // 2 + 1`` there)."""

    @staticmethod
    def forward(ctx, a, dims=(), sizes=(), norm="backward"):
        ctx.dims, ctx.norm, ctx.sizes = dims, norm, sizes
        ctx.in_sizes = tuple(a.shape[d] for d in dims)
        r = np.fft.irfftn(_as_transform_input(a), s=sizes, axes=dims, norm=norm)
        return r.astype(_complex_dtype(a).char.lower(), copy=False)  # 'F' -> 'f', 'D' -> 'd'

    @staticmethod
    def backward(ctx, g):
        r = FftR2C.apply(g, dims=ctx.dims, sizes=ctx.sizes, norm=DUAL[ctx.norm])
        # the frequencies that stand for their mirrored twins too count twice
        n, last = ctx.sizes[-1], ctx.dims[-1]
        m = n // 2 + 1
        weight = np.ones(m, g._data.dtype if isinstance(g, Tensor) else g.dtype)
        weight[1:n - m + 1] = 2
        r = r * weight.reshape((m,) + (1,) * (len(g.shape) - 1 - last))
        return resize(r, ctx.dims, ctx.in_sizes)


def check_real(input: Tensor, message: str) -> None:
    """Refuse a complex input of a real-signal transform with torch's ``message`` (completed by the dtype)."""
    if input._data.dtype.kind == "c":
        raise RuntimeError(message + _dtype.C_NAMES[input.dtype])


def _two_sided(half: np.ndarray, dims: tuple, n: int) -> np.ndarray:
    """The full spectrum of a real signal from its one-sided part along ``dims[-1]`` (length ``n // 2 + 1``):
    ``X[-k] = conj(X[k])`` (indices modulo the sizes along every transformed dim). Exact where torch is: the
    imaginary parts that must vanish are zeros."""
    last, m = dims[-1], half.shape[dims[-1]]
    mirror = np.conj(half)
    for d in dims[:-1]:
        mirror = np.roll(np.flip(mirror, d), 1, d)
    index = [slice(None)] * half.ndim
    index[last] = slice(n - m, 0, -1)
    return np.concatenate([half, mirror[tuple(index)]], axis=last)


def dims_and_sizes(x: Tensor, s, dim) -> tuple[tuple, tuple]:
    """torch's reading of an n-dim transform's ``s`` and ``dim``: the dims (wrapped, unique) and the signal
    size along each (``-1`` or no ``s``: the input's size)."""
    ndim = x._data.ndim
    if dim is None:
        dim = range(-len(s), 0) if s is not None else range(ndim)
    elif isinstance(dim, int):
        dim = (dim,)
    if ndim == 0 and len(dim):
        raise IndexError(f"Dimension specified as {dim[0]} but tensor has no dimensions")
    dims = tuple(_wrap_dim(d, ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    if s is None:
        return dims, tuple(x._data.shape[d] for d in dims)
    if len(s) != len(dims):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    sizes = tuple(x._data.shape[d] if n == -1 else n for d, n in zip(dims, s))
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _window(window: Tensor | None, win_length: int, n_fft: int, like: Tensor):
    """The window (ones when none), zero-padded on both sides to ``n_fft``, as a tensor."""
    from .view import reshape
    if window is None:
        window = Tensor._wrap(np.ones(win_length, like._data.real.dtype))
    elif window._data.ndim != 1 or window._data.shape[0] != win_length:
        raise RuntimeError(f"stft: expected a 1D window tensor of size equal to win_length={win_length}, but got "
                           f"window with size {list(window._data.shape)}")
    left = (n_fft - win_length) // 2
    if left or win_length != n_fft:
        from ..nn.functional import pad
        window = pad(window, (left, n_fft - win_length - left))
    return reshape(window, (n_fft, 1))


@register
def stft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: bool | None = None, return_complex: bool | None = None, align_to_window: bool | None = None
         ) -> Tensor:
    """Short-time Fourier transform: the spectra of windowed frames of a 1D signal (or a batch of them),
    of shape (batch, frequencies, frames). Differentiable in the input and the window."""
    from ..nn.functional import pad
    from .view import reshape, unfold_frames
    if return_complex is None or not return_complex:
        raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                           "require that return_complex=True in a future PyTorch release." if return_complex is None
                           else "minitorch: stft supports only return_complex=True (real outputs are deprecated in "
                           "torch); use view_as_real on the result")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"stft: expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if hop_length <= 0:
        raise RuntimeError(f"stft: expected hop_length > 0, but got hop_length={hop_length}")
    batched = input._data.ndim == 2
    if input._data.ndim not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got {input._data.ndim}D tensor")
    x = input if batched else reshape(input, (1, -1))
    if center:
        x = reshape(pad(reshape(x, (1,) + tuple(x.shape)), (n_fft // 2, n_fft // 2), mode=pad_mode), tuple(x.shape[:1]) + (-1,))
    length = x._data.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    frames = unfold_frames(x, n_fft, hop_length) * _window(window, win_length, n_fft, x)  # (batch, n_fft, frames)
    complex_input = input._data.dtype.kind == "c" or (window is not None and window._data.dtype.kind == "c")
    onesided = not complex_input if onesided is None else onesided
    norm = "ortho" if normalized else "backward"
    if onesided:
        r = FftR2C.apply(frames, dims=(1,), sizes=(n_fft,), norm=norm)
    else:
        r = FftC2C.apply(frames, dims=(1,), sizes=(n_fft,), norm=norm, forward=True)
    return r if batched else reshape(r, tuple(r.shape[1:]))
