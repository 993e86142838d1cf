"""Attention vs PyTorch: F.scaled_dot_product_attention, F.multi_head_attention_forward, nn.MultiheadAttention and
the Transformer modules (outputs, attention weights, gradients of inputs and of every parameter, state_dict keys,
repr), gradchecks in float64 with masks and causal attention, and dropout by its statistics."""
import math
import warnings

import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import bools, check_error, floats, helper_test_op
from torch_answers import fingerprint, torch_answer


def sdpa(m, *a, **kw):
    return m.nn.functional.scaled_dot_product_attention(*a, **kw)


# ---- scaled_dot_product_attention -----------------------------------------------------------------------------
MASK_LS = bools((4, 6))
MASK_LS[1] = False  # a query that attends to nothing: zeros, as torch


@pytest.mark.parametrize("shapes, kw", [
    (((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)), {}),
    (((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)), {"is_causal": True}),
    (((2, 3, 6, 5), (2, 3, 4, 5), (2, 3, 4, 7)), {"is_causal": True, "scale": 0.3}),
    (((4, 5), (6, 5), (6, 7)), {"scale": 2.0}),
    (((3, 4, 5), (1, 6, 5), (3, 6, 7)), {}),
    (((2, 4, 3, 5), (2, 2, 6, 5), (2, 2, 6, 7)), {"enable_gqa": True}),
])
def test_sdpa_matches_torch(shapes, kw):
    helper_test_op(shapes, lambda m, q, k, v: sdpa(m, q, k, v, **kw), check_node=False)


@pytest.mark.parametrize("mask", [MASK_LS, floats((4, 6)), np.where(MASK_LS, 0.0, -np.inf).astype(np.float32),
                                  bools((2, 1, 4, 6))])
def test_sdpa_masks_match_torch(mask):
    # a float mask requires grad: its gradient is the scores' gradient, summed over the broadcast dims
    helper_test_op([(2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), mask], sdpa, check_node=False)


def test_sdpa_errors():
    call = sdpa
    check_error(lambda m, q, k, v: call(m, q, k.double(), v), (1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 6),
                exc=RuntimeError, msg="Expected query, key, and value to have the same dtype, but got query.dtype: "
                "float key.dtype: double and value.dtype: float instead.")
    check_error(call, (4,), (4,), (4,), exc=RuntimeError)
    check_error(lambda m, q: call(m, q.long(), q.long(), q.long()), (1, 2, 3, 4), exc=RuntimeError,
                msg="expected scalar type Float but found Long")
    check_error(lambda m, q, k, v, a: call(m, q, k, v, attn_mask=a, is_causal=True), (1, 3, 4), (1, 5, 4),
                (1, 5, 6), MASK_LS[:3, :5], exc=RuntimeError)
    check_error(lambda m, q, k, v, a: call(m, q, k, v, attn_mask=a.double()), (1, 3, 4), (1, 5, 4), (1, 5, 6),
                (3, 5), exc=RuntimeError)
    check_error(call, (1, 2, 3, 4), (1, 2, 5, 3), (1, 2, 5, 6), exc=RuntimeError,
                msg="Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 3].")
    check_error(call, (1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 4, 6), exc=RuntimeError)
    check_error(lambda m, q: call(m, q, q, q, dropout_p=1.5), (1, 2, 3, 4), exc=RuntimeError,
                msg="dropout probability has to be between 0 and 1, but got 1.5")
    check_error(lambda m, q: call(m, q, q, q, dropout_p=-0.1), (1, 2, 3, 4), exc=RuntimeError)
    check_error(lambda m, q, k, v: call(m, q, k, v, enable_gqa=True), (1, 3, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4),
                exc=RuntimeError)


def _f64(*shape, seed):
    return mt.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=mt.float64, requires_grad=True)


@pytest.mark.parametrize("case", ["causal", "bool_mask", "float_mask", "gqa"])
def test_sdpa_gradcheck_and_gradgradcheck(case):
    q, k, v = _f64(1, 2, 3, 2, seed=0), _f64(1, 2, 4, 2, seed=1), _f64(1, 2, 4, 3, seed=2)
    inputs, kw = (q, k, v), {}
    if case == "causal":
        kw = {"is_causal": True}
    elif case == "bool_mask":
        kw = {"attn_mask": mt.tensor(MASK_LS[:3, :4])}  # with a row that attends to nothing
    elif case == "float_mask":
        inputs += (_f64(3, 4, seed=3),)
    else:
        inputs, kw = (q, _f64(1, 1, 4, 2, seed=1), _f64(1, 1, 4, 3, seed=2)), {"enable_gqa": True, "scale": 0.7}

    def fn(*a):
        return mt.nn.functional.scaled_dot_product_attention(*a, **kw)
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


