"""minitorch.datasets: transforms, the synthetic tasks, ImageFolder, MNIST, CIFAR10 and downloads.

Every file these tests read is written here, in pytest's tmp_path: idx files, pickled CIFAR batches,
archives served over HTTP by a local server on 127.0.0.1. Comparisons with PyTorch skip without it.
"""
import collections
import gzip
import hashlib
import http.server
import io
import math
import os
import pickle
import socket
import struct
import tarfile
import threading

import numpy as np
import pytest
from PIL import Image, ImageEnhance

import minitorch
import minitorch.datasets as datasets
from minitorch.datasets import transforms as T
from minitorch.datasets import utils as dutils
from minitorch.utils.data import DataLoader
from torch_answers import torch_answer


def rgb(h, w, seed=0):
    """An RGB PIL image of random pixels."""
    return Image.fromarray(np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8))


def pixels(img):
    """The pixels of a PIL image or a CHW tensor, as an ndarray (HWC for images)."""
    return np.asarray(img) if isinstance(img, Image.Image) else img.numpy()


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


# ---- ToTensor, PILToTensor, Normalize ---------------------------------------------------------------------------

def test_to_tensor_scales_8_bit_images_to_unit_range():
    hwc = np.array([[[0, 128, 255], [1, 2, 3], [250, 7, 9]],
                    [[10, 20, 30], [40, 50, 60], [70, 80, 90]]], dtype=np.uint8)  # 2 x 3 pixels
    expected = hwc.transpose(2, 0, 1).astype(np.float32) / np.float32(255)
    for pic in (Image.fromarray(hwc), hwc):
        out = T.ToTensor()(pic)
        assert out.dtype == minitorch.float32 and tuple(out.shape) == (3, 2, 3)
        np.testing.assert_array_equal(out.numpy(), expected)
    gray = T.ToTensor()(Image.fromarray(hwc[:, :, 0]))
    assert tuple(gray.shape) == (1, 2, 3)
    np.testing.assert_array_equal(gray.numpy()[0], hwc[:, :, 0] / np.float32(255))
    binary = T.ToTensor()(Image.fromarray(hwc[:, :, 0] > 100))  # mode '1'
    np.testing.assert_array_equal(binary.numpy()[0], (hwc[:, :, 0] > 100).astype(np.float32))


def test_to_tensor_keeps_other_dtypes_unscaled():
    floats = np.arange(6, dtype=np.float64).reshape(2, 3)
    out = T.ToTensor()(floats)
    assert out.dtype == minitorch.float64 and tuple(out.shape) == (1, 2, 3)
    np.testing.assert_array_equal(out.numpy()[0], floats)
    out = T.ToTensor()(Image.fromarray(floats.astype(np.float32)))  # mode 'F'
    assert out.dtype == minitorch.float32
    np.testing.assert_array_equal(out.numpy()[0], floats)
    ints = np.arange(12, dtype=np.int32).reshape(2, 2, 3)
    np.testing.assert_array_equal(T.ToTensor()(ints).numpy(), ints.transpose(2, 0, 1))


def test_to_tensor_errors():
    with pytest.raises(TypeError, match="pic should be PIL Image or ndarray. Got <class 'list'>"):
        T.ToTensor()([[1, 2]])
    with pytest.raises(ValueError, match="pic should be 2/3 dimensional. Got 4 dimensions."):
        T.ToTensor()(np.zeros((1, 2, 2, 3), np.uint8))


def test_pil_to_tensor_keeps_uint8_values():
    img = rgb(3, 4)
    out = T.PILToTensor()(img)
    assert out.dtype == minitorch.uint8 and tuple(out.shape) == (3, 3, 4)
    np.testing.assert_array_equal(out.numpy(), np.asarray(img).transpose(2, 0, 1))
    assert tuple(T.PILToTensor()(img.convert("L")).shape) == (1, 3, 4)
    with pytest.raises(TypeError, match="pic should be PIL Image. Got <class 'numpy.ndarray'>"):
        T.PILToTensor()(np.asarray(img))


def test_normalize_values_and_inplace():
    x = minitorch.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 2, 2) / 11)
    before = x.numpy().copy()
    mean, std = [0.5, 0.25, 0.0], [0.5, 2.0, 0.125]
    out = T.Normalize(mean, std)(x)
    expected = (before - np.float32(mean).reshape(3, 1, 1)) / np.float32(std).reshape(3, 1, 1)
    np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(x.numpy(), before)  # out of place by default
    batch = minitorch.from_numpy(np.stack([before, before]))
    assert T.Normalize(mean, std, inplace=True)(batch) is batch
    np.testing.assert_array_equal(batch.numpy(), np.stack([expected, expected]))


def test_to_tensor_matches_torch():
    hwc = np.random.default_rng(2).integers(0, 256, (4, 5, 3), dtype=np.uint8)
    theirs = torch_answer(lambda torch, hwc: torch.from_numpy(hwc).permute(2, 0, 1).to(torch.float32).div(255), hwc)
    np.testing.assert_array_equal(T.ToTensor()(Image.fromarray(hwc)).numpy(), theirs.numpy())


def test_normalize_matches_torch():
    data = np.random.default_rng(0).random((3, 5, 4), dtype=np.float32)
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    ours = T.Normalize(mean, std)(minitorch.from_numpy(data.copy())).numpy()
    theirs = torch_answer(lambda torch, data, mean, std: torch.from_numpy(data).sub(torch.tensor(mean).view(-1, 1, 1))
                          .div(torch.tensor(std).view(-1, 1, 1)), data, mean, std)
    np.testing.assert_array_equal(ours, theirs.numpy())


