"""Recurrent layers as functions: ``lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu`` (whole multi-layer,
optionally bidirectional and packed sequences) and their one-step cells, as torch has them.

They are composed of differentiable ops, as PyTorch's CPU kernels are: per layer and direction the input
projection of all time steps is one matmul before the time loop, and each step is one fused matmul for all
gates (``h @ W_hh^T``) followed by elementwise ops on slices of it. Backward through time is the graph of
those ops (each keeps only what its own gradient needs), so higher-order gradients work too.

Sequences are time-major and flattened as in a PackedSequence: the rows of step ``t`` are the first
``batch_sizes[t]`` sequences (batch sizes never grow), so padded input is the case of equal batch sizes.
"""
from __future__ import annotations

from .._registry import register
from .._tensor import Tensor
from .dropout import dropout as _dropout
from .linalg import addmm, matmul
from .unary import relu, sigmoid, tanh
from .view import cat, reshape, stack, t, transpose, unbind, unsafe_chunk, unsafe_split


class _Cell:
    """How one recurrent unit steps: ``gates`` blocks of the hidden size in its weights; its state is a tuple
    (``(h,)``, or ``(h, c)`` for the LSTM)."""

    gates = 1
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
    gates = 4

    def step(self, gi, state, w_hh_t, b_hh, w_hr_t):
        h, c = state
        i, f, g, o = unsafe_chunk(addmm(gi, h, w_hh_t), 4, 1)   # torch's gate order: input, forget, cell, output
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)
        if w_hr_t is not None:
            h = matmul(h, w_hr_t)
        return h, (h, c)


class _GRUCell(_Cell):
    gates = 3
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


def _layer_weights(params, has_biases: bool, projected: bool):
    """(w_ih, b_ih, b_hh, (w_hh^T, b_hh, w_hr^T)) of one layer and direction in torch's flat order."""
    w_ih, w_hh = params[0], params[1]
    b_ih, b_hh = (params[2], params[3]) if has_biases else (None, None)
    w_hr = params[-1] if projected else None
    return w_ih, b_ih, b_hh, (t(w_hh), b_hh, None if w_hr is None else t(w_hr))


def _stack_layers(mode: str, data, batch_sizes: list, hx: tuple, params, has_biases: bool, num_layers: int,
                  dropout: float, train: bool, bidirectional: bool):
    """Run all layers over packed rows ``data``: (packed output, final states stacked per layer and direction)."""
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
            w_ih, b_ih, b_hh, weights = _layer_weights(params[k * per_layer:(k + 1) * per_layer], has_biases,
                                                       projected)
            gi = _input_projection(cell, x, w_ih, b_ih, b_hh)
            steps, state = _run_direction(cell, gi, tuple(s[k] for s in initial), weights, batch_sizes, d == 1)
            outs.append(cat(steps, 0))
            for f, s in zip(finals, state):
                f.append(s)
        x = cat(outs, 1) if directions == 2 else outs[0]
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
    out, states = _stack_layers(mode, reshape(input, steps * batch, input.shape[2]), [batch] * steps, hx, params,
                                has_biases, num_layers, dropout, train, bidirectional)
    out = reshape(out, steps, batch, out.shape[1])
    return (transpose(out, 0, 1) if batch_first else out, *states)


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


@register(method=False)
def rnn_tanh(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
             bidirectional: bool, batch_first: bool = False) -> tuple:
    """Elman RNN with tanh over a sequence: (output, h_n). Also ``rnn_tanh(data, batch_sizes, hx, params,
    has_biases, num_layers, dropout, train, bidirectional)`` for packed data."""
    return _single_state_rnn("RNN_TANH", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False)
def rnn_relu(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
             bidirectional: bool, batch_first: bool = False) -> tuple:
    """Elman RNN with ReLU over a sequence: (output, h_n); packed data as ``rnn_tanh``."""
    return _single_state_rnn("RNN_RELU", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False)
def gru(input: Tensor, hx: Tensor, params, has_biases: bool, num_layers: int, dropout: float, train: bool,
        bidirectional: bool, batch_first: bool = False) -> tuple:
    """GRU over a sequence: (output, h_n); packed data as ``rnn_tanh``."""
    return _single_state_rnn("GRU", input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
                             batch_first)


@register(method=False)
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


@register(method=False)
def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One step of an Elman RNN with tanh: ``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""
    return _cell("RNN_TANH", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False)
def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
                  b_hh: Tensor | None = None) -> Tensor:
    """One step of an Elman RNN with ReLU."""
    return _cell("RNN_RELU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False)
def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
             b_hh: Tensor | None = None) -> Tensor:
    """One GRU step (gates r, z, n; ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``)."""
    return _cell("GRU", input, (hx,), w_ih, w_hh, b_ih, b_hh)[0]


@register(method=False)
def lstm_cell(input: Tensor, hx, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None = None,
              b_hh: Tensor | None = None) -> tuple:
    """One LSTM step (gates i, f, g, o), ``hx`` = (h, c): the new (h, c)."""
    return _cell("LSTM", input, tuple(hx), w_ih, w_hh, b_ih, b_hh)

