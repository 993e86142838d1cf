"""Full backward hooks on modules, as PyTorch implements them: the module's inputs and
outputs pass through identity Functions, whose graph nodes see the gradients w.r.t.
the outputs (grad_output) and w.r.t. the inputs (grad_input)."""
from __future__ import annotations

import warnings

from ..._core.tensor import Tensor
from ...autograd.function import Function
from ..._core.grad_mode import state


class BackwardHookFunction(Function):
    """Identity on tensors; its node is where the module's backward hooks attach."""

    @staticmethod
    def forward(ctx, *tensors):
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """Connects one call of ``module`` to its ``_backward_pre_hooks`` and ``_backward_hooks``."""

    def __init__(self, module):
        self.module = module
        self.grad_outputs = None
        self.has_input_node = False
        self.n_inputs = 0

    def _wrap(self, values, register):
        """Route the tensors among ``values`` that require grad through one identity node."""
        single = isinstance(values, Tensor)
        items = [values] if single else list(values) if isinstance(values, (tuple, list)) else None
        if items is None or not state.grad_enabled:
            return values, False
        positions = [i for i, v in enumerate(items) if isinstance(v, Tensor) and v.requires_grad]
        if not positions:
            return values, False
        new = BackwardHookFunction.apply(*(items[i] for i in positions))
        register(new[0].grad_fn)
        for i, t in zip(positions, new):
            items[i] = t
        return (items[0] if single else type(values)(items)), True

    def setup_inputs(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        args, self.has_input_node = self._wrap(args, lambda node: node.register_hook(self._on_input_grads))
        return args

    def setup_outputs(self, out):
        out, _ = self._wrap(out, lambda node: node.register_prehook(self._on_output_grads))
        return out

    def _on_output_grads(self, grad_outputs):
        for hook in list(self.module._backward_pre_hooks.values()):
            result = hook(self.module, grad_outputs)
            if result is not None:
                grad_outputs = result if isinstance(result, tuple) else (result,)
        self.grad_outputs = grad_outputs
        if not self.has_input_node and self.module._backward_hooks:
            warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                          "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                          "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                          UserWarning, stacklevel=2)
            self._call_hooks((None,) * max(self.n_inputs, 1))
        return grad_outputs

    def _on_input_grads(self, grad_inputs, grad_outputs):
        return self._call_hooks(grad_inputs)

    def _call_hooks(self, grad_inputs):
        for hook in list(self.module._backward_hooks.values()):
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None:
                grad_inputs = result if isinstance(result, tuple) else (result,)
        return grad_inputs