def test_normalize_errors():
    with pytest.raises(TypeError, match="img should be Tensor Image"):
        T.Normalize([0.5], [0.5])(np.zeros((1, 2, 2), np.float32))
    with pytest.raises(TypeError, match="Input tensor should be a float tensor. Got minitorch.uint8."):
        T.Normalize([0.5], [0.5])(minitorch.zeros(1, 2, 2, dtype=minitorch.uint8))
    with pytest.raises(ValueError, match=r"Expected tensor to be a tensor image of size \(..., C, H, W\)"):
        T.Normalize([0.5], [0.5])(minitorch.zeros(2, 2))
    with pytest.raises(ValueError, match="std evaluated to zero after conversion to minitorch.float32"):
        T.Normalize([0.5, 0.5], [0.5, 0.0])(minitorch.zeros(2, 2, 2))


# ---- Resize ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width, height, size, max_size, expected_hw", [
    (100, 50, 32, None, (32, 64)),      # shorter edge is the height
    (50, 75, 32, None, (48, 32)),       # shorter edge is the width
    (100, 30, 20, None, (20, 66)),      # 66.67 is truncated, not rounded
    (101, 33, [20], None, (20, 61)),    # a 1-sequence acts like an int
    (100, 30, 20, 50, (15, 50)),        # the longer edge capped by max_size, the shorter one truncated
    (40, 40, 10, None, (10, 10)),
    (40, 30, (12, 7), None, (12, 7)),   # (h, w) is exact
])
def test_resize_output_size(width, height, size, max_size, expected_hw):
    out = T.Resize(size, max_size=max_size)(rgb(height, width))
    assert (out.height, out.width) == expected_hw
    tensor_out = T.Resize(size, max_size=max_size)(minitorch.zeros(3, height, width))
    assert tuple(tensor_out.shape) == (3,) + expected_hw


def test_resize_values():
    img = rgb(20, 30)
    same = T.Resize(20)
    assert same(img) is img  # already the requested size
    out = T.Resize((10, 15), interpolation=T.InterpolationMode.BICUBIC)(img)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(img.resize((15, 10), Image.Resampling.BICUBIC)))
    nearest = T.Resize((10, 15), interpolation=Image.Resampling.NEAREST)  # Pillow's constants are accepted
    assert nearest.interpolation is T.InterpolationMode.NEAREST
    flat = minitorch.full((3, 8, 12), 0.25)
    np.testing.assert_allclose(T.Resize(4)(flat).numpy(), 0.25, atol=1e-6)
    as_uint8 = T.Resize(4)(T.PILToTensor()(img))
    assert as_uint8.dtype == minitorch.uint8 and tuple(as_uint8.shape) == (3, 4, 6)


def test_resize_tensor_close_to_torch_antialiased_bilinear():
    data = np.random.default_rng(1).random((3, 24, 36), dtype=np.float32)
    ours = T.Resize((8, 12))(minitorch.from_numpy(data)).numpy()
    theirs = torch_answer(lambda torch, data: torch.nn.functional.interpolate(
        torch.from_numpy(data)[None], size=(8, 12), mode="bilinear", antialias=True, align_corners=False)[0], data)
    np.testing.assert_allclose(ours, theirs.numpy(), atol=2e-3)


def test_resize_errors():
    with pytest.raises(TypeError, match="Size should be int or sequence. Got <class 'float'>"):
        T.Resize(3.5)
    with pytest.raises(ValueError, match="If size is a sequence, it should have 1 or 2 values"):
        T.Resize((1, 2, 3))
    with pytest.raises(TypeError, match="Argument interpolation should be a InterpolationMode"):
        T.Resize(3, interpolation="bilinear")
    with pytest.raises(ValueError, match="max_size = 10 must be strictly greater than the requested size"):
        T.Resize(10, max_size=10)(rgb(20, 20))
    with pytest.raises(ValueError, match="max_size should only be passed if size specifies the length of the smaller"):
        T.Resize((10, 12), max_size=20)(rgb(20, 20))
    with pytest.warns(UserWarning, match="Anti-alias option is always applied for PIL Image input"):
        T.Resize(10, antialias=False)(rgb(20, 20))


# ---- crops and flips ---------------------------------------------------------------------------------------------

def numbered(h, w):
    """An 'L' image whose pixel values are all different (row-major 0, 1, 2, ...)."""
    return Image.fromarray(np.arange(h * w, dtype=np.uint8).reshape(h, w))


@pytest.mark.parametrize("h, w, size, top, left", [
    (6, 8, 4, 1, 2),
    (5, 5, 2, 2, 2),       # (5 - 2) / 2 = 1.5 rounds to 2
    (7, 7, 2, 2, 2),       # 2.5 rounds (half to even) to 2
    (9, 6, (3, 2), 3, 2),
])
def test_center_crop_geometry(h, w, size, top, left):
    img = numbered(h, w)
    ch, cw = (size, size) if isinstance(size, int) else size
    expected = np.asarray(img)[top:top + ch, left:left + cw]
    np.testing.assert_array_equal(np.asarray(T.CenterCrop(size)(img)), expected)
    tensor = T.PILToTensor()(img)
    np.testing.assert_array_equal(T.CenterCrop(size)(tensor).numpy()[0], expected)


def test_center_crop_pads_small_images_with_zeros():
    img = Image.fromarray(np.full((2, 3), 9, np.uint8))
    out = np.asarray(T.CenterCrop((5, 6))(img))
    assert out.shape == (5, 6)
    expected = np.zeros((5, 6), np.uint8)
    expected[1:3, 1:4] = 9  # 3 extra rows: 1 above, 2 below; 3 extra columns: 1 left, 2 right
    np.testing.assert_array_equal(out, expected)


