"""The pooling functions of ``nn.functional`` (and their ``minitorch.*`` forms where torch has them):
max, average, adaptive, power-average (lp) pooling in 1, 2 and 3 dims, and max_unpool.

1-d pooling runs as 2-d pooling of height 1; 3-d max pooling gathers each window's maximum by index,
3-d average pooling sums windows with a one-channel convolution.
"""
from __future__ import annotations

import math

import numpy as np

from ..._core.registry import register
from ..._core.tensor import Tensor, _wrap_dim
from ..._core.grad_mode import is_grad_enabled
from . import pooling as _pool
from ..._random_factories import rand
from .convolution import _geometry, _ntuple
from ..shape.indexing import ARRAY, grid
from ..reduction.sums import mean
from ..elementwise.unary import abs as _abs
from ..elementwise.unary import relu, sign


def _kernel_stride(kernel_size, stride, dims: int) -> tuple[tuple, tuple]:
    kernel = _ntuple(kernel_size, dims)
    return kernel, kernel if stride is None or stride == [] else _ntuple(stride, dims)


def _window_args(name: str, dims: int, kernel_size, stride, padding, dilation=1) -> tuple:
    """(kernel, stride, padding, dilation) of a max or average pooling, with torch's checks of their lengths."""
    count, either = ("", "two", "three")[dims - 1], "" if name == "avg_pool3d" else " either"
    rules = (("kernel_size", kernel_size, "a single int"), ("stride", stride, "omitted, a single int"),
             ("padding", padding, "a single int"), ("dilation", dilation, "a single int"))
    for arg, v, allowed in rules:
        if isinstance(v, (tuple, list)) and len(v) not in (1, dims) and not (arg == "stride" and len(v) == 0):
            verb = "must be either" if arg == "dilation" else f"must{either} be"
            raise RuntimeError(f"{name}: {arg} {verb} {allowed}, or a tuple of {count} ints")
    kernel, stride = _kernel_stride(kernel_size, stride, dims)
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    return kernel, stride, _ntuple(padding, dims), _ntuple(dilation, dims)


def _check_half(padding, kernel, dilation) -> None:
    for p, k, d in zip(padding, kernel, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")


def _pool_input(input, name):
    """torch's checks of the input of max_pool2d and avg_pool2d: 3 or 4 dims, of which only a batch dim is empty."""
    shape = list(input.shape)
    if name == "max_pool2d" and len(shape) not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    _wrap_dim(-3, len(shape))  # avg_pool2d reads the size of the channel dim first
    if len(shape) not in (3, 4) or 0 in shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{shape}")


def _pool1d_input(input, name):
    if input.dim() not in (2, 3):
        if name == "max_pool1d":
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                               f"input, but got:{list(input.shape)}")
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {name})")


def _pool3d_input(input):
    if input.dim() not in (4, 5) or input.numel() == 0:
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")


def _gathered(op, input, coords, dims: int):
    """``op`` (a ``_WindowMax``) gathering ``input`` at the per-plane ``coords`` (arrays over the leading
    (batch, channel) dims and the output's ``dims`` dims)."""
    lead = tuple(input.shape[:-dims])
    return op.apply(input, *coords, index=tuple(grid(lead, len(lead) + dims)) + (ARRAY,) * dims)


def _squeezed(out, return_indices: bool):
    """A 1-d result computed as 2-d: drop the height of the values (and indices)."""
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


# ---- max pooling ---------------------------------------------------------------------------------------------
@register(method=False, functional=True)
def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """max_pool2d over (N, C, 1, L)."""
    _pool1d_input(input, "max_pool1d")
    k, s = _kernel_stride(kernel_size, stride, 1)
    out = max_pool2d(input.unsqueeze(-2), (1,) + k, (1,) + s, (0,) + _ntuple(padding, 1),
                     (1,) + _ntuple(dilation, 1), ceil_mode, return_indices)
    return _squeezed(out, return_indices)


