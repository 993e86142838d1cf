"""What the image examples share (pretrain.py, finetune.py, train_cnn.py, predict.py).

Images are rendered or read once and kept in memory as uint8 tensors (N, 3, H, W); each batch is
normalised on the fly. How a file becomes such a tensor is a plain dict (``preprocessing``), so a
checkpoint can carry it to predict.py. The loops are PyTorch's, with tqdm bars; checkpoints are written
atomically with ``minitorch.save`` and resume exactly; the history of a run (one row per epoch) goes to
a CSV file and, with matplotlib installed, to a plot.
"""
from __future__ import annotations

import argparse
import csv
import math
import pathlib
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from PIL import Image
from tqdm import tqdm

import minitorch as torch
import minitorch.nn.functional as F
from minitorch import nn
from minitorch.datasets import transforms
from minitorch.utils.data import DataLoader, Dataset, TensorDataset

# ImageNet's statistics, which torchvision's pretrained weights expect too
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
_MEAN = torch.tensor(MEAN).reshape(1, 3, 1, 1) * 255
_STD = torch.tensor(STD).reshape(1, 3, 1, 1) * 255


class UserError(Exception):
    """A problem with what the user gave (a file, a folder, a checkpoint): reported as one line, exit status 1."""


def positive_int(text: str) -> int:
    """argparse type: an integer > 0."""
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0."""
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


def preprocessing(size: int, resize: int | None = None, interpolation: str = "bilinear") -> dict[str, Any]:
    """How an image file becomes a model input: shorter edge resized to ``resize`` (default ``size``), the
    centre ``size`` x ``size`` cropped, then normalised by ``MEAN`` and ``STD``. Plain values only, so it
    can be stored in a checkpoint that ``minitorch.load(weights_only=True)`` reads."""
    return {"resize": resize or size, "crop": size, "interpolation": interpolation,
            "mean": list(MEAN), "std": list(STD)}


def image_transform(spec: dict[str, Any]) -> Callable[[Image.Image], torch.Tensor]:
    """The uint8 (3, H, W) part of ``spec`` (see ``preprocessing``): resize and crop in Pillow, as
    torchvision's ImageClassification preset does with PIL images; ``normalize`` does the rest, batch by batch."""
    return transforms.Compose([
        transforms.Resize(spec["resize"], interpolation=transforms.InterpolationMode(spec["interpolation"])),
        transforms.CenterCrop(spec["crop"]),
        transforms.PILToTensor(),
    ])


def read_image(path: str | pathlib.Path) -> Image.Image:
    """The image file at ``path`` as RGB; an unreadable, empty or truncated file raises UserError naming it."""
    try:
        with Image.open(path) as img:
            return img.convert("RGB")
    except (OSError, ValueError, Image.DecompressionBombError) as e:
        raise UserError(f"cannot read image {path}: {e}") from None


def as_tensors(dataset: Dataset, desc: str = "loading images") -> TensorDataset:
    """All images of ``dataset`` ((image, label) pairs; PIL images or uint8 (3, H, W) tensors) as a uint8
    (N, 3, H, W) tensor and int64 labels."""
    images, labels = [], []
    for i in tqdm(range(len(dataset)), desc=desc, unit="img", leave=False, disable=None):
        img, label = dataset[i]
        if not isinstance(img, torch.Tensor):
            img = np.asarray(img.convert("RGB")).transpose(2, 0, 1)
        images.append(np.asarray(img))
        labels.append(label)
    return TensorDataset(torch.from_numpy(np.stack(images)), torch.tensor(labels))


def normalize(images: torch.Tensor) -> torch.Tensor:
    """uint8 images to float32, normalised by ``MEAN`` and ``STD``."""
    return (images.float() - _MEAN) / _STD


def loader(data: TensorDataset, batch_size: int, shuffle: bool = False, seed: int = 0) -> DataLoader:
    return DataLoader(data, batch_size=batch_size, shuffle=shuffle,
                      generator=torch.Generator().manual_seed(seed) if shuffle else None)


