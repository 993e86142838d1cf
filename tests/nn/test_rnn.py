"""Recurrent layers: nn.RNN/LSTM/GRU, their cells, the torch-level functions and nn.utils.rnn.

Differential against torch (live, or its recorded answers): both libraries build the layer after the same seed
(minitorch's initialisation draws torch's numbers; the parameters' fingerprints are compared too), then outputs,
final states and the gradients of the input, the initial states and every parameter are compared, for the
feature combinations (directions, layers, batch_first, proj_size, packed and unbatched input, initial states,
bias). Gradchecks in float64 and hand-derived values run on their own."""
import math

import numpy as np
import pytest

import minitorch
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error, floats
from torch_answers import fingerprint, torch_answer

pytestmark = pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
rnn_utils = minitorch.nn.utils.rnn


def _floats(*shape, dtype=np.float32):
    return floats(shape, -1.0, 1.0, dtype)


def _layer(lib, kind: str, *args, **kwargs):
    if kind in ("tanh", "relu"):
        return lib.nn.RNN(*args, nonlinearity=kind, **kwargs)
    return getattr(lib.nn, kind)(*args, **kwargs)


def _seeded_layer(lib, kind: str, *args, **kwargs):
    """The layer as built after ``manual_seed(0)``: the same parameters in both libraries."""
    lib.manual_seed(0)
    return _layer(lib, kind, *args, **kwargs)


def _leaves(lib, arrays):
    return [None if a is None else lib.tensor(a, requires_grad=True) for a in arrays]


def _outputs(out):
    """The tensors of a layer's result: output (or packed data) and the final states."""
    output, hidden = out
    if isinstance(output, tuple):  # PackedSequence
        output = output.data
    return [output, *(hidden if isinstance(hidden, tuple) else (hidden,))]


def _run(lib, layer, x, states, pack=None):
    """Forward and backward of a weighted sum of all results: (results, input and state grads)."""
    leaves = _leaves(lib, [x, *states])
    xin, hin = leaves[0], leaves[1:]
    hx = None if not hin else (tuple(hin) if len(hin) == 2 else hin[0])
    if pack is not None:
        xin = lib.nn.utils.rnn.pack_padded_sequence(xin, pack, enforce_sorted=pack == sorted(pack, reverse=True))
    results = _outputs(layer(xin, hx))
    weights = np.random.default_rng(3)
    total = sum((r * lib.tensor(weights.uniform(-1, 1, tuple(r.shape)).astype(np.float32))).sum() for r in results)
    total.backward()
    return [r.detach().numpy() for r in results], [leaf.grad.numpy() for leaf in leaves]


def _layer_runs(lib, layer_args, x, states, pack, modes):
    """The seeded layer's parameters' fingerprint, then per mode (True: training) ``_run``'s results and the
    parameters' gradients."""
    kind, args, kwargs = layer_args
    layer = _seeded_layer(lib, kind, *args, **kwargs)
    runs = [fingerprint(*[p.detach() for p in layer.parameters()])]
    for training in modes:
        layer.train(training)
        layer.zero_grad()
        runs.append((*_run(lib, layer, x, states, pack), {n: p.grad.numpy() for n, p in layer.named_parameters()}))
    return runs


