"""Recurrent layers as functions: ``lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu`` (whole multi-layer,
optionally bidirectional and packed sequences) and their one-step cells, as torch has them.

Per layer and direction the input projection of all time steps is one matmul before the time loop, and each
step is one fused matmul for all gates (``h @ W_hh^T``) followed by elementwise work on slices of it. The
time loop is one fused op per layer and direction (``LSTMRecurrence``, ``GRURecurrence``, ``ElmanRecurrence``:
numpy loops forward and backward that keep only the gate activations and previous states, the recurrent
weights' gradients one matmul over all steps). The one-step cells are composed of differentiable ops
(``_Cell.step``), and so is a layer when its gradient is taken under ``create_graph`` (the fused ops recompute
it), so higher-order gradients are exact.

Sequences are time-major and flattened as in a PackedSequence: the rows of step ``t`` are the first
``batch_sizes[t]`` sequences (batch sizes never grow), so padded input is the case of equal batch sizes.
"""
from __future__ import annotations

import numpy as np

from ..._dtype import float32
from ..._core.registry import register
from ..._core.samples import mt, leaf
from ..._core.tensor import Tensor
from ..._core.engine import grad as _grad
from ..._core.function import Op
from ..._core.grad_mode import enable_grad
from ..dropout import dropout as _dropout
from ..linalg.products import addmm, matmul
from ..elementwise.unary import pass_where, relu, sigmoid, tanh
from ..shape.view import reshape, t, transpose
from ..shape.joins import cat, stack, unbind, unsafe_chunk, unsafe_split


class _Cell:
    """How one recurrent unit steps; its state is a tuple (``(h,)``, or ``(h, c)`` for the LSTM)."""

    fold_hidden_bias = True   # b_hh can be added to the input projection before the loop (all but GRU)

    @staticmethod
    def activation(x):
        return tanh(x)

    def step(self, gi, state, w_hh_t, b_hh, w_hr_t):
        """(output, new state) of one step, ``gi`` being the step's input projection (with the folded biases)."""
        h = self.activation(addmm(gi, state[0], w_hh_t))
        return h, (h,)


class _ReluCell(_Cell):
    @staticmethod
    def activation(x):
        return relu(x)


class _LSTMCell(_Cell):
    def step(self, gi, state, w_hh_t, b_hh, w_hr_t):
        h, c = state
        i, f, g, o = unsafe_chunk(addmm(gi, h, w_hh_t), 4, 1)   # torch's gate order: input, forget, cell, output
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)
        if w_hr_t is not None:
            h = matmul(h, w_hr_t)
        return h, (h, c)


