"""The edge-value sweep's cases, run the same way by minitorch (tests/ops/test_edge_values.py) and by PyTorch
(tests/fixtures/make_edge_value_fixtures.py, which records PyTorch's answers in tests/fixtures/edge_values.json).

Every registered differentiable op runs on its registry sample (on its registry row; tests/registry_cases.py) with
``nan``, then ``inf``/``-inf``, then ``-0.0``/``0.0`` written into one floating input at a time, and with the op's
boundary points where tests/registry_cases.py lists them in ``EDGES``. A case's
result is its outputs and the gradient of a fixed weighting of its outputs with respect to every input.
"""
from __future__ import annotations

import builtins
import contextlib
import dis
import hashlib
import importlib
import pathlib
import types
import warnings

import numpy as np

import minitorch as mt
import registry_cases as registry
from minitorch._core import registry as _registry
from minitorch._core import samples as _samples

HERE = pathlib.Path(__file__).parent
FIXTURE = HERE / "fixtures" / "edge_values.json"

NAN, INF = float("nan"), float("inf")
# The values written into each floating input in turn, spread over it (a reduction sees the others clean).
VARIANTS = {"nan": (NAN,), "inf": (INF, -INF), "zero": (-0.0, 0.0)}


def _spread(values, n):
    """Positions for ``values`` in a flat input of ``n`` elements: the middles of equal parts."""
    k = len(values)
    return [((2 * j + 1) * n) // (2 * k) for j in range(min(k, n))]


def _written(array, values, positions):
    out = array.copy()
    flat = out.reshape(-1)
    for p, v in zip(positions, values):
        flat[p] = v
    return out


def cases(name):
    """The cases of the registered op ``name``: ``[(key, function, inputs)]``, ``inputs`` a list of
    ``(array, requires_grad)``; ``[]`` for an in-place form swept through its out-of-place op."""
    case = registry._case(name)
    if case is None:
        return []
    fn, tensors = case
    inputs = [(t.detach().numpy().copy(), t.requires_grad) for t in tensors]
    out = [(f"{name}/clean", fn, inputs)]  # the sample as it is: a difference here is not about edge values
    for k, (array, _) in enumerate(inputs):
        if array.dtype.kind != "f":
            continue
        for label, values in VARIANTS.items():
            changed = list(inputs)
            changed[k] = (_written(array, values, _spread(values, array.size)), inputs[k][1])
            out.append((f"{name}/{label}/{k}", fn, changed))
    edges = _edges(name)
    if edges is not None:
        changed = list(inputs)
        for k, points in (edges.items() if isinstance(edges, dict) else [(0, edges)]):
            array = inputs[k][0]
            assert len(points) <= array.size, f"{name}: more EDGES points than its sample's input {k} holds"
            changed[k] = (_written(array, points, range(len(points))), inputs[k][1])
        out.append((f"{name}/edge", fn, changed))
    return out


def _edges(name):
    """The ``EDGES`` entry of ``name``, of an alias of it, or (an in-place form sampled as its op) of that op."""
    for key in (name, name[:-1]) if name.endswith("_") else (name,):
        fn = registry.OPS.get(key)
        for other in (key, *sorted(registry.EDGES)):
            if other in registry.EDGES and registry.OPS.get(other) is fn:
                return registry.EDGES[other]
    return None


def digest(inputs) -> str:
    """A short hash of a case's inputs: a fixture recorded for other inputs is stale."""
    h = hashlib.sha256()
    for array, requires_grad in inputs:
        h.update(f"{array.dtype.str}{array.shape}{requires_grad}".encode())
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()[:16]


def _weights(shape, dtype):
    """A fixed weighting of an output (1, 1.5, 2, 1, ...): a permuted gradient shows."""
    n = int(np.prod(shape, dtype=np.int64))
    return (1 + 0.5 * (np.arange(n) % 3)).reshape(shape).astype(dtype)


def _tensors(value):
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(v)]
    return [value] if hasattr(value, "requires_grad") else []


def _error(e: BaseException) -> dict:
    return {"error": [type(e).__name__, (str(e).splitlines() or [""])[0]]}


def _input(lib, array, requires_grad, strided):
    """``array`` as a leaf of ``lib``; ``strided``: every other element of a buffer twice as long, which keeps
    torch's elementwise kernels on their scalar path (a contiguous one takes the vectorized path where its
    length allows, and the two paths disagree on NaN for some ops)."""
    if strided and array.ndim:
        return lib.tensor(np.stack([array, array], -1))[..., 0].detach().requires_grad_(requires_grad)
    return lib.tensor(array, requires_grad=requires_grad)


