"""Every public callable minitorch shares with PyTorch accepts PyTorch's call forms: parameter names, positions,
keyword-only markers and defaults, against PyTorch's signatures as recorded in tests/fixtures/signatures.json (by
tests/fixtures/make_signature_fixture.py), so the sweep runs the same with torch or without.

A builtin with several overloads must accept each overload's calls; where one Python signature cannot (the
overloads name the same position differently), the callable is in EXCEPTIONS and its call forms are tested below."""
import importlib
import inspect
import json
import pathlib

import pytest

import minitorch

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "signatures.json").read_text())
NAMESPACES = {"torch": "minitorch", "Tensor": "minitorch.Tensor", "nn.functional": "minitorch.nn.functional",
              "linalg": "minitorch.linalg", "special": "minitorch.special", "fft": "minitorch.fft",
              "nn": "minitorch.nn", "optim": "minitorch.optim", "optim.lr_scheduler": "minitorch.optim.lr_scheduler"}
P = inspect.Parameter
POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)

# Overloads no single Python signature can take (their call forms are tested in test_overloaded_call_forms):
EXCEPTIONS = {
}


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


@pytest.mark.parametrize("ns, name", [c for c in CASES if f"{c[0]}.{c[1]}" not in EXCEPTIONS])
def test_signature_as_pytorch(ns, name):
    assert mismatches(ns, name) == []


if __name__ == "__main__":  # a summary of what differs
    bad = {f"{ns}.{n}": mismatches(ns, n) for ns, n in CASES}
    bad = {k: v for k, v in bad.items() if v}
    for k, v in bad.items():
        print(k, v)
    print(f"{len(bad)} of {len(CASES)} callables differ")
