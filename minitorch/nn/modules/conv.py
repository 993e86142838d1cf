"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d, and their lazy forms."""
from __future__ import annotations

import math

from ... import _factories
from ...autograd.grad_mode import no_grad
from .. import functional as F, init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module


# torch names these sets in its errors (their printed order changes with the string hash seed, as torch's does)
_PADDING_STRINGS = {"same", "valid"}
_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _tuple(v, n: int) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class _ConvNd(Module):
    """Shared parameters, initialisation and repr of the convolution layers."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, dims, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        stride = _tuple(stride, dims)
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _tuple(kernel_size, dims), stride
        self.padding = padding if isinstance(padding, str) else _tuple(padding, dims)
        self.dilation, self.output_padding = _tuple(dilation, dims), _tuple(output_padding, dims)
        self.transposed, self.groups, self.padding_mode = transposed, groups, padding_mode
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(_factories.empty(*shape, *self.kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(_factories.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _padded(self, input):
        """Non-zero padding modes pad explicitly before a convolution without padding ('same': the convolution's
        own (before, after) pads, more after than before for an even kernel)."""
        if self.padding == "valid":
            return input
        pads = []
        for i in reversed(range(len(self.kernel_size))):
            total = self.dilation[i] * (self.kernel_size[i] - 1) if self.padding == "same" else 2 * self.padding[i]
            pads += [total // 2, total - total // 2]
        return F.pad(input, pads, mode=self.padding_mode)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        zeros = (0,) * len(self.kernel_size)
        if self.padding != zeros:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.kernel_size):
            s += f", dilation={self.dilation}"
        if self.output_padding != zeros:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    """Conv1d/2d/3d: ``function`` is the functional form, ``dims`` the number of spatial dims."""

    dims = 2
    function = staticmethod(F.conv2d)

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False, 0, groups, bias,
                         padding_mode, self.dims, dtype)

    def forward(self, input):
        if self.padding_mode != "zeros":
            return self.function(self._padded(input), self.weight, self.bias, self.stride, 0, self.dilation,
                                 self.groups)
        return self.function(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_Conv):
    """1-D convolution over (N, C, L)."""

    dims, function = 1, staticmethod(F.conv1d)


class Conv2d(_Conv):
    """2-D convolution over (N, C, H, W); ``groups=in_channels`` makes it depthwise."""


class Conv3d(_Conv):
    """3-D convolution over (N, C, D, H, W)."""

    dims, function = 3, staticmethod(F.conv3d)


class _ConvTranspose(_ConvNd):
    """ConvTranspose1d/2d/3d: the transpose of the convolution (a learnable upsampling)."""

    dims = 2
    function = staticmethod(F.conv_transpose2d)

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, True, output_padding,
                         groups, bias, padding_mode, self.dims, dtype)

    def _output_padding(self, input, output_size) -> tuple:
        """The output_padding that gives ``output_size`` (torch's checks of the size asked for)."""
        if output_size is None:
            return self.output_padding
        if len(output_size) not in (self.dims, self.dims + 2):
            raise ValueError(f"ConvTranspose{self.dims}D: for {input.dim()}D input, output_size must have "
                             f"{self.dims} or {self.dims + 2} elements (got {len(output_size)})")
        output_size = tuple(output_size)[-self.dims:]
        natural = [(s - 1) * st - 2 * p + d * (k - 1) + 1 for s, st, p, d, k in
                   zip(input.shape[-self.dims:], self.stride, self.padding, self.dilation, self.kernel_size)]
        largest = [n + s - 1 for n, s in zip(natural, self.stride)]
        if any(not n <= o <= m for n, o, m in zip(natural, output_size, largest)):
            raise ValueError(f"requested an output size of {list(output_size)}, but valid sizes range from {natural} "
                             f"to {largest} (for an input of {input.shape[-self.dims:]})")
        return tuple(o - n for o, n in zip(output_size, natural))

    def forward(self, input, output_size=None):
        if isinstance(self.padding, str):  # what torch's argument parser says of a string passed to the function
            raise TypeError(f"conv_transpose{self.dims}d(): argument 'padding' (position 5) must be tuple of ints, but "
                            "found element of type str at pos 0")
        return self.function(input, self.weight, self.bias, self.stride, self.padding,
                             self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTranspose):
    """The transpose of Conv1d: (N, C_in, L) -> (N, C_out, L')."""

    dims, function = 1, staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTranspose):
    """The transpose of Conv2d (a learnable upsampling)."""


class ConvTranspose3d(_ConvTranspose):
    """The transpose of Conv3d: (N, C_in, D, H, W) -> (N, C_out, D', H', W')."""

    dims, function = 3, staticmethod(F.conv_transpose3d)


class _LazyConvMixin(LazyModuleMixin):
    """Conv*d / ConvTranspose*d whose ``in_channels`` is the channel size of the first input."""

    def __init__(self, out_channels: int, kernel_size, *args, dtype=None, **kwargs):
        super().__init__(0, 0, kernel_size, *args, **kwargs)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if self.bias is not None:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if self._ready() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args) -> None:
        if not self.has_uninitialized_params():
            return
        dims = len(self.kernel_size)
        name = type(self).__name__[4:].lower()
        if input.dim() not in (dims + 1, dims + 2):
            raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                               f"input of size: {list(input.shape)}")
        self.in_channels = input.shape[0 if input.dim() == dims + 1 else 1]
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        with no_grad():
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups, *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class LazyConv1d(_LazyConvMixin, Conv1d):
    """Conv1d whose in_channels is read from the first input."""

    cls_to_become = Conv1d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, dtype=dtype)


class LazyConv2d(_LazyConvMixin, Conv2d):
    """Conv2d whose in_channels is read from the first input."""

    cls_to_become = Conv2d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, dtype=dtype)


class LazyConv3d(_LazyConvMixin, Conv3d):
    """Conv3d whose in_channels is read from the first input."""

    cls_to_become = Conv3d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, dtype=dtype)


class LazyConvTranspose1d(_LazyConvMixin, ConvTranspose1d):
    """ConvTranspose1d whose in_channels is read from the first input."""

    cls_to_become = ConvTranspose1d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0, groups: int = 1,
                 bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation,
                         padding_mode, dtype=dtype)


class LazyConvTranspose2d(_LazyConvMixin, ConvTranspose2d):
    """ConvTranspose2d whose in_channels is read from the first input."""

    cls_to_become = ConvTranspose2d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0, groups: int = 1,
                 bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation,
                         padding_mode, dtype=dtype)


class LazyConvTranspose3d(_LazyConvMixin, ConvTranspose3d):
    """ConvTranspose3d whose in_channels is read from the first input."""

    cls_to_become = ConvTranspose3d

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0, groups: int = 1,
                 bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None, dtype=None):
        super().__init__(out_channels, kernel_size, stride, padding, output_padding, groups, bias, dilation,
                         padding_mode, dtype=dtype)
