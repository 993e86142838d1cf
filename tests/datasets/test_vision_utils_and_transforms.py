"""torchvision.utils (make_grid, save_image) and the wider torchvision.transforms set, on hand-derived values."""
import random
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import minitorch
from minitorch.datasets import image_utils
from minitorch.datasets import transforms as T

F = T.functional


def _t(a):
    return minitorch.from_numpy(np.ascontiguousarray(a))


# ---- make_grid / save_image ----------------------------------------------------------------------------------

def test_make_grid_layout_and_padding():
    batch = np.arange(1, 6, dtype=np.float32)[:, None, None, None] * np.ones((5, 3, 2, 3), np.float32)
    grid = image_utils.make_grid(_t(batch), nrow=2, padding=1, pad_value=-1).numpy()
    # xmaps = 2, ymaps = 3: (3 * (2 + 1) + 1, 2 * (3 + 1) + 1)
    assert grid.shape == (3, 10, 9)
    assert (grid[:, 0, :] == -1).all() and (grid[:, :, 0] == -1).all() and (grid[:, :, 4] == -1).all()
    assert (grid[:, 1:3, 1:4] == 1).all() and (grid[:, 1:3, 5:8] == 2).all()
    assert (grid[:, 4:6, 1:4] == 3).all() and (grid[:, 7:9, 1:4] == 5).all()
    assert (grid[:, 7:9, 5:8] == -1).all()  # the empty last cell keeps pad_value
    assert image_utils.make_grid(_t(batch)).shape == (3, 2 + 2 * 2, 5 * (3 + 2) + 2)  # nrow=8 > 5 images: one row
    assert image_utils.make_grid(_t(batch), nrow=1, padding=0).shape == (3, 10, 3)


def test_make_grid_single_images_and_channels():
    img = np.random.default_rng(0).random((1, 4, 5)).astype(np.float32)
    out = image_utils.make_grid(_t(img)).numpy()  # one 1-channel image: 3 channels, no padding
    assert out.shape == (3, 4, 5) and np.array_equal(out, np.repeat(img, 3, 0))
    assert image_utils.make_grid(_t(img[0])).shape == (3, 4, 5)
    assert image_utils.make_grid(_t(img[None])).shape == (3, 4, 5)
    grid = image_utils.make_grid([_t(img), _t(img)], padding=2)  # list of 1-channel images
    assert grid.shape == (3, 8, 16)


def test_make_grid_normalize():
    batch = np.stack([np.full((3, 2, 2), 2.0), np.full((3, 2, 2), 4.0)]).astype(np.float32)
    batch[0, 0, 0, 0] = 0.0
    g = image_utils.make_grid(_t(batch), padding=0, normalize=True).numpy()
    assert g.min() == 0 and g.max() == 1 and g[0, 0, 1] == 0.5
    g = image_utils.make_grid(_t(batch), padding=0, normalize=True, scale_each=True).numpy()
    assert g[0, 0, 1] == 1.0 and g[0, 0, 0] == 0.0 and (g[:, :, 2:] == 0).all()  # constant image: (x-m)/1e-5 = 0
    g = image_utils.make_grid(_t(batch), padding=0, normalize=True, value_range=(1.0, 3.0)).numpy()
    assert g[0, 0, 0] == 0 and g[0, 0, 1] == 0.5 and g[0, 0, 2] == 1.0
    with pytest.raises(TypeError):
        image_utils.make_grid(_t(batch), normalize=True, value_range=[0, 1])
    assert np.array_equal(batch[0, 0, 0], [0.0, 2.0])  # the input is untouched


