"""nn.Buffer and the uninitialized (lazy) parameters, the torch.* forms of the nn ops
with ATen's signatures, the dropout family, RReLU, channel shuffle, pdist, gumbel_softmax, the margin losses,
embedding_bag, CTC loss and the adaptive softmax. Differential against torch where it is installed (values,
dtypes, gradients, errors, module reprs and state_dict keys); hand-derived values and properties otherwise."""
import math

import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as MF
from minitorch.autograd import gradcheck
from op_helper import check_error, check_module_facts, floats, helper_test_op, ints
from torch_answers import torch_answer


def F(lib):
    return lib.nn.functional


def _idx(lib, values):
    return lib.tensor(np.asarray(values, np.int64))


# ---- parameters and buffers -----------------------------------------------------------------------------------------
def test_buffer_registers_itself_with_its_persistence():
    nn = minitorch.nn
    m = nn.Module()
    m.kept = nn.Buffer(minitorch.ones(2))
    m.scratch = nn.Buffer(minitorch.zeros(3), persistent=False)
    m.plain = minitorch.ones(1)
    assert [n for n, _ in m.named_buffers()] == ["kept", "scratch"]
    assert list(m.state_dict()) == ["kept"]
    assert isinstance(m.kept, nn.Buffer) and not isinstance(m.plain, nn.Buffer)
    assert type(m.kept) is minitorch.Tensor and not m.kept.requires_grad
    assert nn.Buffer().shape == (0,)
    with pytest.raises(KeyError, match="attribute 'plain' already exists"):
        m.plain = nn.Buffer(minitorch.ones(1))


def test_uninitialized_parameter_and_buffer_materialize():
    nn = minitorch.nn
    p = nn.UninitializedParameter()
    assert repr(p) == "<UninitializedParameter>" and p.requires_grad and nn.parameter.is_lazy(p)
    with pytest.raises(RuntimeError, match="^Can't access the shape of an uninitialized parameter or buffer"):
        p.shape
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and tuple(p.shape) == (2, 3) and p.requires_grad and p.dtype == minitorch.float32
    assert not nn.parameter.is_lazy(p)
    b = nn.UninitializedBuffer(dtype=minitorch.float64, persistent=False)
    assert repr(b) == "<UninitializedBuffer>" and not b.requires_grad and not b.persistent
    b.materialize(4)
    assert type(b) is minitorch.Tensor and tuple(b.shape) == (4,) and b.dtype == minitorch.float64


def test_factory_kwargs_and_container():
    nn = minitorch.nn
    assert nn.factory_kwargs(None) == {}
    assert nn.factory_kwargs({"dtype": minitorch.float64, "factory_kwargs": {"device": "cpu"}}) == \
        {"dtype": minitorch.float64, "device": "cpu"}
    with pytest.raises(TypeError, match="unexpected kwargs"):
        nn.factory_kwargs({"bias": True})
    with pytest.raises(TypeError, match="^dtype specified twice, in \\*\\*kwargs and in factory_kwargs$"):
        nn.factory_kwargs({"dtype": 1, "factory_kwargs": {"dtype": 2}})
    with pytest.warns(FutureWarning, match="nn.Container` is deprecated"):
        c = nn.Container(act=nn.ReLU())
    assert repr(c) == "Container(\n  (act): ReLU()\n)"


