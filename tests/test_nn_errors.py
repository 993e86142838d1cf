"""Bad input to nn layers and functions raises PyTorch's exception with its exact message
(checked against the literal text, and against torch itself where it is installed)."""
import numpy as np
import pytest

from op_helper import check_error


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
