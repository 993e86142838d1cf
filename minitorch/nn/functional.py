"""``minitorch.nn.functional``: the layers as functions, with torch's signatures and checks.

The differentiable work is done by ops in ``minitorch/_ops``; this module turns
arguments into their canonical form and raises torch's errors for bad input.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..amp import full_precision, lower_precision
from .. import _dtype, _registry
from .._registry import functional_op, register
from .._ops import activation as _act
from .._ops import dropout as _dropout
from .._ops import embedding as _embedding
from .._ops import loss as _loss
from .._ops import pixel_shuffle as _pixel_ops
from .._ops import pooling as _pool
from .._ops import sampling as _sampling
from .._ops.arithmetic import clamp, mul_, where
from .._ops.ctc import ctc_loss  # noqa: F401  (no double derivative, as in torch: kept out of the registry sweep)
from .._ops.embedding import Embedding
from .._ops.indexing import ARRAY, Made
from .._ops.indexing import IndexScatter as _IndexScatter
from .._ops.linalg import Addmm, einsum, matmul
from .._ops.pooling_functions import avg_pool2d
from .._ops.normalization import NativeBatchNorm, NativeGroupNorm, NativeLayerNorm
from .._ops.reduction import log_softmax as _log_softmax
from .._ops.reduction import mean
from .._ops.reduction import softmax as _softmax
from .._ops.reduction import sum as _sum
from .._ops.unary import relu as _relu
from .._ops.unary import relu_ as _relu_
from .._ops.view import View, reshape
from .._tensor import Tensor, _wrap_dim
from .._rng import u53
from .._settings import broadcast_shape, broadcast_shapes
from ..random import default_generator
from ._dispatch import assert_int_or_pair, boolean_dispatch, boolean_dispatched  # noqa: F401

globals().update(_registry.functional())  # the ops that are the same function here and in minitorch.* (tanh, ...)


def _pair(v, name="kernel_size") -> tuple[int, int]:
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return (int(v[0]), int(v[0]))
        return (int(v[0]), int(v[1]))
    return (int(v), int(v))


# ---- linear ------------------------------------------------------------------------------------------
@functional_op
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: one addmm (batch dims folded into rows), or a matmul without bias."""
    input, weight, bias = lower_precision(input, weight, bias)
    if bias is None:
        return matmul(input, weight.t())
    for name, t in (("self", bias), ("mat1", input)):  # torch's addmm checks
        if t._data.dtype != weight._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {_dtype.C_NAMES[t.dtype]} and "
                               f"{_dtype.C_NAMES[weight.dtype]}")
    if input.dim() == 2:
        return Addmm.apply(bias, input, weight.t())
    shape = input.shape
    out = Addmm.apply(bias, reshape(input, -1, shape[-1]), weight.t())
    return View.apply(out, shape=tuple(shape[:-1]) + (weight.shape[0],))


# ---- resampling and padding ----------------------------------------------------------------------------------
upsample = register(_sampling.interpolate, name="upsample", method=False, top_level=False, functional=True)


def _check_pad(input, pad, mode):
    """torch's checks of the non-constant padding modes: supported sizes, reflect below and circular up to the
    padded dims' sizes."""
    n, dims = len(pad) // 2, input.dim()
    if n not in (1, 2, 3) or dims not in (n + 1, n + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {dims}D input tensor.\n"
                                  "Supported combinations for non-constant padding:\n"
                                  "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                  "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                  "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    for i in range(n):
        size, (before, after) = input.shape[dims - 1 - i], pad[2 * i:2 * i + 2]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({before}, {after}) at dimension {dims - 1 - i} of "
                               f"input {list(input.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")


@functional_op
def pad(input, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)``."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    n = len(pad) // 2
    if n > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    pairs = [(0, 0)] * (input.dim() - n) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(n))]
    if mode == "constant":
        return _pool.ConstantPadNd.apply(input, pads=tuple(pairs), value=0.0 if value is None else value)
    ops = {"reflect": _pool.ReflectionPad2D, "replicate": _pool.ReplicationPad2D, "circular": _pool.CircularPad2D}
    if mode not in ops:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    _check_pad(input, pad, mode)
    op = {("reflect", 1): _pool.ReflectionPad1D, ("reflect", 3): _pool.ReflectionPad3D,
          ("replicate", 1): _pool.ReplicationPad1D, ("replicate", 3): _pool.ReplicationPad3D}.get((mode, n), ops[mode])
    index = tuple(slice(None) if b == a == 0 else Made(_pool.pad_index, input.shape[d], b, a, mode, d, input.dim())
                  for d, (b, a) in enumerate(pairs))
    return op.apply(input, index=index)


