"""The one registry of public operations.

Every public op function is registered where it is defined, by ``Op.function()``,
``Op.inplace_function()`` or the ``@register`` decorator. From this registry alone
``minitorch._ops`` binds the Tensor methods, ``minitorch`` its top-level functions and
``minitorch.nn.functional`` the entries it shares with them; ``tests/ops/test_registry.py``
checks that they agree and sweeps every registered differentiable op with gradcheck, on the sample inputs
its row names (``SAMPLES``; see ``minitorch._core.samples``).

A reader (or an IDE) finds any method's definition from its name: ``Tensor.exp`` *is* the
registered function, so ``inspect.getsourcefile(minitorch.Tensor.exp)`` names its file, and
the generated import blocks in ``minitorch/_core/tensor.py`` and ``minitorch/__init__.py`` (kept up
to date by ``python -m minitorch._ops``; a test fails when they are stale) let an editor
jump there. This module imports nothing from minitorch.
"""
from __future__ import annotations

import os
import sys
from typing import Callable, NamedTuple


class Entry(NamedTuple):
    name: str
    function: Callable
    method: bool      # a Tensor method
    top_level: bool   # a ``minitorch.*`` function
    functional: bool  # a ``minitorch.nn.functional`` function


ENTRIES: dict[str, Entry] = {}      # the minitorch namespace: Tensor methods and minitorch.* functions
FUNCTIONAL: dict[str, Callable] = {}  # minitorch.nn.functional: its own functions and the shared ops
TOP_LEVEL_FORMS: dict[str, Callable] = {}  # a minitorch.* function where it differs from the method (out=)
NO_DOUBLE_BACKWARD: set[Callable] = set()  # differentiable once only, as in torch (backward of backward raises)
SAMPLES: dict[str, tuple] = {}  # the sweeps' inputs: public name (``F.<name>`` for nn.functional's own) -> sample


def register(function: Callable | None = None, *, name: str | None = None, method: bool = True,
             top_level: bool = True, functional: bool = False, aliases: tuple = (), double_backward: bool = True,
             sample: tuple | None = None):
    """Register ``function`` as a public op under ``name`` (default: its ``__name__``) and ``aliases``.

    ``method``: bound as a Tensor method; ``top_level``: exported as ``minitorch.<name>``;
    ``functional``: exported as ``minitorch.nn.functional.<name>``; ``double_backward=False``: differentiable
    once only, as in torch (the gradient's own backward raises torch's error); ``sample``: the registry sweeps'
    ``(function, inputs)`` for it (see ``minitorch._core.samples``). Usable as a decorator, with or without
    arguments; returns ``function`` unchanged.
    """
    def add(fn: Callable) -> Callable:
        for n in (name or fn.__name__, *aliases):
            if method or top_level:
                _add(ENTRIES, n, fn, Entry(n, fn, method, top_level, functional))
            if functional:
                _add(FUNCTIONAL, n, fn, fn)
        if not double_backward:
            NO_DOUBLE_BACKWARD.add(fn)
        if sample is not None:
            n = name or fn.__name__
            _add(SAMPLES, n if method or top_level else "F." + n, sample, sample)
        return fn
    return add if function is None else add(function)


def functional_op(fn: Callable | None = None, *, sample: tuple | None = None):
    """Register ``fn`` as a ``minitorch.nn.functional`` function only (decorator, with or without ``sample``)."""
    return register(fn, method=False, top_level=False, functional=True, sample=sample)


def _add(table: dict, name: str, fn: Callable, entry) -> None:
    held = table.get(name)
    if held is not None and (held.function if isinstance(held, Entry) else held) is not fn:
        raise ValueError(f"op name {name!r} registered twice ({fn.__module__})")
    table[name] = entry


def methods() -> dict[str, Callable]:
    return {e.name: e.function for e in ENTRIES.values() if e.method}


def top_level() -> dict[str, Callable]:
    return {e.name: TOP_LEVEL_FORMS.get(e.name, e.function) for e in ENTRIES.values() if e.top_level}


def functional() -> dict[str, Callable]:
    return dict(FUNCTIONAL)


def index_block(names: dict[str, Callable], indent: str) -> str:
    """``from <module> import <name>, ...`` lines, one per defining module: the static index for editors."""
    by_module: dict[str, list[str]] = {}
    for n, fn in sorted(names.items()):
        fn = getattr(fn, "__wrapped__", fn)  # a TOP_LEVEL_FORMS wrapper: index the function it wraps
        module = vars(sys.modules[fn.__module__])
        held = n if module.get(n) is fn else next(k for k, v in module.items() if v is fn)
        by_module.setdefault(fn.__module__, []).append(n if held == n else f"{held} as {n}")
    lines = []
    for module, items in sorted(by_module.items()):
        paren = len(items) > 1 or len(f"{indent}from {module} import {items[0]}") > 116
        line = f"{indent}from {module} import " + ("(" if paren else "")
        for item in items:
            if len(line) + len(item) + 2 > 116:
                lines.append(line.rstrip())
                line = indent + "    "
            line += item + ", "
        lines.append(line.rstrip(", ") + (")" if paren else ""))
    return "\n".join(lines)


BEGIN = "# generated by `python -m minitorch._ops`: where each op is defined (for readers and editors)"
END = "# end of the generated block"


def refresh(path: str, names: dict[str, Callable], indent: str, write: bool) -> bool:
    """Rewrite the generated block of the file at ``path``; returns whether it was up to date."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index(BEGIN) + len(BEGIN)
    end = text.rindex("\n", 0, text.index(END))
    block = "\n" + index_block(names, indent)
    if text[start:end] == block:
        return True
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:start] + block + text[end:])
    return False


def generated_files() -> list[tuple[str, dict[str, Callable], str]]:
    """The files with a generated block: (path, names, indent)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return [(os.path.join(here, "tensor.py"), methods(), " " * 8),
            (os.path.join(os.path.dirname(here), "__init__.py"), top_level(), " " * 4)]

