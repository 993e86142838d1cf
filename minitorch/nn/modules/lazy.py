"""Lazy modules: their input sizes (in_features, in_channels, num_features) are read from the first input,
which then gives the parameters their shapes; the module then becomes its eager class (``cls_to_become``).
The lazy layers live beside their eager classes (``LazyLinear`` in linear.py, ...), as in torch."""
from __future__ import annotations

import itertools

from ..parameter import UninitializedBuffer, UninitializedTensorMixin


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
