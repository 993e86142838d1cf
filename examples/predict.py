"""Classify images with a checkpoint of examples/finetune.py: the top classes and their probabilities.

The checkpoint names the architecture, the class names and the preprocessing, so nothing else is needed:

    python examples/predict.py runs/flowers/full.pt photo.jpg
    python examples/predict.py runs/flowers/full.pt ~/pictures/new --topk 3
"""
from __future__ import annotations

import argparse
import pathlib
import sys

import minitorch as torch
import minitorch.models as models
from minitorch.datasets import IMG_EXTENSIONS

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the examples' shared helpers
from image_training import UserError, image_transform, normalize, positive_int, read_image  # noqa: E402

NEEDED = ("architecture", "classes", "transform", "model")


def load_classifier(path: pathlib.Path) -> tuple[torch.nn.Module, dict]:
    """The model of a finetune.py checkpoint, in eval mode, and the checkpoint."""
    try:
        state = torch.load(path)
    except FileNotFoundError:
        raise UserError(f"no checkpoint at {path}") from None
    except Exception as e:  # not a checkpoint at all: a message for the user, not a traceback
        raise UserError(f"cannot read {path} as a checkpoint: {e}") from None
    if not isinstance(state, dict) or (missing := [key for key in NEEDED if key not in state]):
        raise UserError(f"{path} is not a checkpoint of examples/finetune.py (it has no "
                        f"{', '.join(missing) if isinstance(state, dict) else 'dict of entries'})")
    model = models.get_model(state["architecture"], num_classes=len(state["classes"]))
    model.load_state_dict(state["model"])
    return model.eval(), state


def image_files(paths: list[str]) -> list[pathlib.Path]:
    """The images named: files as given, folders searched recursively for image files, in sorted order."""
    files = []
    for name in paths:
        path = pathlib.Path(name).expanduser()
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(IMG_EXTENSIONS))
            if not found:
                raise UserError(f"no image files in {path} (image files end in {', '.join(IMG_EXTENSIONS)})")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise UserError(f"{path}: no such file or folder")
    return files


def predict(model: torch.nn.Module, state: dict, files: list[pathlib.Path], topk: int,
            batch_size: int = 32) -> list[tuple[pathlib.Path, list[tuple[str, float]]]]:
    """For each readable file, its ``topk`` (class, probability) pairs; unreadable files are reported on
    stderr and left out."""
    transform, classes, results = image_transform(state["transform"]), state["classes"], []
    k = min(topk, len(classes))
    for start in range(0, len(files), batch_size):
        batch, images = [], []
        for path in files[start:start + batch_size]:
            try:
                images.append(transform(read_image(path)))
                batch.append(path)
            except UserError as e:
                print(f"error: {e}", file=sys.stderr)
        if not images:
            continue
        with torch.no_grad():
            probabilities = model(normalize(torch.stack(images))).softmax(1)
        values, indices = probabilities.topk(k, dim=1)
        for path, p, i in zip(batch, values.tolist(), indices.tolist()):
            results.append((path, [(classes[c], prob) for c, prob in zip(i, p)]))
    return results


def main(argv: list[str] | None = None) -> list[tuple[pathlib.Path, list[tuple[str, float]]]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkpoint", help="a checkpoint written by examples/finetune.py --out (e.g. runs/x/full.pt)")
    parser.add_argument("images", nargs="+", metavar="IMAGE_OR_FOLDER", help="image files or folders of them")
    parser.add_argument("--topk", type=positive_int, default=3, help="how many classes to show (default: 3)")
    args = parser.parse_args(argv)
    try:
        model, state = load_classifier(pathlib.Path(args.checkpoint))
        files = image_files(args.images)
    except UserError as e:
        raise SystemExit(f"{parser.prog}: error: {e}") from None
    results = predict(model, state, files, args.topk)
    for path, top in results:
        print(f"{path}: " + ", ".join(f"{name} {prob:.3f}" for name, prob in top))
    if len(results) < len(files):
        raise SystemExit(1)
    return results


if __name__ == "__main__":
    main()
