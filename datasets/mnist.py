"""MNIST and FashionMNIST from their idx files in ``root/<ClassName>/raw/``, as in torchvision."""
from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

import minitorch

from .utils import NETWORK_ERRORS, download_and_extract_archive
from .vision import VisionDataset

# idx type codes -> element type (big-endian on disk)
_SN3_TYPES = {8: np.dtype("u1"), 9: np.dtype("i1"), 11: np.dtype(">i2"), 12: np.dtype(">i4"), 13: np.dtype(">f4"),
              14: np.dtype(">f8")}


def read_sn3_pascalvincent_ndarray(path: str) -> np.ndarray:
    """An idx file (http://yann.lecun.com/exdb/mnist/), plain or gzipped, as a native-endian ndarray."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")
    nd, ty = magic % 256, magic // 256
    if not 1 <= nd <= 3 or ty not in _SN3_TYPES:
        raise ValueError(f"{path} is not an idx file (magic number {magic:#010x})")
    dims = [int.from_bytes(data[4 * (i + 1):4 * (i + 2)], "big") for i in range(nd)]
    dtype, count, offset = _SN3_TYPES[ty], int(np.prod(dims)), 4 * (nd + 1)
    if len(data) < offset + count * dtype.itemsize:
        raise ValueError(f"{path} is truncated: its header announces shape {tuple(dims)}")
    arr = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
    return arr.reshape(dims).astype(dtype.newbyteorder("="))


def read_label_file(path: str) -> minitorch.Tensor:
    x = read_sn3_pascalvincent_ndarray(path)
    if x.dtype != np.uint8 or x.ndim != 1:
        raise ValueError(f"{path} does not hold labels: expected 1-d uint8 data, got {x.ndim}-d {x.dtype}")
    return minitorch.from_numpy(x.astype(np.int64))


def read_image_file(path: str) -> minitorch.Tensor:
    x = read_sn3_pascalvincent_ndarray(path)
    if x.dtype != np.uint8 or x.ndim != 3:
        raise ValueError(f"{path} does not hold images: expected 3-d uint8 data, got {x.ndim}-d {x.dtype}")
    return minitorch.from_numpy(x)


class MNIST(VisionDataset):
    """The MNIST handwritten digits: 60,000 training and 10,000 test images, 28x28 grayscale (PIL mode 'L').

    Reads ``root/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte`` (gzipped or not); ``download=True``
    fetches the ``.gz`` files from the first reachable of ``mirrors``. ``data`` is a uint8 tensor (N, 28, 28),
    ``targets`` an int64 tensor (N,).
    """

    mirrors = ["https://ossci-datasets.s3.amazonaws.com/mnist/", "http://yann.lecun.com/exdb/mnist/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
        ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
        ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
        ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c"),
    ]
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]

    def __init__(self, root: str | os.PathLike, train: bool = True, transform: Callable | None = None,
                 target_transform: Callable | None = None, download: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        if download:
            self.download()
        if not self._check_exists():
            raise RuntimeError(f"Dataset not found. You can use download=True to download it (looked for the idx "
                               f"files, gzipped or not, in {self.raw_folder})")
        prefix = "train" if self.train else "t10k"
        self.data = read_image_file(self._raw_file(f"{prefix}-images-idx3-ubyte"))
        self.targets = read_label_file(self._raw_file(f"{prefix}-labels-idx1-ubyte"))

    @property
    def raw_folder(self) -> str:
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def class_to_idx(self) -> dict[str, int]:
        return {_class: i for i, _class in enumerate(self.classes)}

    def _raw_file(self, name: str) -> str | None:
        """The path of raw file ``name`` (without .gz), decompressed or gzipped, or None if neither exists."""
        for candidate in (name, name + ".gz"):
            path = os.path.join(self.raw_folder, candidate)
            if os.path.isfile(path):
                return path
        return None

    def _check_exists(self) -> bool:
        return all(self._raw_file(os.path.splitext(filename)[0]) for filename, _ in self.resources)

    def download(self) -> None:
        """Fetch, verify and decompress the raw files that are missing."""
        if self._check_exists():
            return
        os.makedirs(self.raw_folder, exist_ok=True)
        for filename, md5 in self.resources:
            failures = []
            for mirror in self.mirrors:
                url = f"{mirror}{filename}"
                try:
                    download_and_extract_archive(url, download_root=self.raw_folder, filename=filename, md5=md5)
                    break
                except NETWORK_ERRORS as error:
                    failures.append(f"{url} ({getattr(error, 'reason', error)})")
            else:
                names = ", ".join(name for name, _ in self.resources)
                raise RuntimeError(f"Error downloading {filename}: could not fetch {'; '.join(failures)}. Without "
                                   f"network access, download {names} from one of {', '.join(self.mirrors)} on "
                                   f"another machine and place them (gzipped or not) in {self.raw_folder}")

    def __getitem__(self, index: int) -> tuple[Any, Any]:
        img, target = Image.fromarray(self.data[index].numpy()), int(self.targets[index])
        return self._transformed(img, target)

    def __len__(self) -> int:
        return len(self.data)

    def extra_repr(self) -> str:
        return f"Split: {'Train' if self.train is True else 'Test'}"


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST: ten kinds of clothing, in MNIST's format, read from ``root/FashionMNIST/raw/``."""

    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    resources = [
        ("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
        ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
        ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
        ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310"),
    ]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]
