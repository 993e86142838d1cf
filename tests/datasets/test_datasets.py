"""minitorch.datasets: the synthetic tasks, ImageFolder, MNIST, CIFAR10 and downloads.

Every file these tests read is written here, in pytest's tmp_path: idx files, pickled CIFAR batches,
archives served over HTTP by a local server on 127.0.0.1.
"""
import collections
import gzip
import hashlib
import http.server
import io
import math
import os
import pickle
import socket
import struct
import tarfile
import threading

import numpy as np
import pytest
from PIL import Image

import minitorch
import minitorch.datasets as datasets
from minitorch.datasets import transforms as T
from minitorch.datasets import utils as dutils
from minitorch.utils.data import DataLoader


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


# ---- synthetic tasks ---------------------------------------------------------------------------------------------

def test_synthetic_images_are_a_function_of_the_index():
    ds = datasets.SyntheticShapes(size=30)
    img, label = ds[7]
    assert isinstance(img, Image.Image) and img.mode == "RGB" and img.size == (32, 32)
    assert isinstance(label, int) and label == ds.targets[7]
    assert img.tobytes() == ds[7][0].tobytes()
    larger = datasets.SyntheticShapes(size=300)  # image i does not depend on the dataset's size
    for i in (0, 7, 29):
        assert larger[i][0].tobytes() == ds[i][0].tobytes() and larger.targets[i] == ds.targets[i]
    assert ds[-1][0].tobytes() == ds[29][0].tobytes()
    with pytest.raises(IndexError):
        ds[30]


def test_synthetic_images_differ_between_seeds_splits_and_tasks():
    base = datasets.SyntheticShapes(size=10)
    others = [datasets.SyntheticShapes(size=10, seed=1), datasets.SyntheticShapes(split="test", size=10),
              datasets.SyntheticGlyphs(size=10)]
    for other in others:  # unrelated images: different backgrounds too, not just another figure
        assert all(np.abs(np.asarray(base[i][0]) - np.asarray(other[i][0]).astype(np.float32)).mean() > 25
                   for i in range(10))
    assert len({base[i][0].tobytes() for i in range(10)}) == 10


def test_synthetic_tasks_classes_sizes_and_balance():
    shapes, glyphs = datasets.SyntheticShapes(), datasets.SyntheticGlyphs()
    assert len(shapes.classes) == 10 and 5 <= len(glyphs.classes) <= 10
    assert not set(shapes.classes) & set(glyphs.classes)
    assert not set(datasets.SHAPES.values()) & set(datasets.GLYPHS.values())
    assert shapes.class_to_idx == {c: i for i, c in enumerate(shapes.classes)}
    assert (len(shapes), len(datasets.SyntheticShapes(split="test"))) == (10_000, 2_000)
    assert (len(glyphs), len(datasets.SyntheticGlyphs(split="test"))) == (200, 800)
    for ds in (shapes, glyphs, datasets.SyntheticShapes(size=55, seed=3)):
        counts = collections.Counter(ds.targets)
        assert sorted(counts) == list(range(len(ds.classes)))
        assert max(counts.values()) - min(counts.values()) <= 1
    assert collections.Counter(glyphs.targets)[0] == 25


@pytest.mark.parametrize("image_size", [8, 48, 224])
def test_synthetic_image_sizes(image_size):
    img, _ = datasets.SyntheticGlyphs(size=3, image_size=image_size)[2]
    assert img.size == (image_size, image_size) and img.mode == "RGB"
    assert np.asarray(img).std() > 5  # something is drawn


def test_synthetic_transforms_errors_and_repr():
    ds = datasets.SyntheticShapes(size=4, image_size=16, transform=T.ToTensor(), target_transform=lambda y: -y)
    x, y = ds[1]
    assert tuple(x.shape) == (3, 16, 16) and y == -ds.targets[1]
    with pytest.raises(ValueError, match="Unknown split 'val'"):
        datasets.SyntheticShapes(split="val")
    with pytest.raises(ValueError, match="image_size should be at least 8"):
        datasets.SyntheticGlyphs(image_size=4)
    assert repr(ds) == ("Dataset SyntheticShapes\n    Number of datapoints: 4\n    Split: train\n    Image size: 16\n"
                        "    Seed: 0\n    StandardTransform\n    Transform: ToTensor()\n"
                        "    Target transform: " + repr(ds.target_transform))