def train_epoch(model: nn.Module, batches: DataLoader, optimizer: torch.optim.Optimizer,
                scheduler=None, desc: str = "train", label_smoothing: float = 0.0) -> dict[str, float]:
    """One pass over ``batches``; ``scheduler`` (if any) steps after every batch. Mean loss and accuracy."""
    model.train()
    loss_sum = correct = seen = 0
    bar = tqdm(batches, desc=desc, unit="batch", leave=False, disable=None)
    for images, labels in bar:
        optimizer.zero_grad()
        logits = model(normalize(images))
        loss = F.cross_entropy(logits, labels, label_smoothing=label_smoothing)
        loss.backward()
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        loss_sum += loss.item() * len(labels)
        correct += (logits.argmax(1) == labels).sum().item()
        seen += len(labels)
        bar.set_postfix(loss=f"{loss_sum / seen:.3f}", acc=f"{correct / seen:.3f}")
    return {"train_loss": loss_sum / seen, "train_accuracy": correct / seen}


def evaluate(model: nn.Module, batches: DataLoader, split: str = "test") -> dict[str, float]:
    """Mean loss and accuracy in eval mode, without building a graph, as ``{split}_loss`` and ``{split}_accuracy``."""
    model.eval()
    loss_sum = correct = seen = 0
    with torch.no_grad():
        for images, labels in tqdm(batches, desc=split, unit="batch", leave=False, disable=None):
            logits = model(normalize(images))
            loss_sum += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += (logits.argmax(1) == labels).sum().item()
            seen += len(labels)
    return {f"{split}_loss": loss_sum / seen, f"{split}_accuracy": correct / seen}


def trainable(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


class Timer:
    """Seconds since creation, plus whatever an earlier, resumed run had already spent."""

    def __init__(self, spent: float = 0.0):
        self.start = time.perf_counter() - spent

    def __call__(self) -> float:
        return time.perf_counter() - self.start


def fit(model: nn.Module, optimizer: torch.optim.Optimizer, train: TensorDataset, val: DataLoader, *, epochs: int,
        batch_size: int, seed: int = 0, run: str = "train", checkpoint: pathlib.Path | None = None,
        resume: bool = False, extra: dict[str, Any] | None = None,
        on_epoch: Callable[[list[dict]], None] | None = None) -> tuple[list[dict], float]:
    """Train for ``epochs`` with a cosine learning rate schedule stepped per epoch, scoring ``val`` after
    each; the history rows and the seconds spent. After every epoch ``on_epoch`` (if any) gets the history
    so far, and with ``checkpoint``, all it takes to continue (model, optimizer, scheduler, random state,
    history) and ``extra`` are saved there; ``resume`` continues from it: the result is the same as an
    uninterrupted run. Resuming a checkpoint whose ``extra`` differs raises UserError; a changed learning
    rate or number of epochs gives the remaining epochs the schedule of the new values, and says so."""
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    extra = extra or {}
    history, start, spent = [], 0, 0.0
    if resume and checkpoint is not None and checkpoint.is_file():
        state = torch.load(checkpoint)
        for key, value in extra.items():
            if state.get(key) != value:
                raise UserError(f"{checkpoint} was made with another {key}: {state.get(key)!r}, now {value!r}; "
                                f"resume with the same settings, or train into another folder")
        requested_lrs = list(scheduler.base_lrs)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        torch.set_rng_state(state["rng"])
        history, start, spent = state["history"], state["epoch"], state["seconds"]
        print(f"{run}: resuming after epoch {start} from {checkpoint}")
        _continue_schedule(optimizer, scheduler, requested_lrs, epochs, start, run)
    clock = Timer(spent)
    for epoch in range(start, epochs):
        row = {"run": run, "epoch": epoch + 1, "lr": optimizer.param_groups[0]["lr"]}
        row.update(train_epoch(model, loader(train, batch_size, shuffle=True, seed=seed + epoch), optimizer,
                               desc=f"{run} {epoch + 1}/{epochs}"))
        scheduler.step()
        row.update(evaluate(model, val, "val"))
        row["seconds"] = clock()
        history.append(row)
        if checkpoint is not None:
            checkpoint.parent.mkdir(parents=True, exist_ok=True)
            torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(), "rng": torch.get_rng_state(), "epoch": epoch + 1,
                        "history": history, "seconds": clock(), **extra}, checkpoint)
        if on_epoch is not None:
            on_epoch(history)
        print(f"{run} epoch {epoch + 1}/{epochs}: train loss {row['train_loss']:.3f} acc {row['train_accuracy']:.3f}"
              f" | val acc {row['val_accuracy']:.3f} | {row['seconds']:.0f} s", flush=True)
    return history, clock()


