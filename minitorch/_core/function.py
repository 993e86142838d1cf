"""Differentiable operations: the built-in ``Op`` base and the user-facing ``Function``.

An ``Op`` is one row of a derivatives table: ``forward`` computes on numpy
arrays, ``backward`` maps output gradients to input gradients. Backward
formulas use operators and other ops, which accept numpy arrays as well as
tensors: the engine calls them with arrays (fast) and, under
``create_graph=True``, with tensors, so the backward pass is itself recorded
and higher-order gradients come for free.

The op object is both the ``ctx`` of its forward and the graph node
(``grad_fn``) of its results, exactly as in PyTorch.
"""
from __future__ import annotations

import functools
import inspect
import linecache
import re
import sys
import weakref

import numpy as np

from .._dtype import BF16, C_NAMES, from_numpy_dtype
from . import anomaly_mode
from .grad_mode import no_grad, set_grad_enabled, state
from .graph import NO_EDGE, RELEASED_MESSAGE, Node, _sequence, forward_name, gradient_edge
from .lowered import narrow, remap_saved, rounds_to_bfloat16, widen, widen_all
from .out import _out
from .registry import located, operator_alias, register
from .shape import broadcast_shape, output_mismatch
from .tensor import Tensor

_new = object.__new__


class Op(Node):
    """Base of built-in ops: one row of the derivatives table.

    The contract, for every op:

    1. ``forward(ctx, *inputs, **params)`` computes on numpy arrays. Each positional argument is
       an input with an edge in ``next_functions`` (``(None, 0)`` for Python numbers and tensors
       that need no grad); keyword arguments are non-differentiable parameters.
    2. ``backward(ctx, *grads)`` returns one gradient (or None) per positional input, each of its
       input's shape and dtype. A gradient of the broadcast shape is fine: the engine sums it back
       to the input's shape and casts it to the input's dtype; any other shape is an error.
    3. ``backward`` is written with operators and ops (never numpy-only helpers on values that
       depend on the inputs), so it also runs on tensors under ``create_graph`` and higher-order
       gradients come for free. Where a formula needs numpy, branch on ``ctx._as_tensors``.
    4. Everything backward reads goes through ``ctx.save_for_backward``: it takes the very arrays
       forward received or returned (found by identity, to check their versions); anything else saved
       (an array forward computed) is a constant. All of it is freed by backward (without
       ``retain_graph``), after which running the node again raises torch's error. So a tensor
       backward reads (an index, a mask, a weight; integer and boolean ones too) is a positional input,
       never a keyword argument; ``save_for`` keeps an item only if a gradient needs it, as torch does.
    5. ``ctx`` holds Python values only (shapes, flags, plans made of numbers); index arrays that
       depend only on those are recipes (``indexing.Made``), made again when used.
    6. Public names come from ``Op.function()`` / ``Op.inplace_function()`` or ``@register``
       (``minitorch._core.registry``): that one line makes the Tensor method and the
       ``minitorch.*`` function; ``tests/ops/test_registry.py`` sweeps every registered op with
       gradcheck and gradgradcheck.

    Class flags: ``operators`` and ``inplace_operators``: the Python operators bound to ``apply`` (``"__add__"``)
    and to the in-place form's (``"__iadd__"``); ``complex_grad`` (False: the derivative formulas assume real
    numbers, so a complex result is refused rather than given a wrong gradient);
    ``inplace`` (the first input is modified and returned),
    ``view`` (the result shares memory and version counter with the first input),
    ``bfloat16_native`` (forward takes bfloat16 arrays as they are; see ``_core.lowered``).
    """

    inplace = False
    view = False
    _to_save = None       # what forward passed to save_for_backward, until it is packed
    # Per item forward saves: the position of the input whose gradient needs it (None: always kept). An item
    # no gradient needs is not kept (as torch saves ``self`` of ``self * other`` only if ``other`` needs grad).
    save_for = None
    _lowered = False      # computed in float32 for bfloat16 inputs (_core.lowered): backward widens too
    bfloat16_native = False  # forward computes bfloat16 inputs itself (not widened to float32 first)
    complex_grad = True   # its derivative formulas hold for complex numbers (see ``RealOp``)

    def __init_subclass__(cls, name: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if name is not None or "Backward" not in cls.__name__:
            cls.__name__ = name or cls.__name__ + "Backward0"
        cls.apply = staticmethod(_applier(cls, "apply", f"{cls.__qualname__}.apply"))
        operator_alias(*cls.__dict__.get("operators", ()))(cls.apply)
        if "inplace_operators" in cls.__dict__:
            operator_alias(*cls.inplace_operators)(cls.inplace_variant().apply)

    # ---- ctx API used by forward/backward --------------------------------------
    def save_for_backward(self, *arrays) -> None:
        self._to_save = arrays

    @property
    def saved_tensors(self):
        """What forward saved: arrays, or tensors under create_graph."""
        saved = self._unpack()
        return widen_all(saved) if self._lowered and not self._as_tensors else saved

    def check_saved(self) -> None:
        """Check the versions of what forward saved, for a backward that reads none of it (inputs kept only
        for that check, as torch's node keeps them)."""
        self._unpack(False)

    @property
    def needs_input_grad(self) -> tuple:
        """Per input: does it get a gradient (read from ``next_functions`` when backward asks)."""
        return tuple([fn is not None for fn, _ in self.next_functions])

    # ---- running ----------------------------------------------------------------
    # ``apply`` is made per subclass by ``_applier`` (see ``__init_subclass__``).

    def _connect(self, inputs, arrays, out):
        """Record this node: edges to the inputs' producers, results that point back here, saved tensors."""
        self._link(inputs)
        if type(out) is tuple:
            raw, results = out, []
            for nr, arr in enumerate(raw):
                t = Tensor._wrap(arr if type(arr) is np.ndarray else np.asarray(arr))
                kind = arr.dtype.kind
                if kind == "f" or kind == "V" or kind == "c" and _complex_grad(self):
                    t.grad_fn, t._output_nr, t._requires_grad = self, nr, True
                results.append(t)
            self._n_outputs = len(raw)
        else:
            raw = (out,)
            t = Tensor._wrap(out if type(out) is np.ndarray else np.asarray(out))
            kind = out.dtype.kind
            if kind == "f" or kind == "V" or kind == "c" and _complex_grad(self):
                t.grad_fn, t._requires_grad = self, True
            results = (t,)
        if self.view:
            _make_views(inputs[0], results, len(results) > 1)
        self._save(arrays, inputs, raw, results)
        return results[0] if len(raw) == 1 and type(out) is not tuple else tuple(results)

    def _link(self, inputs) -> tuple:
        """Set ``next_functions`` (one edge per input) and the sequence number."""
        edges = []
        for x in inputs:
            if isinstance(x, Tensor) and x._requires_grad:
                fn = x.grad_fn  # gradient_edge(x), without the call for results of other ops (most inputs)
                edges.append((fn, x._output_nr) if fn is not None else gradient_edge(x))
            else:
                edges.append(NO_EDGE)
        self.next_functions = edges = tuple(edges)
        self._seq = next(_sequence)
        if state.anomaly:
            anomaly_mode.record_trace(self)
        return edges

    def _save(self, arrays, inputs, raw_outputs, results) -> None:
        """Keep what forward saved, and the results' shapes and dtypes (what their gradients must have)."""
        # (never through self.__dict__: touching it makes Python build a dict for every node)
        to_save = self._to_save
        if to_save is not None:
            del self._to_save
            if to_save:
                save_for = self.save_for
                if save_for is not None and NO_EDGE in self.next_functions:  # an input needs no gradient
                    to_save = _needed(to_save, save_for, self.next_functions)
                self._pack(to_save, arrays, inputs, raw_outputs, results)
        out = results[0]._data
        self._out_shape, self._out_dtype = out.shape, out.dtype  # Node._set_meta, inlined: once per op
        if len(results) > 1:
            self._more_meta = tuple((r._data.shape, r._data.dtype) for r in results[1:])

    def _apply(self, grads, create_graph):
        if self._released:  # (as torch's nodes, which unpack all they saved before computing anything)
            raise RuntimeError(RELEASED_MESSAGE)
        self._as_tensors = create_graph
        if self._lowered and not create_graph:
            grads = widen_all(grads)
        res = type(self).backward(self, *grads)
        return res if type(res) is tuple else (res,)

    @classmethod
    def inplace_variant(cls) -> type:
        """The in-place form of this op (``add_`` for ``add``): same formulas, result written into the
        first input. Made once per op class, so every call's ``grad_fn`` has the same type."""
        variant = cls.__dict__.get("_inplace_variant")
        if variant is None:
            qualname = cls.__qualname__ + "_"
            variant = type(qualname, (cls,), {"inplace": True, "__qualname__": qualname, "__module__": cls.__module__},
                           name=cls.__name__)
            cls._inplace_variant = variant
        return variant

    @classmethod
    def named(cls, qualname: str, node_name: str) -> type:
        """This op recorded under another of torch's node names: ``SumDim = Sum.named("SumDim", "SumBackward1")``
        (``sum(x, dim)`` records ``SumBackward1``). The formulas are the same; a type of its own carries the name
        because a node's name is its type's (``type(grad_fn).__name__``), as in torch."""
        module = sys._getframe(1).f_globals.get("__name__", cls.__module__)  # (where the variant is bound)
        return type(qualname, (cls,), {"__qualname__": qualname, "__module__": module}, name=node_name)

    @classmethod
    def function(cls, name: str | None = None, **where):
        """The public function applying this op (``exp`` for ``Exp``), registered as a Tensor method and,
        unless ``where`` says otherwise, a ``minitorch.*`` function (see ``minitorch._core.registry.register``)."""
        name = name or cls.__qualname__.lower()
        function = _located(_applier(cls, name, name), cls)
        function.__signature__ = _signature(cls)
        function.__doc__ = f"``{name}`` elementwise (see ``{cls.__qualname__}`` for its derivative)."
        function.__module__ = cls.__module__
        return register(function, **{"derivative": not issubclass(cls, NoDerivative), **where})

    @classmethod
    def inplace_function(cls, name: str | None = None, **where):
        """The public in-place function (``exp_``), registered as a Tensor method (and as ``where`` says)."""
        name = name or cls.__qualname__.lower() + "_"
        function = _located(_applier(cls.inplace_variant(), name, name), cls)
        function.__signature__ = _signature(cls)
        function.__module__ = cls.__module__
        return register(function, **{"top_level": False, "derivative": not issubclass(cls, NoDerivative), **where})


def zeros_for(g):
    """The gradient of an input whose derivative is zero (torch's ``zeros_like(grad)``): zeros shaped like ``g``,
    never ``g * 0``, which is NaN where ``g`` is NaN or infinite."""
    if isinstance(g, Tensor):
        return Tensor._wrap(np.zeros(g._data.shape, g._data.dtype))
    return np.zeros_like(g)


def _needed(items, save_for, edges):
    """``items`` with None for those no gradient needs: item k is needed if input ``save_for[k]`` has an edge
    (``edges[i][0]`` is not None: it needs a gradient)."""
    kept = items
    for k, i in enumerate(save_for):
        if i is not None and edges[i][0] is None and kept[k] is not None:
            if kept is items:
                kept = list(items)
            kept[k] = None
    return kept


def _complex_grad(node) -> bool:
    """True if ``node`` may record a complex result; else torch-style NotImplementedError."""
    if not node.complex_grad:
        raise NotImplementedError(f"minitorch: the derivative of {node.name()} is not implemented for complex "
                                  "tensors")
    return True


def _located(function, cls):
    """``function`` placed at ``cls.forward`` (or, where that is inherited from another file, the ``class`` line):
    the file and line that ``inspect.getsourcefile``/``getsource`` and tracebacks give for an op's public function."""
    filename = sys.modules[cls.__module__].__file__
    line = cls.forward.__code__.co_firstlineno
    if cls.forward.__code__.co_filename != filename:
        pattern = re.compile(rf"class {cls.__qualname__}\b")
        line = next(nr for nr, text in enumerate(linecache.getlines(filename), 1) if pattern.match(text))
    return located(function, filename, line)


def _applier(cls, name: str, qualname: str):
    """``cls.apply``: run the op; with only arrays as inputs, return the forward arrays (no graph).

    Made once per op class (and per Tensor method) as a closure over ``cls``, so that a Tensor
    method or operator is this very function: one Python call fewer on every operation.
    """
    def apply(*inputs, **params):
        if params and "out" in params:
            return _out(apply(*inputs, **{k: v for k, v in params.items() if k != "out"}), params["out"], name)
        ctx = _new(cls)
        arrays = []
        has_tensor = requires_grad = lowered = False
        for x in inputs:
            if isinstance(x, Tensor):
                has_tensor = True
                if x._requires_grad:
                    requires_grad = True
                data = x._data
                if data.dtype is BF16:
                    lowered = True
                arrays.append(data)
            else:
                arrays.append(x)
        try:
            if not has_tensor:
                return cls.forward(ctx, *arrays, **params)
            if lowered and not cls.view and not cls.bfloat16_native:
                return _apply_lowered(ctx, inputs, arrays, params, requires_grad and state.grad_enabled)
            if cls.inplace:
                return _apply_inplace(ctx, inputs, arrays, params, requires_grad and state.grad_enabled)
            out = cls.forward(ctx, *arrays, **params)
        except ValueError as e:
            mismatch = _shape_mismatch(e, arrays)
            if mismatch is None:
                raise
            raise mismatch from None
        if requires_grad and state.grad_enabled:
            return ctx._connect(inputs, arrays, out)
        if type(out) is np.ndarray and not cls.view and not state.inference:  # the common case
            return Tensor._wrap(out)
        return _wrap_outputs(cls, inputs, out)

    apply.__name__, apply.__qualname__ = name, qualname
    return apply


def _signature(cls) -> inspect.Signature:
    """What a public function made by ``_applier`` accepts: ``forward``'s parameters after ``ctx``, its tensor inputs
    (those without a default) positional-only, as ``apply`` takes them, and a keyword-only ``out=None``."""
    P = inspect.Parameter
    params = list(inspect.signature(cls.forward).parameters.values())[1:]
    params = [p.replace(kind=P.POSITIONAL_ONLY) if p.kind == P.POSITIONAL_OR_KEYWORD and p.default is P.empty else p
              for p in params]
    if "out" not in {p.name for p in params}:
        at = len(params) - (bool(params) and params[-1].kind == P.VAR_KEYWORD)
        params.insert(at, P("out", P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


def _apply_lowered(ctx, inputs, arrays, params, record):
    """``apply`` of an op with bfloat16 inputs: computed in float32, results rounded (see ``_core.lowered``)."""
    cls = type(ctx)
    wide = [widen(a) for a in arrays]
    if cls.inplace:
        target = wide[0]
        t = _apply_inplace(ctx, inputs, wide, params, record and target.dtype.kind in "fV")
        if target is not arrays[0]:  # a bfloat16 tensor changed: store the rounded values (and save those)
            np.copyto(arrays[0], target, casting="unsafe")
            np.copyto(target, arrays[0])
            ctx._lowered = True
        return t
    out = cls.forward(ctx, *wide, **params)
    rounded = narrow(out, rounds_to_bfloat16(inputs, params))
    if ctx._to_save:
        remap_saved(ctx, out, rounded)
    if record:
        ctx._lowered = True
        return ctx._connect(inputs, wide, rounded)
    return _wrap_outputs(cls, inputs, rounded)


def _shape_mismatch(error: ValueError, arrays) -> RuntimeError | None:
    """torch's error for inputs whose shapes do not broadcast, where numpy's ``error`` says so: the ops compute
    with numpy and leave this check to it (none where the shapes broadcast and the mismatch is elsewhere)."""
    if "broadcast" not in str(error):
        return None
    try:
        broadcast_shape(*(a.shape for a in arrays if type(a) is np.ndarray))
    except RuntimeError as mismatch:
        return mismatch
    return None


def _wrap_outputs(cls, inputs, out):
    """Results of an op that is not recorded."""
    if type(out) is tuple:
        results = tuple(Tensor._wrap(o if type(o) is np.ndarray else np.asarray(o)) for o in out)
    else:
        results = (Tensor._wrap(out if type(out) is np.ndarray else np.asarray(out)),)
    if state.inference:
        for t in results:
            t._is_inference = True
    if cls.view:
        _make_views(inputs[0], results, len(results) > 1)
    return results if type(out) is tuple else results[0]


def _make_views(src, results, multi_output: bool):
    """Results of a view op share the version counter and base of ``src``.

    While grad mode is on, the base also keeps (weak) track of its views, so that
    an in-place change of the base or of one view can give the others a fresh history.
    """
    vc = src._version_counter()
    base = src._base if src._base is not None else src
    views = None
    if state.grad_enabled:
        views = base._views
        if views is None:
            views = base._views = weakref.WeakSet()
    for t in results:
        t._vc = vc
        t._base = base
        if multi_output:
            t._view_of_multi_output = True
        if views is not None:
            views.add(t)


class RealOp(Op):
    """Base of the elementwise math whose derivative formulas assume real numbers (a complex one needs
    ``conj(f'(z))``): a complex result is refused rather than given a wrong gradient, unless the op sets
    ``complex_grad = True``."""

    complex_grad = False


class NoDerivative(Op, name="NotImplemented"):
    """Base (listed first) of ops torch records without a derivative: their node is ``NotImplemented`` and
    backward raises torch's error naming ``aten``, the op (its in-place form gets the trailing ``_``)."""

    aten = ""

    def __init_subclass__(cls, **kwargs):
        kwargs["name"] = "NotImplemented"
        super().__init_subclass__(**kwargs)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{type(ctx).aten}{'_' if ctx.inplace else ''} is not implemented")


def check_inplace(t) -> None:
    """Refuse in-place writes that would corrupt autograd or memory, with torch's messages."""
    if state.grad_enabled:
        if t._requires_grad and t.grad_fn is None:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        base = t._base
        if base is not None:
            if base._requires_grad and base.grad_fn is None:
                raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
            if t._view_of_multi_output and t._requires_grad:
                op = forward_name(t.grad_fn)
                raise RuntimeError(
                    f"Output {t._output_nr} of {op} is a view and is being modified inplace. This view is the "
                    "output of a function that returns multiple views. Such functions do not allow the output "
                    "views to be modified inplace. You should replace the inplace operation by an out-of-place one.")
    if t._is_inference and not state.inference:
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")
    if not t._data.flags.writeable:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                           "single memory location. Please clone() the tensor before performing the operation.")


def _apply_inplace(ctx, inputs, arrays, params, record):
    t = inputs[0]
    check_inplace(t)
    target = arrays[0]
    record = record and target.dtype.kind in "fcV"  # an integer result cannot be differentiated
    out = type(ctx).forward(ctx, *arrays, **params)
    snapshot = None
    if out is not target:
        saved = ctx._to_save
        if saved and record:
            if ctx.save_for is not None:  # (what no gradient needs is dropped now: no snapshot for it)
                edges = [(x if isinstance(x, Tensor) and x._requires_grad else None, 0) for x in inputs]
                saved = _needed(saved, ctx.save_for, edges)
            if any(s is target for s in saved):
                # forward saved the value about to be overwritten: keep it, in the graph (higher orders)
                snapshot = t.clone()
            ctx._to_save = tuple(target if s is out else snapshot._data if s is target else s for s in saved)
        _write_back(target, out)
    t._bump(type(ctx).__qualname__.lower())
    if record:
        from .inplace import rebase_history  # (the in-place history's nodes are Ops)
        rebase_history(ctx, inputs, arrays, snapshot)
    return t


def _write_back(target, result) -> None:
    """Store an out-of-place result into the tensor an in-place op modifies, with torch's checks."""
    if result.shape != target.shape:
        raise output_mismatch(target.shape, result.shape)
    if _KIND_RANK[result.dtype.kind] > _KIND_RANK[target.dtype.kind]:
        raise RuntimeError(f"result type {C_NAMES[from_numpy_dtype(result.dtype)]} can't be cast to the desired "
                           f"output type {C_NAMES[from_numpy_dtype(target.dtype)]}")
    np.copyto(target, result, casting="unsafe")


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "V": 2, "c": 3}


# ---- user-defined functions ------------------------------------------------------------
class FunctionCtx:
    """What ``forward`` and ``backward`` of a custom ``Function`` receive as ``ctx``."""

    _materialize_grads = True
    _dirty = ()
    _non_differentiable = ()

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; their versions are checked when backward reads them."""
        self._to_save = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare inputs that forward modified in place."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that get no gradient (e.g. indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """If False, backward receives None instead of zeros for outputs without gradient."""
        self._materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        return tuple(self._unpack(True))


class BackwardCFunction(FunctionCtx, Node):
    """The graph node (and ctx) of a custom Function; its type is named ``<Function>Backward``."""

    _forward_cls = None
    needs_input_grad: tuple = ()

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {hex(id(self))}>"

    def _apply(self, grads, create_graph):
        grads = list(grads)
        for i, g in enumerate(grads):
            if g is None and self._materialize_grads:
                shape, dt = self._meta(i)
                grads[i] = np.zeros(shape, dt)
        wrapped = [g if g is None or isinstance(g, Tensor) else Tensor._wrap(g) for g in grads]
        with set_grad_enabled(create_graph):
            res = self._forward_cls.backward(self, *wrapped)
        if not isinstance(res, tuple):
            res = (res,)
        n_args = len(self.needs_input_grad)
        if len(res) != n_args:
            if len(res) > n_args and all(r is None for r in res[n_args:]):
                res = res[:n_args]
            else:
                raise RuntimeError(f"function {type(self).__name__} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(res)})")
        out = []
        for is_tensor, r in zip(self._tensor_args, res):
            if r is not None and not isinstance(r, Tensor):
                raise RuntimeError(f"expected Variable or None (got {_type_name(r)})")
            if is_tensor:
                out.append(r if r is None or create_graph else r._data)
            elif r is not None:
                raise RuntimeError(f"function {type(self).__name__} returned a gradient different than None at "
                                   "position {}, but the corresponding forward input was not a Variable")
        return tuple(out)


def _type_name(obj) -> str:
    cls = type(obj)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


class FunctionMeta(type):
    """Gives each Function subclass its node type, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": "minitorch.autograd.function"})


class Function(metaclass=FunctionMeta):
    """Base for custom differentiable operations, used as ``MyFn.apply(*args)``.

    Define ``forward(ctx, *args)`` (runs without recording, on tensors) and
    ``backward(ctx, *grad_outputs)`` returning one gradient per forward argument.
    Alternatively define ``forward(*args)`` plus ``setup_context(ctx, inputs, output)``.
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = cls._backward_cls()
        tensor_args = tuple(isinstance(a, Tensor) for a in args)
        ctx.needs_input_grad = tuple(t and a._requires_grad for t, a in zip(tensor_args, args))
        separate_setup = cls.setup_context is not Function.setup_context
        with no_grad():
            out = cls.forward(*args, **kwargs) if separate_setup else cls.forward(ctx, *args, **kwargs)
        if separate_setup:
            cls.setup_context(ctx, args, out)
        dirty = {id(t) for t in ctx._dirty}
        for t in ctx._dirty:
            check_inplace(t)
            t._bump()
        if not (state.grad_enabled and any(ctx.needs_input_grad)):
            ctx.__dict__.pop("_to_save", None)
            return out
        ctx._tensor_args = tensor_args
        ctx.next_functions = tuple(
            (gradient_edge(a) if a._requires_grad else NO_EDGE) for t, a in zip(tensor_args, args) if t)
        ctx._seq = next(_sequence)
        if state.anomaly:
            anomaly_mode.record_trace(ctx)
        multi = isinstance(out, tuple)
        outs = out if multi else (out,)
        ctx._n_outputs = len(outs)
        ctx._set_meta([o._data if isinstance(o, Tensor) else np.empty((), np.float32) for o in outs])
        non_diff = {id(t) for t in ctx._non_differentiable}
        input_ids = {id(a) for a in args if isinstance(a, Tensor)}
        results = []
        for nr, o in enumerate(outs):
            if not isinstance(o, Tensor):
                results.append(o)
                continue
            if id(o) not in dirty and id(o) in input_ids:
                o = o.detach()  # an input returned as is becomes a new output sharing its data
            if id(o) not in non_diff and o._data.dtype.kind in "fcV":
                o.grad_fn, o._output_nr, o._requires_grad = ctx, nr, True
            results.append(o)
        to_save = ctx.__dict__.pop("_to_save", None)
        if to_save:
            tensor_inputs = [a for a in args if isinstance(a, Tensor)]
            tensor_results = [r for r in results if isinstance(r, Tensor)]
            ctx._pack([s._data if isinstance(s, Tensor) else s for s in to_save],
                      [a._data for a in tensor_inputs], tensor_inputs,
                      [r._data for r in tensor_results], tensor_results)
        return tuple(results) if multi else results[0]


class once_differentiable:
    """Decorator for a Function's backward that is not itself differentiable."""

    def __new__(cls, fn):
        @functools.wraps(fn)
        def wrapper(ctx, *args):
            with no_grad():
                return fn(ctx, *args)
        return wrapper
