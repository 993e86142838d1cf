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

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="compares with torch")


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
def _copy_params(src, dst):
    """Load the torch module's state into the minitorch one (through numpy)."""
    dst.load_state_dict({k: mt.from_numpy(v.detach().numpy().copy()) for k, v in src.state_dict().items()})


def _run_both(th_module, mt_module, arrays, call, grad_inputs=True):
    """Call both modules on the same inputs, compare outputs, then backpropagate the same random weights and
    compare the gradients of the float inputs and of every parameter."""
    _copy_params(th_module, mt_module)
    assert list(mt_module.state_dict()) == list(th_module.state_dict())
    assert repr(mt_module) == repr(th_module)

    def tensors(lib):
        return [lib.from_numpy(a.copy()).requires_grad_(grad_inputs and a.dtype.kind == "f") for a in arrays]
    th_in, mt_in = tensors(torch), tensors(mt)
    th_out, mt_out = call(th_module, *th_in), call(mt_module, *mt_in)
    th_out = th_out if isinstance(th_out, tuple) else (th_out,)
    mt_out = mt_out if isinstance(mt_out, tuple) else (mt_out,)
    assert len(th_out) == len(mt_out)
    weights = []
    for t, m in zip(th_out, mt_out):
        if t is None:
            assert m is None
            continue
        np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), atol=2e-5, rtol=1e-4)
        weights.append(np.random.default_rng(len(weights)).standard_normal(tuple(t.shape)).astype(np.float32))
    pairs = [(t, m) for t, m in zip(th_out, mt_out) if t is not None]
    torch.autograd.backward([t for t, _ in pairs], [torch.from_numpy(w) for w in weights])
    mt.autograd.backward([m for _, m in pairs], [mt.from_numpy(w) for w in weights])
    for t, m in zip(th_in, mt_in):
        if t.requires_grad:
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), atol=1e-4, rtol=1e-3)
    mt_params = dict(mt_module.named_parameters())
    for name, p in th_module.named_parameters():
        assert (mt_params[name].grad is None) == (p.grad is None), name
        if p.grad is not None:
            np.testing.assert_allclose(mt_params[name].grad.numpy(), p.grad.numpy(), atol=1e-4, rtol=1e-3,
                                       err_msg=name)


L, S, N, E = 4, 5, 3, 8
KPM = bools((N, S))
KPM[:, 0] = False
ATTN = bools((L, S))
ATTN[:, 0] = False


@needs_torch
@pytest.mark.parametrize("kw", [{}, {"batch_first": True}, {"kdim": 3, "vdim": 5}, {"bias": False},
                                {"add_bias_kv": True, "add_zero_attn": True}, {"add_zero_attn": True, "kdim": 6}])
@pytest.mark.parametrize("call", ["plain", "kpm", "masks_no_weights", "masks_per_head", "float_masks", "causal"])
def test_multihead_attention_matches_torch(kw, call):
    torch.manual_seed(0)
    th = torch.nn.MultiheadAttention(E, 2, **kw)
    m = mt.nn.MultiheadAttention(E, 2, **kw)
    first = (lambda a, b: (b, a)) if kw.get("batch_first") else (lambda a, b: (a, b))
    arrays = [floats(first(L, N) + (E,)), floats(first(S, N) + (kw.get("kdim", E),)),
              floats(first(S, N) + (kw.get("vdim", E),))]
    fmask = np.where(ATTN, -np.inf, 0.0).astype(np.float32) + floats((L, S))
    extra = {
        "plain": lambda lib: {},
        "kpm": lambda lib: {"key_padding_mask": lib.from_numpy(KPM)},
        "masks_no_weights": lambda lib: {"key_padding_mask": lib.from_numpy(KPM), "attn_mask": lib.from_numpy(ATTN),
                                         "need_weights": False},
        "masks_per_head": lambda lib: {"key_padding_mask": lib.from_numpy(KPM), "average_attn_weights": False,
                                       "attn_mask": lib.from_numpy(np.repeat(ATTN[None], N * 2, 0))},
        "float_masks": lambda lib: {"key_padding_mask": lib.from_numpy(np.where(KPM, -np.inf, 0.0).astype(np.float32)),
                                    "attn_mask": lib.from_numpy(fmask)},
        "causal": lambda lib: {"attn_mask": lib.from_numpy(np.triu(np.full((L, S), -np.inf, np.float32), 1)),
                               "is_causal": True, "need_weights": False},
    }[call]
    _run_both(th, m, arrays, lambda mod, q, k, v: mod(q, k, v, **extra(torch if mod is th else mt)))


@needs_torch
@pytest.mark.parametrize("batch_first", [False, True])
def test_multihead_self_attention_and_unbatched_match_torch(batch_first):
    torch.manual_seed(1)
    th, m = torch.nn.MultiheadAttention(E, 4, batch_first=batch_first), mt.nn.MultiheadAttention(E, 4, batch_first=batch_first)
    _run_both(th, m, [floats((L, N, E))], lambda mod, x: mod(x, x, x))
    _run_both(th, m, [floats((L, E)), floats((S, E))], lambda mod, x, y: mod(x, y, y))

    def unbatched_masks(mod, x, y):
        lib = torch if isinstance(mod, torch.nn.Module) else mt
        return mod(x, y, y, key_padding_mask=lib.from_numpy(KPM[0]), attn_mask=lib.from_numpy(np.stack([ATTN] * 4)))
    _run_both(th, m, [floats((L, E)), floats((S, E))], unbatched_masks)


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