def _pixel_check(input, name, factor, what):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           "dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


@functional_op
def pixel_shuffle(input, upscale_factor: int) -> Tensor:
    """(*, C * r^2, H, W) -> (*, C, H * r, W * r)."""
    r = upscale_factor
    _pixel_check(input, "pixel_shuffle", r, "upscale_factor")
    *lead, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return _pixel_ops.PixelShuffle.apply(input, upscale_factor=r)


@functional_op
def pixel_unshuffle(input, downscale_factor: int) -> Tensor:
    """(*, C, H * r, W * r) -> (*, C * r^2, H, W)."""
    r = downscale_factor
    _pixel_check(input, "pixel_unshuffle", r, "downscale_factor")
    *lead, c, h, w = input.shape
    for name, size, dim in (("height", h, -2), ("width", w, -1)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={size} is not divisible by {r}")
    return _pixel_ops.PixelUnshuffle.apply(input, downscale_factor=r)


# ---- normalisation and dropout ---------------------------------------------------------------------------
@functional_op
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5) -> Tensor:
    """Normalise each channel (dim 1) by batch statistics (training, updating the running ones) or
    by the running statistics (eval)."""
    channels = input.shape[1]
    if training and input.numel() // channels <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
        if t is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    running = None if running_mean is None else (running_mean._data, running_var._data)
    return NativeBatchNorm.apply(input, weight, bias, running=running, training=training, momentum=momentum,
                                 eps=eps)


@functional_op
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims of each sample."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    axes = tuple(range(input.dim() - len(shape), input.dim()))
    return NativeLayerNorm.apply(input, weight, bias, eps=eps, axes=axes, param_shape=shape)


@functional_op
def group_norm(input, num_groups: int, weight=None, bias=None, eps=1e-5) -> Tensor:
    """Normalise each group of channels of each sample."""
    n, c = input.shape[:2]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    return NativeGroupNorm.apply(input, weight, bias, eps=eps, axes=(2,), view_shape=(n, num_groups, -1),
                                 param_shape=(1, c) + (1,) * (input.dim() - 2))


@functional_op
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample over its spatial dims: batch_norm of the (1, N * C, ...) view."""
    if use_input_stats:
        size = tuple(input.shape)
        if math.prod(size[2:]) == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    n, c = input.shape[:2]
    x = input.reshape(1, n * c, *input.shape[2:])
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    rm = None if running_mean is None else Tensor._wrap(np.tile(running_mean._data, n))
    rv = None if running_var is None else Tensor._wrap(np.tile(running_var._data, n))
    out = batch_norm(x, rm, rv, w, b, use_input_stats, momentum, eps)
    if use_input_stats:
        for running, tiled in ((running_mean, rm), (running_var, rv)):
            if running is not None:
                running._data[...] = tiled._data.reshape(n, c).mean(0)
    return out.reshape(input.shape)


@functional_op
def rms_norm(input, normalized_shape, weight=None, eps: float | None = None) -> Tensor:
    """``input / sqrt(mean(input^2) + eps) * weight`` over the trailing ``normalized_shape`` dims."""
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(normalized_shape)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*"
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    out = input * (mean(input * input, dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


@functional_op
def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """``input / (k + alpha * mean of squares over ``size`` neighbouring channels) ** beta``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    n, c = input.shape[:2]
    sq = (input * input).reshape(n, 1, c, -1)
    sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(sq, (size, 1), stride=1).squeeze(1).reshape(input.shape)
    return input / (div * alpha + k) ** beta


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


@functional_op
def dropout(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p), in training only."""
    _check_p(p)
    return _dropout.dropout_impl(input, p, training, inplace)


def _channel_dropout(input, p, training, inplace, spatial):
    """dropout1d / dropout3d: feature dropout of (N, C, *spatial) or unbatched (C, *spatial) input."""
    _check_p(p)
    dims = input.dim()
    if dims not in (spatial + 1, spatial + 2):
        if spatial == 1:
            raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {dims}D input. Note that "
                               "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
                               "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
        warnings.warn(f"dropout3d: Received a {dims}-D input to dropout3d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
                      stacklevel=3)
    if dims == spatial + 2:
        return _dropout.dropout_impl(input, p, training, inplace, feature=True)
    out = _dropout.dropout_impl(input.unsqueeze(0), p, training, False, feature=True).squeeze(0)
    return input.copy_(out) if inplace and training and p > 0 else out


@functional_op
def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) input with probability ``p``."""
    return _channel_dropout(input, p, training, inplace, 1)


