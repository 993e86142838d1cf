"""nn.functional: every layer's forward and gradients.

Each case is checked three ways: gradcheck (and gradgradcheck where the second
derivative is meaningful) in float64 without torch; forward values, gradients and
node names against PyTorch on the same inputs when it is installed; and a few
hand-derived values.
"""
import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck
from torch_answers import torch_answer

RNG = np.random.default_rng(0)


def arr(*shape, low=-1.0, high=1.0):
    return RNG.uniform(low, high, shape)


X4 = arr(2, 4, 6, 6)
W33 = arr(6, 4, 3, 3)
WDW = arr(8, 1, 3, 3)          # depthwise with multiplier 2
WG2 = arr(6, 2, 3, 3)          # groups=2
WT = arr(4, 3, 3, 3)           # conv_transpose (in=4, out=3)
B6 = arr(6)
X3 = arr(2, 3, 10)
W1D = arr(5, 3, 3)
LOGITS = arr(5, 4)
TARGET = np.array([0, 3, 1, 3, 2])
PROB = RNG.dirichlet(np.ones(4), 5)

# name -> (function of (F, lib, *tensors), list of (array, requires_grad), second-order check?)
CASES = {
    "linear": (lambda F, lib, x, w, b: F.linear(x, w, b), [(arr(3, 4), True), (arr(2, 4), True), (arr(2), True)], True),
    "linear_3d": (lambda F, lib, x, w: F.linear(x, w), [(arr(2, 3, 4), True), (arr(5, 4), True)], True),
    "conv2d": (lambda F, lib, x, w, b: F.conv2d(x, w, b, stride=2, padding=1), [(X4, True), (W33, True), (B6, True)], True),
    "conv2d_dilated_same": (lambda F, lib, x, w: F.conv2d(x, w, padding="same", dilation=2), [(X4, True), (W33, True)], False),
    "conv2d_depthwise": (lambda F, lib, x, w: F.conv2d(x, w, groups=4, padding=1), [(X4, True), (WDW, True)], True),
    "conv2d_groups": (lambda F, lib, x, w: F.conv2d(x, w, groups=2, stride=(1, 2)), [(X4, True), (WG2, True)], False),
    "conv2d_groups_stride1": (lambda F, lib, x, w: F.conv2d(x, w, groups=2, padding=1), [(X4, True), (WG2, True)], True),
    "conv2d_same_even": (lambda F, lib, x, w: F.conv2d(x, w, padding="same"), [(X4, True), (arr(3, 4, 4, 2), True)], False),
    "conv2d_pad_past_kernel": (lambda F, lib, x, w: F.conv2d(x, w, padding=(2, 3)), [(X4, True), (arr(3, 4, 2, 2), True)],
                               True),
    "conv2d_1x1": (lambda F, lib, x, w: F.conv2d(x, w, stride=2), [(X4, True), (arr(3, 4, 1, 1), True)], False),
    "conv1d": (lambda F, lib, x, w: F.conv1d(x, w, stride=2, padding=1), [(X3, True), (W1D, True)], True),
    "conv_transpose2d": (lambda F, lib, x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                         [(X4, True), (WT, True), (arr(3), True)], True),
    "conv_transpose2d_stride1": (lambda F, lib, x, w: F.conv_transpose2d(x, w, padding=1, output_padding=1, dilation=2),
                                 [(X4, True), (WT, True)], True),
    "max_pool2d": (lambda F, lib, x: F.max_pool2d(x, 3, 2, 1), [(X4, True)], True),
    "max_pool2d_ceil": (lambda F, lib, x: F.max_pool2d(x, 2, 2, ceil_mode=True), [(arr(1, 2, 5, 5), True)], False),
    "avg_pool2d": (lambda F, lib, x: F.avg_pool2d(x, 3, 2, 1), [(X4, True)], True),
    "avg_pool2d_exclude_pad": (lambda F, lib, x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
                               [(arr(1, 2, 5, 5), True)], False),
    "adaptive_avg_pool2d": (lambda F, lib, x: F.adaptive_avg_pool2d(x, (4, 3)), [(X4, True)], True),
    "adaptive_avg_pool2d_1": (lambda F, lib, x: F.adaptive_avg_pool2d(x, 1), [(X4, True)], False),
    "interpolate": (lambda F, lib, x: F.interpolate(x, scale_factor=1.5), [(X4, True)], False),
    "interpolate_size": (lambda F, lib, x: F.interpolate(x, size=(4, 9)), [(X4, True)], False),
    "pad_constant": (lambda F, lib, x: F.pad(x, (1, 2, 0, 1), value=0.5), [(X4, True)], False),
    "pad_reflect": (lambda F, lib, x: F.pad(x, (2, 1, 1, 2), mode="reflect"), [(X4, True)], False),
    "pad_replicate": (lambda F, lib, x: F.pad(x, (2, 1, 1, 2), mode="replicate"), [(X4, True)], False),
    "pad_circular": (lambda F, lib, x: F.pad(x, (2, 1, 1, 2), mode="circular"), [(X4, True)], False),
    "batch_norm_train": (lambda F, lib, x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                         [(X4, True), (arr(4), True), (arr(4), True)], True),
    "batch_norm_eval": (lambda F, lib, x, w, b: F.batch_norm(x, lib.tensor([0.1, 0.2, -0.1, 0.0], dtype=x.dtype),
                                                             lib.tensor([1.0, 0.5, 2.0, 1.5], dtype=x.dtype), w, b),
                        [(X4, True), (arr(4), True), (arr(4), True)], True),
    "batch_norm_2d_input": (lambda F, lib, x: F.batch_norm(x, None, None, training=True), [(arr(5, 3), True)], True),
    "layer_norm": (lambda F, lib, x, w, b: F.layer_norm(x, (6, 6), w, b), [(X4, True), (arr(6, 6), True), (arr(6, 6), True)], True),
    "group_norm": (lambda F, lib, x, w, b: F.group_norm(x, 2, w, b), [(X4, True), (arr(4), True), (arr(4), True)], True),
    "relu": (lambda F, lib, x: F.relu(x), [(arr(3, 5), True)], False),
    "relu6": (lambda F, lib, x: F.relu6(x * 5), [(arr(3, 5), True)], False),
    "leaky_relu": (lambda F, lib, x: F.leaky_relu(x, 0.2), [(arr(3, 5), True)], False),
    "gelu": (lambda F, lib, x: F.gelu(x * 3), [(arr(3, 5), True)], True),
    "gelu_tanh": (lambda F, lib, x: F.gelu(x * 3, approximate="tanh"), [(arr(3, 5), True)], True),
    "silu": (lambda F, lib, x: F.silu(x * 3), [(arr(3, 5), True)], True),
    "hardswish": (lambda F, lib, x: F.hardswish(x * 5), [(arr(3, 5), True)], False),
    "hardsigmoid": (lambda F, lib, x: F.hardsigmoid(x * 5), [(arr(3, 5), True)], False),
    "elu": (lambda F, lib, x: F.elu(x * 3, 0.7), [(arr(3, 5), True)], True),
    "selu": (lambda F, lib, x: F.selu(x * 3), [(arr(3, 5), True)], True),
    "celu": (lambda F, lib, x: F.celu(x * 3, 0.5), [(arr(3, 5), True)], True),
    "softplus": (lambda F, lib, x: F.softplus(x * 10, beta=2, threshold=5), [(arr(3, 5), True)], True),
    "logsigmoid": (lambda F, lib, x: F.logsigmoid(x * 4), [(arr(3, 5), True)], True),
    "mish": (lambda F, lib, x: F.mish(x * 3), [(arr(3, 5), True)], True),
    "sigmoid": (lambda F, lib, x: lib.sigmoid(x * 4), [(arr(3, 5), True)], True),
    "softmax": (lambda F, lib, x: F.softmax(x, dim=1), [(arr(3, 5), True)], True),
    "log_softmax": (lambda F, lib, x: F.log_softmax(x, dim=0), [(arr(3, 5), True)], True),
    "embedding": (lambda F, lib, w: F.embedding(lib.tensor([[0, 2, 0], [1, 0, 3]]), w),
                  [(arr(4, 3), True)], False),
    "normalize": (lambda F, lib, x: F.normalize(x, dim=1), [(arr(3, 5), True)], True),
    "cross_entropy": (lambda F, lib, x: F.cross_entropy(x, lib.tensor(TARGET)), [(LOGITS, True)], True),
    "cross_entropy_weight_ignore": (lambda F, lib, x: F.cross_entropy(
        x, lib.tensor([0, 3, -100, 3, 2]), weight=lib.tensor([1.0, 2.0, 0.5, 3.0], dtype=x.dtype)), [(LOGITS, True)], True),
    "cross_entropy_smoothing": (lambda F, lib, x: F.cross_entropy(
        x, lib.tensor([0, 3, -100, 3, 2]), weight=lib.tensor([1.0, 2.0, 0.5, 3.0], dtype=x.dtype),
        label_smoothing=0.2), [(LOGITS, True)], True),
    "cross_entropy_sum": (lambda F, lib, x: F.cross_entropy(x, lib.tensor(TARGET), reduction="sum",
                                                            label_smoothing=0.1), [(LOGITS, True)], False),
    "cross_entropy_none": (lambda F, lib, x: F.cross_entropy(x, lib.tensor(TARGET), reduction="none"), [(LOGITS, True)], False),
    "cross_entropy_probs": (lambda F, lib, x, p: F.cross_entropy(x, p, label_smoothing=0.1), [(LOGITS, True), (PROB, True)], True),
    "cross_entropy_spatial": (lambda F, lib, x: F.cross_entropy(x, lib.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])),
                              [(arr(2, 3, 2, 2), True)], False),
    "nll_loss": (lambda F, lib, x: F.nll_loss(x, lib.tensor(TARGET)), [(LOGITS, True)], False),
    "mse_loss": (lambda F, lib, x, y: F.mse_loss(x, y), [(arr(3, 4), True), (arr(3, 4), True)], True),
    "mse_loss_none": (lambda F, lib, x, y: F.mse_loss(x, y, reduction="none"), [(arr(3, 4), True), (arr(3, 4), True)], False),
    "l1_loss": (lambda F, lib, x, y: F.l1_loss(x, y, reduction="sum"), [(arr(3, 4), True), (arr(3, 4), True)], False),
    "smooth_l1_loss": (lambda F, lib, x, y: F.smooth_l1_loss(x * 2, y, beta=0.5), [(arr(3, 4), True), (arr(3, 4), True)], True),
    "huber_loss": (lambda F, lib, x, y: F.huber_loss(x * 2, y, delta=0.5), [(arr(3, 4), True), (arr(3, 4), True)], True),
    "binary_cross_entropy": (lambda F, lib, x, y: F.binary_cross_entropy(x, y), [(arr(3, 4, low=0.05, high=0.95), True),
                                                                                 (arr(3, 4, low=0, high=1), True)], True),
    "binary_cross_entropy_weight": (lambda F, lib, x, y: F.binary_cross_entropy(
        x, y, weight=lib.tensor([1.0, 2.0, 0.5, 1.0], dtype=x.dtype), reduction="sum"),
        [(arr(3, 4, low=0.05, high=0.95), True), (arr(3, 4, low=0, high=1), False)], False),
    "bce_with_logits": (lambda F, lib, x, y: F.binary_cross_entropy_with_logits(
        x * 3, y, pos_weight=lib.tensor([1.0, 2.0, 0.5, 3.0], dtype=x.dtype)), [(arr(3, 4), True), (arr(3, 4, low=0, high=1), True)], True),
}