@needs_torch
@pytest.mark.parametrize("kw", [{}, {"norm_first": True, "activation": "gelu"}, {"batch_first": True, "bias": False},
                                {"activation": "relu", "layer_norm_eps": 1e-3}, {"dropout": 0.5, "eval": True}])
def test_transformer_layers_match_torch(kw):
    torch.manual_seed(0)
    kw = dict(kw)
    args, evaluate = (D, H, F, kw.pop("dropout", 0.0)), kw.pop("eval", False)
    shape = (N, L, D) if kw.get("batch_first") else (L, N, D)
    mshape = (N, S, D) if kw.get("batch_first") else (S, N, D)
    causal = np.triu(np.full((L, L), -np.inf, np.float32), 1)

    def enc_call(mod, x):
        lib = torch if isinstance(mod, torch.nn.Module) else mt
        padding = np.where(KPM[:, :L], -np.inf, 0.0).astype(np.float32)  # float, like the mask: no mismatch warning
        return mod(x, src_mask=lib.from_numpy(causal), src_key_padding_mask=lib.from_numpy(padding))
    layers = [(lib.nn.TransformerEncoderLayer(*args, **kw), lib.nn.TransformerDecoderLayer(*args, **kw)) for lib in (torch, mt)]
    for layer in (*layers[0], *layers[1]):
        layer.train(not evaluate)  # in eval mode dropout is off
    _run_both(layers[0][0], layers[1][0], [floats(shape)], enc_call)

    def dec_call(mod, x, memory):
        lib = torch if isinstance(mod, torch.nn.Module) else mt
        return mod(x, memory, tgt_mask=lib.from_numpy(causal), memory_key_padding_mask=lib.from_numpy(KPM),
                   tgt_is_causal=True)
    _run_both(layers[0][1], layers[1][1], [floats(shape), floats(mshape)], dec_call)


@needs_torch
@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.parametrize("batch_first", [False, True])
def test_transformer_model_matches_torch(batch_first):
    torch.manual_seed(0)
    kw = dict(d_model=D, nhead=H, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=F, dropout=0.0,
              batch_first=batch_first)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's nested-tensor notice
        th = torch.nn.Transformer(**kw)
    m = mt.nn.Transformer(**kw)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in th.named_parameters()]
    src = floats((N, S, D) if batch_first else (S, N, D))
    tgt = floats((N, L, D) if batch_first else (L, N, D))

    def call(mod, s, t):
        lib = torch if isinstance(mod, torch.nn.Module) else mt
        return mod(s, t, tgt_mask=mod.generate_square_subsequent_mask(L),
                   src_key_padding_mask=lib.from_numpy(KPM))
    _run_both(th, m, [src, tgt], call)


@needs_torch
@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
def test_transformer_encoder_stack_and_checks_match_torch():
    torch.manual_seed(0)
    with warnings.catch_warnings(record=True) as th_warns:
        warnings.simplefilter("always")
        th = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(D, H, F, 0.0), 2, torch.nn.LayerNorm(D))
    with warnings.catch_warnings(record=True) as mt_warns:
        warnings.simplefilter("always")
        m = mt.nn.TransformerEncoder(mt.nn.TransformerEncoderLayer(D, H, F, 0.0), 2, mt.nn.LayerNorm(D))
    assert [str(w.message) for w in mt_warns] == [str(w.message) for w in th_warns]
    assert m.use_nested_tensor is th.use_nested_tensor and m.mask_check
    _run_both(th, m, [floats((L, N, D))], lambda mod, x: mod(x, mask=mod.layers[0].self_attn.out_proj.weight.new_zeros(L, L)))
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


@needs_torch
@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
@pytest.mark.parametrize("padding", [[[False, False, True, True], [False] * 4], [[False, True, False, True], [False] * 4]])
def test_encoder_inference_with_padding_matches_torch(padding):
    # torch runs this on nested tensors (padded positions come back as zeros) when the padding is left aligned
    torch.manual_seed(0)
    th = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(D, H, F, dropout=0.5, batch_first=True), 2)
    m = mt.nn.TransformerEncoder(mt.nn.TransformerEncoderLayer(D, H, F, dropout=0.5, batch_first=True), 2)
    _copy_params(th, m)
    th.eval(), m.eval()
    x = floats((2, 4, D))
    with torch.no_grad():
        expected = th(torch.from_numpy(x), src_key_padding_mask=torch.tensor(padding)).numpy()
    with mt.no_grad():
        got = m(mt.from_numpy(x), src_key_padding_mask=mt.tensor(padding)).numpy()
    np.testing.assert_allclose(got, expected, atol=2e-5, rtol=1e-4)