def test_synthetic_dataset_in_dataloader_workers():
    ds = datasets.SyntheticShapes(size=12, image_size=16, transform=T.PILToTensor())
    direct = np.stack([ds[i][0].numpy() for i in range(12)])
    batches = list(DataLoader(ds, batch_size=4, num_workers=2))
    np.testing.assert_array_equal(np.concatenate([x.numpy() for x, _ in batches]), direct)
    assert sum((y.tolist() for _, y in batches), []) == ds.targets[:12]
    copy = pickle.loads(pickle.dumps(ds))  # what a 'spawn' worker receives
    np.testing.assert_array_equal(copy[5][0].numpy(), direct[5])


def ridge_accuracy(train, test, features):
    """Test accuracy of a least-squares one-vs-all linear classifier on ``features`` of the images."""
    def design(ds):
        x = np.stack([features(np.asarray(ds[i][0], dtype=np.float32)) for i in range(len(ds))])
        return np.hstack([x, np.ones((len(x), 1), np.float32)]), np.asarray(ds.targets)

    x, y = design(train)
    x_test, y_test = design(test)
    mu, sd = x.mean(0), x.std(0) + 1e-6
    x, x_test = (x - mu) / sd, (x_test - mu) / sd
    w = np.linalg.solve(x.T @ x + 10 * np.eye(x.shape[1]), x.T @ np.eye(len(train.classes))[y])
    return ((x_test @ w).argmax(1) == y_test).mean()


def edge_features(img):
    """Colour-, position- and rotation-blind statistics of the edges: how strong they are, and the spectrum of
    their orientation histogram (a figure with n-fold symmetry has peaks at harmonic n; turning it only
    changes phases)."""
    gy, gx = np.gradient(img.mean(axis=2))
    mag = np.hypot(gx, gy)
    mag /= mag.max() + 1e-6
    strong = mag > 0.35
    hist = np.histogram(np.arctan2(gy, gx)[strong], bins=36, range=(-math.pi, math.pi), weights=mag[strong])[0]
    spectrum = np.abs(np.fft.rfft(hist / (hist.sum() + 1e-6)))[1:13]
    return np.concatenate([np.histogram(mag, bins=8, range=(0, 1))[0] / mag.size, spectrum, [strong.mean()]])


@pytest.mark.parametrize("task, train_size, chance", [(datasets.SyntheticShapes, 600, 0.1),
                                                      (datasets.SyntheticGlyphs, None, 0.125)])
def test_synthetic_tasks_are_learnable(task, train_size, chance):
    # a linear classifier on a few edge statistics, no training loop: seed 0 gives 0.45 and 0.41
    accuracy = ridge_accuracy(task(size=train_size), task(split="test", size=300), edge_features)
    assert accuracy > 2.5 * chance


# ---- ImageFolder / DatasetFolder ---------------------------------------------------------------------------------

@pytest.fixture
def image_tree(tmp_path):
    """root/{bird,cat,dog}/... with PNG, JPEG and BMP files, nested folders and a text file to ignore."""
    root = tmp_path / "images"
    files = {"cat/zz/d.png": (60, "RGB"), "cat/b.png": (10, "RGB"), "cat/a.jpg": (20, "RGB"),
             "cat/sub/c.PNG": (30, "L"), "dog/z.bmp": (40, "RGB"), "bird/x.jpeg": (50, "RGB")}
    for name, (value, mode) in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new(mode, (5, 4), value if mode == "L" else (value, value, value)).save(path)
    (root / "dog" / "notes.txt").write_text("not an image")
    return root


def test_image_folder(image_tree, monkeypatch):
    walk = os.walk

    def reversed_walk(*args, **kwargs):  # folders and files in reverse order, as a file system may list them
        return [(root, dirs, files[::-1]) for root, dirs, files in list(walk(*args, **kwargs))[::-1]]

    monkeypatch.setattr(os, "walk", reversed_walk)  # the samples must still come out sorted
    ds = datasets.ImageFolder(str(image_tree))
    assert ds.classes == ["bird", "cat", "dog"] and ds.class_to_idx == {"bird": 0, "cat": 1, "dog": 2}
    names = [os.path.relpath(p, image_tree) for p, _ in ds.samples]
    assert names == ["bird/x.jpeg", "cat/a.jpg", "cat/b.png", "cat/sub/c.PNG", "cat/zz/d.png", "dog/z.bmp"]
    assert ds.targets == [0, 1, 1, 1, 1, 2] and ds.imgs is ds.samples and len(ds) == 6
    img, target = ds[3]
    assert img.mode == "RGB" and img.size == (5, 4) and target == 1  # 'L' file converted to RGB
    np.testing.assert_array_equal(np.asarray(img), 30)
    typed = datasets.ImageFolder(image_tree, transform=T.PILToTensor(), target_transform=lambda t: t + 100)
    x, y = typed[2]
    assert x.dtype == minitorch.uint8 and tuple(x.shape) == (3, 4, 5) and y == 101
    only_png = datasets.ImageFolder(image_tree, is_valid_file=lambda p: p.lower().endswith(".png"), allow_empty=True)
    assert only_png.targets == [1, 1, 1]
    assert repr(ds) == f"Dataset ImageFolder\n    Number of datapoints: 6\n    Root location: {image_tree}"