@functional_op
def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) input with probability ``p``."""
    return _channel_dropout(input, p, training, inplace, 3)


@functional_op
def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: keeps zero mean and unit variance (dropped units go to SELU's saturation)."""
    _check_p(p)
    return _dropout.dropout_impl(input, p, training, inplace, alpha=True)


@functional_op
def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels (dim 1)."""
    _check_p(p)
    return _dropout.dropout_impl(input, p, training, inplace, feature=True, alpha=True)


@functional_op
def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels (dim 1) with probability ``p``; like torch, 3-D input is taken as (N, C, L)."""
    _check_p(p)
    dims = input.dim()
    if dims not in (3, 4):
        warnings.warn(f"dropout2d: Received a {dims}-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
                      stacklevel=2)
    if dims == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", stacklevel=2)
    return _dropout.dropout_impl(input, p, training, inplace, feature=True)


# ---- activations --------------------------------------------------------------------------------------
@functional_op
def relu(input, inplace: bool = False) -> Tensor:
    return _relu_(input) if inplace else _relu(input)


def _maybe_inplace(op, input, inplace, **params):
    return (_act.INPLACE[op] if inplace else op).apply(input, **params)


@functional_op
def hardtanh(input, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Hardtanh, input, inplace, min_val=min_val, max_val=max_val)