def test_random_crop_is_a_window_of_the_image():
    img = numbered(10, 12)
    arr = np.asarray(img)
    minitorch.manual_seed(0)
    corners = set()
    for _ in range(40):
        out = np.asarray(T.RandomCrop((4, 5))(img))
        top, left = divmod(int(out[0, 0]), 12)
        np.testing.assert_array_equal(out, arr[top:top + 4, left:left + 5])
        corners.add((top, left))
    assert len(corners) > 10 and all(0 <= t <= 6 and 0 <= c <= 7 for t, c in corners)
    assert T.RandomCrop.get_params(img, (10, 12)) == (0, 0, 10, 12)


def test_random_crop_padding():
    img = Image.fromarray(np.full((3, 3, 3), 200, np.uint8))
    out = np.asarray(T.RandomCrop(7, padding=2, fill=(1, 2, 3))(img))  # the padded image is 7 x 7: one window
    assert out.shape == (7, 7, 3)
    np.testing.assert_array_equal(out[0, 0], [1, 2, 3])
    np.testing.assert_array_equal(out[2:5, 2:5], 200)
    row = Image.fromarray(np.array([[1, 2, 3, 4]], np.uint8))
    reflected = np.asarray(T.RandomCrop((1, 8), padding=(2, 0), padding_mode="reflect")(row))
    np.testing.assert_array_equal(reflected, [[3, 2, 1, 2, 3, 4, 3, 2]])
    symmetric = np.asarray(T.RandomCrop((1, 8), padding=(2, 0), padding_mode="symmetric")(row))
    np.testing.assert_array_equal(symmetric, [[2, 1, 1, 2, 3, 4, 4, 3]])
    grown = T.RandomCrop((5, 4), pad_if_needed=True)(numbered(2, 4))
    assert grown.size == (4, 5)
    tensor = T.RandomCrop(4, padding=1)(minitorch.ones(2, 2, 2))
    np.testing.assert_array_equal(tensor.numpy()[0], np.pad(np.ones((2, 2)), 1))


def test_random_crop_errors():
    with pytest.raises(ValueError, match=r"Required crop size \(5, 5\) is larger than input image size \(3, 4\)"):
        T.RandomCrop(5)(numbered(3, 4))
    with pytest.raises(ValueError, match="Please provide only two dimensions"):
        T.RandomCrop((1, 2, 3))
    with pytest.raises(ValueError, match="Padding mode should be either constant, edge, reflect or symmetric"):
        T.RandomCrop(2, padding=1, padding_mode="wrap")(numbered(3, 3))
    with pytest.raises(ValueError, match="Padding must be an int or a 1, 2, or 4 element tuple, not a 3 element"):
        T.RandomCrop(2, padding=(1, 1, 1))(numbered(3, 3))
    with pytest.raises(ValueError, match=r"The number of elements in 'fill' does not match .* \(2 != 3\)"):
        T.RandomCrop(2, padding=1, fill=(1, 2))(rgb(3, 3))


def test_horizontal_flip():
    img = rgb(3, 5)
    np.testing.assert_array_equal(np.asarray(T.RandomHorizontalFlip(p=1)(img)), np.asarray(img)[:, ::-1])
    assert T.RandomHorizontalFlip(p=0)(img) is img
    tensor = T.PILToTensor()(img)
    np.testing.assert_array_equal(T.RandomHorizontalFlip(p=1)(tensor).numpy(), tensor.numpy()[:, :, ::-1])
    minitorch.manual_seed(3)
    flipped = [T.RandomHorizontalFlip()(img) is not img for _ in range(400)]
    assert 150 < sum(flipped) < 250
    minitorch.manual_seed(3)
    assert [T.RandomHorizontalFlip()(img) is not img for _ in range(400)] == flipped


def test_random_resized_crop_parameters_within_bounds():
    img = rgb(40, 60)
    scale, ratio = (0.2, 0.6), (0.5, 2.0)
    minitorch.manual_seed(0)
    for _ in range(300):
        top, left, h, w = T.RandomResizedCrop.get_params(img, scale, ratio)
        assert 0 < h and 0 < w and top + h <= 40 and left + w <= 60 and top >= 0 and left >= 0
        # rounding h and w to integers moves area and ratio a little
        assert 0.2 * 0.9 <= h * w / 2400 <= 0.6 * 1.1
        assert 0.5 * 0.85 <= w / h <= 2.0 * 1.15
    out = T.RandomResizedCrop((12, 9))(img)
    assert out.size == (9, 12)
    assert tuple(T.RandomResizedCrop(8)(minitorch.zeros(3, 40, 60)).shape) == (3, 8, 8)


@pytest.mark.parametrize("width, height, expected", [
    (100, 50, (0, 16, 50, 67)),   # too wide for ratio <= 4/3: full height, width 50 * 4/3 rounded
    (29, 90, (23, 0, 44, 29)),    # too tall for ratio >= 2/3: full width, height 29 / (2/3) = 43.5 rounded
    (40, 36, (0, 0, 36, 40)),     # within the ratios: the whole image
])
def test_random_resized_crop_falls_back_to_a_central_crop(width, height, expected):
    # a crop of 2 to 3 times the image area never fits: after 10 tries, the central fallback
    ratio = (2 / 3, 4 / 3) if width != 100 else (3 / 4, 4 / 3)
    assert T.RandomResizedCrop.get_params(rgb(height, width), (2.0, 3.0), ratio) == expected


