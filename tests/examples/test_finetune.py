"""examples/finetune.py as a new user tries it: each defect found that way, and examples/predict.py."""
import math
import pathlib
import re
import socket
import sys
import time
import urllib.error
import urllib.parse

import numpy as np
import pytest
from PIL import Image

import minitorch
import minitorch.models as models

from test_image_examples import EXAMPLES, interrupt_at_evaluation, load_example  # noqa: F401  (EXAMPLES puts examples/ on sys.path)

import image_training  # noqa: E402

COLOURS = {"blue": (0, 0, 255), "green": (0, 200, 0), "red": (255, 0, 0)}
# cifar_resnet20 with the project's weights at 16 px: seconds per run
TINY = ["--model", "cifar_resnet20", "--image-size", "16", "--batch-size", "4"]


@pytest.fixture(scope="module")
def finetune():
    return load_example("finetune")


@pytest.fixture(scope="module")
def predict():
    return load_example("predict")


def make_images(folder: pathlib.Path, classes, n: int = 10, seed: int = 0) -> pathlib.Path:
    """``folder/<class>/<i>.png``: a coloured rectangle of the class's colour on dark noise."""
    rng = np.random.default_rng(seed)
    for name in classes:
        (folder / name).mkdir(parents=True, exist_ok=True)
        for i in range(n):
            pixels = rng.integers(0, 60, (20, 24, 3), dtype=np.uint8)
            pixels[5:15, 6:18] = COLOURS[name]
            Image.fromarray(pixels).save(folder / name / f"{i}.png")
    return folder


def fails(finetune, argv, capsys) -> tuple[object, str]:
    """The exit code of a run that must stop, and its message: the SystemExit text, or the last line on
    stderr (argparse's usage lines come before it)."""
    with pytest.raises(SystemExit) as stopped:
        finetune.main(argv)
    code, err = stopped.value.code, capsys.readouterr().err
    assert "Traceback" not in err
    message = code if isinstance(code, str) else err.strip().splitlines()[-1]
    assert "\n" not in message
    return code, message


def test_train_and_val_with_different_class_folders_share_one_class_list(finetune, tmp_path, capsys):
    make_images(tmp_path / "train", ["blue", "red"])
    make_images(tmp_path / "val", ["green", "red"], n=3)  # alone, val's own order would make red class 1
    train, val, classes = finetune.load_folder(tmp_path, image_training.preprocessing(16), seed=0)
    assert classes == ["blue", "green", "red"]
    assert sorted(set(train.tensors[1].tolist())) == [0, 2]
    assert val.tensors[1].tolist() == [1, 1, 1, 2, 2, 2]
    out = capsys.readouterr().out
    assert f"{tmp_path / 'train'} has no images of the class(es) green" in out
    assert f"{tmp_path / 'val'} has no images of the class(es) blue" in out


def test_rerun_into_the_same_out_is_refused(finetune, tmp_path, capsys):
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=4)), "--runs", "scratch",
                   "--epochs", "1", "--out", str(tmp_path / "run")]
    finetune.main(argv)
    before = (tmp_path / "run" / "scratch.pt").read_bytes()
    code, message = fails(finetune, argv, capsys)
    assert code == 2 and "already holds results (scratch.pt, history.csv): add --resume" in message
    assert (tmp_path / "run" / "scratch.pt").read_bytes() == before


def test_resume_follows_a_changed_lr_and_more_epochs(finetune, tmp_path, capsys):
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=4)), "--freeze",
                   "--out", str(tmp_path / "run")]
    finetune.main(argv + ["--epochs", "2"])
    capsys.readouterr()
    (result,) = finetune.main(argv + ["--epochs", "2", "--resume"])
    assert "the checkpoint already has 2 epochs (--epochs 2): nothing to train" in capsys.readouterr().out
    assert len(result["history"]) == 2
    (result,) = finetune.main(argv + ["--epochs", "4", "--lr", "0.02", "--resume"])
    assert ("learning rate 0.01 -> 0.02 and epochs 2 -> 4 since the checkpoint: epochs 3-4 follow the cosine "
            "schedule of the new values, from lr 0.01") in capsys.readouterr().out
    lrs = [row["lr"] for row in result["history"]]
    # epochs 1-2: the first run's schedule; 3-4: a cosine from 0.02 over 4 epochs, not lr 0 after the end
    assert lrs[:2] == pytest.approx([0.01, 0.005])
    assert lrs[2:] == pytest.approx([0.02 * (1 + math.cos(math.pi * e / 4)) / 2 for e in (2, 3)])


