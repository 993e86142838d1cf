"""The memory layout of every registered op's result on the registry's sample inputs (the samples on the registry
rows, through tests/registry_cases.py), the same code for minitorch and for PyTorch: shape, strides, contiguity and which
inputs it shares memory with. Recorded from torch by tests/fixtures/make_layout_fixture.py, checked by
tests/ops/test_layout.py."""
import numpy as np

import registry_cases as reg
from edge_value_cases import TorchForm


class Library:
    """minitorch, or torch (with the samples rewritten for it by ``edge_value_cases.TorchForm``)."""

    def __init__(self, module, functional, name):
        self.module, self.functional, self.name = module, functional, name
        self.form = None if name == "minitorch" else TorchForm()


def case(lib, name):
    """(function, inputs) of the sample for ``name``, as ``registry_cases._case`` builds it, in ``lib``; or None."""
    sample = reg._sample(name)
    if sample is None:
        return None
    fn, inputs = sample if lib.form is None else map(lib.form, sample)
    return fn, inputs()


def _tensors(out, tensor_type):
    if isinstance(out, tensor_type):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o, tensor_type)]
    return []


def _shares(a, b, lib) -> bool:
    if lib.name == "minitorch":
        return bool(np.shares_memory(a._data, b._data))
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() and a.numel() > 0


def layout(lib, name):
    """[{shape, stride, contiguous, aliases}] for each tensor the sample of ``name`` returns (aliases: the
    positions of the inputs whose memory it shares), or None where the sample does not run in ``lib``."""
    try:
        fn, inputs = case(lib, name)
        out = fn(*inputs)
    except Exception:  # an op or call form torch lacks
        return None
    tensor_type = lib.module.Tensor
    leaves = [t for t in inputs if isinstance(t, tensor_type)]
    return [{"shape": list(t.shape), "stride": list(t.stride()), "contiguous": t.is_contiguous(),
             "aliases": [i for i, src in enumerate(leaves) if _shares(t, src, lib)]}
            for t in _tensors(out, tensor_type)]


NAMES = sorted(set(reg.OPS) - reg.NOT_DIFFERENTIABLE - reg.NO_DERIVATIVE)
