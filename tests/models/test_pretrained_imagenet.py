"""torchvision's ImageNet weights entries: URLs, meta, DEFAULT and pretrained=True, the seeds' snippet on a cached
``resnet18-f37072fd.pth`` (no download), and ``weights.transforms()`` against torchvision's preset."""
import importlib.util
import pathlib
import sys
from unittest import mock

import numpy as np
import pytest
from PIL import Image

import minitorch
import minitorch.models as models
from minitorch import hub
from minitorch.datasets import transforms as T
from minitorch.models import (Cifar_MobileNet_V2_Weights, Cifar_ResNet20_Weights, MobileNet_V2_Weights,
                              ResNet18_Weights, ResNet34_Weights, ResNet50_Weights)
from locations import ROOT
from torchvision_loader import load_torchvision_transforms

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
# name -> (file, resize size, acc@1, acc@5, num_params): torchvision 0.28's entries
ENTRIES = {
    ResNet18_Weights.IMAGENET1K_V1: ("resnet18-f37072fd.pth", 256, 69.758, 89.078, 11689512),
    ResNet34_Weights.IMAGENET1K_V1: ("resnet34-b627a593.pth", 256, 73.314, 91.420, 21797672),
    ResNet50_Weights.IMAGENET1K_V1: ("resnet50-0676ba61.pth", 256, 76.130, 92.862, 25557032),
    ResNet50_Weights.IMAGENET1K_V2: ("resnet50-11ad3fa6.pth", 232, 80.858, 95.434, 25557032),
    MobileNet_V2_Weights.IMAGENET1K_V1: ("mobilenet_v2-b0353104.pth", 256, 71.878, 90.286, 3504872),
    MobileNet_V2_Weights.IMAGENET1K_V2: ("mobilenet_v2-7ebf99e0.pth", 232, 72.154, 90.822, 3504872),
}


@pytest.fixture
def hub_cache(tmp_path, monkeypatch):
    """A ``$TORCH_HOME`` in ``tmp_path``; returns its (new) ``hub/checkpoints`` folder."""
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    monkeypatch.setattr(hub, "_hub_dir", None)
    checkpoints = tmp_path / "hub" / "checkpoints"
    checkpoints.mkdir(parents=True)
    return checkpoints


def torchvision_module(relative_path):
    """torchvision's pure-Python module at ``relative_path`` (e.g. ``"transforms/_presets.py"``), or None."""
    transforms = load_torchvision_transforms()
    if transforms is None:
        return None
    name = "torchvision." + relative_path[:-3].replace("/", ".")
    spec = importlib.util.spec_from_file_location(name, pathlib.Path(transforms.__file__).parent.parent / relative_path)
    module = importlib.util.module_from_spec(spec)
    with mock.patch.dict(sys.modules, {"torchvision.transforms": transforms}):
        spec.loader.exec_module(module)
    return module


def test_enums_have_torchvision_entries_and_defaults():
    assert [w.name for w in ResNet18_Weights] == ["IMAGENET1K_V1", "SYNTHETIC_V1"]
    assert [w.name for w in ResNet50_Weights] == ["IMAGENET1K_V1", "IMAGENET1K_V2", "SYNTHETIC_V1"]
    assert [w.name for w in MobileNet_V2_Weights] == ["IMAGENET1K_V1", "IMAGENET1K_V2", "SYNTHETIC_V1"]
    assert ResNet18_Weights.DEFAULT is ResNet18_Weights.IMAGENET1K_V1
    assert ResNet34_Weights.DEFAULT is ResNet34_Weights.IMAGENET1K_V1
    assert ResNet50_Weights.DEFAULT is ResNet50_Weights.IMAGENET1K_V2
    assert MobileNet_V2_Weights.DEFAULT is MobileNet_V2_Weights.IMAGENET1K_V2
    assert Cifar_ResNet20_Weights.DEFAULT is Cifar_ResNet20_Weights.SYNTHETIC_V1
    assert Cifar_MobileNet_V2_Weights.DEFAULT is Cifar_MobileNet_V2_Weights.SYNTHETIC_V1
    assert models.get_weight("ResNet50_Weights.DEFAULT") is ResNet50_Weights.IMAGENET1K_V2
    assert models.get_weight("MobileNet_V2_Weights.IMAGENET1K_V1") is MobileNet_V2_Weights.IMAGENET1K_V1
    assert models.get_model_weights("resnet34") is ResNet34_Weights
    assert {"cifar_mobilenet_v2", "cifar_resnet20", "mobilenet_v2", "resnet18", "resnet34", "resnet50"} <= \
        set(models.list_models()) and models.list_models() == sorted(models.list_models())  # the zoo: tests/models
    assert ResNet18_Weights.verify("DEFAULT") is ResNet18_Weights.verify("ResNet18_Weights.IMAGENET1K_V1")
    assert repr(ResNet50_Weights.DEFAULT) == "ResNet50_Weights.IMAGENET1K_V2"