def make(lib, spec, dtype):
    return [lib.tensor(a, dtype=dtype, requires_grad=rg) for a, rg in spec]


@pytest.mark.parametrize("name", list(CASES))
def test_gradcheck(name):
    fn, spec, second_order = CASES[name]
    inputs = make(minitorch, spec, minitorch.float64)
    f = lambda *t: fn(F, minitorch, *t)  # noqa: E731
    assert gradcheck(f, inputs, fast_mode=sum(a.size for a, _ in spec) > 300)
    if second_order:
        assert gradgradcheck(f, inputs, fast_mode=True)


def _run(lib, name):
    """The case's float32 output, the gradients of a fixed weighting of it, and its node name."""
    fn, spec, _ = CASES[name]
    inputs = make(lib, spec, lib.float32)
    out = fn(lib.nn.functional, lib, *inputs)
    weights = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)), dtype=lib.float32)
    (out * weights).sum().backward()
    return out.detach().numpy(), [t.grad.numpy() for t in inputs if t.requires_grad], type(out.grad_fn).__name__


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    out, grads, node = _run(minitorch, name)
    their_out, their_grads, their_node = torch_answer(_run, name)
    np.testing.assert_allclose(out, their_out, rtol=1e-4, atol=1e-5)
    for mine, theirs in zip(grads, their_grads, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)
    assert node == NODE_NAME_EXCEPTIONS.get(their_node, their_node)


