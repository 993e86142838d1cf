"""Tensor printing: ``repr(tensor)`` text identical to PyTorch's (``torch/_tensor_str.py``).

One formatter picks a notation (integer-valued ``1.``, fixed ``0.1000`` or scientific
``1.0000e-05``) and a width for all elements; large tensors are summarized to their
edge items before anything is formatted. Options live in ``PRINT_OPTS``.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any, Callable, Iterator

import numpy as np

from . import _dtype


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision: int | None = None, threshold: float | None = None,
                     edgeitems: int | None = None, linewidth: int | None = None,
                     profile: str | None = None, sci_mode: bool | None = None) -> None:
    """Set the printing options, as ``torch.set_printoptions``.

    ``profile`` ("default", "short" or "full") first resets precision, threshold,
    edgeitems and linewidth; the other given options then override it. ``sci_mode``
    is always set: ``None`` (automatic choice), True or False.
    """
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(PRINT_OPTS, name, value)
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth)
    for name, value in given.items():
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current printing options, as keyword arguments for :func:`set_printoptions`."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Context manager that sets printing options (as :func:`set_printoptions`) and restores them."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Notation and width shared by all elements, chosen from the values that will be shown."""

    def __init__(self, values: np.ndarray, floating: bool):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        v = values.ravel()
        if floating:
            v = v.astype(np.float64)
            v = v[np.isfinite(v) & (v != 0)]
            if v.size == 0:  # only zeros, nan and inf: print as integers (`0.`, `nan`)
                return
            a = np.abs(v)
            lo, hi = float(a.min()), float(a.max())
            self.int_mode = bool(np.all(v == np.ceil(v)))
            auto_sci = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
            self.sci_mode = auto_sci if PRINT_OPTS.sci_mode is None else PRINT_OPTS.sci_mode
            # The longest text belongs to the largest or smallest value of either sign
            # (only these can have the most integer digits or a 3-digit exponent).
            parts = (v[v > 0], v[v < 0])
        else:
            parts = (v,)
        extremes = [x.item() for part in parts if part.size for x in (part.min(), part.max())]
        self.max_width = max([1] + [len(self._text(x)) for x in extremes])

    def _text(self, value: Any) -> str:
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            return f"{value:.0f}" + ("." if math.isfinite(value) else "")
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value: Any) -> str:
        """One element (a Python number), right-aligned to the common width."""
        return self._text(value).rjust(self.max_width)


class _ComplexFormatter:
    """Real and imaginary parts each with their own notation and width, as torch prints them: ``1.+2.j``."""

    def __init__(self, values: np.ndarray):
        self.real, self.imag = _Formatter(values.real, True), _Formatter(values.imag, True)
        self.max_width = self.real.max_width + self.imag.max_width + 1  # the "j"

    def format(self, value: complex) -> str:
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return self.real.format(value.real) + ("" if imag[0] in "+-" else "+") + imag


def _summarized(a: np.ndarray) -> np.ndarray:
    """The elements a summarized print shows: the edge items of every long dimension."""
    e = PRINT_OPTS.edgeitems
    keep = [np.r_[0:e, n - e:n] if n > 2 * e else np.arange(n) for n in a.shape]
    return a[np.ix_(*keep)]


def _edges(a: np.ndarray, summarize: bool, render: Callable[[np.ndarray], str], ellipsis: str) -> list[str]:
    """Render the sub-arrays along the first dimension, only the edge ones when summarizing."""
    n, e = a.shape[0], PRINT_OPTS.edgeitems
    if summarize and n > 2 * e:
        return [render(x) for x in a[:e]] + [ellipsis] + [render(x) for x in a[n - e:]]
    return [render(x) for x in a]


def _array_str(a: np.ndarray, fmt: _Formatter, indent: int, summarize: bool) -> str:
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        # the ellipsis is padded like an element, unless it stands alone (edgeitems=0)
        items = _edges(a, summarize, lambda x: fmt.format(x.item()), " ..." if PRINT_OPTS.edgeitems else "...")
        per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.max_width + 2)))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = _edges(a, summarize, lambda x: _array_str(x, fmt, indent + 1, summarize), "...")
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def add_suffixes(text: str, suffixes: list[str], indent: int, force_newline: bool = False) -> str:
    """``text`` with ``, suffix`` parts, lines broken as PyTorch breaks them (``force_newline``: before the first)."""
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        # measured as PyTorch's text ("dtype=torch.int32"), so lines break where PyTorch breaks them
        width = len(suffix.replace("minitorch.", "torch."))
        if force_newline or last_line_len + width + 2 > PRINT_OPTS.linewidth:
            text += ",\n" + " " * indent + suffix
            last_line_len = indent + width
            force_newline = False
        else:
            text += ", " + suffix
            last_line_len += width + 2
    return text + ")"


def array_body(a: np.ndarray, dtype, indent: int) -> str:
    """The bracketed elements of a non-empty array as ``repr`` shows them, continued lines indented by ``indent``."""
    summarize = a.size > PRINT_OPTS.threshold
    shown = _summarized(a) if summarize else a
    fmt = _ComplexFormatter(shown) if dtype.is_complex else _Formatter(shown, dtype.is_floating_point)
    return _array_str(a, fmt, indent, summarize)


def shows_dtype(dtype, empty: bool) -> bool:
    """Whether ``repr`` names the dtype: unless it is the default (or, with elements shown, int64/bool)."""
    if empty:
        return dtype is not _dtype.get_default_dtype()
    return dtype not in (_dtype.get_default_dtype(), _dtype.default_complex(), _dtype.int64, _dtype.bool)


def grad_suffix(t) -> list[str]:
    """``grad_fn=<...>`` or ``requires_grad=True``, as the tensor has it."""
    if t.grad_fn is not None:
        return [f"grad_fn=<{type(t.grad_fn).__name__}>"]
    return ["requires_grad=True"] if t.requires_grad else []


def _str(t) -> str:
    """The text of ``repr(t)`` / ``str(t)``, e.g. ``tensor([1., 2.], grad_fn=<MulBackward0>)``."""
    a, dtype = t._data, t.dtype
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if a.size == 0:
        body = "[]"
        if a.ndim != 1:
            suffixes.append(f"size={tuple(a.shape)}")
        if shows_dtype(dtype, empty=True):  # no element shows the type
            suffixes.append(f"dtype={dtype!r}")
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(a.shape)}")
        if shows_dtype(dtype, empty=False):
            suffixes.append(f"dtype={dtype!r}")
        body = array_body(a, dtype, indent)
    return add_suffixes(prefix + body, suffixes + grad_suffix(t), indent)
