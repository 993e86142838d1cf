"""Registry-sweep inputs for the convolution, pooling and fold ops (minitorch/_ops/conv.py, pooling_functions.py,
fold.py; tests/registry_cases.py)."""
import warnings

import minitorch as mt
import minitorch.nn.functional as F
from registry_inputs import x


def _indices_of(pool, shape, **kw):
    """The indices of the maxima of a fixed input (max_unpool's second input), as a tensor the sample makes."""
    _, indices = pool(x(*shape, seed=5).detach(), 2, return_indices=True, **kw)
    return mt.tensor(indices.tolist())


def _quiet(fn):
    """``fn`` without its deprecation warning (upsample_*: tested in tests/nn/test_conv_pool_layers.py)."""
    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return fn(*args)
    return call


SAMPLES = {
    "conv1d": (lambda a, w, b: mt.conv1d(a, w, b, stride=2, padding=1), lambda: (x(2, 2, 5), x(3, 2, 3, seed=1),
                                                                                   x(3, seed=2))),
    "conv2d": (lambda a, w, b: mt.conv2d(a, w, b, padding=1, groups=2), lambda: (x(1, 4, 4, 4),
                                                                               x(2, 2, 3, 3, seed=1), x(2, seed=2))),
    "conv3d": (lambda a, w, b: mt.conv3d(a, w, b, stride=(2, 1, 1), padding=(1, 0, 1)),
               lambda: (x(1, 2, 3, 3, 3), x(2, 2, 2, 2, 2, seed=1), x(2, seed=2))),
    "conv_transpose1d": (lambda a, w: mt.conv_transpose1d(a, w, stride=2, padding=1, output_padding=1),
                         lambda: (x(1, 2, 3), x(2, 3, 3, seed=1))),
    "conv_transpose2d": (lambda a, w: mt.conv_transpose2d(a, w, stride=2, padding=1),
                         lambda: (x(1, 2, 3, 3), x(2, 3, 3, 3, seed=1))),
    "conv_transpose3d": (lambda a, w, b: mt.conv_transpose3d(a, w, b, stride=(2, 1, 1), output_padding=(1, 0, 0)),
                         lambda: (x(1, 2, 2, 2, 2), x(2, 1, 2, 2, 2, seed=1), x(1, seed=2))),
    "convolution": (lambda a, w: mt.convolution(a, w, None, [1, 2], [1, 0], [1, 1], True, [0, 1], 1),
                    lambda: (x(1, 2, 2, 3), x(2, 2, 2, 2, seed=1))),
    "conv_tbc": (lambda a, w, b: mt.conv_tbc(a, w, b, 1), lambda: (x(4, 2, 2), x(2, 2, 3, seed=1), x(3, seed=2))),
    "max_pool1d": (lambda a: mt.max_pool1d(a, 3, 2, 1), lambda: (x(2, 2, 7),)),
    "max_pool2d": (lambda a: mt.max_pool2d(a, 2), lambda: (x(1, 2, 4, 4),)),
    "max_pool3d": (lambda a: mt.max_pool3d(a, 2, padding=1), lambda: (x(1, 2, 3, 3, 3),)),
    "max_pool1d_with_indices": (lambda a: mt.max_pool1d_with_indices(a, 2)[0], lambda: (x(2, 2, 6),)),
    "F.max_pool2d_with_indices": (lambda a: F.max_pool2d_with_indices(a, 2)[0], lambda: (x(1, 2, 4, 4),)),
    "F.max_pool3d_with_indices": (lambda a: F.max_pool3d_with_indices(a, 2)[0], lambda: (x(1, 2, 2, 4, 4),)),
    "avg_pool1d": (lambda a: mt.avg_pool1d(a, 3, 2, 1), lambda: (x(2, 2, 7),)),
    "F.avg_pool3d": (lambda a: F.avg_pool3d(a, 2, 1, 1, count_include_pad=False), lambda: (x(1, 2, 2, 3, 3),)),
    "adaptive_avg_pool1d": (lambda a: mt.adaptive_avg_pool1d(a, 3), lambda: (x(2, 2, 7),)),
    "F.adaptive_avg_pool3d": (lambda a: F.adaptive_avg_pool3d(a, (2, 1, 3)), lambda: (x(1, 2, 3, 2, 5),)),
    "adaptive_max_pool1d": (lambda a: mt.adaptive_max_pool1d(a, 3)[0], lambda: (x(2, 2, 7),)),
    "F.adaptive_max_pool3d": (lambda a: F.adaptive_max_pool3d(a, (2, 1, 3)), lambda: (x(1, 2, 3, 2, 5),)),
    "F.adaptive_max_pool1d_with_indices": (lambda a: F.adaptive_max_pool1d_with_indices(a, 3)[0],
                                           lambda: (x(2, 2, 7),)),
    "F.adaptive_max_pool2d_with_indices": (lambda a: F.adaptive_max_pool2d_with_indices(a, 2)[0],
                                           lambda: (x(1, 2, 5, 5),)),
    "F.adaptive_max_pool3d_with_indices": (lambda a: F.adaptive_max_pool3d_with_indices(a, 2)[0],
                                           lambda: (x(1, 2, 3, 3, 3),)),
    "F.lp_pool1d": (lambda a: F.lp_pool1d(a, 3, 2), lambda: (x(2, 2, 6),)),
    "F.lp_pool2d": (lambda a: F.lp_pool2d(a, 2, 2, stride=1), lambda: (x(1, 2, 3, 3),)),
    "F.lp_pool3d": (lambda a: F.lp_pool3d(a, 1.5, 2), lambda: (x(1, 2, 2, 2, 4),)),
    "F.max_unpool1d": (lambda a: F.max_unpool1d(a, _indices_of(F.max_pool1d, (1, 2, 6)), 2), lambda: (x(1, 2, 3),)),
    "F.max_unpool2d": (lambda a: F.max_unpool2d(a, _indices_of(F.max_pool2d, (1, 2, 4, 4)), 2),
                       lambda: (x(1, 2, 2, 2),)),
    "F.max_unpool3d": (lambda a: F.max_unpool3d(a, _indices_of(F.max_pool3d, (1, 1, 4, 4, 2)), 2),
                       lambda: (x(1, 1, 2, 2, 1),)),
    "F.unfold": (lambda a: F.unfold(a, 2, padding=1, stride=(2, 1)), lambda: (x(1, 2, 3, 4),)),
    "F.fold": (lambda a: F.fold(a, (3, 4), 2, dilation=(1, 2)), lambda: (x(1, 8, 4),)),
    "F.fractional_max_pool2d": (lambda a: F.fractional_max_pool2d(a, 2, output_size=(2, 3), _random_samples=mt.tensor(
        [[[0.3, 0.7]], [[0.9, 0.1]]], dtype=mt.float64)), lambda: (x(2, 1, 4, 5),)),
    "F.fractional_max_pool3d": (lambda a: F.fractional_max_pool3d(a, 2, output_ratio=0.5), lambda: (x(1, 2, 4, 4, 4),)),
    "F.fractional_max_pool2d_with_indices": (lambda a: F.fractional_max_pool2d_with_indices(a, 2, output_size=2)[0],
                                             lambda: (x(1, 2, 4, 4),)),
    "F.fractional_max_pool3d_with_indices": (lambda a: F.fractional_max_pool3d_with_indices(a, 2, output_size=2)[0],
                                             lambda: (x(1, 1, 4, 4, 4),)),
    "constant_pad_nd": (lambda a: mt.constant_pad_nd(a, [1, -1, 0, 2], 0.5), lambda: (x(3, 4),)),
    "F.upsample_nearest": (_quiet(lambda a: F.upsample_nearest(a, scale_factor=2)), lambda: (x(1, 2, 2, 3),)),
    "F.upsample_bilinear": (_quiet(lambda a: F.upsample_bilinear(a, (3, 5))), lambda: (x(1, 2, 2, 3),)),
    "affine_grid_generator": (lambda t: mt.affine_grid_generator(t, [2, 1, 2, 3], True), lambda: (x(2, 2, 3),)),
    "F.affine_grid": (lambda t: F.affine_grid(t, (1, 1, 2, 2, 3), align_corners=False), lambda: (x(1, 3, 4),)),
    # grid points off the pixel lattice (the interpolation weights have kinks there) and partly outside
    "grid_sampler": (lambda a, g: mt.grid_sampler(a, g, 0, 0, False), lambda: (x(1, 2, 3, 4),
                                                                               x(1, 2, 2, 2, low=-1.3, high=0.9))),
    "grid_sampler_2d": (lambda a, g: mt.grid_sampler_2d(a, g, 0, 2, False),
                        lambda: (x(1, 2, 3, 4), x(1, 2, 2, 2, low=-1.3, high=0.9, seed=1))),
    "grid_sampler_3d": (lambda a, g: mt.grid_sampler_3d(a, g, 0, 1, True),
                        lambda: (x(1, 1, 2, 2, 2), x(1, 1, 1, 2, 3, low=-1.1, high=0.9, seed=2))),
    "F.grid_sample": (lambda a, g: F.grid_sample(a, g, "bicubic", "reflection", align_corners=True),
                      lambda: (x(1, 1, 3, 3), x(1, 1, 2, 2, low=-1.3, high=0.9, seed=3))),
}
