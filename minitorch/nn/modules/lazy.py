"""Lazy modules: their input sizes (in_features, in_channels, num_features) are read from the first input,
which then gives the parameters their shapes; the module then becomes its eager class (``cls_to_become``)."""
from __future__ import annotations

import itertools

from ...autograd.grad_mode import no_grad
from ..parameter import UninitializedBuffer, UninitializedParameter, UninitializedTensorMixin
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear


class LazyModuleMixin:
    """Shapes parameters from the first input: ``initialize_parameters(*inputs)`` runs before the first forward,
    then the module becomes ``cls_to_become``. Loading a state dict materialises the parameters it holds."""

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether some parameter or buffer still waits for its shape."""
        return any(isinstance(v, UninitializedTensorMixin)
                   for v in itertools.chain(self._parameters.values(), self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs) -> None:
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs) -> None:
        waiting = set()  # uninitialised here and in the state dict: nothing to load yet
        for name, value in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if isinstance(value, UninitializedTensorMixin) and key in state_dict:
                if isinstance(state_dict[key], UninitializedTensorMixin):
                    waiting.add(key)
                else:
                    value.materialize(state_dict[key].shape)
        if waiting:
            state_dict = {k: v for k, v in state_dict.items() if k not in waiting}
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)
        missing_keys[:] = [k for k in missing_keys if k not in waiting]

    def _apply(self, fn):
        """As Module._apply; buffers still waiting for their shape stay uninitialised (in the new dtype)."""
        waiting = [n for n, b in self._buffers.items() if isinstance(b, UninitializedTensorMixin)]
        super()._apply(fn)
        for name in waiting:
            self._buffers[name] = UninitializedBuffer(dtype=self._buffers[name].dtype)
        return self

    def _ready(self) -> bool:
        """Whether reset_parameters has real parameters to initialise."""
        return not self.has_uninitialized_params()


def _infer_parameters(module, args) -> None:
    """The forward pre-hook of a lazy module: shape its parameters, then make it its eager class."""
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    del module._initialize_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose ``in_features`` is the last size of the first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if self._ready() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


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


class _LazyNormBase(LazyModuleMixin):
    """BatchNorm*d / InstanceNorm*d whose ``num_features`` is the channel size (dim 1) of the first input."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None):
        super().__init__(0, eps, momentum, affine, track_running_stats, device, dtype)
        if self.affine:
            self.weight = UninitializedParameter(dtype=dtype)
            self.bias = UninitializedParameter(dtype=dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)

    def reset_parameters(self) -> None:
        if self._ready() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            with no_grad():
                for t in (self.weight, self.bias, self.running_mean, self.running_var):
                    if t is not None:
                        t.materialize((self.num_features,))
                self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """BatchNorm1d whose num_features is read from the first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """BatchNorm2d whose num_features is read from the first input."""

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """BatchNorm3d whose num_features is read from the first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """InstanceNorm1d whose num_features is read from the first input."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """InstanceNorm2d whose num_features is read from the first input."""

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """InstanceNorm3d whose num_features is read from the first input."""

    cls_to_become = InstanceNorm3d