@functional_op
def relu6(input, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


@functional_op
def leaky_relu(input, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.LeakyRelu, input, inplace, negative_slope=negative_slope)


@functional_op
def leaky_relu_(input, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


@functional_op
def gelu(input, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _act.Gelu.apply(input, approximate=approximate)


@functional_op
def silu(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Silu, input, inplace)


@functional_op
def hardswish(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Hardswish, input, inplace)


@functional_op
def hardsigmoid(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Hardsigmoid, input, inplace)


@functional_op
def elu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Elu, input, inplace, alpha=alpha)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


@functional_op
def selu(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Elu, input, inplace, alpha=_SELU_ALPHA, scale=_SELU_SCALE)


@functional_op
def celu(input, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Celu, input, inplace, alpha=alpha, input_scale=1.0 / alpha)


@functional_op
def softplus(input, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return _act.Softplus.apply(input, beta=beta, threshold=threshold)


@functional_op
def logsigmoid(input) -> Tensor:
    return _act.LogSigmoid.apply(input)


@functional_op
def mish(input, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Mish, input, inplace)


@functional_op
def threshold(input, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return _maybe_inplace(_act.Threshold, input, inplace, threshold=threshold, value=value)


@functional_op
def threshold_(input, threshold: float, value: float) -> Tensor:
    """In-place threshold."""
    return _maybe_inplace(_act.Threshold, input, True, threshold=threshold, value=value)


@functional_op
def hardtanh_(input, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place hardtanh."""
    return hardtanh(input, min_val, max_val, True)


@functional_op
def elu_(input, alpha: float = 1.0) -> Tensor:
    """In-place elu."""
    return elu(input, alpha, True)


@functional_op
def celu_(input, alpha: float = 1.0) -> Tensor:
    """In-place celu."""
    return celu(input, alpha, True)


@functional_op
def selu_(input) -> Tensor:
    """In-place selu."""
    return selu(input, True)


def _rrelu(input, lower, upper, training, inplace, generator=None):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return leaky_relu(input, (lower + upper) / 2, inplace)
    x = input._data
    # torch draws a slope for each non-positive element only, in order: a 53-bit uniform scaled in float64
    # between the bounds rounded to the computation type
    opmath = np.float64 if x.dtype == np.float64 else np.float32
    lo, hi = float(opmath(lower)), float(opmath(upper))
    negative = x <= 0
    slopes = np.ones(x.shape, x.dtype)
    slopes[negative] = (u53(generator or default_generator, int(negative.sum())) * (hi - lo) + lo).astype(opmath)
    return mul_(input, slopes) if inplace else input * slopes


@functional_op
def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Leaky ReLU whose negative slope is drawn uniformly from [lower, upper] per element in training, and is
    their mean in eval."""
    return _rrelu(input, lower, upper, training, inplace)


@functional_op
def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place rrelu."""
    return _rrelu(input, lower, upper, training, True)


@functional_op
def softsign(input) -> Tensor:
    return input / (input.abs() + 1)


@functional_op
def tanhshrink(input) -> Tensor:
    return input - input.tanh()


def _softmax_dim(input, dim, name):
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                      "as an argument.", UserWarning, stacklevel=3)
        return 0 if input.dim() in (0, 1, 3) else 1
    return dim


@functional_op
def softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _softmax(input, _softmax_dim(input, dim, "softmax"), dtype=dtype)


@functional_op
def softmin(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _softmax(-input, _softmax_dim(input, dim, "softmin"), dtype=dtype)


@functional_op
def log_softmax(input, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    return _log_softmax(input, _softmax_dim(input, dim, "log_softmax"), dtype=dtype)


@functional_op
def hardshrink(input, lambd: float = 0.5) -> Tensor:
    return _act.Hardshrink.apply(input, lambd=lambd)


@functional_op
def softshrink(input, lambd: float = 0.5) -> Tensor:
    if lambd < 0:
        top = float(np.finfo(input._data.dtype).max) if input._data.dtype.kind in "fV" else math.inf
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {_dtype.C_NAMES[input.dtype]}, "
                           f"but found {lambd:g}")
    return _act.Softshrink.apply(input, lambd=lambd)


@functional_op
def prelu(input, weight) -> Tensor:
    """x where x > 0, else weight * x; ``weight`` has one slope, or one per channel (dim 1)."""
    input, weight = lower_precision(input, weight)
    if weight.numel() != 1:
        channels = input.shape[1] if input.dim() >= 2 else 1
        if input.dim() == 0 or weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        if input.dim() >= 2:
            weight = weight.reshape((-1,) + (1,) * (input.dim() - 2))
    return _act.Prelu.apply(input, weight)


@functional_op
def glu(input, dim: int = -1) -> Tensor:
    """a * sigmoid(b), ``a`` and ``b`` the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _wrap_dim(dim, input.dim())
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    return _act.Glu.apply(input, dim=dim)


# ---- embeddings and encodings ------------------------------------------------------------------------------
@functional_op
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``input``."""
    idx = input._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _embedding.embedding_renorm_(weight, input, max_norm, norm_type)
    return Embedding.apply(weight, input, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq)


_BAG_MODES = ("sum", "mean", "max")


@functional_op
def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type: float = 2, scale_grad_by_freq: bool = False,
                  mode: str = "mean", sparse: bool = False, per_sample_weights=None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """Sums, means or maxima of bags of embedding rows: the rows of each row of a 2-D ``input``, or the runs of a
    1-D ``input`` that start at ``offsets``. Indices equal to ``padding_idx`` are left out; empty bags give 0."""
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    idx = input._data
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type "
                             f"{str(type(offsets)).replace('minitorch._tensor.', 'minitorch.')}")
        starts, include_last_offset = np.arange(0, idx.size, max(idx.shape[1], 1)), False
        idx = idx.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        starts = offsets._data.astype(np.int64)
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    if max_norm is not None:
        _embedding.embedding_renorm_(weight, Tensor._wrap(idx), max_norm, norm_type)
    end = idx.size
    if include_last_offset:  # the last offset closes the last bag
        starts, end = starts[:-1], starts[-1]
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    bags, dim = len(starts), weight.shape[1]
    position = np.arange(idx.size)
    bag = np.searchsorted(starts, position, side="right") - 1  # the bag of each index
    used = (bag >= 0) & (position < end)
    if padding_idx is not None:
        used &= idx != padding_idx
    idx, bag = idx[used], bag[used]
    kept = [t for t in (input, offsets, per_sample_weights) if t is not None]
    rows = Embedding.apply(weight, idx, *kept, scale_grad_by_freq=scale_grad_by_freq, keep_weight=True)
    if mode == "max":
        return _bag_max(rows, bag, bags)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[Tensor._wrap(np.flatnonzero(used))].unsqueeze(1)
    out = _IndexScatter.apply(rows, bag, shape=(bags, dim), index=(ARRAY,), accumulate=True)
    if mode == "mean":
        counts = np.maximum(np.bincount(bag, minlength=bags), 1).astype(weight._data.dtype)
        out = out / Tensor._wrap(counts[:, None])
    return out


def _bag_max(rows, bag, bags):
    """Per bag and column, the largest of ``rows`` (bags are contiguous runs of ``bag``); 0 for empty bags."""
    out_shape = (bags, rows.shape[1])
    if not bag.size:
        return _IndexScatter.apply(rows, bag, shape=out_shape, index=(ARRAY,), accumulate=True)
    vals = rows._data
    starts = np.flatnonzero(np.r_[True, bag[1:] != bag[:-1]])
    top = np.maximum.reduceat(vals, starts, axis=0)
    is_top = vals == top[np.searchsorted(starts, np.arange(bag.size), side="right") - 1]
    first = np.minimum.reduceat(np.where(is_top, np.arange(bag.size)[:, None], bag.size), starts, axis=0)
    picked = rows.gather(0, Tensor._wrap(first))
    return _IndexScatter.apply(picked, bag[starts], shape=out_shape, index=(ARRAY,), accumulate=True)


@functional_op
def one_hot(tensor, num_classes: int = -1) -> Tensor:
    """(..., num_classes) int64 one-hot encoding of an integer tensor."""
    idx = tensor._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    if idx.size and (idx.min() < 0 or idx.max() >= num_classes):
        raise RuntimeError("Class values must be smaller than num_classes." if idx.max() >= num_classes
                           else "Class values must be non-negative.")
    return Tensor._wrap((idx[..., None] == np.arange(num_classes)).astype(np.int64))


@functional_op
def normalize(input, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim`` (the norm's gradient is 0 where it is 0, as torch's)."""
    return input / clamp(input.norm(p, dim, keepdim=True), min=eps).expand_as(input)


@functional_op
def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8) -> Tensor:
    dot = _sum(x1 * x2, dim)
    n1 = _sum(x1 * x1, dim).sqrt()
    n2 = _sum(x2 * x2, dim).sqrt()
    return dot / clamp(n1 * n2, min=eps)


@functional_op
def pairwise_distance(x1, x2, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """The p-norm of ``x1 - x2 + eps`` over the last dim."""
    dim = max(x1.dim(), x2.dim()) - 1
    return (x1 - x2 + eps).norm(p, dim, keepdim)


@functional_op
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


# ---- losses --------------------------------------------------------------------------------------------------
def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        reduce = True if reduce is None else reduce
        size_average = True if size_average is None else size_average
        return "none" if not reduce else "mean" if size_average else "sum"
    _loss.check_reduction(reduction)
    return reduction


def _check_nll_args(input, target, weight):
    """torch's checks of nll_loss's target and weight, in torch's order."""
    dims, target_dims = input.dim(), target.dim()
    if dims < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {dims})")
    batch = target.shape[0] if target_dims else 0
    if dims != 1 and input.shape[0] != batch:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({batch}).")
    if (dims == 3 or dims > 4) and tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0], *input.shape[2:]]}, got {list(target.shape)}")
    if dims <= 2 and target_dims > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if dims == 4 and target_dims != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target_dims}")
    if target.dtype not in (_dtype.int64, _dtype.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_dtype.C_NAMES[target.dtype]}")
    if dims == 1 and target_dims == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    classes = input.shape[0 if dims == 1 else 1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}" if dims <= 2 else
                           "weight tensor should be defined either for all or no classes")
    if dims == 4 and tuple(target.shape) != (input.shape[0], *input.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")


@functional_op
def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of class ``target`` under log-probabilities ``input`` (N, C, ...)."""
    input, weight = full_precision(input, weight)
    reduction = _reduction(size_average, reduce, reduction)
    _check_nll_args(input, target, weight)
    _loss.refuse_grad("nll_loss2d_forward" if input.dim() > 2 else "nll_loss_forward", "weight", weight)
    if input.dim() == 1:  # a single sample
        out = nll_loss(input.unsqueeze(0), target.reshape(1), weight, ignore_index=ignore_index,
                       reduction=reduction)
        return out.squeeze(0) if reduction == "none" else out
    classes = input.shape[1]
    rest = tuple(input.shape[2:])
    flat_in = input if not rest else reshape(input.movedim(1, -1), -1, classes)
    t = target._data.reshape(-1)
    bad = t[(t != ignore_index) & ((t < 0) | (t >= classes))]
    if bad.size:
        raise IndexError(f"Target {bad[0]} is out of bounds.")
    op = _loss.NllLoss2d if rest else _loss.NllLoss
    out = op.apply(flat_in, target if target.dim() == 1 else target.reshape(-1), weight, ignore_index=ignore_index,
                   reduction=reduction)
    return out.reshape(tuple(target.shape)) if reduction == "none" and rest else out


def _class_weighted(per_class, weight, class_dim):
    """``per_class`` (classes along ``class_dim``) times each class's weight, when there are weights."""
    if weight is None:
        return per_class
    return per_class * weight.reshape((-1,) + (1,) * (per_class.dim() - class_dim - 1))


@functional_op
def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """log_softmax followed by nll_loss; ``target`` holds class indices or class probabilities."""
    input, target, weight = full_precision(input, target, weight)
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    logp = _log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if tuple(target.shape) == tuple(input.shape):  # torch reads class probabilities by shape, not by dtype
        if target._data.dtype.kind not in "fV":
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{_dtype.C_NAMES[target.dtype]}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        losses = -_sum(_class_weighted(logp * target, weight, class_dim), class_dim)
        return _loss.reduce(losses, reduction, losses.numel())  # torch: sum / count, not mean
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    ignored = Tensor._wrap(target._data == ignore_index)
    smooth = where(ignored, 0.0, -_sum(_class_weighted(logp, weight, class_dim), class_dim))
    counted, _ = _loss.target_weights(target._data, None if weight is None else weight._data, ignore_index,
                                      logp._data.dtype)
    smooth = _loss.reduce(smooth, reduction, float(counted.sum()))
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / classes)


