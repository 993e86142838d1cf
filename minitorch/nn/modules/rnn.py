"""Recurrent layers: RNN, LSTM, GRU (multi-layer, bidirectional, packed sequences) and their one-step cells,
with PyTorch's parameter names, shapes, gate order and initialisation. The computation is minitorch.lstm,
minitorch.gru, ... (minitorch/_ops/sequence/rnn.py)."""
from __future__ import annotations

import math
import numbers
import warnings

from ... import _factories
from ..._ops.sequence import rnn as _rnn
from ..._core.tensor import Tensor
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_FUNCTIONS = {"LSTM": _rnn.lstm, "GRU": _rnn.gru, "RNN_TANH": _rnn.rnn_tanh, "RNN_RELU": _rnn.rnn_relu}


def _permute(hx, permutation):
    """``hx`` (a tensor or a tuple of them) with its batch dim (1) reordered by ``permutation``."""
    if permutation is None:
        return hx
    if isinstance(hx, tuple):
        return tuple(h.index_select(1, permutation) for h in hx)
    return hx.index_select(1, permutation)


def _check_type(name: str, value, kind: type) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")


class RNNBase(Module):
    """The multi-layer recurrent layer of ``mode`` ('LSTM', 'GRU', 'RNN_TANH', 'RNN_RELU'): parameters
    ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (and ``weight_hr_l{k}`` with
    ``proj_size``), ``_reverse`` for the second direction, all from U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        _check_type("bias", bias, bool)
        _check_type("batch_first", batch_first, bool)
        _check_type("input_size", input_size, int)
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        _check_type("hidden_size", hidden_size, int)
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden = proj_size or hidden_size
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else real_hidden * directions
            for direction in range(directions):
                shapes = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                names = [kind + suffix for kind in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, Parameter(_factories.empty(*shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        """The parameters in the order the recurrent functions take them."""
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        """The parameters per layer and direction."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """Does nothing: minitorch keeps no fused weight buffer (torch only makes one for cuDNN)."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). Convert "
                             f"input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Tensor | None) -> tuple[int, int, int]:
        return self._state_size(input, batch_sizes, self.proj_size or self.hidden_size)

    def _state_size(self, input, batch_sizes, size: int) -> tuple[int, int, int]:
        if batch_sizes is not None:
            batch = int(batch_sizes[0])
        else:
            batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size: tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Tensor | None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation: Tensor | None):
        return _permute(hx, permutation)

    def _zero_state(self, input, batch: int):
        sizes = (self.proj_size or self.hidden_size,) + ((self.hidden_size,) if self.mode == "LSTM" else ())
        shape = (self.num_layers * (2 if self.bidirectional else 1), batch)
        states = tuple(_factories.zeros(*shape, s, dtype=input.dtype) for s in sizes)
        return states if self.mode == "LSTM" else states[0]

    def _state_dims(self, hx) -> list:
        return [h.dim() for h in (hx if isinstance(hx, tuple) else (hx,))]

    def _check_state_dims(self, hx, want: int, batched: bool) -> None:
        dims = self._state_dims(hx)
        if all(d == want for d in dims):
            return
        kind = "batched 3-D" if batched else "unbatched 2-D"
        if self.mode == "LSTM":
            raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got ({dims[0]}-D, "
                               f"{dims[1]}-D) tensors")
        raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {dims[0]}-D tensor")

    def forward(self, input, hx=None):
        if self.mode == "LSTM" and isinstance(hx, list):  # (h_0, c_0) as a list, as PyTorch takes it
            hx = tuple(hx)
        packed = isinstance(input, PackedSequence)
        if packed:
            input, batch_sizes, sorted_indices, unsorted_indices = input
            hx = self._zero_state(input, int(batch_sizes[0])) if hx is None else _permute(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                name = "RNN" if self.mode.startswith("RNN") else self.mode
                tensor = " tensor" if name == "RNN" else ""
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead")
            batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not batched:
                input = input.unsqueeze(batch_dim)
            if hx is None:
                hx = self._zero_state(input, input.size(batch_dim))
            else:
                self._check_state_dims(hx, 3 if batched else 2, batched)
                if not batched:
                    hx = tuple(h.unsqueeze(1) for h in hx) if isinstance(hx, tuple) else hx.unsqueeze(1)
        self.check_forward_args(input, hx, batch_sizes)
        function = _FUNCTIONS[self.mode]
        if packed:
            result = function(input, batch_sizes, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                              self.training, self.bidirectional)
        else:
            result = function(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                              self.bidirectional, self.batch_first)
        output, hidden = result[0], (tuple(result[1:]) if self.mode == "LSTM" else result[1])
        if packed:
            return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), \
                _permute(hidden, unsorted_indices)
        if not batched:
            output = output.squeeze(batch_dim)
            hidden = tuple(h.squeeze(1) for h in hidden) if isinstance(hidden, tuple) else hidden.squeeze(1)
        return output, hidden

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN, ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or ReLU)::

        RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False,
            dropout=0.0, bidirectional=False, device=None, dtype=None)
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class LSTM(RNNBase):
    """Long short-term memory, gates (i, f, g, o) in that order; with ``proj_size`` the hidden state is projected
    by ``weight_hr``::

        LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
             bidirectional=False, proj_size=0, device=None, dtype=None)
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Tensor | None) -> tuple[int, int, int]:
        return self._state_size(input, batch_sizes, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: tuple, batch_sizes: Tensor | None) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")


class GRU(RNNBase):
    """Gated recurrent unit, gates (r, z, n) in that order, ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``::

        GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
            bidirectional=False, device=None, dtype=None)
    """

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    """One step of a recurrent unit with ``num_chunks`` gates: ``weight_ih``, ``weight_hh``, ``bias_ih``,
    ``bias_hh``, all from U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(_factories.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(_factories.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_factories.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_factories.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _step(self, function, input: Tensor, hx: tuple, lstm: bool):
        """Check dims, add the batch dim of unbatched input, make zero states, run ``function``."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for i, h in enumerate(hx or ()):
            if h.dim() not in (1, 2):
                what = f"hx[{i}]" if lstm else "hidden"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _factories.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros) if lstm else (zeros,)
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx)
        out = function(input, hx if lstm else hx[0], self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if lstm else out.squeeze(0)
        return out


class RNNCell(RNNCellBase):
    """One Elman RNN step, ``h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or ReLU)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        functions = {"tanh": _rnn.rnn_tanh_cell, "relu": _rnn.rnn_relu_cell}
        if self.nonlinearity not in functions:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return self._step(functions[self.nonlinearity], input, None if hx is None else (hx,), lstm=False)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c')`` from ``(h, c)``, gates (i, f, g, o)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        return self._step(_rnn.lstm_cell, input, None if hx is None else tuple(hx), lstm=True)


class GRUCell(RNNCellBase):
    """One GRU step, gates (r, z, n)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        return self._step(_rnn.gru_cell, input, None if hx is None else (hx,), lstm=False)
