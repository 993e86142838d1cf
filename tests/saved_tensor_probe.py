"""What a graph keeps for backward, probed from outside, the same way for minitorch and PyTorch.

For one registered op, run its registry sample (on its registry row; tests/registry_cases.py) and ask:

- ``second``: does a second ``backward()`` without ``retain_graph`` go through (``"ok"``) or raise
  "Trying to backward through the graph a second time" (``"freed"``)?
- ``inplace``: for each tensor the sample makes (its inputs, index tensors, masks, targets: every
  ``tensor(...)`` call, in order), does an in-place change of it between forward and backward go through
  (``"ok"``) or raise the version error (``"version: <the error's text up to its hint>"``)?

``torch_registry()`` gives the same samples rewritten for PyTorch (``edge_value_cases.TorchForm``), so
tests/fixtures/make_saved_tensor_fixtures.py can record PyTorch's answers and tests/autograd/test_saved_tensors.py can
compare minitorch's with them (with or without PyTorch installed).
"""
import contextlib
import types
import warnings


class _Recording:
    """``tensor(...)`` that also notes each tensor it makes (while ``made`` is a list)."""

    made = None

    def __init__(self, factory):
        self.factory = factory

    def __call__(self, *args, **kwargs):
        t = self.factory(*args, **kwargs)
        if _Recording.made is not None:
            _Recording.made.append(t)
        return t


@contextlib.contextmanager
def _recorded(namespace, made: list):
    """Record the tensors made through ``namespace.tensor`` into ``made``."""
    factory = namespace.tensor
    namespace.tensor, _Recording.made = _Recording(factory), made
    try:
        yield made
    finally:
        namespace.tensor, _Recording.made = factory, None


def _outputs(out, lib) -> list:
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in outs if isinstance(o, lib.Tensor) and o.requires_grad]


def _error(e: Exception) -> str:
    text = str(e)
    if "modified by an inplace operation" in text:
        return "version:" + text.split(":", 1)[1].split(" Hint:")[0]
    if "backward through the graph a second time" in text:
        return "freed"
    return f"error: {type(e).__name__}: {text.splitlines()[0][:120] if text else ''}"


def run(registry, namespace, lib, name: str, change=None, keep=None):
    """Run the sample of op ``name``: forward, an in-place change of made tensor ``change``, backward.

    Returns (result of backward: "ok" or ``_error``'s text, the tensors made, the outputs); ``keep``, a
    list, receives the graph's roots before backward (to walk the graph after it)."""
    made = []
    with warnings.catch_warnings(), _recorded(namespace, made):
        warnings.simplefilter("ignore")
        fn, inputs = registry._case(name)
        outs = _outputs(fn(*inputs), lib)
    if not outs:
        raise LookupError(f"{name}: no output requires grad")
    if change is not None:
        t = made[change]
        with lib.no_grad():
            t.copy_(t.detach().clone())
    if keep is not None:
        keep.extend(o.grad_fn for o in outs)
    grads = [lib.ones_like(o) for o in outs]
    try:
        lib.autograd.backward(outs, grads)
    except Exception as e:  # noqa: BLE001 (the answer is the error)
        return _error(e), made, outs
    return "ok", made, outs


def second_backward(outs, lib) -> str:
    """"ok" or "freed": a second backward from ``outs`` without retain_graph."""
    try:
        lib.autograd.backward(outs, [lib.ones_like(o) for o in outs])
    except Exception as e:  # noqa: BLE001
        return _error(e)
    return "ok"


def describe(t) -> list:
    return [str(t.dtype).split(".")[-1], list(t.shape)]


def answers(registry, namespace, lib, name: str) -> dict:
    """The probe's answers for op ``name``: {"second", "made", "inplace"} (or {"error"} if the sample fails)."""
    if registry._case(name) is None:
        return {"error": "swept as its out-of-place op"}
    try:
        first, made, outs = run(registry, namespace, lib, name)
    except Exception as e:  # noqa: BLE001
        return {"error": _error(e)}
    if first != "ok":
        return {"error": first}
    result = {"second": second_backward(outs, lib), "made": [describe(t) for t in made], "inplace": []}
    for k in range(len(made)):
        result["inplace"].append(run(registry, namespace, lib, name, change=k)[0])
    return result


# ---- the registry samples with PyTorch in place of minitorch ---------------------------------------------------
def torch_registry():
    """The registry samples on PyTorch: an object whose ``_case(name)`` gives the sample of op ``name`` (from its
    registry row, through tests/registry_cases.py) rewritten for PyTorch by ``edge_value_cases.TorchForm``, its
    inputs made by torch. Returns (that object, the namespace whose ``tensor`` makes the samples' tensors: torch)."""
    import torch

    import registry_cases
    from edge_value_cases import TorchForm

    form = TorchForm()

    def case(name):
        sample = registry_cases._sample(name)
        return sample and (form(sample[0]), form(sample[1])())
    return types.SimpleNamespace(_case=case), torch