@register(method=False, functional=True)
def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """Maximum over each window (optionally with the flat indices of the maxima)."""
    _pool_input(input, "max_pool2d")
    kernel, stride, padding, dilation = _window_args("max_pool2d", 2, kernel_size, stride, padding, dilation)
    _check_half(padding, kernel, dilation)
    return _pool.MaxPool2d.apply(input, return_indices=return_indices, track=input.requires_grad and is_grad_enabled(),
                                 kernel=kernel, stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil_mode)


@register(method=False, functional=True)
def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """Maximum over each (D, H, W) window (optionally with the flat indices of the maxima)."""
    _pool3d_input(input)
    kernel, stride, padding, dilation = _window_args("max_pool3d", 3, kernel_size, stride, padding, dilation)
    _check_half(padding, kernel, dilation)
    lead, size = tuple(input.shape[:-3]), tuple(input.shape[-3:])
    coords = _pool.window_argmax(input._data.reshape((-1,) + size), kernel, stride, padding, dilation, ceil_mode)
    coords = tuple(c.reshape(lead + c.shape[1:]) for c in coords)
    out = _gathered(_pool.MaxPool3D, input, coords, 3)
    return (out, Tensor._wrap(np.ravel_multi_index(coords, size))) if return_indices else out


def _with_indices(pool):
    def with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                     return_indices: bool = False):
        return pool(input, kernel_size, stride, padding, dilation, ceil_mode, True)
    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = f"{pool.__name__} with the flat indices of the maxima (``return_indices`` is ignored)."
    return with_indices


max_pool1d_with_indices = register(_with_indices(max_pool1d), method=False, functional=True)
max_pool2d_with_indices = register(_with_indices(max_pool2d), method=False, top_level=False, functional=True)
max_pool3d_with_indices = register(_with_indices(max_pool3d), method=False, top_level=False, functional=True)


# ---- average pooling ------------------------------------------------------------------------------------------
@register(method=False, functional=True)
def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """avg_pool2d over (N, C, 1, L)."""
    _pool1d_input(input, "avg_pool1d")
    k, s = _kernel_stride(kernel_size, stride, 1)
    return avg_pool2d(input.unsqueeze(-2), (1,) + k, (1,) + s, (0,) + _ntuple(padding, 1), ceil_mode,
                      count_include_pad).squeeze(-2)


@register(method=False, top_level=False, functional=True)
def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """Average over each window."""
    _pool_input(input, "avg_pool2d")
    kernel, stride, padding, _ = _window_args("avg_pool2d", 2, kernel_size, stride, padding)
    _check_half(padding, kernel, (1, 1))
    plan = _pool.AvgPlan(input.shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    return _pool.AvgPool2d.apply(input, plan.divisor(), plan=plan)


def _window_counts(size, out, k, s, p, count_include_pad) -> np.ndarray:
    """How many elements each window along one dim averages (torch's rule: windows end at the padding's end,
    and without ``count_include_pad`` only the input's elements count)."""
    start = np.arange(out) * s - p
    end = np.minimum(start + k, size + p)
    if not count_include_pad:
        start, end = np.maximum(start, 0), np.minimum(end, size)
    return end - start


@register(method=False, top_level=False, functional=True)
def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """Average over each (D, H, W) window."""
    _pool3d_input(input)
    kernel, stride, padding, _ = _window_args("avg_pool3d", 3, kernel_size, stride, padding)
    _check_half(padding, kernel, (1, 1, 1))
    size = tuple(input.shape[-3:])
    if any(n + 2 * p < k for n, p, k in zip(size, padding, kernel)):
        raise RuntimeError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller than kernel size "
                           f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    out = [_pool.pooled_size(n, k, s, p, 1, ceil_mode) for n, k, s, p in zip(size, kernel, stride, padding)]
    pads = [(p, max(p, (o - 1) * s + k - n - p)) for n, o, k, s, p in zip(size, out, kernel, stride, padding)]
    if divisor_override:
        divisor = np.full(out, float(divisor_override))
    else:
        counts = [_window_counts(*args, count_include_pad) for args in zip(size, out, kernel, stride, padding)]
        divisor = counts[0][:, None, None] * counts[1][:, None] * counts[2]
    plan = _pool.AvgPlan3d(input.shape, kernel, _geometry(stride, pads, (1, 1, 1), 1))
    return _pool.AvgPool3d.apply(input, divisor, plan=plan)


# ---- adaptive pooling -----------------------------------------------------------------------------------------
def _adaptive_size(input, output_size, dims: int) -> tuple:
    """The output size, ``None`` entries keeping the input's size."""
    size = input.shape[-dims:]
    if not isinstance(output_size, (tuple, list)):
        return (int(output_size),) * dims
    return tuple(n if o is None else int(o) for n, o in zip(size, output_size))


def _adaptive_bounds(size: int, out: int):
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


@register(method=False, functional=True)
def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """adaptive_avg_pool2d over (N, C, 1, L)."""
    _pool1d_input(input, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _ntuple(output_size, 1)[0])).squeeze(-2)


