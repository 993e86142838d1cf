"""Bad input to nn layers and functions raises PyTorch's exception with its exact message
(checked against the literal text, and against torch itself where it is installed); every row, and a row made by
``recorded`` only, is also compared with what torch did when tests/fixtures/make_error_fixtures.py recorded it."""
import numpy as np
import pytest
from op_helper import check_error, check_recorded, ints, recorded


def case(name, fn, *inputs, exc, msg):
    return pytest.param(fn, inputs, exc, msg, False, id=name)


CASES = [
    # batch norm: the sizes of the running statistics and the affine parameters
    case("BatchNorm2d channels", lambda t, x: t.nn.BatchNorm2d(3)(x), (2, 4, 5, 5), exc=RuntimeError,
         msg="running_mean should contain 4 elements not 3"),
    case("BatchNorm2d channels eval", lambda t, x: t.nn.BatchNorm2d(3).eval()(x), (2, 4, 5, 5), exc=RuntimeError,
         msg="running_mean should contain 4 elements not 3"),
    case("BatchNorm1d channels untracked", lambda t, x: t.nn.BatchNorm1d(3, track_running_stats=False)(x), (6, 4),
         exc=RuntimeError, msg="weight should contain 4 elements not 3"),
    case("batch_norm running_var", lambda t, x: t.nn.functional.batch_norm(x, t.zeros(4), t.ones(3), training=True),
         (2, 4, 3), exc=RuntimeError, msg="running_var should contain 4 elements not 3"),
    case("batch_norm bias", lambda t, x: t.nn.functional.batch_norm(x, None, None, t.ones(4), t.zeros(5),
                                                                     training=True),
         (2, 4, 3), exc=RuntimeError, msg="bias should contain 4 elements not 5"),
    case("batch_norm eval without running_mean", lambda t, x: t.nn.functional.batch_norm(x, None, t.ones(4)),
         (2, 4, 3), exc=RuntimeError, msg="running_mean must be defined in evaluation mode"),
    case("batch_norm eval without running_var", lambda t, x: t.nn.functional.batch_norm(x, t.zeros(4), None),
         (2, 4, 3), exc=RuntimeError, msg="running_var must be defined in evaluation mode"),
    case("batch_norm one running statistic", lambda t, x: t.nn.functional.batch_norm(x, t.zeros(4), None,
                                                                                     training=True),
         (2, 4, 3), exc=ValueError, msg="running_mean and running_var must either both be None or neither be None"),
    # pooling: a window larger than the (padded) input leaves no output
    case("max_pool2d kernel > input", lambda t, x: t.nn.functional.max_pool2d(x, 3), (1, 1, 2, 2), exc=RuntimeError,
         msg="Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
    case("max_pool2d kernel > input, one dim", lambda t, x: t.nn.functional.max_pool2d(x, 3), (2, 3, 2, 5),
         exc=RuntimeError, msg="Given input size: (3x2x5). Calculated output size: (3x0x1). Output size is too small"),
    case("max_pool2d unbatched", lambda t, x: t.nn.MaxPool2d((3, 6))(x), (3, 2, 5), exc=RuntimeError,
         msg="Given input size: (3x2x5). Calculated output size: (3x0x0). Output size is too small"),
    case("max_pool2d dilated", lambda t, x: t.nn.functional.max_pool2d(x, 3, dilation=3), (1, 1, 5, 5),
         exc=RuntimeError, msg="Given input size: (1x5x5). Calculated output size: (1x0x0). Output size is too small"),
    case("avg_pool2d kernel > input", lambda t, x: t.nn.functional.avg_pool2d(x, 3), (1, 1, 2, 2), exc=RuntimeError,
         msg="Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
    # class-index targets: their shape and dtype
    case("cross_entropy (N, 1) target", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3), ints((4, 1), 0, 3),
         exc=RuntimeError, msg="0D or 1D target tensor expected, multi-target not supported"),
    case("cross_entropy int32 target", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3),
         ints((4,), 0, 3, np.int32), exc=RuntimeError, msg="expected target dtype to be Long or Byte, but got Int"),
    case("CrossEntropyLoss int32 (N, 1) target", lambda t, x, y: t.nn.CrossEntropyLoss()(x, y), (4, 3),
         ints((4, 1), 0, 3, np.int32), exc=RuntimeError,
         msg="0D or 1D target tensor expected, multi-target not supported"),
    case("cross_entropy int8 target, smoothing", lambda t, x, y: t.nn.functional.cross_entropy(x, y, label_smoothing=0.1),
         (4, 3), ints((4,), 0, 3, np.int8), exc=RuntimeError,
         msg="expected target dtype to be Long or Byte, but got Char"),
    case("cross_entropy spatial int32 target", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (2, 3, 4, 5),
         ints((2, 4, 5), 0, 3, np.int32), exc=RuntimeError, msg="expected target dtype to be Long or Byte, but got Int"),
    case("cross_entropy spatial target size", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (2, 3, 4, 5),
         ints((2, 4, 4), 0, 3), exc=RuntimeError, msg="size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 4]"),
    case("cross_entropy spatial target dims", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (2, 3, 4, 5),
         ints((2, 4), 0, 3), exc=RuntimeError,
         msg="only batches of spatial targets supported (3D tensors) but got targets of dimension: 2"),
    case("cross_entropy 3d target size", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (2, 3, 4),
         ints((2, 5), 0, 3), exc=RuntimeError, msg="Expected target size [2, 4], got [2, 5]"),
    case("cross_entropy 3d target batch", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (2, 3, 4),
         ints((2,), 0, 3), exc=RuntimeError, msg="Expected target size [2, 4], got [2]"),
    case("nll_loss 1d input target size", lambda t, x, y: t.nn.functional.nll_loss(x, y), (3,), ints((2,), 0, 3),
         exc=ValueError, msg="For 1D input, 1D target must have size 1, but got target size: 2"),
    case("nll_loss weight size", lambda t, x, y: t.nn.functional.nll_loss(x, y, weight=t.ones(2)), (4, 3),
         ints((4,), 0, 3), exc=RuntimeError,
         msg="weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: "
             "[2]"),
    case("nll_loss bool target", lambda t, x, y: t.nn.functional.nll_loss(x, y), (4, 3), np.ones(4, bool),
         exc=RuntimeError, msg="expected target dtype to be Long or Byte, but got Bool"),
    case("nll_loss 0-d input", lambda t, x, y: t.nn.functional.nll_loss(x, y), (), ints((), 0, 1),
         exc=ValueError, msg="Expected 1 or more dimensions (got 0)"),
    # linear: torch's addmm dtype checks (bias first, then input)
    case("Linear float64 input", lambda t, x: t.nn.Linear(3, 2)(x), np.ones((4, 3)), exc=RuntimeError,
         msg="mat1 and mat2 must have the same dtype, but got Double and Float"),
    case("Linear float64 input, batch dims", lambda t, x: t.nn.Linear(3, 2)(x), np.ones((5, 4, 3)), exc=RuntimeError,
         msg="mat1 and mat2 must have the same dtype, but got Double and Float"),
    case("Linear float64 unbatched input", lambda t, x: t.nn.Linear(3, 2)(x), np.ones(3), exc=RuntimeError,
         msg="mat1 and mat2 must have the same dtype, but got Double and Float"),
    case("Linear float16 input", lambda t, x: t.nn.Linear(3, 2)(x), np.ones((4, 3), np.float16), exc=RuntimeError,
         msg="mat1 and mat2 must have the same dtype, but got Half and Float"),
    case("Linear float64 no bias", lambda t, x: t.nn.Linear(3, 2, bias=False)(x), np.ones((4, 3)), exc=RuntimeError,
         msg="expected m1 and m2 to have the same dtype, but got: double != float"),
    case("linear float64 bias", lambda t, x, w, b: t.nn.functional.linear(x, w, b), (4, 3), (2, 3), np.ones(2),
         exc=RuntimeError, msg="self and mat2 must have the same dtype, but got Double and Float"),
    case("linear float64 weight", lambda t, x, w, b: t.nn.functional.linear(x, w, b), (4, 3), np.ones((2, 3)), (2,),
         exc=RuntimeError, msg="self and mat2 must have the same dtype, but got Float and Double"),
    # losses of inputs whose shapes do not broadcast (some warn first)
    recorded("mse_loss shapes", lambda t, x, y: t.nn.functional.mse_loss(x, y), (2, 3), (3, 2)),
    recorded("MSELoss shapes", lambda t, x, y: t.nn.MSELoss()(x, y), (2, 3), (2, 4)),
    recorded("l1_loss shapes", lambda t, x, y: t.nn.functional.l1_loss(x, y), (2, 3), (2, 4)),
    recorded("smooth_l1_loss shapes", lambda t, x, y: t.nn.functional.smooth_l1_loss(x, y), (2, 3), (3, 2)),
    recorded("huber_loss shapes", lambda t, x, y: t.nn.functional.huber_loss(x, y, reduction="none"), (2, 3),
             (3, 2)),
    recorded("soft_margin_loss shapes", lambda t, x, y: t.nn.functional.soft_margin_loss(x, y), (2, 3), (3, 2)),
    recorded("binary_cross_entropy shapes", lambda t, x, y: t.nn.functional.binary_cross_entropy(x.sigmoid(), y),
             (2, 3), (3, 2)),
    recorded("binary_cross_entropy weight", lambda t, x, w: t.nn.functional.binary_cross_entropy(
        x.sigmoid(), x.sigmoid(), weight=w), (2, 3), (3, 2)),
    recorded("binary_cross_entropy_with_logits shapes",
             lambda t, x, y: t.nn.functional.binary_cross_entropy_with_logits(x, y), (2, 3), (3, 2)),
    recorded("binary_cross_entropy_with_logits weight",
             lambda t, x, w: t.nn.functional.binary_cross_entropy_with_logits(x, x, weight=w), (2, 3), (3, 2)),
    recorded("binary_cross_entropy_with_logits pos_weight",
             lambda t, x, w: t.nn.functional.binary_cross_entropy_with_logits(x, x, pos_weight=w), (2, 3), (2,)),
    recorded("kl_div shapes", lambda t, x, y: t.nn.functional.kl_div(x, y, reduction="batchmean"), (2, 3), (3, 2)),
    recorded("poisson_nll_loss shapes", lambda t, x, y: t.nn.functional.poisson_nll_loss(x, y), (2, 3), (3, 2)),
    recorded("gaussian_nll_loss shapes", lambda t, x, y: t.nn.functional.gaussian_nll_loss(x, y, x.exp()), (2, 3),
             (3, 2)),
    recorded("margin_ranking_loss shapes", lambda t, x, y: t.nn.functional.margin_ranking_loss(x, y, x), (2, 3),
             (3, 2)),
    recorded("hinge_embedding_loss shapes", lambda t, x, y: t.nn.functional.hinge_embedding_loss(x, y), (2, 3),
             (3, 2)),
    recorded("multilabel_soft_margin_loss shapes",
             lambda t, x, y: t.nn.functional.multilabel_soft_margin_loss(x, y), (2, 3), (3, 2)),
    recorded("cosine_embedding_loss target", lambda t, x, y: t.nn.functional.cosine_embedding_loss(x, x, y), (2, 3),
             (3,)),
    # convolution arguments: checked by the layer's constructor, or by the functional form
    recorded("Conv2d same strided", lambda t: t.nn.Conv2d(3, 8, 3, padding="same", stride=2)),
    recorded("Conv1d same strided", lambda t: t.nn.Conv1d(3, 8, 3, padding="same", stride=2)),
    recorded("Conv3d same strided", lambda t: t.nn.Conv3d(3, 8, 3, padding="same", stride=(1, 1, 2))),
    recorded("Conv2d padding string", lambda t: t.nn.Conv2d(3, 8, 3, padding="full")),
    recorded("Conv2d padding string case", lambda t: t.nn.Conv2d(3, 8, 3, padding="SAME")),
    recorded("Conv2d padding_mode", lambda t: t.nn.Conv2d(3, 8, 3, padding_mode="zero")),
    recorded("ConvTranspose2d padding_mode", lambda t: t.nn.ConvTranspose2d(3, 8, 3, padding_mode="reflect")),
    recorded("ConvTranspose2d same", lambda t, x: t.nn.ConvTranspose2d(3, 8, 3, padding="same")(x), (1, 3, 5, 5)),
    recorded("Conv2d same circular", lambda t, x: t.nn.Conv2d(3, 8, 4, padding="same", padding_mode="circular")(
        x).shape, (1, 3, 5, 5)),
    recorded("Conv2d zero channels", lambda t: t.nn.Conv2d(0, 8, 3).weight.shape),
    recorded("conv2d padding string", lambda t, x, w: t.nn.functional.conv2d(x, w, padding="full"), (1, 3, 5, 5),
             (8, 3, 3, 3)),
    recorded("conv2d same strided", lambda t, x, w: t.nn.functional.conv2d(x, w, padding="same", stride=2),
             (1, 3, 5, 5), (8, 3, 3, 3)),
    recorded("conv2d same even kernel", lambda t, x, w: t.nn.functional.conv2d(x, w, padding="same").shape,
             (1, 3, 5, 5), (8, 3, 4, 4)),
    recorded("conv1d same dilated even kernel", lambda t, x, w: t.nn.functional.conv1d(
        x, w, padding="same", dilation=2).shape, (1, 3, 5), (8, 3, 4)),
    recorded("conv_transpose2d padding string", lambda t, x, w: t.nn.functional.conv_transpose2d(
        x, w, padding="same"), (1, 3, 5, 5), (3, 8, 3, 3)),
    recorded("conv2d stride 0", lambda t, x, w: t.nn.functional.conv2d(x, w, stride=0), (1, 3, 5, 5), (8, 3, 3, 3)),
    recorded("conv2d negative padding", lambda t, x, w: t.nn.functional.conv2d(x, w, padding=-1), (1, 3, 5, 5),
             (8, 3, 3, 3)),
    recorded("conv2d bias size", lambda t, x, w, b: t.nn.functional.conv2d(x, w, b), (1, 3, 5, 5), (8, 3, 3, 3),
             (7,)),
    recorded("conv2d weight dims", lambda t, x, w: t.nn.functional.conv2d(x, w), (1, 3, 5, 5), (8, 3, 3)),
    recorded("Conv2d channels", lambda t, x: t.nn.Conv2d(3, 8, 3)(x), (1, 4, 5, 5)),
    recorded("Conv2d input too small", lambda t, x: t.nn.Conv2d(3, 8, 3)(x), (1, 3, 2, 2)),
    recorded("Conv2d 2-d input", lambda t, x: t.nn.Conv2d(3, 8, 3)(x), (5, 5)),
    recorded("Conv2d float64 weights", lambda t, x: t.nn.Conv2d(3, 8, 3).double()(x), (1, 3, 5, 5)),
    recorded("Conv2d float64 input", lambda t, x: t.nn.Conv2d(3, 8, 3)(x), np.ones((1, 3, 5, 5))),
    recorded("conv2d float64 bias", lambda t, x, w, b: t.nn.functional.conv2d(x, w, b), (1, 3, 5, 5), (8, 3, 3, 3),
             np.ones(8)),
    # other common mistakes
    recorded("Linear in_features", lambda t, x: t.nn.Linear(3, 2)(x), (4, 5)),
    recorded("Linear int64 input", lambda t, x: t.nn.Linear(3, 2)(x), ints((4, 3))),
    recorded("Linear no input", lambda t: t.nn.Linear(3, 2)()),
    recorded("cross_entropy target out of range", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3),
             np.array([0, 1, 5, 2])),
    recorded("cross_entropy negative target", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3),
             np.array([0, -1, 2, 2])),
    recorded("cross_entropy float target indices", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3),
             np.array([0.0, 1.0, 2.0, 1.0], np.float32)),
    recorded("cross_entropy probabilities shape", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (4, 3),
             (4, 2)),
    recorded("cross_entropy 1-d input", lambda t, x, y: t.nn.functional.cross_entropy(x, y), (3,), ints((4,), 0, 3)),
    recorded("nll_loss target out of range", lambda t, x, y: t.nn.functional.nll_loss(x, y), (4, 3),
             np.array([0, 3, 1, 2])),
    recorded("nll_loss batch", lambda t, x, y: t.nn.functional.nll_loss(x, y), (4, 3), ints((5,), 0, 3)),
    recorded("Embedding index out of range", lambda t, i: t.nn.Embedding(10, 3)(i), np.array([1, 10])),
    recorded("Embedding float index", lambda t, i: t.nn.Embedding(10, 3)(i), np.array([1.0, 2.0], np.float32)),
    recorded("Embedding padding_idx", lambda t: t.nn.Embedding(5, 3, padding_idx=5)),
    recorded("one_hot negative", lambda t, i: t.nn.functional.one_hot(i), np.array([1, -1])),
    recorded("one_hot float", lambda t, i: t.nn.functional.one_hot(i), np.array([1.0, 2.0], np.float32)),
    recorded("BatchNorm1d one sample", lambda t, x: t.nn.BatchNorm1d(3)(x), (1, 3)),
    recorded("LayerNorm shape", lambda t, x: t.nn.LayerNorm(4)(x), (2, 3)),
    recorded("LSTM input_size", lambda t, x: t.nn.LSTM(3, 4)(x), (5, 2, 6)),
    recorded("GRU hidden shape", lambda t, x, h: t.nn.GRU(3, 4)(x, h), (5, 2, 3), (1, 3, 4)),
    recorded("RNN 4-d input", lambda t, x: t.nn.RNN(3, 4)(x), (5, 2, 3, 1)),
    recorded("MultiheadAttention heads", lambda t: t.nn.MultiheadAttention(5, 2)),
    recorded("MaxPool2d 1-d input", lambda t, x: t.nn.MaxPool2d(2)(x), (4,)),
    recorded("dropout p", lambda t, x: t.nn.functional.dropout(x, 1.5), (2, 3)),
    recorded("Dropout p", lambda t: t.nn.Dropout(-0.1)),
    recorded("softmax without dim", lambda t, x: t.nn.functional.softmax(x).shape, (2, 3)),
    recorded("interpolate size and scale", lambda t, x: t.nn.functional.interpolate(x, size=4, scale_factor=2),
             (1, 1, 2, 2)),
    recorded("pad odd length", lambda t, x: t.nn.functional.pad(x, (1,)), (2, 3)),
    recorded("pad too long", lambda t, x: t.nn.functional.pad(x, (1, 1, 1, 1, 1, 1)), (2, 3)),
    recorded("Sequential index", lambda t: t.nn.Sequential(t.nn.ReLU())[3]),
    recorded("load_state_dict missing keys", lambda t: t.nn.Linear(3, 2).load_state_dict({})),
    recorded("load_state_dict shape", lambda t: t.nn.Linear(3, 2).load_state_dict(t.nn.Linear(2, 2).state_dict())),
    recorded("SGD negative lr", lambda t: t.optim.SGD(t.nn.Linear(3, 2).parameters(), lr=-1.0)),
    recorded("SGD no parameters", lambda t: t.optim.SGD([], lr=0.1)),
    recorded("SGD a tensor", lambda t, x: t.optim.SGD(x, lr=0.1), (3,), grad=True),
    recorded("Adam betas", lambda t: t.optim.Adam(t.nn.Linear(3, 2).parameters(), betas=(1.0, 0.999))),
]


@pytest.mark.parametrize("fn, inputs, exc, msg, grad", CASES)
def test_error(request, fn, inputs, exc, msg, grad):
    if msg is not None:
        check_error(fn, *inputs, exc=exc, msg=msg)
        check_error(fn, *inputs, exc=exc, msg=msg, grad=True)
    check_recorded(f"{__name__}::{request.node.callspec.id}", fn, *inputs, grad=grad)


def test_pooling_windows_that_still_fit_are_fine():
    """ceil_mode and padding can leave one window where floor mode without padding leaves none."""
    import minitorch
    x = minitorch.tensor(np.arange(4.0).reshape(1, 1, 2, 2))
    assert minitorch.nn.functional.max_pool2d(x, 3, ceil_mode=True).tolist() == [[[[3.0]]]]
    assert minitorch.nn.functional.max_pool2d(x, 4, padding=2).tolist() == [[[[3.0]]]]
