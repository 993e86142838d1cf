"""The backward graph: ``Node`` (what ``tensor.grad_fn`` points to), ``AccumulateGrad``
(the node that writes a leaf's ``.grad``) and saved tensors with their versions.

A node's ``next_functions`` holds one ``(node, output_nr)`` edge per forward
input: the node that produced that input (``output_nr`` says which of its
outputs), the leaf's ``AccumulateGrad``, or ``(None, 0)`` when the input needs
no gradient. Edges point from outputs to inputs only, and saved outputs are
kept as arrays rather than tensors, so a graph holds no reference cycles and
is freed by reference counting as soon as nothing points at it.
"""
from __future__ import annotations

import inspect
import itertools
import os
import weakref
from collections import OrderedDict
from typing import NamedTuple

import numpy as np

from .._dtype import C_NAMES, from_numpy_dtype
from ..utils.hooks import add_hook
from .grad_mode import state
from .tensor import Tensor

NO_EDGE = (None, 0)
_sequence = itertools.count()

RELEASED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward.")


def gradient_edge(t) -> tuple:
    """The edge ``(node, output_nr)`` along which tensor ``t`` receives its gradient: its producer,
    or for a leaf its AccumulateGrad (shared by every graph that uses the leaf while one is alive)."""
    fn = t.grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    ref = t._accum  # the live AccumulateGrad without a call to _accumulator (once per leaf input)
    fn = ref() if ref is not None else None
    return (fn if fn is not None else _accumulator(t), 0)


def _accumulator(t):
    """The AccumulateGrad node of leaf ``t``, shared by every graph that uses the leaf while one is alive
    (held weakly: a strong reference would make a cycle with the node's ``variable``)."""
    ref = t._accum
    if ref is not None:
        node = ref()
        if node is not None:
            return node
    node = AccumulateGrad(t)
    t._accum = weakref.ref(node)
    return node