def test_resuming_one_run_keeps_the_history_of_the_others(finetune, tmp_path):
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=4)), "--epochs", "1",
                   "--out", str(tmp_path / "run")]
    finetune.main(argv + ["--runs", "frozen,scratch"])
    finetune.main(argv + ["--runs", "scratch", "--epochs", "2", "--resume"])
    rows = image_training.read_history(tmp_path / "run" / "history.csv")
    assert [(row["run"], row["epoch"]) for row in rows] == [("frozen", "1"), ("scratch", "1"), ("scratch", "2")]


def test_resume_with_other_classes_is_refused(finetune, tmp_path, capsys):
    data = make_images(tmp_path / "data", ["blue", "red"], n=4)
    argv = TINY + ["--data", str(data), "--runs", "scratch", "--epochs", "1", "--out", str(tmp_path / "run")]
    finetune.main(argv)
    make_images(data, ["green"], n=4)
    code, message = fails(finetune, argv + ["--resume"], capsys)
    assert "scratch.pt was made with another classes: ['blue', 'red'], now ['blue', 'green', 'red']" in message


def test_train_folder_without_val_holds_out_part_of_train(finetune, tmp_path, capsys):
    make_images(tmp_path / "train", ["blue", "red"], n=5)
    (result,) = finetune.main(TINY + ["--data", str(tmp_path), "--runs", "scratch", "--epochs", "1"])
    assert f"no {tmp_path}/val or {tmp_path}/test folder: holding out 2 of the 10 images" in capsys.readouterr().out
    assert len(result["history"]) == 1


def _corrupt_jpeg(root: pathlib.Path) -> pathlib.Path:
    make_images(root, ["blue", "red"], n=2)
    path = root / "red" / "photo.jpg"
    Image.fromarray(np.full((64, 64, 3), 128, np.uint8)).save(path, quality=90)
    path.write_bytes(path.read_bytes()[:300])  # truncated: the header reads, the pixels do not
    return path


def _empty_png(root: pathlib.Path) -> pathlib.Path:
    make_images(root, ["blue", "red"], n=2)
    (path := root / "blue" / "empty.png").write_bytes(b"")
    return path


@pytest.mark.parametrize("make, expected", [
    (lambda root: root, "--data {}: no such folder"),
    (lambda root: root.mkdir() or root, "--data {} has no class folders"),
    (lambda root: (root / "cats").mkdir(parents=True) or root, "no images in {}/<class>/"),
    (_corrupt_jpeg, "cannot read image {}: "),
    (_empty_png, "cannot read image {}: cannot identify image file"),
])
def test_bad_data_ends_in_one_line_naming_the_problem(finetune, tmp_path, capsys, make, expected):
    named = make(tmp_path / "data")
    code, message = fails(finetune, TINY + ["--data", str(tmp_path / "data"), "--runs", "scratch",
                                            "--epochs", "1"], capsys)
    assert code == message and expected.format(named) in message  # exit status 1, with the message


@pytest.mark.parametrize("argv, expected", [
    (["--model", "resnet7"], "argument --model: invalid choice: 'resnet7'"),
    (["--model", "resnet18", "--weights", "IMAGENET9"], "--weights IMAGENET9: resnet18 has "),
    (["--epochs", "-1"], "argument --epochs: must be a positive integer, not -1"),
    (["--epochs", "0"], "argument --epochs: must be a positive integer, not 0"),
    (["--batch-size", "0"], "argument --batch-size: must be a positive integer"),
    (["--image-size", "-3"], "argument --image-size: must be a positive integer"),
    (["--train-size", "0"], "argument --train-size: must be a positive integer"),
    (["--lr", "-0.1"], "argument --lr: must be a positive number, not -0.1"),
    (["--lr", "nan"], "argument --lr: must be a positive number, not nan"),
])
def test_bad_arguments_are_refused_at_once(finetune, capsys, argv, expected):
    code, message = fails(finetune, argv, capsys)
    assert code == 2 and expected in message