# ---- torch.* forms with ATen's signatures -----------------------------------------------------------------------------
TOP = {
    "batch_norm": ([(4, 3, 2), (3,), (3,)],
                   lambda lib, x, w, b: lib.batch_norm(x, w, b, None, None, True, 0.1, 1e-5, False)),
    "native_batch_norm": ([(4, 3, 2), (3,), (3,)],
                          lambda lib, x, w, b: lib.native_batch_norm(x, w, b, None, None, True, 0.1, 1e-5)),
    "layer_norm": ([(3, 4, 5), (4, 5)], lambda lib, x, w: lib.layer_norm(x, (4, 5), w, None, 1e-3)),
    "native_layer_norm": ([(3, 4, 5), (5,), (5,)], lambda lib, x, w, b: lib.native_layer_norm(x, [5], w, b, 1e-5)),
    "group_norm": ([(2, 6, 3), (6,), (6,)], lambda lib, x, w, b: lib.group_norm(x, 3, w, b)),
    "native_group_norm": ([(2, 6, 3)], lambda lib, x: lib.native_group_norm(x, None, None, 2, 6, 3, 2, 1e-5)),
    "instance_norm": ([(2, 3, 5)], lambda lib, x: lib.instance_norm(x, None, None, None, None, True, 0.1, 1e-5,
                                                                    False)),
    "rms_norm": ([(3, 5), (5,)], lambda lib, x, w: lib.rms_norm(x, [5], w, 1e-6)),
    "norm_except_dim": ([(3, 4, 2)], lambda lib, x: (lib.norm_except_dim(x, 2, 1), lib.norm_except_dim(x, 3, 0),
                                                     lib.norm_except_dim(x, 2, -1))),
    "celu": ([(3, 5)], lambda lib, x: lib.celu(x, 0.7)),
    "celu_": ([(3, 5)], lambda lib, x: lib.celu_(x * 1, 0.7)),
    "selu": ([(3, 5)], lambda lib, x: lib.selu(x)),
    "selu_": ([(3, 5)], lambda lib, x: lib.selu_(x * 1)),
    "threshold": ([(3, 5)], lambda lib, x: lib.threshold(x, 0.3, -2.0)),
    "threshold_": ([(3, 5)], lambda lib, x: lib.threshold_(x * 1, 0.3, -2.0)),
    "rrelu_eval": ([(3, 5)], lambda lib, x: lib.rrelu(x, 0.2, 0.4)),
    "hardshrink_method": ([(3, 5)], lambda lib, x: x.hardshrink(0.8)),
    "prelu_method": ([(2, 3, 4), (3,)], lambda lib, x, w: x.prelu(w)),
    "pixel_shuffle": ([(1, 8, 2, 3)], lambda lib, x: lib.pixel_shuffle(x, 2)),
    "channel_shuffle": ([(2, 6, 2, 2)], lambda lib, x: lib.channel_shuffle(x, 3)),
    "cosine_similarity": ([(3, 4), (3, 4)], lambda lib, a, b: lib.cosine_similarity(a, b, 0)),
    "pairwise_distance": ([(3, 4), (3, 4)], lambda lib, a, b: lib.pairwise_distance(a, b, 1.5, 1e-6, True)),
    "pdist": ([(5, 3)], lambda lib, x: (lib.pdist(x), lib.pdist(x, 1.0), lib.pdist(x, 3.0))),
    "bilinear": ([(2, 3), (2, 4), (5, 3, 4)], lambda lib, a, b, w: lib.bilinear(a, b, w)),
    "embedding": ([(5, 3)], lambda lib, w: (lib.embedding(w, _idx(lib, [[0, 2], [4, 2]]), 2),
                                            lib.embedding(w, _idx(lib, [1, 1])))),
    "bce_with_logits": ([(3, 4), (3, 4)],
                        lambda lib, a, t: lib.binary_cross_entropy_with_logits(a, t.sigmoid(), None, None, 0)),
    "cosine_embedding_loss": ([(3, 4), (3, 4)], lambda lib, a, b: lib.cosine_embedding_loss(
        a, b, lib.tensor([1.0, -1.0, 1.0]), 0.2, 2)),
    "hinge_embedding_loss": ([(6,)], lambda lib, a: (lib.hinge_embedding_loss(a, lib.tensor(PM1), 0.5),
                                                     lib.hinge_embedding_loss(a, lib.tensor(PM1), 0.5, 1))),
    "kl_div": ([(3, 4), (3, 4)], lambda lib, a, t: (lib.kl_div(a, t.softmax(1)), lib.kl_div(a, t, 2, log_target=True))),
    "margin_ranking_loss": ([(6,), (6,)], lambda lib, a, b: lib.margin_ranking_loss(a, b, lib.tensor(PM1), 0.3, 0)),
    "poisson_nll_loss": ([(3, 4)], lambda lib, a: lib.poisson_nll_loss(a, a.detach().exp() + 1, True, True, 1e-8, 2)),
    "triplet_margin_loss": ([(3, 4), (3, 4), (3, 4)],
                            lambda lib, a, p, n: lib.triplet_margin_loss(a, p, n, 2.0, 1.0, 1e-6, True, 0)),
}
PM1 = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0], np.float32)


@pytest.mark.parametrize("name", sorted(TOP))
def test_top_level_form_matches_torch(name):
    inputs, fn = TOP[name]
    helper_test_op(inputs, fn, check_node=False)


def test_native_channel_shuffle_values_match_torch():  # torch records no derivative for it; minitorch's has one
    helper_test_op([(2, 6, 2)], lambda lib, x: (lib.native_channel_shuffle(x, 2), F(lib).native_channel_shuffle(x, 3)),
                   grad=False)


def test_native_batch_norm_in_eval_returns_empty_statistics_and_uses_running_ones():
    x = minitorch.tensor(floats((4, 3, 2)))
    rm, rv = minitorch.tensor([0.5, -1.0, 0.0]), minitorch.tensor([4.0, 1.0, 0.25])
    out, mean, rstd = minitorch.native_batch_norm(x, None, None, rm, rv, False, 0.1, 0.0)
    assert tuple(mean.shape) == (0,) and tuple(rstd.shape) == (0,)
    expected = (x.numpy() - rm.numpy()[:, None]) / np.sqrt(rv.numpy())[:, None]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


# ---- dropout family ---------------------------------------------------------------------------------------------------
ALPHA = 1.7580993408473766


