"""The image examples (pretrain, finetune, train_cnn) at tiny sizes: what they write is what they claim."""
import csv
import hashlib
import importlib.util
import json
import sys

import numpy as np
import pytest
from PIL import Image

import minitorch
import minitorch.models as models
from locations import EXAMPLES
from minitorch.datasets import SyntheticShapes

sys.path.insert(0, str(EXAMPLES))
import image_training  # noqa: E402

TINY = ["--image-size", "16"]


def load_example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interrupt_at_evaluation(monkeypatch, evaluations: int = 2):
    """Make the next training stop (KeyboardInterrupt) at its ``evaluations``-th evaluation (by default, in a
    single run, the one of its second epoch: once its first epoch is saved); returns the function that lifts it."""
    evaluate, calls = image_training.evaluate, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == evaluations:
            raise KeyboardInterrupt
        return evaluate(*args, **kwargs)
    monkeypatch.setattr(image_training, "evaluate", interrupted)
    return lambda: monkeypatch.setattr(image_training, "evaluate", evaluate)


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """A weights folder with tiny cifar_resnet20 weights made by the pretraining script."""
    folder = tmp_path_factory.mktemp("weights")
    argv = ["--model", "cifar_resnet20", "--epochs", "1", "--train-size", "64", "--test-size", "48",
            "--batch-size", "32", "--out-dir", str(folder)] + TINY
    result = load_example("pretrain").main(argv)
    return folder, argv, result


def test_pretrain_writes_weights_and_an_honest_manifest(pretrained, monkeypatch):
    folder, argv, result = pretrained
    path = folder / "cifar_resnet20-synthetic-v1.safetensors"
    entry = json.loads((folder / "manifest.json").read_text())["files"][path.name]
    assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert entry["command"] == "python examples/pretrain.py " + " ".join(argv)
    assert entry["categories"] == list(SyntheticShapes.figures) and entry["input_size"] == [3, 16, 16]
    assert {v.dtype for v in minitorch.load(path).values()} == {minitorch.float16, minitorch.int64}
    # the recorded accuracy is what the stored weights score on the recorded test set
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(folder))
    model = models.cifar_resnet20(weights="DEFAULT")
    test = image_training.as_tensors(SyntheticShapes("test", size=48, image_size=16))
    accuracy = image_training.evaluate(model, image_training.loader(test, 256))["test_accuracy"]
    assert accuracy == result["accuracy"] and entry["accuracy"] == round(accuracy, 4)


