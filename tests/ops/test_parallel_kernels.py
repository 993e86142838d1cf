"""Kernels split over threads by minitorch._parallel give the same bits at 1, 2, 3 and 4 threads, forward and
backward, on sizes above the grain that leave uneven chunks."""
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import minitorch
import minitorch.nn.functional as F

RNG = np.random.default_rng(21)


def _data(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _run(fn, arrays, threads):
    """Output and input gradients of ``fn`` at ``threads`` threads (the output gradient fixed by its shape);
    BLAS on one thread, as its kernels may round differently with their thread count."""
    before = minitorch.get_num_threads()
    minitorch.set_num_threads(threads)
    try:
        with threadpool_limits(limits=1, user_api="blas"):
            inputs = [minitorch.tensor(a, requires_grad=True) for a in arrays]
            out = fn(*inputs)
            seed = np.random.default_rng(out.numel()).standard_normal(tuple(out.shape)).astype(np.float32)
            out.backward(minitorch.tensor(seed))
            return [out.detach().numpy()] + [None if t.grad is None else t.grad.numpy() for t in inputs]
    finally:
        minitorch.set_num_threads(before)


def _max_pool_grad(x, g):
    """max_pool2d's input gradient as a function of the output gradient: its backward is the gather."""
    return minitorch.autograd.grad(F.max_pool2d(x, 3, 2, 1), x, g, create_graph=True)[0]


def _attention_dropout(q, k, v):
    minitorch.manual_seed(0)  # the same dropout mask at every thread count
    return F.scaled_dot_product_attention(q, k, v, dropout_p=0.3)


RUNNING = (_data(5), _data(5) ** 2)
# Sizes for the kernels split by planes (pooling, depthwise taps): at least 4 grains of planes, in uneven chunks.
CASES = {
    "gelu": (lambda x: F.gelu(x), [_data(3, 70001)]),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), [_data(3, 70001)]),
    "conv_stride1": (lambda x, w: F.conv2d(x, w, padding=1), [_data(5, 6, 23, 23), _data(7, 6, 3, 3)]),
    "conv_stride2": (lambda x, w: F.conv2d(x, w, stride=2, padding=1), [_data(5, 6, 33, 31), _data(7, 6, 3, 3)]),
    "conv_7x7_rgb": (lambda x, w: F.conv2d(x, w, stride=2, padding=3), [_data(3, 3, 45, 45), _data(8, 3, 7, 7)]),
    "winograd_f2": (lambda x, w: F.conv2d(x, w, padding=1), [_data(3, 128, 15, 14), _data(128, 128, 3, 3)]),
    "winograd_f4": (lambda x, w: F.conv2d(x, w, padding=1), [_data(2, 128, 29, 28), _data(128, 128, 3, 3)]),
    "relu": (lambda x: F.relu(x), [_data(7, 30011)]),
    "batch_norm_train": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                         [_data(18, 5, 41, 43), _data(5), _data(5)]),
    "batch_norm_eval": (lambda x, w, b: F.batch_norm(x, minitorch.tensor(RUNNING[0]), minitorch.tensor(RUNNING[1]),
                                                     w, b, training=False), [_data(18, 5, 41, 43), _data(5), _data(5)]),
    "max_pool_padded": (lambda x: F.max_pool2d(x, 3, 2, 1), [_data(7, 43, 41, 39)]),
    "max_pool_dilated_ceil": (lambda x: F.max_pool2d(x, 2, 1, 0, dilation=2, ceil_mode=True),
                              [_data(5, 41, 23, 30)]),
    "max_pool_double_backward": (_max_pool_grad, [_data(7, 43, 41, 39), _data(7, 43, 21, 20)]),
    "depthwise": (lambda x, w: F.conv2d(x, w, padding=1, groups=47), [_data(5, 47, 23, 23), _data(47, 1, 3, 3)]),
    "depthwise_stride2_multiplier2": (lambda x, w: F.conv2d(x, w, stride=2, padding=1, groups=47),
                                      [_data(5, 47, 45, 45), _data(94, 1, 3, 3)]),
    "relu6": (lambda x: F.relu6(x * 4), [_data(7, 30011)]),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, (389,), w, b), [_data(7, 53, 389), _data(389), _data(389)]),
    "layer_norm_2d_no_affine": (lambda x: F.layer_norm(x, (23, 17)), [_data(377, 23, 17)]),
    "group_norm": (lambda x, w, b: F.group_norm(x, 3, w, b), [_data(13, 12, 37, 41), _data(12), _data(12)]),
    # attention: products split by the first batch dim, softmax rows by rows
    "attention_causal": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                         [_data(13, 3, 67, 16), _data(13, 3, 71, 16), _data(13, 3, 71, 24)]),
    "attention_float_mask_shared_kv": (lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
                                       [_data(13, 3, 67, 16), _data(1, 3, 71, 16), _data(3, 71, 24),
                                        _data(67, 71)]),
    "attention_dropout": (_attention_dropout, [_data(13, 3, 67, 16), _data(13, 3, 71, 16), _data(13, 3, 71, 24)]),
}


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_same_bits_at_any_thread_count(name, threads):
    fn, arrays = CASES[name]
    expected = _run(fn, arrays, 1)
    got = _run(fn, arrays, threads)
    for e, g in zip(expected, got):
        if e is None:  # an input with no gradient (max_pool's x under its double backward)
            assert g is None
            continue
        assert e.dtype == g.dtype and e.shape == g.shape
        assert np.array_equal(e, g, equal_nan=True)
