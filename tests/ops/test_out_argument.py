"""The ``out=`` argument, as torch handles it: the result written into ``out`` (resized with torch's warning,
cast within its dtype category, refused when autograd would need the result), for the ops, the factories
and the functions returning several tensors; and every torch function that takes ``out=`` takes it here."""
import inspect
import re
import warnings

import numpy as np
import pytest

import minitorch

from torch_answers import torch, torch_answer

LIBS = ["minitorch"] + (["torch"] if torch is not None else [])


def _lib(name):
    return minitorch if name == "minitorch" else torch


CALLS = {  # name: (function of (lib, input), out's dtype name)
    "exp": (lambda t, x: t.exp(x, out=t.empty(3)), "float32"),
    "add": (lambda t, x: t.add(x, 1, out=t.empty(3)), "float32"),
    "cat": (lambda t, x: t.cat([x, x], out=t.empty(6)), "float32"),
    "stack": (lambda t, x: t.stack([x, x], 1, out=t.empty(3, 2)), "float32"),
    "where": (lambda t, x: t.where(x > 0.5, x, -x, out=t.empty(3)), "float32"),
    "pow": (lambda t, x: t.pow(x, 2, out=t.empty(3, dtype=t.float64)), "float64"),
    "mm": (lambda t, x: t.mm(x[:, None], x[None, :], out=t.empty(3, 3)), "float32"),
    "cumsum": (lambda t, x: t.cumsum(x, 0, out=t.empty(3)), "float32"),
    "argmax": (lambda t, x: t.argmax(x, out=t.empty((), dtype=t.long)), "int64"),
    "int_into_float": (lambda t, x: t.add(t.ones(3, dtype=t.long), 1, out=t.empty(3)), "float32"),
    "eq": (lambda t, x: t.eq(x, x, out=t.empty(3, dtype=t.bool)), "bool"),
    "arange": (lambda t, x: t.arange(3, out=t.empty(3, dtype=t.float64)), "float64"),
    "zeros": (lambda t, x: t.zeros(2, 2, out=t.empty(0, dtype=t.int32)), "int32"),
    "linspace": (lambda t, x: t.linspace(0, 1, 3, out=t.empty(3)), "float32"),
}


@pytest.mark.parametrize("name", CALLS)
def test_out_receives_the_result(name):
    results = {}
    for lib_name in LIBS:
        lib = _lib(lib_name)
        x = lib.tensor([0.25, 0.75, 0.5])
        r = CALLS[name][0](lib, x)
        results[lib_name] = r.numpy()
        assert str(r.dtype).rsplit(".", 1)[-1] == CALLS[name][1]
    if torch is not None:
        np.testing.assert_allclose(results["minitorch"], results["torch"])


def test_out_is_the_returned_tensor_and_its_version_moves():
    x, out = minitorch.tensor([1.0, 2.0]), minitorch.empty(2)
    v = out._version
    assert minitorch.exp(x, out=out) is out and out._version > v
    assert minitorch.cat([x], out=out) is out
    np.testing.assert_allclose(out.numpy(), [1.0, 2.0])


@pytest.mark.parametrize("lib_name", LIBS)
def test_several_results_go_into_a_tuple_of_outs(lib_name):
    t = _lib(lib_name)
    x = t.tensor([[1.0, 3.0, 2.0]])
    values, indices = t.empty(1), t.empty(1, dtype=t.long)
    r = t.max(x, 1, out=(values, indices))
    assert r.values is values and r.indices is indices and int(indices) == 1
    vals, idx = t.empty(3), t.empty(3, dtype=t.long)
    r = t.sort(x[0], out=(vals, idx))
    assert r.values is vals and vals.tolist() == [1.0, 2.0, 3.0] and idx.tolist() == [0, 2, 1]


@pytest.mark.parametrize("lib_name", LIBS)
def test_out_errors_and_the_resize_warning(lib_name):
    t = _lib(lib_name)
    x = t.tensor([0.5, 1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^exp\(\): functions with out=\.\.\. arguments don't support automatic "
                                           r"differentiation, but one of the arguments requires grad\.$"):
        t.exp(x, out=t.empty(3))
    with pytest.raises(RuntimeError, match=r"^cat\(\): functions with out=\.\.\. arguments"):
        t.cat([x, x], out=t.empty(6))
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired output type Long$"):
        t.exp(x.detach(), out=t.empty(3, dtype=t.long))
    with t.no_grad():
        assert not t.exp(x, out=t.empty(3)).requires_grad
    small = t.empty(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t.exp(x.detach(), out=small)
    assert tuple(small.shape) == (3,)
    assert str(caught[0].message).startswith(
        "An output with one or more elements was resized since it had shape [2], which does not match the "
        "required output shape [3]. This behavior is deprecated")
    empty = t.empty(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t.exp(x.detach(), out=empty)  # an empty out is resized without a warning
    assert tuple(empty.shape) == (3,)


def _torch_functions_taking_out(torch) -> list:
    """The public functions of torch whose documented signature has ``out=None``."""
    names = []
    for name in dir(torch):
        fn = getattr(torch, name, None)
        doc = getattr(fn, "__doc__", None)
        if not name.startswith("_") and callable(fn) and isinstance(doc, str) and re.search(
                r"\bout=None", doc.strip().split("\n")[0]):
            names.append(name)
    return names


def test_every_torch_function_taking_out_takes_it_here():
    missing = []
    for name in torch_answer(_torch_functions_taking_out):
        if not hasattr(minitorch, name):
            continue
        ours = getattr(minitorch, name)
        try:
            params = inspect.signature(ours, follow_wrapped=False).parameters
        except (TypeError, ValueError):
            continue
        if "out" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
            missing.append(name)
    assert not missing, f"without out=: {missing}"