class _GRUCell(_Cell):
    fold_hidden_bias = False  # b_hn is multiplied by the reset gate

    def step(self, gi, state, w_hh_t, b_hh, w_hr_t):
        h = state[0]
        gh = matmul(h, w_hh_t) if b_hh is None else addmm(b_hh, h, w_hh_t)
        i_rz, i_n = unsafe_split(gi, [gi.shape[1] * 2 // 3, gi.shape[1] // 3], 1)
        h_rz, h_n = unsafe_split(gh, [gh.shape[1] * 2 // 3, gh.shape[1] // 3], 1)
        r, z = unsafe_chunk(sigmoid(i_rz + h_rz), 2, 1)   # torch's gate order: reset, update, new
        n = tanh(i_n + r * h_n)
        h = n + z * (h - n)
        return h, (h,)


_CELLS = {"RNN_TANH": _Cell(), "RNN_RELU": _ReluCell(), "LSTM": _LSTMCell(), "GRU": _GRUCell()}


def _input_projection(cell: _Cell, x, w_ih, b_ih, b_hh):
    """``x @ W_ih^T`` plus the biases that can be added before the recurrence."""
    bias = b_ih
    if cell.fold_hidden_bias and b_hh is not None:
        bias = b_hh if bias is None else bias + b_hh
    return matmul(x, t(w_ih)) if bias is None else addmm(bias, x, t(w_ih))


def _run_direction(cell: _Cell, gi, state: tuple, weights: tuple, batch_sizes: list, reverse: bool):
    """One layer in one direction over the packed rows ``gi`` (input projections of all steps): the outputs of
    every step in time order, and the final state of every sequence."""
    w_hh_t, b_hh, w_hr_t = weights
    steps = unsafe_split(gi, batch_sizes, 0) if len(batch_sizes) > 1 else (gi,)
    # The batch shrinks as sequences end: keep each group of ended rows, in sizes that are batch boundaries.
    cuts = sorted(set(batch_sizes))
    sizes = [hi - lo for lo, hi in zip([0] + cuts[:-1], cuts)]
    outs = [None] * len(steps)
    if not reverse:
        ended = []
        for k in range(len(steps)):
            bs = batch_sizes[k]
            if bs < state[0].shape[0]:
                pieces = [unsafe_split(s, [bs, s.shape[0] - bs], 0) for s in state]
                state = tuple(p[0] for p in pieces)
                ended.append(tuple(p[1] for p in pieces))
            outs[k], state = cell.step(steps[k], state, w_hh_t, b_hh, w_hr_t)
        if ended:
            state = tuple(cat([s, *[e[j] for e in reversed(ended)]], 0) for j, s in enumerate(state))
        return outs, state
    # backwards in time, the batch grows: sequences join with their initial state
    groups = [unsafe_split(s, sizes, 0) if len(sizes) > 1 else (s,) for s in state]
    state = tuple(g[0] for g in groups)
    joined = 1
    for k in reversed(range(len(steps))):
        if batch_sizes[k] > state[0].shape[0]:
            state = tuple(cat([s, g[joined]], 0) for s, g in zip(state, groups))
            joined += 1
        outs[k], state = cell.step(steps[k], state, w_hh_t, b_hh, w_hr_t)
    return outs, state


def _sigmoid_(x: np.ndarray) -> None:
    """``x = 1 / (1 + exp(-x))`` in place (exp overflows to inf for x < -88 in float32, giving the right 0)."""
    np.negative(x, out=x)
    with np.errstate(over="ignore"):
        np.exp(x, out=x)
    x += 1.0
    np.reciprocal(x, out=x)


class LSTMRecurrence(Op):
    """The time loop of one LSTM layer in one direction, fused: from the input projections ``gi`` of all packed
    rows, the initial state and the recurrent weights to (output rows, h_n, c_n).

    Forward runs the loop in numpy and keeps per row only the gate activations, the previous states and tanh(c);
    backward runs the reverse loop (one matmul per step for the state's gradient) and the weights' gradients as
    one matmul over all rows. Under ``create_graph`` the gradient is that of the same layer composed of ops
    (``_LSTMCell.step``), recomputed, so higher orders are exact."""

    @staticmethod
    def forward(ctx, gi, h0, c0, w_hh, w_hr, batch_sizes=(), reverse=False):
        ctx.batch_sizes, ctx.reverse = batch_sizes, reverse
        n, hidden = gi.shape[0], c0.shape[1]
        dtype = gi.dtype
        act = np.empty_like(gi)   # i, f, g, o after their activations
        c_prev, tanh_c = np.empty((n, hidden), dtype), np.empty((n, hidden), dtype)
        h_prev, out = np.empty((n, h0.shape[1]), dtype), np.empty((n, h0.shape[1]), dtype)
        h_raw = None if w_hr is None else np.empty((n, hidden), dtype)   # o * tanh(c), before the projection
        h, c = h0.astype(dtype), c0.astype(dtype)   # rows of ended (or not yet started) sequences stay as they are
        i, f, g, o = (slice(k * hidden, (k + 1) * hidden) for k in range(4))
        for rows, bs in _row_blocks(batch_sizes, reverse):
            z = act[rows]
            np.matmul(h[:bs], w_hh.T, out=z)
            z += gi[rows]
            h_prev[rows], c_prev[rows] = h[:bs], c[:bs]
            _sigmoid_(z[:, :g.start])
            np.tanh(z[:, g], out=z[:, g])
            _sigmoid_(z[:, o])
            cb = c[:bs]
            cb *= z[:, f]
            cb += z[:, i] * z[:, g]
            np.tanh(cb, out=tanh_c[rows])
            if w_hr is None:
                np.multiply(z[:, o], tanh_c[rows], out=out[rows])
            else:
                np.multiply(z[:, o], tanh_c[rows], out=h_raw[rows])
                np.matmul(h_raw[rows], w_hr.T, out=out[rows])
            h[:bs] = out[rows]
        ctx.save_for_backward(gi, h0, c0, w_hh, w_hr, act, c_prev, tanh_c, h_prev, h_raw)
        return out, h, c

    @staticmethod
    def backward(ctx, g_out, g_h, g_c):
        gi, h0, c0, w_hh, w_hr, act, c_prev, tanh_c, h_prev, h_raw = ctx.saved_tensors
        if ctx._as_tensors:
            return _recomposed_vjp(ctx, _CELLS["LSTM"], (gi, h0, c0, w_hh, w_hr), (h0, c0),
                                   (t(w_hh), None, None if w_hr is None else t(w_hr)), (g_out, g_h, g_c))
        hidden = c0.shape[1]
        dh, dc = _state_grad(g_h, h0, gi.dtype), _state_grad(g_c, c0, gi.dtype)
        d_act = np.empty_like(act)   # the gradient of the gates before their activations
        d_out = None if w_hr is None else np.empty_like(h_prev)
        i, f, g, o = (slice(k * hidden, (k + 1) * hidden) for k in range(4))
        for rows, bs in reversed(_row_blocks(ctx.batch_sizes, ctx.reverse)):
            z, d, tc = act[rows], d_act[rows], tanh_c[rows]
            dht = dh[:bs] if g_out is None else dh[:bs] + g_out[rows]
            if w_hr is not None:
                d_out[rows] = dht
                dht = dht @ w_hr
            np.multiply(dht, tc, out=d[:, o])
            d[:, o] *= z[:, o] * (1 - z[:, o])
            dcb = dc[:bs]
            dcb += dht * z[:, o] * (1 - tc * tc)
            np.multiply(dcb, z[:, g], out=d[:, i])
            d[:, i] *= z[:, i] * (1 - z[:, i])
            np.multiply(dcb, c_prev[rows], out=d[:, f])
            d[:, f] *= z[:, f] * (1 - z[:, f])
            np.multiply(dcb, z[:, i], out=d[:, g])
            d[:, g] *= 1 - z[:, g] * z[:, g]
            dcb *= z[:, f]
            dh[:bs] = d @ w_hh
        g_w_hr = None if w_hr is None else d_out.T @ h_raw
        return d_act, dh, dc, d_act.T @ h_prev, g_w_hr


class MkldnnRnnLayer(LSTMRecurrence):
    """``LSTMRecurrence`` over equal-length sequences with its output as (steps, batch, hidden): the last layer of a
    float32 LSTM without projections on padded input, whose node PyTorch's CPU kernel (oneDNN) names so."""

    @staticmethod
    def forward(ctx, gi, h0, c0, w_hh, w_hr, batch_sizes=(), reverse=False):
        out, h, c = LSTMRecurrence.forward(ctx, gi, h0, c0, w_hh, w_hr, batch_sizes, reverse)
        return out.reshape(len(batch_sizes), batch_sizes[0], out.shape[1]), h, c

    @staticmethod
    def backward(ctx, g_out, g_h, g_c):
        g_rows = None if g_out is None else g_out.reshape(-1, g_out.shape[-1])
        return LSTMRecurrence.backward(ctx, g_rows, g_h, g_c)


def _row_blocks(batch_sizes, reverse: bool) -> list:
    """(rows of step t in the packed data, batch size of step t), in the order the loop visits the steps."""
    starts = np.concatenate(([0], np.cumsum(batch_sizes)[:-1])).tolist()
    blocks = [(slice(lo, lo + bs), bs) for lo, bs in zip(starts, batch_sizes)]
    return blocks[::-1] if reverse else blocks


def _recomposed_vjp(ctx, cell: _Cell, inputs: tuple, state: tuple, weights: tuple, grads: tuple) -> tuple:
    """The gradient of a fused recurrence under create_graph: the layer recomposed of ops (``cell.step`` from
    ``state`` with ``weights`` = (w_hh^T, b_hh, w_hr^T)), differentiated w.r.t. ``inputs``."""
    with enable_grad():
        steps, final = _run_direction(cell, inputs[0], state, weights, list(ctx.batch_sizes), ctx.reverse)
        outs = (cat(steps, 0), *final)
    wanted = [k for k, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    pairs = [(out, g) for out, g in zip(outs, grads) if g is not None]
    found = _grad([p[0] for p in pairs], [inputs[k] for k in wanted], [p[1] for p in pairs], create_graph=True,
                  allow_unused=True)
    result = [None] * len(inputs)
    for k, value in zip(wanted, found):
        result[k] = value
    return tuple(result)


def _state_grad(g, like, dtype) -> np.ndarray:
    """The incoming gradient of a final state as a fresh array the reverse loop can update (zeros if None)."""
    return np.zeros(like.shape, dtype) if g is None else np.array(g, dtype=dtype)


class GRURecurrence(Op):
    """The time loop of one GRU layer in one direction, fused as ``LSTMRecurrence``: from the input projections
    ``gi`` (with b_ih), the initial state, ``w_hh`` and ``b_hh`` to (output rows, h_n). Keeps per row the gates
    r, z, n, the hidden projection of n's block (``W_hn h + b_hn``) and the previous state."""

    @staticmethod
    def forward(ctx, gi, h0, w_hh, b_hh, batch_sizes=(), reverse=False):
        ctx.batch_sizes, ctx.reverse = batch_sizes, reverse
        n, hidden = gi.shape[0], h0.shape[1]
        act = np.empty_like(gi)   # r, z, n
        gh_n, h_prev, out = (np.empty((n, hidden), gi.dtype) for _ in range(3))
        h = h0.astype(gi.dtype)
        rz, nb = slice(0, 2 * hidden), slice(2 * hidden, 3 * hidden)
        for rows, bs in _row_blocks(batch_sizes, reverse):
            a, hb = act[rows], h[:bs]
            gh = hb @ w_hh.T
            if b_hh is not None:
                gh += b_hh
            np.add(gi[rows, rz], gh[:, rz], out=a[:, rz])
            _sigmoid_(a[:, rz])
            gh_n[rows], h_prev[rows] = gh[:, nb], hb
            np.multiply(a[:, :hidden], gh[:, nb], out=a[:, nb])
            a[:, nb] += gi[rows, nb]
            np.tanh(a[:, nb], out=a[:, nb])
            hb -= a[:, nb]            # h' = n + z * (h - n)
            hb *= a[:, hidden:2 * hidden]
            hb += a[:, nb]
            out[rows] = hb
        ctx.save_for_backward(gi, h0, w_hh, b_hh, act, gh_n, h_prev)
        return out, h

    @staticmethod
    def backward(ctx, g_out, g_h):
        gi, h0, w_hh, b_hh, act, gh_n, h_prev = ctx.saved_tensors
        if ctx._as_tensors:
            return _recomposed_vjp(ctx, _CELLS["GRU"], (gi, h0, w_hh, b_hh), (h0,), (t(w_hh), b_hh, None),
                                   (g_out, g_h))
        hidden = h0.shape[1]
        dh = _state_grad(g_h, h0, gi.dtype)
        d_gi, d_gh = np.empty_like(act), np.empty_like(act)   # gradients of the input and hidden projections
        r, z, nb = slice(0, hidden), slice(hidden, 2 * hidden), slice(2 * hidden, 3 * hidden)
        for rows, bs in reversed(_row_blocks(ctx.batch_sizes, ctx.reverse)):
            a, di, dg = act[rows], d_gi[rows], d_gh[rows]
            dht = dh[:bs] if g_out is None else dh[:bs] + g_out[rows]
            np.multiply(dht, 1 - a[:, z], out=di[:, nb])          # through n ...
            di[:, nb] *= 1 - a[:, nb] * a[:, nb]                   # ... before its tanh
            np.multiply(dht, h_prev[rows] - a[:, nb], out=di[:, z])
            di[:, z] *= a[:, z] * (1 - a[:, z])
            np.multiply(di[:, nb], gh_n[rows], out=di[:, r])
            di[:, r] *= a[:, r] * (1 - a[:, r])
            dg[:, :2 * hidden] = di[:, :2 * hidden]
            np.multiply(di[:, nb], a[:, r], out=dg[:, nb])
            dh[:bs] = dht * a[:, z] + dg @ w_hh
        return d_gi, dh, d_gh.T @ h_prev, None if b_hh is None else d_gh.sum(0)


class ElmanRecurrence(Op):
    """The time loop of one Elman RNN layer in one direction (``h' = tanh(gi + h W_hh^T)``, or ReLU with
    ``relu=True``), fused as ``LSTMRecurrence``: (output rows, h_n). Keeps the previous state of every row."""

    @staticmethod
    def forward(ctx, gi, h0, w_hh, relu=False, batch_sizes=(), reverse=False):
        ctx.batch_sizes, ctx.reverse, ctx.relu = batch_sizes, reverse, relu
        out, h_prev = np.empty_like(gi), np.empty_like(gi)
        h = h0.astype(gi.dtype)
        for rows, bs in _row_blocks(batch_sizes, reverse):
            hb, o = h[:bs], out[rows]
            h_prev[rows] = hb
            np.matmul(hb, w_hh.T, out=o)
            o += gi[rows]
            if relu:
                np.maximum(0, o, out=o)  # (torch's relu: -0.0 and NaN pass, numpy returns the second on ties)
            else:
                np.tanh(o, out=o)
            hb[...] = o
        ctx.save_for_backward(gi, h0, w_hh, out, h_prev)
        return out, h

    @staticmethod
    def backward(ctx, g_out, g_h):
        gi, h0, w_hh, out, h_prev = ctx.saved_tensors
        if ctx._as_tensors:
            cell = _CELLS["RNN_RELU" if ctx.relu else "RNN_TANH"]
            return _recomposed_vjp(ctx, cell, (gi, h0, w_hh), (h0,), (t(w_hh), None, None), (g_out, g_h))
        dh = _state_grad(g_h, h0, gi.dtype)
        d_pre = np.empty_like(out)   # the gradient before the activation
        for rows, bs in reversed(_row_blocks(ctx.batch_sizes, ctx.reverse)):
            d = d_pre[rows]
            np.add(dh[:bs], 0 if g_out is None else g_out[rows], out=d)
            if ctx.relu:
                d[...] = pass_where(d, ~(out[rows] <= 0))  # torch's relu gradient: 0 where out <= 0, NaN passes
            else:
                d *= 1 - out[rows] * out[rows]
            dh[:bs] = d @ w_hh
        return d_pre, dh, d_pre.T @ h_prev


def _stack_layers(mode: str, data, batch_sizes: list, hx: tuple, params, has_biases: bool, num_layers: int,
                  dropout: float, train: bool, bidirectional: bool, steps: int | None = None):
    """Run all layers over packed rows ``data``: (output, final states stacked per layer and direction).
    The output is packed rows, or with ``steps`` (padded input) (steps, batch, hidden); either made by the op
    that makes PyTorch's CPU output, so that its ``grad_fn`` is PyTorch's node."""
    cell = _CELLS[mode]
    directions = 2 if bidirectional else 1
    params = list(params)
    per_layer = len(params) // (num_layers * directions)
    projected = per_layer == (5 if has_biases else 3)
    if per_layer * num_layers * directions != len(params) or per_layer not in (2, 3, 4, 5):
        raise RuntimeError(f"{mode.lower()}: expected {num_layers * directions} groups of weights, got "
                           f"{len(params)} parameters")
    initial = [unbind(s, 0) for s in hx]
    finals = [[] for _ in hx]
    x = data
    for layer in range(num_layers):
        if layer and dropout and train:
            x = _dropout(x, dropout, True)
        outs = []
        for d in range(directions):
            k = layer * directions + d
            group = params[k * per_layer:(k + 1) * per_layer]   # torch's order: w_ih, w_hh[, b_ih, b_hh][, w_hr]
            w_hh, w_hr = group[1], group[-1] if projected else None
            b_ih, b_hh = (group[2], group[3]) if has_biases else (None, None)
            gi = _input_projection(cell, x, group[0], b_ih, b_hh)
            where = {"batch_sizes": tuple(batch_sizes), "reverse": d == 1}
            if mode == "LSTM":
                one_dnn = steps is not None and layer == num_layers - 1 and directions == 1 and w_hr is None \
                    and gi.dtype == float32
                recurrence = MkldnnRnnLayer if one_dnn else LSTMRecurrence
                out, *state = recurrence.apply(gi, initial[0][k], initial[1][k], w_hh, w_hr, **where)
            elif mode == "GRU":
                out, *state = GRURecurrence.apply(gi, initial[0][k], w_hh, b_hh, **where)
            else:
                out, *state = ElmanRecurrence.apply(gi, initial[0][k], w_hh, relu=mode == "RNN_RELU", **where)
            outs.append(out)
            for f, s in zip(finals, state):
                f.append(s)
        if layer < num_layers - 1:
            x = cat(outs, 1) if directions == 2 else outs[0]
        elif steps is None:  # PyTorch concatenates the steps' outputs of packed input
            x = cat(outs, 1) if directions == 2 else cat(outs, 0)
        elif directions == 2:
            x = cat([reshape(o, steps, batch_sizes[0], o.shape[1]) for o in outs], 2)
        else:  # oneDNN's layer, or the native kernels' stacked steps
            x = outs[0] if outs[0].ndim == 3 else \
                stack(unbind(reshape(outs[0], steps, batch_sizes[0], outs[0].shape[1]), 0), 0)
    return x, tuple(stack(f, 0) for f in finals)


def _rnn(mode: str, input, hx: tuple, params, has_biases, num_layers, dropout, train, bidirectional, batch_first,
         batch_sizes=None):
    """The multi-layer function of ``mode`` on padded (``batch_sizes`` None) or packed input."""
    if batch_sizes is not None:
        sizes = [int(b) for b in (batch_sizes.tolist() if isinstance(batch_sizes, Tensor) else batch_sizes)]
        out, states = _stack_layers(mode, input, sizes, hx, params, has_biases, num_layers, dropout, train,
                                    bidirectional)
        return (out, *states)
    if input.ndim != 3:
        raise RuntimeError(f"{mode.lower()}: Expected input to be 3D, got {input.ndim}D instead")
    if batch_first:
        input = transpose(input, 0, 1)
    steps, batch = input.shape[:2]
    if steps == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    out, states = _stack_layers(mode, reshape(input, steps * batch, input.shape[2]), [batch] * steps, hx, params,
                                has_biases, num_layers, dropout, train, bidirectional, steps)
    if batch_first:  # PyTorch's LSTM transposes its output, the other modes transpose theirs in place
        out = transpose(out, 0, 1) if mode == "LSTM" else out.transpose_(0, 1)
    return (out, *states)


def _single_state_rnn(mode: str, input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                      batch_first=False):
    """The two overloads of torch's rnn_tanh/rnn_relu/gru: (input, hx, params, ...) and the packed
    (data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)."""
    if isinstance(params, Tensor):  # packed: every argument one place further
        data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional = (
            input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
        return _rnn(mode, data, (hx,), params, has_biases, num_layers, dropout, train, bidirectional, False,
                    batch_sizes)
    return _rnn(mode, input, (hx,), params, has_biases, num_layers, dropout, train, bidirectional, batch_first)


def _weights(gates, inputs=1, hidden=1, seed=2):
    """Sample weights w_ih, w_hh, b_ih, b_hh of one layer and direction (one unit for every gate)."""
    return [leaf(gates * hidden, inputs, seed=seed), leaf(gates * hidden, hidden, seed=seed + 1),
            leaf(gates * hidden, seed=seed + 2), leaf(gates * hidden, seed=seed + 3)]


def _sequence_sample(name, gates):
    """The sample of the recurrent function ``name``: two directions over a (2, 2, 1) sequence, with a state."""
    def run(inp, h, *w):
        hx = (h, h * 0.5) if name == "lstm" else h
        return getattr(mt, name)(inp, hx, list(w), True, 1, 0.0, False, True, False)
    return run, lambda: (leaf(2, 2, 1, low=-1.0, high=1.0), leaf(2, 2, 1, seed=1, low=-0.5, high=0.5),
                         *_weights(gates), *_weights(gates, seed=6))


def _cell_sample(name, gates):
    """The sample of the recurrent cell ``name``: a batch of two, two units."""
    def run(inp, h, *w):
        return getattr(mt, name)(inp, (h, h * 0.5) if name == "lstm_cell" else h, *w)
    return run, lambda: (leaf(2, 2, low=-1.0, high=1.0), leaf(2, 2, seed=1, low=-0.5, high=0.5),
                         *_weights(gates, inputs=2, hidden=2))


@register(method=False, sample=_sequence_sample("rnn_tanh", 1))
def rnn_tanh(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
             bidirectional: bool, batch_first: bool = False) -> tuple:
    """Elman RNN with tanh over a sequence: (output, h_n). Also ``rnn_tanh(data, batch_sizes, hx, params,
    has_biases, num_layers, dropout, train, bidirectional)`` for packed data."""
    return _single_state_rnn("RNN_TANH", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False, sample=_sequence_sample("rnn_relu", 1))
def rnn_relu(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
             bidirectional: bool, batch_first: bool = False) -> tuple:
    """Elman RNN with ReLU over a sequence: (output, h_n); packed data as ``rnn_tanh``."""
    return _single_state_rnn("RNN_RELU", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False, sample=_sequence_sample("gru", 3))
def gru(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
        bidirectional: bool, batch_first: bool = False) -> tuple:
    """GRU over a sequence: (output, h_n); packed data as ``rnn_tanh``."""
    return _single_state_rnn("GRU", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False, sample=_sequence_sample("lstm", 4))
def lstm(input: Tensor, hx, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
         bidirectional: bool, batch_first: bool = False) -> tuple:
    """LSTM over a sequence, ``hx`` = (h_0, c_0): (output, h_n, c_n). Also ``lstm(data, batch_sizes, hx, params,
    has_biases, num_layers, dropout, train, bidirectional)`` for packed data."""
    if isinstance(hx, Tensor):  # packed: every argument one place further
        data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional = (
            input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
        return _rnn("LSTM", data, tuple(hx), params, has_biases, num_layers, dropout, train, bidirectional, False,
                    batch_sizes)
    return _rnn("LSTM", input, tuple(hx), params, has_biases, num_layers, dropout, train, bidirectional, batch_first)


def _cell(mode: str, input, hx: tuple, w_ih, w_hh, b_ih, b_hh):
    cell = _CELLS[mode]
    gi = _input_projection(cell, input, w_ih, b_ih, b_hh)
    return cell.step(gi, hx, t(w_hh), b_hh, None)[1]


@register(method=False, sample=_cell_sample("rnn_tanh_cell", 1))
def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One step of an Elman RNN with tanh: ``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    return _cell("RNN_TANH", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False, sample=_cell_sample("rnn_relu_cell", 1))
def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One step of an Elman RNN with ReLU."""
    return _cell("RNN_RELU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False, sample=_cell_sample("gru_cell", 3))
def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
             b_hh: Tensor | None = None) -> Tensor:
    """One GRU step (gates r, z, n; ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``)."""
    return _cell("GRU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False, sample=_cell_sample("lstm_cell", 4))
def lstm_cell(input: Tensor, hx, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
              b_hh: Tensor | None = None) -> tuple:
    """One LSTM step (gates i, f, g, o), ``hx`` = (h, c): the new (h, c)."""
    return _cell("LSTM", input, tuple(hx), w_ih, w_hh, b_ih, b_hh)

