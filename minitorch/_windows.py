"""Window functions for signal processing: hann, hamming, blackman, bartlett and kaiser windows.

A periodic window of length N is the symmetric window of length N + 1 without its last value
(what spectral analysis wants); computed in float64 and returned in ``dtype`` (default: the
default dtype)."""
from __future__ import annotations

import numpy as np

from . import _dtype
from ._factories import _leaf
from ._core.tensor import Tensor, _C_TYPE_NAMES
from ._device import _check_device


def _window(name: str, values, window_length: int, periodic: bool, dtype, device, requires_grad: bool) -> Tensor:
    """``values(n, m)``: the symmetric window at positions ``n`` (float64) for ``m = length - 1`` (m > 0)."""
    _check_device(device)
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    dt = _dtype.get_default_dtype() if dtype is None else _dtype.to_dtype(dtype)
    if not dt.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={_C_TYPE_NAMES[dt]}, "
                           "device=cpu, layout=Strided (default), requires_grad=false (default), "
                           "pinned_memory=false, memory_format=(nullopt))")
    if window_length <= 1:
        w = np.ones(window_length)
    else:
        m = window_length if periodic else window_length - 1
        w = values(np.arange(window_length, dtype=np.float64), m)
    return _leaf(w.astype(dt.np), requires_grad)


def _cosine_sum(*coefficients):
    """The window ``sum_k (-1)^k a_k cos(2 pi k n / m)``."""
    def values(n, m):
        return sum((-1) ** k * a * np.cos(2 * np.pi * k * n / m) for k, a in enumerate(coefficients))
    return values


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Hann window: ``0.5 - 0.5 cos(2 pi n / (N - 1))``."""
    return _window("hann_window", _cosine_sum(0.5, 0.5), window_length, periodic, dtype, device, requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype=None, layout=None, device=None, pin_memory: bool = False,
                   requires_grad: bool = False) -> Tensor:
    """The Hamming window: ``alpha - beta cos(2 pi n / (N - 1))``."""
    return _window("hamming_window", _cosine_sum(alpha, beta), window_length, periodic, dtype, device,
                   requires_grad)


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                    pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Blackman window: ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    return _window("blackman_window", _cosine_sum(0.42, 0.5, 0.08), window_length, periodic, dtype, device,
                   requires_grad)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                    pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Bartlett (triangular) window: ``1 - |2n / (N - 1) - 1|``."""
    return _window("bartlett_window", lambda n, m: 1 - np.abs(2 * n / m - 1), window_length, periodic, dtype,
                   device, requires_grad)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype=None, layout=None,
                  device=None, pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The Kaiser window: ``I0(beta sqrt(1 - (2n / (N - 1) - 1)^2)) / I0(beta)``."""
    def values(n, m):
        return np.i0(beta * np.sqrt(np.clip(1 - (2 * n / m - 1) ** 2, 0, None))) / np.i0(beta)
    return _window("kaiser_window", values, window_length, periodic, dtype, device, requires_grad)