def test_ctrl_c_prints_one_line(finetune, tmp_path, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(image_training, "train_epoch", interrupted)
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=3)), "--runs", "scratch"]
    with pytest.raises(SystemExit) as stopped:
        finetune.main(argv + ["--out", str(tmp_path / "run")])
    assert stopped.value.code == 130 and capsys.readouterr().err == "interrupted; continue with --resume\n"
    with pytest.raises(SystemExit) as stopped:
        finetune.main(argv)
    assert capsys.readouterr().err == "interrupted (nothing saved: give --out to keep checkpoints)\n"


def test_plot_without_matplotlib_fails_before_training(finetune, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    monkeypatch.setattr(finetune, "load_data", lambda *args: pytest.fail("started training"))
    with pytest.raises(SystemExit, match="--plot needs matplotlib, which is not installed"):
        finetune.main(["--plot", "curves.png"])


def test_help_shows_defaults_and_the_models_with_the_weights_they_can_use(finetune, capsys):
    with pytest.raises(SystemExit) as stopped:
        finetune.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())  # as wrapped for any terminal width
    assert stopped.value.code == 0
    for default in ("--epochs EPOCHS epochs per run (default: 6)", "(default: resnet18)", "(default: SYNTHETIC_V1)",
                    "(default: 0.01)", "(default: 25)", "(default: 0)"):
        assert default in text
    offered = {name: re.search(rf" {name} --weights ((?:\w+, )*\w+)", text).group(1).split(", ")
               for name in models.list_models()}
    # the repository has no resnet34 or resnet50 weights of its own: only torchvision's, downloaded, are offered
    assert offered["resnet34"] == ["IMAGENET1K_V1", "DEFAULT"]
    assert offered["resnet50"] == ["IMAGENET1K_V1", "IMAGENET1K_V2", "DEFAULT"]
    assert offered["resnet18"] == ["IMAGENET1K_V1", "SYNTHETIC_V1", "DEFAULT"]
    for name, names in offered.items():
        entries = models.get_model_weights(name).__members__
        assert names == [e for e in entries if entries[e].url is not None or entries[e].path.is_file()]
        for entry in names:
            if entries[entry].url is None:  # the project's own: they load (downloads cannot be tried here)
                finetune.check_weights(name, entries[entry])


def offline(url, *args, **kwargs):
    """urlopen on a machine without network access."""
    raise urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))


@pytest.mark.parametrize("argv, expected", [
    (["--model", "resnet34"], "ResNet34_Weights.SYNTHETIC_V1: weights file {weights}/resnet34-synthetic-v1.safetensors "
                              "not found. Regenerate it with `python examples/pretrain.py --model resnet34` (or set "
                              "MINITORCH_WEIGHTS_DIR to a folder that has it and its manifest.json); other weights "
                              "resnet34 can use: --weights IMAGENET1K_V1, DEFAULT"),
    (["--weights", "IMAGENET1K_V1"], "Could not download https://download.pytorch.org/models/resnet18-f37072fd.pth "
                                     "([Errno -2] Name or service not known). Without network access, download the file elsewhere "
                                     "and put it at {hub}/checkpoints/resnet18-f37072fd.pth; other weights resnet18 can use: "
                                     "--weights SYNTHETIC_V1"),
    (["--out", "{tmp}/file/run"], "--out {tmp}/file/run: cannot write there (Not a directory)"),
], ids=["missing file", "no network", "out under a file"])
def test_weights_and_out_are_checked_before_the_data(finetune, tmp_path, monkeypatch, capsys, argv, expected):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "torch"))  # an empty hub cache
    monkeypatch.setattr(finetune.hub.urllib.request, "urlopen", offline)
    monkeypatch.setattr(finetune, "load_data", lambda *args: pytest.fail("prepared the data"))
    (tmp_path / "file").write_text("")
    names = {"tmp": tmp_path, "weights": models.weights_dir(), "hub": tmp_path / "torch" / "hub"}
    start = time.perf_counter()
    code, message = fails(finetune, [arg.format(**names) for arg in argv], capsys)
    assert time.perf_counter() - start < 1
    assert code == message and message.partition(": error: ")[2] == expected.format(**names)


def test_scratch_alone_needs_no_pretrained_weights(finetune, tmp_path, monkeypatch):
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(tmp_path))  # a weights folder without cifar_resnet20's file
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=3)), "--epochs", "1"]
    with pytest.raises(SystemExit, match="cifar_resnet20-synthetic-v1.safetensors not found"):
        finetune.main(argv + ["--runs", "full,scratch"])
    (result,) = finetune.main(argv + ["--runs", "scratch"])
    assert result["run"] == "scratch" and len(result["history"]) == 1