def _size_warning(input, target):
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=3)


@functional_op
def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Mean (or sum) of squared differences."""
    input, target = full_precision(input, target)
    _size_warning(input, target)
    return _loss.MseLoss.apply(input, target, reduction=_reduction(size_average, reduce, reduction))


@functional_op
def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Mean (or sum) of absolute differences."""
    input, target = full_precision(input, target)
    _size_warning(input, target)
    return _loss.reduce((input - target).abs(), _reduction(size_average, reduce, reduction))


@functional_op
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """Quadratic below ``beta``, linear above."""
    input, target = full_precision(input, target)
    _size_warning(input, target)
    return _loss.SmoothL1Loss.apply(input, target, reduction=_reduction(size_average, reduce, reduction), beta=beta)


@functional_op
def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    input, target = full_precision(input, target)
    _size_warning(input, target)
    return _loss.HuberLoss.apply(input, target, reduction=_reduction(None, None, reduction), delta=delta)


@functional_op
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """BCE between probabilities ``input`` and ``target``."""
    input, target, weight = full_precision(input, target, weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_dtype.C_NAMES[target.dtype]} but expected {_dtype.C_NAMES[input.dtype]}")
    _loss.refuse_grad("binary_cross_entropy", "weight", weight)
    if weight is not None:
        broadcast_shapes(target.shape, weight.shape)  # torch's error where its expand would fail
    return _loss.BinaryCrossEntropy.apply(input, target, weight, reduction=_reduction(size_average, reduce, reduction))