@pytest.mark.parametrize("weights", list(ENTRIES), ids=repr)
def test_entry_url_meta_and_transforms(weights, hub_cache):
    file, resize, acc1, acc5, num_params = ENTRIES[weights]
    assert weights.url == f"https://download.pytorch.org/models/{file}" and weights.file == file
    assert weights.path == hub_cache / file
    meta = weights.meta
    assert meta["num_params"] == num_params and meta["min_size"] == (1, 1)
    assert meta["_metrics"] == {"ImageNet-1K": {"acc@1": acc1, "acc@5": acc5}}
    assert meta["recipe"].startswith("https://github.com/pytorch/vision/")
    assert {"_ops", "_file_size", "_docs"} <= set(meta) and len(meta["categories"]) == 1000
    preset = weights.transforms()
    assert preset.crop_size == [224] and preset.resize_size == [resize]
    assert preset.mean == MEAN and preset.std == STD and preset.interpolation is T.InterpolationMode.BILINEAR


def test_num_params_are_the_models():
    for builder, weights in ((models.resnet18, ResNet18_Weights), (models.mobilenet_v2, MobileNet_V2_Weights)):
        assert sum(p.numel() for p in builder().parameters()) == weights.DEFAULT.meta["num_params"]


def test_categories_are_torchvisions():
    categories = ResNet18_Weights.DEFAULT.meta["categories"]
    assert len(categories) == len(set(categories)) == 1000
    assert categories[:3] == ["tench", "goldfish", "great white shark"] and categories[-1] == "toilet tissue"
    assert categories[207] == "golden retriever" and categories[281] == "tabby"
    assert MobileNet_V2_Weights.IMAGENET1K_V1.meta["categories"] == categories
    meta = torchvision_module("models/_meta.py")
    if meta is not None:
        assert categories == meta._IMAGENET_CATEGORIES


def test_synthetic_entries_have_transforms_of_their_training_size():
    for weights, size in ((ResNet18_Weights.SYNTHETIC_V1, 48), (MobileNet_V2_Weights.SYNTHETIC_V1, 48),
                          (Cifar_ResNet20_Weights.SYNTHETIC_V1, 32), (Cifar_MobileNet_V2_Weights.SYNTHETIC_V1, 32)):
        preset = weights.transforms()
        assert preset.crop_size == [size] and preset.resize_size == [size] and preset.mean == MEAN
        image = Image.fromarray(np.full((size, size, 3), 255, np.uint8))
        out = preset(image)
        assert out.shape == (3, size, size)
        np.testing.assert_allclose(out.numpy()[:, 0, 0], (1 - np.array(MEAN)) / np.array(STD), rtol=1e-6)


# --- the seeds' snippet with a cached resnet18-f37072fd.pth ----------------------------------------------------

SNIPPET = """
import minitorch as torch
from minitorch.models import resnet18  # the seed: from torchvision.models import resnet18

model = resnet18(pretrained=True)
data = torch.rand(1, 3, 64, 64)
labels = torch.rand(1, 1000)
prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
"""

LEGACY = ["The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, please use 'weights' "
          "instead.",
          "Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may be removed in "
          "the future. The current behavior is equivalent to passing `weights=ResNet18_Weights.IMAGENET1K_V1`. You "
          "can also use `weights=ResNet18_Weights.DEFAULT` to get the most up-to-date weights."]


def run_seed_snippet():
    namespace = {}
    with pytest.warns(UserWarning) as record:
        exec(SNIPPET, namespace)
    assert [str(w.message) for w in record] == LEGACY
    model = namespace["model"]
    assert model.fc.out_features == 1000 and namespace["prediction"].shape == (1, 1000)
    assert all(p.grad is not None for p in model.parameters())
    return namespace


def test_seed_snippet_with_torch_written_weights(hub_cache):
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from models_in_torch import torch_models
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    torch.manual_seed(1)  # other weights than the ones minitorch's builder draws at seed 0, before loading
    theirs = torch_models().resnet18()
    torch.save(theirs.state_dict(), hub_cache / "resnet18-f37072fd.pth")
    minitorch.manual_seed(0)
    namespace = run_seed_snippet()
    with torch.no_grad():  # in training mode, as the snippet ran
        expected = theirs.train()(torch.from_numpy(namespace["data"].numpy())).numpy()
    np.testing.assert_allclose(namespace["prediction"].detach().numpy(), expected, rtol=1e-4, atol=1e-4)


def test_seed_snippet_with_minitorch_written_weights(hub_cache):
    minitorch.manual_seed(0)
    source = models.resnet18()
    minitorch.save(source.state_dict(), hub_cache / "resnet18-f37072fd.pth")
    # parameters only: the snippet ran in training mode, which moved the running statistics
    loaded = dict(run_seed_snippet()["model"].named_parameters())
    for key, value in source.named_parameters():
        assert minitorch.equal(loaded[key], value), key
    with pytest.raises(ValueError, match="The parameter 'num_classes' expected value 1000 but got 10 instead."):
        models.resnet18(weights="DEFAULT", num_classes=10)


