"""Drawing the backward graph, with torchviz's conventions.

``make_dot(output)`` returns a ``Digraph``: its ``.source`` is Graphviz DOT text
(node ids are numbered in drawing order, so the text is deterministic), and
``.render()`` turns it into PNG/SVG/PDF through Graphviz's ``dot`` program.

Colours: grey boxes are backward nodes (``MulBackward0``, ``AccumulateGrad``...);
light blue, the leaves whose ``.grad`` backward fills; orange, saved tensors;
green, the outputs (dark green: the base of an output that is a view).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections import deque

from ._core.tensor import Tensor
from ._core.graph import AccumulateGrad
from .serialization import _write_atomically

NODE_ATTR = dict(style="filled", shape="box", align="left", fontsize="10", ranksep="0.1", height="0.2",
                 fontname="monospace")
INSTALL_HINT = ("Graphviz's `dot` program is needed to render graphs: install it (Debian/Ubuntu: "
                "`apt-get install graphviz`, macOS: `brew install graphviz`). The DOT text is in `.source`.")


def _quote(value: str) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(attrs: dict) -> str:
    return " ".join(f"{k}={_quote(v)}" for k, v in attrs.items())


class Digraph:
    """A Graphviz directed graph, as DOT text: just what ``make_dot`` needs, and
    rendering through the ``dot`` program."""

    def __init__(self, node_attr: dict | None = None, graph_attr: dict | None = None):
        self.node_attr = dict(node_attr or {})
        self.graph_attr = dict(graph_attr or {})
        self.body: list[str] = []
        self.format = "png"

    def node(self, name: str, label: str | None = None, **attrs) -> None:
        if label is not None:
            attrs = {"label": label, **attrs}
        self.body.append(f"\t{name} [{_attrs(attrs)}]" if attrs else f"\t{name}")

    def edge(self, tail: str, head: str, **attrs) -> None:
        self.body.append(f"\t{tail} -> {head}" + (f" [{_attrs(attrs)}]" if attrs else ""))

    @property
    def source(self) -> str:
        head = ["digraph {"]
        if self.graph_attr:
            head.append(f"\tgraph [{_attrs(self.graph_attr)}]")
        if self.node_attr:
            head.append(f"\tnode [{_attrs(self.node_attr)}]")
        return "\n".join(head + self.body + ["}"]) + "\n"

    def save(self, filename: str) -> str:
        """Write the DOT text to ``filename``; returns the path."""
        with open(filename, "w") as f:
            f.write(self.source)
        return filename

    def pipe(self, format: str | None = None) -> bytes:  # noqa: A002
        """The rendered graph as bytes (``format``: png, svg, pdf, ...)."""
        exe = shutil.which("dot")
        if exe is None:
            raise RuntimeError(INSTALL_HINT)
        result = subprocess.run([exe, f"-T{format or self.format}"], input=self.source.encode(),
                                capture_output=True, check=False)
        if result.returncode:
            raise RuntimeError(f"dot failed: {result.stderr.decode(errors='replace').strip()}")
        return result.stdout

    def render(self, filename: str = "graph", format: str | None = None, cleanup: bool = False,  # noqa: A002
               view: bool = False) -> str:
        """Save the DOT text to ``filename`` and render it to ``filename.<format>``; returns that path.

        ``cleanup=True`` removes the DOT file afterwards.
        """
        fmt = format or self.format
        data = self.pipe(fmt)
        self.save(filename)
        out = f"{filename}.{fmt}"
        _write_atomically(out, lambda fh: fh.write(data))
        if cleanup:
            os.remove(filename)
        return out

    def _repr_svg_(self) -> str:
        return self.pipe("svg").decode()

    def _repr_png_(self) -> bytes:
        return self.pipe("png")


def _size(shape) -> str:
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


def _fn_label(fn, show_attrs: bool, max_attr_chars: int) -> str:
    """The node's name, and with ``show_attrs`` a table of what it saved (torchviz's layout)."""
    name = type(fn).__name__
    if not show_attrs:
        return name
    attrs = {k: str(v) for k, v in fn._attributes().items()}
    attrs.update({entry[0]: "[saved tensor]" for entry in fn._saved_entries()})
    if not attrs:
        return name
    max_attr_chars = max(max_attr_chars, 3)
    col1 = max(len(k) for k in attrs)
    col2 = min(max(len(v) for v in attrs.values()), max_attr_chars)
    sep = "-" * max(col1 + col2 + 2, len(name))

    def truncate(s):
        return s[:col2 - 3] + "..." if len(s) > col2 else s
    rows = "\n".join(f"{k:<{col1}}: {truncate(v):>{col2}}" for k, v in attrs.items())
    return name + "\n" + sep + "\n" + rows


def make_dot(var, params: dict | None = None, show_attrs: bool = False, show_saved: bool = False,
             max_attr_chars: int = 50) -> Digraph:
    """Draw the backward graph that produced ``var`` (a tensor or a tuple of tensors).

    ``params`` names leaves (e.g. ``dict(model.named_parameters())``); ``show_attrs``
    lists each node's saved values; ``show_saved`` draws saved tensors (orange),
    with their shape and the version they were saved at.
    """
    names = {id(v): k for k, v in (params or {}).items()}
    dot = Digraph(node_attr=NODE_ATTR, graph_attr={"size": "12,12"})
    ids: dict[int, str] = {}
    keep_alive = []  # objects whose id() names a node must outlive the drawing

    def ident(obj) -> str:
        key = id(obj)
        if key not in ids:
            ids[key] = f"n{len(ids)}"
            keep_alive.append(obj)
        return ids[key]

    def var_label(shape, name="") -> str:
        return f"{name}\n {_size(shape)}"

    seen = set()
    queue = deque()

    def visit(fn):
        if id(fn) not in seen:
            seen.add(id(fn))
            queue.append(fn)

    def add_output(t: Tensor, color: str) -> None:
        if id(t) in seen:
            return
        seen.add(id(t))
        dot.node(ident(t), var_label(t.shape, names.get(id(t), "")), fillcolor=color)
        if t.grad_fn is not None:
            visit(t.grad_fn)
            dot.edge(ident(t.grad_fn), ident(t))
        if t._base is not None:
            add_output(t._base, "darkolivegreen3")
            dot.edge(ident(t._base), ident(t), style="dotted")

    for t in (var if isinstance(var, (tuple, list)) else (var,)):
        add_output(t, "darkolivegreen1")
    while queue:
        fn = queue.popleft()
        custom = hasattr(fn, "_forward_cls")
        if show_saved or custom:
            for name, arr, version, _ in fn._saved_entries():
                node = ident(arr)
                dot.edge(ident(fn), node, dir="none")
                dot.node(node, f"{name}\n {_size(arr.shape)} v{version}", fillcolor="orange")
        if isinstance(fn, AccumulateGrad):
            variable = fn.variable
            dot.node(ident(variable), var_label(variable.shape, names.get(id(variable), "")), fillcolor="lightblue")
            dot.edge(ident(variable), ident(fn))
        dot.node(ident(fn), _fn_label(fn, show_attrs, max_attr_chars))
        for child, _ in fn.next_functions:
            if child is not None:
                dot.edge(ident(child), ident(fn))
                visit(child)
    size = max(12.0, 0.15 * len(dot.body))
    dot.graph_attr["size"] = f"{size},{size}"
    return dot