def _compare(layer_args, x, states=(), pack=None, modes=(True,), atol=2e-5):
    """The layer ``(kind, args, kwargs)`` run on minitorch and on torch (see ``_layer_runs``) gives the same."""
    mine = _layer_runs(minitorch, layer_args, x, states, pack, modes)
    theirs = torch_answer(_layer_runs, layer_args, x, states, pack, modes)
    assert mine[0] == theirs[0], "the seeded layers' parameters differ"
    for (mt_out, mt_grads, mt_params), (th_out, th_grads, th_params) in zip(mine[1:], theirs[1:], strict=True):
        for a, b in zip(mt_out, th_out, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_allclose(a, b, atol=atol, rtol=1e-4)
        for a, b in zip(mt_grads, th_grads, strict=True):
            np.testing.assert_allclose(a, b, atol=atol, rtol=1e-4)
        assert list(mt_params) == list(th_params)
        for name, grad in mt_params.items():
            np.testing.assert_allclose(grad, th_params[name], atol=atol, rtol=1e-4, err_msg=name)


def _states(kind, layers, directions, batch, hidden, proj=0):
    shape = (layers * directions,) + ((batch,) if batch else ())
    h = _floats(*shape, proj or hidden)
    return (h, _floats(*shape, hidden)) if kind == "LSTM" else (h,)


KINDS = ("LSTM", "GRU", "tanh", "relu")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("layers,batch_first,initial", [(1, False, False), (2, True, True), (2, False, True)])
def test_layers_match_torch(kind, bidirectional, layers, batch_first, initial):
    x = _floats(2, 5, 3) if batch_first else _floats(5, 2, 3)
    states = _states(kind, layers, 1 + bidirectional, 2, 4) if initial else ()
    _compare((kind, (3, 4, layers), {"batch_first": batch_first, "bidirectional": bidirectional}), x, states)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_with_projections_matches_torch(bidirectional):
    layer_args = ("LSTM", (3, 5, 2), {"proj_size": 2, "bidirectional": bidirectional})
    mt = _layer(minitorch, "LSTM", *layer_args[1], **layer_args[2])
    assert tuple(mt.weight_hr_l1.shape) == (2, 5) and tuple(mt.weight_ih_l1.shape) == (20, 2 * (1 + bidirectional))
    _compare(layer_args, _floats(4, 3, 3), _states("LSTM", 2, 1 + bidirectional, 3, 5, proj=2))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_sequences_match_torch(kind, bidirectional):
    lengths = [2, 5, 1, 5]  # unsorted: the layer sorts them and unsorts the final states
    _compare((kind, (3, 4, 2), {"bidirectional": bidirectional}), _floats(5, 4, 3),
             _states(kind, 2, 1 + bidirectional, 4, 4), pack=lengths)


def test_packed_lstm_with_projection_and_zero_initial_states_matches_torch():
    _compare(("LSTM", (3, 4, 1), {"proj_size": 3, "bidirectional": True, "bias": False}), _floats(3, 3, 3), (),
             pack=[3, 2, 2])  # sorted: packed as it is


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "tanh"])
@pytest.mark.parametrize("initial", [False, True])
def test_unbatched_input_matches_torch(kind, initial):
    _compare((kind, (3, 4, 2), {"bidirectional": True, "batch_first": True}), _floats(5, 3),
             _states(kind, 2, 2, 0, 4) if initial else ())


def test_layers_without_bias_match_torch():
    mt = _layer(minitorch, "GRU", 3, 4, 2, bias=False)
    assert [n for n, _ in mt.named_parameters()] == ["weight_ih_l0", "weight_hh_l0", "weight_ih_l1", "weight_hh_l1"]
    _compare(("GRU", (3, 4, 2), {"bias": False}), _floats(4, 2, 3), _states("GRU", 2, 1, 2, 4))


def test_dropout_between_layers_in_training_only():
    # p = 1 zeroes the second layer's input: deterministic, so comparable with torch
    _compare(("LSTM", (3, 4, 2), {"dropout": 1.0}), _floats(4, 2, 3), modes=(True, False))


def _functions(lib, weights, x, h, c):
    """lstm (padded and packed), gru and the four cells, called with the given weights."""
    w = [lib.tensor(a) for a in weights]
    out = lib.lstm(lib.tensor(x), (lib.tensor(h), lib.tensor(c)), w, True, 2, 0.0, False, True, False)
    lens = lib.tensor(np.array([3, 2], np.int64))
    packed = lib.nn.utils.rnn.pack_padded_sequence(lib.tensor(x), lens)
    packed_out = lib.lstm(packed.data, packed.batch_sizes, (lib.tensor(h), lib.tensor(c)), w, True, 2, 0.0, False,
                          True)
    gru_w = [lib.tensor(a[:12]) if a.shape[0] == 16 else lib.tensor(a[:, :]) for a in weights[:4]]
    gru = lib.gru(lib.tensor(x), lib.tensor(h[:1]), gru_w, True, 1, 0.0, False, False, False)
    cells = (lib.lstm_cell(lib.tensor(x[0]), (lib.tensor(h[0]), lib.tensor(c[0])), *w[:4]),
             lib.gru_cell(lib.tensor(x[0]), lib.tensor(h[0]), *gru_w),
             lib.rnn_tanh_cell(lib.tensor(x[0]), lib.tensor(h[0]), lib.tensor(weights[0][:4]),
                               lib.tensor(weights[1][:4]), lib.tensor(weights[2][:4])),
             lib.rnn_relu_cell(lib.tensor(x[0]), lib.tensor(h[0]), lib.tensor(weights[0][:4]),
                               lib.tensor(weights[1][:4])))
    return [t.numpy() for t in (*out, *packed_out, *gru, *cells[0], *cells[1:])]


