"""Convolution, pooling, fold/unfold, padding and normalisation layers in 1, 2 and 3 dims, against torch
(values, dtypes, graph nodes, gradients, errors, reprs) and hand-derived values."""
import warnings

import numpy as np
import pytest

import minitorch
from op_helper import check_error, check_module_facts, check_module_run, floats, helper_test_op
from torch_answers import torch_answer


def F(lib):
    return lib.nn.functional


def _unpool(lib, dims, x, **pool):
    values, indices = getattr(F(lib), f"max_pool{dims}d")(x, 2, return_indices=True, **pool)
    return getattr(F(lib), f"max_unpool{dims}d")(values, indices, 2, output_size=x.shape[-dims:])


# name -> (inputs, fn(lib, *tensors))
CASES = {
    "conv3d": ([(2, 4, 5, 6, 5), (6, 2, 3, 2, 3), (6,)], lambda lib, x, w, b: lib.conv3d(
        x, w, b, stride=(2, 1, 2), padding=(1, 0, 1), dilation=(1, 2, 1), groups=2)),
    "conv3d_same": ([(1, 2, 4, 4, 5), (3, 2, 3, 1, 3)], lambda lib, x, w: F(lib).conv3d(x, w, padding="same")),
    "conv3d_depthwise_unbatched": ([(2, 4, 4, 4), (4, 1, 2, 3, 3)], lambda lib, x, w: lib.conv3d(x, w, groups=2)),
    "conv1d_top_level": ([(2, 4, 9), (3, 4, 3), (3,)], lambda lib, x, w, b: lib.conv1d(x, w, b, 2, 1)),
    "conv2d_top_level": ([(2, 4, 7, 6), (6, 2, 3, 3)], lambda lib, x, w: lib.conv2d(x, w, None, 2, 1, 1, 2)),
    "conv_transpose1d": ([(2, 4, 5), (4, 3, 3), (3,)], lambda lib, x, w, b: lib.conv_transpose1d(
        x, w, b, stride=3, padding=1, output_padding=1, dilation=2)),
    "conv_transpose3d": ([(2, 4, 3, 4, 3), (4, 3, 3, 3, 2), (3,)], lambda lib, x, w, b: F(lib).conv_transpose3d(
        x, w, b, stride=2, padding=1, output_padding=(1, 0, 1))),
    "conv_transpose3d_groups": ([(1, 4, 2, 3, 3), (4, 1, 2, 2, 2)], lambda lib, x, w: lib.conv_transpose3d(
        x, w, groups=2, dilation=(2, 1, 1))),
    "convolution_transposed": ([(1, 2, 3, 3, 3), (2, 2, 2, 2, 2), (2,)], lambda lib, x, w, b: lib.convolution(
        x, w, b, [2, 1, 1], [1, 0, 0], [1, 1, 1], True, [1, 0, 0], 1)),
    "convolution_1d": ([(2, 2, 6), (4, 1, 3)], lambda lib, x, w: lib.convolution(
        x, w, None, [1], [1], [2], False, [0], 2)),
    "conv_tbc": ([(7, 2, 3), (3, 3, 4), (4,)], lambda lib, x, w, b: lib.conv_tbc(x, w, b, 1)),
    "max_pool3d": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).max_pool3d(
        x, (2, 3, 2), stride=(1, 2, 2), padding=1, dilation=(1, 1, 2), ceil_mode=True, return_indices=True)),
    "max_pool3d_top_level": ([(3, 4, 5, 6)], lambda lib, x: lib.max_pool3d(x, 2)),
    "max_pool3d_with_indices": ([(1, 2, 4, 4, 4)], lambda lib, x: F(lib).max_pool3d_with_indices(x, 3, 1, 1)),
    "max_pool2d_with_indices": ([(2, 3, 5, 6)], lambda lib, x: F(lib).max_pool2d_with_indices(x, 2)),
    "max_pool2d_top_level": ([(2, 3, 5, 6)], lambda lib, x: lib.max_pool2d(x, 3, 2, 1)),
    "max_pool1d_with_indices": ([(3, 4, 7)], lambda lib, x: lib.max_pool1d_with_indices(x, 2)),
    "avg_pool3d": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).avg_pool3d(x, (2, 3, 3), 2, 1)),
    "avg_pool3d_ceil_exclude_pad": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).avg_pool3d(
        x, (2, 3, 3), 2, 1, ceil_mode=True, count_include_pad=False)),
    "avg_pool3d_ceil": ([(1, 2, 5, 6, 7)], lambda lib, x: F(lib).avg_pool3d(x, 3, 2, 1, ceil_mode=True)),
    "avg_pool3d_divisor": ([(3, 4, 5, 6)], lambda lib, x: F(lib).avg_pool3d(x, 2, divisor_override=3)),
    "avg_pool1d_top_level": ([(2, 3, 9)], lambda lib, x: lib.avg_pool1d(x, 3, 2, 1)),
    "adaptive_avg_pool3d": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).adaptive_avg_pool3d(x, (2, None, 3))),
    "adaptive_avg_pool3d_global": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).adaptive_avg_pool3d(x, 1)),
    "adaptive_avg_pool1d_top_level": ([(2, 3, 7)], lambda lib, x: lib.adaptive_avg_pool1d(x, 3)),
    "adaptive_max_pool3d": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).adaptive_max_pool3d(x, (2, None, 3), True)),
    "adaptive_max_pool3d_with_indices": ([(3, 4, 5, 6)], lambda lib, x: F(lib).adaptive_max_pool3d_with_indices(
        x, 2)),
    "adaptive_max_pool2d_with_indices": ([(2, 3, 5, 7)], lambda lib, x: F(lib).adaptive_max_pool2d_with_indices(
        x, (2, 3))),
    "adaptive_max_pool1d_with_indices": ([(2, 3, 7)], lambda lib, x: F(lib).adaptive_max_pool1d_with_indices(x, 3)),
    "adaptive_max_pool1d_top_level": ([(2, 3, 7)], lambda lib, x: lib.adaptive_max_pool1d(x, 3)),
    "lp_pool1d": ([(2, 3, 7)], lambda lib, x: F(lib).lp_pool1d(x.abs(), 1.5, 3)),
    "lp_pool2d": ([(2, 3, 5, 7)], lambda lib, x: F(lib).lp_pool2d(x, 2, (2, 3), stride=1)),
    "lp_pool3d": ([(2, 3, 5, 6, 7)], lambda lib, x: F(lib).lp_pool3d(x, 2, 2, ceil_mode=True)),
    "max_unpool1d": ([(2, 3, 7)], lambda lib, x: _unpool(lib, 1, x)),
    "max_unpool2d": ([(2, 3, 6, 5)], lambda lib, x: _unpool(lib, 2, x)),
    "max_unpool3d": ([(2, 3, 4, 5, 5)], lambda lib, x: _unpool(lib, 3, x)),
    "unfold": ([(2, 3, 5, 7)], lambda lib, x: F(lib).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))),
    "unfold_unbatched": ([(3, 5, 7)], lambda lib, x: F(lib).unfold(x, 2, stride=(1, 2))),
    "fold": ([(2, 18, 15)], lambda lib, x: F(lib).fold(x, (5, 7), (2, 3), dilation=(1, 2), padding=1,
                                                          stride=(2, 1))),
    "fold_unbatched": ([(8, 12)], lambda lib, x: F(lib).fold(x, (4, 5), 2)),
    "constant_pad_nd_crop": ([(3, 4)], lambda lib, x: lib.constant_pad_nd(x, [1, -2, -1, 1], 2.5)),
    "upsample_bilinear": ([(1, 2, 3, 4)], lambda lib, x: F(lib).upsample_bilinear(x, scale_factor=2)),
    "upsample_bilinear_size": ([(1, 2, 3, 4)], lambda lib, x: F(lib).upsample_bilinear(x, size=(5, 1))),
    "upsample_nearest": ([(1, 2, 3, 4)], lambda lib, x: F(lib).upsample_nearest(x, size=5)),
    "affine_grid": ([(2, 2, 3)], lambda lib, t: F(lib).affine_grid(t, (2, 3, 4, 5), align_corners=False)),
    "affine_grid_3d": ([(2, 3, 4)], lambda lib, t: F(lib).affine_grid(t, (2, 3, 4, 5, 3), align_corners=True)),
    "affine_grid_generator": ([(1, 2, 3)], lambda lib, t: lib.affine_grid_generator(t, [1, 1, 2, 3], False)),
    **{f"grid_sample_{mode}_{align}": ([(2, 3, 4, 5), (2, 3, 6, 2)], lambda lib, x, g, mode=mode, align=align:
                                      F(lib).grid_sample(x, g * 1.4, padding_mode=mode, align_corners=align))
       for mode in ("zeros", "border", "reflection") for align in (True, False)},
    **{f"grid_sample_bicubic_{mode}_{align}": ([(2, 3, 4, 5), (2, 3, 6, 2)], lambda lib, x, g, mode=mode, align=align:
                                              F(lib).grid_sample(x, g * 1.4, "bicubic", mode, align))
       for mode in ("zeros", "border", "reflection") for align in (True, False)},
    **{f"grid_sample_3d_{mode}": ([(2, 3, 4, 5, 3), (2, 3, 6, 2, 3)], lambda lib, x, g, mode=mode:
                                  F(lib).grid_sample(x, g * 2.5, padding_mode=mode, align_corners=False))
       for mode in ("zeros", "border", "reflection")},
    "grid_sampler_2d": ([(1, 2, 3, 4), (1, 2, 2, 2)], lambda lib, x, g: lib.grid_sampler_2d(x, g, 0, 2, True)),
    "grid_sampler_3d": ([(1, 2, 3, 4, 2), (1, 2, 2, 2, 3)], lambda lib, x, g: lib.grid_sampler_3d(x, g, 0, 1, False)),
}
# where minitorch's graph differs from torch's: torch unpools 1-d as 2-d (a view last), conv_tbc, affine_grid and
# grid_sample are compositions
COMPOSED_DIFFERENTLY = {"affine_grid", "affine_grid_3d", "affine_grid_generator", "max_unpool1d", "conv_tbc"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_functional_matches_torch(name):
    inputs, fn = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # upsample_*'s deprecation (tested below)
        helper_test_op(inputs, fn, check_node=name not in COMPOSED_DIFFERENTLY and not name.startswith("grid_sample"))


def test_grid_sample_nearest_matches_torch():
    grid = floats((2, 3, 6, 2), -1.4, 1.4)
    for mode in ("zeros", "border", "reflection"):
        for align in (True, False):
            helper_test_op([(2, 3, 4, 5)], lambda lib, x: F(lib).grid_sample(
                x, lib.tensor(grid), "nearest", mode, align), check_node=False)


SAMPLES_2D, SAMPLES_3D = floats((2, 3, 2), 0.0, 1.0), floats((1, 2, 3), 0.0, 1.0)
FRACTIONAL = {
    "2d": ([(2, 3, 7, 9)], lambda lib, x: F(lib).fractional_max_pool2d(
        x, (2, 3), output_size=(4, 5), return_indices=True, _random_samples=lib.tensor(SAMPLES_2D))),
    "2d_ratio_unbatched": ([(3, 7, 9)], lambda lib, x: F(lib).fractional_max_pool2d_with_indices(
        x, 2, output_ratio=(0.5, 0.7), _random_samples=lib.tensor(SAMPLES_2D[:1]))),
    "3d": ([(1, 2, 5, 6, 7)], lambda lib, x: F(lib).fractional_max_pool3d_with_indices(
        x, (2, 2, 3), output_size=(3, 4, 2), _random_samples=lib.tensor(SAMPLES_3D))),
    "3d_module": ([(1, 2, 5, 6, 7)], lambda lib, x: lib.nn.FractionalMaxPool3d(
        2, output_ratio=0.6, _random_samples=lib.tensor(SAMPLES_3D))(x)),
}


@pytest.mark.parametrize("name", sorted(FRACTIONAL))
def test_fractional_max_pool_matches_torch_given_the_samples(name):
    inputs, fn = FRACTIONAL[name]
    helper_test_op(inputs, fn, atol=0, rtol=0)


def test_fractional_max_pool_draws_from_the_global_generator():
    x = minitorch.randn(2, 3, 9, 9)
    minitorch.manual_seed(3)
    a = F(minitorch).fractional_max_pool2d(x, 2, output_size=4)
    minitorch.manual_seed(3)
    samples = minitorch.rand(2, 3, 2)
    b = F(minitorch).fractional_max_pool2d(x, 2, output_size=4, _random_samples=samples)
    assert a.tolist() == b.tolist()


def test_deprecation_and_alignment_warnings():
    x = minitorch.ones(1, 1, 2, 2)
    for name in ("upsample_nearest", "upsample_bilinear"):
        with pytest.warns(UserWarning, match=f"^`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                                             "instead.$"):
            getattr(F(minitorch), name)(x, scale_factor=2)
    with pytest.warns(UserWarning, match="^Default grid_sample and affine_grid behavior has changed"):
        F(minitorch).affine_grid(minitorch.zeros(1, 2, 3), (1, 1, 2, 2))


def test_float64_and_double_backward_of_3d_convolution():
    x = minitorch.tensor(floats((1, 1, 3, 3, 3), dtype=np.float64), requires_grad=True)
    w = minitorch.tensor(floats((1, 1, 2, 2, 2), dtype=np.float64), requires_grad=True)
    assert minitorch.conv3d(x, w).dtype == minitorch.float64
    for fn in (lambda a, b: minitorch.conv3d(a, b, stride=2, padding=1),
               lambda a, b: minitorch.conv_transpose3d(a, b, stride=2, padding=1, output_padding=1)):
        assert minitorch.autograd.gradgradcheck(fn, (x, w))


def test_hand_derived_values():
    x = minitorch.arange(8.0).reshape(1, 1, 2, 2, 2)
    assert F(minitorch).avg_pool3d(x, 2).item() == 3.5
    values, indices = F(minitorch).max_pool3d(x, 2, return_indices=True)
    assert values.item() == 7.0 and indices.item() == 7
    ones = minitorch.ones(1, 1, 2, 2, 2)
    assert minitorch.conv3d(x, ones).item() == 28.0  # 0 + 1 + ... + 7
    cols = F(minitorch).unfold(minitorch.arange(9.0).reshape(1, 1, 3, 3), 2)
    assert cols[0].tolist() == [[0, 1, 3, 4], [1, 2, 4, 5], [3, 4, 6, 7], [4, 5, 7, 8]]
    # fold sums the overlaps: the centre of a 3x3 image is in all four 2x2 blocks
    assert F(minitorch).fold(minitorch.ones(1, 4, 4), (3, 3), 2)[0, 0].tolist() == [[1, 2, 1], [2, 4, 2], [1, 2, 1]]
    assert F(minitorch).lp_pool1d(minitorch.tensor([[[3.0, 4.0]]]), 2, 2).item() == pytest.approx(5.0)


ERRORS = {
    "conv3d_dims": ([(2, 3, 4, 4), (2, 3, 1, 1, 1)], lambda lib, x, w: lib.conv3d(x, w)),
    "conv3d_channels": ([(1, 3, 4, 4, 4), (2, 2, 1, 1, 1)], lambda lib, x, w: lib.conv3d(x, w)),
    "conv2d_groups": ([(2, 4, 7, 6), (3, 2, 3, 3)], lambda lib, x, w: lib.conv2d(x, w, groups=2)),
    "conv2d_stride_length": ([(1, 2, 5, 5), (2, 2, 3, 3)], lambda lib, x, w: lib.conv2d(x, w, stride=(1, 2, 3))),
    "conv1d_padding_length": ([(1, 2, 5), (2, 2, 3)], lambda lib, x, w: lib.conv1d(x, w, padding=(1, 2))),
    "conv_transpose2d_output_padding_length": ([(1, 2, 5, 5), (2, 2, 3, 3)], lambda lib, x, w: lib.conv_transpose2d(
        x, w, output_padding=(0, 0, 0))),
    "conv3d_kernel_too_big": ([(1, 2, 2, 4, 4), (2, 2, 3, 1, 1)], lambda lib, x, w: lib.conv3d(x, w)),
    "conv_transpose3d_output_padding": ([(1, 2, 3, 3, 3), (2, 2, 2, 2, 2)], lambda lib, x, w: lib.conv_transpose3d(
        x, w, stride=2, output_padding=(2, 0, 0))),
    "conv_transpose1d_output_padding": ([(1, 2, 3), (2, 2, 2)], lambda lib, x, w: lib.conv_transpose1d(
        x, w, stride=2, output_padding=2)),
    "conv_transpose1d_channels": ([(1, 3, 3), (2, 2, 2)], lambda lib, x, w: lib.conv_transpose1d(x, w)),
    "conv_tbc_input": ([(2, 3), (3, 3, 4), (4,)], lambda lib, x, w, b: lib.conv_tbc(x, w, b)),
    "conv_tbc_channels": ([(5, 2, 2), (3, 3, 4), (4,)], lambda lib, x, w, b: lib.conv_tbc(x, w, b)),
    "max_pool3d_dims": ([(2, 3, 4)], lambda lib, x: F(lib).max_pool3d(x, 2)),
    "max_pool3d_pad": ([(1, 2, 4, 4, 4)], lambda lib, x: F(lib).max_pool3d(x, 2, padding=2)),
    **{f"{pool}_{arg}_length": ([(1, 2, 4, 4, 4)], lambda lib, x, pool=pool, arg=arg: getattr(F(lib), pool)(
        x, **{"kernel_size": 2, arg: (2, 2)})) for pool in ("max_pool3d", "avg_pool3d")
       for arg in ("kernel_size", "stride", "padding")},
    "max_pool3d_dilation_length": ([(1, 2, 4, 4, 4)], lambda lib, x: F(lib).max_pool3d(x, 2, dilation=(1, 1))),
    "max_pool2d_kernel_length": ([(2, 4, 4, 4)], lambda lib, x: F(lib).max_pool2d(x, (2, 2, 2))),
    "avg_pool2d_stride_length": ([(2, 4, 4, 4)], lambda lib, x: F(lib).avg_pool2d(x, 2, (1, 1, 1))),
    "avg_pool2d_padding_length": ([(2, 4, 4, 4)], lambda lib, x: F(lib).avg_pool2d(x, 2, 1, (0, 0, 0))),
    "max_pool2d_dilation_length": ([(2, 4, 4, 4)], lambda lib, x: F(lib).max_pool2d(x, 2, 1, 0, (1, 1, 1))),
    "max_pool3d_stride_zero": ([(1, 2, 4, 4, 4)], lambda lib, x: F(lib).max_pool3d(x, 2, stride=0)),
    "max_pool3d_too_small": ([(1, 2, 1, 4, 4)], lambda lib, x: F(lib).max_pool3d(x, 2)),
    "avg_pool3d_too_small": ([(1, 2, 1, 4, 4)], lambda lib, x: F(lib).avg_pool3d(x, 2)),
    "adaptive_avg_pool3d_dims": ([(2, 3, 4)], lambda lib, x: F(lib).adaptive_avg_pool3d(x, 2)),
    "adaptive_max_pool3d_dims": ([(2, 3, 4)], lambda lib, x: F(lib).adaptive_max_pool3d(x, 2)),
    "max_unpool2d_output_size": ([(1, 2, 2, 2)], lambda lib, x: F(lib).max_unpool2d(
        x, lib.zeros(1, 2, 2, 2, dtype=lib.int64), 2, output_size=(7, 7))),
    "max_unpool2d_index": ([(1, 2, 2, 2)], lambda lib, x: F(lib).max_unpool2d(
        x, lib.full((1, 2, 2, 2), 100, dtype=lib.int64), 2)),
    "max_unpool1d_shape": ([(1, 2, 2)], lambda lib, x: F(lib).max_unpool1d(x, lib.zeros(1, 2, 3, dtype=lib.int64),
                                                                            2)),
    "unfold_dims": ([(3, 4)], lambda lib, x: F(lib).unfold(x[None, None, None], 2)),
    "unfold_too_small": ([(1, 2, 3, 3)], lambda lib, x: F(lib).unfold(x, 4)),
    "unfold_stride": ([(1, 2, 3, 3)], lambda lib, x: F(lib).unfold(x, 2, stride=0)),
    "fold_divisible": ([(1, 5, 12)], lambda lib, x: F(lib).fold(x, (4, 5), 2)),
    "fold_blocks": ([(1, 8, 10)], lambda lib, x: F(lib).fold(x, (4, 5), 2)),
    "fold_dims": ([(1, 2, 8, 10)], lambda lib, x: F(lib).fold(x, (4, 5), 2)),
    "conv_transpose_output_size": ([(1, 2, 4, 4)], lambda lib, x: lib.nn.ConvTranspose2d(2, 3, 3, stride=2)(
        x, output_size=[20, 20])),
    "batch_norm3d_dims": ([(2, 3, 4, 4)], lambda lib, x: lib.nn.BatchNorm3d(3)(x)),
    "sync_batch_norm_dims": ([(4,)], lambda lib, x: lib.nn.SyncBatchNorm(3)(x)),
    "constant_pad_nd_odd": ([(3, 4)], lambda lib, x: lib.constant_pad_nd(x, [1, 2, 3])),
    "constant_pad_nd_long": ([(3, 4)], lambda lib, x: lib.constant_pad_nd(x, [1] * 6)),
    "affine_grid_theta": ([(1, 2, 2)], lambda lib, t: F(lib).affine_grid(t, (1, 1, 2, 2), align_corners=False)),
    "affine_grid_size": ([(1, 2, 3)], lambda lib, t: F(lib).affine_grid(t, (1, 1, 2), align_corners=False)),
    "grid_sample_mode": ([(1, 2, 3, 4), (1, 2, 2, 2)], lambda lib, x, g: F(lib).grid_sample(x, g, "area",
                                                                                             align_corners=True)),
    "grid_sample_padding": ([(1, 2, 3, 4), (1, 2, 2, 2)], lambda lib, x, g: F(lib).grid_sample(
        x, g, padding_mode="wrap", align_corners=True)),
    "grid_sampler_last_dim": ([(1, 2, 3, 4), (1, 2, 2, 3)], lambda lib, x, g: lib.grid_sampler(x, g, 0, 0, False)),
    "fractional_max_pool2d_output": ([(1, 2, 5, 5)], lambda lib, x: F(lib).fractional_max_pool2d(x, 2)),
    "fractional_max_pool2d_too_large": ([(1, 2, 5, 5)], lambda lib, x: F(lib).fractional_max_pool2d(
        x, 2, output_size=5)),
    "fractional_max_pool3d_too_large": ([(1, 2, 5, 5, 5)], lambda lib, x: F(lib).fractional_max_pool3d(
        x, 2, output_size=5)),
    "fractional_max_pool2d_samples": ([(1, 2, 5, 5)], lambda lib, x: F(lib).fractional_max_pool2d(
        x, 2, output_size=3, _random_samples=lib.ones(1, 3, 2) / 2)),
    "fractional_max_pool_module": ([(1, 2, 5, 5)], lambda lib, x: lib.nn.FractionalMaxPool2d(2, output_ratio=1.5)),
    "grid_sampler_bicubic_3d": ([(1, 2, 3, 4, 2), (1, 2, 2, 2, 3)], lambda lib, x, g: lib.grid_sampler(
        x, g, 2, 0, False)),
    "grid_sampler_batch": ([(1, 2, 3, 4), (2, 2, 2, 2)], lambda lib, x, g: lib.grid_sampler(x, g, 0, 0, False)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    inputs, fn = ERRORS[name]
    check_error(fn, *inputs)


# ---- modules ----------------------------------------------------------------------------------------------------
MODULES = {
    "Conv3d": lambda nn: nn.Conv3d(2, 4, (1, 2, 3), padding_mode="circular", padding=1),
    "Conv3dGroups": lambda nn: nn.Conv3d(4, 2, 3, stride=2, groups=2, bias=False),
    "Conv2dSameReflect": lambda nn: nn.Conv2d(2, 3, (4, 3), padding="same", padding_mode="reflect", dilation=(1, 2)),
    "Conv1dSameReplicate": lambda nn: nn.Conv1d(2, 3, 4, padding="same", padding_mode="replicate"),
    "ConvTranspose1d": lambda nn: nn.ConvTranspose1d(2, 3, 3, stride=2),
    "ConvTranspose3d": lambda nn: nn.ConvTranspose3d(2, 4, 2, stride=2, padding=1, output_padding=1, dilation=2),
    "MaxPool3d": lambda nn: nn.MaxPool3d((2, 3, 2), stride=1, padding=1, dilation=2, ceil_mode=True),
    "AvgPool3d": lambda nn: nn.AvgPool3d((2, 2, 3), 1, 1, True, False, 2),
    "AdaptiveAvgPool3d": lambda nn: nn.AdaptiveAvgPool3d((2, None, 3)),
    "AdaptiveMaxPool3d": lambda nn: nn.AdaptiveMaxPool3d(2, True),
    "LPPool1d": lambda nn: nn.LPPool1d(2, 3), "LPPool2d": lambda nn: nn.LPPool2d(1.5, (2, 3), 1, True),
    "LPPool3d": lambda nn: nn.LPPool3d(2, 2),
    "MaxUnpool1d": lambda nn: nn.MaxUnpool1d(2), "MaxUnpool2d": lambda nn: nn.MaxUnpool2d((2, 3), 1, 1),
    "MaxUnpool3d": lambda nn: nn.MaxUnpool3d(2),
    "BatchNorm3d": lambda nn: nn.BatchNorm3d(3), "BatchNorm1dNoAffine": lambda nn: nn.BatchNorm1d(3, affine=False),
    "SyncBatchNorm": lambda nn: nn.SyncBatchNorm(3, momentum=None),
    "InstanceNorm3d": lambda nn: nn.InstanceNorm3d(3, affine=True),
    "ZeroPad3d": lambda nn: nn.ZeroPad3d(1), "ConstantPad3d": lambda nn: nn.ConstantPad3d((1, 2, 0, 1, 2, 0), 2.5),
    "ReflectionPad3d": lambda nn: nn.ReflectionPad3d(1), "ReplicationPad3d": lambda nn: nn.ReplicationPad3d((2, 0, 1,
                                                                                                             0, 0, 1)),
    "CircularPad3d": lambda nn: nn.CircularPad3d(1),
    "Fold": lambda nn: nn.Fold((4, 5), 2), "Unfold": lambda nn: nn.Unfold((2, 3), dilation=2, padding=1, stride=2),
}
MODULE_RUNS = {
    "Conv3d": [(1, 2, 3, 3, 3)], "Conv3dGroups": [(2, 4, 5, 5, 5)], "Conv2dSameReflect": [(1, 2, 6, 7)],
    "Conv1dSameReplicate": [(2, 2, 5)], "ConvTranspose1d": [(2, 2, 4)],
    "ConvTranspose3d": [(1, 2, 3, 3, 3)], "MaxPool3d": [(1, 2, 4, 5, 5)], "AvgPool3d": [(2, 3, 3, 3)],
    "AdaptiveAvgPool3d": [(1, 2, 5, 4, 6)], "LPPool1d": [(1, 2, 5)], "LPPool3d": [(1, 2, 4, 4, 4)],
    "BatchNorm3d": [(2, 3, 2, 2, 2)], "SyncBatchNorm": [(4, 3, 5)], "InstanceNorm3d": [(2, 3, 2, 3, 2)],
    "ZeroPad3d": [(2, 2, 2, 3)], "ConstantPad3d": [(1, 2, 2, 2, 3)], "ReflectionPad3d": [(1, 2, 2, 2, 3)],
    "ReplicationPad3d": [(1, 2, 2, 2, 3)], "CircularPad3d": [(1, 2, 2, 2, 3)], "Fold": [(2, 8, 12)],
    "Unfold": [(2, 3, 5, 6)],
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_repr_parameters_and_state_dict_match_torch(name):
    check_module_facts(MODULES[name], ("kernel_size", "stride", "padding", "dilation", "output_padding",
                                       "output_size", "norm_type", "ceil_mode", "return_indices", "groups",
                                       "num_features", "momentum", "value"))


@pytest.mark.parametrize("name", sorted(MODULE_RUNS))
def test_module_forward_and_parameter_gradients_match_torch(name):
    check_module_run(MODULES[name], MODULE_RUNS[name])


def test_same_padding_in_the_other_padding_modes():
    """padding='same' pads dilation * (kernel - 1) in all, the odd one after, in the layer's padding mode."""
    x = np.arange(5.0, dtype=np.float32)
    for mode, dilation, source in (("circular", 1, lambda j: j % 5), ("reflect", 2, lambda j: abs(j) if j < 5 else
                                                                        8 - j)):
        kernel = 4 if dilation == 1 else 3
        conv = minitorch.nn.Conv1d(1, 1, kernel, padding="same", padding_mode=mode, dilation=dilation, bias=False)
        with minitorch.no_grad():
            conv.weight.copy_(minitorch.arange(1.0, kernel + 1).reshape(1, 1, kernel))
        left = dilation * (kernel - 1) // 2
        expected = [sum((k + 1) * x[source(i - left + dilation * k)] for k in range(kernel)) for i in range(5)]
        np.testing.assert_allclose(conv(minitorch.tensor(x).reshape(1, 1, 5)).detach().numpy().ravel(), expected)


def test_max_unpool_module_inverts_max_pool():
    x = minitorch.tensor(floats((1, 2, 4, 4, 4)))
    values, indices = minitorch.nn.MaxPool3d(2, return_indices=True)(x)
    out = minitorch.nn.MaxUnpool3d(2)(values, indices)
    kept = out.numpy() != 0
    assert kept.sum() == 16 and np.array_equal(out.numpy()[kept], x.numpy()[kept])


def test_conv_transpose_output_size_picks_output_padding():
    m = minitorch.nn.ConvTranspose3d(2, 3, 3, stride=2)
    assert m(minitorch.randn(1, 2, 3, 3, 3), output_size=[8, 7, 8]).shape == (1, 3, 8, 7, 8)


def test_convert_sync_batchnorm_shares_parameters_and_buffers():
    nn = minitorch.nn
    model = nn.Sequential(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3), nn.Sequential(nn.BatchNorm1d(4, affine=False)),
                          nn.InstanceNorm1d(3))
    model[1].running_mean.fill_(2.0)
    model[2].eval()
    out = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert [type(m).__name__ for m in out.modules()] == ["Sequential", "Conv2d", "SyncBatchNorm", "Sequential",
                                                         "SyncBatchNorm", "InstanceNorm1d"]
    assert out[1].weight is model[1].weight and out[1].running_mean.tolist() == [2.0, 2.0, 2.0]
    assert out[2][0].weight is None and not out[2][0].training


# ---- lazy modules -----------------------------------------------------------------------------------------------
LAZY = {
    "LazyLinear": (lambda nn: nn.LazyLinear(3), (2, 5)),
    "LazyConv1d": (lambda nn: nn.LazyConv1d(4, 3, padding=1), (2, 3, 6)),
    "LazyConv2d": (lambda nn: nn.LazyConv2d(4, 3, bias=False), (1, 2, 5, 5)),
    "LazyConv3d": (lambda nn: nn.LazyConv3d(4, 2, groups=2), (4, 3, 3, 3)),
    "LazyConvTranspose1d": (lambda nn: nn.LazyConvTranspose1d(4, 3, stride=2), (2, 3, 4)),
    "LazyConvTranspose2d": (lambda nn: nn.LazyConvTranspose2d(4, 3, groups=2), (1, 2, 3, 3)),
    "LazyConvTranspose3d": (lambda nn: nn.LazyConvTranspose3d(2, 2), (1, 3, 2, 2, 2)),
    "LazyBatchNorm1d": (lambda nn: nn.LazyBatchNorm1d(), (4, 3)),
    "LazyBatchNorm2d": (lambda nn: nn.LazyBatchNorm2d(affine=False), (2, 3, 2, 2)),
    "LazyBatchNorm3d": (lambda nn: nn.LazyBatchNorm3d(momentum=None), (2, 3, 2, 2, 2)),
    "LazyInstanceNorm1d": (lambda nn: nn.LazyInstanceNorm1d(), (2, 3, 4)),
    "LazyInstanceNorm2d": (lambda nn: nn.LazyInstanceNorm2d(track_running_stats=False), (2, 3, 2, 2)),
    "LazyInstanceNorm3d": (lambda nn: nn.LazyInstanceNorm3d(affine=False), (2, 3, 2, 2, 2)),
}


def _lazy_run(lib, name, x):
    """The lazy module's repr and parameters' reprs before a first call on ``x``; after it, its class, repr,
    output shape and state_dict shapes."""
    m = LAZY[name][0](lib.nn)
    before = (repr(m), [repr(p) for p in m.parameters()])
    out = m(lib.tensor(x))
    return before, (type(m).__name__, repr(m), tuple(out.shape),
                    [(k, tuple(v.shape)) for k, v in m.state_dict().items()])


@pytest.mark.parametrize("name", sorted(LAZY))
def test_lazy_module_infers_shapes_and_becomes_its_eager_class(name):
    x = floats(LAZY[name][1])
    assert LAZY[name][0](minitorch.nn).has_uninitialized_params()
    assert _lazy_run(minitorch, name, x) == torch_answer(_lazy_run, name, x)
    m = LAZY[name][0](minitorch.nn)
    m(minitorch.tensor(x))
    assert all(p.requires_grad for p in m.parameters())


def test_uninitialized_parameter_and_state_dict_loading():
    from minitorch.nn.parameter import Parameter, UninitializedParameter
    m = minitorch.nn.LazyLinear(3)
    with pytest.raises(RuntimeError, match="^Can't access the shape of an uninitialized parameter or buffer"):
        m.weight.shape
    eager = minitorch.nn.Linear(4, 3)
    m.load_state_dict(eager.state_dict())
    assert type(m.weight) is Parameter and m.weight.tolist() == eager.weight.tolist()
    lazy = minitorch.nn.LazyBatchNorm1d()
    state = lazy.state_dict()
    assert [repr(v) for v in state.values()] == ["<UninitializedParameter>"] * 2 + ["<UninitializedBuffer>"] * 2 + \
        ["tensor(0)"]
    other = minitorch.nn.LazyBatchNorm1d()
    other.load_state_dict(state)
    assert other.has_uninitialized_params()
    double = minitorch.nn.LazyBatchNorm1d().double()
    assert double(minitorch.randn(4, 3, dtype=minitorch.float64)).dtype == minitorch.float64
    assert double.running_mean.dtype == minitorch.float64 and double.weight.dtype == minitorch.float64
    p = UninitializedParameter(dtype=minitorch.float64)
    p.materialize((2, 3))
    assert type(p) is Parameter and p.shape == (2, 3) and p.dtype == minitorch.float64 and p.requires_grad


def test_max_pools_pick_the_last_nan_of_a_window_as_torch():
    a = floats((1, 2, 4, 4, 4))
    a[0, 0, 0, 0, 1] = a[0, 0, 1, 1, 0] = a[0, 1, 2, 2, 2] = np.nan
    for pool in (lambda lib, x: F(lib).max_pool3d(x, 2, return_indices=True),
                 lambda lib, x: F(lib).adaptive_max_pool3d(x, 2, True),
                 lambda lib, x: F(lib).fractional_max_pool3d(x, 2, output_size=2, return_indices=True,
                                                             _random_samples=lib.ones(1, 2, 3) / 2)):
        helper_test_op([a], pool, grad=False)
