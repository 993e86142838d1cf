"""The memory layout of every registered op's result on the registry's sample inputs (tests/registry_cases.py and
tests/registry_samples_*.py), the same code for minitorch and for PyTorch: shape, strides, contiguity and which
inputs it shares memory with. Recorded from torch by tests/fixtures/make_layout_fixture.py, checked by
tests/ops/test_layout.py."""
import types

import numpy as np

import registry_cases as reg

class Library:
    """minitorch, or torch seen through the names the samples use."""

    def __init__(self, module, functional, name):
        self.module, self.functional, self.name = module, functional, name
        self._scopes = {}

    def x(self, *shape, low=0.5, high=1.5, seed=0):
        values = np.random.default_rng(seed).uniform(low, high, shape)
        return self.module.tensor(values, dtype=self.module.float64, requires_grad=True)

    def idx(self, *values):
        return self.module.tensor(values, dtype=self.module.int64)

    def op(self, name):
        """The library's function for the registered op ``name`` (torch's: the function, else the method)."""
        if self.name == "minitorch":
            return reg.OPS[name]
        if name.startswith("F."):
            return getattr(self.functional, name[2:])
        if hasattr(self.module, name):
            return getattr(self.module, name)
        return lambda t, *args, **kwargs: getattr(t, name)(*args, **kwargs)

    def rebind(self, fn):
        """``fn`` (a sample's function or inputs) calling this library: the names ``mt``, ``F``, ``x``, ``idx`` of
        its module replaced, and so in the module's other functions and the sample functions it closes over."""
        if self.name == "minitorch":
            return fn
        return self._copy(fn, self._scope(fn.__globals__))

    def _scope(self, module_globals):
        key = id(module_globals)
        if key not in self._scopes:
            names = {"mt": self.module, "F": self.functional, "x": self.x, "_x": self.x, "idx": self.idx,
                     "_idx": self.idx}
            scope = self._scopes[key] = dict(module_globals)
            scope.update({k: v for k, v in names.items() if k in scope})
            for k, v in module_globals.items():
                if isinstance(v, types.FunctionType) and v.__globals__ is module_globals and k not in names:
                    scope[k] = self._copy(v, scope)
        return self._scopes[key]

    def _copy(self, fn, scope):
        closure = fn.__closure__ and tuple(
            types.CellType(self.rebind(c.cell_contents)) if _sample_function(c) else c for c in fn.__closure__)
        copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, closure)
        copy.__kwdefaults__ = fn.__kwdefaults__
        return copy


def _sample_function(cell) -> bool:
    """Whether a closure cell holds a function of the test modules (a sample wrapped by a helper)."""
    try:
        value = cell.cell_contents
    except ValueError:  # an empty cell
        return False
    return isinstance(value, types.FunctionType) and value.__module__.startswith(("registry_", "test_"))


def case(lib, name):
    """(function, inputs) of the sample for ``name``, as ``registry_cases._case`` builds it, in ``lib``; or None."""
    key = reg._sampled_name(name)
    if key in reg.SAMPLES:
        f, inputs = reg.SAMPLES[key]
        return (lib.rebind(f) if f else lib.op(name)), lib.rebind(inputs)()
    if name.endswith("_"):
        base = name[:-1]
        if base in reg.OPS and reg._sampled_name(base) in reg.SAMPLES and reg.SAMPLES[reg._sampled_name(base)][0]:
            return None
        inputs = case(lib, base)[1] if base in reg.OPS else (lib.x(3, 4),)
        return (lambda t, *rest: lib.op(name)(t.clone(), *rest)), inputs
    if key in reg.BINARY:
        sa, sb = reg.BINARY_SHAPES.get(key, ((3, 4), (3, 4)))
        if key == "where":
            return (lambda a, b: lib.module.where(a > 1.0, a, b)), (lib.x(*sa), lib.x(*sb, seed=1))
        return lib.op(name), (lib.x(*sa), lib.x(*sb, low=2.0, high=3.0, seed=1))
    return lib.op(name), (lib.x(3, 4),)


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
