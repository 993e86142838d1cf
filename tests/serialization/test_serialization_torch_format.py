"""Checkpoints both ways with PyTorch: minitorch.save writes what torch.load reads and the reverse.

A resnet18 and its SGD(momentum) state saved by one library resume in the other (the same architecture built
on torch from minitorch.models' source by benchmarks/models_in_torch.py) with the same outputs and the same
next step; whole pickled objects load with weights_only=False only, refused by default with PyTorch's text.
"""
import importlib.util
import io
import pickle

import numpy as np
import pytest

import minitorch
import minitorch.models
from minitorch import serialization
from locations import ROOT

torch = pytest.importorskip("torch")

_spec = importlib.util.spec_from_file_location("models_in_torch", ROOT / "benchmarks" / "models_in_torch.py")
models_in_torch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(models_in_torch)

LIBS = {"minitorch": minitorch, "torch": torch}
X = np.random.default_rng(0).standard_normal((2, 3, 32, 32)).astype(np.float32)
TARGET = np.array([3, 7])


def resnet18(lib):
    models = minitorch.models if lib is minitorch else models_in_torch.torch_models()
    return models.resnet18(weights=None)


def sgd(lib, model):
    return lib.optim.SGD(model.parameters(), lr=0.001, momentum=0.9, weight_decay=1e-4)


def train_step(lib, model, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = lib.nn.functional.cross_entropy(model(lib.from_numpy(X)), lib.from_numpy(TARGET))
    loss.backward()
    optimizer.step()


def outputs(lib, model) -> np.ndarray:
    model.eval()
    with lib.no_grad():
        return model(lib.from_numpy(X)).numpy()


def numpy_state(state_dict) -> dict:
    return {k: v.numpy() for k, v in state_dict.items()}


@pytest.mark.parametrize("writer, reader", [("minitorch", "torch"), ("torch", "minitorch")])
def test_resnet18_and_its_optimizer_resume_in_the_other_library(writer, reader, tmp_path):
    w, r = LIBS[writer], LIBS[reader]
    model = resnet18(w)
    optimizer = sgd(w, model)
    train_step(w, model, optimizer)
    w.save({"epoch": 1, "model": model.state_dict(), "optimizer": optimizer.state_dict()}, tmp_path / "ckpt.pt")

    ckpt = r.load(tmp_path / "ckpt.pt", weights_only=True)
    twin = resnet18(r)
    twin.load_state_dict(ckpt["model"])
    twin_optimizer = sgd(r, twin)
    twin_optimizer.load_state_dict(ckpt["optimizer"])
    assert ckpt["epoch"] == 1 and list(ckpt["model"]) == list(model.state_dict())
    assert all(np.array_equal(a, b) for a, b in zip(numpy_state(twin.state_dict()).values(),
                                                    numpy_state(model.state_dict()).values()))
    expected = outputs(w, model)  # the same weights; the libraries' convolutions round differently
    np.testing.assert_allclose(outputs(r, twin), expected, rtol=1e-4, atol=1e-5 * np.abs(expected).max())

    # The next step, from the same gradients (the libraries' backward passes round differently).
    for p, q in zip(twin.parameters(), model.parameters()):
        assert np.array_equal(twin_optimizer.state[p]["momentum_buffer"].numpy(),
                              optimizer.state[q]["momentum_buffer"].numpy())
        p.grad = r.from_numpy(np.cos(p.detach().numpy()))
        q.grad = w.from_numpy(np.cos(q.detach().numpy()))
    twin_optimizer.step()
    optimizer.step()
    for a, b in zip(twin.parameters(), model.parameters()):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)


def test_torch_reads_minitorch_values_and_types(tmp_path):
    sd = minitorch.nn.BatchNorm1d(3).state_dict()
    obj = {"sd": sd, "p": minitorch.nn.Parameter(minitorch.arange(3.0)), "t": minitorch.arange(6.0).reshape(2, 3).t(),
           "half": minitorch.ones(2, dtype=minitorch.float16), "mask": minitorch.tensor([True, False]),
           "i": minitorch.tensor([1, -2], dtype=minitorch.int32), "grad": minitorch.ones(1, requires_grad=True),
           "size": minitorch.Size([2, 3]), "dtype": minitorch.float64, "misc": [1, 2.5, "s", None, (True,)]}
    minitorch.save(obj, tmp_path / "x.pt")
    out = torch.load(tmp_path / "x.pt", weights_only=True)
    assert type(out["sd"]).__name__ == "OrderedDict" and out["sd"]._metadata == sd._metadata
    assert type(out["p"]) is torch.nn.Parameter and out["p"].requires_grad and out["grad"].requires_grad
    assert out["t"].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]] and out["t"].is_contiguous()
    assert (out["half"].dtype, out["mask"].dtype, out["i"].dtype) == (torch.float16, torch.bool, torch.int32)
    assert out["size"] == torch.Size([2, 3]) and out["dtype"] is torch.float64
    assert out["misc"] == [1, 2.5, "s", None, (True,)]
    mapped = torch.load(tmp_path / "x.pt", weights_only=True, mmap=True)  # needs torch's alignment
    assert mapped["i"].tolist() == [1, -2]


