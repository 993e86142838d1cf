"""PyTorch's answers for the tests: computed live where torch is installed, read from a recording where it is not.

``torch_answer(compute, *args)`` returns what ``compute(torch, *args)`` returns, as plain data: a torch tensor
becomes a ``TensorAnswer`` (its values as a numpy array, dtype, requires_grad, node name), a dtype its ``str``,
a Size a tuple; numpy arrays, numbers, strings, None, lists, tuples and dicts stay what they are.
The test then compares minitorch with that answer, the same code with torch or without.

- With torch (a normal run): ``compute`` runs live and its answer must match the recording (values within a
  tolerance), so a stale recording fails where torch is installed, as in CI.
- Without torch: the answer comes from the recording. A missing one fails and names the script that records.
- Record mode (``tests/fixtures/record_torch.py``, which sets ``MINITORCH_TORCH_ANSWERS``): answers are computed
  live and written to ``tests/fixtures/torch_answers/<test file>.json.gz`` when the session ends: JSON, one
  answer per line in key order (``zcat`` shows it; ``gzip`` without a timestamp, so equal answers give equal bytes).

Answers are keyed by the test (its node id within its file) and the call's index within the test, so a test
must call ``torch_answer`` in the same order with torch or without. The arguments are part of the recording
(a sha256 of their bytes): a test whose inputs changed fails until its answers are recorded again.
For bit-exact comparisons of big arrays, return ``fingerprint(x, ...)`` instead of the arrays.
"""
from __future__ import annotations

import hashlib
import gzip
import json
import math
import os
import pathlib

import numpy as np

import minitorch

try:
    import torch
except ImportError:
    torch = None

TESTS = pathlib.Path(__file__).parent
RECORDINGS = TESTS / "fixtures" / "torch_answers"
SCRIPT = "tests/fixtures/record_torch.py"
MODE = os.environ.get("MINITORCH_TORCH_ANSWERS", "")  # "", "record" (merge) or "record-all" (rewrite)
# how far torch's live answer may drift from its recording (another CPU, another BLAS kernel, another thread count:
# a float32 convolution's weight gradient moves by 1.6e-5 relative between 1 and 2 threads) before it is stale
STALE_TOL = {"float16": (1e-3, 1e-3), "bfloat16": (1e-2, 1e-2), "float32": (1e-4, 1e-4), "float64": (1e-10, 1e-10)}


class TensorAnswer:
    """A torch tensor as recorded: ``values`` (numpy), ``dtype`` (``"torch.float32"``), ``requires_grad`` and
    ``node`` (its grad_fn's class name or None). Reads like a detached tensor: ``numpy()``, ``shape``, ``tolist()``."""

    def __init__(self, values, dtype, requires_grad=False, node=None):
        self.values, self.dtype, self.requires_grad, self.node = values, dtype, requires_grad, node

    shape = property(lambda self: tuple(self.values.shape))

    def numpy(self):
        return self.values

    def detach(self):
        return self

    def tolist(self):
        return self.values.tolist()

    def item(self):
        return self.values.item()

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __repr__(self):
        return f"TensorAnswer({self.values!r}, {self.dtype}, requires_grad={self.requires_grad}, node={self.node})"


class Fields(tuple):
    """A named tuple as recorded (torch's return types): a tuple with ``_fields``."""

    def __new__(cls, items, fields):
        self = super().__new__(cls, items)
        self._fields = tuple(fields)
        return self


def fingerprint(*xs) -> str:
    """A short sha256 (16 hex digits) of the dtypes, shapes and bytes of tensors (torch or minitorch) or arrays."""
    h = hashlib.sha256()
    for x in xs:
        a = np.ascontiguousarray(x.detach().numpy() if hasattr(x, "detach") else np.asarray(x))
        h.update(f"{a.dtype} {a.shape}".encode())
        h.update(a.reshape(-1).view(np.uint8))
    return h.hexdigest()[:16]


# ---- torch objects to plain data ------------------------------------------------------------------------------

