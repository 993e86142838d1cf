"""Every public callable minitorch shares with PyTorch accepts PyTorch's call forms: parameter names, positions,
keyword-only markers and defaults, against PyTorch's signatures as recorded in tests/fixtures/signatures.json (by
tests/fixtures/make_signature_fixture.py), so the sweep runs the same with torch or without.

A builtin with several overloads must accept each overload's calls; where one Python signature cannot (the
overloads name the same position differently), the callable is in EXCEPTIONS and its call forms are tested below."""
import importlib
import inspect
import json

import pytest

import minitorch
from locations import FIXTURES

FIXTURE = json.loads((FIXTURES / "signatures.json").read_text())
NAMESPACES = {"torch": "minitorch", "Tensor": "minitorch.Tensor", "nn.functional": "minitorch.nn.functional",
              "linalg": "minitorch.linalg", "special": "minitorch.special", "fft": "minitorch.fft",
              "nn": "minitorch.nn", "optim": "minitorch.optim", "optim.lr_scheduler": "minitorch.optim.lr_scheduler"}
P = inspect.Parameter
POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)

# Deliberate: callables no single Python signature can give PyTorch's (their call forms are tested below and in
# test_call_forms.py).
_SPLITS = "the overloads name the one position differently (indices, sections, tensor_indices_or_sections)"
_REDUCTION_ENUM = ("torch's signature says reduction=1 (mean), but its calls without reduction return the unreduced "
                   "losses, as reduction=0: minitorch defaults to 0, torch's behaviour (test_call_forms.py)")
EXCEPTIONS = {
    **{f"{ns}.{n}": _SPLITS for ns in ("torch", "Tensor") for n in ("tensor_split", "dsplit", "hsplit", "vsplit")},
    **{f"torch.{n}": _REDUCTION_ENUM for n in ("binary_cross_entropy_with_logits", "cosine_embedding_loss",
                                               "hinge_embedding_loss", "kl_div", "margin_ranking_loss",
                                               "triplet_margin_loss")},
    **{f"torch.{n}": "the packed-sequence overload takes (data, batch_sizes, ...) where the other takes (input, hx, ...)"
       for n in ("gru", "lstm", "rnn_relu", "rnn_tanh")},
    "torch.result_type": "overloads for every pair of tensor and scalar name the arguments differently",
    "torch.isin": "the scalar overloads call the arguments element and test_element",
    "torch.split": "one function is torch.split(tensor, split_size_or_sections) and Tensor.split(split_size)",
    "Tensor.split": "one function is torch.split(tensor, split_size_or_sections) and Tensor.split(split_size)",
    "torch.split_copy": "split's function with a copy (see torch.split)",
    "Tensor.polygamma": "torch.polygamma(n, input) as a method takes n after self",
    "Tensor.set_": "the storage overloads (set_(source, storage_offset, size, stride)): minitorch has no storages",
    "torch.eig": "removed from PyTorch: minitorch's raises PyTorch's error; the stub's signature is the old one",
}
# Not yet as PyTorch's (each a strict xfail, so that it fails once fixed and is taken off the list): none left.
KNOWN_GAPS: dict[str, str] = {}


def _resolve(path):
    if path == "minitorch.Tensor":
        return minitorch.Tensor
    return importlib.import_module(path)


def _params(owner, name, kind):
    obj = getattr(owner, name)
    params = list(inspect.signature(obj.__init__ if kind == "classes" else obj).parameters.values())
    bound = kind == "classes" or kind == "methods" and not isinstance(inspect.getattr_static(owner, name),
                                                                      (staticmethod, classmethod))
    if bound and params and params[0].kind in POSITIONAL:
        params = params[1:]  # self (minitorch's methods often call it input, as their torch.* forms)
    return params


def _comparable(default):
    return default is None or isinstance(default, (bool, int, float, str)) or (
        isinstance(default, (tuple, list)) and all(isinstance(v, (bool, int, float, str)) for v in default))


def _same_default(mine, theirs):
    if theirs == [] and mine is None:  # ATen's "not given" for an int list (pooling's stride, roll's dims)
        return True
    if isinstance(mine, (tuple, list)):
        mine = list(mine)
    if isinstance(mine, bool) != isinstance(theirs, bool):
        return False
    return mine == theirs or (isinstance(theirs, list) and len(set(theirs)) == 1 and mine == theirs[0])