def test_image_folder_errors(image_tree, tmp_path):
    (image_tree / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="Found no valid file for the classes empty. Supported extensions "
                                                "are: .jpg, .jpeg, .png, .ppm, .bmp, .pgm, .tif, .tiff, .webp"):
        datasets.ImageFolder(image_tree)
    assert len(datasets.ImageFolder(image_tree, allow_empty=True).classes) == 4
    (tmp_path / "flat").mkdir()
    (tmp_path / "flat" / "a.png").write_bytes(b"")
    with pytest.raises(FileNotFoundError, match="Couldn't find any class folder in"):
        datasets.ImageFolder(tmp_path / "flat")
    with pytest.raises(ValueError, match="Both extensions and is_valid_file cannot be None or not None"):
        datasets.DatasetFolder(image_tree, loader=open, extensions=(".png",), is_valid_file=bool)


def test_dataset_folder_with_a_custom_loader(tmp_path):
    for cls, value in (("b", 2.0), ("a", 1.0)):
        (tmp_path / cls).mkdir()
        np.save(tmp_path / cls / "x.npy", np.full(3, value))
    ds = datasets.DatasetFolder(tmp_path, loader=np.load, extensions=".npy")
    assert ds.classes == ["a", "b"] and [float(x[0]) for x, _ in (ds[0], ds[1])] == [1.0, 2.0]


# ---- MNIST -------------------------------------------------------------------------------------------------------

def idx_bytes(arr: np.ndarray) -> bytes:
    """An idx file holding uint8 ``arr``."""
    return struct.pack(">I", 0x800 + arr.ndim) + struct.pack(f">{arr.ndim}I", *arr.shape) + arr.tobytes()


def mnist_files(n_train=5, n_test=3):
    """{file name: content} of the four MNIST files (uncompressed), and the train/test arrays."""
    rng = np.random.default_rng(0)
    arrays = {"train": (rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8),
                        rng.integers(0, 10, n_train, dtype=np.uint8)),
              "t10k": (rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8),
                       rng.integers(0, 10, n_test, dtype=np.uint8))}
    files = {}
    for prefix, (images, labels) in arrays.items():
        files[f"{prefix}-images-idx3-ubyte"] = idx_bytes(images)
        files[f"{prefix}-labels-idx1-ubyte"] = idx_bytes(labels)
    return files, arrays


@pytest.mark.parametrize("compressed", [False, True])
def test_mnist_reads_idx_files(tmp_path, compressed):
    files, arrays = mnist_files()
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name, content in files.items():
        if compressed:
            (raw / (name + ".gz")).write_bytes(gzip.compress(content))
        else:
            (raw / name).write_bytes(content)
    train = datasets.MNIST(tmp_path)
    assert train.data.dtype == minitorch.uint8 and tuple(train.data.shape) == (5, 28, 28)
    assert train.targets.dtype == minitorch.int64 and train.targets.tolist() == arrays["train"][1].tolist()
    img, target = train[2]
    assert img.mode == "L" and img.size == (28, 28) and target == int(arrays["train"][1][2])
    np.testing.assert_array_equal(np.asarray(img), arrays["train"][0][2])
    test = datasets.MNIST(tmp_path, train=False, transform=T.ToTensor())
    assert len(test) == 3 and tuple(test[0][0].shape) == (1, 28, 28)
    assert train.class_to_idx["3 - three"] == 3
    assert repr(test).splitlines()[3] == "    Split: Test"