def _adaptive_avg(input, output_size, dims, op):
    out = _adaptive_size(input, output_size, dims)
    if all(o == 1 for o in out):
        return mean(input, tuple(range(-dims, 0)), keepdim=True)
    return op.apply(input, matrices=_pool.adaptive_avg_matrices(input.shape[-dims:], out, input._data.dtype))


@register(method=False, top_level=False, functional=True)
def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average pooling to a fixed output size."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    return _adaptive_avg(input, output_size, 2, _pool.AdaptiveAvgPool2d)


@register(method=False, top_level=False, functional=True)
def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average pooling of (D, H, W) to a fixed output size."""
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(input.shape)}")
    return _adaptive_avg(input, output_size, 3, _pool.AdaptiveAvgPool3d)


def _adaptive_max(input, output_size, return_indices, dims, op):
    lead = input.dim() - dims - 1  # the first non-batch dim
    for d in range(lead, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError(f"adaptive_max_pool{dims}d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with dimension {d} being empty")
    out = _adaptive_size(input, output_size, dims)
    size = input.shape[-dims:]
    coords, flat = _pool.adaptive_max_index(input._data, [_adaptive_bounds(n, o) for n, o in zip(size, out)])
    values = _gathered(op, input, coords, dims)
    return (values, Tensor._wrap(flat)) if return_indices else values


@register(method=False, top_level=False, functional=True)
def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """adaptive_max_pool2d over (N, C, 1, L)."""
    _pool1d_input(input, "adaptive_max_pool1d")
    return _squeezed(adaptive_max_pool2d(input.unsqueeze(-2), (1, _ntuple(output_size, 1)[0]), return_indices),
                     return_indices)


@register(method=False, top_level=False, functional=True)
def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Maximum over torch's adaptive windows (start floor(i*H/oh), end ceil((i+1)*H/oh))."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    return _adaptive_max(input, output_size, return_indices, 2, _pool.AdaptiveMaxPool2D)


@register(method=False, top_level=False, functional=True)
def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """Maximum over torch's adaptive (D, H, W) windows."""
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {list(input.shape)}")
    return _adaptive_max(input, output_size, return_indices, 3, _pool.AdaptiveMaxPool3D)


def _adaptive_with_indices(pool):
    def with_indices(input: Tensor, output_size, return_indices: bool = False):
        return pool(input, output_size, True)
    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = f"{pool.__name__} with the flat indices of the maxima (``return_indices`` is ignored)."
    return with_indices


adaptive_max_pool1d_with_indices = register(_adaptive_with_indices(adaptive_max_pool1d), method=False,
                                            top_level=False, functional=True)
adaptive_max_pool2d_with_indices = register(_adaptive_with_indices(adaptive_max_pool2d), method=False,
                                            top_level=False, functional=True)
adaptive_max_pool3d_with_indices = register(_adaptive_with_indices(adaptive_max_pool3d), method=False,
                                            top_level=False, functional=True)


