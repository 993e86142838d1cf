"""The extra nn layers and their functional forms: activations (PReLU, GLU, shrinks, ...), padding layers,
pixel (un)shuffle, distances, Bilinear, InstanceNorm/RMSNorm/LocalResponseNorm, 1-d and adaptive max pools,
and the margin / likelihood losses. Differential against torch where it is installed (values, dtypes, node
names where minitorch records torch's node, gradients; module reprs, parameters and state_dict keys);
hand-derived values without it."""
import math

import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as MF
from op_helper import check_error, check_module_facts, check_module_run, floats, helper_test_op
from torch_answers import torch_answer


def F(lib):
    return lib.nn.functional


PM1 = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0], np.float32)  # +-1 targets
POS = floats((4, 5), 0.1, 3.0)                                   # positive values (rates, variances, targets)
PROBS = np.random.default_rng(3).dirichlet(np.ones(5), 4).astype(np.float32)

# name -> (inputs, fn(lib, *tensors))
CASES = {
    "hardshrink": ([(3, 5)], lambda lib, x: F(lib).hardshrink(x, 0.7)),
    "softshrink": ([(3, 5)], lambda lib, x: F(lib).softshrink(x)),
    "prelu_shared": ([(3, 4, 5), (1,)], lambda lib, x, w: F(lib).prelu(x, w)),
    "prelu_channels": ([(2, 4, 3, 3), (4,)], lambda lib, x, w: F(lib).prelu(x, w)),
    "glu": ([(3, 6, 2)], lambda lib, x: F(lib).glu(x, 1)),
    "softsign": ([(3, 5)], lambda lib, x: F(lib).softsign(x)),
    "tanhshrink": ([(3, 5)], lambda lib, x: F(lib).tanhshrink(x)),
    "pad_reflect_1d": ([(2, 3, 6)], lambda lib, x: F(lib).pad(x, (2, 3), mode="reflect")),
    "pad_replicate_2d": ([(2, 3, 4, 5)], lambda lib, x: F(lib).pad(x, (1, 2, 3, 0), mode="replicate")),
    "pad_reflect_3d": ([(1, 2, 3, 3, 4)], lambda lib, x: F(lib).pad(x, (1, 2, 0, 2, 1, 0), mode="reflect")),
    "pad_replicate_1d": ([(3, 4)], lambda lib, x: F(lib).pad(x, (0, 3), mode="replicate")),
    "pad_circular_2d": ([(1, 2, 4, 5)], lambda lib, x: F(lib).pad(x, (1, 2, 2, 1), mode="circular")),
    "pixel_shuffle": ([(2, 8, 3, 2)], lambda lib, x: F(lib).pixel_shuffle(x, 2)),
    "pixel_unshuffle": ([(2, 3, 4, 6)], lambda lib, x: F(lib).pixel_unshuffle(x, 2)),
    "pixel_shuffle_batched": ([(2, 3, 9, 2, 2)], lambda lib, x: F(lib).pixel_shuffle(x, 3)),
    "pairwise_distance": ([(4, 5), (4, 5)], lambda lib, a, b: F(lib).pairwise_distance(a, b)),
    "pairwise_distance_p1": ([(4, 5), (5,)], lambda lib, a, b: F(lib).pairwise_distance(a, b, 1.0, keepdim=True)),
    "bilinear": ([(4, 3), (4, 2), (5, 3, 2), (5,)], lambda lib, a, b, w, c: F(lib).bilinear(a, b, w, c)),
    "bilinear_batched": ([(2, 4, 3), (2, 4, 2), (5, 3, 2)], lambda lib, a, b, w: F(lib).bilinear(a, b, w)),
    "instance_norm": ([(2, 3, 5), (3,), (3,)],
                      lambda lib, x, w, b: F(lib).instance_norm(x, weight=w, bias=b)),
    "instance_norm_2d": ([(2, 3, 4, 4)], lambda lib, x: F(lib).instance_norm(x, eps=1e-3)),
    "rms_norm": ([(3, 4, 5), (4, 5)], lambda lib, x, w: F(lib).rms_norm(x, (4, 5), w, eps=1e-5)),
    "rms_norm_default_eps": ([(3, 5)], lambda lib, x: F(lib).rms_norm(x, [5])),
    "local_response_norm": ([(2, 5, 4)], lambda lib, x: F(lib).local_response_norm(x, 3, alpha=0.5)),
    "local_response_norm_4d": ([(2, 6, 3, 3)], lambda lib, x: F(lib).local_response_norm(x, 2, 0.1, 0.5, 2.0)),
    "max_pool1d": ([(2, 3, 9)], lambda lib, x: F(lib).max_pool1d(x, 3, 2, 1)),
    "max_pool1d_indices": ([(2, 3, 9)], lambda lib, x: F(lib).max_pool1d(x, 2, return_indices=True)),
    "avg_pool1d": ([(2, 3, 9)], lambda lib, x: F(lib).avg_pool1d(x, 3, 2, 1, count_include_pad=False)),
    "avg_pool1d_ceil": ([(3, 8)], lambda lib, x: F(lib).avg_pool1d(x, 3, 2, ceil_mode=True)),
    "adaptive_avg_pool1d": ([(2, 3, 7)], lambda lib, x: F(lib).adaptive_avg_pool1d(x, 3)),
    "adaptive_max_pool1d": ([(2, 3, 8)], lambda lib, x: F(lib).adaptive_max_pool1d(x, 3, return_indices=True)),
    "adaptive_max_pool2d": ([(2, 3, 5, 7)], lambda lib, x: F(lib).adaptive_max_pool2d(x, (2, 3))),
    "adaptive_max_pool2d_indices": ([(3, 7, 5)], lambda lib, x: F(lib).adaptive_max_pool2d(x, (3, None), True)),
    "kl_div_batchmean": ([(4, 5), PROBS], lambda lib, x, t: F(lib).kl_div(x, t, reduction="batchmean")),
    "kl_div_log_target": ([(4, 5), (4, 5)],
                          lambda lib, x, t: F(lib).kl_div(x, t, reduction="sum", log_target=True)),
    "kl_div_none": ([(4, 5), PROBS], lambda lib, x, t: F(lib).kl_div(x, t, reduction="none")),
    "poisson_nll": ([(4, 5), POS], lambda lib, x, t: F(lib).poisson_nll_loss(x, t)),
    "poisson_nll_full_rate": ([POS, POS * 2], lambda lib, x, t: F(lib).poisson_nll_loss(
        x, t, log_input=False, full=True, reduction="sum")),
    "gaussian_nll": ([(4, 5), (4, 5), POS], lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v)),
    "gaussian_nll_homoscedastic": ([(4, 5), (4, 5), POS[:, 0].copy()], lambda lib, x, t, v: F(lib).gaussian_nll_loss(
        x, t, v, full=True, reduction="none")),
    "gaussian_nll_clamped": ([(4, 5), (4, 5), POS * 1e-7], lambda lib, x, t, v: F(lib).gaussian_nll_loss(
        x, t, v, eps=1e-7, reduction="sum")),
    "margin_ranking": ([(6,), (6,), PM1], lambda lib, a, b, y: F(lib).margin_ranking_loss(a, b, y, 0.5)),
    "hinge_embedding": ([(6,), PM1], lambda lib, x, y: F(lib).hinge_embedding_loss(x, y, reduction="none")),
    "soft_margin": ([(6,), PM1], lambda lib, x, y: F(lib).soft_margin_loss(x, y, reduction="sum")),
    "multilabel_soft_margin": ([(4, 5), PROBS, (5,)],
                               lambda lib, x, t, w: F(lib).multilabel_soft_margin_loss(x, t, w)),
    "multilabel_soft_margin_none": ([(4, 5), PROBS], lambda lib, x, t: F(lib).multilabel_soft_margin_loss(
        x, t, reduction="none")),
    "cosine_embedding": ([(6, 3), (6, 3), PM1], lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y, 0.2)),
    "cosine_embedding_single": ([(3,), (3,), np.array(-1.0, np.float32)],
                                lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y)),
    "triplet_margin": ([(4, 5), (4, 5), (4, 5)], lambda lib, a, p, n: F(lib).triplet_margin_loss(a, p, n)),
    "triplet_margin_swap_p1": ([(4, 5), (4, 5), (4, 5)], lambda lib, a, p, n: F(lib).triplet_margin_loss(
        a, p, n, margin=2.0, p=1, swap=True, reduction="none")),
}
# where minitorch's graph differs from torch's: bilinear is one einsum (torch: views around _trilinear), circular
# padding one gather (torch: slice copies), pairwise_distance linalg.vector_norm (torch: at::norm)
COMPOSED_DIFFERENTLY = {"bilinear_batched", "pad_circular_2d", "pairwise_distance", "pairwise_distance_p1"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_functional_matches_torch(name):
    inputs, fn = CASES[name]
    grad = [not (isinstance(i, np.ndarray) and i is PM1) for i in inputs]
    helper_test_op(inputs, fn, grad=grad, check_node=name not in COMPOSED_DIFFERENTLY)


def test_kl_div_mean_warns_as_torch():
    x, t = minitorch.tensor(np.log(PROBS)), minitorch.tensor(PROBS)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        out = MF.kl_div(x, t)
    assert abs(out.item()) < 1e-6  # equal distributions: no divergence


def _instance_norm_runs(lib, x):
    """InstanceNorm1d tracking running stats: two training calls, the running stats, then eval on the batch and on
    one sample."""
    m = lib.nn.InstanceNorm1d(2, track_running_stats=True)
    out = [m(lib.tensor(x)).detach().numpy() for _ in range(2)] + [m.running_mean.numpy(), m.running_var.numpy()]
    m.eval()
    return out + [m(lib.tensor(x)).detach().numpy(), m(lib.tensor(x[0])).detach().numpy()]


def test_instance_norm_updates_running_stats_like_torch():
    x = floats((3, 2, 6))
    for a, b, atol in zip(_instance_norm_runs(minitorch, x), torch_answer(_instance_norm_runs, x),
                          (1e-5, 1e-5, 1e-6, 1e-6, 1e-5, 1e-5), strict=True):
        np.testing.assert_allclose(a, b, atol=atol)


# ---- modules -----------------------------------------------------------------------------------------------
MODULES = {
    "PReLU": lambda nn: nn.PReLU(), "PReLU3": lambda nn: nn.PReLU(3, init=0.1), "GLU": lambda nn: nn.GLU(1),
    "Softsign": lambda nn: nn.Softsign(), "Tanhshrink": lambda nn: nn.Tanhshrink(),
    "Hardshrink": lambda nn: nn.Hardshrink(0.3), "Softshrink": lambda nn: nn.Softshrink(),
    "Threshold": lambda nn: nn.Threshold(0.1, 20), "ThresholdInplace": lambda nn: nn.Threshold(0.5, 1.5, True),
    "CELU": lambda nn: nn.CELU(0.5), "CELUInplace": lambda nn: nn.CELU(inplace=True),
    "ZeroPad1d": lambda nn: nn.ZeroPad1d(2), "ZeroPad2d": lambda nn: nn.ZeroPad2d((1, 2, 0, 1)),
    "ConstantPad1d": lambda nn: nn.ConstantPad1d((1, 2), 3.5), "ConstantPad2d": lambda nn: nn.ConstantPad2d(1, -1),
    "ReflectionPad1d": lambda nn: nn.ReflectionPad1d(2), "ReflectionPad2d": lambda nn: nn.ReflectionPad2d((1, 0, 2, 1)),
    "ReplicationPad1d": lambda nn: nn.ReplicationPad1d((3, 1)), "ReplicationPad2d": lambda nn: nn.ReplicationPad2d(1),
    "CircularPad1d": lambda nn: nn.CircularPad1d(1), "CircularPad2d": lambda nn: nn.CircularPad2d((1, 1, 2, 0)),
    "PixelShuffle": lambda nn: nn.PixelShuffle(2), "PixelUnshuffle": lambda nn: nn.PixelUnshuffle(2),
    "CosineSimilarity": lambda nn: nn.CosineSimilarity(0), "PairwiseDistance": lambda nn: nn.PairwiseDistance(1.0),
    "Bilinear": lambda nn: nn.Bilinear(3, 2, 4), "BilinearNoBias": lambda nn: nn.Bilinear(3, 2, 4, bias=False),
    "InstanceNorm1d": lambda nn: nn.InstanceNorm1d(3),
    "InstanceNorm2d": lambda nn: nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
    "InstanceNorm2dNoBias": lambda nn: nn.InstanceNorm2d(3, affine=True, bias=False),
    "RMSNorm": lambda nn: nn.RMSNorm(5), "RMSNorm2": lambda nn: nn.RMSNorm([4, 5], eps=1e-5, elementwise_affine=False),
    "LocalResponseNorm": lambda nn: nn.LocalResponseNorm(3, k=2.0),
    "MaxPool1d": lambda nn: nn.MaxPool1d(3, 2, 1), "AvgPool1d": lambda nn: nn.AvgPool1d(3, padding=1),
    "AdaptiveAvgPool1d": lambda nn: nn.AdaptiveAvgPool1d(3),
    "AdaptiveMaxPool2d": lambda nn: nn.AdaptiveMaxPool2d((2, None)),
    "AdaptiveMaxPool1d": lambda nn: nn.AdaptiveMaxPool1d(3, return_indices=True),
    "KLDivLoss": lambda nn: nn.KLDivLoss(reduction="batchmean", log_target=True),
    "PoissonNLLLoss": lambda nn: nn.PoissonNLLLoss(full=True), "GaussianNLLLoss": lambda nn: nn.GaussianNLLLoss(),
    "MarginRankingLoss": lambda nn: nn.MarginRankingLoss(0.5), "HingeEmbeddingLoss": lambda nn: nn.HingeEmbeddingLoss(),
    "SoftMarginLoss": lambda nn: nn.SoftMarginLoss(),
    "MultiLabelSoftMarginLoss": lambda nn: nn.MultiLabelSoftMarginLoss(),
    "CosineEmbeddingLoss": lambda nn: nn.CosineEmbeddingLoss(0.1),
    "TripletMarginLoss": lambda nn: nn.TripletMarginLoss(swap=True),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_repr_parameters_and_state_dict_match_torch(name):
    check_module_facts(MODULES[name], (
        "reduction", "margin", "eps", "p", "swap", "full", "log_input", "log_target", "dim", "norm", "keepdim",
        "padding", "value", "lambd", "upscale_factor", "downscale_factor", "kernel_size", "stride", "output_size",
        "normalized_shape", "num_features", "affine", "track_running_stats"))


MODULE_RUNS = {
    "PReLU3": [(2, 3, 4)], "Bilinear": [(5, 3), (5, 2)], "InstanceNorm2dNoBias": [(2, 3, 4, 4)],
    "RMSNorm": [(3, 5)], "AdaptiveMaxPool2d": [(1, 2, 5, 4)], "ReflectionPad2d": [(1, 2, 4, 4)],
    "PixelUnshuffle": [(1, 2, 4, 4)], "GaussianNLLLoss": [(4, 5), (4, 5), POS],
    "TripletMarginLoss": [(4, 5), (4, 5), (4, 5)], "KLDivLoss": [(4, 5), (4, 5)],
}


@pytest.mark.parametrize("name", sorted(MODULE_RUNS))
def test_module_forward_and_parameter_gradients_match_torch(name):
    check_module_run(MODULES[name], MODULE_RUNS[name])


def test_parameter_initialisation_distributions():
    minitorch.manual_seed(0)
    b = minitorch.nn.Bilinear(16, 3, 200)
    bound = 1 / math.sqrt(16)
    w = b.weight.detach().numpy()
    assert w.shape == (200, 16, 3) and np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    assert np.abs(b.bias.detach().numpy()).max() <= bound
    assert np.all(minitorch.nn.PReLU(4, init=0.3).weight.detach().numpy() == np.float32(0.3))
    with pytest.raises(ValueError, match=r"^in1_features must be > 0, but got \(in1_features=0\)$"):
        minitorch.nn.Bilinear(0, 2, 3)


# ---- hand-derived values (no torch needed) -------------------------------------------------------------------
def test_hand_derived_values():
    x = minitorch.tensor([-1.0, -0.4, 0.0, 0.5, 2.0], requires_grad=True)
    assert MF.hardshrink(x, 0.5).tolist() == [-1.0, 0.0, 0.0, 0.0, 2.0]
    np.testing.assert_allclose(MF.softshrink(x, 0.5).detach().numpy(), [-0.5, 0.0, 0.0, 0.0, 1.5])
    MF.softshrink(x, 0.5).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0, 0.0, 1.0]
    np.testing.assert_allclose(MF.prelu(x, minitorch.tensor([0.25])).detach().numpy(),
                               [-0.25, -0.1, 0.0, 0.5, 2.0])
    np.testing.assert_allclose(MF.glu(minitorch.tensor([1.0, 0.0])).item(), 0.5)
    img = minitorch.arange(16.0).reshape(1, 4, 2, 2)
    shuffled = MF.pixel_shuffle(img, 2)
    assert shuffled[0, 0].tolist() == [[0, 4, 1, 5], [8, 12, 9, 13], [2, 6, 3, 7], [10, 14, 11, 15]]
    assert MF.pixel_unshuffle(shuffled, 2).tolist() == img.tolist()
    assert MF.pad(minitorch.tensor([[[1.0, 2.0, 3.0]]]), (2, 1), mode="reflect").tolist() == [[[3, 2, 1, 2, 3, 2]]]
    np.testing.assert_allclose(MF.pairwise_distance(minitorch.tensor([[3.0, 0.0]]), minitorch.tensor([[0.0, 4.0]]),
                                                    eps=0.0).numpy(), [5.0])
    a, p, n = minitorch.tensor([[0.0, 0.0]]), minitorch.tensor([[3.0, 4.0]]), minitorch.tensor([[6.0, 8.0]])
    assert MF.triplet_margin_loss(a, p, n, margin=1.0, eps=0.0).item() == 0.0
    assert MF.triplet_margin_loss(a, n, p, margin=1.0, eps=0.0).item() == pytest.approx(6.0)
    y = minitorch.tensor([1.0, -1.0])
    assert MF.margin_ranking_loss(minitorch.tensor([1.0, 1.0]), minitorch.tensor([2.0, 0.0]), y).item() == 1.0
    assert MF.hinge_embedding_loss(minitorch.tensor([0.3, 0.3]), y, reduction="none").tolist() == \
        pytest.approx([0.3, 0.7])
    assert MF.soft_margin_loss(minitorch.tensor([0.0]), minitorch.tensor([1.0])).item() == pytest.approx(math.log(2))
    np.testing.assert_allclose(MF.rms_norm(minitorch.tensor([[3.0, 4.0]]), (2,), eps=0.0).numpy(),
                               [[3 / math.sqrt(12.5), 4 / math.sqrt(12.5)]], rtol=1e-6)
    out, index = MF.adaptive_max_pool2d(minitorch.tensor([[[1.0, 5.0, 2.0], [4.0, 3.0, 6.0]]]), 1,
                                        return_indices=True)
    assert out.tolist() == [[[6.0]]] and index.tolist() == [[[5]]]
    nan = minitorch.tensor([[[1.0, math.nan, 2.0, math.nan]]])
    assert MF.adaptive_max_pool2d(nan, 1, return_indices=True)[1].tolist() == [[[3]]]  # torch: the last NaN
    assert MF.gaussian_nll_loss(minitorch.tensor([1.0]), minitorch.tensor([1.0]),
                                minitorch.tensor([1.0])).item() == 0.0
    assert MF.poisson_nll_loss(minitorch.tensor([0.0]), minitorch.tensor([2.0])).item() == 1.0


def test_padding_modules_shapes():
    nn = minitorch.nn
    x = minitorch.randn(1, 2, 4, 5)
    assert tuple(nn.ZeroPad2d((1, 2, 0, 3))(x).shape) == (1, 2, 7, 8)
    assert tuple(nn.ReflectionPad2d(2)(x).shape) == (1, 2, 8, 9)
    assert tuple(nn.ReplicationPad1d((0, 3))(x[0]).shape) == (2, 4, 8)
    assert nn.ConstantPad1d(1, 7.0)(minitorch.zeros(1, 1, 1)).tolist() == [[[7.0, 0.0, 7.0]]]


# ---- errors ------------------------------------------------------------------------------------------------
ERRORS = {
    "glu_odd": ([(3, 5)], lambda lib, x: F(lib).glu(x, 1), RuntimeError,
                "Halving dimension must be even, but dimension 1 is size 5"),
    "glu_scalar": ([np.array(1.0, np.float32)], lambda lib, x: F(lib).glu(x), RuntimeError,
                   "glu does not support scalars because halving size must be even"),
    "glu_dim": ([(4,)], lambda lib, x: F(lib).glu(x, 2), IndexError,
                "Dimension out of range (expected to be in range of [-1, 0], but got 2)"),
    "rms_norm_int_shape": ([(2, 3)], lambda lib, x: F(lib).rms_norm(x, 3), TypeError,
                           "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int"),
    "bilinear_bias": ([(2, 3), (2, 4), (5, 3, 4), (6,)], lambda lib, a, b, w, c: F(lib).bilinear(a, b, w, c),
                      RuntimeError, "bilinear(): bias size does not match weight size: got 6 but expected 5"),
    "triplet_dims": ([(2, 3), (3,), (2, 3)], lambda lib, a, p, n: F(lib).triplet_margin_loss(a, p, n), RuntimeError,
                     "The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
                     "but got: anchor 2D, positive 1D, and negative 2D inputs"),
    "cosine_embedding_target": ([(2, 3), (2, 3), (2, 1)], lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y),
                                RuntimeError, "0D or 1D target tensor expected, multi-target not supported"),
    "cosine_embedding_0d": ([(2, 3), (2, 3), np.array(1.0, np.float32)],
                            lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y), RuntimeError,
                            "0D target tensor expects 1D input tensors, but found inputs with sizes [2, 3] and [2, 3]."),
    "instance_norm_module_features": ([(2, 4, 5)], lambda lib, x: lib.nn.InstanceNorm1d(3, affine=True)(x),
                                      ValueError, "expected input's size at dim=1 to match num_features (3), but got: 4."),
    "prelu_channels": ([(2, 4), (3,)], lambda lib, x, w: F(lib).prelu(x, w), RuntimeError,
                       "Mismatch of parameter numbers and input channel size. Found parameter numbers = 3 and channel "
                       "size = 4."),
    "softshrink_negative": ([(3,)], lambda lib, x: F(lib).softshrink(x, -1.0), RuntimeError,
                            "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -1"),
    "pixel_shuffle_channels": ([(1, 5, 2, 2)], lambda lib, x: F(lib).pixel_shuffle(x, 2), RuntimeError,
                               "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                               "of upscale_factor, but input.size(-3)=5 is not divisible by 4"),
    "pixel_shuffle_dims": ([(4, 4)], lambda lib, x: F(lib).pixel_shuffle(x, 2), RuntimeError,
                           "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
                           "dimension(s)"),
    "pixel_unshuffle_width": ([(1, 1, 4, 3)], lambda lib, x: F(lib).pixel_unshuffle(x, 2), RuntimeError,
                              "pixel_unshuffle expects width to be divisible by downscale_factor, but "
                              "input.size(-1)=3 is not divisible by 2"),
    "bilinear_batch": ([(2, 3), (3, 4), (5, 3, 4)], lambda lib, a, b, w: F(lib).bilinear(a, b, w), RuntimeError,
                       "bilinear(): input batch dimensions do not match at dim 0: got 2 and 3"),
    "bilinear_in1": ([(2, 2), (2, 4), (5, 3, 4)], lambda lib, a, b, w: F(lib).bilinear(a, b, w), RuntimeError,
                     "bilinear(): input1 size does not match weight size: got 2 but expected 3"),
    "instance_norm_spatial": ([(2, 3, 1)], lambda lib, x: F(lib).instance_norm(x), ValueError,
                              "Expected more than 1 spatial element when training, got input size "
                              "minitorch.Size([2, 3, 1])"),
    "rms_norm_shape": ([(2, 3)], lambda lib, x: F(lib).rms_norm(x, (4,)), RuntimeError,
                       "Given normalized_shape=[4], expected input with shape [*4], but got input of size[2, 3]"),
    "kl_div_reduction": ([(2, 3), (2, 3)], lambda lib, x, t: F(lib).kl_div(x, t, reduction="avg"), ValueError,
                         "avg is not a valid value for reduction"),
    "gaussian_nll_var_size": ([(4, 5), (4, 5), POS[0, :3].copy()], lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v),
                              ValueError, "var is of incorrect size"),
    "gaussian_nll_var_negative": ([(4, 5), (4, 5), -POS], lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v),
                                  ValueError, "var has negative entry/entries"),
    "gaussian_nll_reduction": ([(4, 5), (4, 5), POS], lambda lib, x, t, v: F(lib).gaussian_nll_loss(
        x, t, v, reduction="avg"), ValueError, "avg is not valid"),
    "triplet_margin": ([(2, 3), (2, 3), (2, 3)], lambda lib, a, p, n: F(lib).triplet_margin_loss(a, p, n, margin=0),
                       ValueError, "margin must be greater than 0, got 0"),
    "margin_ranking_dims": ([(3,), (3,), (3, 1)], lambda lib, a, b, y: F(lib).margin_ranking_loss(a, b, y),
                            RuntimeError, "margin_ranking_loss : All input tensors should have same dimension but got "
                            "sizes: input1: minitorch.Size([3]), input2: minitorch.Size([3]), target: "
                            "minitorch.Size([3, 1]) "),
    "multilabel_reduction": ([(2, 3), (2, 3)], lambda lib, x, t: F(lib).multilabel_soft_margin_loss(
        x, t, reduction="avg"), ValueError, "avg is not valid"),
    "max_pool1d_dims": ([(4,)], lambda lib, x: F(lib).max_pool1d(x, 2), RuntimeError,
                        "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, "
                        "but got:[4]"),
    "avg_pool1d_dims": ([(4,)], lambda lib, x: F(lib).avg_pool1d(x, 2), RuntimeError,
                        "Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument #1 'self' (while "
                        "checking arguments for avg_pool1d)"),
    "adaptive_max_pool2d_dims": ([(3, 4)], lambda lib, x: F(lib).adaptive_max_pool2d(x, 2), RuntimeError,
                                 "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [3, 4]"),
    "pad_reflect_too_big": ([(1, 2, 3, 4)], lambda lib, x: F(lib).pad(x, (1, 1, 1, 5), mode="reflect"),
                            RuntimeError, "Argument #6: Padding size should be less than the corresponding input "
                            "dimension, but got: padding (1, 5) at dimension 2 of input [1, 2, 3, 4]"),
    "pad_circular_wraps": ([(2, 3, 4)], lambda lib, x: F(lib).pad(x, (0, 5), mode="circular"), RuntimeError,
                           "Padding value causes wrapping around more than once."),
    "pad_replicate_size": ([(3,)], lambda lib, x: F(lib).pad(x, (1, 1), mode="replicate"), NotImplementedError,
                           "Padding size 2 is not supported for 1D input tensor.\nSupported combinations for "
                           "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D "
                           "or 4D input: padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size "
                           "= 6 (pads last 3 dimensions)"),
    "instance_norm_module_dims": ([(2, 3, 4, 4)], lambda lib, x: lib.nn.InstanceNorm1d(3)(x), ValueError,
                                  "expected 2D or 3D input (got 4D input)"),
    "triplet_module_margin": ([], lambda lib: lib.nn.TripletMarginLoss(margin=-1), ValueError,
                              "TripletMarginLoss: expected margin to be greater than 0, got -1 instead"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    inputs, fn, exc, msg = ERRORS[name]
    check_error(fn, *inputs, exc=exc, msg=msg)
