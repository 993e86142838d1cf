"""Weight initialisation, in place and without recording: the same distributions as ``torch.nn.init``."""
from __future__ import annotations

import math
import warnings

import numpy as np

from .._random_factories import randperm
from .._core.tensor import Tensor
from ..autograd.grad_mode import no_grad


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale for weights feeding the given nonlinearity."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _zero_elements(tensor: Tensor) -> Tensor:
    """The He initialisations leave a tensor without elements as it is, saying so (a layer with 0 inputs)."""
    warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
    return tensor


def _fill(tensor: Tensor, values) -> Tensor:
    with no_grad():
        tensor._data[...] = values
        tensor._bump()
    return tensor


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from U(a, b)."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples from N(mean, std^2)."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None) -> Tensor:
    """Fill with N(mean, std^2) samples truncated to [a, b], by rejection as torch does: whole redraws of
    the normal where most of the mass lies inside, else uniform proposals accepted with the density's ratio."""
    if tensor.numel() == 0:
        return tensor
    if _norm_cdf((b - mean) / std) - _norm_cdf((a - mean) / std) > 0.3:
        def draw() -> np.ndarray:
            return tensor.new_empty(tensor.shape).normal_(mean, std, generator=generator)._data

        with no_grad():
            values = draw()
        lo, hi = np.asarray(a, values.dtype), np.asarray(b, values.dtype)
        bad = (values < lo) | (values > hi)
        while bad.any():
            with no_grad():
                values[bad] = draw()[bad]
            bad = (values < lo) | (values > hi)
        return _fill(tensor, values)
    return _fill(tensor, _truncated_by_uniform_proposals(tensor, mean, std, a, b, generator))


def _truncated_by_uniform_proposals(tensor: Tensor, mean: float, std: float, a: float, b: float, generator):
    """Uniform proposals on [a, b], each kept where ``log(u)`` of a second uniform is below its log density
    relative to the peak; rejected positions get new proposals until none is left."""
    def fresh(lo, hi):
        with no_grad():
            return tensor.new_empty(tensor.shape).uniform_(lo, hi, generator=generator)._data

    dt = tensor._data.dtype
    m, s = np.asarray(mean, dt), np.asarray(std, dt)
    log_peak = np.asarray(-0.5 * ((min(max(mean, a), b) - mean) / std) ** 2, dt)

    def log_ratio(x):
        z = (x - m) / s
        return z * z * np.asarray(-0.5, dt) - log_peak

    values = fresh(a, b)
    pending = np.log(fresh(0.0, 1.0).astype(np.float64)).astype(dt) > log_ratio(values)
    while pending.any():
        proposal, u = fresh(a, b), fresh(0.0, 1.0)
        values = np.where(pending, proposal, values)
        pending &= np.log(u.astype(np.float64)).astype(dt) > log_ratio(proposal)
    return values


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _fill(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 1)


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 0)


def eye_(tensor: Tensor) -> Tensor:
    """The identity matrix (2-D tensors)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor.shape))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    a = math.sqrt(3.0) * (gain * math.sqrt(2.0 / float(fan_in + fan_out)))
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator=None) -> Tensor:
    """U(-bound, bound) with bound = gain * sqrt(3 / fan) (He et al.)."""
    if 0 in tensor.shape:
        return _zero_elements(tensor)
    fan = _calculate_correct_fan(tensor, mode)
    bound = math.sqrt(3.0) * (calculate_gain(nonlinearity, a) / math.sqrt(fan))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None) -> Tensor:
    """N(0, std^2) with std = gain / sqrt(fan) (He et al.)."""
    if 0 in tensor.shape:
        return _zero_elements(tensor)
    fan = _calculate_correct_fan(tensor, mode)
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of a Gaussian one, scaled by ``gain``."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with no_grad():
        flat = tensor.new_empty((rows, cols)).normal_(0.0, 1.0, generator=generator)._data.astype(np.float64)
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q *= np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tensor.shape))


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """N(0, std^2) values with a fraction ``sparsity`` of each column set to zero (rows picked at random)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = randperm(rows, generator=generator)._data[:num_zeros]
            tensor._data[zero_rows, col] = 0
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity of a convolution: each output channel passes its input channel's centre tap, per group."""
    if tensor.dim() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_per_group = tensor.shape[0] // groups
    if tensor.shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    values = np.zeros(tensor.shape, tensor._data.dtype)
    centre = tuple(k // 2 for k in tensor.shape[2:])
    for g in range(groups):
        for d in range(min(out_per_group, tensor.shape[1])):
            values[(g * out_per_group + d, d) + centre] = 1
    return _fill(tensor, values)