def test_mnist_errors(tmp_path):
    with pytest.raises(RuntimeError, match="Dataset not found. You can use download=True to download it"):
        datasets.MNIST(tmp_path)
    files, _ = mnist_files()
    raw = tmp_path / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    for name, content in files.items():
        (raw / name).write_bytes(content)
    assert len(datasets.FashionMNIST(tmp_path)) == 5 and datasets.FashionMNIST.classes[9] == "Ankle boot"
    (raw / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00\x01\x09" + files["train-labels-idx1-ubyte"][4:])
    with pytest.raises(ValueError, match="train-labels-idx1-ubyte is not an idx file"):
        datasets.FashionMNIST(tmp_path)
    (raw / "train-labels-idx1-ubyte").write_bytes(files["train-labels-idx1-ubyte"][:-1])
    with pytest.raises(ValueError, match="is truncated"):
        datasets.FashionMNIST(tmp_path)
    (raw / "train-labels-idx1-ubyte").write_bytes(files["train-images-idx3-ubyte"])
    with pytest.raises(ValueError, match="does not hold labels"):
        datasets.FashionMNIST(tmp_path)


# ---- CIFAR10 -----------------------------------------------------------------------------------------------------

class Py2StylePickler(pickle.Pickler):
    """Pickles arrays as Python 2 / numpy 1 did: numpy.core's _reconstruct and the raw data as a (latin-1) str."""

    def reducer_override(self, obj):
        if isinstance(obj, np.ndarray):
            constructor, args, state = obj.__reduce__()
            return constructor, (args[0], args[1], "b"), state[:4] + (state[4].decode("latin1"),)
        return NotImplemented


def pickled(obj, style="py3") -> bytes:
    if style == "py3":
        return pickle.dumps(obj, protocol=2)
    buffer = io.BytesIO()
    Py2StylePickler(buffer, protocol=2).dump(obj)
    return buffer.getvalue().replace(b"numpy._core.multiarray", b"numpy.core.multiarray")


def cifar_batches(style="py3", n=4):
    """{file name: bytes} of a miniature cifar-10-batches-py folder, and the images of data_batch_1."""
    rng = np.random.default_rng(1)
    files, first = {}, None
    for i, name in enumerate(["data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4", "data_batch_5",
                              "test_batch"]):
        images = rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
        first = images if first is None else first
        rows = images.transpose(0, 3, 1, 2).reshape(n, 3072)  # as stored: the red plane, then green, then blue
        labels = [int(v) for v in (np.arange(n) + i) % 10]
        files[name] = pickled({"batch_label": f"batch {i}", "labels": labels, "data": rows,
                               "filenames": [f"img_{i}_{j}.png" for j in range(n)]}, style)
    classes = ["airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]
    files["batches.meta"] = pickled({"label_names": classes, "num_cases_per_batch": n, "num_vis": 3072}, style)
    return files, first


def cifar_class(files, **attributes):
    """CIFAR10 with the md5s of ``files`` instead of the official ones."""
    lists = {"train_list": [[f"data_batch_{i}", md5(files[f"data_batch_{i}"])] for i in range(1, 6)],
             "test_list": [["test_batch", md5(files["test_batch"])]],
             "meta": {"filename": "batches.meta", "key": "label_names", "md5": md5(files["batches.meta"])}}
    return type("CIFAR10", (datasets.CIFAR10,), {**lists, **attributes})


def write_files(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (folder / name).write_bytes(content)


@pytest.mark.parametrize("style", ["py3", "py2"])
def test_cifar10_reads_pickled_batches(tmp_path, style):
    files, first = cifar_batches(style)
    write_files(tmp_path / "cifar-10-batches-py", files)
    train = cifar_class(files)(tmp_path)
    assert train.data.dtype == np.uint8 and train.data.shape == (20, 32, 32, 3)
    np.testing.assert_array_equal(train.data[:4], first)
    assert train.targets[:6] == [0, 1, 2, 3, 1, 2]
    assert train.classes[3] == "cat" and train.class_to_idx["truck"] == 9
    img, target = train[1]
    assert img.mode == "RGB" and target == 1
    np.testing.assert_array_equal(np.asarray(img), first[1])
    test = cifar_class(files)(tmp_path, train=False, transform=T.ToTensor())
    assert len(test) == 4 and tuple(test[0][0].shape) == (3, 32, 32)


def test_cifar10_checks_integrity(tmp_path):
    files, _ = cifar_batches()
    write_files(tmp_path / "cifar-10-batches-py", files)
    with pytest.raises(RuntimeError, match="Dataset not found or corrupted. You can use download=True"):
        datasets.CIFAR10(tmp_path)  # the official md5s do not match these files
    tampered = cifar_class(files)
    (tmp_path / "cifar-10-batches-py" / "test_batch").write_bytes(files["test_batch"] + b"x")
    with pytest.raises(RuntimeError, match="Dataset not found or corrupted"):
        tampered(tmp_path)


class Exploit:
    """Unpickling this would run ``touch marker``."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_cifar10_refuses_pickles_that_run_code(tmp_path):
    marker = tmp_path / "pwned"
    files, _ = cifar_batches()
    files["data_batch_1"] = pickle.dumps({"data": Exploit(marker), "labels": [0]}, protocol=2)
    write_files(tmp_path / "cifar-10-batches-py", files)
    with pytest.raises(pickle.UnpicklingError, match=r"data_batch_1: refusing to load the global '(posix|nt).system'"):
        cifar_class(files)(tmp_path)
    assert not marker.exists()


# ---- downloads ---------------------------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path, monkeypatch):
    """(base URL, folder) of an HTTP server on 127.0.0.1 serving the files put in the folder."""
    monkeypatch.setenv("no_proxy", "*")
    folder = tmp_path / "served"
    folder.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", folder
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def closed_port_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def tar_gz(files: dict, folder: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def test_download_url_progress_bar_and_checksum(server, tmp_path, monkeypatch):
    url, served = server
    (served / "blob.bin").write_bytes(b"x" * 5000)
    bars = []
    real_tqdm = dutils.tqdm
    monkeypatch.setattr(dutils, "tqdm", lambda **kwargs: bars.append(kwargs) or real_tqdm(**kwargs))
    dutils.download_url(url + "blob.bin", tmp_path / "out", md5=md5(b"x" * 5000))
    assert (tmp_path / "out" / "blob.bin").read_bytes() == b"x" * 5000
    assert bars[0]["total"] == 5000 and bars[0]["unit_scale"] is True and bars[0]["disable"] is None
    with pytest.raises(RuntimeError, match="File not found or corrupted: .*blob.bin has md5 .*, expected 0+"):
        dutils.download_url(url + "blob.bin", tmp_path / "bad", md5="0" * 32)
    assert os.listdir(tmp_path / "bad") == []  # no partial or corrupted file left behind


def test_extract_refuses_members_escaping_the_folder(tmp_path):
    for member in ("../escaped.txt", "/tmp/absolute-escape.txt", "link"):
        archive = tmp_path / "evil.tar"
        with tarfile.open(archive, "w") as tar:
            info = tarfile.TarInfo(member)
            if member == "link":
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(info, io.BytesIO(b""))
        (tmp_path / "out").mkdir(exist_ok=True)
        with pytest.raises(RuntimeError, match=f"Refusing to extract .*evil.tar: member '{member}'"):
            dutils.extract_archive(archive, tmp_path / "out")
        assert os.listdir(tmp_path / "out") == [] and not (tmp_path / "escaped.txt").exists()


def test_cifar10_download(server, tmp_path, closed_port_url):
    url, served = server
    files, first = cifar_batches()
    archive = tar_gz(files, "cifar-10-batches-py")
    (served / "cifar-10-python.tar.gz").write_bytes(archive)
    root = tmp_path / "root"
    cifar = cifar_class(files, url=url + "cifar-10-python.tar.gz", tgz_md5=md5(archive))
    ds = cifar(root, download=True)
    np.testing.assert_array_equal(ds.data[:4], first)
    (served / "cifar-10-python.tar.gz").unlink()
    assert len(cifar(root, download=True)) == 20  # already there: nothing fetched

    with pytest.raises(RuntimeError, match="File not found or corrupted"):
        (served / "cifar-10-python.tar.gz").write_bytes(archive)
        cifar_class(files, url=url + "cifar-10-python.tar.gz", tgz_md5="0" * 32)(tmp_path / "other", download=True)
    offline = cifar_class(files, url=closed_port_url + "cifar-10-python.tar.gz")
    with pytest.raises(RuntimeError) as error:
        offline(tmp_path / "offline", download=True)
    message = str(error.value)
    assert "Could not download http://127.0.0.1" in message and "Without network access" in message
    assert f"place it in {tmp_path / 'offline'}" in message and "data_batch_1" in message


def test_mnist_download_tries_the_mirrors(server, tmp_path, closed_port_url):
    url, served = server
    files, arrays = mnist_files()
    resources = []
    for name, content in files.items():
        (served / (name + ".gz")).write_bytes(gzip.compress(content))
        resources.append((name + ".gz", md5((served / (name + ".gz")).read_bytes())))
    mnist = type("MNIST", (datasets.MNIST,), {"mirrors": [closed_port_url, url], "resources": resources})
    ds = mnist(tmp_path, download=True)
    assert ds.targets.tolist() == arrays["train"][1].tolist()
    assert sorted(os.listdir(tmp_path / "MNIST" / "raw")) == sorted(list(files) + [n for n, _ in resources])

    offline = type("MNIST", (datasets.MNIST,), {"mirrors": [closed_port_url], "resources": resources})
    with pytest.raises(RuntimeError) as error:
        offline(tmp_path / "offline", download=True)
    message = str(error.value)
    assert message.startswith("Error downloading train-images-idx3-ubyte.gz: could not fetch http://127.0.0.1")
    assert f"place them (gzipped or not) in {tmp_path / 'offline' / 'MNIST' / 'raw'}" in message