def test_alpha_dropout_is_the_affine_map_of_its_mask():
    p = 0.3
    # inputs away from -alpha, where a kept value would equal the dropped one
    x = minitorch.tensor(np.random.default_rng(0).uniform(-1.0, 2.0, (40, 50)).astype(np.float32), requires_grad=True)
    minitorch.manual_seed(1)
    out = MF.alpha_dropout(x, p, training=True)
    a = 1 / math.sqrt((ALPHA ** 2 * p + 1) * (1 - p))
    kept = np.isclose(out.detach().numpy(), a * x.detach().numpy() + ALPHA * a * p, atol=1e-6)
    dropped = np.isclose(out.detach().numpy(), ALPHA * a * (p - 1), atol=1e-6)
    assert (kept | dropped).all() and 0.2 < dropped.mean() < 0.4
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.where(dropped, 0.0, a), atol=1e-6)


def test_alpha_dropout_keeps_selu_statistics():
    minitorch.manual_seed(0)
    x = minitorch.randn(200000)
    out = MF.alpha_dropout(x, 0.2, training=True)
    assert abs(out.mean().item()) < 0.02 and abs(out.std().item() - 1.0) < 0.02


def test_feature_dropouts_zero_whole_channels():
    minitorch.manual_seed(2)
    x = minitorch.ones(8, 6, 5)
    for out in (MF.dropout1d(x, 0.5), minitorch.feature_dropout(x, 0.5, True),
                MF.dropout3d(minitorch.ones(8, 6, 2, 2, 2), 0.5).reshape(8, 6, 8)):
        per_channel = out.numpy().reshape(48, -1)
        assert set(np.unique(per_channel)) == {0.0, 2.0}
        assert (per_channel == per_channel[:, :1]).all()
    fa = MF.feature_alpha_dropout(x, 0.5, training=True).numpy().reshape(48, -1)
    assert (fa == fa[:, :1]).all() and len(np.unique(fa)) == 2
    unbatched = MF.dropout1d(minitorch.ones(6, 5), 0.5).numpy()
    assert (unbatched == unbatched[:, :1]).all()


def test_dropouts_in_eval_and_at_the_extremes():
    x = minitorch.tensor(floats((3, 4)))
    for fn in (MF.alpha_dropout, MF.feature_alpha_dropout):
        assert fn(x, 0.5) is x  # training defaults to False
    assert minitorch.dropout(x, 0.5, False) is x
    assert not minitorch.alpha_dropout(x, 1.0, True).numpy().any()
    y = x.clone()
    assert minitorch.dropout_(y, 1.0, True) is y and not y.numpy().any()
    out, mask = minitorch.native_dropout(x, 0.5, False)
    assert mask.dtype == minitorch.bool and mask.numpy().all() and np.array_equal(out.numpy(), x.numpy())
    minitorch.manual_seed(0)
    out, mask = minitorch.native_dropout(x, 0.25, True)
    np.testing.assert_allclose(out.numpy(), x.numpy() * mask.numpy() / 0.75, rtol=1e-6)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda lib, x: lib.dropout(x, 1.5, True), RuntimeError, "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda lib, x: F(lib).alpha_dropout(x, -0.1), ValueError,
     "dropout probability has to be between 0 and 1, but got -0.1"),
    (lambda lib, x: lib.feature_alpha_dropout(x[0], 0.5, True), RuntimeError,
     "Feature dropout requires at least 2 dimensions in the input"),
    (lambda lib, x: F(lib).dropout1d(x.reshape(1, 1, 3, 4), 0.5), RuntimeError, None),
    (lambda lib, x: lib.rrelu(x, 0.5, 0.1), RuntimeError, "Lower bound should be less than or equal to the upper bound"),
])
def test_dropout_and_rrelu_errors(call, exc, msg):
    check_error(call, (3, 4), exc=exc, msg=msg)


def test_dropout3d_warns_on_other_ranks():
    with pytest.warns(UserWarning, match="dropout3d: Received a 3-D input to dropout3d"):
        MF.dropout3d(minitorch.ones(2, 3, 4), 0.5, training=False)


def test_rrelu_training_draws_slopes_for_the_negative_part():
    x = minitorch.tensor(floats((50, 40)), requires_grad=True)
    minitorch.manual_seed(3)
    out = MF.rrelu(x, 0.1, 0.3, training=True)
    xs, ys = x.detach().numpy(), out.detach().numpy()
    assert np.array_equal(ys[xs > 0], xs[xs > 0])
    slopes = ys[xs < 0] / xs[xs < 0]
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy()[xs < 0], slopes, rtol=1e-5)
    y = x.detach().clone()
    minitorch.manual_seed(3)
    assert minitorch.rrelu_(y, 0.1, 0.3, True) is y and np.allclose(y.numpy(), ys)


def test_rrelu_in_eval_matches_torch_and_in_place_forms():
    helper_test_op([(3, 5)], lambda lib, x: (F(lib).rrelu(x), F(lib).rrelu_(x * 1, 0.2, 0.5),
                                             F(lib).elu_(x * 1, 0.5), F(lib).celu_(x * 1), F(lib).selu_(x * 1),
                                             F(lib).hardtanh_(x * 1, -0.5, 0.5), F(lib).threshold_(x * 1, 0.1, 9.0)),
                   check_node=False)