class Node:
    """A backward function of the graph.

    Subclasses implement ``_apply(grads, create_graph)``, which receives one
    gradient per forward output (None where no gradient arrived) and returns
    one gradient per entry of ``next_functions``.
    """

    next_functions: tuple = ()
    _n_outputs = 1
    _saved = None          # packed saved tensors, see ``_pack``
    _released = False      # set when backward freed the saved tensors
    _as_tensors = False    # set by the engine: backward runs on tensors (create_graph)
    _pre_hooks = None      # {id: hook(grad_outputs)}
    _post_hooks = None     # {id: hook(grad_inputs, grad_outputs)}
    _tensor_hooks = None   # {output_nr: {id: hook(grad)}} from Tensor.register_hook
    _retained = None       # {output_nr: weakref to a tensor that called retain_grad()}
    _trace = None          # forward stack, recorded under detect_anomaly
    # What the gradient of each forward result must be: shape and numpy dtype of result 0 as two plain
    # attributes (no tuple to build per op), those of results 1, 2, ... in ``_more_meta``.
    _out_shape = None
    _out_dtype = None
    _more_meta = ()
    _metadata = None

    def _set_meta(self, arrays) -> None:
        """Record the shapes and dtypes of the forward results ``arrays``."""
        self._out_shape, self._out_dtype = arrays[0].shape, arrays[0].dtype
        if len(arrays) > 1:
            self._more_meta = tuple((a.shape, a.dtype) for a in arrays[1:])

    def _meta(self, nr: int) -> tuple:
        """(shape, numpy dtype) of forward result ``nr``."""
        return (self._out_shape, self._out_dtype) if nr == 0 else self._more_meta[nr - 1]

    def name(self) -> str:
        """The node's type name, e.g. ``MulBackward0``."""
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    @property
    def metadata(self) -> dict:
        """A dict for user annotations, kept with the node."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    @property
    def requires_grad(self) -> bool:
        return True

    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after this node runs; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = OrderedDict()
        return add_hook(self._post_hooks, fn)

    def register_prehook(self, fn):
        """Call ``fn(grad_outputs)`` before this node runs; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = OrderedDict()
        return add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn):
        if self._tensor_hooks is None:
            self._tensor_hooks = {}
        return add_hook(self._tensor_hooks.setdefault(output_nr, OrderedDict()), fn)

    def __call__(self, *grads):
        """Run this node's backward on ``grads`` (one per forward output), as torch nodes allow."""
        arrays = [g._data if isinstance(g, Tensor) else g for g in grads]
        out = self._apply(arrays, False)
        res = tuple(None if g is None else Tensor._wrap(g) for g in out)
        return res[0] if len(res) == 1 else res

    # ---- saved tensors -------------------------------------------------
    def _pack(self, items, input_arrays, inputs, output_arrays, outputs):
        """Remember ``items`` (the arrays forward passed to ``save_for_backward``) as ``SavedTensor`` s.

        An item that is one of the outputs is kept as its array and version counter only (keeping the
        tensor would make a cycle through this node); one that is an input is kept with its tensor, so
        backward can check its version and, under create_graph, differentiate through it; anything
        else (None, a number, an array forward computed) is a constant. Items are found by identity.
        """
        packed = []
        first = output_arrays[0]
        for item in items:
            if item is first:  # the common case of a saved result
                vc = outputs[0]._version_counter()
                packed.append(_make_saved(SavedTensor, (item, vc.value, None, 0, 0, vc)))
                continue
            saved = None
            for nr in range(1, len(output_arrays)):
                if item is output_arrays[nr]:
                    vc = outputs[nr]._version_counter()
                    saved = _make_saved(SavedTensor, (item, vc.value, None, 0, nr, vc))
                    break
            else:
                for i, arr in enumerate(input_arrays):
                    if item is arr:
                        t = inputs[i]
                        if t is not item:  # (a Python number given as input is a constant)
                            if t._is_inference:
                                _check_savable(t)
                            vc = t._vc
                            saved = _make_saved(SavedTensor, (item, 0 if vc is None else vc.value, t, i, None, None))
                        break
            packed.append(saved or _make_saved(SavedTensor, (item, 0, None, 0, None, None)))
        self._saved = packed

    def _unpack(self, as_tensors: bool | None = None) -> list:
        """The saved values, as tensors in the graph (``as_tensors``; default: under create_graph) or arrays."""
        saved = self._saved
        if saved is None:
            if self._released:
                raise RuntimeError(RELEASED_MESSAGE)
            return []
        if as_tensors or (as_tensors is None and self._as_tensors):
            return [s.unpack(self, True) for s in saved]
        arrays = []
        for s in saved:  # the first-order path: the version checks of SavedTensor.unpack, inlined
            if s.output_nr is not None:
                if s.counter.value != s.version:
                    s.unpack(self, False)  # raises the error that names the change
            elif s.input is not None and s.input._vc is not None and s.input._vc.value != s.version:
                s.unpack(self, False)
            arrays.append(s.array)
        return arrays

    # ---- introspection: graph drawing and summaries ----------------------------
    def _saved_entries(self) -> list:
        """(name, array, version when saved, version now) for each tensor this node keeps."""
        if not self._saved:
            return []
        names = _forward_arg_names(type(self))
        entries = []
        for k, s in enumerate(self._saved):
            if not isinstance(s.array, np.ndarray):  # a Python number kept by forward
                continue
            if s.output_nr is not None:
                name = "result" if s.output_nr == 0 else f"result{s.output_nr}"
            elif s.input is not None:
                name = names[s.input_pos] if s.input_pos < len(names) else f"input{s.input_pos}"
            else:
                name = f"saved{k}"
            entries.append((name, s.array, s.version, s.current_version()))
        return entries

    def _attributes(self) -> dict:
        """The non-tensor values forward kept for backward (dims, scalars, shapes)."""
        return {k: v for k, v in self.__dict__.items()
                if not k.startswith("_") and k not in ("next_functions", "needs_input_grad", "variable")
                and not isinstance(v, np.ndarray)}

    def __getattr__(self, name: str):
        """torch-style ``_saved_<name>`` access to saved tensors (as torchviz reads them)."""
        if name.startswith("_saved_"):
            for saved_name, arr, _, _ in self._saved_entries():
                if "_saved_" + saved_name == name:
                    return Tensor._wrap(arr) if type(arr) is np.ndarray else arr
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        return sorted(set(super().__dir__()) | {"_saved_" + e[0] for e in self._saved_entries()})

    # ---- hooks run by the engine -----------------------------------------
    def _run_pre_hooks(self, grads: list, as_tensors: bool) -> list:
        if self._tensor_hooks:
            for nr, hooks in self._tensor_hooks.items():
                if grads[nr] is not None:
                    grads[nr] = _call_tensor_hooks(hooks.values(), grads[nr], as_tensors)
        if self._retained:
            for nr, ref in self._retained.items():
                t = ref()
                if t is not None and grads[nr] is not None:
                    g = grads[nr] if as_tensors else Tensor._wrap(grads[nr])
                    t._grad = g.clone() if t._grad is None else t._grad + g  # accumulates, like .grad of leaves
        if self._pre_hooks:
            for hook in list(self._pre_hooks.values()):
                new = hook(_as_tensor_tuple(grads, as_tensors))
                if new is not None:
                    grads = _from_tensor_tuple(new, as_tensors)
        return grads

    def _run_post_hooks(self, grad_inputs, grad_outputs, as_tensors: bool):
        for hook in list(self._post_hooks.values()):
            new = hook(_as_tensor_tuple(grad_inputs, as_tensors), _as_tensor_tuple(grad_outputs, as_tensors))
            if new is not None:
                grad_inputs = _from_tensor_tuple(new, as_tensors)
        return grad_inputs