def test_sdpa_dropout_gradients():
    # reseeding before each call draws the same dropout mask, so the function is deterministic for gradcheck
    def fn(q, k, v):
        mt.manual_seed(0)
        return mt.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    inputs = (_f64(2, 3, 2, seed=0), _f64(2, 4, 2, seed=1), _f64(2, 4, 3, seed=2))
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("need_weights", [False, True])
def test_attention_gradients_with_create_graph_match_first_order(need_weights):
    # backward under create_graph recomputes the weights with ops: it must give the same first derivatives
    mt.manual_seed(0)
    m = mt.nn.MultiheadAttention(4, 2, dropout=0.0, dtype=mt.float64)
    x, mem = _f64(3, 2, 4, seed=0), _f64(5, 2, 4, seed=1)
    padding = mt.tensor([[False, False, False, True, True], [False] * 5])
    out, weights = m(x, mem, mem, key_padding_mask=padding, need_weights=need_weights)
    loss = (out * _f64(3, 2, 4, seed=2)).sum() + (0 if weights is None else (weights * _f64(2, 3, 5, seed=3)).sum())
    params = [x, mem, *m.parameters()]
    plain = mt.autograd.grad(loss, params, retain_graph=True)
    graph = mt.autograd.grad(loss, params, create_graph=True)
    for a, b in zip(plain, graph):
        np.testing.assert_allclose(b.detach().numpy(), a.numpy(), rtol=1e-10, atol=1e-12)


def test_sdpa_dropout_rate_and_scaling():
    # with value = identity the output is the dropped-out weights: zeros at rate p, the rest scaled by 1 / (1 - p)
    mt.manual_seed(0)
    q, k = mt.randn(8, 4, 64, 16), mt.randn(8, 4, 64, 16)
    eye = mt.eye(64).expand(8, 4, 64, 64)
    out = mt.nn.functional.scaled_dot_product_attention(q, k, eye, dropout_p=0.3).numpy()
    ref = mt.nn.functional.scaled_dot_product_attention(q, k, eye).numpy()
    dropped = out == 0
    assert abs(dropped.mean() - 0.3) < 0.01
    np.testing.assert_allclose(out[~dropped], ref[~dropped] / 0.7, rtol=1e-5)
    mt.manual_seed(0)
    q, k = mt.randn(8, 4, 64, 16), mt.randn(8, 4, 64, 16)
    again = mt.nn.functional.scaled_dot_product_attention(q, k, eye, dropout_p=0.3).numpy()
    np.testing.assert_array_equal(again, out)  # the masks come from minitorch's generator


def test_sdpa_is_numerically_stable():
    q = mt.tensor([[[1000.0, 0.0], [-1000.0, 0.0]]])
    out = mt.nn.functional.scaled_dot_product_attention(q, q, mt.tensor([[[1.0], [2.0]]]), scale=1.0)
    np.testing.assert_allclose(out.numpy(), [[[1.0], [2.0]]])


# ---- MultiheadAttention ------------------------------------------------------------------------------------------
def _module_run(lib, seed, make, arrays, call, grad_inputs):
    """The module ``make(lib)`` built after ``manual_seed(seed)`` (its state_dict keys, repr and parameters'
    fingerprint), the outputs of ``call(lib, module, *inputs)``, and after backpropagating fixed random weights of
    them, the gradients of the float inputs and of every parameter."""
    lib.manual_seed(seed)
    module = make(lib)
    facts = (list(module.state_dict()), repr(module), fingerprint(*[p.detach() for p in module.parameters()]))
    inputs = [lib.from_numpy(a.copy()).requires_grad_(grad_inputs and a.dtype.kind == "f") for a in arrays]
    out = call(lib, module, *inputs)
    out = out if isinstance(out, tuple) else (out,)
    present = [o for o in out if o is not None]
    weights = [np.random.default_rng(i).standard_normal(tuple(o.shape)).astype(np.float32) for i, o in
               enumerate(present)]
    lib.autograd.backward(present, [lib.from_numpy(w) for w in weights])
    return (facts, [None if o is None else o.detach().numpy() for o in out],
            [x.grad.numpy() if x.requires_grad else None for x in inputs],
            {n: None if q.grad is None else q.grad.numpy() for n, q in module.named_parameters()})


