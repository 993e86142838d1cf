"""Differential testing against PyTorch, in the spirit of tinygrad's ``helper_test_op``.

``helper_test_op(inputs, fn)`` builds inputs, runs ``fn(module, *tensors)`` on minitorch and gets torch's answer
for the same inputs (``module`` is ``minitorch`` or ``torch``, so one lambda serves both; torch's answer is live
where torch is installed and recorded otherwise, see ``torch_answers``). It compares values, dtypes, shapes,
requires_grad and graph node names; then it backpropagates the same random weighted sum of every differentiable
output (random weights catch transposed or misplaced gradients that ``.sum()`` would hide) and compares the
gradient of every input, or the error both raise in backward.

``check_error`` asserts that both libraries raise the same exception type with
the same message (``minitorch.`` read as ``torch.``); given ``exc`` and ``msg`` it
also checks minitorch against those literals.
``check_recorded`` compares what a call does (the exception type and first line, or
the value returned, and the warnings) with torch's answer recorded in
``fixtures/torch_errors.json`` by ``fixtures/make_error_fixtures.py``, so it holds
without torch too.

An input is a shape tuple (uniform random floats), a numpy array (exact
values; see ``ints``/``bools``/``floats``) or anything else, passed through
unchanged (numbers, lists, None). The random values come from a stream seeded by the running test's name
(at import, by the importing module's name), so a test gets the same inputs however the suite is selected,
as its recorded answers need.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import re
import sys
import warnings

import numpy as np
import pytest

import minitorch
from torch_answers import SESSION, TensorAnswer, assert_matches, torch, torch_answer

# (atol, rtol) for forward values and for gradients, by dtype
FORWARD_TOL = {np.float16: (1e-2, 1e-2), np.float32: (1e-5, 1e-4), np.float64: (1e-10, 1e-8)}
GRAD_TOL = {np.float16: (2e-2, 2e-2), np.float32: (1e-4, 1e-3), np.float64: (1e-9, 1e-7)}

_streams: dict = {}


def _rng(depth=2) -> np.random.Generator:
    """The running test's stream, or at import the stream of the module that called (``depth`` frames up)."""
    name = SESSION.file and f"{SESSION.file.name}::{SESSION.test}"
    name = name or sys._getframe(depth).f_globals.get("__name__", "")
    if name not in _streams:
        if SESSION.test is not None:  # one test's stream at a time
            _streams.clear()
        _streams[name] = np.random.default_rng(int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little"))
    return _streams[name]


def floats(shape, low=-2.0, high=2.0, dtype=np.float32):
    """Uniform random floats."""
    return _rng().uniform(low, high, shape).astype(dtype)


def ints(shape, low=0, high=5, dtype=np.int64):
    return _rng().integers(low, high, shape).astype(dtype)


def bools(shape):
    return _rng().random(shape) < 0.5


def _make_inputs(inputs, dtype, low, high, grad):
    """numpy arrays for each input spec, and whether each becomes a leaf requiring grad."""
    arrays, needs = [], []
    grad = [grad] * len(inputs) if isinstance(grad, bool) else list(grad)
    for spec, g in zip(inputs, grad):
        if isinstance(spec, tuple) and all(isinstance(s, int) for s in spec):
            spec = floats(spec, low, high, dtype)
        arrays.append(spec)
        needs.append(g and isinstance(spec, np.ndarray) and spec.dtype.kind == "f")
    return arrays, needs


def _tensors(lib, arrays, needs):
    out = []
    for a, g in zip(arrays, needs):
        if isinstance(a, np.ndarray):
            t = lib.from_numpy(a.copy())
            out.append(t.requires_grad_() if g else t)
        else:
            out.append(a)
    return out


def dtype_name(d) -> str:
    """``torch.float32`` and ``minitorch.float32`` both give ``float32``."""
    return str(d).rsplit(".", 1)[-1]


def _node(t) -> str | None:
    return None if t.grad_fn is None else type(t.grad_fn).__name__


def _compare(mt, th, where, tol, check_node):
    """minitorch's result ``mt`` against torch's answer ``th`` (plain data, see ``torch_answers``)."""
    if isinstance(th, TensorAnswer):
        assert isinstance(mt, minitorch.Tensor), f"{where}: expected a Tensor, got {type(mt).__name__}"
        assert tuple(mt.shape) == th.shape, f"{where}: shape {tuple(mt.shape)} != torch {th.shape}"
        assert dtype_name(mt.dtype) == dtype_name(th.dtype), f"{where}: dtype {mt.dtype} != {th.dtype}"
        assert mt.requires_grad == th.requires_grad, f"{where}: requires_grad {mt.requires_grad} != {th.requires_grad}"
        if check_node:
            assert _node(mt) == th.node, f"{where}: grad_fn {_node(mt)} != torch {th.node}"
        _assert_values(mt.detach().numpy(), th.values, where, tol)
    elif isinstance(th, (tuple, list)):
        assert isinstance(mt, (tuple, list)) and len(mt) == len(th), f"{where}: {mt!r} vs torch {th!r}"
        if hasattr(th, "_fields"):
            assert getattr(mt, "_fields", None) == th._fields, f"{where}: fields differ"
        for i, (m, t) in enumerate(zip(mt, th)):
            _compare(m, t, f"{where}[{i}]", tol, check_node)
    elif isinstance(th, float):
        assert isinstance(mt, float) and np.isclose(mt, th, equal_nan=True), f"{where}: {mt!r} != torch {th!r}"
    else:
        assert type(mt) is type(th) and mt == th, f"{where}: {mt!r} != torch {th!r}"


def _assert_values(m, t, where, tol):
    if t.dtype.kind == "f":
        atol, rtol = tol[t.dtype.type]
        np.testing.assert_allclose(m.astype(np.float64), t.astype(np.float64), atol=atol, rtol=rtol,
                                   equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(m, t, err_msg=where)


def _flat_tensors(out, lib):
    if isinstance(out, lib.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _flat_tensors(o, lib)]
    return []


def _backward(lib, outputs):
    """Backpropagate a fixed random weighting of ``outputs`` (the i-th weighted by stream i, on both libraries)."""
    weights = [lib.from_numpy(np.random.default_rng(i).standard_normal(tuple(t.shape))).to(t.dtype)
               for i, t in enumerate(outputs)]
    return _raised(lambda: lib.autograd.backward(outputs, weights))


def _torch_run(torch, fn, arrays, needs):
    """torch's side of ``helper_test_op``: the output, the backward error and the inputs' gradients."""
    inputs = _tensors(torch, arrays, needs)
    out = fn(torch, *inputs)
    flat = [t for t in _flat_tensors(out, torch) if t.requires_grad]
    if not flat or not any(needs):
        return {"out": out, "differentiable": len(flat)}
    error = _error_answer(_backward(torch, flat))
    grads = None if error else [t.grad if isinstance(t, torch.Tensor) else None for t in inputs]
    return {"out": out, "differentiable": len(flat), "backward error": error, "grads": grads}


def helper_test_op(inputs, torch_fn, minitorch_fn=None, *, dtype=np.float32, low=-2.0, high=2.0, grad=True,
                   check_node=True, atol=None, rtol=None, grad_atol=None, grad_rtol=None):
    """Run ``torch_fn`` on torch (or take its recorded answer) and ``minitorch_fn`` (default the same callable)
    on minitorch, on identical inputs, and compare results and input gradients. ``grad``: False, or one bool per
    input, limits which inputs require grad."""
    minitorch_fn = minitorch_fn or torch_fn
    arrays, needs = _make_inputs(inputs, dtype, low, high, grad)
    expected = torch_answer(_torch_run, torch_fn, arrays, needs)
    mt_in = _tensors(minitorch, arrays, needs)
    mt_out = minitorch_fn(minitorch, *mt_in)

    fwd = {k: (atol or a, rtol or r) for k, (a, r) in FORWARD_TOL.items()}
    _compare(mt_out, expected["out"], "output", fwd, check_node)
    mt_flat = [t for t in _flat_tensors(mt_out, minitorch) if t.requires_grad]
    assert len(mt_flat) == expected["differentiable"], "a different number of outputs requires grad"
    if "grads" not in expected:
        return
    _same_error(_backward(minitorch, mt_flat), expected["backward error"])
    if expected["backward error"]:
        return
    gtol = {k: (grad_atol or a, grad_rtol or r) for k, (a, r) in GRAD_TOL.items()}
    for i, (m, g, needed) in enumerate(zip(mt_in, expected["grads"], needs)):
        if not needed:
            continue
        if g is None:
            assert m.grad is None, f"input {i}: torch has no gradient, minitorch has {m.grad}"
            continue
        assert m.grad is not None, f"input {i}: no gradient (torch has one)"
        _compare(m.grad, g, f"grad of input {i}", gtol, check_node=False)


def _module_facts(lib, make, attrs):
    """The module ``make(lib.nn)`` builds after ``manual_seed(0)``: its repr, parameter shapes, state_dict and
    those of ``attrs`` it has."""
    lib.manual_seed(0)
    m = make(lib.nn)
    return (repr(m), [(k, tuple(p.shape)) for k, p in m.named_parameters()],
            {k: v.detach().numpy() for k, v in m.state_dict().items()},
            {attr: getattr(m, attr) for attr in attrs if hasattr(m, attr)})


def check_module_facts(make, attrs=()):
    """minitorch's ``make(nn)`` has torch's repr, parameter shapes, state_dict (keys, and values: both built after
    the same seed) and values of those of ``attrs`` torch's has."""
    text, shapes, state, _ = _module_facts(minitorch, make, ())
    their_text, their_shapes, their_state, their_attrs = torch_answer(_module_facts, make, attrs)
    assert text == their_text
    assert shapes == their_shapes
    assert list(state) == list(their_state)
    for k, v in their_state.items():
        np.testing.assert_allclose(state[k], v, err_msg=k)
    m = make(minitorch.nn)
    for attr, value in their_attrs.items():
        assert getattr(m, attr) == value, attr


def _module_run(lib, make, params, inputs):
    """``make(lib.nn)`` with its parameters set to ``params``, on ``inputs``: the output and, after backpropagating
    a fixed random weighting of it, the inputs' and parameters' gradients and the buffers."""
    m = make(lib.nn)
    with lib.no_grad():
        for p, values in zip(m.parameters(), params, strict=True):
            p.copy_(lib.tensor(values))
    xs = [lib.tensor(x, requires_grad=x.dtype.kind == "f") for x in inputs]
    out = m(*xs)
    out = out[0] if isinstance(out, tuple) else out
    (out * lib.tensor(np.random.default_rng(0).standard_normal(tuple(out.shape)), dtype=out.dtype)).sum().backward()
    return (out, [x.grad for x in xs], {k: p.grad for k, p in m.named_parameters()},
            {k: b for k, b in m.named_buffers()})


def check_module_run(make, inputs, tol=1e-4):
    """``make(nn)`` (minitorch's parameters, set on torch's too) on ``inputs`` (specs as for ``helper_test_op``):
    output, input and parameter gradients and buffers as torch's."""
    minitorch.manual_seed(0)
    params = [p.detach().numpy() for p in make(minitorch.nn).parameters()]
    arrays, _ = _make_inputs(inputs, np.float32, -2.0, 2.0, False)
    out, grads, param_grads, buffers = _module_run(minitorch, make, params, arrays)
    their_out, their_grads, their_param_grads, their_buffers = torch_answer(_module_run, make, params, arrays)
    assert_matches(out, their_out, rtol=1e-4, atol=1e-5, where="output")
    assert_matches(grads, their_grads, rtol=1e-3, atol=tol, where="input gradients")
    assert_matches(param_grads, their_param_grads, rtol=tol, atol=tol, where="parameter gradients")
    assert_matches(buffers, their_buffers, rtol=1e-5, atol=1e-5, where="buffers")


def _raised(call):
    """The exception ``call()`` raises, or None."""
    try:
        call()
    except Exception as e:  # noqa: BLE001  (any exception type is compared)
        return e
    return None


def check_error(fn, *inputs, exc=None, msg=None, grad=False, dtype=np.float32):
    """``fn`` raises on minitorch the exception type and message torch raises (live or recorded).

    ``exc``/``msg`` (the exact message), when given, are checked against minitorch too.
    """
    arrays, needs = _make_inputs(inputs, dtype, -2.0, 2.0, grad)
    expected = torch_answer(_torch_error, fn, arrays, needs)
    mt_err = _raised(lambda: fn(minitorch, *_tensors(minitorch, arrays, needs)))
    assert mt_err is not None, "minitorch did not raise"
    if exc is not None:
        assert type(mt_err) is exc, f"minitorch raised {type(mt_err).__name__}: {mt_err}"
    if msg is not None:
        assert str(mt_err) == msg
    _same_error(mt_err, expected)


def _torch_error(torch, fn, arrays, needs):
    return _error_answer(_raised(lambda: fn(torch, *_tensors(torch, arrays, needs))))


def _error_answer(error) -> list | None:
    """An exception as recorded: ``[type name, message as _normal reads it]``, or None."""
    return None if error is None else [type(error).__name__, _normal(str(error))]


def _same_error(mt_err, expected):
    """Neither raised, or both raised the same exception type with the same message (``expected``: torch's,
    from ``_error_answer``)."""
    if expected is None:
        assert mt_err is None, f"torch did not raise (minitorch raised {type(mt_err).__name__}: {mt_err})"
        return
    assert mt_err is not None, f"minitorch did not raise (torch raised {expected[0]}: {expected[1]})"
    assert type(mt_err).__name__ == expected[0], f"{type(mt_err).__name__} != torch {expected[0]}"
    assert _normal(str(mt_err)) == expected[1]


def _normal(message: str) -> str:
    """minitorch names its types ``minitorch.float32`` but legacy ones ``torch.FloatTensor``, as tests expect;
    its in-place error adds a line saying where the tensor was changed; torch's C++ warnings say where in its
    sources they come from. A set of strings in a message (torch
    prints some of its Python sets) is sorted: their order changes with the string hash seed of the process."""
    message = re.sub(r"\nIt was last modified by .*$", "", message).replace("minitorch.", "torch.")
    message = re.sub(r" \(Triggered internally at [^)]*\)", "", message)  # where in torch's C++ a warning was raised
    return re.sub(r"\{'[^{}]*'\}", lambda m: "{" + ", ".join(sorted(m.group(0)[1:-1].split(", "))) + "}", message)


def _first_line(text: str) -> str:
    return _normal(text).split("\n")[0]


def outcome(call) -> dict:
    """What ``call()`` does: ``{"raises": [type, first line]}`` or ``{"returns": repr}``, with ``"warns"``:
    ``[[category, first line], ...]`` when it warns (messages read as ``_normal`` does)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = {"returns": _first_line(repr(call()))}
        except Exception as e:  # noqa: BLE001  (any exception type is compared)
            result = {"raises": [type(e).__name__, _first_line(str(e))]}
    if caught:
        result["warns"] = [[w.category.__name__, _first_line(str(w.message))] for w in caught]
    return result


def outcome_of(lib, fn, inputs, grad=False, dtype=np.float32) -> dict:
    """``outcome`` of ``fn(lib, *inputs)``, the inputs made as ``check_error`` makes them."""
    arrays, needs = _make_inputs(inputs, dtype, -2.0, 2.0, grad)
    return outcome(lambda: fn(lib, *_tensors(lib, arrays, needs)))


RECORDED = pathlib.Path(__file__).parent / "fixtures" / "torch_errors.json"
_recorded: dict = {}


def check_recorded(key, fn, *inputs, grad=False, dtype=np.float32):
    """``fn`` does on minitorch what it did on torch when ``fixtures/make_error_fixtures.py`` recorded it under
    ``key``; where that torch version is installed, torch must still do it (else the fixture is stale)."""
    if not _recorded:
        _recorded.update(json.loads(RECORDED.read_text()))
    expected = _recorded["cases"][key]
    got = outcome_of(minitorch, fn, inputs, grad, dtype)
    assert got == expected, f"minitorch: {got}\n    torch: {expected}"
    if torch is not None and torch.__version__ == _recorded["torch"]:
        now = outcome_of(torch, fn, inputs, grad, dtype)
        # torch gives some warnings once per process (TORCH_WARN_ONCE): one seen when recorded may be gone now
        assert {**now, "warns": []} == {**expected, "warns": []} and all(
            w in expected.get("warns", []) for w in now.get("warns", [])), \
            f"stale fixture (run make_error_fixtures.py): torch now {now}, recorded {expected}"


def recorded(name, fn, *inputs, grad=False, differs=None):
    """A table row of a bad call whose expected outcome is torch's, as recorded in the fixture; ``differs`` says
    why minitorch does otherwise, a known difference (the row must then fail: a strict xfail)."""
    marks = () if differs is None else pytest.mark.xfail(strict=True, reason=differs)
    return pytest.param(fn, inputs, None, None, grad, id=name, marks=marks)