def _continue_schedule(optimizer: torch.optim.Optimizer, scheduler: torch.optim.lr_scheduler.CosineAnnealingLR,
                       lrs: list[float], epochs: int, done: int, run: str) -> None:
    """After a resume: if the learning rate or the number of epochs asked for now differ from the
    checkpoint's, the remaining epochs follow the cosine schedule of the new values (without this, a
    finished run given more epochs would go on at the final learning rate, 0)."""
    if done >= epochs:
        print(f"{run}: the checkpoint already has {done} epochs (--epochs {epochs}): nothing to train; "
              f"raise --epochs to train more")
        return
    changes = []
    if scheduler.base_lrs != lrs:
        changes.append(f"learning rate {scheduler.base_lrs[0]:g} -> {lrs[0]:g}")
    if scheduler.T_max != epochs:
        changes.append(f"epochs {scheduler.T_max} -> {epochs}")
    if not changes:
        return
    scheduler.base_lrs, scheduler.T_max = list(lrs), epochs
    for group, lr in zip(optimizer.param_groups, lrs):
        group["initial_lr"] = lr
        group["lr"] = scheduler.eta_min + (lr - scheduler.eta_min) * (1 + math.cos(math.pi * done / epochs)) / 2
    print(f"{run}: {' and '.join(changes)} since the checkpoint: epochs {done + 1}-{epochs} follow the cosine "
          f"schedule of the new values, from lr {optimizer.param_groups[0]['lr']:.4g}")


# ---- history ---------------------------------------------------------------------------------------------
HISTORY_FIELDS = ("run", "epoch", "lr", "train_loss", "train_accuracy", "val_loss", "val_accuracy", "seconds")


def write_history(rows: Iterable[dict], path: str | pathlib.Path) -> None:
    """One CSV row per (run, epoch)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, HISTORY_FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})


def read_history(path: str | pathlib.Path) -> list[dict]:
    """The rows of a CSV file written by ``write_history`` (values as text); none if there is no file."""
    try:
        with open(path, newline="") as fh:
            return list(csv.DictReader(fh))
    except FileNotFoundError:
        return []


def require_matplotlib() -> Any:
    """matplotlib.pyplot (non-interactive); SystemExit with what to install when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("--plot needs matplotlib, which is not installed: pip install matplotlib "
                         "(or pip install -e \".[plot]\")") from None
    return plt


def plot_history(rows: Sequence[dict], path: str | pathlib.Path, title: str = "") -> None:
    """Training loss and validation accuracy per epoch, one line per run, as an image file."""
    plt = require_matplotlib()
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(10, 4))
    for run in dict.fromkeys(row["run"] for row in rows):
        mine = [row for row in rows if row["run"] == run]
        epochs = [row["epoch"] for row in mine]
        ax_loss.plot(epochs, [row["train_loss"] for row in mine], marker="o", label=run)
        ax_acc.plot(epochs, [row["val_accuracy"] for row in mine], marker="o", label=run)
    ax_loss.set(xlabel="epoch", ylabel="training loss", title="training loss")
    ax_acc.set(xlabel="epoch", ylabel="accuracy", title="validation accuracy", ylim=(0, 1))
    for ax in (ax_loss, ax_acc):
        ax.grid(alpha=0.3)
        ax.legend()
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