def problems(params, overloads) -> list:
    """What PyTorch's overloads accept that these minitorch parameters do not (empty when all is accepted)."""
    out = []
    positional = [p for p in params if p.kind in POSITIONAL]
    varargs = any(p.kind == P.VAR_POSITIONAL for p in params)
    varkw = any(p.kind == P.VAR_KEYWORD for p in params)
    by_name = {p.name: p for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)}
    defaults = {}  # name -> the defaults torch's overloads give it (compared only where they agree)
    for o in overloads:
        for name, _, d in o:
            defaults.setdefault(name, []).append(json.dumps(d))
    ever_positional = {name for o in overloads for name, kind, _ in o if kind in (
        "POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL")}
    for overload in overloads:
        index = 0
        given = set()
        for name, kind, default in overload:
            mine = None
            if kind in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"):
                if index < len(positional):
                    mine = positional[index]
                elif not varargs:
                    out.append(f"takes no argument at position {index} ({name!r})")
                index += 1
                given.add(mine.name if mine is not None else name)
            elif kind == "VAR_POSITIONAL":
                if not varargs:
                    out.append(f"takes no *{name}")
                given.update(p.name for p in positional[index:])
                continue
            elif kind == "VAR_KEYWORD":
                if not varkw:
                    out.append(f"takes no **{name}")
                continue
            if kind in ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY"):
                given.add(name)
                if name in by_name:
                    mine = by_name[name]
                elif mine is not None and mine.kind == P.POSITIONAL_ONLY:
                    out.append(f"{name!r} is positional-only")
                elif mine is not None and mine.kind == P.POSITIONAL_OR_KEYWORD:
                    out.append(f"position {index - 1} is {mine.name!r}, PyTorch's {name!r}")
                elif not varkw:
                    out.append(f"has no parameter {name!r}")
                if kind == "KEYWORD_ONLY" and mine is not None and mine.kind in POSITIONAL \
                        and name not in ever_positional:
                    out.append(f"{name!r} is not keyword-only")
            if mine is None or mine.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) or "required" in default:
                continue
            if len(set(defaults[name])) > 1:  # overloads for different types of it (conv's padding: 0 or "valid")
                continue
            if mine.default is P.empty:
                out.append(f"{mine.name!r} is required; PyTorch's defaults")
            elif "value" in default and _comparable(mine.default) and not _same_default(mine.default, default["value"]):
                out.append(f"{name!r} defaults to {mine.default!r}, PyTorch's to {default['value']!r}")
        required = {name for name, kind, d in overload if "required" in d and kind not in ("VAR_POSITIONAL",
                                                                                            "VAR_KEYWORD")}
        for p in params:
            if p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD) and p.default is P.empty and p.name not in required \
                    and p.name not in given:
                out.append(f"requires {p.name!r}, which PyTorch does not")
    return sorted(set(out))


CASES = [(ns, name) for ns in FIXTURE["namespaces"] for name in FIXTURE["namespaces"][ns]]
KINDS = {"Tensor": "methods", "nn": "classes", "optim": "classes", "optim.lr_scheduler": "classes"}


def _registered_op(obj) -> bool:
    """A function made from an op's registry row (``Op.function``): its tensor inputs are positional-only, being
    forward's arrays, and its other parameters are forward's own (accepted by position too)."""
    return getattr(getattr(obj, "__code__", None), "co_name", "") == "apply"


OP_LENIENCY = ("is positional-only", "is not keyword-only")


def mismatches(ns, name):
    owner = _resolve(NAMESPACES[ns])
    try:
        params = _params(owner, name, KINDS.get(ns, "functions"))
    except (TypeError, ValueError):
        return ["has no signature"]
    found = problems(params, FIXTURE["namespaces"][ns][name])
    if _registered_op(getattr(owner, name)):
        found = [p for p in found if not p.endswith(OP_LENIENCY)]
    return found


@pytest.mark.parametrize("ns", sorted(FIXTURE["namespaces"]))
def test_signatures_as_pytorch(ns):
    """Every recorded callable of ``ns`` takes PyTorch's call forms, but the exceptions and the known gaps; a gap
    that is closed must leave KNOWN_GAPS."""
    differ = {f"{ns}.{name}": mismatches(ns, name) for name in FIXTURE["namespaces"][ns]
              if f"{ns}.{name}" not in EXCEPTIONS}
    differ = {key: found for key, found in differ.items() if found}
    assert {k: v for k, v in differ.items() if k not in KNOWN_GAPS} == {}
    assert sorted(k for k in KNOWN_GAPS if k.startswith(ns + ".") and k.count(".") == ns.count(".") + 1
                  and k not in differ) == []