# torch builds these from internal pieces whose names do not correspond to one minitorch op
NODE_NAME_EXCEPTIONS = {"CopySlices": "CircularPad2DBackward0", "DivBackward1": "DivBackward0"}


def test_conv2d_by_hand():
    x = minitorch.arange(16.0).reshape(1, 1, 4, 4)
    w = minitorch.tensor([[[[1.0, 0.0], [0.0, -1.0]]]])
    assert F.conv2d(x, w).tolist() == [[[[-5.0] * 3] * 3]]
    assert F.conv2d(x, w, stride=2, padding=1).tolist() == [[[[0.0, -2.0, 0.0], [-8.0, -5.0, 7.0], [0.0, 13.0, 15.0]]]]


def test_pooling_by_hand():
    x = minitorch.arange(16.0).reshape(1, 1, 4, 4)
    values, indices = F.max_pool2d(x, 2, return_indices=True)
    assert values.tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]] and indices.tolist() == [[[[5, 7], [13, 15]]]]
    assert F.avg_pool2d(x, 2).tolist() == [[[[2.5, 4.5], [10.5, 12.5]]]]
    assert F.adaptive_avg_pool2d(x, 1).tolist() == [[[[7.5]]]]


def test_cross_entropy_by_hand():
    logits = minitorch.tensor([[0.0, 0.0], [1.0, 0.0]], requires_grad=True)
    loss = F.cross_entropy(logits, minitorch.tensor([0, 1]))
    expected = (np.log(2) + np.log(1 + np.e)) / 2
    assert loss.item() == pytest.approx(expected, rel=1e-6)
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"