def test_torch_level_functions_match_torch():
    weights = [p.detach().numpy() for p in _seeded_layer(minitorch, "LSTM", 3, 4, 2, bidirectional=True)._flat_weights]
    args = weights, _floats(5, 2, 3), _floats(4, 2, 4), _floats(4, 2, 4)
    for a, b in zip(_functions(minitorch, *args), torch_answer(_functions, *args), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-6)


def _cell_runs(lib, kind, x, h, c):
    """The seeded cell's repr; for batched, unbatched and zero-state inputs, its outputs and the gradients of
    the inputs and parameters of a weighted sum of them."""
    args = (3, 4) if kind.endswith("Cell") else (3, 4, True, kind)
    name = kind if kind.endswith("Cell") else "RNNCell"
    lib.manual_seed(0)
    cell = getattr(lib.nn, name)(*args)
    states = (h, c) if name == "LSTMCell" else (h,)
    runs = [repr(cell)]
    for inputs in ((x, *states), (x[0], *(s[0] for s in states)), (x,)):  # batched, unbatched, zero state
        leaves = _leaves(lib, inputs)
        state = None if len(leaves) == 1 else (tuple(leaves[1:]) if name == "LSTMCell" else leaves[1])
        out = cell(leaves[0], state)
        out = out if isinstance(out, tuple) else (out,)
        sum((o * (k + 2)).sum() for k, o in enumerate(out)).backward()
        runs.append([o.detach().numpy() for o in out] + [t.grad.numpy() for t in leaves] +
                    [p.grad.numpy() for p in cell.parameters()])
        cell.zero_grad()
    return runs


@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell", "tanh", "relu"])
def test_cells_match_torch(kind):
    args = kind, _floats(2, 3), _floats(2, 4), _floats(2, 4)
    mine, theirs = _cell_runs(minitorch, *args), torch_answer(_cell_runs, *args)
    assert mine[0] == theirs[0]
    for run, their_run in zip(mine[1:], theirs[1:], strict=True):
        for a, b in zip(run, their_run, strict=True):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, atol=2e-5, rtol=1e-4)


def _layer_facts(lib):
    """Reprs, parameter names and shapes (and the flat weight tables of layers) of some layers and cells."""
    configs = [("LSTM", (3, 5), {"num_layers": 2, "bidirectional": True, "proj_size": 2, "batch_first": True}),
               ("GRU", (3, 5), {"bias": False, "dropout": 0.5, "num_layers": 2}), ("tanh", (2, 3), {}),
               ("relu", (2, 3), {"num_layers": 3})]
    facts = []
    for kind, args, kwargs in configs:
        layer = _layer(lib, kind, *args, **kwargs)
        facts.append((repr(layer), [(n, tuple(p.shape)) for n, p in layer.named_parameters()],
                      layer._flat_weights_names, layer._all_weights))
    for name, args, kwargs in [("LSTMCell", (2, 3), {"bias": False}), ("GRUCell", (2, 3), {}), ("RNNCell", (2, 3), {})]:
        cell = getattr(lib.nn, name)(*args, **kwargs)
        facts.append((repr(cell), [(n, tuple(p.shape)) for n, p in cell.named_parameters()]))
    return facts


def test_reprs_parameter_names_and_shapes_match_torch():
    assert _layer_facts(minitorch) == torch_answer(_layer_facts)


def _saved_and_run(torch, x):
    """A seeded torch LSTM's state_dict as torch.save writes it, and the layer's output on ``x``."""
    import io
    torch.manual_seed(1)
    th = torch.nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2)
    buffer = io.BytesIO()
    torch.save(th.state_dict(), buffer)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy(), th(torch.tensor(x))[0]


