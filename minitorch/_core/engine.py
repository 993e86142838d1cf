"""The backward engine: runs the graph from outputs to leaves.

1. Walk the graph once (iteratively, no recursion limit) to count, for every
   node, how many edges point at it.
2. Run nodes in an order where each runs only after every node that feeds it
   a gradient has run (its count fell to zero); among ready nodes, the most
   recently created runs first, as in PyTorch. Gradients reaching a node along
   several edges are summed in its input buffer.
3. ``AccumulateGrad`` nodes add the result into the leaves' ``.grad``; for
   ``autograd.grad`` the gradients of the requested inputs are captured instead.

Every gradient a node returns is checked against the input it belongs to, as
PyTorch's ``validate_outputs`` does: one of the broadcast shape is summed back to
the input's shape, one of another dtype is cast to the input's dtype, any other
shape is an error naming the node. Without ``create_graph`` gradients flow as
numpy arrays and each node's saved tensors are freed once it has run (unless
``retain_graph``). With it, they flow as tensors and grad mode stays on, so the
backward pass is recorded.
"""
from __future__ import annotations

import heapq
import warnings

import numpy as np

from .._dtype import from_numpy_dtype
from .function import Op
from .graph import AccumulateGrad, Node, _call_tensor_hooks, gradient_edge
from .grad_mode import state
from .tensor import Tensor


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _make_grads(outputs, grads, create_graph: bool) -> list:
    """The gradients the backward pass starts from: given, or ones for one-element outputs."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad and out._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out._requires_grad and out._data.dtype.kind == "c":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                   f"torch.{out.dtype.name}")
            g_arr = np.ones_like(out._data)
            result.append(Tensor._wrap(g_arr) if create_graph else g_arr)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g._data.shape != out._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a "
                               f"shape of {out.shape}.")
        if create_graph:
            result.append(g if g.dtype is out.dtype else g.to(out.dtype))
        else:
            result.append(g._data if g._data.dtype == out._data.dtype else g._data.astype(out._data.dtype))
    return result


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate into the ``.grad`` of the graph leaves the gradient of ``tensors``.

    ``grad_tensors`` gives the vector of a vector-Jacobian product (needed for
    outputs with more than one element); ``retain_graph`` keeps saved tensors for
    another backward; ``create_graph`` records the backward pass for higher-order
    derivatives; ``inputs`` limits accumulation to those tensors.
    """
    outputs = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors if grad_tensors is not None else grad_variables)
    if not grads:
        grads = (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    inputs = _as_tuple(inputs) or None
    if inputs is not None and inputs == ():
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    run_backward(outputs, _make_grads(outputs, grads, create_graph), retain_graph, create_graph, inputs=inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple:
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned (``.grad`` is left alone)."""
    outputs = _as_tuple(outputs)
    inputs_t = _as_tuple(inputs)
    grads = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in outputs:
        if not t._requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    result = run_backward(outputs, _make_grads(outputs, grads, create_graph), retain_graph, create_graph,
                          inputs=inputs_t, accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        result = tuple(Tensor._wrap(np.zeros_like(i._data)) if g is None else g for g, i in zip(result, inputs_t))
    return result


class GraphRoot(Node):
    """A virtual node feeding the initial gradients to the outputs' nodes."""

    _n_outputs = 0

    def __init__(self, edges, grads):
        self.next_functions = tuple(edges)
        self.grads = grads
        self._seq = float("inf")

    def _apply(self, grads, create_graph):
        return self.grads


def run_backward(roots, root_grads, retain_graph: bool, create_graph: bool, inputs=None,
                 accumulate: bool = True, allow_unused: bool = False):
    """Backpropagate ``root_grads`` (arrays, or tensors under create_graph) from the ``roots`` tensors.

    With ``inputs``: when ``accumulate``, only their ``.grad`` is filled; else
    their gradients are returned (the ``autograd.grad`` case).
    """
    edges = []
    for i, t in enumerate(roots):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        edges.append(gradient_edge(t))
    root = GraphRoot(edges, root_grads)

    captures = None
    if inputs is not None:
        captures = {}   # (node, output_nr) -> positions in inputs
        for pos, t in enumerate(inputs):
            if t._requires_grad:
                captures.setdefault(gradient_edge(t), []).append(pos)  # a tensor may be named twice
            elif not accumulate:
                raise RuntimeError("One of the differentiated Tensors does not require grad")

    dependencies, needed = _count_dependencies(root, captures)
    captured = [None] * (len(inputs) if inputs is not None else 0)

    prev_mode = state.grad_enabled
    state.grad_enabled = create_graph
    try:
        _execute(root, dependencies, needed, captures, captured, retain_graph, create_graph, accumulate)
    finally:
        state.grad_enabled = prev_mode

    if inputs is None:
        return None
    if accumulate:
        for t, g in zip(inputs, captured):
            if g is not None and t.grad_fn is not None:  # a non-leaf named in inputs= gets .grad too
                g = _to_tensor(g)
                t._grad = g if t._grad is None else t._grad + g
        return None
    results = []
    for pos, g in enumerate(captured):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {pos} appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
        results.append(None if g is None else _to_tensor(g))
    return tuple(results)


def _count_dependencies(root, captures):
    """Edges pointing at each reachable node; with captures, the set of nodes that lead to one."""
    dependencies = {}  # also the set of nodes seen: the root alone never appears in it
    parents = {} if captures else None
    stack = [root]
    while stack:
        node = stack.pop()
        for fn, _ in node.next_functions:
            if fn is None:
                continue
            count = dependencies.get(fn)
            if count is None:
                dependencies[fn] = 1
                stack.append(fn)
            else:
                dependencies[fn] = count + 1
            if parents is not None:
                parents.setdefault(fn, []).append(node)
    if not captures:
        return dependencies, None
    needed = set()
    stack = [fn for fn, _ in captures if fn in dependencies]
    while stack:
        node = stack.pop()
        if node in needed:
            continue
        needed.add(node)
        stack.extend(parents.get(node, ()))
    return dependencies, needed


def _execute(root, dependencies, needed, captures, captured, retain_graph, create_graph, accumulate):
    buffers = {}   # gradients gathered so far for nodes that wait for more
    owned = set()  # AccumulateGrad nodes whose gathered gradient is an array only the engine refers to
    ready = []  # heap of (-sequence number, tie, node, grads): the most recent node runs first, as in torch
    tie = 0     # breaks ties between equal sequence numbers without comparing nodes
    node, grads = root, []
    while node is not None:
        n = len(grads)  # the root has no inputs and always runs
        has_grad = n == 0 or (grads[0] is not None if n == 1 else any(g is not None for g in grads))
        if has_grad and (node._tensor_hooks or node._retained or node._pre_hooks):
            grads = node._run_pre_hooks(grads, create_graph)
        if captures is not None:
            _capture(node, grads, captures, captured, create_graph)
            run = node in needed and (accumulate or type(node) is not AccumulateGrad) and _leads_on(node, needed)
        else:
            run = True
        edges = node.next_functions
        if run and has_grad:
            if create_graph:
                grads = [None if g is None else _to_tensor(g) for g in grads]
            if type(node) is AccumulateGrad:
                out = node._apply(grads, create_graph, node in owned)
            else:
                out = node._apply(grads, create_graph)
                if len(out) != len(edges):
                    _check_count(node, out, edges)
            if node._post_hooks:  # hooks see validated gradients (the loop below then finds nothing to fix)
                out = node._run_post_hooks(_validate(node, out, edges, create_graph), grads, create_graph)
            if state.anomaly:
                _check_anomaly(node, out)
        else:
            out = (None,) * len(edges)
        # a single node made ready while none waits runs next without going through the heap
        follow = follow_grads = None
        for (fn, nr), g in zip(edges, out):
            if fn is None:
                continue
            left = dependencies[fn] - 1
            dependencies[fn] = left
            buf = buffers.get(fn) if left else buffers.pop(fn, None)
            if buf is None:
                buf = [None] * fn._n_outputs
                if left:
                    buffers[fn] = buf
            if g is not None:
                # validation: one comparison of shape and dtype per edge (see _conform)
                if nr == 0:
                    shape = fn._out_shape
                    dt = fn._out_dtype
                else:
                    shape, dt = fn._more_meta[nr - 1]
                arr = g._data if create_graph else g
                if arr.shape != shape or (arr.dtype is not dt and arr.dtype != dt):
                    g = _conform(node, [x is g for x in out].index(True), g, arr, shape, dt, create_graph)
                if buf[nr] is None:
                    buf[nr] = g
                    if type(fn) is AccumulateGrad and not create_graph and _fresh(g, node, out, grads):
                        owned.add(fn)
                else:
                    buf[nr] = buf[nr] + g
                    if type(fn) is AccumulateGrad:
                        owned.add(fn)  # the sum is a new array
            if not left:
                if follow is None and not ready:
                    follow, follow_grads = fn, buf
                else:
                    if follow is not None:
                        heapq.heappush(ready, (-follow._seq, tie, follow, follow_grads))
                        tie += 1
                        follow = None
                    heapq.heappush(ready, (-fn._seq, tie, fn, buf))
                    tie += 1
        if not retain_graph and node._saved and run and has_grad:
            node._saved = None
            node._released = True
        if follow is not None:
            node, grads = follow, follow_grads
        elif ready:
            _, _, node, grads = heapq.heappop(ready)
        else:
            node = None


def _check_count(node, out, edges):
    raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients (expected "
                       f"{len(edges)}, got {len(out)})")


def _validate(node, out, edges, create_graph) -> tuple:
    """The gradients ``node`` returned, each of its input's shape and dtype (see ``_conform``)."""
    fixed = None
    for i, ((fn, nr), g) in enumerate(zip(edges, out)):
        if g is None or fn is None:
            continue
        shape, dt = fn._meta(nr)
        arr = g._data if create_graph else g
        if arr.shape != shape or arr.dtype != dt:
            if fixed is None:
                fixed = list(out)
            fixed[i] = _conform(node, i, g, arr, shape, dt, create_graph)
    if fixed is not None:
        out = tuple(fixed)
    return out


def _conform(node, i, g, arr, shape, dt, create_graph):
    """Gradient ``g`` (``arr``: its array) of output ``i`` of ``node``, made of its input's ``shape`` and
    ``dt``, as torch's ``validate_outputs`` does: one of the broadcast shape is summed back, one of
    another dtype cast; any other shape is an error naming the node."""
    if arr.shape != shape:
        if not _expandable(shape, arr.shape):
            raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index {i} - got "
                               f"{list(arr.shape)} but expected shape compatible with {list(shape)}")
        g = g.sum_to_size(shape) if create_graph else _sum_to(arr, shape)
    if g.dtype.is_complex if create_graph else g.dtype.kind == "c":
        if dt.kind != "c":  # a real input's gradient is the real part (torch's convention for complex graphs)
            g = g.real
    if create_graph:
        return g if g._data.dtype == dt else g.to(from_numpy_dtype(dt))
    return g if g.dtype == dt else np.asarray(g, dt)


def _fresh(g, node, out, grads) -> bool:
    """Whether gradient array ``g`` that ``node`` returned is new and referenced by nothing else: an op's
    result that is no view, no incoming gradient, no saved array, and not returned twice."""
    if type(g) is not np.ndarray or g.base is not None or not g.flags.writeable or not isinstance(node, Op):
        return False
    if node._post_hooks or any(g is x for x in grads) or sum(g is x for x in out) > 1:
        return False
    return not node._saved or not any(g is s.array for s in node._saved)


def _expandable(shape, target) -> bool:
    """Whether ``shape`` broadcasts to ``target`` (torch's ``is_expandable_to``)."""
    if len(shape) > len(target):
        return False
    return all(s == 1 or s == t for s, t in zip(reversed(shape), reversed(target)))


def _sum_to(arr, shape):
    """``arr`` summed over the dims that broadcasting to it added or stretched, down to ``shape``."""
    lead = arr.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + d for d, s in enumerate(shape) if s == 1 and arr.shape[lead + d] != 1)
    return np.asarray(arr.sum(axis=axes, keepdims=True).reshape(shape) if axes else arr)


def _leads_on(node, needed) -> bool:
    """Whether running ``node`` helps: an AccumulateGrad in ``needed`` or a node whose inputs lead to a capture."""
    if type(node) is AccumulateGrad:
        return True
    return any(fn in needed for fn, _ in node.next_functions)


def _capture(node, grads, captures, captured, create_graph):
    for nr, g in enumerate(grads):
        positions = captures.get((node, nr))
        if positions is not None and g is not None:
            if type(node) is AccumulateGrad and node.variable._hooks:
                g = _call_tensor_hooks(node.variable._hooks.values(), g, create_graph)
            for pos in positions:
                captured[pos] = g if captured[pos] is None else captured[pos] + g


def _to_tensor(g):
    return g if isinstance(g, Tensor) else Tensor._wrap(g)


def _check_anomaly(node, out):
    if not state.anomaly_check_nan:
        return
    for i, g in enumerate(out):
        arr = g._data if isinstance(g, Tensor) else g
        if arr is not None and np.isnan(arr).any():
            if node._trace:
                warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                              + "".join(node._trace), UserWarning, stacklevel=2)
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
