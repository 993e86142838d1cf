"""Finetune a pretrained minitorch.models network on new classes, and compare with training from scratch.

With no arguments: resnet18 with the project's weights (SYNTHETIC_V1, pretrained on SyntheticShapes at
48 px, no download), on SyntheticGlyphs (8 figures it never saw, 25 labelled images each). Three runs
with the same budget:

- frozen: the pretrained backbone frozen with requires_grad_(False), a new classifier trained;
- full: the pretrained network with a new classifier, everything trained;
- scratch: the same architecture from random weights, everything trained.

Each epoch is scored on a validation set; the table at the end gives test accuracy. Bring your own
images with --data DIR (an ImageFolder: DIR/<class>/<image>, or DIR/train and DIR/val), and pick any
weights entry with --weights (IMAGENET1K_V1: torchvision's ImageNet weights, from the torch hub cache or
downloaded; at their 224 px the weights' own transforms prepare the images). Each run's checkpoint in
--out holds what examples/predict.py needs to classify new images.

    python examples/finetune.py
    python examples/finetune.py --model mobilenet_v2 --freeze --epochs 5
    python examples/finetune.py --data ~/pictures/flowers --weights IMAGENET1K_V1 --out runs/flowers
    python examples/finetune.py --out runs/flowers --resume ...   # continue an interrupted --out run
    python examples/predict.py runs/flowers/full.pt ~/pictures/new
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
from typing import Any

import minitorch as torch
import minitorch.models as models
from minitorch import hub, nn
from minitorch.datasets import IMG_EXTENSIONS, SyntheticGlyphs
from minitorch.datasets.folder import make_dataset
from minitorch.utils.data import Dataset, TensorDataset, random_split

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import (UserError, as_tensors, evaluate, fit, image_transform, loader, plot_history,  # noqa: E402
                            positive_float, positive_int, preprocessing, read_history, read_image,
                            require_matplotlib, trainable, write_history)

RUNS = {"frozen": "pretrained, frozen backbone", "full": "pretrained, full finetune", "scratch": "from scratch"}
OFFLINE_WEIGHTS = "SYNTHETIC_V1"  # not DEFAULT, which means ImageNet weights for torchvision's architectures


def replace_head(model: nn.Module, num_classes: int) -> nn.Linear:
    """Swap the classifier for a new ``num_classes`` one, as the torchvision tutorials do."""
    if isinstance(getattr(model, "fc", None), nn.Linear):  # resnets
        model.fc = nn.Linear(model.fc.in_features, num_classes)
        return model.fc
    model.classifier[1] = nn.Linear(model.classifier[1].in_features, num_classes)  # mobilenet_v2
    return model.classifier[1]


def build(run: str, arch: str, weights: models.WeightsEnum, num_classes: int) -> tuple[nn.Module, list]:
    """The model of a run and the parameters its optimizer updates."""
    try:
        model = models.get_model(arch, weights=None if run == "scratch" else weights)
    except (OSError, RuntimeError) as e:  # a missing or corrupted weights file, a failed download
        raise UserError(str(e)) from None
    if run == "frozen":
        model.requires_grad_(False)
    replace_head(model, num_classes)
    return model, [p for p in model.parameters() if p.requires_grad]


def _preset(weights: models.WeightsEnum) -> Any:
    """The entry's ImageClassification preset, or None when it has none."""
    make = getattr(weights, "transforms", None)
    preset = make() if callable(make) else None
    return preset if hasattr(preset, "crop_size") else None


def default_image_size(weights: models.WeightsEnum) -> int:
    preset = _preset(weights)
    return preset.crop_size[0] if preset is not None else weights.meta.get("input_size", [3, 224, 224])[-1]


def choose_preprocessing(weights: models.WeightsEnum, size: int) -> tuple[dict[str, Any], str]:
    """The preprocessing description (see image_training.preprocessing) and how it was chosen: the
    weights' own preset at its crop size, else resize and center crop to ``size``."""
    preset = _preset(weights)
    if preset is not None and preset.crop_size[0] == size:
        # the presets of these builders all normalise with ImageNet's statistics, as preprocessing() does
        spec = preprocessing(size, preset.resize_size[0], preset.interpolation.value)
        return spec, (f"the weights' own transforms ({weights!r}.transforms(): resize {spec['resize']} "
                      f"{spec['interpolation']}, center crop {size}, ImageNet normalisation)")
    return preprocessing(size), f"resize and center crop to {size}"