def test_batch_norm_updates_running_statistics():
    x = minitorch.tensor([[1.0, 10.0], [3.0, 30.0]])
    rm, rv = minitorch.zeros(2), minitorch.ones(2)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.5)
    assert rm.tolist() == [1.0, 10.0]                      # 0.5 * 0 + 0.5 * mean
    assert rv.tolist() == pytest.approx([1.5, 100.5])      # 0.5 * 1 + 0.5 * unbiased var (2, 200)
    np.testing.assert_allclose(y.numpy(), [[-1.0, -1.0], [1.0, 1.0]], atol=1e-4)
    y_eval = F.batch_norm(x, rm, rv, training=False)
    np.testing.assert_allclose(y_eval.numpy(), [[0.0, 0.0], [2 / np.sqrt(1.5 + 1e-5), 20 / np.sqrt(100.5 + 1e-5)]],
                               rtol=1e-5)


def test_batch_norm_float32_is_stable_far_from_zero():
    """Activations with a large mean and a small spread: float32 forward and backward stay close to
    float64 (the kernel centres before it multiplies, instead of subtracting large sums)."""
    rng = np.random.default_rng(0)
    x64, g64 = 1000 + rng.standard_normal((32, 3, 8, 8)), rng.standard_normal((32, 3, 8, 8))
    results = {}
    for dtype in (minitorch.float32, minitorch.float64):
        x = minitorch.tensor(x64, dtype=dtype, requires_grad=True)
        w = minitorch.tensor([1.0, 2.0, 0.5], dtype=dtype, requires_grad=True)
        y = F.batch_norm(x, None, None, w, training=True)
        y.backward(minitorch.tensor(g64, dtype=dtype))
        results[dtype] = [t.detach().numpy().astype(np.float64) for t in (y, x.grad, w.grad)]
    for low, high in zip(results[minitorch.float32], results[minitorch.float64]):
        assert np.abs(low - high).max() <= 1e-4 * np.abs(high).max()


def test_normalize_zero_rows_and_other_norms(lib):
    """A zero row's gradient is w / eps (the norm's gradient is 0 where the norm is 0, then clamped to eps), not
    NaN; a row of norm 3: (w - y (y . w)) / 3; the infinity norm divides by the largest magnitude."""
    x = lib.tensor([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]], requires_grad=True)
    w = lib.tensor([1.0, 2.0, 3.0])
    out = lib.nn.functional.normalize(x, dim=-1)
    (out * w).sum().backward()
    y = np.array([1.0, 2.0, 2.0]) / 3
    np.testing.assert_allclose(out.detach().numpy(), [[0, 0, 0], y], rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), [[1e12, 2e12, 3e12], ([1, 2, 3] - y * (y @ [1, 2, 3])) / 3],
                               rtol=1e-6)
    np.testing.assert_allclose(lib.nn.functional.normalize(x, p=float("inf"), dim=-1).detach().numpy(),
                               [[0, 0, 0], [0.5, 1, 1]])