_arg_names: dict = {}
_TORCH_NAMES = {"a": "self", "b": "other"}  # ops call their inputs a, b; torch's nodes say self, other


def _forward_arg_names(cls) -> tuple:
    """The names of forward's inputs (after ctx), used to name saved tensors."""
    names = _arg_names.get(cls)
    if names is None:
        forward = getattr(cls, "_forward_cls", cls).forward
        params = list(inspect.signature(forward).parameters.values())
        names = _arg_names[cls] = tuple(_TORCH_NAMES.get(p.name, p.name) for p in params[1:]
                                        if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty)
    return names


def _as_tensor_tuple(grads, as_tensors):
    return tuple(grads) if as_tensors else tuple(None if g is None else Tensor._wrap(g) for g in grads)


def _from_tensor_tuple(grads, as_tensors):
    if not isinstance(grads, (tuple, list)):
        grads = (grads,)
    return list(grads) if as_tensors else [None if g is None else g._data for g in grads]


def _call_tensor_hooks(hooks, grad, as_tensors):
    """Tensor hooks see a tensor and may return a replacement of the same size and type."""
    for hook in list(hooks):
        t = grad if as_tensors else Tensor._wrap(grad)
        new = hook(t)
        if new is not None:
            if not isinstance(new, Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
            if new._data.shape != t._data.shape:
                raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")
            if new._data.dtype != t._data.dtype:
                raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                                   f"{t.dtype.legacy_name} got {new.dtype.legacy_name})")
            grad = new if as_tensors else new._data
    return grad


def _hook_name(hook) -> str:
    return getattr(hook, "__name__", type(hook).__name__)


class SavedTensor(NamedTuple):
    """One value a node keeps for backward, with what is needed to check it is still the value forward saw.

    Exactly one of three kinds: an *output* of the node (``output_nr`` set; kept as its array and
    version ``counter``, never as the tensor, which would make a cycle through the node), an *input*
    (``input`` is the tensor, ``input_pos`` its position among forward's inputs), or a *constant*
    (neither: None, a number, or an array forward computed). A named tuple: made without a Python
    call (``_make_saved``), once per saved value of every recorded op.
    """

    array: object
    version: int             # the version of the output or input when it was saved
    input: object = None     # the input tensor
    input_pos: int = 0
    output_nr: object = None  # int for an output
    counter: object = None   # the output's version counter

    def current_version(self) -> int:
        if self.output_nr is not None:
            return self.counter.value
        if self.input is not None:
            return self.input._version
        return self.version

    def unpack(self, node: Node, as_tensors: bool):
        """The saved value: an array, or under create_graph a tensor in the graph; refused if changed in place."""
        nr = self.output_nr
        if nr is not None:
            vc = self.counter
            if vc.value != self.version:
                raise RuntimeError(_modified_message(self.array, vc.value, self.version, (node, nr), vc))
            if not as_tensors:
                return self.array
            value = Tensor._wrap(self.array)
            value._vc = vc
            if self.array.dtype.kind in "fcV":  # (an integer result, such as indices, has no gradient)
                value.grad_fn, value._output_nr, value._requires_grad = node, nr, True
            return value
        t = self.input
        if t is not None:
            if t._version != self.version:  # named by the tensor's history now, as torch does
                raise RuntimeError(_modified_message(self.array, t._version, self.version,
                                                     (t.grad_fn, t._output_nr), t._vc))
            return t if as_tensors else self.array
        arr = self.array
        return Tensor._wrap(arr) if as_tensors and type(arr) is np.ndarray else arr


_make_saved = tuple.__new__  # _make_saved(SavedTensor, fields): all six fields, no Python frame


def _check_savable(t) -> None:
    """Inference tensors cannot be saved for backward outside inference mode."""
    if not state.inference:
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors "
            "created in inference mode in computation tracked by autograd. To work around "
            "this, you can make a clone to get a normal tensor and use it in autograd, or "
            "use `torch.no_grad()` instead of `torch.inference_mode()`.")
    return t._version


def forward_name(node) -> str:
    """``MulBackward0`` -> ``Mul``: how torch names the forward op in messages."""
    name = node.name() if node is not None else ""
    i = name.rfind("Backward")
    return name[:i] if i > 0 else name