def test_zip_layout_is_torchs(tmp_path):
    import zipfile
    minitorch.save({"a": minitorch.ones(3), "b": minitorch.zeros(5, dtype=minitorch.int64)}, tmp_path / "x.pt")
    with zipfile.ZipFile(tmp_path / "x.pt") as z:
        names = z.namelist()
        assert names == ["archive/data.pkl", "archive/.format_version", "archive/.storage_alignment",
                         "archive/byteorder", "archive/data/0", "archive/data/1", "archive/version",
                         "archive/.data/serialization_id"]
        assert z.read("archive/byteorder") == b"little" and z.read("archive/data/1") == bytes(40)
        assert z.read("archive/data.pkl")[:2] == b"\x80\x02"
        data = (tmp_path / "x.pt").read_bytes()
        for info in z.infolist():
            start = info.header_offset + 30 + len(info.filename) + int.from_bytes(data[info.header_offset + 28:
                                                                                       info.header_offset + 30], "little")
            assert start % 64 == 0 and data[start:start + info.file_size] == z.read(info)


def torch_error(path) -> str:
    """torch.load's error for ``path``, and the line by which minitorch.load's names the file."""
    with pytest.raises(pickle.UnpicklingError) as refused:
        torch.load(path, weights_only=True)
    return f"{refused.value} minitorch.load: {str(path)!r} was not loaded."


@pytest.mark.parametrize("lib", ["minitorch", "torch"])
def test_whole_models_load_only_with_weights_only_false(lib, tmp_path):
    lib = LIBS[lib]
    model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.ReLU())
    path = tmp_path / "whole.pt"
    lib.save(model, path)
    message = torch_error(path)
    assert "GLOBAL " + ("minitorch" if lib is minitorch else "torch") + ".nn." in message
    with pytest.raises(pickle.UnpicklingError) as refused:
        minitorch.load(path)
    assert str(refused.value) == message
    if lib is minitorch:
        loaded = minitorch.load(path, weights_only=False)
        assert type(loaded) is type(model) and type(loaded[0]) is minitorch.nn.Linear
        x = minitorch.randn(4, 3)
        assert np.array_equal(loaded(x).detach().numpy(), model(x).detach().numpy())


def test_resnet18_saved_whole_loads_with_weights_only_false(tmp_path):
    model = resnet18(minitorch)
    minitorch.save(model, tmp_path / "model.pt")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL minitorch.models.resnet.ResNet was not an allowed"):
        minitorch.load(tmp_path / "model.pt")
    loaded = minitorch.load(tmp_path / "model.pt", weights_only=False)
    assert np.array_equal(outputs(minitorch, loaded), outputs(minitorch, model))


@pytest.mark.parametrize("lib", ["minitorch", "torch"])
def test_numpy_arrays_as_torch_save_writes_them(lib, tmp_path):
    array = np.sin(np.arange(12.0)).reshape(3, 4)
    LIBS[lib].save(array, tmp_path / "a.pt")
    with pytest.raises(pickle.UnpicklingError) as refused:
        minitorch.load(tmp_path / "a.pt")
    assert str(refused.value) == torch_error(tmp_path / "a.pt")
    for load in (minitorch.load, torch.load):
        assert np.array_equal(load(tmp_path / "a.pt", weights_only=False), array)


class Scale:
    """A user's class, allowed in weights_only loads by add_safe_globals."""

    def __init__(self, factor):
        self.factor = factor


def test_safe_globals_allow_a_users_class(tmp_path):
    buf = io.BytesIO()
    minitorch.save({"scale": Scale(minitorch.tensor([2.0]))}, buf)
    data = buf.getvalue()
    with pytest.raises(pickle.UnpicklingError, match=f"GLOBAL {__name__}.Scale was not an allowed"):
        minitorch.load(io.BytesIO(data))
    with serialization.safe_globals([Scale]):
        assert minitorch.load(io.BytesIO(data))["scale"].factor.tolist() == [2.0]
        with torch.serialization.safe_globals([Scale]):
            assert torch.load(io.BytesIO(data), weights_only=True)["scale"].factor.tolist() == [2.0]
    with pytest.raises(pickle.UnpicklingError):
        minitorch.load(io.BytesIO(data))