def plain(obj):
    """``obj`` with every torch object replaced by plain data (see the module docstring)."""
    if torch is not None:
        if isinstance(obj, torch.Tensor):
            return _tensor_answer(obj)
        if isinstance(obj, torch.Size):
            return tuple(obj)
        if isinstance(obj, (torch.dtype, torch.device)):
            return str(obj)
    if isinstance(obj, tuple) and type(obj) is not tuple:  # a named tuple, or a torch.return_types structseq
        return Fields([plain(x) for x in obj], getattr(obj, "_fields", None) or type(obj).__match_args__)
    if isinstance(obj, (tuple, list)):
        return type(obj)(plain(x) for x in obj)
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, np.generic):
        return np.asarray(obj)
    if obj is None or isinstance(obj, (bool, int, float, complex, str, np.ndarray)):
        return obj
    raise TypeError(f"torch_answer cannot record a {type(obj).__name__}; return plain data")


def _tensor_answer(t):
    node = None if t.grad_fn is None else type(t.grad_fn).__name__
    values = t.detach().resolve_conj().resolve_neg()
    widened = {torch.bfloat16: torch.float32, torch.complex32: torch.complex64}.get(t.dtype)
    values = (values if widened is None else values.to(widened)).numpy().copy()
    return TensorAnswer(values, str(t.dtype), t.requires_grad, node)


# ---- plain data to and from JSON ----------------------------------------------------------------------------

def _floats_text(a: np.ndarray) -> list:
    """Each float as the shortest decimal that reads back to the same bits in its dtype (JSON keeps NaN/inf)."""
    out = []
    for x in a.ravel().tolist():
        short = float(np.format_float_positional(a.dtype.type(x), unique=True, trim="-")) if math.isfinite(x) else x
        out.append(short if a.dtype.type(short) == a.dtype.type(x) and math.copysign(1, short) == math.copysign(1, x)
                   else x)
    return out


def _array_json(a: np.ndarray) -> dict:
    out = {"dtype": str(a.dtype), "shape": list(a.shape)}
    if a.dtype.kind == "c":
        out["data"], out["imag"] = _floats_text(a.real), _floats_text(a.imag)
    elif a.dtype.kind == "f":
        out["data"] = _floats_text(a)
    else:
        out["data"] = a.ravel().tolist()
    return out


def _array_from(d: dict, dtype=None) -> np.ndarray:
    dtype = np.dtype(d.get("dtype", dtype))
    if dtype.kind == "c":
        values = np.array(d["data"], np.float64) + 1j * np.array(d["imag"], np.float64)
    else:
        values = np.array(d["data"], np.float64 if dtype.kind == "f" else dtype)
    return values.astype(dtype).reshape(d["shape"])


def to_json(obj):
    if isinstance(obj, TensorAnswer):
        out = {"tensor": obj.dtype.removeprefix("torch."), **_array_json(obj.values)}
        if out["dtype"] == out["tensor"]:
            del out["dtype"]
        return {**out, "requires_grad": True, "node": obj.node} if obj.requires_grad else out
    if isinstance(obj, np.ndarray):
        return {"array": _array_json(obj)}
    if isinstance(obj, Fields):
        return {"fields": list(obj._fields), "tuple": [to_json(x) for x in obj]}
    if isinstance(obj, tuple):
        return {"tuple": [to_json(x) for x in obj]}
    if isinstance(obj, list):
        return [to_json(x) for x in obj]
    if isinstance(obj, dict) and all(isinstance(k, str) for k in obj):
        return {"dict": {k: to_json(v) for k, v in obj.items()}}
    if isinstance(obj, dict):
        return {"items": [[to_json(k), to_json(v)] for k, v in obj.items()]}
    if isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    return obj