def _modified_message(arr, current, expected, source, vc) -> str:
    shape = ", ".join(str(s) for s in arr.shape)
    dtype = from_numpy_dtype(arr.dtype)
    # torch names a type by its legacy tensor class, or as CPU<scalar>Type where there is none (bool, complex)
    kind = f"CPU{C_NAMES[dtype]}Type" if dtype.is_bool or dtype.is_complex else dtype.legacy_name
    fn, nr = source
    producer = "" if fn is None or isinstance(fn, AccumulateGrad) else f", which is output {nr} of {forward_name(fn)},"
    msg = (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
           f"[{kind} [{shape}]]{producer} is at version {current}; expected version {expected} instead. ")
    if state.anomaly:
        msg += ("Hint: the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. Good luck!")
    else:
        msg += ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
                "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    site = None if vc is None else vc.site
    if site is not None:  # minitorch's addition to torch's text: where the change came from
        op, filename, line = site
        msg += f"\nIt was last modified by {op} at {_short_path(filename)}:{line}."
    return msg


def _short_path(filename: str) -> str:
    """A path relative to the working directory when it is below it."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive (Windows)
        return filename
    return filename if relative.startswith("..") else relative


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: it adds incoming gradients into ``variable.grad``."""

    def __init__(self, variable):
        self.variable = variable
        self._seq = next(_sequence)
        self._set_meta((variable._data,))

    def _apply(self, grads, create_graph, owned: bool = False):
        """Add ``grads[0]`` into the leaf's ``.grad``. ``owned``: the engine made that array and nothing else
        refers to it, so a first gradient can become ``.grad`` without a copy."""
        grad = grads[0]
        var = self.variable
        if var._hooks:
            grad = _call_tensor_hooks(var._hooks.values(), grad, create_graph)
            owned = False
        if create_graph:
            if not isinstance(grad, Tensor):
                grad = Tensor._wrap(grad)
            var._grad = grad if var._grad is None else var._grad + grad
        else:
            current = var._grad
            if current is None:
                var._grad = Tensor._wrap(grad if owned else np.array(grad, copy=True))
            elif current.grad_fn is None and current._data.flags.writeable:
                np.add(current._data, grad, out=current._data)
                current._bump()
            else:
                var._grad = Tensor._wrap(current._data + grad)
        if var._post_acc_hooks:
            for hook in list(var._post_acc_hooks.values()):
                hook(var)
        return ()


def summary(output, params: dict | None = None, file=None) -> str:
    """Print (and return) the backward graph of ``output`` as an indented tree.

    Each line names a node and the shape of what it produced, the tensors it keeps
    for backward (name, shape, dtype, version), and for leaves (named by ``params``,
    e.g. ``dict(model.named_parameters())``) that backward fills their ``.grad``.
    The last line totals the memory the saved tensors keep alive: what
    ``retain_graph``, ``no_grad()`` and ``detach()`` change.
    """
    names = {id(v): k for k, v in (params or {}).items()}
    outputs = output if isinstance(output, (tuple, list)) else (output,)
    lines, seen, saved_bytes = [], set(), {}
    stack = [(t.grad_fn, "", "", t) for t in reversed(outputs) if isinstance(t, Tensor)]
    while stack:
        fn, prefix, child_prefix, tensor = stack.pop()
        if fn is None:
            if tensor is not None:
                lines.append(f"{prefix}{_shape_text(tensor.shape)} (no grad_fn: outside the graph)")
            else:
                lines.append(f"{prefix}(input that needs no gradient)")
            continue
        if id(fn) in seen:
            lines.append(f"{prefix}{fn.name()} (see above)")
            continue
        seen.add(id(fn))
        if isinstance(fn, AccumulateGrad):
            v = fn.variable
            name = f" {names[id(v)]}" if id(v) in names else ""
            lines.append(f"{prefix}AccumulateGrad: leaf{name} {_shape_text(v.shape)} {v.dtype.name} -> .grad")
            continue
        text = f"{prefix}{fn.name()}"
        if fn._out_shape is not None:
            text += f" -> {_shape_text(fn._out_shape)}"
        entries = fn._saved_entries()
        if entries:
            parts = []
            for name, arr, version, now in entries:
                saved_bytes[id(arr)] = arr.nbytes
                stale = "" if now == version else f" (now v{now}: modified in place)"
                parts.append(f"{name} {_shape_text(arr.shape)} {arr.dtype} v{version}{stale}")
            text += "  saves " + ", ".join(parts)
        elif fn._released:
            text += "  (saved tensors freed by backward)"
        lines.append(text)
        children = fn.next_functions
        for i in range(len(children) - 1, -1, -1):
            last = i == len(children) - 1
            stack.append((children[i][0], child_prefix + ("└── " if last else "├── "),
                          child_prefix + ("    " if last else "│   "), None))
    total = sum(saved_bytes.values())
    lines.append(f"{len(seen)} nodes; saved tensors keep {_bytes_text(total)} alive")
    text = "\n".join(lines)
    print(text, file=file)
    return text


def _shape_text(shape) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _bytes_text(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