def test_color_jitter_adjustments():
    img = rgb(6, 7)
    bright = T.ColorJitter(brightness=(1.5, 1.5))(img)
    np.testing.assert_array_equal(np.asarray(bright), np.asarray(ImageEnhance.Brightness(img).enhance(1.5)))
    contrast = T.ColorJitter(contrast=(0.5, 0.5))(img)
    np.testing.assert_array_equal(np.asarray(contrast), np.asarray(ImageEnhance.Contrast(img).enhance(0.5)))
    gray = img.convert("L")
    assert T.ColorJitter(hue=0.5)(gray) is gray  # hue does not change a grayscale image
    red = Image.new("RGB", (2, 2), (255, 0, 0))
    shifted = np.asarray(T.ColorJitter(hue=(1 / 3, 1 / 3))(red))  # a third of a turn: red -> green
    assert shifted[0, 0, 1] > 240 and shifted[0, 0, 0] < 10 and shifted[0, 0, 2] < 10
    minitorch.manual_seed(5)
    jitter = T.ColorJitter(0.4, 0.4, 0.4, 0.1)
    first = [np.asarray(jitter(img)) for _ in range(3)]
    minitorch.manual_seed(5)
    assert all(np.array_equal(a, np.asarray(jitter(img))) for a in first)
    assert not np.array_equal(first[0], first[1])


def test_color_jitter_parameters():
    jitter = T.ColorJitter(brightness=0.4, contrast=(0.5, 1.5), saturation=0, hue=0.1)
    assert jitter.brightness == (0.6, 1.4) and jitter.contrast == (0.5, 1.5)
    assert jitter.saturation is None and jitter.hue == (-0.1, 0.1)
    assert T.ColorJitter(brightness=2).brightness == (0.0, 3.0)  # the lower bound clipped at 0
    minitorch.manual_seed(0)
    order, b, c, s, h = T.ColorJitter.get_params(jitter.brightness, jitter.contrast, None, jitter.hue)
    assert sorted(order.tolist()) == [0, 1, 2, 3]
    assert 0.6 <= b <= 1.4 and 0.5 <= c <= 1.5 and s is None and -0.1 <= h <= 0.1
    with pytest.raises(ValueError, match="If brightness is a single number, it must be non negative."):
        T.ColorJitter(brightness=-1)
    with pytest.raises(TypeError, match="contrast should be a single number or a list/tuple with length 2."):
        T.ColorJitter(contrast=(1, 2, 3))
    with pytest.raises(ValueError, match=r"hue values should be between \(-0.5, 0.5\), but got \[-0.7, 0.7\]."):
        T.ColorJitter(hue=0.7)
    with pytest.raises(TypeError, match="img should be PIL Image"):
        jitter(minitorch.zeros(3, 2, 2))


def test_lambda():
    assert T.Lambda(lambda x: x * 2)(21) == 42
    with pytest.raises(TypeError, match="Argument lambd should be callable, got 'int'"):
        T.Lambda(3)


def test_reprs():
    compose = T.Compose([T.ToTensor(), T.Normalize(mean=[0.5], std=[0.5])])
    assert repr(compose) == "Compose(\n    ToTensor()\n    Normalize(mean=[0.5], std=[0.5])\n)"
    assert repr(T.Resize(256)) == "Resize(size=256, interpolation=bilinear, max_size=None, antialias=True)"
    assert repr(T.CenterCrop(224)) == "CenterCrop(size=(224, 224))"
    assert repr(T.RandomCrop(32, padding=4)) == "RandomCrop(size=(32, 32), padding=4)"
    assert repr(T.RandomResizedCrop(224)) == ("RandomResizedCrop(size=(224, 224), scale=(0.08, 1.0), "
                                              "ratio=(0.75, 1.3333), interpolation=bilinear, antialias=True)")
    assert repr(T.RandomHorizontalFlip()) == "RandomHorizontalFlip(p=0.5)"
    assert repr(T.ColorJitter(brightness=0.5, hue=0.25)) == \
        "ColorJitter(brightness=(0.5, 1.5), contrast=None, saturation=None, hue=(-0.25, 0.25))"
    assert repr(T.PILToTensor()) == "PILToTensor()" and repr(T.Lambda(abs)) == "Lambda()"


AUGMENT = T.Compose([T.RandomResizedCrop(24, scale=(0.3, 1.0)), T.RandomHorizontalFlip(),
                     T.ColorJitter(0.3, 0.3, 0.3, 0.05), T.ToTensor(), T.Normalize([0.5] * 3, [0.25] * 3)])


def test_augmentation_is_reproducible_under_manual_seed():
    img = rgb(32, 32)
    minitorch.manual_seed(7)
    first = [AUGMENT(img).numpy() for _ in range(4)]
    minitorch.manual_seed(7)
    second = [AUGMENT(img).numpy() for _ in range(4)]
    minitorch.manual_seed(8)
    other = AUGMENT(img).numpy()
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert not np.array_equal(first[0], first[1]) and not np.array_equal(first[0], other)


# ---- synthetic tasks ---------------------------------------------------------------------------------------------

def test_synthetic_images_are_a_function_of_the_index():
    ds = datasets.SyntheticShapes(size=30)
    img, label = ds[7]
    assert isinstance(img, Image.Image) and img.mode == "RGB" and img.size == (32, 32)
    assert isinstance(label, int) and label == ds.targets[7]
    assert img.tobytes() == ds[7][0].tobytes()
    larger = datasets.SyntheticShapes(size=300)  # image i does not depend on the dataset's size
    for i in (0, 7, 29):
        assert larger[i][0].tobytes() == ds[i][0].tobytes() and larger.targets[i] == ds.targets[i]
    assert ds[-1][0].tobytes() == ds[29][0].tobytes()
    with pytest.raises(IndexError):
        ds[30]


