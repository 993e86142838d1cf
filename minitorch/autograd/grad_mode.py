"""``torch.autograd.grad_mode`` (defined in ``minitorch._core.grad_mode``)."""
from .._core.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                               set_grad_enabled)

__all__ = ["enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled", "no_grad",
           "set_grad_enabled"]