def _run_both(seed, make, arrays, call, grad_inputs=True):
    """Build the module after the same seed on minitorch and torch, call both on the same inputs, compare the
    modules, the outputs, and the gradients of the float inputs and of every parameter (see ``_module_run``)."""
    facts, outs, grads, params = _module_run(mt, seed, make, arrays, call, grad_inputs)
    their_facts, their_outs, their_grads, their_params = torch_answer(_module_run, seed, make, arrays, call,
                                                                      grad_inputs)
    assert facts == their_facts
    assert len(outs) == len(their_outs)
    for m, t in zip(outs, their_outs):
        assert (m is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(m, t, atol=2e-5, rtol=1e-4)
    for m, t in zip(grads, their_grads, strict=True):
        assert (m is None) == (t is None)
        if t is not None:
            np.testing.assert_allclose(m, t, atol=1e-4, rtol=1e-3)
    assert list(params) == list(their_params)
    for name, t in their_params.items():
        assert (params[name] is None) == (t is None), name
        if t is not None:
            np.testing.assert_allclose(params[name], t, atol=1e-4, rtol=1e-3, err_msg=name)


L, S, N, E = 4, 5, 3, 8
KPM = bools((N, S))
KPM[:, 0] = False
ATTN = bools((L, S))
ATTN[:, 0] = False
FMASK = np.where(ATTN, -np.inf, 0.0).astype(np.float32) + floats((L, S))


EXTRA = {  # call: the keyword arguments of MultiheadAttention's forward
    "plain": lambda lib: {},
    "kpm": lambda lib: {"key_padding_mask": lib.from_numpy(KPM)},
    "masks_no_weights": lambda lib: {"key_padding_mask": lib.from_numpy(KPM), "attn_mask": lib.from_numpy(ATTN),
                                     "need_weights": False},
    "masks_per_head": lambda lib: {"key_padding_mask": lib.from_numpy(KPM), "average_attn_weights": False,
                                   "attn_mask": lib.from_numpy(np.repeat(ATTN[None], N * 2, 0))},
    "float_masks": lambda lib: {"key_padding_mask": lib.from_numpy(np.where(KPM, -np.inf, 0.0).astype(np.float32)),
                                "attn_mask": lib.from_numpy(FMASK)},
    "causal": lambda lib: {"attn_mask": lib.from_numpy(np.triu(np.full((L, S), -np.inf, np.float32), 1)),
                           "is_causal": True, "need_weights": False},
}


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"kdim": 3, "vdim": 5}, {"bias": False},
                                {"add_bias_kv": True, "add_zero_attn": True}, {"add_zero_attn": True, "kdim": 6}])
@pytest.mark.parametrize("call", list(EXTRA))
def test_multihead_attention_matches_torch(kw, call):
    first = (lambda a, b: (b, a)) if kw.get("batch_first") else (lambda a, b: (a, b))
    arrays = [floats(first(L, N) + (E,)), floats(first(S, N) + (kw.get("kdim", E),)),
              floats(first(S, N) + (kw.get("vdim", E),))]
    _run_both(0, lambda lib: lib.nn.MultiheadAttention(E, 2, **kw), arrays,
              lambda lib, mod, q, k, v: mod(q, k, v, **EXTRA[call](lib)))


@pytest.mark.parametrize("batch_first", [False, True])
def test_multihead_self_attention_and_unbatched_match_torch(batch_first):
    def make(lib):
        return lib.nn.MultiheadAttention(E, 4, batch_first=batch_first)
    _run_both(1, make, [floats((L, N, E))], lambda lib, mod, x: mod(x, x, x))
    _run_both(1, make, [floats((L, E)), floats((S, E))], lambda lib, mod, x, y: mod(x, y, y))

    def unbatched_masks(lib, mod, x, y):
        return mod(x, y, y, key_padding_mask=lib.from_numpy(KPM[0]), attn_mask=lib.from_numpy(np.stack([ATTN] * 4)))
    _run_both(1, make, [floats((L, E)), floats((S, E))], unbatched_masks)


