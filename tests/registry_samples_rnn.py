"""Registry sweep inputs for the torch-level recurrent functions (minitorch/_ops/sequence/rnn.py): tiny float64 sequences,
states and weights (one unit for every gate; two directions or a projection where the function takes them)."""
import minitorch as mt
from registry_inputs import x


def _weights(gates, inputs=1, hidden=1, seed=2):
    """w_ih, w_hh, b_ih, b_hh of one layer and direction."""
    return [x(gates * hidden, inputs, seed=seed), x(gates * hidden, hidden, seed=seed + 1),
            x(gates * hidden, seed=seed + 2), x(gates * hidden, seed=seed + 3)]


def _sequence_sample(function, gates):
    """Two directions over a (2, 2, 1) sequence, with an initial state."""
    def run(inp, h, *w):
        hx = (h, h * 0.5) if function is mt.lstm else h
        return function(inp, hx, list(w), True, 1, 0.0, False, True, False)
    return run, lambda: (x(2, 2, 1, low=-1.0, high=1.0), x(2, 2, 1, seed=1, low=-0.5, high=0.5),
                         *_weights(gates), *_weights(gates, seed=6))


def _cell_sample(function, gates):
    def run(inp, h, *w):
        return function(inp, (h, h * 0.5) if function is mt.lstm_cell else h, *w)
    return run, lambda: (x(2, 2, low=-1.0, high=1.0), x(2, 2, seed=1, low=-0.5, high=0.5),
                         *_weights(gates, inputs=2, hidden=2))


SAMPLES = {
    "lstm": _sequence_sample(mt.lstm, 4),
    "gru": _sequence_sample(mt.gru, 3),
    "rnn_tanh": _sequence_sample(mt.rnn_tanh, 1),
    "rnn_relu": _sequence_sample(mt.rnn_relu, 1),
    "lstm_cell": _cell_sample(mt.lstm_cell, 4),
    "gru_cell": _cell_sample(mt.gru_cell, 3),
    "rnn_tanh_cell": _cell_sample(mt.rnn_tanh_cell, 1),
    "rnn_relu_cell": _cell_sample(mt.rnn_relu_cell, 1),
}