@functional_op
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """BCE of sigmoid(input), computed stably; ``pos_weight`` weighs positive examples per class."""
    input, target, weight, pos_weight = full_precision(input, target, weight, pos_weight)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if target.dtype is _dtype.bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if not target.is_floating_point():  # torch works in place in a tensor of the target's dtype
        raise RuntimeError(f"result type {_dtype.C_NAMES[_dtype.promote_types(input.dtype, target.dtype)]} can't "
                           f"be cast to the desired output type {_dtype.C_NAMES[target.dtype]}")
    if target.dtype is not input.dtype:
        input = input.to(target.dtype)
    _loss.refuse_grad("binary_cross_entropy_with_logits", "weight", weight)
    _loss.refuse_grad("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    broadcast_shape(*(a.shape for a in (pos_weight, input, weight) if a is not None))  # torch's order of the operands
    return _loss.BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight,
                                                    reduction=_reduction(size_average, reduce, reduction))



def _reduce_loss(losses, reduction):
    return losses.mean() if reduction == "mean" else losses.sum() if reduction == "sum" else losses


@functional_op
def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    """Pointwise KL divergence ``target * (log(target) - input)`` (``input`` holds log-probabilities);
    'batchmean' divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, "mean")
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      stacklevel=2)
    if reduction != "batchmean":
        _loss.check_reduction(reduction)
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input, target, reduction, log_target):
    input, target = full_precision(input, target)
    if log_target:
        losses = target.exp() * (target - input)
    else:  # (xlogy's gradient in its second argument, self / other, is NaN at a zero target, as in torch)
        losses = target.xlogy(target) - target * input
    if reduction == "batchmean":
        total = losses.sum()
        return total / input.shape[0] if input.dim() else total
    return _reduce_loss(losses, reduction)


@functional_op
def poisson_nll_loss(input, target, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` under Poisson(rate), rate = exp(input) or input."""
    input, target = full_precision(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    losses = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:  # computed everywhere, as in torch: the target's gradient is NaN where it is <= 0 (0 * log 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        losses = losses + stirling.masked_fill(target <= 1, 0.0)
    return _reduce_loss(losses, reduction)


@functional_op
def gaussian_nll_loss(input, target, var, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
    """``0.5 * (log(var) + (input - target)^2 / var)``, var clamped at ``eps`` (the clamp passes gradients)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = Tensor._wrap(np.full(tuple(input.shape), var, input._data.dtype))
    elif (var._data < 0).any():
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var + Tensor._wrap(np.maximum(var._data, eps) - var._data)  # clamp values, identity gradient
    losses = (var.log() + (input - target) ** 2 / var) * 0.5
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _reduce_loss(losses, reduction)


@functional_op
def margin_ranking_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``."""
    input1, input2 = full_precision(input1, input2)
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _reduce_loss((-target * (input1 - input2) + margin).clamp_min(0), reduction)


@functional_op
def hinge_embedding_loss(input, target, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """``input`` where target is 1, ``max(0, margin - input)`` where it is -1."""
    input = full_precision(input)
    reduction = _reduction(size_average, reduce, reduction)
    margin_part = where(target != 1, (margin - input).clamp_min(0), 0.0)
    self_part = where(target != -1, input, 0.0)
    return _reduce_loss(margin_part + self_part, reduction)


@functional_op
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``."""
    input, target = full_precision(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _loss.refuse_grad("soft_margin_loss", "target", target)
    return _loss.SoftMarginLoss.apply(input, target, reduction=reduction)


@functional_op
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of sigmoid(input) per class, averaged over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    class_dim = input.dim() - 1
    losses = losses.sum(class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce_loss(losses, reduction)


@functional_op
def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, size_average=None, reduce=None,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(input1, input2)`` where target is 1, ``max(0, cos - margin)`` where it is -1."""
    input1, input2 = full_precision(input1, input2)
    reduction = _reduction(size_average, reduce, reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod = _sum(input1 * input2, targ_dim)
    mag1 = _sum(input1 * input1, targ_dim) + 1e-12
    mag2 = _sum(input2 * input2, targ_dim) + 1e-12
    cos = prod / (mag1 * mag2).sqrt()
    losses = where(target == 1, 1 - cos, 0.0) + where(target == -1, (cos - margin).clamp_min(0), 0.0)
    return _reduce_loss(losses, reduction)


@functional_op
def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))``, d the pairwise p-distance."""
    anchor, positive, negative = full_precision(anchor, positive, negative)
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _reduce_loss((d_pos - d_neg + margin).clamp_min(0), reduction)


def _margin_loss_input(input, target, name):
    """(N, C) logits and (N,) targets from batched or single-sample input, with torch's shape checks."""
    if input.dim() > 2 or input.numel() == 0 and input.dim() != 2:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    x = input.reshape(1, -1) if input.dim() < 2 else input
    expected = x.shape[0]
    if name == "multi_margin_loss" and (target.dim() > 1 or target.numel() != expected):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{expected}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    return x


@functional_op
def multi_margin_loss(input, target, p: int = 1, margin: float = 1.0, weight=None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss: ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C``, weighted by ``weight[y]``."""
    input, weight = full_precision(input, weight)
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x = _margin_loss_input(input, target, "multi_margin_loss")
    _loss.refuse_grad("multi_margin_loss", "weight", weight)
    classes = x.shape[1]
    rows = target.reshape(-1, 1)  # a view: its version is checked in backward, as torch's node checks target's
    t = rows._data
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise RuntimeError("target out of range")
    z = margin - x.gather(1, rows) + x
    hinge = where(z > 0, z, 0.0)  # torch adds only the positive terms: a NaN one counts for nothing
    if p == 2:
        hinge = hinge * hinge
    if weight is not None:
        hinge = hinge * weight.gather(0, rows.reshape(-1)).reshape(-1, 1)
    losses = where(Tensor._wrap(t == np.arange(classes)), 0.0, hinge).sum(1) / classes
    if input.dim() < 2 and reduction == "none":
        losses = losses.reshape(target.shape)
    return _reduce_loss(losses, reduction)


@functional_op
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Multi-label hinge loss: for each target class ``j`` (``target`` lists them, ended by the first -1) and each
    non-target class ``i``, ``max(0, 1 - (x[j] - x[i]))``, summed and divided by C."""
    input = full_precision(input)
    reduction = _reduction(size_average, reduce, reduction)
    x = _margin_loss_input(input, target, "multilabel_margin_loss")
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    t = target._data.reshape(x.shape)
    n, classes = x.shape
    if t.size and (t.min() < -1 or t.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    valid = np.cumprod(t != -1, axis=1).astype(bool)  # the targets before the first -1
    is_target = np.zeros((n, classes), bool)
    is_target[np.nonzero(valid)[0], t[valid]] = True
    picked = x.gather(1, Tensor._wrap(np.where(valid, t, 0)))
    hinge = (1 - picked.unsqueeze(2) + x.unsqueeze(1)).clamp_min(0)
    mask = Tensor._wrap(valid[:, :, None] & ~is_target[:, None, :])
    losses = where(mask, hinge, 0.0).sum((1, 2)) / classes
    if input.dim() < 2:
        losses = losses.reshape(())
    return _reduce_loss(losses, reduction)


@functional_op
def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` for any distance ``d`` (default
    pairwise_distance)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    distance = pairwise_distance if distance_function is None else distance_function
    d_pos, d_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        d_neg = d_neg.minimum(distance(positive, negative))
    return _reduce_loss((margin + d_pos - d_neg).clamp_min(0), reduction)


@functional_op
def channel_shuffle(input, groups: int) -> Tensor:
    """(N, g * k, *) -> (N, k * g, *): the channels regrouped, ``[c0 of group 0, c0 of group 1, ...]``."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    n, c, *rest = input.shape
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    return input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(input.shape)


native_channel_shuffle = register(channel_shuffle, name="native_channel_shuffle", method=False, top_level=False,
                                  functional=True)


@functional_op
def pdist(input, p: float = 2) -> Tensor:
    """The p-norm distances between all pairs of rows ``i < j`` of an (N, M) input, in row-major pair order."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = np.triu_indices(input.shape[0], 1)
    return (input[Tensor._wrap(i)] - input[Tensor._wrap(j)]).norm(p, 1)


@functional_op
def gumbel_softmax(logits, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """A sample from the Gumbel-softmax distribution over ``dim``: softmax((logits + Gumbel noise) / tau); with
    ``hard``, the one-hot of its argmax, with the soft sample's gradient (straight-through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -Tensor._wrap(np.empty_like(logits._data)).exponential_().log()
    y_soft = _softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = Tensor._wrap(np.zeros_like(logits._data)).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


@functional_op
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction: str = "mean",
                         ignore_index: int | None = None, label_smoothing: float = 0.0, options=None) -> Tensor:
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``; a (C, d_1, ..., d_K, in)
    ``linear_weight`` gives K-dimensional logits (N, C, d_1, ..., d_K). ``options`` (torch's chunking, a memory
    strategy) do not change the values: minitorch always computes the logits whole."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batch, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), got "
                           f"{in_features} and {linear_weight.shape[-1]}, respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if out_features and not batch:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires "
                           f"batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    if tuple(target.shape) == (*batch, classes, *out_features) and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if options is not None and (out_features or reduction not in ("mean", "sum", "none") or label_smoothing != 0.0
                                or target.dtype != _dtype.int64):
        warnings.warn("linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum',"
                      "'none'}, label_smoothing == 0, target.dtype == int64, out_features == (). Got "
                      f"reduction={reduction!r}, label_smoothing={label_smoothing}, target.dtype="
                      f"{str(target.dtype).replace('minitorch.', 'torch.')}, out_features={out_features}, "
                      "tracing=False, linear_bias.shape="
                      f"{tuple(linear_bias.shape) if linear_bias is not None else None}.", stacklevel=2)
    flat_bias = None if linear_bias is None else linear_bias.reshape(-1)
    logits = linear(input, linear_weight.reshape(-1, in_features), flat_bias).reshape(*batch, classes, *out_features)
    return cross_entropy(logits, target, weight, ignore_index=-100 if ignore_index is None else ignore_index,
                         reduction=reduction, label_smoothing=label_smoothing)
