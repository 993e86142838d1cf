"""Bad input to nn layers and functions raises PyTorch's exception with its exact message
(checked against the literal text, and against torch itself where it is installed)."""
import numpy as np
import pytest
from op_helper import check_error, ints


def case(name, fn, *inputs, exc, msg):
    return pytest.param(fn, inputs, exc, msg, id=name)


ERRORS = [
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
]


@pytest.mark.parametrize("fn, inputs, exc, msg", ERRORS)
def test_error(fn, inputs, exc, msg):
    check_error(fn, *inputs, exc=exc, msg=msg)
    check_error(fn, *inputs, exc=exc, msg=msg, grad=True)


def test_pooling_windows_that_still_fit_are_fine():
    """ceil_mode and padding can leave one window where floor mode without padding leaves none."""
    import minitorch
    x = minitorch.tensor(np.arange(4.0).reshape(1, 1, 2, 2))
    assert minitorch.nn.functional.max_pool2d(x, 3, ceil_mode=True).tolist() == [[[[3.0]]]]
    assert minitorch.nn.functional.max_pool2d(x, 4, padding=2).tolist() == [[[[3.0]]]]