def test_save_image_round_trip(tmp_path):
    img = np.random.default_rng(1).random((2, 3, 4, 5)).astype(np.float32)
    path = tmp_path / "grid.png"
    image_utils.save_image(_t(img), path, nrow=2, padding=1)
    back = np.asarray(Image.open(path)).astype(np.float32) / 255
    expected = image_utils.make_grid(_t(img), nrow=2, padding=1).numpy().transpose(1, 2, 0)
    assert back.shape == (6, 13, 3) and np.abs(back - expected).max() <= 0.5 / 255 + 1e-6
    image_utils.save_image(_t(img[0]), tmp_path / "one.jpg", format="PNG")
    assert Image.open(tmp_path / "one.jpg").format == "PNG"


def test_image_utils_take_tensors_that_require_grad(tmp_path):
    """torchvision runs them under no_grad: a model's output (requiring grad) is drawn as its values."""
    batch = np.random.default_rng(1).random((2, 3, 4, 4)).astype(np.float32)
    x = _t(batch).requires_grad_()
    grid = image_utils.make_grid(x * 1, nrow=1)
    assert not grid.requires_grad and np.array_equal(grid.numpy(), image_utils.make_grid(_t(batch), nrow=1).numpy())
    assert image_utils.make_grid([x[0], x[1]]).shape == (3, 8, 14)
    image_utils.save_image(x, tmp_path / "grad.png")
    image_utils.save_image(_t(batch), tmp_path / "plain.png")
    assert np.array_equal(np.asarray(Image.open(tmp_path / "grad.png")), np.asarray(Image.open(tmp_path / "plain.png")))
    boxes = minitorch.tensor([[1.0, 1.0, 5.0, 5.0]], requires_grad=True)
    image = minitorch.zeros(3, 8, 8, dtype=minitorch.uint8)
    drawn = image_utils.draw_bounding_boxes(image, boxes, colors="red")
    assert drawn.numpy()[0, 1, 1:6].tolist() == [255] * 5 and drawn.numpy()[1].max() == 0


def test_torchvision_namespace_has_utils():
    import minitorch.torchvision as tv
    from minitorch._torch_alias import target
    assert tv.utils is image_utils
    assert target("torchvision.utils") == "minitorch.datasets.image_utils"