def test_history_is_written_after_every_epoch(finetune, tmp_path, monkeypatch, capsys):
    """A run killed in its second epoch leaves the rows of the epochs done, the earlier runs' included."""
    out = tmp_path / "run"
    argv = TINY + ["--data", str(make_images(tmp_path / "data", ["blue", "red"], n=4)), "--runs", "frozen,scratch",
                   "--epochs", "2", "--out", str(out)]
    # validations: frozen's two epochs, scratch's first; the fourth is at the end of scratch's second epoch
    interrupt_at_evaluation(monkeypatch, evaluations=4)
    with pytest.raises(SystemExit) as stopped:
        finetune.main(argv)
    assert stopped.value.code == 130
    rows = image_training.read_history(out / "history.csv")
    assert [(row["run"], row["epoch"]) for row in rows] == [("frozen", "1"), ("frozen", "2"), ("scratch", "1")]
    saved = minitorch.load(out / "scratch.pt")["history"]
    assert rows[2]["train_loss"] == f"{saved[0]['train_loss']:.6g}" and rows[2]["seconds"] != ""


# ---- the checkpoint and examples/predict.py -----------------------------------------------------------------

@pytest.fixture(scope="module")
def finetuned(finetune, tmp_path_factory):
    """A short finetuning run on red and blue rectangles, and new images to classify."""
    root = tmp_path_factory.mktemp("predict")
    data = make_images(root / "data", ["blue", "red"])
    finetune.main(TINY + ["--data", str(data), "--runs", "full", "--epochs", "3", "--lr", "0.05",
                          "--out", str(root / "run")])
    return root / "run" / "full.pt", make_images(root / "new", ["blue", "red"], n=3, seed=1)


def test_checkpoint_holds_what_prediction_needs(finetuned):
    state = minitorch.load(finetuned[0], weights_only=True)  # plain data, no pickled objects
    assert state["architecture"] == "cifar_resnet20" and state["classes"] == ["blue", "red"]
    assert state["weights"] == "Cifar_ResNet20_Weights.SYNTHETIC_V1"
    assert state["transform"] == {"resize": 16, "crop": 16, "interpolation": "bilinear",
                                  "mean": list(image_training.MEAN), "std": list(image_training.STD)}