def test_multihead_attention_parameters_and_init():
    mt.manual_seed(0)
    m = mt.nn.MultiheadAttention(16, 4, add_bias_kv=True)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [
        ("in_proj_weight", (48, 16)), ("in_proj_bias", (48,)), ("bias_k", (1, 1, 16)), ("bias_v", (1, 1, 16)),
        ("out_proj.weight", (16, 16)), ("out_proj.bias", (16,))]
    bound = math.sqrt(6 / (48 + 16))  # xavier_uniform_ on the packed (3E, E) weight, as torch
    w = m.in_proj_weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert not m.in_proj_bias.detach().numpy().any() and not m.out_proj.bias.detach().numpy().any()
    assert type(m.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    sep = mt.nn.MultiheadAttention(16, 4, kdim=8, vdim=4, bias=False)
    assert [(n, tuple(p.shape)) for n, p in sep.named_parameters()] == [
        ("q_proj_weight", (16, 16)), ("k_proj_weight", (16, 8)), ("v_proj_weight", (16, 4)),
        ("out_proj.weight", (16, 16))]
    assert sep.in_proj_weight is None and sep.in_proj_bias is None
    assert mt.nn.modules.activation.MultiheadAttention is mt.nn.MultiheadAttention


def test_multihead_attention_errors():
    check_error(lambda m: m.nn.MultiheadAttention(10, 3), exc=AssertionError, msg="embed_dim must be divisible by num_heads")
    check_error(lambda m: m.nn.MultiheadAttention(0, 3), exc=ValueError)

    def call(kind):
        def run(m, x):
            mod = m.nn.MultiheadAttention(4, 2)
            mask = {"int": x.long(), "causal": None}[kind]
            if kind == "int":
                return mod(x, x, x, attn_mask=mask)
            return mod(x, x, x, is_causal=True)
        return run
    check_error(call("int"), (3, 2, 4), exc=AssertionError, msg="only bool and floating types of attn_mask are supported")
    check_error(call("causal"), (3, 2, 4), exc=RuntimeError)
    check_error(lambda m, x: m.nn.MultiheadAttention(4, 2)(x, x, x, attn_mask=m.zeros(3, 2)), (3, 2, 4),
                exc=RuntimeError, msg="The shape of the 2D attn_mask is minitorch.Size([3, 2]), but should be (3, 3).")
    check_error(lambda m, x: m.nn.MultiheadAttention(4, 2)(x, x[..., :3], x), (3, 2, 4), exc=AssertionError)


def test_mismatched_mask_types_warn_as_torch():
    m = mt.nn.MultiheadAttention(4, 2)
    x = mt.randn(3, 2, 4)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"):
        m(x, x, x, key_padding_mask=mt.zeros(2, 3, dtype=mt.bool), attn_mask=mt.zeros(3, 3))


# ---- Transformer ------------------------------------------------------------------------------------------------
D, H, F = 8, 2, 16


@pytest.mark.parametrize("kw", [{}, {"norm_first": True, "activation": "gelu"}, {"batch_first": True, "bias": False},
                                {"activation": "relu", "layer_norm_eps": 1e-3}, {"dropout": 0.5, "eval": True}])
def test_transformer_layers_match_torch(kw):
    kw = dict(kw)
    args, evaluate = (D, H, F, kw.pop("dropout", 0.0)), kw.pop("eval", False)
    shape = (N, L, D) if kw.get("batch_first") else (L, N, D)
    mshape = (N, S, D) if kw.get("batch_first") else (S, N, D)
    causal = np.triu(np.full((L, L), -np.inf, np.float32), 1)

    def layer(kind):
        return lambda lib: getattr(lib.nn, kind)(*args, **kw).train(not evaluate)  # in eval mode dropout is off

    def enc_call(lib, mod, x):
        padding = np.where(KPM[:, :L], -np.inf, 0.0).astype(np.float32)  # float, like the mask: no mismatch warning
        return mod(x, src_mask=lib.from_numpy(causal), src_key_padding_mask=lib.from_numpy(padding))
    _run_both(0, layer("TransformerEncoderLayer"), [floats(shape)], enc_call)

    def dec_call(lib, mod, x, memory):
        return mod(x, memory, tgt_mask=lib.from_numpy(causal), memory_key_padding_mask=lib.from_numpy(KPM),
                   tgt_is_causal=True)
    _run_both(0, layer("TransformerDecoderLayer"), [floats(shape), floats(mshape)], dec_call)


def _quietly(make):
    def quiet(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch's nested-tensor notice
            return make(lib)
    return quiet


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer_model_matches_torch(batch_first):
    kw = dict(d_model=D, nhead=H, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=F, dropout=0.0,
              batch_first=batch_first)
    src = floats((N, S, D) if batch_first else (S, N, D))
    tgt = floats((N, L, D) if batch_first else (L, N, D))

    def call(lib, mod, s, t):
        return mod(s, t, tgt_mask=mod.generate_square_subsequent_mask(L), src_key_padding_mask=lib.from_numpy(KPM))
    _run_both(0, _quietly(lambda lib: lib.nn.Transformer(**kw)), [src, tgt], call)


def _encoder_stack_warnings(lib):
    """The warnings building a TransformerEncoder gives, and its use_nested_tensor."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        encoder = lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(D, H, F, 0.0), 2, lib.nn.LayerNorm(D))
    return [str(w.message) for w in caught], encoder.use_nested_tensor


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
def test_transformer_encoder_stack_and_checks_match_torch():
    messages, nested = _encoder_stack_warnings(mt)
    assert (messages, nested) == torch_answer(_encoder_stack_warnings)
    assert mt.nn.TransformerEncoder(mt.nn.TransformerEncoderLayer(D, H, F, 0.0), 2).mask_check
    _run_both(0, _quietly(lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(D, H, F, 0.0), 2,
                                                                lib.nn.LayerNorm(D))),
              [floats((L, N, D))], lambda lib, mod, x: mod(x, mask=mod.layers[0].self_attn.out_proj.weight.new_zeros(L, L)))
    check_error(lambda lib, s, t: lib.nn.Transformer(D, H, 1, 1, F)(s, t), (S, N, D), (L, N + 1, D),
                exc=RuntimeError, msg="the batch number of src and tgt must be equal")
    check_error(lambda lib: lib.nn.TransformerEncoderLayer(D, H, activation="tanh"), exc=RuntimeError,
                msg="activation should be relu/gelu, not tanh")


def test_generate_square_subsequent_mask():
    mask = mt.nn.Transformer.generate_square_subsequent_mask(3)
    expected = [[0.0, -np.inf, -np.inf], [0.0, 0.0, -np.inf], [0.0, 0.0, 0.0]]
    np.testing.assert_array_equal(mask.numpy(), expected)
    assert mask.dtype == mt.float32
    assert mt.nn.Transformer.generate_square_subsequent_mask(2, dtype=mt.float64).dtype == mt.float64


def test_transformer_layer_gradcheck_float64():
    mt.manual_seed(0)
    layer = mt.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True, dtype=mt.float64)
    x = _f64(3, 2, 4, seed=0)
    mask = mt.nn.Transformer.generate_square_subsequent_mask(3, dtype=mt.float64)
    assert gradcheck(lambda t: layer(t, src_mask=mask, is_causal=True), (x,))


def _encoder_inference(lib, x, padding):
    """An eval-mode TransformerEncoder (built after manual_seed(0)) on ``x`` without grad, with a padding mask."""
    lib.manual_seed(0)
    encoder = lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(D, H, F, dropout=0.5, batch_first=True), 2)
    encoder.eval()
    with lib.no_grad():
        return encoder(lib.from_numpy(x), src_key_padding_mask=lib.tensor(padding)).numpy()


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
@pytest.mark.parametrize("padding", [[[False, False, True, True], [False] * 4], [[False, True, False, True], [False] * 4]])
def test_encoder_inference_with_padding_matches_torch(padding):
    # torch runs this on nested tensors (padded positions come back as zeros) when the padding is left aligned
    x = floats((2, 4, D))
    np.testing.assert_allclose(_encoder_inference(mt, x, padding), torch_answer(_encoder_inference, x, padding),
                               atol=2e-5, rtol=1e-4)
