"""Registry-sweep inputs for the nn ops registered beside their ops in minitorch/_ops (dropout, activations,
normalization, embedding, distances, losses) and their nn.functional forms. Random ops reseed before each call, so
that gradcheck's repeated evaluations see one mask."""
import minitorch as mt
import minitorch.nn.functional as F
from registry_inputs import INF, NAN, idx, x


def _seeded(fn):
    """``fn`` run right after ``manual_seed(0)``: the same random draw on every call."""
    return lambda *a: (mt.manual_seed(0), fn(*a))[1]


def _signed():
    return (x(3, 4, low=-1.0, high=1.0, seed=3),)


def _pair():
    return (x(3, 4), x(3, 4, seed=1))


def _triple():
    return (x(3, 4), x(3, 4, seed=1), x(3, 4, seed=2))


def _maps():
    return (x(2, 3, 2, 2, low=-1.0, high=1.0),)


def _norm_inputs():
    return (x(4, 3, 2), x(3, seed=1), x(3, seed=2))


SAMPLES = {
    # dropout: ATen's (input, p, train) at top level, the keyword forms in F
    **{name: (_seeded(lambda a, name=name: getattr(mt, name)(a, 0.4, True)), _maps)
       for name in ("dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout")},
    **{name: (_seeded(lambda a, name=name: getattr(mt, name)(a.clone(), 0.4, True)), _maps)
       for name in ("dropout_", "feature_dropout_", "alpha_dropout_", "feature_alpha_dropout_")},
    "native_dropout": (_seeded(lambda a: mt.native_dropout(a, 0.4, True)[0]), _maps),
    "F.alpha_dropout": (_seeded(lambda a: F.alpha_dropout(a, 0.4, True)), _maps),
    "F.feature_alpha_dropout": (_seeded(lambda a: F.feature_alpha_dropout(a, 0.4, True)), _maps),
    "F.dropout1d": (_seeded(lambda a: F.dropout1d(a, 0.4)), lambda: (x(2, 3, 4),)),
    "F.dropout3d": (_seeded(lambda a: F.dropout3d(a, 0.4)), lambda: (x(2, 3, 2, 2, 2),)),
    "F.rrelu": (_seeded(lambda a: F.rrelu(a, 0.1, 0.3, training=True)), _signed),
    "rrelu": (_seeded(lambda a: mt.rrelu(a, 0.1, 0.3, True)), _signed),
    "F.gumbel_softmax": (_seeded(lambda a: F.gumbel_softmax(a, tau=0.7)), lambda: (x(3, 4),)),
    # activations
    "threshold": (lambda a: mt.threshold(a, 1.0, 0.5), lambda: (x(3, 4, low=1.1, high=2.0),)),
    "hardshrink": (lambda a: mt.hardshrink(a, 0.1), _signed),
    "prelu": (None, lambda: (x(2, 3, 4, low=-1.0, high=1.0), x(3, seed=1))),
    # normalisation
    "batch_norm": (lambda a, w, b: mt.batch_norm(a, w, b, None, None, True, 0.1, 1e-5, False), _norm_inputs),
    "native_batch_norm": (lambda a, w, b: mt.native_batch_norm(a, w, b, None, None, True, 0.1, 1e-5)[0],
                          _norm_inputs),
    "layer_norm": (lambda a, w, b: mt.layer_norm(a, (2,), w[:2], b[:2]), _norm_inputs),
    "native_layer_norm": (lambda a, w, b: mt.native_layer_norm(a, (2,), w[:2], b[:2], 1e-5)[0], _norm_inputs),
    "group_norm": (lambda a, w, b: mt.group_norm(a.reshape(2, 6, 2), 3, w.repeat(2), b.repeat(2)), _norm_inputs),
    "native_group_norm": (lambda a: mt.native_group_norm(a, None, None, 4, 3, 2, 3, 1e-5), lambda: (x(4, 3, 2),)),
    "instance_norm": (lambda a, w, b: mt.instance_norm(a, w, b, None, None, True, 0.1, 1e-5, False), _norm_inputs),
    "rms_norm": (lambda a, w: mt.rms_norm(a, (3,), w), lambda: (x(2, 3), x(3, seed=1))),
    # shapes, distances, embeddings
    "pixel_shuffle": (lambda a: mt.pixel_shuffle(a, 2), lambda: (x(1, 8, 2, 3),)),
    "pixel_unshuffle": (lambda a: mt.pixel_unshuffle(a, 2), lambda: (x(1, 2, 4, 6),)),
    "channel_shuffle": (lambda a: mt.channel_shuffle(a, 2), lambda: (x(2, 6, 3),)),
    "cosine_similarity": (None, _pair),
    "pairwise_distance": (None, _pair),
    "pdist": (lambda a: mt.pdist(a, 3.0), lambda: (x(4, 3),)),
    "bilinear": (None, lambda: (x(2, 3), x(2, 4, seed=1), x(5, 3, 4, seed=2), x(5, seed=3))),
    "embedding": (lambda w: mt.embedding(w, idx([0, 2], [2, 1])), lambda: (x(3, 4),)),
    "F.embedding_bag": (lambda w, p: F.embedding_bag(idx(0, 2, 2, 1, 0), w, idx(0, 2, 2), mode="sum",
                                                     per_sample_weights=p), lambda: (x(3, 4), x(5, seed=1))),
    # losses
    "binary_cross_entropy_with_logits": (lambda a, t: mt.binary_cross_entropy_with_logits(a, t, None, None, 2),
                                         lambda: (x(3, 4), x(3, 4, low=0.1, high=0.9, seed=1))),
    "cosine_embedding_loss": (lambda a, b: mt.cosine_embedding_loss(a, b, mt.tensor([1.0, -1.0, 1.0],
                                                                                    dtype=mt.float64), 0.1, 0),
                              lambda: (x(3, 4, low=-1.0, high=1.0), x(3, 4, low=-1.0, high=1.0, seed=1))),
    "hinge_embedding_loss": (lambda a: mt.hinge_embedding_loss(a, mt.tensor([[1.0, -1.0, 1.0, -1.0]] * 3,
                                                                            dtype=mt.float64), 2.0, 2),
                             lambda: (x(3, 4),)),
    "kl_div": (lambda a, t: mt.kl_div(a, t, 1), _pair),
    "margin_ranking_loss": (lambda a, b: mt.margin_ranking_loss(a, b, mt.tensor([1.0, -1.0, 1.0, -1.0],
                                                                                dtype=mt.float64), 2.0, 0),
                            lambda: (x(4), x(4, seed=1))),
    "poisson_nll_loss": (lambda a, t: mt.poisson_nll_loss(a, t, True, True, 1e-8, 1),
                         lambda: (x(3, 4), x(3, 4, low=0.5, high=3.0, seed=1))),
    "triplet_margin_loss": (lambda a, p, n: mt.triplet_margin_loss(a, p, n, 3.0, 2.0, 1e-6, True, 2), _triple),
    "F.multi_margin_loss": (lambda a: F.multi_margin_loss(a, idx(0, 3, 1), p=2, margin=1.5,
                                                          weight=x(4, seed=1).detach()), lambda: (x(3, 4),)),
    "F.multilabel_margin_loss": (lambda a: F.multilabel_margin_loss(a, idx([3, 0, -1, 1], [1, 2, 3, 0],
                                                                            [2, -1, 0, 0])),
                                 lambda: (x(3, 4),)),
    "F.linear_cross_entropy": (lambda a, w, b: F.linear_cross_entropy(a, w, idx([0, 1], [1, 2], [2, 0]),
                                                                      linear_bias=b, label_smoothing=0.1),
                               lambda: (x(3, 4), x(3, 2, 4, seed=1), x(3, 2, seed=2))),
    "F.triplet_margin_with_distance_loss": (
        lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, margin=3.0, swap=True,
                                                            distance_function=lambda u, v: (u - v).abs().sum(-1)),
        _triple),
    # no double derivative, as in torch (minitorch._core.registry.NO_DOUBLE_BACKWARD): gradcheck only
    "F.ctc_loss": (lambda a: F.ctc_loss(a.log_softmax(2), idx([1, 2], [3, 3]), [6, 5], [2, 2]), lambda: (x(6, 2, 4),)),
}

EDGES = {
    "threshold": (1.0, NAN, -INF),
    "hardshrink": (0.1, -0.1, NAN, -0.0),
    "F.multi_margin_loss": (NAN, INF, -INF, 2.0, 2.0),
}