# ---- layers and functions -------------------------------------------------------------------------------------------------
MARGIN = {
    "multi_margin": ([(4, 5)], lambda lib, x: F(lib).multi_margin_loss(x, _idx(lib, [0, 4, 2, 2]))),
    "multi_margin_p2_weight": ([(4, 5)], lambda lib, x: F(lib).multi_margin_loss(
        x, _idx(lib, [1, 3, 0, 4]), p=2, margin=0.7, weight=lib.linspace(0.5, 2.0, 5), reduction="none")),
    "multi_margin_1d": ([(5,)], lambda lib, x: F(lib).multi_margin_loss(x, _idx(lib, [3]), reduction="sum")),
    "multilabel_margin": ([(4, 5)], lambda lib, x: F(lib).multilabel_margin_loss(
        x, _idx(lib, [[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [-1, 2, 0, 0, 0], [4, 4, -1, 0, 0]]))),
    "multilabel_margin_1d": ([(5,)], lambda lib, x: F(lib).multilabel_margin_loss(x, _idx(lib, [2, 0, -1, 3, 3]),
                                                                                  reduction="none")),
    "triplet_distance": ([(3, 4), (3, 4), (3, 4)], lambda lib, a, p, n: F(lib).triplet_margin_with_distance_loss(
        a, p, n, swap=True, margin=2.0)),
    "triplet_cosine": ([(3, 4), (3, 4), (3, 4)], lambda lib, a, p, n: F(lib).triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1 - F(lib).cosine_similarity(u, v), reduction="none")),
    "softmax2d": ([(2, 3, 2, 2)], lambda lib, x: lib.nn.Softmax2d()(x)),
    "cross_map_lrn2d_3": ([(2, 7, 3, 2)], lambda lib, x: lib.nn.CrossMapLRN2d(3, 0.3, 0.6, 1.5)(x)),
    "cross_map_lrn2d_4": ([(2, 7, 2, 2)], lambda lib, x: lib.nn.CrossMapLRN2d(4, 0.5, 0.75)(x)),
    "linear_cross_entropy": ([(4, 3), (5, 3)], lambda lib, x, w: F(lib).linear_cross_entropy(
        x, w, _idx(lib, [0, 4, 2, -100]), reduction="sum")),
    "linear_cross_entropy_kdim": ([(4, 3), (5, 2, 3), (5, 2)], lambda lib, x, w, b: F(lib).linear_cross_entropy(
        x, w, _idx(lib, [[0, 4], [2, 2], [1, 3], [4, 0]]), linear_bias=b, weight=lib.linspace(0.5, 1.5, 5),
        ignore_index=2, label_smoothing=0.2)),
    "linear_cross_entropy_unbatched": ([(3,), (5, 3)], lambda lib, x, w: F(lib).linear_cross_entropy(
        x, w, _idx(lib, 3), options=lib.nn.LinearCrossEntropyOptions(batch_chunk_size=2))),
    "linear_cross_entropy_probs": ([(4, 3), (5, 3), (4, 5)], lambda lib, x, w, t: F(lib).linear_cross_entropy(
        x, w, t.softmax(1), reduction="none")),
}


@pytest.mark.parametrize("name", sorted(MARGIN))
def test_losses_and_layers_match_torch(name):
    inputs, fn = MARGIN[name]
    helper_test_op(inputs, fn, check_node=False)


@pytest.mark.parametrize("call", [
    lambda lib, x: F(lib).multi_margin_loss(x, _idx(lib, [0, 1]), p=3),
    lambda lib, x: F(lib).multi_margin_loss(x, _idx(lib, [0, 1])),
    lambda lib, x: F(lib).multilabel_margin_loss(x, _idx(lib, [0, 1])),
    lambda lib, x: F(lib).triplet_margin_with_distance_loss(x, x, x, margin=0.0),
    lambda lib, x: F(lib).triplet_margin_with_distance_loss(x, x, x[0]),
    lambda lib, x: F(lib).channel_shuffle(x, 2),
    lambda lib, x: F(lib).channel_shuffle(x.reshape(1, 3, 4), 2),
    lambda lib, x: F(lib).channel_shuffle(x.reshape(1, 4, 3), 0),
    lambda lib, x: F(lib).pdist(x[0]),
    lambda lib, x: lib.nn.Softmax2d()(x),
    lambda lib, x: lib.nn.CrossMapLRN2d(3)(x),
    lambda lib, x: F(lib).linear_cross_entropy(x.reshape(1, 3, 4), x, _idx(lib, [0, 1, 2])),
    lambda lib, x: F(lib).linear_cross_entropy(x, x.reshape(3, 1, 4), _idx(lib, [0, 1, 2]), linear_bias=x[0]),
    lambda lib, x: F(lib).linear_cross_entropy(x[0], x.reshape(3, 1, 4), _idx(lib, [0])),
    lambda lib, x: F(lib).linear_cross_entropy(x[:, :3], x[:, :3], x[:, :3], ignore_index=1),
    lambda lib, x: lib.nn.LinearCrossEntropyLoss(4, 3, weight=x[0]),
    lambda lib, x: lib.nn.LinearCrossEntropyOptions(chunking_method="rows"),
])
def test_errors_match_torch(call):
    check_error(call, (3, 4))