def test_predict_prints_the_top_classes_of_each_image(predict, finetuned, capsys):
    checkpoint, new = finetuned
    results = predict.main([str(checkpoint), str(new), "--topk", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert len(results) == len(lines) == 6
    for (path, top), line in zip(results, lines):
        assert [name for name, _ in top] == ([path.parent.name] + [n for n in ("blue", "red") if n != path.parent.name])
        assert sum(p for _, p in top) == pytest.approx(1, abs=1e-5) and top[0][1] > top[1][1]
        assert line == f"{path}: {top[0][0]} {top[0][1]:.3f}, {top[1][0]} {top[1][1]:.3f}"
    # one file, top 1
    (only,) = predict.main([str(checkpoint), str(new / "red" / "0.png"), "--topk", "1"])
    assert [name for name, _ in only[1]] == ["red"]


def test_predict_errors_are_one_line(predict, finetuned, tmp_path, capsys):
    checkpoint, new = finetuned
    for argv, expected in (([str(tmp_path / "none.pt"), str(new)], f"no checkpoint at {tmp_path / 'none.pt'}"),
                           ([str(checkpoint), str(tmp_path / "nothing")], f"{tmp_path / 'nothing'}: no such file"),
                           ([str(checkpoint), str(tmp_path)], f"no image files in {tmp_path}")):
        with pytest.raises(SystemExit) as stopped:
            predict.main(argv)
        assert expected in stopped.value.code and "\n" not in stopped.value.code
    minitorch.save({"weight": minitorch.zeros(2)}, tmp_path / "state.pt")
    with pytest.raises(SystemExit, match="state.pt is not a checkpoint of examples/finetune.py"):
        predict.main([str(tmp_path / "state.pt"), str(new)])
    # an unreadable image among good ones: named on stderr, the others classified, exit status 1
    (bad := tmp_path / "images" / "bad.jpg").parent.mkdir()
    bad.write_bytes(b"not an image")
    Image.open(new / "red" / "0.png").save(tmp_path / "images" / "good.png")
    with pytest.raises(SystemExit) as stopped:
        predict.main([str(checkpoint), str(tmp_path / "images")])
    captured = capsys.readouterr()
    assert stopped.value.code == 1 and captured.err.startswith(f"error: cannot read image {bad}")
    assert captured.out.startswith(f"{tmp_path / 'images' / 'good.png'}: red ")


# ---- ImageNet weights -------------------------------------------------------------------------------------

class _Preset:
    crop_size, resize_size = [24], [28]

    class interpolation:
        value = "bicubic"


class _WithPreset:
    meta: dict = {}

    def transforms(self):
        return _Preset()

    def __repr__(self):
        return "Some_Weights.ENTRY"


def test_preprocessing_follows_the_weights_preset_at_its_size(finetune):
    spec, how = finetune.choose_preprocessing(_WithPreset(), 24)
    assert spec == image_training.preprocessing(24, 28, "bicubic")
    assert how.startswith("the weights' own transforms (Some_Weights.ENTRY.transforms(): resize 28 bicubic")
    assert finetune.default_image_size(_WithPreset()) == 24
    spec, how = finetune.choose_preprocessing(_WithPreset(), 32)  # another size: plain resize and crop
    assert spec == image_training.preprocessing(32) and how == "resize and center crop to 32"


def test_pipeline_matches_torchvisions_preset_steps():
    """resize 256, center crop 224, to float, ImageNet normalisation: the steps of torchvision's
    ImageClassification preset of the ImageNet weights, on a PIL image."""
    from torchvision_loader import load_torchvision_transforms
    tv = load_torchvision_transforms()
    if tv is None:
        pytest.skip("torchvision is not installed")
    import torch
    img = Image.fromarray(np.random.default_rng(0).integers(0, 256, (300, 260, 3), dtype=np.uint8))
    preset = tv.Compose([tv.Resize(256, tv.InterpolationMode.BILINEAR, antialias=True), tv.CenterCrop(224),
                         tv.PILToTensor(), tv.ConvertImageDtype(torch.float),
                         tv.Normalize(image_training.MEAN, image_training.STD)])
    spec = image_training.preprocessing(224, 256)
    mine = image_training.normalize(image_training.image_transform(spec)(img)[None])[0]
    assert np.allclose(mine.numpy(), preset(img).numpy(), atol=1e-5)


def _imagenet_weights():
    weights = getattr(models.ResNet18_Weights, "IMAGENET1K_V1", None)
    if weights is None or not callable(getattr(weights, "transforms", None)):
        pytest.skip("this tree has no ImageNet weight entries yet")
    return weights


def test_pipeline_matches_the_imagenet_preset():
    weights = _imagenet_weights()
    preset = weights.transforms()
    img = Image.fromarray(np.random.default_rng(0).integers(0, 256, (300, 260, 3), dtype=np.uint8))
    spec, _ = load_example("finetune").choose_preprocessing(weights, 224)
    mine = image_training.normalize(image_training.image_transform(spec)(img)[None])[0]
    assert np.allclose(mine.numpy(), preset(img).numpy(), atol=1e-5)


def test_finetune_with_imagenet_weights_from_the_hub_cache(finetune, predict, tmp_path, monkeypatch, capsys):
    weights = _imagenet_weights()
    name = pathlib.PurePosixPath(urllib.parse.urlparse(weights.url).path).name
    (tmp_path / "hub" / "checkpoints").mkdir(parents=True)
    minitorch.manual_seed(0)
    minitorch.save(models.resnet18().state_dict(), tmp_path / "hub" / "checkpoints" / name)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    data = make_images(tmp_path / "data", ["blue", "red"], n=3)
    finetune.main(["--weights", "IMAGENET1K_V1", "--data", str(data), "--runs", "frozen", "--epochs", "1",
                   "--batch-size", "6", "--out", str(tmp_path / "run")])
    assert "preprocessing: the weights' own transforms (ResNet18_Weights.IMAGENET1K_V1.transforms(): resize 256" \
        in capsys.readouterr().out
    (path, top), *_ = predict.main([str(tmp_path / "run" / "frozen.pt"), str(data / "red" / "0.png")])
    assert {n for n, _ in top} == {"blue", "red"}