def test_synthetic_images_differ_between_seeds_splits_and_tasks():
    base = datasets.SyntheticShapes(size=10)
    others = [datasets.SyntheticShapes(size=10, seed=1), datasets.SyntheticShapes(split="test", size=10),
              datasets.SyntheticGlyphs(size=10)]
    for other in others:  # unrelated images: different backgrounds too, not just another figure
        assert all(np.abs(pixels(base[i][0]) - pixels(other[i][0]).astype(np.float32)).mean() > 25 for i in range(10))
    assert len({base[i][0].tobytes() for i in range(10)}) == 10


def test_synthetic_tasks_classes_sizes_and_balance():
    shapes, glyphs = datasets.SyntheticShapes(), datasets.SyntheticGlyphs()
    assert len(shapes.classes) == 10 and 5 <= len(glyphs.classes) <= 10
    assert not set(shapes.classes) & set(glyphs.classes)
    assert not set(datasets.SHAPES.values()) & set(datasets.GLYPHS.values())
    assert shapes.class_to_idx == {c: i for i, c in enumerate(shapes.classes)}
    assert (len(shapes), len(datasets.SyntheticShapes(split="test"))) == (10_000, 2_000)
    assert (len(glyphs), len(datasets.SyntheticGlyphs(split="test"))) == (200, 800)
    for ds in (shapes, glyphs, datasets.SyntheticShapes(size=55, seed=3)):
        counts = collections.Counter(ds.targets)
        assert sorted(counts) == list(range(len(ds.classes)))
        assert max(counts.values()) - min(counts.values()) <= 1
    assert collections.Counter(glyphs.targets)[0] == 25


@pytest.mark.parametrize("image_size", [8, 48, 224])
def test_synthetic_image_sizes(image_size):
    img, _ = datasets.SyntheticGlyphs(size=3, image_size=image_size)[2]
    assert img.size == (image_size, image_size) and img.mode == "RGB"
    assert np.asarray(img).std() > 5  # something is drawn


def test_synthetic_transforms_errors_and_repr():
    ds = datasets.SyntheticShapes(size=4, image_size=16, transform=T.ToTensor(), target_transform=lambda y: -y)
    x, y = ds[1]
    assert tuple(x.shape) == (3, 16, 16) and y == -ds.targets[1]
    with pytest.raises(ValueError, match="Unknown split 'val'"):
        datasets.SyntheticShapes(split="val")
    with pytest.raises(ValueError, match="image_size should be at least 8"):
        datasets.SyntheticGlyphs(image_size=4)
    assert repr(ds) == ("Dataset SyntheticShapes\n    Number of datapoints: 4\n    Split: train\n    Image size: 16\n"
                        "    Seed: 0\n    StandardTransform\n    Transform: ToTensor()\n"
                        "    Target transform: " + repr(ds.target_transform))


def test_synthetic_dataset_in_dataloader_workers():
    ds = datasets.SyntheticShapes(size=12, image_size=16, transform=T.PILToTensor())
    direct = np.stack([ds[i][0].numpy() for i in range(12)])
    batches = list(DataLoader(ds, batch_size=4, num_workers=2))
    np.testing.assert_array_equal(np.concatenate([x.numpy() for x, _ in batches]), direct)
    assert sum((y.tolist() for _, y in batches), []) == ds.targets[:12]
    copy = pickle.loads(pickle.dumps(ds))  # what a 'spawn' worker receives
    np.testing.assert_array_equal(copy[5][0].numpy(), direct[5])


def test_augmentation_in_workers_is_reproducible_under_manual_seed():
    ds = datasets.SyntheticShapes(size=8, transform=AUGMENT)

    def run(seed):
        minitorch.manual_seed(seed)  # the workers' seeds are drawn from the global generator
        return np.concatenate([x.numpy() for x, _ in DataLoader(ds, batch_size=2, num_workers=2)])

    first = run(11)
    np.testing.assert_array_equal(first, run(11))
    assert not np.array_equal(first, run(12))


def ridge_accuracy(train, test, features):
    """Test accuracy of a least-squares one-vs-all linear classifier on ``features`` of the images."""
    def design(ds):
        x = np.stack([features(np.asarray(ds[i][0], dtype=np.float32)) for i in range(len(ds))])
        return np.hstack([x, np.ones((len(x), 1), np.float32)]), np.asarray(ds.targets)

    x, y = design(train)
    x_test, y_test = design(test)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    x, x_test = (x - mu) / sd, (x_test - mu) / sd
    w = np.linalg.solve(x.T @ x + 10 * np.eye(x.shape[1]), x.T @ np.eye(len(train.classes))[y])
    return ((x_test @ w).argmax(1) == y_test).mean()


def edge_features(img):
    """Colour-, position- and rotation-blind statistics of the edges: how strong they are, and the spectrum of
    their orientation histogram (a figure with n-fold symmetry has peaks at harmonic n; turning it only
    changes phases)."""
    gy, gx = np.gradient(img.mean(axis=2))
    mag = np.hypot(gx, gy)
    mag /= mag.max() + 1e-6
    strong = mag > 0.35
    hist = np.histogram(np.arctan2(gy, gx)[strong], bins=36, range=(-math.pi, math.pi), weights=mag[strong])[0]
    spectrum = np.abs(np.fft.rfft(hist / (hist.sum() + 1e-6)))[1:13]
    return np.concatenate([np.histogram(mag, bins=8, range=(0, 1))[0] / mag.size, spectrum, [strong.mean()]])