# --- weights.transforms() against torchvision's ImageClassification -------------------------------------------

def photo(width=300, height=200):
    """A smooth, photo-like RGB test image with some noise."""
    y, x = np.mgrid[0:height, 0:width] / max(width, height)
    rgb = np.stack([np.sin(7 * x) * np.cos(5 * y), x * y, np.cos(11 * (x - y))], -1) * 0.45 + 0.5
    rgb += np.random.default_rng(0).normal(0, 0.05, rgb.shape)
    return Image.fromarray(np.clip(rgb * 255, 0, 255).astype(np.uint8))


def by_hand(image, resize, crop):
    """The preset derived by hand: the smaller edge resized to ``resize`` (the other as int(resize * long / short))
    with Pillow's bilinear filter, a centered ``crop`` (offsets rounded), scaled to [0, 1] and normalised."""
    w, h = image.size
    size = (int(resize * w / h), resize) if w >= h else (resize, int(resize * h / w))
    arr = np.asarray(image.resize(size, Image.Resampling.BILINEAR), np.float32) / 255
    top, left = int(round((arr.shape[0] - crop) / 2)), int(round((arr.shape[1] - crop) / 2))
    arr = arr[top:top + crop, left:left + crop].transpose(2, 0, 1)
    return (arr - np.array(MEAN, np.float32)[:, None, None]) / np.array(STD, np.float32)[:, None, None]


LEVEL = 1 / 255 / min(STD)  # one uint8 step after normalisation


@pytest.mark.parametrize("weights", [ResNet18_Weights.IMAGENET1K_V1, ResNet50_Weights.IMAGENET1K_V2,
                                     MobileNet_V2_Weights.SYNTHETIC_V1], ids=repr)
@pytest.mark.parametrize("size", [(300, 200), (180, 260)])
def test_transforms_by_hand(weights, size):
    image = photo(*size)
    preset = weights.transforms()
    expected = by_hand(image, preset.resize_size[0], preset.crop_size[0])
    out = preset(image)
    assert out.dtype == minitorch.float32 and out.shape == expected.shape
    np.testing.assert_allclose(out.numpy(), expected, rtol=0, atol=1e-5)
    batch = minitorch.from_numpy(np.stack([np.asarray(image).transpose(2, 0, 1)] * 2))
    out = preset(batch)
    assert out.shape == (2,) + expected.shape
    np.testing.assert_allclose(out.numpy()[1], expected, rtol=0, atol=1.01 * LEVEL)


REPR = """ImageClassification(
    crop_size=[224]
    resize_size=[232]
    mean=[0.485, 0.456, 0.406]
    std=[0.229, 0.224, 0.225]
    interpolation=InterpolationMode.BILINEAR
)"""
DESCRIBE = ("Accepts ``PIL.Image``, batched ``(B, C, H, W)`` and single ``(C, H, W)`` image ``torch.Tensor`` objects. "
            "The images are resized to ``resize_size=[232]`` using ``interpolation=InterpolationMode.BILINEAR``, "
            "followed by a central crop of ``crop_size=[224]``. Finally the values are first rescaled to "
            "``[0.0, 1.0]`` and then normalized using ``mean=[0.485, 0.456, 0.406]`` and "
            "``std=[0.229, 0.224, 0.225]``.")


def test_preset_repr_and_describe():
    preset = ResNet50_Weights.DEFAULT.transforms()
    assert repr(preset) == REPR and preset.describe() == DESCRIBE


@pytest.mark.parametrize("weights", [ResNet18_Weights.IMAGENET1K_V1, MobileNet_V2_Weights.IMAGENET1K_V2], ids=repr)
def test_transforms_match_torchvision(weights):
    torch = pytest.importorskip("torch")
    presets = torchvision_module("transforms/_presets.py")
    if presets is None:
        pytest.skip("torchvision's transforms are not loadable")
    ours = weights.transforms()
    theirs = presets.ImageClassification(crop_size=ours.crop_size[0], resize_size=ours.resize_size[0])
    assert repr(ours) == repr(theirs) and ours.describe() == theirs.describe()
    image = photo()
    np.testing.assert_allclose(ours(image).numpy(), theirs(image).numpy(), rtol=0, atol=1e-6)
    arr = np.asarray(image).transpose(2, 0, 1).copy()
    # torchvision resizes tensors with its own antialiased kernel, minitorch with Pillow's: at most one uint8 step
    np.testing.assert_allclose(ours(minitorch.from_numpy(arr)).numpy(), theirs(torch.from_numpy(arr)).numpy(),
                               rtol=0, atol=1.01 * LEVEL)