def from_json(obj):
    if isinstance(obj, list):
        return [from_json(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if "tensor" in obj:
        values = _array_from(obj, obj["tensor"])
        return TensorAnswer(values, "torch." + obj["tensor"], obj.get("requires_grad", False), obj.get("node"))
    if "array" in obj:
        return _array_from(obj["array"])
    if "fields" in obj:
        return Fields([from_json(x) for x in obj["tuple"]], obj["fields"])
    if "tuple" in obj:
        return tuple(from_json(x) for x in obj["tuple"])
    if "complex" in obj:
        return complex(*obj["complex"])
    if "dict" in obj:
        return {k: from_json(v) for k, v in obj["dict"].items()}
    return {from_json(k): from_json(v) for k, v in obj["items"]}


_SCALARS = (type(None), bool, int, float, str)


def digest(args) -> str:
    """A sha256 of the arguments' values. A function counts by what its closure holds (the values a lambda
    captured); objects other than plain data count by their type only."""
    h = hashlib.sha256()

    def feed(x, depth=0):
        if isinstance(x, (np.ndarray, np.generic)):
            x = np.asarray(x)
            h.update(f"array {x.dtype} {x.shape}".encode())
            h.update(np.ascontiguousarray(x).tobytes())
        elif isinstance(x, (list, tuple)) and all(type(y) in _SCALARS for y in x):
            h.update(f"{type(x).__name__} {x!r}".encode())
        elif isinstance(x, (list, tuple)):
            h.update(f"{type(x).__name__} {len(x)}".encode())
            for y in x:
                feed(y, depth)
        elif isinstance(x, dict):
            h.update(f"dict {len(x)}".encode())
            for k, v in x.items():
                feed(k, depth)
                feed(v, depth)
        elif x is None or isinstance(x, (bool, int, float, complex, str, bytes, slice, np.dtype)):
            h.update(f"{type(x).__name__} {x}".encode())
        elif isinstance(x, type):
            h.update(f"class {x.__qualname__}".encode())
        elif callable(x) and hasattr(x, "__code__"):
            h.update(f"function {x.__qualname__}".encode())
            if depth < 3:
                for cell in x.__closure__ or ():
                    try:
                        feed(cell.cell_contents, depth + 1)
                    except ValueError:  # an empty cell
                        pass
        else:
            h.update(type(x).__name__.encode())
    feed(args)
    return h.hexdigest()[:16]


# ---- the recordings ---------------------------------------------------------------------------------------

class _Session:
    """The running test and the recordings read or written in this process."""

    def __init__(self):
        self.file = self.test = None
        self.calls = 0
        self.files: dict = {}  # test file -> its recording
        self.loaded: dict = {}  # recording file -> {"torch": version, "answers": {key: json}}
        self.recorded: dict = {}  # recording file -> {key: json}, in record mode

    def start(self, path, test: str):
        if path not in self.files:
            self.files[path] = RECORDINGS / pathlib.Path(path).resolve().relative_to(TESTS.resolve()).with_suffix(
                ".json.gz")
        self.file, self.test, self.calls = self.files[path], test, 0

    def recording(self, file):
        if file not in self.loaded:
            self.loaded[file] = (json.loads(gzip.decompress(file.read_bytes())) if file.exists()
                                 else {"torch": None, "answers": {}})
        return self.loaded[file]

    def save(self):
        """Write what record mode computed: merged into the files, or (``record-all``) as their whole content."""
        if not MODE.startswith("record"):
            return
        if MODE == "record-all":
            for stale in set(RECORDINGS.rglob("*.json.gz")) - set(self.recorded):
                stale.unlink()
        for file, answers in self.recorded.items():
            kept = {} if MODE == "record-all" else self.recording(file)["answers"]
            merged = {**kept, **answers}
            file.parent.mkdir(parents=True, exist_ok=True)
            lines = [f" {json.dumps(k)}: {json.dumps(merged[k], separators=(',', ':'))}" for k in sorted(merged)]
            text = '{"torch": ' + json.dumps(torch.__version__) + ', "answers": {\n' + ",\n".join(lines) + "\n}}\n"
            file.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))


SESSION = _Session()


def torch_answer(compute, *args):
    """What ``compute(torch, *args)`` returns, as plain data: live where torch is installed (checked against the
    recording), recorded where it is not."""
    if SESSION.test is None:
        raise RuntimeError("torch_answer is only for use inside a test (answers are keyed by the running test)")
    key = f"{SESSION.test}#{SESSION.calls}"
    SESSION.calls += 1
    where = f"{SESSION.file.relative_to(TESTS.parent)} {key!r}"
    if torch is None or not MODE.startswith("record"):
        recording = SESSION.recording(SESSION.file)
        stored = recording["answers"].get(key)
        if stored is None:
            raise AssertionError(f"no recorded torch answer for {where}: record them with `python {SCRIPT}`")
        if stored["args"] != digest(args):
            raise AssertionError(f"the arguments differ from those recorded for {where}: the recording is stale "
                                 f"(record again with `python {SCRIPT}`)")
        if torch is None:
            return from_json(stored["answer"])
    state = torch.default_generator.get_state()  # answers that draw from torch's global stream start it at seed 0
    torch.default_generator.manual_seed(0)
    try:
        live = plain(compute(torch, *args))
    finally:
        torch.default_generator.set_state(state)
    if MODE.startswith("record"):
        SESSION.recorded.setdefault(SESSION.file, {})[key] = {"args": digest(args), "answer": to_json(live)}
    elif recording["torch"] == torch.__version__:
        problem = difference(live, from_json(stored["answer"]))
        assert problem is None, (f"torch {torch.__version__} now answers otherwise than recorded for {where} "
                                 f"({problem}): record again with `python {SCRIPT}`")
    return live


