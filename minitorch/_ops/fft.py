"""Discrete Fourier transforms as differentiable ops: complex-to-complex, real-to-complex and
complex-to-real (``numpy.fft`` computes them), the zero-padding/trimming of the signal they
take, and ``stft``/``istft``. The public ``minitorch.fft`` functions are built on these.

Each transform is linear, so its gradient is its adjoint (PyTorch's convention for complex
gradients): the transform the other way with the dual normalization ("backward" and "forward"
swap, "ortho" stays), followed by the adjoint of the padding/trimming of the input.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype
from .._core.registry import register
from .._core.tensor import Tensor, _wrap_dim
from .._core.function import Op
from .conv.padding import pad
from .elementwise.complex import view_as_real

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


def _transform(fn, a: np.ndarray, dims: tuple, dtype, **kwargs) -> np.ndarray:
    """``fn(a, axes=dims, **kwargs)`` in ``dtype``, laid out as torch lays out a transform: the transformed dims
    innermost in memory, in their order, the others outside them."""
    inner = tuple(range(a.ndim - len(dims), a.ndim))
    r = fn(np.moveaxis(a, dims, inner), axes=inner, **kwargs).astype(dtype, copy=False)
    return np.moveaxis(np.ascontiguousarray(r), inner, dims)


def _in_order(dims: tuple, sizes: tuple, ndim: int) -> tuple:
    """``dims`` ascending with their ``sizes``: where no dim is special, torch lays a transform out in dim order."""
    return tuple(zip(*sorted(zip((d % ndim for d in dims), sizes)))) if dims else ((), ())


class FftC2C(Op):
    """The complex transform over ``dims``, forward or inverse, of the input resized to ``sizes``."""

    @staticmethod
    def forward(ctx, a, dims=(), sizes=(), norm="backward", forward=True):
        ctx.dims, ctx.norm, ctx.forward_ = dims, norm, forward
        ctx.in_sizes = tuple(a.shape[d] for d in dims)
        a = _as_transform_input(a)
        dims, sizes = _in_order(dims, sizes, a.ndim)
        return _transform(np.fft.fftn if forward else np.fft.ifftn, a, dims, _complex_dtype(a), s=sizes, norm=norm)

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
        def one_or_two_sided(a, axes, s, norm):
            r = np.fft.rfftn(a, s=s, axes=axes, norm=norm)
            return r if onesided else _two_sided(r, axes, s[-1])
        dims, sizes = (dims, sizes) if onesided else _in_order(dims, sizes, a.ndim)  # one-sided: the last is halved
        return _transform(one_or_two_sided, a, dims, _complex_dtype(a), s=sizes, norm=norm)

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
        a = _as_transform_input(a)
        real = np.float64 if _complex_dtype(a) == np.complex128 else np.float32
        return _transform(np.fft.irfftn, a, dims, real, s=sizes, norm=norm)

    @staticmethod
    def backward(ctx, g):
        r = FftR2C.apply(g, dims=ctx.dims, sizes=ctx.sizes, norm=DUAL[ctx.norm])
        # the frequencies that stand for their mirrored twins too count twice
        n, last = ctx.sizes[-1], ctx.dims[-1]
        m = n // 2 + 1
        if not ctx._as_tensors:  # doubled in place, as torch: the others keep their zero imaginary parts
            r[(slice(None),) * (last % r.ndim) + (slice(1, n - m + 1),)] *= 2
            return resize(r, ctx.dims, ctx.in_sizes)
        weight = np.ones(m, g._data.dtype)
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
    if s is not None and len(s) != len(dims):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    sizes = tuple(x._data.shape[d] if s is None or s[i] == -1 else s[i] for i, d in enumerate(dims))
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


class Frames(Op, name="UnfoldBackward0"):
    """The frames of signals ``a`` (batch, length): ``n`` samples every ``hop``, as (batch, n, frames)."""

    @staticmethod
    def forward(ctx, a, n=1, hop=1):
        ctx.n, ctx.hop, ctx.length = n, hop, a.shape[-1]
        windows = np.lib.stride_tricks.sliding_window_view(a, n, axis=-1)[:, ::hop]
        return np.ascontiguousarray(windows.transpose(0, 2, 1))

    @staticmethod
    def backward(ctx, g):
        return OverlapAdd.apply(g, hop=ctx.hop, length=ctx.length)


class OverlapAdd(Op):
    """The sum of frames (batch, n, frames) placed ``hop`` apart in signals of ``length``: the adjoint of
    :class:`Frames`."""

    @staticmethod
    def forward(ctx, frames, hop=1, length=0):
        batch, n, count = frames.shape
        ctx.n, ctx.hop = n, hop
        chunks = -(-n // hop)
        out = np.zeros((batch, (count + chunks) * hop), frames.dtype)
        # the j-th hop-wide slice of every frame lands in one contiguous run: one add per slice, not per frame
        padded = np.zeros((batch, chunks * hop, count), frames.dtype)
        padded[:, :n] = frames
        runs = padded.reshape(batch, chunks, hop, count).transpose(0, 1, 3, 2).reshape(batch, chunks, count * hop)
        for j in range(chunks):
            out[:, j * hop:j * hop + count * hop] += runs[:, j]
        return out[:, :length]

    @staticmethod
    def backward(ctx, g):
        return Frames.apply(g, n=ctx.n, hop=ctx.hop)


def _spectral_args(name: str, input: Tensor, n_fft: int, hop_length, win_length, window, extra: str):
    """The hop and window lengths (torch's defaults) and the start of torch's error messages about the call."""
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    shown = "None" if window is None else f"{window.type()}{{{list(window.shape)}}}"
    described = f"CPU{_dtype.C_NAMES[input.dtype]}Type" if name == "istft" else input.type()
    where = (f"{name}({described}{list(input.shape)}, n_fft={n_fft}, hop_length={hop_length}, "
             f"win_length={win_length}, window={shown}, {extra}) : ")
    if not 0 < win_length <= n_fft:
        raise RuntimeError(f"{where}expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if hop_length <= 0:
        raise RuntimeError(f"{where}expected hop_length > 0, but got hop_length={hop_length}")
    if window is not None and (window._data.ndim != 1 or window._data.shape[0] != win_length):
        raise RuntimeError(f"{where}expected a 1D window tensor of size equal to win_length={win_length}, but got "
                           f"window with size {list(window._data.shape)}")
    return hop_length, win_length, where


_NO_WINDOW = {  # torch's warnings
    "stft": "A window was not provided. A rectangular window will be applied,which is known to cause spectral "
            "leakage. Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce "
            "spectral leakage.To suppress this warning and use a rectangular window, explicitly set "
            "`window=torch.ones(n_fft, device=<device>)`.",
    "istft": "A window was not provided. A rectangular window will be applied.Please provide the same window used by "
             "stft to make the inversion lossless.To suppress this warning and use a rectangular window, explicitly "
             "set `window=torch.ones(n_fft, device=<device>)`.",
}


def _full_window(name: str, window: Tensor | None, win_length: int, n_fft: int, dtype: np.dtype):
    """The window (ones when none) centred in ``n_fft`` samples, as a column (n_fft, 1)."""
    if window is None:
        window = Tensor._wrap(np.ones(win_length, dtype))
        warnings.warn(_NO_WINDOW[name], UserWarning, stacklevel=3)
    left = (n_fft - win_length) // 2
    if win_length != n_fft:
        window = pad(window, (left, n_fft - win_length - left))
    return window.reshape(n_fft, 1)


@register
def stft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: bool | None = None, return_complex: bool | None = None, align_to_window: bool | None = None
         ) -> Tensor:
    """Short-time Fourier transform: the spectra of windowed frames of a signal (or a batch of them), of shape
    ([batch,] frequencies, frames). Differentiable w.r.t. the input and the window."""
    complex_input = input._data.dtype.kind == "c" or (window is not None and window._data.dtype.kind == "c")
    if return_complex is None:
        if not complex_input:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will "
                               "further require that return_complex=True in a future PyTorch release.")
        return_complex = True
    if input._data.ndim not in (1, 2):
        raise RuntimeError(f"stft: expected a 1D or 2D tensor, but got a {input._data.ndim}D tensor")
    x = input.reshape(1, -1) if input._data.ndim == 1 else input
    if center:
        x = pad(x.reshape((1,) + tuple(x.shape)), (n_fft // 2, n_fft // 2), mode=pad_mode).reshape(x.shape[0], -1)
    extra = (f"normalized={int(normalized)}, onesided={'None' if onesided is None else int(onesided)}, "
             f"return_complex={int(return_complex)}, align_to_window={align_to_window}")
    onesided = not complex_input if onesided is None else onesided
    hop_length, win_length, where = _spectral_args("stft", x if input._data.ndim == 2 else x.reshape(-1), n_fft,
                                                   hop_length, win_length, window, extra)
    length = x._data.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"{where}expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    frames = Frames.apply(x, n=n_fft, hop=hop_length) * _full_window("stft", window, win_length, n_fft, x._data.real.dtype)
    frames = frames.transpose(1, 2)  # (batch, frames, n_fft): the spectra come out frame by frame, as torch lays them
    norm = "ortho" if normalized else "backward"
    r = FftR2C.apply(frames, dims=(2,), sizes=(n_fft,), norm=norm, onesided=onesided) if not complex_input else \
        FftC2C.apply(frames, dims=(2,), sizes=(n_fft,), norm=norm, forward=True)
    r.transpose_(1, 2)
    if input._data.ndim == 1:
        r = r.squeeze((0,))
    if not return_complex:
        warnings.warn("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                      "complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                      "still call torch.view_as_real on the complex output to recover the old return format.",
                      UserWarning, stacklevel=2)
        return view_as_real(r)
    return r


@register
def istft(input: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
          window: Tensor | None = None, center: bool = True, normalized: bool = False, onesided: bool | None = None,
          length: int | None = None, return_complex: bool = False) -> Tensor:
    """Inverse short-time Fourier transform: the signal whose :func:`stft` is ``input`` (frames overlap-added and
    divided by the summed squared window). Differentiable w.r.t. the input and the window."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("istft requires a complex-valued input tensor.")
    if input._data.ndim not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex, but got {input._data.ndim}")
    x = input.reshape((1,) + tuple(input.shape)) if input._data.ndim == 2 else input
    frequencies, count = x._data.shape[1:]
    extra = (f"center={int(center)}, normalized={int(normalized)}, onesided={'None' if onesided is None else onesided}"
             f", length={length}, return_complex={int(return_complex)}")
    onesided = frequencies != n_fft if onesided is None else onesided
    hop_length, win_length, where = _spectral_args("istft", input, n_fft, hop_length, win_length, window, extra)
    if hop_length > win_length:
        raise RuntimeError(f"{where}expected 0 < hop_length <= win_length")
    norm = "ortho" if normalized else "backward"
    if onesided and frequencies != n_fft // 2 + 1:
        raise RuntimeError(f"{where}expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft / 2 + 1 when onesided=True, but got {frequencies}")
    if not onesided and frequencies != n_fft:
        raise RuntimeError(f"{where}expected the frequency dimension (3rd to the last) of the input tensor to "
                           f"match n_fft when onesided=False, but got {frequencies}")
    if return_complex:
        frames = FftC2C.apply(x, dims=(1,), sizes=(n_fft,), norm=norm, forward=False)
    else:  # a real signal: its spectrum is read as Hermitian, from the first n_fft // 2 + 1 frequencies
        frames = FftC2R.apply(x, dims=(1,), sizes=(n_fft,), norm=norm)
    w = _full_window("istft", window, win_length, n_fft, frames._data.real.dtype)
    full = n_fft + hop_length * (count - 1)
    signal = OverlapAdd.apply(frames * w, hop=hop_length, length=full)
    envelope = OverlapAdd.apply((w * w).expand(1, n_fft, count), hop=hop_length, length=full)
    start = n_fft // 2 if center else 0
    end = full if length is None and not center else full - n_fft // 2 if length is None else start + length
    end = min(end, full)
    envelope = envelope[:, start:end]
    if np.abs(envelope._data).min() < 1e-11:
        raise RuntimeError(f"{where[:-3]} window overlap add min: {np.abs(envelope._data).min():g}")
    signal = signal[:, start:end] / envelope
    if length is not None and signal._data.shape[-1] < length:
        signal = pad(signal, (0, length - signal._data.shape[-1]))
    return signal.reshape(-1) if input._data.ndim == 2 else signal
