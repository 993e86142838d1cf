"""F.interpolate in every mode PyTorch has on CPU but antialiasing (nearest, nearest-exact, linear, bilinear,
bicubic, trilinear, area; sizes and scale factors, align_corners, recompute_scale_factor): values, gradients
and graph nodes against PyTorch, gradcheck in float64, and PyTorch's errors."""
import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error
from torch_answers import torch_answer

SHAPES = {"nearest": [(2, 3, 5), (2, 3, 5, 6), (1, 2, 3, 4, 5)], "nearest-exact": [(1, 2, 5), (2, 3, 5, 6)],
          "linear": [(2, 3, 5)], "bilinear": [(2, 3, 5, 6)], "bicubic": [(2, 3, 5, 6)], "trilinear": [(1, 2, 3, 4, 5)],
          "area": [(2, 3, 7), (2, 3, 7, 9), (1, 2, 6, 5, 7)]}
SIZES = [dict(scale_factor=2), dict(scale_factor=1.7), dict(scale_factor=0.6), dict(size=3),
         dict(scale_factor=1.7, recompute_scale_factor=True)]
CASES = [(mode, shape, kw, ac) for mode, shapes in SHAPES.items() for shape in shapes for kw in SIZES
         for ac in ((None,) if mode in ("nearest", "nearest-exact", "area") else (False, True))]


def _interpolate(lib, x, kws):
    """interpolate's output, node name, and the input's gradient of a random weighting of the output."""
    x = lib.tensor(x, requires_grad=True)
    y = lib.nn.functional.interpolate(x, **kws)
    (y * lib.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape)))).sum().backward()
    return y, y.grad_fn.name(), x.grad


@pytest.mark.parametrize("mode, shape, kw, align_corners", CASES)
def test_matches_torch(mode, shape, kw, align_corners):
    x, kws = np.random.default_rng(0).standard_normal(shape), dict(kw, mode=mode)
    if align_corners is not None:
        kws["align_corners"] = align_corners
    ym, node, grad = _interpolate(minitorch, x, kws)
    yt, their_node, their_grad = torch_answer(_interpolate, x, kws)
    assert tuple(ym.shape) == yt.shape
    np.testing.assert_allclose(ym.detach().numpy(), yt.numpy(), atol=1e-12)
    np.testing.assert_allclose(grad.numpy(), their_grad.numpy(), atol=1e-12)
    if not (mode == "area" and len(shape) == 3):  # torch's 1-d area goes through a 2-d pool and a squeeze
        assert node == their_node


@pytest.mark.parametrize("mode, shape", [("linear", (1, 2, 4)), ("bilinear", (1, 1, 3, 4)), ("bicubic", (1, 1, 3, 4)),
                                         ("trilinear", (1, 1, 2, 3, 2)), ("nearest", (1, 1, 2, 3, 2)),
                                         ("area", (1, 1, 5, 4))])
def test_gradcheck(mode, shape):
    x = minitorch.tensor(np.random.default_rng(1).standard_normal(shape), requires_grad=True)
    fn = (lambda t: F.interpolate(t, scale_factor=1.5, mode=mode)) if mode in ("nearest", "area") else \
        (lambda t: F.interpolate(t, scale_factor=1.5, mode=mode, align_corners=False))
    assert gradcheck(fn, (x,)) and gradgradcheck(fn, (x,))


def test_float32_stays_float32_and_known_values():
    x = minitorch.tensor([[[0.0, 1.0, 3.0]]])
    y = F.interpolate(x, size=5, mode="linear", align_corners=True)
    assert y.dtype == minitorch.float32
    np.testing.assert_allclose(y.numpy(), [[[0.0, 0.5, 1.0, 2.0, 3.0]]])
    np.testing.assert_allclose(F.interpolate(x, scale_factor=2, mode="nearest").numpy(),
                               [[[0.0, 0.0, 1.0, 1.0, 3.0, 3.0]]])


@pytest.mark.parametrize("call, exc, msg", [
    (lambda m: m.nn.functional.interpolate(m.zeros(1, 1, 4, 4), scale_factor=2, mode="linear"),
     NotImplementedError, "Got 4D input, but linear mode needs 3D input"),
    (lambda m: m.nn.functional.interpolate(m.zeros(1, 1, 4), scale_factor=2, mode="trilinear"),
     NotImplementedError, "Got 3D input, but trilinear mode needs 5D input"),
    (lambda m: m.nn.functional.interpolate(m.zeros(1, 1, 4, 4), scale_factor=2, mode="nearest", align_corners=True),
     ValueError, "align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic "
                 "| trilinear"),
    (lambda m: m.nn.functional.interpolate(m.zeros(1, 1, 4, 4), mode="bilinear"), ValueError,
     "either size or scale_factor should be defined"),
])
def test_errors(call, exc, msg):
    check_error(call, exc=exc, msg=msg)


def test_upsample_layers():
    x = minitorch.arange(4.0).reshape(1, 1, 2, 2)
    np.testing.assert_allclose(minitorch.nn.UpsamplingBilinear2d(scale_factor=2)(x).numpy()[0, 0, 0],
                               [0.0, 1 / 3, 2 / 3, 1.0])
    np.testing.assert_allclose(minitorch.nn.Upsample(scale_factor=2, mode="bilinear")(x).numpy()[0, 0, 0],
                               [0.0, 0.25, 0.75, 1.0])
