"""relu on arrays large enough for its blocked numpy path (rows of zeros against contiguous input): the
same bits as np.maximum(0, x), NaN, signed zeros and infinities included, and PyTorch's (relu(-0.0) is -0.0)."""
import numpy as np
import pytest

import minitorch
from minitorch._ops.elementwise.unary import _RELU_BLOCK
from torch_answers import fingerprint, torch_answer

SPECIALS = [np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, -1.5, 2.5]


def _input(size, dtype=np.float32, seed=0):
    x = np.random.default_rng(seed).standard_normal(size).astype(dtype)
    x[:: max(size // 50, 1)][: len(SPECIALS)] = SPECIALS
    x[-len(SPECIALS):] = SPECIALS  # also in the tail past the last whole block
    return x


@pytest.mark.parametrize("size", [_RELU_BLOCK, 3 * _RELU_BLOCK + 17, _RELU_BLOCK - 1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_same_bits_as_numpy_and_torch(size, dtype):
    x = _input(size, dtype)
    out = minitorch.relu(minitorch.tensor(x.reshape(-1, 1))).numpy().reshape(-1)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.view(np.uint8), np.maximum(0, x).view(np.uint8))
    assert np.signbit(out[x == 0]).sum() == np.signbit(x[x == 0]).sum() > 0  # -0.0 keeps its sign, as in torch
    assert _values_and_signs(out) == torch_answer(lambda torch, x: _values_and_signs(torch.relu(torch.from_numpy(x))
                                                                                    .numpy()), x)


def _values_and_signs(values):
    """A fingerprint of the values (signed zeros, infinities), where the NaNs are (not their payloads or signs)."""
    nan = np.isnan(values)
    return fingerprint(np.where(nan, 0, values), nan)


def test_integers_non_contiguous_and_in_place():
    x = np.arange(-3 * _RELU_BLOCK, 3 * _RELU_BLOCK, dtype=np.int64)
    out = minitorch.relu(minitorch.tensor(x))
    assert out.dtype == minitorch.int64
    np.testing.assert_array_equal(out.numpy(), np.maximum(x, 0))
    y = _input(4 * _RELU_BLOCK).reshape(-1, 64)
    np.testing.assert_array_equal(minitorch.relu(minitorch.tensor(y).t()).numpy(), np.maximum(y.T, 0))
    t = minitorch.tensor(y.copy())
    minitorch.relu_(t)
    np.testing.assert_array_equal(t.numpy(), np.maximum(y, 0))


def test_gradient():
    x = _input(2 * _RELU_BLOCK + 5)
    g = np.random.default_rng(1).standard_normal(x.size).astype(np.float32)
    xt = minitorch.tensor(x, requires_grad=True)
    minitorch.relu(xt).backward(minitorch.tensor(g))
    r = np.maximum(x, 0)
    np.testing.assert_array_equal(xt.grad.numpy(), g * ~(r <= 0))