def test_the_lists_name_recorded_callables():
    recorded = {f"{ns}.{name}" for ns, name in CASES}
    assert set(EXCEPTIONS) <= recorded and set(KNOWN_GAPS) <= recorded and not set(EXCEPTIONS) & set(KNOWN_GAPS)


def test_the_sweep_checks_most_of_the_api():
    assert len(CASES) > 1400 and len(EXCEPTIONS) + len(KNOWN_GAPS) < 0.08 * len(CASES)


# ---- the call forms of the exceptions and of the factories (issue 22) ------------------------------------------

def test_factories_take_size_as_a_keyword():
    for factory in (minitorch.empty, minitorch.zeros, minitorch.ones, minitorch.rand, minitorch.randn):
        assert factory(size=(2, 3)).shape == (2, 3)
        assert factory(2, 3).shape == factory((2, 3)).shape == factory([2, 3]).shape == (2, 3)
        with pytest.raises(TypeError):
            factory(2, size=(3,))
    assert minitorch.full(size=(2,), fill_value=7).tolist() == [7, 7]
    assert minitorch.ones(1).new_zeros(size=(2,)).tolist() == [0.0, 0.0]


def test_randint_call_forms():
    minitorch.manual_seed(0)
    for kwargs, args, low, high in (({"size": (50,)}, (5,), 0, 5), ({"high": 5, "size": (50,)}, (), 0, 5),
                                    ({}, (5, (50,)), 0, 5), ({}, (3, 5, (50,)), 3, 5),
                                    ({"low": 3, "high": 5, "size": (50,)}, (), 3, 5), ({"size": [50]}, (3, 5), 3, 5)):
        values = minitorch.randint(*args, **kwargs)
        assert values.shape == (50,) and values.dtype == minitorch.int64
        assert set(values.tolist()) == set(range(low, high))
    with pytest.raises(TypeError):
        minitorch.randint(5)


def test_splits_by_position():
    x = minitorch.arange(24.0).reshape(2, 3, 4)
    assert [t.shape[2] for t in x.tensor_split(3, 2)] == [2, 1, 1]
    assert [t.shape[2] for t in minitorch.tensor_split(x, (1, 3), 2)] == [1, 2, 1]
    assert [t.shape[2] for t in minitorch.tensor_split(x, minitorch.tensor([1, 3]), dim=2)] == [1, 2, 1]
    assert [t.shape[2] for t in x.dsplit(2)] == [2, 2] and [t.shape[2] for t in x.dsplit([1, 3])] == [1, 2, 1]
    assert [t.shape[1] for t in minitorch.hsplit(x, 3)] == [1, 1, 1]
    assert [t.shape[0] for t in x.vsplit([1])] == [1, 1]
    assert [t.shape[2] for t in x.dsplit(1, 3)] == [1, 2, 1] and [t.shape[1] for t in x.hsplit(1, 2)] == [1, 1, 1]
    with pytest.raises(TypeError):  # the indices one by one: as a method only, as torch
        minitorch.dsplit(x, 1, 3)
    assert [t.shape[1] for t in x.split(2, 1)] == [2, 1] and [t.shape[2] for t in minitorch.split(x, [1, 3], 2)] \
        == [1, 3]


def test_shared_and_scalar_forms():
    a = minitorch.tensor([[2.0, 1.0], [1.0, 3.0]])
    assert abs(minitorch.det(a).item() - 5.0) < 1e-6 and abs(minitorch.linalg.det(A=a).item() - 5.0) < 1e-6
    assert minitorch.result_type(a, 1) == minitorch.float32 and minitorch.result_type(1, 2.0) == minitorch.float32
    assert minitorch.isin(minitorch.tensor([1, 2, 3]), minitorch.tensor([2])).tolist() == [False, True, False]
    assert minitorch.isin(elements=minitorch.tensor([1, 2]), test_elements=2).tolist() == [False, True]
    out = minitorch.empty(0, dtype=minitorch.bool)
    assert minitorch.isin(minitorch.tensor([1, 2]), minitorch.tensor([2]), out=out) is out and out.tolist() == [False,
                                                                                                              True]
    assert abs(minitorch.ones(1).polygamma(1).item() - 1.6449341) < 1e-5


if __name__ == "__main__":  # a summary of what differs
    bad = {f"{ns}.{n}": mismatches(ns, n) for ns, n in CASES}
    bad = {k: v for k, v in bad.items() if v}
    for k, v in bad.items():
        print(k, v)
    print(f"{len(bad)} of {len(CASES)} callables differ")