def test_cross_map_lrn2d_by_hand():
    # size 3 (windows built as torch builds them: channel 0 stays in every window), alpha = size: scale = 1 + S
    x = minitorch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]).reshape(1, 5, 1, 1)
    out = minitorch.nn.CrossMapLRN2d(3, alpha=3.0, beta=1.0, k=1.0)(x).reshape(-1).numpy()
    windows = [1 + 4, 1 + 4 + 9, 1 + 4 + 9 + 16, 1 + 9 + 16 + 25, 1 + 16 + 25]
    np.testing.assert_allclose(out, [v / (1 + w) for v, w in zip([1, 2, 3, 4, 5], windows)], rtol=1e-6)


def test_gumbel_softmax_samples_and_straight_through_gradient():
    logits = minitorch.tensor(floats((6, 5)), requires_grad=True)
    minitorch.manual_seed(4)
    soft = MF.gumbel_softmax(logits, tau=0.5)
    np.testing.assert_allclose(soft.detach().numpy().sum(1), 1.0, rtol=1e-6)
    minitorch.manual_seed(4)
    hard = MF.gumbel_softmax(logits, tau=0.5, hard=True)
    h = hard.detach().numpy()
    assert set(np.unique(h)) == {0.0, 1.0} and (h.sum(1) == 1).all()
    assert (h.argmax(1) == soft.detach().numpy().argmax(1)).all()
    weights = minitorch.tensor(floats((6, 5)))
    (g_hard,) = minitorch.autograd.grad((hard * weights).sum(), logits)
    (g_soft,) = minitorch.autograd.grad((soft * weights).sum(), logits)
    np.testing.assert_allclose(g_hard.numpy(), g_soft.numpy(), rtol=1e-5, atol=1e-7)


def test_boolean_dispatch_and_assert_int_or_pair():
    def with_indices(x, flag=False):
        return ("pair", x)

    def plain(x, flag=False):
        """The documented one."""
        return x

    fn = MF.boolean_dispatch("flag", 1, False, with_indices, plain, "mod", "pooled")
    assert fn(3) == 3 and fn(3, True) == ("pair", 3) and fn(3, flag=True) == ("pair", 3)
    assert fn.__name__ == "pooled" and fn.__module__ == "mod" and fn.__doc__ == "The documented one."
    assert MF.boolean_dispatched[fn]["if_true"] is with_indices
    MF.assert_int_or_pair(3, "k", "{} bad")
    MF.assert_int_or_pair((1, 2), "k", "{} bad")
    with pytest.raises(AssertionError, match="^k bad$"):
        MF.assert_int_or_pair((1, 2, 3), "k", "{} bad")


# ---- embedding_bag --------------------------------------------------------------------------------------------------------
BAG_IDX = np.array([1, 2, 4, 5, 4, 3, 2, 9, 2])
BAG_OFF = np.array([0, 2, 2, 5])
BAGS = {
    "sum": dict(mode="sum"), "mean": dict(mode="mean"), "max": dict(mode="max"),
    "mean_padding": dict(mode="mean", padding_idx=2), "max_padding": dict(mode="max", padding_idx=2),
    "sum_last_offset": dict(mode="sum", include_last_offset=True),
}


@pytest.mark.parametrize("name", sorted(BAGS))
def test_embedding_bag_matches_torch(name):
    kw = BAGS[name]
    # with include_last_offset, torch 2.13's backward also reaches the indices after the last offset (which its
    # forward leaves out), and not reproducibly: the gradient is checked by finite differences below instead
    helper_test_op([(10, 3)], lambda lib, w: F(lib).embedding_bag(_idx(lib, BAG_IDX), w, _idx(lib, BAG_OFF), **kw),
                   check_node=False, grad=not kw.get("include_last_offset"))


def test_embedding_bag_with_last_offset_gradcheck():
    w = minitorch.tensor(np.random.default_rng(0).standard_normal((10, 3)), requires_grad=True)
    bags = lambda t: minitorch.nn.functional.embedding_bag(  # noqa: E731
        minitorch.tensor(BAG_IDX), t, minitorch.tensor(BAG_OFF), mode="sum", include_last_offset=True)
    assert gradcheck(bags, (w,))
    out = bags(w)
    out.sum().backward()
    assert w.grad.numpy()[[3, 9]].sum() == 0.0  # indices after the last offset belong to no bag