@register(name="adaptive_max_pool1d", method=False)
def adaptive_max_pool1d_values_indices(input: Tensor, output_size) -> tuple[Tensor, Tensor]:
    """``torch.adaptive_max_pool1d``: the maxima and their indices (``F.adaptive_max_pool1d`` returns only the
    maxima unless asked)."""
    return adaptive_max_pool1d(input, output_size, True)


# ---- power-average pooling ------------------------------------------------------------------------------------
def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, dims, avg):
    kernel = _ntuple(kernel_size, dims)
    out = avg(input.pow(norm_type), kernel, stride, 0, ceil_mode)
    return (sign(out) * relu(_abs(out))).mul(math.prod(kernel)).pow(1.0 / norm_type)


@register(method=False, top_level=False, functional=True)
def lp_pool1d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-power average over each window, to the power 1 / ``norm_type``, times the window size."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1, avg_pool1d)


@register(method=False, top_level=False, functional=True)
def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """lp_pool1d over (H, W) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2, avg_pool2d)


@register(method=False, top_level=False, functional=True)
def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """lp_pool1d over (D, H, W) windows."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3, avg_pool3d)


# ---- fractional max pooling ------------------------------------------------------------------------------------
def _fractional_starts(samples: np.ndarray, size: int, out: int, k: int) -> np.ndarray:
    """torch's pseudo-random window starts along one dim, one row per plane: (P,) samples in [0, 1) -> (P, out)."""
    starts = np.empty((samples.shape[0], out), np.int64)
    if out > 1:
        alpha = samples.dtype.type(size - k) / samples.dtype.type(out - 1)  # in the input's dtype, as torch
        i = np.arange(out - 1, dtype=samples.dtype)[None, :]
        starts[:, :-1] = ((i + samples[:, None]) * alpha).astype(np.int64) - (samples * alpha).astype(np.int64)[:, None]
    starts[:, -1] = size - k
    return starts


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, dims, op):
    name = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    kernel = _ntuple(kernel_size, dims)
    size = tuple(input.shape[-dims:])
    if output_size is None:
        ratio = output_ratio if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * dims
        output_size = tuple(int(n * r) for n, r in zip(size, ratio))
    out = _ntuple(output_size, dims)
    axes = ("time", "height", "width")[-dims:]
    for axis, n, o, k in zip(axes, size, out, kernel):
        if o + k - 1 > n - (dims == 3):  # torch's 3-d check is strict
            raise RuntimeError(f"{name}{'_out' if dims == 3 else ''}(): pool {axis} {k} too large relative to input "
                               f"{axis} {n}")
    lead = tuple(input.shape[:-dims])
    batch = 1 if input.dim() == dims + 1 else input.shape[0]
    if _random_samples is None:
        _random_samples = rand(batch, input.shape[-dims - 1], dims, dtype=input.dtype)
    elif _random_samples.shape[1] != input.shape[-dims - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    samples = _random_samples._data.reshape(-1, dims)
    # the samples are ordered (width, height) in 2-d and (time, height, width) in 3-d
    order = range(dims) if dims == 3 else reversed(range(dims))
    starts = [_fractional_starts(samples[:, j], n, o, k) for j, n, o, k in zip(order, size, out, kernel)]
    # every window of every plane by advanced indexing: (P, *out, *kernel)
    planes = input._data.reshape((-1,) + size)
    index = [np.arange(planes.shape[0]).reshape((-1,) + (1,) * 2 * dims)]
    for d, (st, k) in enumerate(zip(starts, kernel)):
        start_shape, tap_shape = [st.shape[0]] + [1] * 2 * dims, [1] * (1 + 2 * dims)
        start_shape[1 + d], tap_shape[1 + dims + d] = st.shape[1], k
        index.append(st.reshape(start_shape) + np.arange(k).reshape(tap_shape))
    arg = _pool.window_max_position(planes[tuple(index)].reshape((planes.shape[0],) + out + (-1,)))
    coords = []
    for d, (st, offset) in enumerate(zip(starts, np.unravel_index(arg, kernel))):
        shape = [st.shape[0]] + [1] * dims
        shape[1 + d] = st.shape[1]
        coords.append((st.reshape(shape) + offset).reshape(lead + out))
    coords = tuple(coords)
    values = _gathered(op, input, coords, dims)
    return (values, Tensor._wrap(np.ravel_multi_index(coords, size))) if return_indices else values


@register(method=False, top_level=False, functional=True)
def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples: Tensor | None = None):
    """Max pooling over pseudo-randomly placed (overlapping) windows, to ``output_size`` or ``output_ratio`` of
    the input; ``_random_samples`` (N, C, 2) in [0, 1) place them (drawn from the global generator if None)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2,
                                _pool.FractionalMaxPool2D)


@register(method=False, top_level=False, functional=True)
def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples: Tensor | None = None):
    """fractional_max_pool2d over (D, H, W); ``_random_samples`` is (N, C, 3)."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3,
                                _pool.FractionalMaxPool3D)


