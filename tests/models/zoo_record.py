"""What the model-zoo tests compare between minitorch and torchvision, computed by the same code for both.

Every function takes the library (``torch`` or ``minitorch``) and its models package (``torchvision.models`` or
``minitorch.models``) as arguments, so tests/fixtures/zoo_classic.py records torchvision's answers with it
and the tests compute minitorch's with it. Nothing here imports torch.

- ``structure``: a model's module tree (qualified name, class name, ``extra_repr``), its state_dict keys with
  shapes and dtypes, and its parameter count.
- ``run_case``: a model with deterministic weights (``deterministic``, a formula of each key) run forward and
  backward on a fixed input: output summaries, the input's gradient, each parameter's gradient and, in training,
  the batch-norm statistics; and the initialisation a seed gives.
- ``weights_record``, ``signature``, ``outcome``: weights enums, constructor signatures, errors and warnings.
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import math
import warnings
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Case:
    """A model whose computation is compared: ``build(models, nn)`` run in float64 (so that the comparison checks
    the computation, not float32's rounding, which sums of cancelling terms magnify) on an input of shape ``input``
    in each of ``modes`` ("eval", "train"); with ``init``, also its initialisation."""

    build: Callable[[Any, Any], Any]
    input: tuple[int, ...]
    modes: tuple[str, ...] = ("eval",)
    init: bool = True  # False: the build draws too many random numbers for the suite (see zoo_classic_cases)


@dataclass(frozen=True)
class Family:
    """A family of torchvision's zoo, recorded in tests/fixtures/zoo/<name>.json.gz.

    ``builders``: its builder names; ``signatures``: ``"module:attr"`` paths (in the models package) of the classes
    and functions whose parameters are compared; ``cases``: reduced or small models whose numbers are compared;
    ``outcomes``: calls ``f(models, nn)`` whose result, error or warnings are compared.
    """

    builders: tuple[str, ...]
    signatures: tuple[str, ...] = ()
    cases: dict[str, Case] = field(default_factory=dict)
    outcomes: dict[str, Callable[[Any, Any], Any]] = field(default_factory=dict)


# --- deterministic values ---------------------------------------------------------------------------------------

def dtype_name(dtype: Any) -> str:
    return str(dtype).rsplit(".", 1)[-1]


def deterministic(key: str, shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray:
    """The value of state_dict entry ``key``: normal draws seeded by the key's crc32, scaled to keep activations of
    order one (He scaling for weights, unit-ish norm scales and variances, small biases and means)."""
    seed = zlib.crc32(key.encode())
    if not dtype.startswith("float"):
        return np.full(shape, seed % 1000, dtype=dtype)
    z = np.random.default_rng(seed).standard_normal(shape)
    leaf = key.rsplit(".", 1)[-1]
    if leaf == "running_var":
        value = 0.5 + 0.5 * np.abs(z)
    elif len(shape) >= 2:
        value = z * math.sqrt(2.0 / math.prod(shape[1:]))
    elif leaf == "weight":
        value = 1.0 + 0.1 * z
    else:
        value = 0.1 * z
    return value.astype(np.float32)


def set_deterministic_state(lib: Any, model: Any) -> None:
    """Load ``deterministic`` values into every state_dict entry of ``model`` (keeping the state_dict's metadata)."""
    state = model.state_dict()
    values = OrderedDict((k, lib.from_numpy(deterministic(k, tuple(v.shape), dtype_name(v.dtype)).astype(
        _numpy(v).dtype))) for k, v in state.items())
    values._metadata = getattr(state, "_metadata", None)
    model.load_state_dict(values)


# --- records ----------------------------------------------------------------------------------------------------

def structure(model: Any) -> dict[str, Any]:
    """The module tree as ``name|Class|extra_repr`` lines, the state_dict as ``key|shape|dtype`` lines (dtype only
    when not float32) and the parameter count."""
    modules = [f"{name}|{type(m).__name__}|{m.extra_repr()}" for name, m in model.named_modules()]
    state = []
    for key, value in model.state_dict().items():
        dtype = dtype_name(value.dtype)
        state.append(f"{key}|{','.join(map(str, value.shape))}" + ("" if dtype == "float32" else f"|{dtype}"))
    return {"num_params": sum(p.numel() for p in model.parameters()), "modules": modules, "state": state}


def summary(array: np.ndarray) -> dict[str, Any]:
    """All values of a small array; sums and 16 evenly spaced values of a large one."""
    a = np.asarray(array, dtype=np.float64)
    if a.size <= 64:
        return {"shape": list(a.shape), "values": a.ravel().tolist()}
    flat = a.ravel()
    return {"shape": list(a.shape), "sum": float(flat.sum()), "abs_sum": float(np.abs(flat).sum()),
            "sq_sum": float((flat ** 2).sum()), "sample": flat[np.linspace(0, a.size - 1, 16).astype(int)].tolist()}


def _numpy(t: Any) -> np.ndarray:
    return t.detach().numpy()


def run_case(lib: Any, models: Any, case: Case, building: Callable[[], Any] = contextlib.nullcontext) -> dict[str, Any]:
    """``case`` in each mode: summaries of the outputs (a tuple's items in order) and of the gradients of
    sum(output_i * deterministic weights) with respect to the input and (as absolute sums) each parameter (None for
    those the mode does not use); in training, the batch-norm statistics after the step. ``init`` (when the case
    asks for it): each state entry's sum and sum of squares after ``manual_seed(0)`` and building, which checks the
    initialisation and its order of random draws. The model is built within the context ``building()``."""
    lib.manual_seed(0)
    with building():
        model = case.build(models, lib.nn)
    record: dict[str, Any] = {}
    if case.init:
        record["init"] = {k: [float(a.sum()), float((a ** 2).sum())] for k, v in model.state_dict().items()
                          for a in [_numpy(v).astype(np.float64)]}
    model.double()
    x = deterministic("input", case.input).astype(np.float64)
    for mode in case.modes:
        set_deterministic_state(lib, model)
        model.train(mode == "train")
        xt = lib.from_numpy(x.copy()).requires_grad_()
        out = model(xt)
        outputs = [o for o in out if o is not None] if isinstance(out, tuple) else [out]
        loss = sum((o * lib.from_numpy(deterministic(f"output{i}", tuple(o.shape)).astype(np.float64))).sum()
                   for i, o in enumerate(outputs))
        loss.backward()
        entry = {"type": type(out).__name__, "outputs": [summary(_numpy(o)) for o in outputs],
                 "input_grad": summary(_numpy(xt.grad)),
                 "param_grads": {k: None if p.grad is None else float(np.abs(_numpy(p.grad)).sum())
                                 for k, p in model.named_parameters()}}
        if mode == "train":
            entry["buffers"] = {k: float(_numpy(v).astype(np.float64).sum()) for k, v in model.named_buffers()}
        record[mode] = entry
        model.zero_grad()
    return record


def jsonable(value: Any) -> Any:
    """``value`` as JSON keeps it (tuples as lists)."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def weights_record(enum: type, imagenet_categories: list[str]) -> dict[str, Any]:
    """A weights enum: its members (aliases to their entry's name) and each entry's URL, transforms and meta (the
    ImageNet categories as ``"IMAGENET1K"``; ``_docs`` with its whitespace collapsed)."""
    entries = {}
    for member in enum:
        meta = dict(member.meta)
        if meta.get("categories") == imagenet_categories:
            meta["categories"] = "IMAGENET1K"
        if "_docs" in meta:
            meta["_docs"] = " ".join(meta["_docs"].split())
        entries[member.name] = {"url": member.url, "transforms": str(member.transforms()), "meta": jsonable(meta)}
    return {"name": enum.__name__, "members": {name: m.name for name, m in enum.__members__.items()},
            "entries": entries}


def resolve(models: Any, path: str) -> Any:
    """``"module:attr"``: an attribute of a submodule of the models package."""
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(f"{models.__name__}.{module}"), attr)


def signature(fn: Any) -> list[list[str]]:
    """The parameters of a class's constructor or a function: name, kind and default (classes by name)."""
    params = []
    for p in inspect.signature(fn).parameters.values():
        default = p.default
        shown = "" if default is p.empty else default.__name__ if isinstance(default, type) else repr(default)
        params.append([p.name, p.kind.name, shown])
    return params


def outcome(models: Any, nn: Any, call: Callable[[Any, Any], Any]) -> dict[str, Any]:
    """What ``call(models, nn)`` does: the error it raises (type and message) or its result's repr, and the warnings
    it gives (category and message)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = {"result": repr(call(models, nn))}
        except Exception as e:  # the error is the record
            result = {"error": [type(e).__name__, str(e)]}
    result["warnings"] = [[w.category.__name__, str(w.message)] for w in caught]
    return result
