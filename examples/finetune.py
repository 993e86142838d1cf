"""Finetune a pretrained minitorch.models network on new classes, and compare with training from scratch.

With no arguments: resnet18 pretrained on SyntheticShapes (weights/), on SyntheticGlyphs (8 figures it
never saw, 25 labelled images each). Three runs with the same budget:

- frozen: the pretrained backbone frozen with requires_grad_(False), a new classifier trained;
- full: the pretrained network with a new classifier, everything trained;
- scratch: the same architecture from random weights, everything trained.

Each epoch is scored on a validation set; the table at the end gives test accuracy. Bring your own
images with --data DIR (an ImageFolder: DIR/<class>/<image>, or DIR/train and DIR/val).

    python examples/finetune.py
    python examples/finetune.py --model mobilenet_v2 --freeze --epochs 5
    python examples/finetune.py --data ~/pictures/flowers --out runs/flowers --plot runs/flowers/curves.png
    python examples/finetune.py --out runs/demo --resume       # continue an interrupted --out run
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import minitorch as torch
import minitorch.models as models
from minitorch import nn
from minitorch.datasets import ImageFolder, SyntheticGlyphs, transforms
from minitorch.utils.data import random_split

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import as_tensors, evaluate, fit, loader, plot_history, trainable, write_history  # noqa: E402

RUNS = {"frozen": "pretrained, frozen backbone", "full": "pretrained, full finetune", "scratch": "from scratch"}


def replace_head(model: nn.Module, num_classes: int) -> nn.Linear:
    """Swap the classifier for a new ``num_classes`` one, as the torchvision tutorials do."""
    if isinstance(getattr(model, "fc", None), nn.Linear):  # resnets
        model.fc = nn.Linear(model.fc.in_features, num_classes)
        return model.fc
    model.classifier[1] = nn.Linear(model.classifier[1].in_features, num_classes)  # mobilenet_v2
    return model.classifier[1]


def build(run: str, arch: str, num_classes: int) -> tuple[nn.Module, list]:
    """The model of a run and the parameters its optimizer updates."""
    model = models.get_model(arch, weights=None if run == "scratch" else "DEFAULT")
    if run == "frozen":
        model.requires_grad_(False)
    replace_head(model, num_classes)
    return model, [p for p in model.parameters() if p.requires_grad]


def load_data(args) -> tuple:
    """(train, val, test) uint8 tensor datasets and the class names."""
    if args.data is None:
        def glyphs(split, size, seed):
            return as_tensors(SyntheticGlyphs(split, size=size, image_size=args.image_size, seed=seed),
                              f"rendering {split} images")
        train = glyphs("train", args.train_size, args.seed)
        val = glyphs("test", args.val_size, args.seed + 1)  # other images than the test set's
        return train, val, glyphs("test", args.test_size, args.seed), SyntheticGlyphs.figures.keys()
    root = pathlib.Path(args.data).expanduser()
    resize = transforms.Compose([transforms.Resize(args.image_size), transforms.CenterCrop(args.image_size)])
    if (root / "train").is_dir():
        train_set = ImageFolder(root / "train", transform=resize)
        held_out = ImageFolder(next(root / d for d in ("val", "test") if (root / d).is_dir()), transform=resize)
        classes = train_set.classes
    else:  # one folder: keep 20% for evaluation
        full = ImageFolder(root, transform=resize)
        n_test = max(1, len(full) // 5)
        train_set, held_out = random_split(full, [len(full) - n_test, n_test],
                                           generator=torch.Generator().manual_seed(args.seed))
        classes = full.classes
    held_out = as_tensors(held_out, "loading held-out images")
    return as_tensors(train_set, "loading training images"), held_out, held_out, classes


def run_one(run: str, args, data, num_classes: int, out: pathlib.Path | None) -> dict:
    """Train one run (resuming from its checkpoint in ``out`` if asked); its history and results."""
    train, val, test = data
    torch.manual_seed(args.seed)
    model, params = build(run, args.model, num_classes)
    optimizer = torch.optim.SGD(params, lr=args.lr, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)
    history, seconds = fit(model, optimizer, scheduler, train, loader(val, 256), epochs=args.epochs,
                           batch_size=args.batch_size, seed=args.seed, run=run,
                           checkpoint=out / f"{run}.pt" if out else None, resume=args.resume)
    result = evaluate(model, loader(test, 256))
    return {"run": run, "trainable": trainable(model), "history": history, "seconds": seconds, **result}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet18", help="a minitorch.models builder with pretrained weights")
    parser.add_argument("--data", help="an ImageFolder of your own images (default: SyntheticGlyphs)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch-size", type=int, default=25)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--freeze", action="store_true", help="only the frozen-backbone run (--runs frozen)")
    parser.add_argument("--runs", default=",".join(RUNS), help="which of frozen,full,scratch to run")
    parser.add_argument("--image-size", type=int, help="default: the size the weights were trained at")
    parser.add_argument("--out", help="folder for checkpoints (one per run, saved every epoch) and history.csv")
    parser.add_argument("--resume", action="store_true", help="continue the runs checkpointed in --out")
    parser.add_argument("--plot", help="draw training loss and validation accuracy curves to this image file")
    parser.add_argument("--train-size", type=int, default=200, help="SyntheticGlyphs training images")
    parser.add_argument("--val-size", type=int, default=200)
    parser.add_argument("--test-size", type=int, default=800)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    runs = ["frozen"] if args.freeze else args.runs.split(",")
    if unknown := set(runs) - set(RUNS):
        parser.error(f"unknown run(s) {', '.join(sorted(unknown))}: choose from {', '.join(RUNS)}")
    if args.resume and not args.out:
        parser.error("--resume continues the checkpoints in --out: give --out")
    weights = models.get_model_weights(args.model).DEFAULT
    if args.image_size is None:
        args.image_size = weights.meta.get("input_size", [3, 224, 224])[-1]
    out = pathlib.Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)

    *data, classes = load_data(args)
    print(f"{args.model} ({weights!r}), {len(classes)} classes, {len(data[0])} training images, "
          f"{args.image_size}x{args.image_size}, {args.epochs} epochs per run")
    results = []
    for run in runs:
        results.append(run_one(run, args, data, len(classes), out))
        history = [row for r in results for row in r["history"]]
        if out:
            write_history(history, out / "history.csv")

    print(f"\n{'run':30s} {'trainable params':>16s} {'epochs':>6s} {'test accuracy':>13s} {'time':>6s}")
    for r in results:
        print(f"{RUNS[r['run']]:30s} {r['trainable']:16,d} {args.epochs:6d} {r['test_accuracy']:13.3f} "
              f"{r['seconds']:5.0f}s")
    if args.plot:
        plot_history(history, args.plot, title=f"{args.model} on {args.data or 'SyntheticGlyphs'}")
        print(f"curves written to {args.plot}")
    return results


if __name__ == "__main__":
    main()