@pytest.mark.parametrize("task, train_size, chance", [(datasets.SyntheticShapes, 600, 0.1),
                                                      (datasets.SyntheticGlyphs, None, 0.125)])
def test_synthetic_tasks_are_learnable(task, train_size, chance):
    # a linear classifier on a few edge statistics, no training loop: seed 0 gives 0.45 and 0.41
    accuracy = ridge_accuracy(task(size=train_size), task(split="test", size=300), edge_features)
    assert accuracy > 2.5 * chance


# ---- ImageFolder / DatasetFolder ---------------------------------------------------------------------------------

@pytest.fixture
def image_tree(tmp_path):
    """root/{bird,cat,dog}/... with PNG, JPEG and BMP files, nested folders and a text file to ignore."""
    root = tmp_path / "images"
    files = {"cat/zz/d.png": (60, "RGB"), "cat/b.png": (10, "RGB"), "cat/a.jpg": (20, "RGB"),
             "cat/sub/c.PNG": (30, "L"), "dog/z.bmp": (40, "RGB"), "bird/x.jpeg": (50, "RGB")}
    for name, (value, mode) in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new(mode, (5, 4), value if mode == "L" else (value, value, value)).save(path)
    (root / "dog" / "notes.txt").write_text("not an image")
    return root


def test_image_folder(image_tree, monkeypatch):
    walk = os.walk

    def reversed_walk(*args, **kwargs):  # folders and files in reverse order, as a file system may list them
        return [(root, dirs, files[::-1]) for root, dirs, files in list(walk(*args, **kwargs))[::-1]]

    monkeypatch.setattr(os, "walk", reversed_walk)  # the samples must still come out sorted
    ds = datasets.ImageFolder(str(image_tree))
    assert ds.classes == ["bird", "cat", "dog"] and ds.class_to_idx == {"bird": 0, "cat": 1, "dog": 2}
    names = [os.path.relpath(p, image_tree) for p, _ in ds.samples]
    assert names == ["bird/x.jpeg", "cat/a.jpg", "cat/b.png", "cat/sub/c.PNG", "cat/zz/d.png", "dog/z.bmp"]
    assert ds.targets == [0, 1, 1, 1, 1, 2] and ds.imgs is ds.samples and len(ds) == 6
    img, target = ds[3]
    assert img.mode == "RGB" and img.size == (5, 4) and target == 1  # 'L' file converted to RGB
    np.testing.assert_array_equal(np.asarray(img), 30)
    typed = datasets.ImageFolder(image_tree, transform=T.PILToTensor(), target_transform=lambda t: t + 100)
    x, y = typed[2]
    assert x.dtype == minitorch.uint8 and tuple(x.shape) == (3, 4, 5) and y == 101
    only_png = datasets.ImageFolder(image_tree, is_valid_file=lambda p: p.lower().endswith(".png"), allow_empty=True)
    assert only_png.targets == [1, 1, 1]
    assert repr(ds) == f"Dataset ImageFolder\n    Number of datapoints: 6\n    Root location: {image_tree}"


def test_image_folder_errors(image_tree, tmp_path):
    (image_tree / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="Found no valid file for the classes empty. Supported extensions "
                                                "are: .jpg, .jpeg, .png, .ppm, .bmp, .pgm, .tif, .tiff, .webp"):
        datasets.ImageFolder(image_tree)
    assert len(datasets.ImageFolder(image_tree, allow_empty=True).classes) == 4
    (tmp_path / "flat").mkdir()
    (tmp_path / "flat" / "a.png").write_bytes(b"")
    with pytest.raises(FileNotFoundError, match="Couldn't find any class folder in"):
        datasets.ImageFolder(tmp_path / "flat")
    with pytest.raises(ValueError, match="Both extensions and is_valid_file cannot be None or not None"):
        datasets.DatasetFolder(image_tree, loader=open, extensions=(".png",), is_valid_file=bool)


def test_dataset_folder_with_a_custom_loader(tmp_path):
    for cls, value in (("b", 2.0), ("a", 1.0)):
        (tmp_path / cls).mkdir()
        np.save(tmp_path / cls / "x.npy", np.full(3, value))
    ds = datasets.DatasetFolder(tmp_path, loader=np.load, extensions=".npy")
    assert ds.classes == ["a", "b"] and [float(x[0]) for x, _ in (ds[0], ds[1])] == [1.0, 2.0]


# ---- MNIST -------------------------------------------------------------------------------------------------------

def idx_bytes(arr: np.ndarray) -> bytes:
    """An idx file holding uint8 ``arr``."""
    return struct.pack(">I", 0x800 + arr.ndim) + struct.pack(f">{arr.ndim}I", *arr.shape) + arr.tobytes()


def mnist_files(n_train=5, n_test=3):
    """{file name: content} of the four MNIST files (uncompressed), and the train/test arrays."""
    rng = np.random.default_rng(0)
    arrays = {"train": (rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8),
                        rng.integers(0, 10, n_train, dtype=np.uint8)),
              "t10k": (rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8),
                       rng.integers(0, 10, n_test, dtype=np.uint8))}
    files = {}
    for prefix, (images, labels) in arrays.items():
        files[f"{prefix}-images-idx3-ubyte"] = idx_bytes(images)
        files[f"{prefix}-labels-idx1-ubyte"] = idx_bytes(labels)
    return files, arrays