def test_finetune_compares_frozen_full_and_scratch(pretrained, monkeypatch, tmp_path):
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(pretrained[0]))
    out = tmp_path / "run"
    results = load_example("finetune").main(
        ["--model", "cifar_resnet20", "--epochs", "2", "--train-size", "16", "--val-size", "8", "--test-size", "16",
         "--batch-size", "8", "--out", str(out)])
    by_run = {r["run"]: r for r in results}
    assert list(by_run) == ["frozen", "full", "scratch"]
    assert by_run["frozen"]["trainable"] == 64 * 8 + 8  # only the new head (8 glyph classes)
    assert by_run["full"]["trainable"] == by_run["scratch"]["trainable"] == 272474 - 64 * 10 - 10 + 64 * 8 + 8
    with open(out / "history.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["run"], r["epoch"]) for r in rows] == [(run, e) for run in by_run for e in ("1", "2")]
    # the frozen run changed the head only
    pretrained_state = minitorch.load(pretrained[0] / "cifar_resnet20-synthetic-v1.safetensors")
    frozen = minitorch.load(out / "frozen.pt")["model"]
    for name, value in pretrained_state.items():
        if name.startswith("fc."):
            continue
        if not name.endswith(("running_mean", "running_var", "num_batches_tracked")):  # BN statistics do move
            assert np.array_equal(frozen[name].numpy(), value.float().numpy()), name


def test_finetune_resumes_and_checks_its_flags(pretrained, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(pretrained[0]))
    finetune = load_example("finetune")
    argv = ["--model", "cifar_resnet20", "--freeze", "--epochs", "2", "--train-size", "16", "--val-size", "8",
            "--test-size", "8", "--batch-size", "8", "--out", str(tmp_path)]
    resume = interrupt_at_evaluation(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        finetune.main(argv)
    assert stopped.value.code == 130 and capsys.readouterr().err == "interrupted; continue with --resume\n"
    resume()
    resumed = finetune.main(argv + ["--resume"])
    assert "frozen: resuming after epoch 1" in capsys.readouterr().out
    assert [row["epoch"] for row in resumed[0]["history"]] == [1, 2]
    for bad, message in ((["--resume"], "give --out"), (["--runs", "frozen,nope"], "unknown run")):
        with pytest.raises(SystemExit):
            finetune.main(["--model", "cifar_resnet20"] + bad)
        assert message in capsys.readouterr().err


def test_finetune_on_an_image_folder(pretrained, monkeypatch, tmp_path):
    """Users bring their own images as an ImageFolder; here red squares and blue discs."""
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(pretrained[0]))
    rng = np.random.default_rng(0)
    for label, colour in (("blue", (0, 0, 255)), ("red", (255, 0, 0))):
        (tmp_path / label).mkdir()
        for i in range(10):
            pixels = rng.integers(0, 60, (20, 24, 3), dtype=np.uint8)
            pixels[5:15, 6:18] = colour
            Image.fromarray(pixels).save(tmp_path / label / f"{i}.png")
    results = load_example("finetune").main(["--model", "cifar_resnet20", "--data", str(tmp_path), "--runs",
                                             "full", "--epochs", "3", "--batch-size", "4", "--lr", "0.05"] + TINY)
    assert results[0]["trainable"] == 272474 - 64 * 10 - 10 + 64 * 2 + 2
    assert results[0]["test_accuracy"] == 1.0  # 4 held-out images of an easy task


def test_history_plot(tmp_path, monkeypatch):
    rows = [{"run": run, "epoch": e, "train_loss": 1 / e, "val_accuracy": e / 4} for run in ("a", "b")
            for e in (1, 2, 3)]
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    with pytest.raises(SystemExit, match="--plot needs matplotlib, which is not installed: pip install matplotlib"):
        image_training.plot_history(rows, tmp_path / "curves.png")
    monkeypatch.undo()
    pytest.importorskip("matplotlib")
    image_training.plot_history(rows, tmp_path / "curves.png", title="test")
    with Image.open(tmp_path / "curves.png") as img:
        assert img.format == "PNG" and img.size == (1000, 400)


def test_train_cnn_resumes_exactly(tmp_path, monkeypatch):
    train_cnn = load_example("train_cnn")
    argv = ["--epochs", "2", "--train-size", "48", "--test-size", "16", "--batch-size", "16"] + TINY
    straight = train_cnn.main(argv + ["--checkpoint", str(tmp_path / "a.pt")])
    resume = interrupt_at_evaluation(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        train_cnn.main(argv + ["--checkpoint", str(tmp_path / "b.pt")])
    with open(tmp_path / "b.csv") as fh:  # the history of the epoch done before the interruption
        assert [row["train_loss"] for row in csv.DictReader(fh)] == [f"{straight['history'][0]['train_loss']:.6g}"]
    resume()
    resumed = train_cnn.main(argv + ["--checkpoint", str(tmp_path / "b.pt"), "--resume"])
    a, b = straight["model"].state_dict(), resumed["model"].state_dict()
    assert all(np.array_equal(a[k].numpy(), b[k].numpy()) for k in a)
    assert [r["train_loss"] for r in straight["history"]] == [r["train_loss"] for r in resumed["history"]]
    with open(tmp_path / "b.csv") as fh:
        assert [row["epoch"] for row in csv.DictReader(fh)] == ["1", "2"]