def _fractional_with_indices(pool):
    def with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None, return_indices: bool = False,
                     _random_samples: Tensor | None = None):
        return pool(input, kernel_size, output_size, output_ratio, True, _random_samples)
    with_indices.__name__ = with_indices.__qualname__ = f"{pool.__name__}_with_indices"
    with_indices.__doc__ = f"{pool.__name__} with the flat indices of the maxima (``return_indices`` is ignored)."
    return with_indices


fractional_max_pool2d_with_indices = register(_fractional_with_indices(fractional_max_pool2d), method=False,
                                              top_level=False, functional=True)
fractional_max_pool3d_with_indices = register(_fractional_with_indices(fractional_max_pool3d), method=False,
                                              top_level=False, functional=True)


# ---- max_unpool -----------------------------------------------------------------------------------------------
def _max_unpool(input, indices, kernel_size, stride, padding, output_size, dims, op):
    kernel, stride = _kernel_stride(kernel_size, stride, dims)
    padding = _ntuple(padding, dims)
    size = tuple(input.shape[-dims:])
    default = tuple((n - 1) * s + k - 2 * p for n, s, k, p in zip(size, stride, kernel, padding))
    if output_size is None:
        out = default
    else:
        out = tuple(output_size)[-dims:] if len(output_size) == dims + 2 else tuple(output_size)
        if len(out) != dims:
            raise ValueError(f"output_size should be a sequence containing {dims} or {dims + 2} elements, but it "
                             f"has a length of '{len(output_size)}'")
        for d, (o, n, s) in enumerate(zip(out, default, stride)):
            if not n - s < o < n + s:
                raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {d} must be between {n - s} and '
                                 f"{n + s})")
    if tuple(indices.shape) != tuple(input.shape):
        lift = [1] if dims == 1 else []  # torch unpools in 1-d as in 2-d, with a width of 1
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape) + lift}) but got indices tensor with shape: "
                           f"{list(indices.shape) + lift}")
    lead, plane, flat = tuple(input.shape[:-dims]), math.prod(out), indices._data
    if flat.size and (flat.min() < 0 or flat.max() >= plane):
        bad = flat.max() if flat.max() >= plane else flat.min()
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{'x'.join(map(str, out))})")
    return op.apply(input, indices, shape=lead + out, dims=dims)


@register(method=False, top_level=False, functional=True)
def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of max_pool1d: each value written at its index, zeros elsewhere."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1, _pool.MaxUnpool1D)


@register(method=False, top_level=False, functional=True)
def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of max_pool2d: each value written at its flat (H * W) index, zeros elsewhere."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2, _pool.MaxUnpool2D)


@register(method=False, top_level=False, functional=True)
def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """The inverse of max_pool3d: each value written at its flat (D * H * W) index, zeros elsewhere."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3, _pool.MaxUnpool3D)
