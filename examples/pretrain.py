"""Pretrain a minitorch.models architecture on SyntheticShapes and write its weights to weights/.

The recipe (fixed seeds, per architecture in RECIPES): AdamW (weight decay 0.05) or SGD with Nesterov
momentum 0.9 (weight decay 5e-4), a one-cycle learning rate schedule stepped per batch, cross-entropy;
a fresh training set is rendered for every epoch (seed = epoch number), so the model never sees an
image twice; accuracy is measured on the test split with the weights as stored (float16). The weights
file and its manifest entry (accuracy, sha256, this exact command, ...) go to weights/ unless
--out-dir says otherwise.

    python examples/pretrain.py --model resnet18
    python examples/pretrain.py --model cifar_resnet20 --epochs 2 --out-dir /tmp/w   # a quick try
"""
from __future__ import annotations

import argparse
import pathlib
import shlex
import sys

import minitorch as torch
import minitorch.models as models
from minitorch.datasets import SyntheticShapes

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import MEAN, STD, Timer, as_tensors, evaluate, loader, train_epoch  # noqa: E402

WEIGHTS = pathlib.Path(__file__).resolve().parent.parent / "weights"
# per architecture: image size, epochs, batch size, optimizer and its peak learning rate
RECIPES = {
    "resnet18": dict(image_size=48, epochs=15, batch_size=64, optimizer="adamw", lr=2e-3),
    "resnet34": dict(image_size=48, epochs=15, batch_size=64, optimizer="adamw", lr=2e-3),
    "resnet50": dict(image_size=48, epochs=15, batch_size=64, optimizer="adamw", lr=2e-3),
    "mobilenet_v2": dict(image_size=48, epochs=15, batch_size=64, optimizer="adamw", lr=2e-3),
    "cifar_resnet20": dict(image_size=32, epochs=8, batch_size=128, optimizer="sgd", lr=0.2),
    "cifar_mobilenet_v2": dict(image_size=32, epochs=15, batch_size=64, optimizer="adamw", lr=2e-3),
}
OPTIMIZERS = {
    "adamw": ("AdamW(weight_decay=0.05)", lambda params, lr: torch.optim.AdamW(params, lr=lr, weight_decay=0.05)),
    "sgd": ("SGD(momentum=0.9, nesterov=True, weight_decay=5e-4)",
            lambda params, lr: torch.optim.SGD(params, lr=lr, momentum=0.9, nesterov=True, weight_decay=5e-4)),
}


def main(argv: list[str] | None = None) -> dict:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(RECIPES))
    parser.add_argument("--epochs", type=int, help="default: the model's recipe")
    parser.add_argument("--image-size", type=int, help="default: the model's recipe")
    parser.add_argument("--batch-size", type=int, help="default: the model's recipe")
    parser.add_argument("--optimizer", choices=sorted(OPTIMIZERS), help="default: the model's recipe")
    parser.add_argument("--lr", type=float, help="peak learning rate (default: the model's recipe)")
    parser.add_argument("--train-size", type=int, default=10_000, help="images rendered per epoch")
    parser.add_argument("--test-size", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out-dir", default=str(WEIGHTS), help="where the weights file and manifest go")
    args = parser.parse_args(argv)
    recipe = {k: getattr(args, k) if getattr(args, k) is not None else v for k, v in RECIPES[args.model].items()}
    size, epochs, batch_size, lr = recipe["image_size"], recipe["epochs"], recipe["batch_size"], recipe["lr"]
    optimizer_text, make_optimizer = OPTIMIZERS[recipe["optimizer"]]

    torch.manual_seed(args.seed)
    model = models.get_model(args.model, num_classes=len(SyntheticShapes.figures))
    optimizer = make_optimizer(model.parameters(), lr)
    steps = -(-args.train_size // batch_size)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, epochs=epochs, steps_per_epoch=steps,
                                                    pct_start=0.2)
    test_set = SyntheticShapes("test", size=args.test_size, image_size=size, seed=args.seed)
    test = loader(as_tensors(test_set, "rendering test images"), 256)
    print(f"pretraining {args.model} ({sum(p.numel() for p in model.parameters()):,} parameters) on "
          f"SyntheticShapes {size}x{size}: {epochs} epochs of {args.train_size} fresh images, batch {batch_size}")
    clock = Timer()
    for epoch in range(epochs):
        train_set = SyntheticShapes("train", size=args.train_size, image_size=size, seed=args.seed + epoch)
        train = loader(as_tensors(train_set, f"rendering epoch {epoch + 1}"), batch_size, shuffle=True,
                       seed=args.seed + epoch)
        stats = train_epoch(model, train, optimizer, scheduler, desc=f"epoch {epoch + 1}/{epochs}")
        stats.update(evaluate(model, test))
        print(f"epoch {epoch + 1}/{epochs}: train loss {stats['train_loss']:.3f} acc {stats['train_accuracy']:.3f}"
              f" | test loss {stats['test_loss']:.3f} acc {stats['test_accuracy']:.3f} | {clock():.0f} s", flush=True)

    # store float16 (half the size) and measure the accuracy of exactly what is stored
    state = {k: v.half() if v.is_floating_point() else v for k, v in model.state_dict().items()}
    model.load_state_dict(state)
    accuracy = evaluate(model, test)["test_accuracy"]
    out_dir = pathlib.Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    file = f"{args.model}-synthetic-v1.safetensors"
    torch.save(state, out_dir / file)
    entry = {
        "architecture": args.model,
        "dataset": f"SyntheticShapes (minitorch.datasets): {args.train_size:,} fresh training images per epoch "
                   f"(seeds {args.seed}..{args.seed + epochs - 1}), {args.test_size:,} test images (seed {args.seed})"
                   f", {size}x{size}",
        "categories": test_set.classes,
        "num_classes": len(test_set.classes),
        "input_size": [3, size, size],
        "epochs": epochs,
        "accuracy": round(accuracy, 4),
        "num_params": sum(p.numel() for p in model.parameters()),
        "command": shlex.join(["python", "examples/pretrain.py", *argv]),
        "recipe": f"{optimizer_text}, OneCycleLR(max_lr={lr}, pct_start=0.2) per batch, batch size {batch_size}, "
                  f"cross-entropy, seed {args.seed}",
        "normalization": {"mean": list(MEAN), "std": list(STD)},
        "dtype": "float16",
        "train_seconds": round(clock()),
    }
    models.update_manifest(file, entry, out_dir)
    print(f"test accuracy {accuracy:.4f} (float16 weights); wrote {out_dir / file} and its manifest entry")
    return {"accuracy": accuracy, "path": out_dir / file}


if __name__ == "__main__":
    main()