_SEEDED = {}  # lib -> its generator's state after manual_seed(0)


@contextlib.contextmanager
def rng_kept(lib):
    """Restore ``lib``'s generator state after the ``run``s inside (each starts from ``manual_seed(0)``)."""
    state = lib.get_rng_state()
    try:
        yield
    finally:
        lib.set_rng_state(state)


def run(lib, fn, inputs, strided=False) -> dict:
    """Run one case on ``lib`` (minitorch or torch) from ``manual_seed(0)``: ``{"out": [arrays], "grad": [arrays]}``,
    either of them ``{"error": [type, first line]}`` where it raises."""
    if lib not in _SEEDED:
        with rng_kept(lib):
            lib.manual_seed(0)
            _SEEDED[lib] = lib.get_rng_state()
    lib.set_rng_state(_SEEDED[lib])
    return _run(lib, fn, [_input(lib, a, rg, strided) for a, rg in inputs], inputs)


def _run(lib, fn, tensors, inputs) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            outputs = _tensors(fn(*tensors))
        except Exception as e:
            return {"out": _error(e), "grad": _error(e)}
        result = {"out": [np.array(o.numpy(force=True)) for o in outputs]}
        loss = None
        for o, array in zip(outputs, result["out"]):
            if not o.requires_grad:
                continue
            w = lib.tensor(_weights(o.shape, array.real.dtype))
            for part in ((o.real, o.imag) if array.dtype.kind == "c" else (o,)):
                term = (part * w).sum()
                loss = term if loss is None else loss + term
        wrt = [t for t in tensors if t.requires_grad]
        if loss is None or not wrt:
            result["grad"] = []
            return result
        try:
            grads = lib.autograd.grad(loss, wrt, allow_unused=True)
        except Exception as e:
            result["grad"] = _error(e)
            return result
    arrays = [a for a, requires_grad in inputs if requires_grad]
    result["grad"] = [np.zeros_like(a) if g is None else np.array(g.numpy(force=True)) for a, g in zip(arrays, grads)]
    return result


# ---- recording and comparing -------------------------------------------------------------------------------------
def encode(result: dict) -> dict:
    """A ``run`` result as JSON: each array as dtype, shape and flat values (complex: [real, imaginary] pairs)."""
    def array(a):
        flat = a.reshape(-1)
        values = flat.view(flat.real.dtype).reshape(-1, 2).tolist() if a.dtype.kind == "c" else flat.tolist()
        return {"dtype": str(a.dtype), "shape": list(a.shape), "values": values}
    return {part: value if isinstance(value, dict) else [array(a) for a in value] for part, value in result.items()}


def _decode(entry: dict) -> np.ndarray:
    dtype = np.dtype(entry["dtype"])
    if dtype.kind == "c":
        return np.array(entry["values"], dtype.char.lower()).view(dtype).reshape(entry["shape"])
    return np.array(entry["values"], dtype).reshape(entry["shape"])


def _same_array(expected: np.ndarray, actual: np.ndarray, rtol: float) -> str | None:
    if expected.dtype != actual.dtype or expected.shape != actual.shape:
        return f"{actual.dtype}{list(actual.shape)} where torch gives {expected.dtype}{list(expected.shape)}"
    if expected.dtype.kind == "c":  # compared as (real, imaginary) pairs
        expected, actual = (np.ascontiguousarray(x).view(x.real.dtype) for x in (expected, actual))
    e, a = expected.reshape(-1), actual.reshape(-1)
    if expected.dtype.kind != "f":
        bad = e != a
    elif np.array_equal(e, a, equal_nan=True) and np.array_equal(np.signbit(e), np.signbit(a)):
        return None
    else:
        both = ~np.isnan(e) & ~np.isnan(a)
        bad = np.isnan(e) != np.isnan(a)
        infinite = both & (np.isinf(e) | np.isinf(a))
        bad |= infinite & (e != a)
        finite = both & ~infinite
        scale = np.max(np.abs(e[finite]), initial=0.0)  # a relative error, and absolute near 0
        bad[finite] |= np.abs(e[finite] - a[finite]) > rtol * np.maximum(np.abs(e[finite]), scale * 1e-3) + 1e-12
        zeros = finite & (e == 0) & (a == 0)
        bad[zeros] |= np.signbit(e[zeros]) != np.signbit(a[zeros])
    if not bad.any():
        return None
    return "at flat " + ", ".join(f"{i}: {a[i]!r} where torch gives {e[i]!r}" for i in np.flatnonzero(bad)[:4])


