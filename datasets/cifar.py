"""CIFAR-10 from its python batch files in ``root/cifar-10-batches-py/``, as in torchvision.

The batches are pickles; they are read with a restricted unpickler that builds only numpy arrays and
plain Python values, so a tampered file cannot run code.
"""
from __future__ import annotations

import codecs
import os
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy._core.multiarray import _reconstruct
from PIL import Image

from .utils import NETWORK_ERRORS, check_integrity, download_and_extract_archive
from .vision import VisionDataset


class _BatchUnpickler(pickle.Unpickler):
    """Resolves only the globals that pickled numpy arrays need; anything else is refused."""

    _ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"): _reconstruct,  # pickled by numpy 1.x
        ("numpy._core.multiarray", "_reconstruct"): _reconstruct,  # pickled by numpy 2.x
        ("numpy", "ndarray"): np.ndarray,
        ("numpy", "dtype"): np.dtype,
        ("_codecs", "encode"): codecs.encode,  # bytes in protocol-2 pickles written by Python 3
    }

    def __init__(self, file, path: str) -> None:
        super().__init__(file, encoding="latin1")  # the batches were pickled by Python 2
        self.path = path

    def find_class(self, module: str, name: str) -> Any:
        try:
            return self._ALLOWED[(module, name)]
        except KeyError:
            raise pickle.UnpicklingError(f"{self.path}: refusing to load the global '{module}.{name}': a CIFAR "
                                         "batch file holds only numpy arrays, lists, strings and numbers") from None


def _load_batch(path: str) -> Any:
    with open(path, "rb") as f:
        return _BatchUnpickler(f, path).load()


class CIFAR10(VisionDataset):
    """CIFAR-10: 50,000 training and 10,000 test colour images of 32x32 pixels in ten classes.

    ``data`` is a uint8 array (N, 32, 32, 3), ``targets`` a list of ints; every file is checked against the
    official md5. ``download=True`` fetches and extracts ``url`` (skipped when the files are already there).
    """

    base_folder = "cifar-10-batches-py"
    url = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
    filename = "cifar-10-python.tar.gz"
    tgz_md5 = "c58f30108f718f92721af3b95e74349a"
    train_list = [
        ["data_batch_1", "c99cafc152244af753f735de768cd75f"],
        ["data_batch_2", "d4bba439e000b95fd0a9bffe97cbabec"],
        ["data_batch_3", "54ebc095f3ab1f0389bbae665268c751"],
        ["data_batch_4", "634d18415352ddfa80567beed471001a"],
        ["data_batch_5", "482c414d41f54cd18b22e5b47cb7c3cb"],
    ]
    test_list = [["test_batch", "40351d587109b95175f43aff81a1287e"]]
    meta = {"filename": "batches.meta", "key": "label_names", "md5": "5ff9c542aee3614f3951f8cda6e48888"}

    def __init__(self, root: str | os.PathLike, train: bool = True, transform: Callable | None = None,
                 target_transform: Callable | None = None, download: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        if download:
            self.download()
        if not self._check_integrity():
            raise RuntimeError("Dataset not found or corrupted. You can use download=True to download it "
                               f"(looked for {self._expected_files()} in {self._folder()})")
        data, self.targets = [], []
        for file_name, _ in self.train_list if self.train else self.test_list:
            entry = _load_batch(os.path.join(self._folder(), file_name))
            data.append(entry["data"])
            self.targets.extend(entry["labels"] if "labels" in entry else entry["fine_labels"])
        self.data = np.vstack(data).reshape(-1, 3, 32, 32).transpose((0, 2, 3, 1))  # CHW rows -> HWC images
        self._load_meta()

    def _folder(self) -> str:
        return os.path.join(self.root, self.base_folder)

    def _expected_files(self) -> str:
        return ", ".join(name for name, _ in self.train_list + self.test_list) + ", " + self.meta["filename"]

    def _load_meta(self) -> None:
        path = os.path.join(self._folder(), self.meta["filename"])
        if not check_integrity(path, self.meta["md5"]):
            raise RuntimeError("Dataset metadata file not found or corrupted. You can use download=True to download it")
        self.classes = _load_batch(path)[self.meta["key"]]
        self.class_to_idx = {_class: i for i, _class in enumerate(self.classes)}

    def _check_integrity(self) -> bool:
        return all(check_integrity(os.path.join(self._folder(), name), md5)
                   for name, md5 in self.train_list + self.test_list)

    def download(self) -> None:
        """Fetch, verify and extract the archive, unless the batch files are already there."""
        if self._check_integrity():
            return
        try:
            download_and_extract_archive(self.url, self.root, filename=self.filename, md5=self.tgz_md5)
        except NETWORK_ERRORS as error:
            raise RuntimeError(
                f"Could not download {self.url} ({getattr(error, 'reason', error)}). Without network access, fetch "
                f"{self.filename} (md5 {self.tgz_md5}) on another machine and place it in {self.root} (then "
                f"download=True extracts it), or extract it yourself so that {self._folder()} holds "
                f"{self._expected_files()}") from error

    def __getitem__(self, index: int) -> tuple[Any, Any]:
        img, target = Image.fromarray(self.data[index]), self.targets[index]
        return self._transformed(img, target)

    def __len__(self) -> int:
        return len(self.data)

    def extra_repr(self) -> str:
        return f"Split: {'Train' if self.train is True else 'Test'}"
