"""The one registry of public operations.

Every public op function is registered where it is defined, by ``Op.function()``,
``Op.inplace_function()`` or the ``@register`` decorator, with the facts of its row (``Row``: ``out=``,
differentiability, ...) and the Python operators bound to it. From this registry alone
``minitorch._ops`` binds the Tensor methods and operators, ``minitorch`` its top-level functions and
``minitorch.nn.functional`` the entries it shares with them; ``tests/ops/test_registry.py``
checks that they agree and sweeps every registered differentiable op with gradcheck (the tests' tables
of binary, not differentiable and underivable ops are read from the rows).

A reader (or an IDE) finds any method's definition from its name: ``Tensor.exp`` *is* the
registered function, so ``inspect.getsourcefile(minitorch.Tensor.exp)`` names its file, and
the generated import blocks in ``minitorch/_core/tensor.py`` and ``minitorch/__init__.py`` (kept up
to date by ``python -m minitorch._ops``; a test fails when they are stale) let an editor
jump there. This module imports nothing from minitorch but ``out``'s wrapper.
"""
from __future__ import annotations

import os
import sys
import types
from typing import Callable, NamedTuple

from .out import with_out


class Entry(NamedTuple):
    name: str
    function: Callable
    method: bool      # a Tensor method
    top_level: bool   # a ``minitorch.*`` function
    functional: bool  # a ``minitorch.nn.functional`` function


class Row(NamedTuple):
    """The facts about one public function (shared by its aliases), given to ``register``."""
    differentiable: bool = True   # records a graph (False: results never require grad, as torch's)
    derivative: bool = True       # False: recorded, but backward raises torch's "derivative ... not implemented"
    double_backward: bool = True  # False: differentiable once only (the gradient's own backward raises)
    binary: bool = False          # takes two tensors of one (broadcastable) shape, as ``add`` does
    out: bool = False             # its ``minitorch.*`` form gets torch's ``out=`` from the registry


ENTRIES: dict[str, Entry] = {}      # the minitorch namespace: Tensor methods and minitorch.* functions
FUNCTIONAL: dict[str, Callable] = {}  # minitorch.nn.functional: its own functions and the shared ops
ROWS: dict[Callable, Row] = {}      # the facts of each registered function that differ from ``Row()``
TOP_LEVEL_FORMS: dict[str, Callable] = {}  # a minitorch.* function where it differs from the method (out=)
OPERATORS: dict[str, Callable] = {}  # Python's operators (``__add__``), and Tensor methods that are no op (``where``)
ANY_OPERAND: set[str] = set()  # the operators that take any operand (``__getitem__``); see ``operator_alias``
NO_DOUBLE_BACKWARD: set[Callable] = set()  # differentiable once only, as in torch (backward of backward raises)


def register(function: Callable | None = None, *, name: str | None = None, method: bool = True,
             top_level: bool = True, functional: bool = False, aliases: tuple = (), operators: tuple = (), **facts):
    """Register ``function`` as a public op under ``name`` (default: its ``__name__``) and ``aliases``.

    ``method``: bound as a Tensor method; ``top_level``: exported as ``minitorch.<name>``; ``functional``: exported as
    ``minitorch.nn.functional.<name>``; ``operators``: the Python operators (``"__add__"``) bound to it.
    ``facts`` are the fields of ``Row`` (``differentiable=False``, ``out=True``, ...): given once, where the
    function is registered first; an alias registered later keeps them. Usable as a decorator, with or
    without arguments; returns ``function`` unchanged.
    """
    Row()._replace(**facts)  # (a ValueError names an unknown fact, before anything is registered)

    def add(fn: Callable) -> Callable:
        if facts:
            ROWS[fn] = row(fn)._replace(**facts)
        known = row(fn)
        for n in (name or fn.__name__, *aliases):
            if method or top_level:
                _add(ENTRIES, n, fn, Entry(n, fn, method, top_level, functional))
            if functional:
                _add(FUNCTIONAL, n, fn, fn)
            if known.out and top_level:
                TOP_LEVEL_FORMS[n] = located(with_out(fn), fn.__code__.co_filename, fn.__code__.co_firstlineno)
        if not known.double_backward:
            NO_DOUBLE_BACKWARD.add(fn)
        operator_alias(*operators)(fn)
        return fn
    return add if function is None else add(function)


def operator_alias(*names: str, any_operand: bool = False) -> Callable:
    """Decorator binding a function to the Python operators ``names`` (``"__rtruediv__"``), or to a Tensor
    method that is no registered op, beside the op it applies. Unless ``any_operand`` (as for ``__getitem__``), a
    binary operator returns NotImplemented for an operand that is not a tensor, number or array (see
    ``minitorch._ops``). A registered function names its operators in ``register(operators=...)``, an ``Op``
    class in its ``operators`` and ``inplace_operators`` attributes."""
    def bind(fn: Callable) -> Callable:
        for n in names:
            if OPERATORS.get(n, fn) is not fn:
                raise ValueError(f"operator {n!r} bound twice ({fn.__module__})")
            OPERATORS[n] = fn
            if any_operand:
                ANY_OPERAND.add(n)
        return fn
    return bind


def located(fn: Callable, filename: str, line: int) -> Callable:
    """``fn`` (a function made by a shared factory: ``Op.function``'s applier, the ``out=`` wrapper) with its code
    placed at ``filename``, ``line``: the op's own definition, so that ``inspect.getsourcefile`` and tracebacks name
    the op's file rather than the factory's. Every instruction maps to that one line. Same closure, globals and
    attributes: it runs as ``fn`` does."""
    moved = types.FunctionType(_at_line(fn.__code__, filename, line), fn.__globals__, fn.__name__, fn.__defaults__,
                               fn.__closure__)
    moved.__kwdefaults__ = fn.__kwdefaults__
    moved.__qualname__ = fn.__qualname__
    moved.__dict__.update(fn.__dict__)
    moved.__module__, moved.__doc__ = fn.__module__, fn.__doc__
    return moved


def _at_line(code: types.CodeType, filename: str, line: int) -> types.CodeType:
    # a location table whose every entry is "no column, line unchanged" (the format of CPython 3.11 and later;
    # 3.10 reads the same bytes as (byte offset, line delta) pairs whose line deltas are all 0: the same lines)
    units, table = len(code.co_code) // 2, bytearray()
    while units:
        n = min(units, 8)
        table += bytes((0x80 | 13 << 3 | n - 1, 0))
        units -= n
    consts = tuple(_at_line(c, filename, line) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_firstlineno=line, co_linetable=bytes(table), co_consts=consts)


def row(fn: Callable) -> Row:
    """The facts of the registered function ``fn``."""
    return ROWS.get(fn, _DEFAULT)


_DEFAULT = Row()


def functional_op(fn: Callable | None = None, **facts):
    """Register ``fn`` as a ``minitorch.nn.functional`` function only, with the ``Row`` facts ``facts`` (decorator,
    with or without them)."""
    return register(fn, method=False, top_level=False, functional=True, **facts)


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