def differences(expected: dict, actual: dict, rtol: float = 1e-6) -> list[str]:
    """What differs between PyTorch's answer (as recorded by ``encode``) and minitorch's (from ``run``)."""
    problems = []
    for part in ("out", "grad"):
        e, a = expected[part], actual[part]
        if isinstance(e, dict) or isinstance(a, dict):
            if e != a:
                shown = a if isinstance(a, dict) else f"{len(a)} tensors"
                problems.append(f"{part}: {shown} where torch gives {e if isinstance(e, dict) else 'tensors'}")
            continue
        if len(e) != len(a):
            problems.append(f"{part}: {len(a)} tensors where torch gives {len(e)}")
            continue
        for i, (ee, aa) in enumerate(zip(e, a)):
            problem = _same_array(_decode(ee), aa, rtol)
            if problem:
                problems.append(f"{part}[{i}]: {problem}")
    return problems


# ---- the same function on torch ----------------------------------------------------------------------------------
class TorchForm:
    """A sample function rewritten for PyTorch: the globals, closures and defaults it reads, with minitorch's
    modules, functions, dtypes and tensors replaced by torch's (the names are torch's by design). Rewritten are the
    functions of the samples: those of the tests, of ``minitorch._core.samples``, and the lambdas, closures and
    ``_private`` helpers beside the registry rows; a public minitorch function becomes torch's of that name."""

    def __init__(self):
        self.torch = importlib.import_module("torch")
        self.memo = {}
        self.names = {}
        for name, entry in _registry.ENTRIES.items():
            self.names.setdefault(id(entry.function), name)
        for name, fn in _registry.FUNCTIONAL.items():
            self.names.setdefault(id(fn), "F." + name)

    def __call__(self, value):
        key = id(value)
        if key not in self.memo:
            self.memo[key] = (value, self._convert(value))
        return self.memo[key][1]

    def _convert(self, value):
        torch = self.torch
        if isinstance(value, (types.ModuleType, _samples.Later)):
            module = value.__name__ if isinstance(value, types.ModuleType) else value.module_name
            if module.split(".")[0] == "minitorch":
                return importlib.import_module("torch" + module[len("minitorch"):])
        if isinstance(value, mt.Tensor):
            return torch.tensor(value.detach().numpy(), requires_grad=value.requires_grad)
        if isinstance(value, mt.dtype):
            return getattr(torch, str(value).split(".")[-1])
        if isinstance(value, (tuple, list)):
            return type(value)(self(v) for v in value)
        if id(value) in self.names:
            return self._torch_function(self.names[id(value)])
        if isinstance(value, types.FunctionType):
            if (pathlib.Path(value.__code__.co_filename).parent == HERE or value.__module__ == _samples.__name__
                    or (value.__module__ or "").split(".")[0] == "minitorch"
                    and ("<" in value.__qualname__ or value.__name__.startswith("_"))):
                return self._rewritten(value)
            if value.__module__.split(".")[0] == "minitorch":
                return getattr(importlib.import_module("torch" + value.__module__[len("minitorch"):]),
                               value.__name__)
        return value

    def _torch_function(self, name):
        torch = self.torch
        if name.startswith("F."):
            return getattr(torch.nn.functional, name[2:])
        held = getattr(torch, name, None)
        return held if held is not None else (lambda t, *a, **k: getattr(t, name)(*a, **k))

    def _rewritten(self, fn):
        names, codes = set(), [fn.__code__]
        while codes:
            code = codes.pop()
            names.update(i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL")  # not attributes
            codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        globs = {"__builtins__": builtins, "__name__": fn.__globals__.get("__name__")}
        globs.update({n: self(fn.__globals__[n]) for n in names if n in fn.__globals__})
        closure = fn.__closure__ and tuple(types.CellType(self(c.cell_contents)) for c in fn.__closure__)
        out = types.FunctionType(fn.__code__, globs, fn.__name__, fn.__defaults__ and tuple(map(self, fn.__defaults__)),
                                 closure)
        out.__kwdefaults__ = fn.__kwdefaults__ and {k: self(v) for k, v in fn.__kwdefaults__.items()}
        return out
