"""The tile rule of the im2col convolutions: tiles of whole images that fit in the L2 cache, grown to about
1024 GEMM columns for deep layers whose images give only a few columns each, never for small-K products."""
import numpy as np
import pytest

from minitorch._ops.conv import convolution as conv
from minitorch._ops.conv.geometry import Geometry


def _sizes(n, bytes_per_image, columns, k):
    return [t.stop - t.start for t in conv._tiles(n, bytes_per_image, columns, k)]


@pytest.mark.parametrize("n, bytes_per_image, columns, k, sizes", [
    # cifar stem, 3 -> 16 channels at 32x32 (K = 27, 32 * 34 columns): the L2 rule, 17 images a tile
    (64, 27 * 1088 * 4, 1088, 27, [17, 17, 17, 13]),
    # resnet18, 64 channels at 56x56: an image alone has 56 * 58 columns, one image a tile
    (16, 576 * 3248 * 4, 3248, 576, [1] * 16),
    # resnet18, 256 channels at 14x14: 14 * 16 columns an image, grown to 4 images (896 columns)
    (16, 2304 * 224 * 4, 224, 2304, [4, 4, 4, 4]),
    # resnet18, 512 channels at 7x7: 7 * 9 columns an image, 16 images (1008 columns) in one tile
    (16, 4608 * 63 * 4, 63, 4608, [16]),
    (4, 4608 * 63 * 4, 63, 4608, [4]),
    # where the L2 rule already gives more, it stands (cifar, 32 channels at 8x8: 22 images, not 12)
    (64, 288 * 80 * 4, 80, 288, [22, 22, 20]),
    # a small K (an input gradient with 8 output channels) keeps the L2 rule however few its columns
    (16, 4608 * 49 * 4, 49, 8, [2] * 8),
])
def test_tile_sizes(n, bytes_per_image, columns, k, sizes):
    assert _sizes(n, bytes_per_image, columns, k) == sizes


def _all_three(x, w, g):
    y = conv._conv(x, w, g)
    u = np.random.default_rng(1).standard_normal(y.shape)
    return y, conv._conv_transpose(u, w, g, x.shape[2:]), conv._conv_weight_grad(x, u, g, w.shape[2:])


@pytest.mark.parametrize("shape, out_channels, stride, groups", [
    ((8, 32, 12, 12), 32, 1, 1),    # K = 288: 6 images of 12 * 14 columns a tile, then 2
    ((5, 64, 9, 7), 64, 2, 2),      # strided, grouped: K = 288 per group
    ((3, 4, 8, 8), 256, 2, 1),      # strided input gradient: its K is the 256 output channels
])
def test_grown_tiles_match_one_image_tiles(monkeypatch, shape, out_channels, stride, groups):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    w = rng.standard_normal((out_channels, shape[1] // groups, 3, 3))
    g = Geometry((stride, stride), ((1, 1), (1, 1)), (1, 1), groups)
    monkeypatch.setattr(conv, "_TILE_BYTES", 1)
    grown = _all_three(x, w, g)
    monkeypatch.setattr(conv, "_MIN_COLUMNS", 0)
    for a, b in zip(grown, _all_three(x, w, g)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