def test_embedding_bag_2d_input_per_sample_weights_and_max_norm_match_torch():
    helper_test_op([(10, 3), (9,)], lambda lib, w, p: F(lib).embedding_bag(_idx(lib, BAG_IDX), w, _idx(lib, BAG_OFF),
                                                                           mode="sum", per_sample_weights=p),
                   check_node=False)
    helper_test_op([(10, 3)], lambda lib, w: [F(lib).embedding_bag(_idx(lib, BAG_IDX.reshape(3, 3)), w, mode=m)
                                              for m in ("sum", "mean", "max")], check_node=False)
    helper_test_op([(10, 3)], lambda lib, w: F(lib).embedding_bag(_idx(lib, BAG_IDX), w.detach() * 1,
                                                                  _idx(lib, BAG_OFF), max_norm=1.0), grad=False)
    helper_test_op([(10, 3)], lambda lib, w: F(lib).embedding(_idx(lib, [[1, 2], [2, 7]]), w.detach() * 1,
                                                              max_norm=1.5, norm_type=1.0), grad=False)


def test_scale_grad_by_freq_divides_each_row_gradient_by_its_count():
    helper_test_op([(10, 3)], lambda lib, w: F(lib).embedding(_idx(lib, [[1, 2, 2], [2, 5, 1]]), w, padding_idx=5,
                                                              scale_grad_by_freq=True), check_node=False)
    # embedding_bag by hand (torch's CPU kernel divides by the count of another index here)
    w = minitorch.zeros(6, 2, requires_grad=True)
    out = MF.embedding_bag(minitorch.tensor([1, 2, 2, 2, 5, 1]), w, minitorch.tensor([0, 3]), mode="sum",
                           scale_grad_by_freq=True)
    (out * minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    np.testing.assert_allclose(w.grad.numpy()[[1, 2, 5]], [[2.0, 3.0], [5 / 3, 8 / 3], [3.0, 4.0]], rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [[1, 2]]), w, _idx(lib, [0])),
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [1, 2]), w),
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [1, 2]), w, _idx(lib, [0]), mode="min"),
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [1, 2]), w, _idx(lib, [0]), mode="max", per_sample_weights=w[0, :2]),
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [1, 2]), w, _idx(lib, [0]), per_sample_weights=w[0]),
    lambda lib, w: F(lib).embedding_bag(_idx(lib, [1, 2]), w[0], _idx(lib, [0])),
])
def test_embedding_bag_errors_match_torch(call):
    check_error(call, (4, 3))


# ---- CTC ----------------------------------------------------------------------------------------------------------------------
CTC_TARGETS = np.array([[1, 2, 2, 3, 0], [4, 4, 4, 0, 0], [5, 1, 2, 3, 4], [1, 0, 0, 0, 0]])
CTC_TL, CTC_IL = [4, 3, 5, 1], [12, 10, 11, 3]
CTC = {
    "mean": dict(), "sum": dict(reduction="sum"), "none": dict(reduction="none"), "blank_last": dict(blank=5),
}


def _ctc(lib, x, targets=CTC_TARGETS, il=CTC_IL, tl=CTC_TL, log_softmax=True, **kw):
    lp = x.log_softmax(2) if log_softmax else x
    return F(lib).ctc_loss(lp, _idx(lib, targets), il, tl, **kw)


@pytest.mark.parametrize("name", sorted(CTC))
def test_ctc_loss_matches_torch(name):
    targets = np.where(CTC_TARGETS == 5, 0, CTC_TARGETS) if name == "blank_last" else CTC_TARGETS
    helper_test_op([(12, 4, 6)], lambda lib, x: _ctc(lib, x, targets, **CTC[name]), dtype=np.float64,
                   check_node=False)


def test_ctc_loss_gradient_of_raw_log_probs_concatenated_targets_and_tensor_lengths_match_torch():
    helper_test_op([(12, 4, 6)], lambda lib, x: _ctc(lib, x, log_softmax=False, reduction="sum"), dtype=np.float64,
                   check_node=False)
    flat = np.concatenate([row[:n] for row, n in zip(CTC_TARGETS, CTC_TL)])
    helper_test_op([(12, 4, 6)], lambda lib, x: _ctc(lib, x, flat, _idx(lib, CTC_IL), _idx(lib, CTC_TL)),
                   check_node=False)
    helper_test_op([(7, 5)], lambda lib, x: F(lib).ctc_loss(x.log_softmax(1), _idx(lib, [1, 3, 3]), _idx(lib, 7),
                                                            _idx(lib, 3), reduction="none"), check_node=False)


def test_ctc_loss_impossible_alignments_are_infinite_or_zeroed():
    il = [12, 10, 3, 3]  # the third target needs at least 5 steps
    helper_test_op([(12, 4, 6)], lambda lib, x: _ctc(lib, x, il=il, reduction="none"), dtype=np.float64,
                   check_node=False)
    helper_test_op([(12, 4, 6)], lambda lib, x: _ctc(lib, x, il=il, zero_infinity=True), dtype=np.float64,
                   check_node=False)