def test_a_state_dict_saved_by_torch_loads():
    import io
    x = _floats(3, 2, 3)
    saved, expected = torch_answer(_saved_and_run, x)
    mt = minitorch.nn.LSTM(3, 4, 2, bidirectional=True, proj_size=2)
    mt.load_state_dict(minitorch.load(io.BytesIO(saved.tobytes())))
    np.testing.assert_allclose(mt(minitorch.tensor(x))[0].detach().numpy(), expected.numpy(), atol=1e-6)


def test_default_init_is_uniform_in_the_hidden_bound_from_the_generator():
    minitorch.manual_seed(3)
    a = minitorch.nn.LSTM(4, 16, 2)
    minitorch.manual_seed(3)
    b = minitorch.nn.LSTM(4, 16, 2)
    values = np.concatenate([p.detach().numpy().ravel() for p in a.parameters()])
    assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.24 and values.min() < -0.24
    for p, q in zip(a.parameters(), b.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    cell = minitorch.nn.GRUCell(3, 100)
    assert 0.09 < np.abs(cell.weight_hh.detach().numpy()).max() <= 0.1


def test_flat_weights_follow_reassigned_parameters():
    layer = minitorch.nn.GRU(2, 3, bidirectional=True)
    assert len(layer._flat_weights) == 8 and layer._flat_weights[5] is layer.weight_hh_l0_reverse
    assert layer.all_weights[1][0] is layer.weight_ih_l0_reverse
    new = minitorch.nn.Parameter(minitorch.zeros(9, 3))
    layer.weight_hh_l0 = new
    assert layer._flat_weights[1] is new
    layer.flatten_parameters()
    out, h = layer(minitorch.zeros(1, 1, 2))
    assert out.shape == (1, 1, 6) and h.shape == (2, 1, 3)


def test_lstm_hand_computed_step():
    # one step from zero state, weights W_ih = 1 (one input, one unit), biases 0: with x = a, every gate
    # sees a; c = sigmoid(a) * tanh(a), h = sigmoid(a) * tanh(c)
    layer = minitorch.nn.LSTM(1, 1, bias=False)
    with minitorch.no_grad():
        layer.weight_ih_l0.fill_(1.0)
        layer.weight_hh_l0.fill_(0.0)
    a = 0.7
    out, (h, c) = layer(minitorch.tensor([[[a]]]))
    sig = 1 / (1 + math.exp(-a))
    assert c.item() == pytest.approx(sig * math.tanh(a), rel=1e-6)
    assert h.item() == pytest.approx(sig * math.tanh(sig * math.tanh(a)), rel=1e-6)
    assert out.item() == h.item()


@pytest.mark.parametrize("kind,bidirectional,proj", [("LSTM", True, 1), ("GRU", True, 0), ("tanh", False, 0)])
def test_packed_layers_pass_gradcheck_in_float64(kind, bidirectional, proj):
    minitorch.manual_seed(0)
    layer = _layer(minitorch, kind, 1, 2, 2, bidirectional=bidirectional, **({"proj_size": proj} if proj else {}))
    weights = [p.detach().double().requires_grad_() for p in layer._flat_weights]
    function = {"LSTM": minitorch.lstm, "GRU": minitorch.gru, "tanh": minitorch.rnn_tanh}[kind]
    x = minitorch.tensor(_floats(3, 2, 1, dtype=np.float64), requires_grad=True)
    h = minitorch.tensor(_floats(2 * (1 + bidirectional), 2, proj or 2, dtype=np.float64), requires_grad=True)

    def f(x, h, *weights):
        packed = rnn_utils.pack_padded_sequence(x, [2, 3], enforce_sorted=False)
        hx = (h, h.expand(-1, -1, 2) * 0.5) if kind == "LSTM" else h
        return function(packed.data, packed.batch_sizes, hx, list(weights), True, 2, 0.0, False, bidirectional)

    assert gradcheck(f, (x, h, *weights))


def test_fused_lstm_second_derivatives_with_packed_input_and_projection():
    minitorch.manual_seed(0)
    weights = [p.detach().double().requires_grad_() for p in minitorch.nn.LSTM(1, 2, proj_size=1)._flat_weights]
    x = minitorch.tensor(_floats(3, 2, 1, dtype=np.float64), requires_grad=True)
    h = minitorch.tensor(_floats(1, 2, 1, dtype=np.float64), requires_grad=True)
    c = minitorch.tensor(_floats(1, 2, 2, dtype=np.float64), requires_grad=True)

    def f(x, h, c, *weights):
        packed = rnn_utils.pack_padded_sequence(x, [3, 1])
        return minitorch.lstm(packed.data, packed.batch_sizes, (h, c), list(weights), True, 1, 0.0, False, False)

    assert gradgradcheck(f, (x, h, c, *weights))


def test_layer_errors_match_torch():
    nn = minitorch.nn
    cases = [
        (lambda lib: lib.nn.LSTM(3, 4)(lib.ones(2, 3, 3, 3)), ValueError,
         "LSTM: Expected input to be 2D or 3D, got 4D instead"),
        (lambda lib: lib.nn.RNN(3, 4)(lib.ones(2)), ValueError, "RNN: Expected input to be 2D or 3D, got 1D tensor instead"),
        (lambda lib: lib.nn.GRU(3, 4)(lib.ones(2, 2, 5)), RuntimeError,
         "input.size(-1) must be equal to input_size. Expected 3, got 5"),
        (lambda lib: lib.nn.GRU(3, 4)(lib.ones(2, 2, 3), lib.zeros(1, 3, 4)), RuntimeError,
         "Expected hidden size (1, 2, 4), got [1, 3, 4]"),
        (lambda lib: lib.nn.GRU(3, 4)(lib.ones(2, 2, 3), lib.zeros(2, 4)), RuntimeError,
         "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
        (lambda lib: lib.nn.LSTM(3, 4)(lib.ones(2, 3), (lib.zeros(1, 1, 4), lib.zeros(1, 4))), RuntimeError,
         "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) tensors"),
        (lambda lib: lib.nn.LSTM(3, 4)(lib.ones(2, 2, 3), (lib.zeros(1, 2, 4), lib.zeros(1, 2, 5))), RuntimeError,
         "Expected hidden[1] size (1, 2, 4), got [1, 2, 5]"),
        (lambda lib: lib.nn.LSTM(3, 4)(lib.ones(2, 2, 3, dtype=lib.float64)), ValueError,
         "RNN input dtype (minitorch.float64) does not match weight dtype (minitorch.float32). Convert input: "
         "input.to(minitorch.float32), or convert model: model.to(minitorch.float64)"),
        (lambda lib: lib.nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size has to be smaller than hidden_size"),
        (lambda lib: lib.nn.GRU(3, 4, proj_size=2), ValueError,
         "proj_size argument is only supported for LSTM, not RNN or GRU"),
        (lambda lib: lib.nn.RNN(3, 4, nonlinearity="gelu"), ValueError,
         "Unknown nonlinearity 'gelu'. Select from 'tanh' or 'relu'."),
        (lambda lib: lib.nn.LSTM(3, 4, dropout=1.5), ValueError,
         "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
        (lambda lib: lib.nn.LSTM(3, 0), ValueError, "hidden_size must be greater than zero"),
        (lambda lib: lib.nn.LSTM(3, 4, batch_first=1), TypeError, "batch_first should be of type bool, got: int"),
        (lambda lib: lib.nn.LSTMCell(3, 4)(lib.ones(2, 2, 3)), ValueError,
         "LSTMCell: Expected input to be 1D or 2D, got 3D instead"),
        (lambda lib: lib.nn.GRUCell(3, 4)(lib.ones(2, 3), lib.ones(1, 2, 4)), ValueError,
         "GRUCell: Expected hidden to be 1D or 2D, got 3D instead"),
    ]
    for fn, exc, msg in cases:
        check_error(fn, exc=exc, msg=msg)
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(2, 2, dropout=0.2)


# ---- nn.utils.rnn -----------------------------------------------------------------------------------------------
def _seqs(lib, lengths, grad=False):
    return [lib.tensor(np.arange(n * 2, dtype=np.float32).reshape(n, 2) + 10 * i, requires_grad=grad)
            for i, n in enumerate(lengths)]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_matches_torch(batch_first, side):
    def pad(lib, batch_first, side):
        return lib.nn.utils.rnn.pad_sequence(_seqs(lib, [2, 4, 1]), batch_first, -1.0, side).numpy()
    np.testing.assert_array_equal(pad(minitorch, batch_first, side), torch_answer(pad, batch_first, side))


def _round_trip(lib, lengths, batch_first, enforce_sorted):
    """pack_padded_sequence's fields, then pad_packed_sequence's padded tensor and lengths."""
    padded = lib.nn.utils.rnn.pad_sequence(_seqs(lib, lengths), batch_first)
    packed = lib.nn.utils.rnn.pack_padded_sequence(padded, lib.tensor(lengths), batch_first, enforce_sorted)
    again, lens = lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first, 7.0, total_length=5)
    return [t.numpy() for t in (*packed[:2], again, lens)] + [None if t is None else t.numpy() for t in packed[2:]]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("enforce_sorted", [False, True])
def test_pack_and_pad_round_trip_matches_torch(batch_first, enforce_sorted):
    args = ([4, 2, 2, 1] if enforce_sorted else [2, 4, 1, 2]), batch_first, enforce_sorted
    for a, b in zip(_round_trip(minitorch, *args), torch_answer(_round_trip, *args), strict=True):
        if b is None:
            assert a is None
        else:
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)


def _unpacked(lib):
    """A packed sequence's repr, and the sequences unpack_sequence and unpad_sequence give back."""
    packed = lib.nn.utils.rnn.pack_sequence(_seqs(lib, [1, 3, 2]), enforce_sorted=False)
    seqs = lib.nn.utils.rnn.unpack_sequence(packed)
    unpadded = lib.nn.utils.rnn.unpad_sequence(lib.nn.utils.rnn.pad_sequence(_seqs(lib, [1, 3])), lib.tensor([1, 3]))
    return repr(packed), [s.numpy() for s in seqs + unpadded]


def test_pack_sequence_unpack_unpad_and_packed_repr_match_torch():
    text, seqs = _unpacked(minitorch)
    their_text, their_seqs = torch_answer(_unpacked)
    assert text == their_text.replace("torch", "minitorch")
    for a, b in zip(seqs, their_seqs, strict=True):
        np.testing.assert_array_equal(a, b)
    packed = rnn_utils.pack_sequence(_seqs(minitorch, [1, 3, 2]), enforce_sorted=False)
    assert str(packed.double().data.dtype) == "minitorch.float64"


def test_packing_by_hand_and_invert_permutation():
    packed = rnn_utils.pack_sequence(_seqs(minitorch, [3, 1, 2]), enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.sorted_indices.tolist() == [0, 2, 1]
    assert packed.unsorted_indices.tolist() == [0, 2, 1]
    # time step 0: first rows of sequences 0, 2, 1; step 1: second rows of 0, 2; step 2: third row of 0
    assert packed.data[:, 0].tolist() == [0, 20, 10, 2, 22, 4]
    assert rnn_utils.invert_permutation(minitorch.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert rnn_utils.invert_permutation(None) is None


def test_pack_and_pad_pass_gradients():
    seqs = [minitorch.tensor(_floats(n, 2, dtype=np.float64), requires_grad=True) for n in (2, 3, 1)]

    def f(*seqs):
        packed = rnn_utils.pack_sequence(list(seqs), enforce_sorted=False)
        return rnn_utils.pad_packed_sequence(packed, batch_first=True, padding_value=2.0)[0]

    assert gradcheck(f, seqs)


def test_utils_errors_match_torch():
    cases = [
        (lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2), [1, 2]), RuntimeError,
         "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
         "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do "
         "not need ONNX exportability."),
        (lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2), [3, 0]), RuntimeError,
         "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"),
        (lambda lib: lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2), [3]), RuntimeError,
         "Expected `len(lengths)` to be equal to batch_size, but got 1 (batch_size=2)"),
        (lambda lib: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_sequence([lib.ones(3)]),
                                                          total_length=2), ValueError,
         "Expected total_length to be at least the length of the longest sequence in input, but got total_length=2 "
         "and max sequence length being 3"),
        (lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2)], padding_side="x"), RuntimeError,
         "Expected padding_side to be one of left or right, but got x."),
    ]
    for fn, exc, msg in cases:
        check_error(fn, exc=exc, msg=msg)