def difference(a, b, where="answer"):
    """None when two plain answers agree (floats within ``STALE_TOL``), else where they first differ."""
    if isinstance(a, TensorAnswer) or isinstance(b, TensorAnswer):
        if not (isinstance(a, TensorAnswer) and isinstance(b, TensorAnswer)):
            return f"{where}: {type(a).__name__} vs {type(b).__name__}"
        if (a.dtype, a.requires_grad, a.node) != (b.dtype, b.requires_grad, b.node):
            return f"{where}: {a.dtype, a.requires_grad, a.node} vs {b.dtype, b.requires_grad, b.node}"
        return difference(a.values, b.values, where)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or (a.dtype, a.shape) != (b.dtype, b.shape):
            return f"{where}: {a!r} vs {b!r}"
        if a.dtype.kind in "fc":
            atol, rtol = STALE_TOL.get(str(a.real.dtype), (0, 0))
            ok = np.array_equal(a, b, equal_nan=True) or np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True)
        else:
            ok = np.array_equal(a, b)
        return None if ok else f"{where}: values differ"
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b) or getattr(a, "_fields", None) != getattr(b, "_fields", None):
            return f"{where}: {a!r} vs {b!r}"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := difference(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{where}: keys {list(a)} vs {list(b)}"
        return next((d for k in a if (d := difference(a[k], b[k], f"{where}[{k!r}]"))), None)
    if isinstance(a, (float, complex)):
        return None if np.isclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=True) else f"{where}: {a!r} vs {b!r}"
    return None if a == b else f"{where}: {a!r} vs {b!r}"


def assert_matches(mine, answer, rtol=1e-7, atol=0.0, where="result"):
    """minitorch's ``mine`` (tensors, arrays, numbers, None, containers) has torch's ``answer``'s structure, tensor
    dtypes and shapes, and its values within ``rtol``/``atol`` (NaN matches NaN; integers and booleans exactly)."""
    if isinstance(answer, TensorAnswer):
        assert isinstance(mine, minitorch.Tensor), f"{where}: {type(mine).__name__}, torch gives a tensor"
        assert str(mine.dtype).rsplit(".")[-1] == answer.dtype.rsplit(".")[-1], f"{where}: {mine.dtype} vs {answer.dtype}"
        mine, answer = mine.detach().numpy(), answer.values
    if isinstance(answer, np.ndarray):
        mine = np.asarray(mine)
        assert mine.shape == answer.shape, f"{where}: shape {mine.shape} vs torch's {answer.shape}"
        if answer.dtype.kind in "fc":
            np.testing.assert_allclose(mine, answer, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(mine, answer, err_msg=where)
    elif isinstance(answer, (tuple, list)):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(answer), f"{where}: {mine!r} vs torch's {answer!r}"
        for i, (m, a) in enumerate(zip(mine, answer)):
            assert_matches(m, a, rtol, atol, f"{where}[{i}]")
    elif isinstance(answer, dict):
        assert isinstance(mine, dict) and list(mine) == list(answer), f"{where}: keys {list(mine)} vs {list(answer)}"
        for k in answer:
            assert_matches(mine[k], answer[k], rtol, atol, f"{where}[{k!r}]")
    elif isinstance(answer, float):
        assert isinstance(mine, (float, int)) and np.isclose(mine, answer, rtol=rtol, atol=atol, equal_nan=True), \
            f"{where}: {mine!r} vs torch's {answer!r}"
    else:
        assert mine == answer, f"{where}: {mine!r} vs torch's {answer!r}"