def test_torchvision_imports_resolve_under_the_alias():
    code = ("from minitorch._torch_alias import install; install()\n"
            "import torchvision, minitorch.datasets.transforms as T, minitorch.datasets.image_utils as U\n"
            "from torchvision.transforms import functional as F\n"
            "import torchvision.transforms.functional as F2\n"
            "import torchvision.transforms.v2 as V2, torchvision.transforms.v2.functional as VF\n"
            "from torchvision.transforms.transforms import Compose\n"
            "from torchvision.transforms._presets import ImageClassification\n"
            "from torchvision.utils import make_grid, save_image\n"
            "print(F is T.functional, F2 is F, make_grid is U.make_grid, torchvision.utils is U, F.hflip is T.hflip,\n"
            "      V2 is T, VF is F, Compose is T.Compose, ImageClassification.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "True True True True True True True True minitorch.datasets._presets\n", out.stderr


# ---- transforms ------------------------------------------------------------------------------------------------

def _img(c=3, h=4, w=5, seed=0, dtype=np.float32):
    a = np.random.default_rng(seed).random((c, h, w))
    return (a * 255).astype(np.uint8) if dtype == np.uint8 else a.astype(dtype)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
def test_pad_modes_match_numpy_pad(mode):
    a = _img(dtype=np.uint8)
    widths = [(0, 0), (2, 3), (1, 2)]  # padding=(left, top, right, bottom) = (1, 2, 2, 3)
    expected = np.pad(a, widths, mode=mode)
    out = T.Pad((1, 2, 2, 3), padding_mode=mode)(_t(a)).numpy()
    assert out.dtype == np.uint8 and np.array_equal(out, expected)
    pil = T.Pad((1, 2, 2, 3), padding_mode=mode)(Image.fromarray(a.transpose(1, 2, 0)))
    assert np.array_equal(np.asarray(pil), expected.transpose(1, 2, 0))
    assert np.array_equal(F.pad(_t(a), 2, padding_mode=mode).numpy(), np.pad(a, [(0, 0), (2, 2), (2, 2)], mode=mode))


def test_pad_fill_and_repr():
    out = T.Pad([1, 2], fill=7)(_t(np.zeros((1, 2, 2), np.float32))).numpy()  # (left/right, top/bottom)
    assert out.shape == (1, 6, 4) and out[0, 0, 0] == 7 and out[0, 2, 1] == 0
    assert repr(T.Pad(2)) == "Pad(padding=2, fill=0, padding_mode=constant)"
    with pytest.raises(ValueError):
        T.Pad((1, 2, 3))


def test_grayscale_weights():
    a = _img(dtype=np.float32)
    g = T.Grayscale()(_t(a)).numpy()
    assert g.shape == (1, 4, 5)
    np.testing.assert_allclose(g[0], 0.2989 * a[0] + 0.587 * a[1] + 0.114 * a[2], rtol=1e-6)
    g3 = T.Grayscale(num_output_channels=3)(_t(a)).numpy()
    assert g3.shape == (3, 4, 5) and np.array_equal(g3[0], g3[2])
    # PIL: Pillow's L = R * 299/1000 + G * 587/1000 + B * 114/1000
    u = _img(dtype=np.uint8)
    pil = T.Grayscale(3)(Image.fromarray(u.transpose(1, 2, 0)))
    assert pil.mode == "RGB"
    expected = (u[0] * 0.299 + u[1] * 0.587 + u[2] * 0.114)
    assert np.abs(np.asarray(pil)[..., 1].astype(float) - expected).max() <= 1
    assert repr(T.Grayscale()) == "Grayscale(num_output_channels=1)"
    assert T.RandomGrayscale(p=1.0)(_t(a)).shape == (3, 4, 5)  # keeps the channel count
    assert T.RandomGrayscale(p=0.0)(_t(a)).numpy() is not None
    assert repr(T.RandomGrayscale()) == "RandomGrayscale(p=0.1)"


def test_flips_and_functional_basics():
    a = _img()
    assert np.array_equal(F.vflip(_t(a)).numpy(), a[:, ::-1])
    assert np.array_equal(F.hflip(_t(a)).numpy(), a[:, :, ::-1])
    assert np.array_equal(T.RandomVerticalFlip(p=1.0)(_t(a)).numpy(), a[:, ::-1])
    assert np.array_equal(F.crop(_t(a), 1, 2, 2, 3).numpy(), a[:, 1:3, 2:5])
    assert F.center_crop(_t(a), 2).shape == (3, 2, 2)
    assert F.get_dimensions(_t(a)) == [3, 4, 5] and F.get_image_size(_t(a)) == [5, 4]
    assert F.resize(_t(a), [8, 10]).shape == (3, 8, 10)
    np.testing.assert_allclose(F.normalize(_t(a), [0.5] * 3, [0.5] * 3).numpy(), (a - 0.5) / 0.5, rtol=1e-6)
    pil = F.to_pil_image(_t(a))
    assert pil.mode == "RGB" and np.array_equal(np.asarray(pil), (a * 255).astype(np.uint8).transpose(1, 2, 0))
    assert F.to_pil_image(_t(a[:1])).mode == "L"
    np.testing.assert_allclose(F.to_tensor(pil).numpy(), (a * 255).astype(np.uint8) / 255, rtol=1e-6)
    assert repr(T.ToPILImage()) == "ToPILImage()"


def test_rotate_right_angles_and_expand():
    sq = _img(2, 4, 4)
    assert np.array_equal(F.rotate(_t(sq), 90).numpy(), np.rot90(sq, 1, (1, 2)))  # counter-clockwise
    assert np.array_equal(F.rotate(_t(sq), 180).numpy(), sq[:, ::-1, ::-1])
    assert np.array_equal(F.affine(_t(sq), 90, [0, 0], 1.0, 0).numpy(), np.rot90(sq, -1, (1, 2)))  # clockwise
    u = _img(3, 4, 4, dtype=np.uint8).transpose(1, 2, 0)
    assert np.array_equal(np.asarray(F.rotate(Image.fromarray(u), 90)), np.rot90(u, 1, (0, 1)))
    rect = _img(1, 4, 6)
    assert F.rotate(_t(rect), 90, expand=True).shape == (1, 6, 4)
    np.testing.assert_allclose(F.rotate(_t(rect), 90, expand=True).numpy(), np.rot90(rect, 1, (1, 2)))
    assert F.rotate(_t(rect), 45, expand=True).shape == (1, 8, 8)  # ceil(6 cos45 + 4 sin45) = ceil(7.07)
    out = F.rotate(_t(np.ones((1, 5, 5), np.float32)), 45, fill=[2.0]).numpy()
    assert out[0, 0, 0] == 2.0 and out[0, 2, 2] == 1.0  # corners come from outside: filled


def test_affine_translate_and_scale():
    a = _img(1, 5, 5)
    out = F.affine(_t(a), 0, [1, 2], 1.0, 0).numpy()  # x by 1, y by 2; zeros come in
    assert np.array_equal(out[0, 2:, 1:], a[0, :3, :4]) and (out[0, :2] == 0).all() and (out[0, :, 0] == 0).all()
    u = (a * 255).astype(np.uint8)[0]
    pil = np.asarray(F.affine(Image.fromarray(u), 0, [1, 2], 1.0, 0))
    assert np.array_equal(pil[2:, 1:], u[:3, :4])
    big = F.affine(_t(a), 0, [0, 0], 2.0, 0, interpolation=T.InterpolationMode.BILINEAR).numpy()
    np.testing.assert_allclose(big[0, 2, 2], a[0, 2, 2], rtol=1e-6)  # the centre stays


def test_random_rotation_and_affine_seeded():
    a = _t(_img(3, 6, 6))
    minitorch.manual_seed(3)
    first = T.RandomRotation(40)(a).numpy()
    minitorch.manual_seed(3)
    angle = T.RandomRotation.get_params([-40.0, 40.0])
    assert -40 <= angle <= 40
    assert np.array_equal(first, F.rotate(a, angle).numpy())
    minitorch.manual_seed(3)
    assert np.array_equal(first, T.RandomRotation(40)(a).numpy())
    assert (repr(T.RandomRotation(30)) == "RandomRotation(degrees=[-30.0, 30.0], interpolation=nearest, "
            "expand=False, fill=0)")
    t = T.RandomAffine(10, translate=(0.1, 0.2), scale=(0.9, 1.1), shear=5)
    minitorch.manual_seed(5)
    x = t(a).numpy()
    minitorch.manual_seed(5)
    assert np.array_equal(x, t(a).numpy()) and x.shape == (3, 6, 6)
    minitorch.manual_seed(5)
    angle, (tx, ty), scale, shear = T.RandomAffine.get_params([-10.0, 10.0], (0.1, 0.2), (0.9, 1.1),
                                                              [-5.0, 5.0], [6, 6])
    assert abs(tx) <= 1 and abs(ty) <= 1 and 0.9 <= scale <= 1.1 and shear[1] == 0.0
    assert repr(t) == ("RandomAffine(degrees=[-10.0, 10.0], translate=(0.1, 0.2), scale=(0.9, 1.1), "
                       "shear=[-5.0, 5.0])")
    assert repr(T.RandomAffine(0, fill=1, interpolation=T.InterpolationMode.BILINEAR)) == (
        "RandomAffine(degrees=[0.0, 0.0], interpolation=bilinear, fill=1)")
    assert T.RandomAffine(20)(Image.new("RGB", (6, 4))).size == (6, 4)


def test_gaussian_blur():
    k = F._gaussian_kernel1d(3, 1.0)
    np.testing.assert_allclose(k, np.array([np.exp(-0.5), 1, np.exp(-0.5)]) / (1 + 2 * np.exp(-0.5)))
    impulse = np.zeros((1, 5, 5), np.float32)
    impulse[0, 2, 2] = 1
    out = F.gaussian_blur(_t(impulse), [3, 3], [1.0, 1.0]).numpy()
    np.testing.assert_allclose(out[0, 1:4, 1:4], np.outer(k, k), rtol=1e-6)
    assert out.sum() == pytest.approx(1.0)
    const = np.full((3, 4, 4), 0.25, np.float32)
    np.testing.assert_allclose(T.GaussianBlur(5)(_t(const)).numpy(), const, rtol=1e-6)  # reflect keeps constants
    pil = Image.fromarray(_img(3, 6, 6, dtype=np.uint8).transpose(1, 2, 0))
    assert T.GaussianBlur(3, sigma=0.5)(pil).size == (6, 6)
    assert repr(T.GaussianBlur(3)) == "GaussianBlur(kernel_size=(3, 3), sigma=(0.1, 2.0))"
    with pytest.raises(ValueError):
        T.GaussianBlur(4)


def test_random_erasing():
    a = _t(np.ones((3, 10, 10), np.float32))
    erasing = T.RandomErasing(p=1.0, value=0)
    minitorch.manual_seed(0)
    out = erasing(a).numpy()
    minitorch.manual_seed(0)
    assert np.array_equal(out, erasing(a).numpy())
    zeros = out[0] == 0
    rows, cols = np.nonzero(zeros.any(1))[0], np.nonzero(zeros.any(0))[0]
    assert zeros.sum() == len(rows) * len(cols) and 2 <= zeros.sum() <= 33  # one rectangle, 2%..33% of 100 pixels
    assert (a.numpy() == 1).all()  # not in place
    per_channel = T.RandomErasing(p=1.0, value=(1.0, 2.0, 3.0))(_t(np.zeros((3, 10, 10), np.float32))).numpy()
    assert set(np.unique(per_channel[2])) == {0.0, 3.0}
    assert T.RandomErasing(p=0.0)(a) is a
    assert T.RandomErasing(p=1.0, value="random")(a).shape == (3, 10, 10)
    assert repr(T.RandomErasing()) == ("RandomErasing(p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, "
                                       "inplace=False)")


def test_random_apply_choice_order():
    def add(n):
        return T.Lambda(lambda x: x + [n])

    assert T.RandomApply([add(1), add(2)], p=1.0)([]) == [1, 2]
    assert T.RandomApply([add(1)], p=0.0)([]) == []
    assert T.RandomChoice([add(1), add(2)], p=[0.0, 1.0])([]) == [2]
    random.seed(1)  # as torchvision's, RandomOrder and RandomChoice shuffle with Python's random module
    order = T.RandomOrder([add(1), add(2), add(3)])([])
    assert sorted(order) == [1, 2, 3]
    random.seed(1)
    assert T.RandomOrder([add(1), add(2), add(3)])([]) == order
    assert repr(T.RandomApply([T.Grayscale()], p=0.3)) == "RandomApply(\n    p=0.3\n    Grayscale(num_output_channels=1)\n)"
    assert repr(T.RandomChoice([T.Grayscale()])) == "RandomChoice(\n    Grayscale(num_output_channels=1)\n)(p=None)"
    assert repr(T.RandomOrder([T.RandomVerticalFlip()])) == "RandomOrder(\n    RandomVerticalFlip(p=0.5)\n)"


def test_convert_image_dtype():
    u = _t(np.array([[[0, 128, 255]]], np.uint8))
    np.testing.assert_allclose(T.ConvertImageDtype(minitorch.float32)(u).numpy(), [[[0, 128 / 255, 1]]], rtol=1e-6)
    back = F.convert_image_dtype(_t(np.array([[[0.0, 0.5, 1.0]]], np.float32)), minitorch.uint8).numpy()
    assert back.tolist() == [[[0, 127, 255]]]  # x * (255 + 1 - 0.001), truncated
    assert F.convert_image_dtype(u, minitorch.int16).numpy().tolist() == [[[0, 128 * 128, 255 * 128]]]
    with pytest.raises(RuntimeError):
        F.convert_image_dtype(_t(np.zeros((1, 1, 1), np.float32)), minitorch.int32)


def test_color_adjustments_on_tensors():
    a = _img()
    np.testing.assert_allclose(F.adjust_brightness(_t(a), 0.5).numpy(), a * 0.5, rtol=1e-6)
    np.testing.assert_allclose(F.adjust_brightness(_t(a), 3.0).numpy(), np.clip(a * 3, 0, 1), rtol=1e-6)
    gray = 0.2989 * a[0] + 0.587 * a[1] + 0.114 * a[2]
    np.testing.assert_allclose(F.adjust_contrast(_t(a), 0.0).numpy(), np.full_like(a, gray.mean()), rtol=1e-5)
    np.testing.assert_allclose(F.adjust_saturation(_t(a), 0.0).numpy(), np.broadcast_to(gray, a.shape), rtol=1e-5)
    np.testing.assert_allclose(F.adjust_hue(_t(a), 0.0).numpy(), a, atol=1e-6)
    red = _t(np.array([1.0, 0.0, 0.0], np.float32).reshape(3, 1, 1))
    np.testing.assert_allclose(F.adjust_hue(red, 1 / 3).numpy().ravel(), [0, 1, 0], atol=1e-6)  # red -> green


def test_draw_bounding_boxes():
    img = _t(np.zeros((3, 10, 12), np.uint8))
    out = image_utils.draw_bounding_boxes(img, minitorch.tensor([[1, 2, 6, 8]]), colors="red").numpy()
    assert out.dtype == np.uint8 and out.shape == (3, 10, 12)
    assert (out[0, 2, 1:7] == 255).all() and (out[0, 8, 1:7] == 255).all() and (out[0, 2:9, 1] == 255).all()
    assert (out[1:] == 0).all() and out[0, 4, 3] == 0  # red outline, empty inside
    assert image_utils._generate_color_palette(2) == [(0, 0, 0), (1, 127, 31)]  # (i * [2^25-1, 2^15-1, 2^21-1]) % 255
    filled = image_utils.draw_bounding_boxes(minitorch.zeros(1, 10, 12), minitorch.tensor([[1.0, 2.0, 6.0, 8.0]]),
                                             labels=["a"], fill=True, colors=(0, 255, 0))
    assert filled.dtype == minitorch.float32 and filled.shape == (3, 10, 12)  # gray input comes back RGB
    assert filled.numpy()[1, 5, 5] == pytest.approx(100 / 255)  # fill alpha 100 over black
    with pytest.raises(ValueError):
        image_utils.draw_bounding_boxes(img, minitorch.tensor([[6, 2, 1, 8]]))


def test_pixel_ops_match_pillow():
    u = _img(3, 6, 7, seed=2, dtype=np.uint8)
    pil = Image.fromarray(u.transpose(1, 2, 0))
    for fn in (F.invert, F.equalize, lambda x: F.posterize(x, 3), lambda x: F.solarize(x, 100),
               lambda x: F.adjust_sharpness(x, 0.0), lambda x: F.adjust_sharpness(x, 2.0)):
        assert np.array_equal(fn(_t(u)).numpy().transpose(1, 2, 0), np.asarray(fn(pil)))
    # autocontrast truncates a float32 product on tensors (as torchvision does), Pillow a double one: off by <= 1
    diff = F.autocontrast(_t(u)).numpy().transpose(1, 2, 0).astype(int) - np.asarray(F.autocontrast(pil))
    assert np.abs(diff).max() <= 1
    stretched = F.autocontrast(_t(np.array([[[0.2, 0.4, 0.6]]], np.float32))).numpy()
    np.testing.assert_allclose(stretched, [[[0.0, 0.5, 1.0]]], atol=1e-6)
    a = _img()
    np.testing.assert_allclose(F.invert(_t(a)).numpy(), 1 - a, rtol=1e-6)
    assert F.posterize(_t(np.array([[[255, 77]]], np.uint8)), 2).numpy().tolist() == [[[192, 64]]]
    assert T.RandomInvert(p=1.0)(_t(u)).numpy()[0, 0, 0] == 255 - u[0, 0, 0]
    assert repr(T.RandomInvert()) == "RandomInvert(p=0.5)"
    assert repr(T.RandomPosterize(4)) == "RandomPosterize(bits=4,p=0.5)"
    assert repr(T.RandomSolarize(128, p=0.2)) == "RandomSolarize(threshold=128,p=0.2)"
    assert repr(T.RandomAdjustSharpness(2)) == "RandomAdjustSharpness(sharpness_factor=2,p=0.5)"
    assert T.RandomEqualize(p=0.0)(_t(u)).numpy() is not None and T.RandomAutocontrast(p=1.0)(pil).size == (7, 6)


def test_five_and_ten_crop():
    a = _img(1, 4, 5)
    tl, tr, bl, br, center = T.FiveCrop(2)(_t(a))
    assert np.array_equal(tl.numpy(), a[:, :2, :2]) and np.array_equal(tr.numpy(), a[:, :2, 3:])
    assert np.array_equal(bl.numpy(), a[:, 2:, :2]) and np.array_equal(br.numpy(), a[:, 2:, 3:])
    assert np.array_equal(center.numpy(), a[:, 1:3, 2:4])  # round((4-2)/2), round((5-2)/2) = 1, 2
    ten = T.TenCrop((2, 3), vertical_flip=True)(_t(a))
    assert len(ten) == 10 and np.array_equal(ten[5].numpy(), a[:, ::-1][:, :2, :3])
    assert repr(T.FiveCrop(2)) == "FiveCrop(size=(2, 2))"
    assert repr(T.TenCrop(2)) == "TenCrop(size=(2, 2), vertical_flip=False)"
    with pytest.raises(ValueError):
        T.FiveCrop(6)(_t(a))


def test_perspective():
    a = _img(3, 7, 9)
    corners = [[0, 0], [8, 0], [8, 6], [0, 6]]
    np.testing.assert_allclose(F.perspective(_t(a), corners, corners).numpy(), a, atol=1e-6)
    shifted = [[x + 1, y + 2] for x, y in corners]  # a pure translation by (1, 2)
    out = F.perspective(_t(a), corners, shifted, T.InterpolationMode.NEAREST).numpy()
    assert np.array_equal(out[:, 2:, 1:], a[:, :-2, :-1]) and (out[:, :2] == 0).all()
    u = (a * 255).astype(np.uint8).transpose(1, 2, 0)
    pil = np.asarray(F.perspective(Image.fromarray(u), corners, shifted, T.InterpolationMode.NEAREST))
    assert np.array_equal(pil[2:, 1:], u[:-2, :-1])
    start, end = T.RandomPerspective.get_params(9, 7, 0.5)
    assert start == corners and 0 <= end[0][0] <= 2 and 6 <= end[1][0] <= 8 and 4 <= end[2][1] <= 6
    minitorch.manual_seed(4)
    first = T.RandomPerspective(p=1.0)(_t(a)).numpy()
    minitorch.manual_seed(4)
    assert np.array_equal(first, T.RandomPerspective(p=1.0)(_t(a)).numpy())
    assert repr(T.RandomPerspective()) == "RandomPerspective(p=0.5)"