def output_nodes(lib, mode, batch_first, bidirectional, layout, dtype="float32", proj_size=0):
    """The grad_fn names of an RNN's output and final states (what they print), on a small input."""
    extra = {"proj_size": proj_size} if proj_size else {}
    rnn = getattr(lib.nn, mode)(3, 2, num_layers=2, bidirectional=bidirectional, batch_first=batch_first, **extra)
    rnn = rnn.to(getattr(lib, dtype))
    ones = lambda *shape: lib.ones(*shape, dtype=getattr(lib, dtype))  # noqa: E731
    if layout == "packed":
        x = lib.nn.utils.rnn.pack_sequence([ones(3, 3), ones(2, 3)])
    else:
        x = ones(4, 3) if layout == "unbatched" else ones(1, 4, 3) if batch_first else ones(4, 1, 3)
    out, state = rnn(x)
    states = state if isinstance(state, tuple) else (state,)
    return [type(t.grad_fn).__name__ for t in (out.data if layout == "packed" else out, *states)]


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("batch_first, bidirectional", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("layout", ["unbatched", "batched", "packed"])
def test_rnn_outputs_print_pytorchs_nodes(mode, batch_first, bidirectional, layout):
    args = (mode, batch_first, bidirectional, layout)
    assert output_nodes(minitorch, *args) == torch_answer(output_nodes, *args)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("dtype, proj_size", [("float64", 0), ("float32", 1)])
def test_lstm_outside_onednn_prints_the_native_nodes(batch_first, dtype, proj_size):
    args = ("LSTM", batch_first, False, "batched", dtype, proj_size)
    assert output_nodes(minitorch, *args) == torch_answer(output_nodes, *args)


def test_lstm_takes_its_state_as_a_list():
    minitorch.manual_seed(0)
    lstm = minitorch.nn.LSTM(3, 2)
    x, h0, c0 = minitorch.ones(4, 1, 3), minitorch.full((1, 1, 2), 0.5), minitorch.full((1, 1, 2), -0.5)
    out_list, (h_list, c_list) = lstm(x, [h0, c0])
    out_tuple, (h_tuple, c_tuple) = lstm(x, (h0, c0))
    assert minitorch.equal(out_list, out_tuple) and minitorch.equal(c_list, c_tuple)
    assert not minitorch.equal(out_list, lstm(x)[0])  # the state given was used


def test_the_onednn_layer_has_the_native_gradients():
    """A float32 LSTM's last layer runs as MkldnnRnnLayer (float64 does not): first and second derivatives agree."""
    def derivatives(dtype):
        minitorch.manual_seed(0)
        lstm = minitorch.nn.LSTM(3, 2, num_layers=2).to(dtype)
        x = (minitorch.arange(24.0, dtype=dtype).reshape(4, 2, 3) / 10).requires_grad_()
        out, (h, c) = lstm(x)
        loss = (out ** 2).sum() + (h * c).sum()
        gx, gw = minitorch.autograd.grad(loss, (x, lstm.weight_hh_l1), create_graph=True)
        ggx = minitorch.autograd.grad((gx ** 2).sum() + gw.sum(), x)[0]
        return [g.detach().double().numpy() for g in (gx, gw, ggx)], type(out.grad_fn).__name__

    (f32, node32), (f64, node64) = derivatives(minitorch.float32), derivatives(minitorch.float64)
    assert (node32, node64) == ("MkldnnRnnLayerBackward0", "StackBackward0")
    for a, b in zip(f32, f64):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("cell, kwargs", [("LSTMCell", {}), ("GRUCell", {}), ("RNNCell", {}),
                                          ("RNNCell", {"nonlinearity": "relu"})])
@pytest.mark.parametrize("batched", [True, False])
def test_rnn_cells_print_pytorchs_nodes(cell, kwargs, batched):
    def nodes(lib, cell, kwargs, batched):
        out = getattr(lib.nn, cell)(3, 2, **kwargs)(lib.ones(4, 3) if batched else lib.ones(3))
        return [t.grad_fn.name() for t in (out if isinstance(out, tuple) else (out,))]
    assert nodes(minitorch, cell, kwargs, batched) == torch_answer(nodes, cell, kwargs, batched)