def test_dropout_scales_and_is_identity_in_eval():
    minitorch.manual_seed(0)
    x = minitorch.ones(10000)
    y = F.dropout(x, 0.3)
    np.testing.assert_allclose(np.unique(y.numpy()), [0.0, 1 / 0.7], rtol=1e-6)
    assert abs((y == 0).float().mean().item() - 0.3) < 0.02
    assert F.dropout(x, 0.3, training=False) is x
    z = F.dropout2d(minitorch.ones(4, 50, 3, 3), 0.5)
    per_channel = z.numpy().reshape(4, 50, 9)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))  # whole channels are kept or dropped
    with pytest.raises(ValueError, match="^dropout probability has to be between 0 and 1, but got 1.5$"):
        F.dropout(x, 1.5)


def test_embedding_padding_row_gets_no_gradient():
    w = minitorch.ones(4, 2, requires_grad=True)
    F.embedding(minitorch.tensor([1, 1, 2]), w, padding_idx=1).sum().backward()
    assert w.grad.tolist() == [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.0]]


ERRORS = {
    "conv channels": (lambda: F.conv2d(minitorch.ones(2, 3, 5, 5), minitorch.ones(4, 2, 3, 3)), RuntimeError,
                      "Given groups=1, weight of size [4, 2, 3, 3], expected input[2, 3, 5, 5] to have 2 channels, "
                      "but got 3 channels instead"),
    "conv dims": (lambda: F.conv2d(minitorch.ones(3, 5), minitorch.ones(4, 3, 3, 3)), RuntimeError,
                  "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [3, 5]"),
    "conv kernel": (lambda: F.conv2d(minitorch.ones(2, 3, 5, 5), minitorch.ones(4, 3, 7, 7)), RuntimeError,
                    "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be "
                    "greater than actual input size"),
    "conv same stride": (lambda: F.conv2d(minitorch.ones(1, 1, 5, 5), minitorch.ones(1, 1, 3, 3), stride=2,
                                          padding="same"), RuntimeError,
                         "padding='same' is not supported for strided convolutions"),
    "linear": (lambda: F.linear(minitorch.ones(4, 3), minitorch.ones(2, 5)), RuntimeError,
               "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)"),
    "ce batch": (lambda: F.cross_entropy(minitorch.ones(3, 5), minitorch.tensor([0, 1])), ValueError,
                 "Expected input batch_size (3) to match target batch_size (2)."),
    "ce bounds": (lambda: F.cross_entropy(minitorch.ones(2, 5), minitorch.tensor([0, 7])), IndexError,
                  "Target 7 is out of bounds."),
    "bce range": (lambda: F.binary_cross_entropy(minitorch.tensor([1.5]), minitorch.tensor([1.0])), RuntimeError,
                  "all elements of input should be between 0 and 1"),
    "bce logits size": (lambda: F.binary_cross_entropy_with_logits(minitorch.ones(4, 1), minitorch.ones(4)),
                        ValueError, "Target size (minitorch.Size([4])) must be the same as input size "
                                    "(minitorch.Size([4, 1]))"),
    "max pool pad": (lambda: F.max_pool2d(minitorch.ones(1, 1, 5, 5), 2, 2, padding=2), RuntimeError,
                     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
                     "dilation=1"),
    "bn one value": (lambda: F.batch_norm(minitorch.ones(1, 3), minitorch.zeros(3), minitorch.ones(3), training=True),
                     ValueError, "Expected more than 1 value per channel when training, got input size "
                                 "minitorch.Size([1, 3])"),
    "layer norm": (lambda: F.layer_norm(minitorch.ones(2, 3), (4,)), RuntimeError,
                   "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]"),
    "embedding": (lambda: F.embedding(minitorch.tensor([5]), minitorch.ones(3, 2)), IndexError,
                  "index out of range in self"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name):
    fn, kind, message = ERRORS[name]
    with pytest.raises(kind) as e:
        fn()
    assert str(e.value) == message