def test_ctc_loss_by_hand_and_no_double_derivative():
    # two steps, one label 'a' (class 1), uniform over {blank, a}: paths a-, -a, aa: 3/4
    lp = minitorch.full((2, 1, 2), math.log(0.5), dtype=minitorch.float64, requires_grad=True)
    loss = MF.ctc_loss(lp, minitorch.tensor([[1]]), [2], [1], reduction="sum")
    assert loss.item() == pytest.approx(-math.log(0.75))
    (g,) = minitorch.autograd.grad(loss, lp, create_graph=True)
    # exp(lp) - posterior occupancy: P(blank at t) = 1/3 given the label
    np.testing.assert_allclose(g.detach().numpy()[:, 0], [[0.5 - 1 / 3, 0.5 - 2 / 3]] * 2)
    with pytest.raises(RuntimeError, match="^derivative for aten::_ctc_loss_backward is not implemented$"):
        g.sum().backward()


@pytest.mark.parametrize("call", [
    lambda lib, x: _ctc(lib, x, blank=6),
    lambda lib, x: _ctc(lib, x, il=[12, 10, 11]),
    lambda lib, x: _ctc(lib, x, il=[12, 10, 11, 13]),
])
def test_ctc_loss_errors_match_torch(call):
    check_error(call, (12, 4, 6))


# ---- modules ------------------------------------------------------------------------------------------------------------
MODULES = {
    "Dropout1d": lambda nn: nn.Dropout1d(0.2), "Dropout3d": lambda nn: nn.Dropout3d(inplace=True),
    "AlphaDropout": lambda nn: nn.AlphaDropout(0.1), "FeatureAlphaDropout": lambda nn: nn.FeatureAlphaDropout(),
    "RReLU": lambda nn: nn.RReLU(0.1, 0.2, True), "RReLU_default": lambda nn: nn.RReLU(),
    "Softmax2d": lambda nn: nn.Softmax2d(), "CrossMapLRN2d": lambda nn: nn.CrossMapLRN2d(5, k=2),
    "ChannelShuffle": lambda nn: nn.ChannelShuffle(3),
    "MultiMarginLoss": lambda nn: nn.MultiMarginLoss(2, 0.5),
    "MultiLabelMarginLoss": lambda nn: nn.MultiLabelMarginLoss(reduction="sum"),
    "TripletMarginWithDistanceLoss": lambda nn: nn.TripletMarginWithDistanceLoss(margin=2.0),
    "CTCLoss": lambda nn: nn.CTCLoss(blank=2, zero_infinity=True),
    "EmbeddingBag": lambda nn: nn.EmbeddingBag(5, 3, max_norm=2.0, mode="max", padding_idx=0),
    "EmbeddingBag_sum": lambda nn: nn.EmbeddingBag(5, 3, norm_type=1.0, scale_grad_by_freq=True, mode="sum"),
    "Embedding": lambda nn: nn.Embedding(5, 3, padding_idx=1, max_norm=1.0, sparse=True),
    "AdaptiveLogSoftmaxWithLoss": lambda nn: nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], div_value=2.0),
    "LinearCrossEntropyLoss": lambda nn: nn.LinearCrossEntropyLoss(
        4, 5, out_features=(2,), bias=True, weight=nn.Parameter(nn.init.ones_(nn.Linear(5, 1).weight[0].detach())),
        ignore_index=3, options=nn.LinearCrossEntropyOptions(acc_policy="compact")),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_repr_and_state_dict_keys_match_torch(name):
    check_module_facts(MODULES[name])


def _linear_cross_entropy(lib, params, x, t):
    """LinearCrossEntropyLoss with ``params``: the loss, and the gradients of the input and the linear weight."""
    m = _set_params(lib, lib.nn.LinearCrossEntropyLoss(3, 4, out_features=(2,), bias=True, label_smoothing=0.1),
                    params)
    x = lib.tensor(x, requires_grad=True)
    loss = m(x, lib.tensor(t))
    loss.backward()
    return loss.item(), x.grad.numpy(), m.linear.weight.grad.numpy()


