"""``DatasetFolder`` and ``ImageFolder``: samples stored as ``root/<class>/<file>``, as in torchvision."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from PIL import Image

from .vision import VisionDataset

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_file_allowed_extension(filename: str, extensions: str | tuple[str, ...]) -> bool:
    return filename.lower().endswith(extensions if isinstance(extensions, str) else tuple(extensions))


def is_image_file(filename: str) -> bool:
    return has_file_allowed_extension(filename, IMG_EXTENSIONS)


def find_classes(directory: str | os.PathLike) -> tuple[list[str], dict[str, int]]:
    """The sorted subfolder names of ``directory`` and their indices."""
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any class folder in {directory}.")
    return classes, {cls_name: i for i, cls_name in enumerate(classes)}


def make_dataset(directory: str | os.PathLike, class_to_idx: dict[str, int] | None = None,
                 extensions: str | tuple[str, ...] | None = None, is_valid_file: Callable[[str], bool] | None = None,
                 allow_empty: bool = False) -> list[tuple[str, int]]:
    """``(path, class_index)`` for every valid file under each class folder, classes and files in sorted order."""
    directory = os.path.expanduser(directory)
    if class_to_idx is None:
        _, class_to_idx = find_classes(directory)
    elif not class_to_idx:
        raise ValueError("'class_to_index' must have at least one entry to collect any samples.")
    if (extensions is None) == (is_valid_file is None):
        raise ValueError("Both extensions and is_valid_file cannot be None or not None at the same time")
    if extensions is not None:
        def is_valid_file(path: str) -> bool:
            return has_file_allowed_extension(path, extensions)

    instances = []
    available_classes = set()
    for target_class in sorted(class_to_idx):
        class_index = class_to_idx[target_class]
        target_dir = os.path.join(directory, target_class)
        if not os.path.isdir(target_dir):
            continue
        for root, _, fnames in sorted(os.walk(target_dir, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if is_valid_file(path):
                    instances.append((path, class_index))
                    available_classes.add(target_class)
    empty_classes = set(class_to_idx) - available_classes
    if empty_classes and not allow_empty:
        msg = f"Found no valid file for the classes {', '.join(sorted(empty_classes))}. "
        if extensions is not None:
            msg += f"Supported extensions are: {extensions if isinstance(extensions, str) else ', '.join(extensions)}"
        raise FileNotFoundError(msg)
    return instances


class DatasetFolder(VisionDataset):
    """A dataset of files arranged as ``root/<class>/**/<file>``, read with ``loader``.

    Attributes: ``classes`` (sorted folder names), ``class_to_idx``, ``samples`` (``(path, class_index)``
    pairs) and ``targets``.
    """

    def __init__(self, root: str | os.PathLike, loader: Callable[[str], Any],
                 extensions: tuple[str, ...] | None = None, transform: Callable | None = None,
                 target_transform: Callable | None = None, is_valid_file: Callable[[str], bool] | None = None,
                 allow_empty: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        classes, class_to_idx = self.find_classes(self.root)
        samples = self.make_dataset(self.root, class_to_idx=class_to_idx, extensions=extensions,
                                    is_valid_file=is_valid_file, allow_empty=allow_empty)
        self.loader = loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]

    @staticmethod
    def make_dataset(directory: str | os.PathLike, class_to_idx: dict[str, int],
                     extensions: tuple[str, ...] | None = None, is_valid_file: Callable[[str], bool] | None = None,
                     allow_empty: bool = False) -> list[tuple[str, int]]:
        if class_to_idx is None:
            raise ValueError("The class_to_idx parameter cannot be None.")
        return make_dataset(directory, class_to_idx, extensions=extensions, is_valid_file=is_valid_file,
                            allow_empty=allow_empty)

    def find_classes(self, directory: str | os.PathLike) -> tuple[list[str], dict[str, int]]:
        return find_classes(directory)

    def __getitem__(self, index: int) -> tuple[Any, Any]:
        path, target = self.samples[index]
        sample = self.loader(path)
        return self._transformed(sample, target)

    def __len__(self) -> int:
        return len(self.samples)


def pil_loader(path: str) -> Image.Image:
    """The image at ``path`` as an RGB PIL image."""
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


default_loader = pil_loader  # torchvision's alternative backend (accimage) does not exist here


class ImageFolder(DatasetFolder):
    """Images arranged as ``root/<class>/**/<image>`` (extensions in ``IMG_EXTENSIONS``), loaded as RGB PIL images.

    ``imgs`` is an alias of ``samples``.
    """

    def __init__(self, root: str | os.PathLike, transform: Callable | None = None,
                 target_transform: Callable | None = None, loader: Callable[[str], Any] = default_loader,
                 is_valid_file: Callable[[str], bool] | None = None, allow_empty: bool = False) -> None:
        super().__init__(root, loader, IMG_EXTENSIONS if is_valid_file is None else None, transform=transform,
                         target_transform=target_transform, is_valid_file=is_valid_file, allow_empty=allow_empty)
        self.imgs = self.samples