class ImageFiles(Dataset):
    """``(path, label)`` samples read and transformed on access; an unreadable file is named in the error."""

    def __init__(self, samples: list[tuple[str, int]], transform) -> None:
        self.samples, self.transform = samples, transform

    def __getitem__(self, index: int) -> tuple[torch.Tensor, int]:
        path, label = self.samples[index]
        return self.transform(read_image(path)), label

    def __len__(self) -> int:
        return len(self.samples)


def _class_folders(folder: pathlib.Path) -> set[str]:
    return {entry.name for entry in folder.iterdir() if entry.is_dir()}


def _samples(folder: pathlib.Path, classes: list[str]) -> list[tuple[str, int]]:
    """The image files of ``folder/<class>/``; says which classes have none."""
    samples = make_dataset(folder, {c: i for i, c in enumerate(classes)}, IMG_EXTENSIONS, allow_empty=True)
    if missing := sorted(set(classes) - {classes[label] for _, label in samples}):
        print(f"note: {folder} has no images of the class(es) {', '.join(missing)}")
    return samples


def load_folder(root: pathlib.Path, spec: dict[str, Any], seed: int) -> tuple[TensorDataset, TensorDataset, list]:
    """(train, held-out) uint8 tensor datasets of an ImageFolder and its class names: one class list
    for both splits (the union of their class folders)."""
    if not root.is_dir():
        raise UserError(f"--data {root}: no such folder")
    train_dir = root / "train" if (root / "train").is_dir() else root
    held_dir = next((root / d for d in ("val", "test") if (root / d).is_dir()), None) if train_dir != root else None
    classes = sorted(_class_folders(train_dir) | (_class_folders(held_dir) if held_dir else set()))
    if not classes:
        raise UserError(f"--data {root} has no class folders: put the images in {root}/<class>/ "
                        f"(or {root}/train/<class>/ and {root}/val/<class>/)")
    train = _samples(train_dir, classes)
    if not train:
        raise UserError(f"no images in {train_dir}/<class>/ (image files end in {', '.join(IMG_EXTENSIONS)})")
    if held_dir is not None:
        held_out = _samples(held_dir, classes)
        if not held_out:
            raise UserError(f"no images in {held_dir}/<class>/ (image files end in {', '.join(IMG_EXTENSIONS)})")
    else:
        if len(train) < 2:
            raise UserError(f"{train_dir} has only one image: at least 2 are needed (one is held out)")
        n_held = max(1, len(train) // 5)
        where = f"{root}/train" if train_dir != root else str(root)
        print(f"no {root}/val or {root}/test folder: holding out {n_held} of the {len(train)} images of {where} "
              f"for validation")
        train, held_out = (list(part) for part in random_split(
            train, [len(train) - n_held, n_held], generator=torch.Generator().manual_seed(seed)))
    transform = image_transform(spec)
    return (as_tensors(ImageFiles(train, transform), "loading training images"),
            as_tensors(ImageFiles(held_out, transform), "loading held-out images"), classes)


def load_data(args, spec: dict[str, Any]) -> tuple:
    """(train, val, test) uint8 tensor datasets and the class names."""
    if args.data is None:
        def glyphs(split, size, seed):
            try:
                images = SyntheticGlyphs(split, size=size, image_size=args.image_size, seed=seed,
                                         transform=image_transform(spec))
            except ValueError as e:
                raise UserError(f"--image-size: {e}") from None
            return as_tensors(images, f"rendering {split} images")
        train = glyphs("train", args.train_size, args.seed)
        val = glyphs("test", args.val_size, args.seed + 1)  # other images than the test set's
        return train, val, glyphs("test", args.test_size, args.seed), list(SyntheticGlyphs.figures)
    train, held_out, classes = load_folder(pathlib.Path(args.data).expanduser(), spec, args.seed)
    return train, held_out, held_out, classes


def run_one(run: str, args, weights: models.WeightsEnum, data, extra: dict[str, Any],
            out: pathlib.Path | None, on_epoch=None) -> dict:
    """Train one run (resuming from its checkpoint in ``out`` if asked); its history and results.
    ``on_epoch`` is called with the run's history after every epoch."""
    train, val, test = data
    torch.manual_seed(args.seed)
    model, params = build(run, args.model, weights, len(extra["classes"]))
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=1e-4)
    extra = {**extra, "weights": None if run == "scratch" else repr(weights)}
    history, seconds = fit(model, optimizer, train, loader(val, 256), epochs=args.epochs,
                           batch_size=args.batch_size, seed=args.seed, run=run,
                           checkpoint=out / f"{run}.pt" if out else None, resume=args.resume, extra=extra,
                           on_epoch=on_epoch)
    result = evaluate(model, loader(test, 256))
    return {"run": run, "trainable": trainable(model), "history": history, "seconds": seconds, **result}


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description as written; each option's default after its help, where there is one to show."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default is None or action.default is False or action.default == argparse.SUPPRESS \
                or "default" in action.help:
            return action.help
        return f"{action.help} (default: %(default)s)"


