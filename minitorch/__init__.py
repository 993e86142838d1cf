"""minitorch: a small, readable deep-learning framework on numpy that behaves like PyTorch.

``import minitorch as torch`` and write PyTorch code.
"""
import warnings as _warnings

# Like torch, tensor math yields inf/nan quietly: numpy's floating-point RuntimeWarnings
# are silenced for calls made from minitorch's own modules (user numpy code is unaffected).
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minitorch(\.|$)")
from ._dtype import (bool, dtype, float16, float32, float64, get_default_dtype, int8, int16, int32,  # noqa: A004
                     int64, promote_types, set_default_dtype, uint8)
from ._tensor import Size, Tensor, device
from . import _ops  # noqa: F401  (binds the Tensor methods)
from ._factories import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor,
                         LongTensor, ShortTensor, arange, as_tensor, asarray, bernoulli, empty, empty_like, eye,
                         from_numpy, full, full_like, linspace, logspace, multinomial, normal, ones, ones_like,
                         rand, rand_like, randint, randint_like, randn, randn_like, randperm, tensor, zeros,
                         zeros_like)
from ._ops.indexing import (argwhere, gather, index_put, index_select, masked_fill, masked_select, narrow,
                            nonzero, scatter, scatter_add, select, take_along_dim)
from ._ops.linalg import addmm, bmm, dot, ger, inner, matmul, mm, mv, outer
from ._ops.arithmetic import (add, clamp, clamp_max, clamp_min, clip, div, divide, floor_divide, fmax, fmin, fmod,
                              maximum, minimum, mul, multiply, pow, remainder, rsub, square, sub, subtract,
                              true_divide, where)
from ._ops.comparison import (allclose, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, eq, equal, ge, greater,
                              greater_equal, gt, isclose, isfinite, isinf, isnan, isneginf, isposinf, le, less,
                              less_equal, logical_and, logical_not, logical_or, logical_xor, lt, ne, not_equal,
                              signbit)
from ._ops.copying import clone
from ._ops.unary import (abs, absolute, ceil, cos, exp, expm1, fix, floor, frac, log, log1p, log2, log10,  # noqa: A004
                         neg, negative, reciprocal, relu, round, rsqrt, sigmoid, sign, sin, sqrt, tan, tanh, trunc)
from ._ops.reduction import (all, amax, amin, any, argmax, argmin, count_nonzero, cumsum,  # noqa: A004
                             log_softmax, logsumexp, max, mean, min, prod, return_types, softmax, std, std_mean,
                             sum, var, var_mean)
from ._ops.view import (broadcast_to, cat, chunk, concat, concatenate, flatten, flip, hstack, movedim, moveaxis,
                        permute, ravel, repeat, reshape, split, squeeze, stack, swapaxes, swapdims, t,
                        tensor_split, tile, transpose, unbind, unflatten, unsqueeze, vstack)
from ._tensor_str import set_printoptions
from ._threads import get_num_threads, set_num_threads
from . import autograd, nn, optim, random, serialization, viz
from .serialization import load, save
from .autograd import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, \
    set_grad_enabled
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled
from .random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

__version__ = "0.1.0"


def is_tensor(obj) -> "bool":
    """True if ``obj`` is a minitorch Tensor."""
    return isinstance(obj, Tensor)


def is_floating_point(input: Tensor) -> "bool":
    return input.is_floating_point()


def numel(input: Tensor) -> "builtins.int":  # noqa: F821
    return input.numel()


def result_type(tensor1, tensor2) -> dtype:
    """The dtype an elementwise op on the two operands produces."""
    from ._dtype import result_type as _result_type
    return _result_type(tensor1, tensor2)


def can_cast(from_: dtype, to: dtype) -> "bool":
    return from_.kind <= to.kind


def detach(input: Tensor) -> Tensor:
    return input.detach()


from .utils import data as _utils_data  # noqa: E402,F401  (minitorch.utils.data needs the rest of the package)