@pytest.mark.parametrize("compressed", [False, True])
def test_mnist_reads_idx_files(tmp_path, compressed):
    files, arrays = mnist_files()
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name, content in files.items():
        if compressed:
            (raw / (name + ".gz")).write_bytes(gzip.compress(content))
        else:
            (raw / name).write_bytes(content)
    train = datasets.MNIST(tmp_path)
    assert train.data.dtype == minitorch.uint8 and tuple(train.data.shape) == (5, 28, 28)
    assert train.targets.dtype == minitorch.int64 and train.targets.tolist() == arrays["train"][1].tolist()
    img, target = train[2]
    assert img.mode == "L" and img.size == (28, 28) and target == int(arrays["train"][1][2])
    np.testing.assert_array_equal(np.asarray(img), arrays["train"][0][2])
    test = datasets.MNIST(tmp_path, train=False, transform=T.ToTensor())
    assert len(test) == 3 and tuple(test[0][0].shape) == (1, 28, 28)
    assert train.class_to_idx["3 - three"] == 3
    assert repr(test).splitlines()[3] == "    Split: Test"


def test_mnist_errors(tmp_path):
    with pytest.raises(RuntimeError, match="Dataset not found. You can use download=True to download it"):
        datasets.MNIST(tmp_path)
    files, _ = mnist_files()
    raw = tmp_path / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    for name, content in files.items():
        (raw / name).write_bytes(content)
    assert len(datasets.FashionMNIST(tmp_path)) == 5 and datasets.FashionMNIST.classes[9] == "Ankle boot"
    (raw / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00\x01\x09" + files["train-labels-idx1-ubyte"][4:])
    with pytest.raises(ValueError, match="train-labels-idx1-ubyte is not an idx file"):
        datasets.FashionMNIST(tmp_path)
    (raw / "train-labels-idx1-ubyte").write_bytes(files["train-labels-idx1-ubyte"][:-1])
    with pytest.raises(ValueError, match="is truncated"):
        datasets.FashionMNIST(tmp_path)
    (raw / "train-labels-idx1-ubyte").write_bytes(files["train-images-idx3-ubyte"])
    with pytest.raises(ValueError, match="does not hold labels"):
        datasets.FashionMNIST(tmp_path)


# ---- CIFAR10 -----------------------------------------------------------------------------------------------------

class Py2StylePickler(pickle.Pickler):
    """Pickles arrays as Python 2 / numpy 1 did: numpy.core's _reconstruct and the raw data as a (latin-1) str."""

    def reducer_override(self, obj):
        if isinstance(obj, np.ndarray):
            constructor, args, state = obj.__reduce__()
            return constructor, (args[0], args[1], "b"), state[:4] + (state[4].decode("latin1"),)
        return NotImplemented


def pickled(obj, style="py3") -> bytes:
    if style == "py3":
        return pickle.dumps(obj, protocol=2)
    buffer = io.BytesIO()
    Py2StylePickler(buffer, protocol=2).dump(obj)
    return buffer.getvalue().replace(b"numpy._core.multiarray", b"numpy.core.multiarray")


def cifar_batches(style="py3", n=4):
    """{file name: bytes} of a miniature cifar-10-batches-py folder, and the images of data_batch_1."""
    rng = np.random.default_rng(1)
    files, first = {}, None
    for i, name in enumerate(["data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5",
                              "test_batch"]):
        images = rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
        first = images if first is None else first
        rows = images.transpose(0, 3, 1, 2).reshape(n, 3072)  # as stored: the red plane, then green, then blue
        labels = [int(v) for v in (np.arange(n) + i) % 10]
        files[name] = pickled({"batch_label": f"batch {i}", "labels": labels, "data": rows,
                               "filenames": [f"img_{i}_{j}.png" for j in range(n)]}, style)
    classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
    files["batches.meta"] = pickled({"label_names": classes, "num_cases_per_batch": n, "num_vis": 3072}, style)
    return files, first


def cifar_class(files, **attributes):
    """CIFAR10 with the md5s of ``files`` instead of the official ones."""
    lists = {"train_list": [[f"data_batch_{i}", md5(files[f"data_batch_{i}"])] for i in range(1, 6)],
             "test_list": [["test_batch", md5(files["test_batch"])]],
             "meta": {"filename": "batches.meta", "key": "label_names", "md5": md5(files["batches.meta"])}}
    return type("CIFAR10", (datasets.CIFAR10,), {**lists, **attributes})


def write_files(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (folder / name).write_bytes(content)


@pytest.mark.parametrize("style", ["py3", "py2"])
def test_cifar10_reads_pickled_batches(tmp_path, style):
    files, first = cifar_batches(style)
    write_files(tmp_path / "cifar-10-batches-py", files)
    train = cifar_class(files)(tmp_path)
    assert train.data.dtype == np.uint8 and train.data.shape == (20, 32, 32, 3)
    np.testing.assert_array_equal(train.data[:4], first)
    assert train.targets[:6] == [0, 1, 2, 3, 1, 2]
    assert train.classes[3] == "cat" and train.class_to_idx["truck"] == 9
    img, target = train[1]
    assert img.mode == "RGB" and target == 1
    np.testing.assert_array_equal(np.asarray(img), first[1])
    test = cifar_class(files)(tmp_path, train=False, transform=T.ToTensor())
    assert len(test) == 4 and tuple(test[0][0].shape) == (3, 32, 32)


def test_cifar10_checks_integrity(tmp_path):
    files, _ = cifar_batches()
    write_files(tmp_path / "cifar-10-batches-py", files)
    with pytest.raises(RuntimeError, match="Dataset not found or corrupted. You can use download=True"):
        datasets.CIFAR10(tmp_path)  # the official md5s do not match these files
    tampered = cifar_class(files)
    (tmp_path / "cifar-10-batches-py" / "test_batch").write_bytes(files["test_batch"] + b"x")
    with pytest.raises(RuntimeError, match="Dataset not found or corrupted"):
        tampered(tmp_path)


class Exploit:
    """Unpickling this would run ``touch marker``."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_cifar10_refuses_pickles_that_run_code(tmp_path):
    marker = tmp_path / "pwned"
    files, _ = cifar_batches()
    files["data_batch_1"] = pickle.dumps({"data": Exploit(marker), "labels": [0]}, protocol=2)
    write_files(tmp_path / "cifar-10-batches-py", files)
    with pytest.raises(pickle.UnpicklingError, match=r"data_batch_1: refusing to load the global '(posix|nt).system'"):
        cifar_class(files)(tmp_path)
    assert not marker.exists()


# ---- downloads ---------------------------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path, monkeypatch):
    """(base URL, folder) of an HTTP server on 127.0.0.1 serving the files put in the folder."""
    monkeypatch.setenv("no_proxy", "*")
    folder = tmp_path / "served"
    folder.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", folder
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def closed_port_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def tar_gz(files: dict, folder: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def test_download_url_progress_bar_and_checksum(server, tmp_path, monkeypatch):
    url, served = server
    (served / "blob.bin").write_bytes(b"x" * 5000)
    bars = []
    real_tqdm = dutils.tqdm
    monkeypatch.setattr(dutils, "tqdm", lambda **kwargs: bars.append(kwargs) or real_tqdm(**kwargs))
    dutils.download_url(url + "blob.bin", tmp_path / "out", md5=md5(b"x" * 5000))
    assert (tmp_path / "out" / "blob.bin").read_bytes() == b"x" * 5000
    assert bars[0]["total"] == 5000 and bars[0]["unit_scale"] is True and bars[0]["disable"] is None
    with pytest.raises(RuntimeError, match="File not found or corrupted: .*blob.bin has md5 .*, expected 0+"):
        dutils.download_url(url + "blob.bin", tmp_path / "bad", md5="0" * 32)
    assert os.listdir(tmp_path / "bad") == []  # no partial or corrupted file left behind


def test_extract_refuses_members_escaping_the_folder(tmp_path):
    for member in ("../escaped.txt", "/tmp/absolute-escape.txt", "link"):
        archive = tmp_path / "evil.tar"
        with tarfile.open(archive, "w") as tar:
            info = tarfile.TarInfo(member)
            if member == "link":
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(info, io.BytesIO(b""))
        (tmp_path / "out").mkdir(exist_ok=True)
        with pytest.raises(RuntimeError, match=f"Refusing to extract .*evil.tar: member '{member}'"):
            dutils.extract_archive(archive, tmp_path / "out")
        assert os.listdir(tmp_path / "out") == [] and not (tmp_path / "escaped.txt").exists()


def test_cifar10_download(server, tmp_path, closed_port_url):
    url, served = server
    files, first = cifar_batches()
    archive = tar_gz(files, "cifar-10-batches-py")
    (served / "cifar-10-python.tar.gz").write_bytes(archive)
    root = tmp_path / "root"
    cifar = cifar_class(files, url=url + "cifar-10-python.tar.gz", tgz_md5=md5(archive))
    ds = cifar(root, download=True)
    np.testing.assert_array_equal(ds.data[:4], first)
    (served / "cifar-10-python.tar.gz").unlink()
    assert len(cifar(root, download=True)) == 20  # already there: nothing fetched

    with pytest.raises(RuntimeError, match="File not found or corrupted"):
        (served / "cifar-10-python.tar.gz").write_bytes(archive)
        cifar_class(files, url=url + "cifar-10-python.tar.gz", tgz_md5="0" * 32)(tmp_path / "other", download=True)
    offline = cifar_class(files, url=closed_port_url + "cifar-10-python.tar.gz")
    with pytest.raises(RuntimeError) as error:
        offline(tmp_path / "offline", download=True)
    message = str(error.value)
    assert "Could not download http://127.0.0.1" in message and "Without network access" in message
    assert f"place it in {tmp_path / 'offline'}" in message and "data_batch_1" in message


def test_mnist_download_tries_the_mirrors(server, tmp_path, closed_port_url):
    url, served = server
    files, arrays = mnist_files()
    resources = []
    for name, content in files.items():
        (served / (name + ".gz")).write_bytes(gzip.compress(content))
        resources.append((name + ".gz", md5((served / (name + ".gz")).read_bytes())))
    mnist = type("MNIST", (datasets.MNIST,), {"mirrors": [closed_port_url, url], "resources": resources})
    ds = mnist(tmp_path, download=True)
    assert ds.targets.tolist() == arrays["train"][1].tolist()
    assert sorted(os.listdir(tmp_path / "MNIST" / "raw")) == sorted(list(files) + [n for n, _ in resources])

    offline = type("MNIST", (datasets.MNIST,), {"mirrors": [closed_port_url], "resources": resources})
    with pytest.raises(RuntimeError) as error:
        offline(tmp_path / "offline", download=True)
    message = str(error.value)
    assert message.startswith("Error downloading train-images-idx3-ubyte.gz: could not fetch http://127.0.0.1")
    assert f"place them (gzipped or not) in {tmp_path / 'offline' / 'MNIST' / 'raw'}" in message