def usable_weights(arch: str) -> list[str]:
    """The weights entries of ``arch`` that can be loaded here: the project's files present in the weights
    folder, and every downloaded entry (read from the hub cache, or downloaded into it)."""
    return [name for name, entry in models.get_model_weights(arch).__members__.items()
            if entry.url is not None or entry.path.is_file()]


def check_weights(arch: str, weights: models.WeightsEnum) -> None:
    """Load ``weights`` once now, before any data is prepared: a missing or corrupted file, or a download
    that fails, stops the program at once (UserError) instead of after the data preparation."""
    try:
        weights.get_state_dict()
    except (OSError, RuntimeError) as e:
        entries = models.get_model_weights(arch).__members__
        others = [name for name in usable_weights(arch) if entries[name] is not weights]
        raise UserError(str(e).rstrip(".") + (f"; other weights {arch} can use: --weights {', '.join(others)}"
                                              if others else "")) from None


def check_out(out: pathlib.Path) -> None:
    """Make the folder ``out`` and check that files can be written there (UserError if not)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=out).close()
    except OSError as e:
        raise UserError(f"--out {out}: cannot write there ({e.strerror or e})") from None


def make_parser() -> argparse.ArgumentParser:
    names = models.list_models()
    listing = "\n".join(f"  {name:20s} --weights {', '.join(usable_weights(name))}" for name in names)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=_HelpFormatter,
                                     epilog=f"models and the weights entries they can use here (the project's "
                                            f"files in {models.weights_dir()}; torchvision's from the hub cache "
                                            f"{hub.get_dir()}, or downloaded):\n{listing}")
    parser.add_argument("--model", default="resnet18", choices=names, metavar="MODEL",
                        help="a minitorch.models builder (listed below)")
    parser.add_argument("--weights", default=OFFLINE_WEIGHTS, help="the model's weights entry (listed below)")
    parser.add_argument("--data", help="an ImageFolder of your own images (default: SyntheticGlyphs)")
    parser.add_argument("--epochs", type=positive_int, default=6, help="epochs per run")
    parser.add_argument("--batch-size", type=positive_int, default=25, help="images per training step")
    parser.add_argument("--lr", type=positive_float, default=0.01, help="initial learning rate (cosine schedule)")
    parser.add_argument("--freeze", action="store_true", help="only the frozen-backbone run (--runs frozen)")
    parser.add_argument("--runs", default=",".join(RUNS), help="which of frozen,full,scratch to run")
    parser.add_argument("--image-size", type=positive_int, help="default: the size the weights were trained at")
    parser.add_argument("--out", help="folder for checkpoints (one per run, saved every epoch) and history.csv")
    parser.add_argument("--resume", action="store_true", help="continue the runs checkpointed in --out")
    parser.add_argument("--plot", help="draw training loss and validation accuracy curves to this image file")
    parser.add_argument("--train-size", type=positive_int, default=200, help="SyntheticGlyphs training images")
    parser.add_argument("--val-size", type=positive_int, default=200, help="SyntheticGlyphs validation images")
    parser.add_argument("--test-size", type=positive_int, default=800, help="SyntheticGlyphs test images")
    parser.add_argument("--seed", type=int, default=0, help="seeds the new head, the shuffling and the split")
    return parser


def main(argv: list[str] | None = None) -> list[dict]:
    parser = make_parser()
    args = parser.parse_args(argv)
    runs = ["frozen"] if args.freeze else args.runs.split(",")
    if unknown := set(runs) - set(RUNS):
        parser.error(f"unknown run(s) {', '.join(sorted(unknown))}: choose from {', '.join(RUNS)}")
    if args.resume and not args.out:
        parser.error("--resume continues the checkpoints in --out: give --out")
    weights_enum = models.get_model_weights(args.model)
    try:
        weights = weights_enum.verify(args.weights)
    except KeyError:  # torchvision's error for a name the enum does not have
        parser.error(f"--weights {args.weights}: {args.model} has {', '.join(weights_enum.__members__)}")
    if args.plot:
        require_matplotlib()  # now, rather than after all the training
    out = pathlib.Path(args.out) if args.out else None
    if out and not args.resume:
        if earlier := [name for name in [f"{run}.pt" for run in RUNS] + ["history.csv"] if (out / name).exists()]:
            parser.error(f"--out {out} already holds results ({', '.join(earlier)}): add --resume to continue "
                         f"them, or choose another --out")
    if args.image_size is None:
        args.image_size = default_image_size(weights)
    try:
        if out:
            check_out(out)
        if set(runs) - {"scratch"}:  # pretrained runs
            check_weights(args.model, weights)
        return _finetune(args, runs, weights, out)
    except UserError as e:
        raise SystemExit(f"{parser.prog}: error: {e}") from None
    except KeyboardInterrupt:
        print("interrupted; continue with --resume" if out else "interrupted (nothing saved: give --out to keep "
              "checkpoints)", file=sys.stderr)
        raise SystemExit(130) from None


def _finetune(args, runs: list[str], weights: models.WeightsEnum, out: pathlib.Path | None) -> list[dict]:
    spec, how = choose_preprocessing(weights, args.image_size)
    *data, classes = load_data(args, spec)
    print(f"{args.model} ({weights!r}), {len(classes)} classes, {len(data[0])} training images, "
          f"{args.epochs} epochs per run; preprocessing: {how}")
    extra = {"architecture": args.model, "classes": classes, "transform": spec}
    # a resumed --out keeps the history of the runs not run this time
    kept = [row for row in read_history(out / "history.csv") if row["run"] not in runs] if out else []
    results, history = [], []

    def save_history(rows: list[dict]) -> None:  # after every epoch, so that an interrupted run keeps its rows
        write_history(kept + history + rows, out / "history.csv")
    for run in runs:
        results.append(run_one(run, args, weights, data, extra, out, save_history if out else None))
        history += results[-1]["history"]
        if out:
            save_history([])

    print(f"\n{'run':30s} {'trainable params':>16s} {'epochs':>6s} {'test accuracy':>13s} {'time':>6s}")
    for r in results:
        print(f"{RUNS[r['run']]:30s} {r['trainable']:16,d} {len(r['history']):6d} {r['test_accuracy']:13.3f} "
              f"{r['seconds']:5.0f}s")
    if args.plot:
        plot_history(history, args.plot, title=f"{args.model} on {args.data or 'SyntheticGlyphs'}")
        print(f"curves written to {args.plot}")
    if out:
        best = max(results, key=lambda r: r["test_accuracy"])["run"]
        print(f"checkpoints in {out}; classify images with the best run's: python examples/predict.py "
              f"{out / (best + '.pt')} IMAGE_OR_FOLDER")
    return results


if __name__ == "__main__":
    main()
