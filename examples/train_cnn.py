"""Train a small CIFAR-style ResNet from scratch on SyntheticShapes, with checkpoints that resume exactly.

After every epoch the model, optimizer, scheduler and random state go to --checkpoint (written
atomically: an interrupted save leaves the previous checkpoint intact). Run the same command with
--resume to continue where it stopped; the result is the same as an uninterrupted run.

    python examples/train_cnn.py --epochs 5
    python examples/train_cnn.py --epochs 10 --checkpoint runs/cnn.pt --resume
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import minitorch as torch
import minitorch.models as models
from minitorch.datasets import SyntheticShapes

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import as_tensors, fit, loader, write_history  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="cifar_resnet20", choices=["cifar_resnet20", "cifar_mobilenet_v2"])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--image-size", type=int, default=32)
    parser.add_argument("--train-size", type=int, default=5_000)
    parser.add_argument("--test-size", type=int, default=1_000)
    parser.add_argument("--checkpoint", default="runs/train_cnn.pt", help="saved after every epoch")
    parser.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    def shapes(split, size):
        return as_tensors(SyntheticShapes(split, size=size, image_size=args.image_size, seed=args.seed),
                          f"rendering {split} images")
    train, test = shapes("train", args.train_size), loader(shapes("test", args.test_size), 256)

    torch.manual_seed(args.seed)
    model = models.get_model(args.model, num_classes=len(SyntheticShapes.figures))
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    checkpoint = pathlib.Path(args.checkpoint)
    if args.resume and not checkpoint.is_file():
        parser.error(f"--resume: no checkpoint at {checkpoint}")
    history, _ = fit(model, optimizer, train, test, epochs=args.epochs, batch_size=args.batch_size,
                     seed=args.seed, run=args.model, checkpoint=checkpoint, resume=args.resume,
                     on_epoch=lambda rows: write_history(rows, checkpoint.with_suffix(".csv")))
    return {"model": model, "history": history}


if __name__ == "__main__":
    main()
