"""torchvision.utils (make_grid, save_image) and the wider torchvision.transforms set, on hand-derived values."""
import numpy as np
import pytest
from PIL import Image

import minitorch
from minitorch.datasets import image_utils


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


def test_torchvision_namespace_has_utils():
    import minitorch.torchvision as tv
    from minitorch._torch_alias import target
    assert tv.utils is image_utils
    assert target("torchvision.utils") == "minitorch.datasets.image_utils"
