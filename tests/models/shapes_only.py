"""A test-only way to build the zoo's big models cheaply, for their module trees, state_dict keys, shapes and
parameter counts: never for numbers.

Inside ``shapes_only()``, ``minitorch.empty/zeros/ones/full`` give zero-stride arrays (one element of memory
whatever the shape) and weight initialisation does nothing (``nn.init``'s fills and draws, ``Tensor.normal_`` and
``uniform_``), so vit_h_14's 632M parameters take no memory and no time.
"""
import contextlib

import numpy as np
import pytest

import minitorch
from minitorch import _factories
from minitorch.nn import init


def _zero_stride(fill, size, dtype, device, requires_grad, fn, default=None, named=False):
    shape = _factories._checked_size(size, fn, named)
    one = np.full(1, 0 if fill is None else fill, _factories._np_dtype(dtype, default))
    return _factories._leaf(np.lib.stride_tricks.as_strided(one, shape, (0,) * len(shape)), requires_grad)


def _unchanged(tensor, *args, **kwargs):
    return tensor


@contextlib.contextmanager
def shapes_only():
    """Build models with zero-stride storage and without initialisation (see the module's docstring)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_factories, "_filled", _zero_stride)
        for name in ("_fill", "uniform_", "normal_", "trunc_normal_"):
            patch.setattr(init, name, _unchanged)
        patch.setattr(minitorch.Tensor, "normal_", _unchanged)
        patch.setattr(minitorch.Tensor, "uniform_", _unchanged)
        yield