def test_linear_cross_entropy_module_matches_torch():
    minitorch.manual_seed(0)
    params = _params(minitorch.nn.LinearCrossEntropyLoss(3, 4, out_features=(2,), bias=True, label_smoothing=0.1))
    args = params, floats((5, 3)), ints((5, 2), 0, 4)
    loss, grad, weight_grad = _linear_cross_entropy(minitorch, *args)
    their_loss, their_grad, their_weight_grad = torch_answer(_linear_cross_entropy, *args)
    assert loss == pytest.approx(their_loss, rel=1e-5)
    np.testing.assert_allclose(grad, their_grad, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(weight_grad, their_weight_grad, rtol=1e-4, atol=1e-6)


def test_nllloss2d_is_a_deprecated_nllloss():
    with pytest.warns(FutureWarning, match="`NLLLoss2d` has been deprecated"):
        loss = minitorch.nn.NLLLoss2d(ignore_index=1)
    x = minitorch.tensor(floats((2, 3, 2, 2))).log_softmax(1)
    t = minitorch.tensor(ints((2, 2, 2), 0, 3))
    np.testing.assert_allclose(loss(x, t).item(), MF.nll_loss(x, t, ignore_index=1).item())


def _params(module) -> list:
    return [p.detach().numpy().copy() for p in module.parameters()]


def _set_params(lib, module, params):
    """``module`` with its parameters set to the arrays ``params``."""
    with lib.no_grad():
        for p, values in zip(module.parameters(), params, strict=True):
            p.copy_(lib.tensor(values))
    return module


def _adaptive_log_softmax(lib, params, x, t, head_bias):
    """AdaptiveLogSoftmaxWithLoss with ``params``: output, the gradients of the loss, log_prob; then, with a head
    that prefers the tail clusters for half the rows (predict must refine them), predict and a single row."""
    m = _set_params(lib, lib.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], div_value=2.0, head_bias=head_bias),
                    params)
    x = lib.tensor(x, requires_grad=True)
    out = m(x, lib.tensor(t))
    out.loss.backward()
    answer = {"fields": out._fields, "output": out.output, "x grad": x.grad, "grads": [p.grad for p in m.parameters()],
              "log_prob": m.log_prob(x)}
    with lib.no_grad():
        m.head.weight[4:] *= 0
        m.head.weight[5, :8] += 2.0
    single = m(x[0], lib.tensor(t[4]))
    return {**answer, "predict": m.predict(x), "single": (tuple(single.output.shape), single.output.item())}


@pytest.mark.parametrize("head_bias", [False, True])
def test_adaptive_log_softmax_matches_torch(head_bias):
    minitorch.manual_seed(0)  # (the predict check needs rows that go to the tail: fixed weights and inputs)
    params = _params(minitorch.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], div_value=2.0, head_bias=head_bias))
    args = params, np.random.default_rng(0).uniform(-2, 2, (8, 16)).astype(np.float32), \
        np.array([0, 3, 5, 9, 12, 19, 2, 16]), head_bias
    mine, theirs = _adaptive_log_softmax(minitorch, *args), torch_answer(_adaptive_log_softmax, *args)
    assert mine["fields"] == theirs["fields"] == ("output", "loss")
    np.testing.assert_allclose(mine["output"].detach().numpy(), theirs["output"].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mine["x grad"].numpy(), theirs["x grad"].numpy(), rtol=1e-4, atol=1e-6)
    for p, q in zip(mine["grads"], theirs["grads"], strict=True):
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(mine["log_prob"].detach().numpy(), theirs["log_prob"].numpy(), rtol=1e-5, atol=1e-5)
    predicted = mine["predict"].numpy()
    assert np.array_equal(predicted, theirs["predict"].numpy()) and (predicted >= 4).any() and (predicted < 4).any()
    assert mine["single"][0] == () == theirs["single"][0]
    assert mine["single"][1] == pytest.approx(theirs["single"][1], rel=1e-5)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [5, 3]),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 10]),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3])(
        lib.nn.Parameter(lib.ones(2, 8)) if lib is minitorch else lib.ones(2, 8), None),
])
def test_adaptive_log_softmax_errors(call):
    check_error(call)


def test_adaptive_log_softmax_target_range_error():
    m = minitorch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3])
    with pytest.raises(RuntimeError, match=r"^Target values should be in \[0, 9\], but values in range \[2, 10\] "):
        m(minitorch.ones(2, 8), minitorch.tensor([2, 10]))


def test_modules_forward_as_their_functions():
    nn = minitorch.nn
    x = minitorch.tensor(floats((2, 6, 3)))
    np.testing.assert_array_equal(nn.ChannelShuffle(2)(x).numpy(), MF.channel_shuffle(x, 2).numpy())
    rrelu = nn.RReLU(0.1, 0.3).eval()
    np.testing.assert_allclose(rrelu(x).numpy(), np.where(x.numpy() >= 0, x.numpy(), 0.2 * x.numpy()), rtol=1e-6)
    for layer in (nn.Dropout1d(), nn.AlphaDropout(), nn.FeatureAlphaDropout()):
        np.testing.assert_array_equal(layer.eval()(x).numpy(), x.numpy())
    with pytest.warns(UserWarning, match="dropout3d"):
        np.testing.assert_array_equal(nn.Dropout3d().eval()(x).numpy(), x.numpy())
    bag = nn.EmbeddingBag.from_pretrained(minitorch.tensor(floats((5, 3))), mode="sum")
    assert not bag.weight.requires_grad
    np.testing.assert_allclose(bag(minitorch.tensor([[0, 4]])).numpy(), (bag.weight[0] + bag.weight[4]).numpy()[None],
                               rtol=1e-6)
