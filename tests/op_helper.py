"""Differential testing against PyTorch, in the spirit of tinygrad's ``helper_test_op``.

``helper_test_op(inputs, fn)`` builds identical inputs for minitorch and torch,
runs ``fn(module, *tensors)`` on both (``module`` is ``minitorch`` or ``torch``,
so one lambda serves both), and compares values, dtypes, shapes, requires_grad
and graph node names; then it backpropagates the same random weighted sum of every
differentiable output (random weights catch transposed or misplaced gradients that
``.sum()`` would hide) and compares the gradient of every input, or the error
both raise in backward.

``check_error`` asserts that both libraries raise the same exception type with
the same message (``minitorch.`` read as ``torch.``); given ``exc`` and ``msg`` it
also checks minitorch against those literals, which holds without torch.
``check_recorded`` compares what a call does (the exception type and first line, or
the value returned, and the warnings) with torch's answer recorded in
``fixtures/torch_errors.json`` by ``fixtures/make_error_fixtures.py``, so it holds
without torch too.

An input is a shape tuple (uniform random floats), a numpy array (exact
values; see ``ints``/``bools``/``floats``) or anything else, passed through
unchanged (numbers, lists, None).
"""
from __future__ import annotations

import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import minitorch

try:
    import torch
except ImportError:  # the differential checks skip; literal checks still run
    torch = None

# (atol, rtol) for forward values and for gradients, by dtype
FORWARD_TOL = {np.float16: (1e-2, 1e-2), np.float32: (1e-5, 1e-4), np.float64: (1e-10, 1e-8)}
GRAD_TOL = {np.float16: (2e-2, 2e-2), np.float32: (1e-4, 1e-3), np.float64: (1e-9, 1e-7)}

_rng = np.random.default_rng(1234)


def floats(shape, low=-2.0, high=2.0, dtype=np.float32):
    """Uniform random floats (a fixed stream: test tables are built the same way every run)."""
    return _rng.uniform(low, high, shape).astype(dtype)


def ints(shape, low=0, high=5, dtype=np.int64):
    return _rng.integers(low, high, shape).astype(dtype)


def bools(shape):
    return _rng.random(shape) < 0.5


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
    if isinstance(th, torch.Tensor):
        assert isinstance(mt, minitorch.Tensor), f"{where}: expected a Tensor, got {type(mt).__name__}"
        assert tuple(mt.shape) == tuple(th.shape), f"{where}: shape {tuple(mt.shape)} != torch {tuple(th.shape)}"
        assert dtype_name(mt.dtype) == dtype_name(th.dtype), f"{where}: dtype {mt.dtype} != torch {th.dtype}"
        assert mt.requires_grad == th.requires_grad, f"{where}: requires_grad {mt.requires_grad} != {th.requires_grad}"
        if check_node:
            assert _node(mt) == _node(th), f"{where}: grad_fn {_node(mt)} != torch {_node(th)}"
        _assert_values(mt.detach().numpy(), th.detach().numpy(), where, tol)
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


def helper_test_op(inputs, torch_fn, minitorch_fn=None, *, dtype=np.float32, low=-2.0, high=2.0, grad=True,
                   check_node=True, atol=None, rtol=None, grad_atol=None, grad_rtol=None):
    """Run ``torch_fn`` (and ``minitorch_fn``, default the same callable) on identical inputs and compare
    results and input gradients. ``grad``: False, or one bool per input, limits which inputs require grad."""
    pytest.importorskip("torch")
    minitorch_fn = minitorch_fn or torch_fn
    arrays, needs = _make_inputs(inputs, dtype, low, high, grad)
    th_in, mt_in = _tensors(torch, arrays, needs), _tensors(minitorch, arrays, needs)
    th_out = torch_fn(torch, *th_in)
    mt_out = minitorch_fn(minitorch, *mt_in)

    fwd = {k: (atol or a, rtol or r) for k, (a, r) in FORWARD_TOL.items()}
    _compare(mt_out, th_out, "output", fwd, check_node)

    th_flat = [t for t in _flat_tensors(th_out, torch) if t.requires_grad]
    mt_flat = [t for t in _flat_tensors(mt_out, minitorch) if t.requires_grad]
    if not th_flat or not any(needs):
        return
    assert len(mt_flat) == len(th_flat)
    weights = [_rng.standard_normal(tuple(t.shape)) for t in th_flat]

    def weighted(lib, outs):
        return [lib.from_numpy(w).to(t.dtype) for w, t in zip(weights, outs)]
    th_err = _raised(lambda: torch.autograd.backward(th_flat, weighted(torch, th_flat)))
    mt_err = _raised(lambda: minitorch.autograd.backward(mt_flat, weighted(minitorch, mt_flat)))
    _same_error(mt_err, th_err)
    if th_err is not None:
        return
    gtol = {k: (grad_atol or a, grad_rtol or r) for k, (a, r) in GRAD_TOL.items()}
    for i, (m, t) in enumerate(zip(mt_in, th_in)):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            if t.grad is None:
                assert m.grad is None, f"input {i}: torch has no gradient, minitorch has {m.grad}"
                continue
            assert m.grad is not None, f"input {i}: no gradient (torch has one)"
            _compare(m.grad, t.grad, f"grad of input {i}", gtol, check_node=False)


def _raised(call):
    """The exception ``call()`` raises, or None."""
    try:
        call()
    except Exception as e:  # noqa: BLE001  (any exception type is compared)
        return e
    return None


def check_error(fn, *inputs, exc=None, msg=None, grad=False, dtype=np.float32):
    """``fn`` raises on both libraries with the same exception type and message.

    ``exc``/``msg`` (the exact message) are checked against minitorch even without torch.
    """
    arrays, needs = _make_inputs(inputs, dtype, -2.0, 2.0, grad)
    mt_err = _raised(lambda: fn(minitorch, *_tensors(minitorch, arrays, needs)))
    assert mt_err is not None, "minitorch did not raise"
    if exc is not None:
        assert type(mt_err) is exc, f"minitorch raised {type(mt_err).__name__}: {mt_err}"
    if msg is not None:
        assert str(mt_err) == msg
    if torch is None:
        return
    _same_error(mt_err, _raised(lambda: fn(torch, *_tensors(torch, arrays, needs))))


def _same_error(mt_err, th_err):
    """Neither raised, or both raised the same exception type with the same message."""
    if th_err is None:
        assert mt_err is None, f"torch did not raise (minitorch raised {type(mt_err).__name__}: {mt_err})"
        return
    assert mt_err is not None, f"minitorch did not raise (torch raised {type(th_err).__name__}: {th_err})"
    assert type(mt_err).__name__ == type(th_err).__name__, f"{type(mt_err).__name__} != torch {type(th_err).__name__}"
    assert _normal(str(mt_err)) == _normal(str(th_err))


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
