"""save/load: exact round trips, torch.save's zip format and the safetensors layout, atomic writes, and torch.save
files. Round trips through PyTorch itself are in test_serialization_torch_format.py.

Damaged and hostile files are in test_serialization_bad_input.py. The torch.save fixtures come from
tests/fixtures/make_torch_fixtures.py; expected.json holds what torch.load reads from them, as that
script's ``describe``. Tests that need torch or safetensors skip without them.
"""
import contextlib
import errno
import importlib.util
import io
import json
import math
import os
import pathlib
import pickle
import pickletools
import signal
import stat
import struct
import tempfile
import tracemalloc
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import minitorch
from minitorch import serialization
from minitorch.serialization import load, save
from torch_answers import torch_answer
from locations import FIXTURES

_spec = importlib.util.spec_from_file_location("make_torch_fixtures", FIXTURES / "make_torch_fixtures.py")
make_torch_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_torch_fixtures)
describe = make_torch_fixtures.describe
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
DTYPES = [minitorch.bool, minitorch.uint8, minitorch.int8, minitorch.int16, minitorch.int32, minitorch.int64,
          minitorch.float16, minitorch.float32, minitorch.float64]


def parameter_class():
    try:
        from minitorch.nn import Parameter
    except ImportError:
        return None
    return Parameter


def saved_zip(obj) -> bytes:
    buf = io.BytesIO()
    save(obj, buf)
    return buf.getvalue()


def round_trip(obj):
    return load(io.BytesIO(saved_zip(obj)))


def saved_safetensors(obj) -> bytes:
    """The bytes of ``obj`` saved to a ``.safetensors`` path."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "obj.safetensors"
        save(obj, path)
        return path.read_bytes()


def special_values(dtype) -> np.ndarray:
    """Eight values of ``dtype`` at its edges (nan, -0.0, infinities, extremes)."""
    if dtype is minitorch.bool:
        return np.array([True, False] * 4)
    if dtype.is_floating_point:
        info = np.finfo(dtype.np)
        return np.array([np.nan, -0.0, np.inf, -np.inf, info.tiny, info.max, info.min, 1 / 3], dtype.np)
    info = np.iinfo(dtype.np)
    return np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1, 7, 42], dtype.np)


def header_of(data: bytes) -> tuple[dict, int]:
    n = int.from_bytes(data[:8], "little")
    return json.loads(data[8:8 + n]), 8 + n


def safetensors_bytes(header: dict, data: bytes) -> bytes:
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + data


@contextlib.contextmanager
def traced_peak():
    """A list that holds, once the block ends, the most bytes it had allocated at once (numpy's arrays included)."""
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    peak = []
    try:
        yield peak
    finally:
        peak.append(tracemalloc.get_traced_memory()[1] - before)
        if not tracing:
            tracemalloc.stop()


# ---- round trips -------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".pt", ".safetensors"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype_round_trips_bit_exactly(dtype, suffix, tmp_path):
    grid = minitorch.from_numpy(special_values(dtype).reshape(2, 4))
    tensors = {"transposed": grid.t(), "scalar": minitorch.from_numpy(special_values(dtype)[5:6].reshape(())),
               "empty": minitorch.zeros(0, 3, dtype=dtype)}
    assert not tensors["transposed"].is_contiguous()
    save(tensors, tmp_path / f"t{suffix}")
    out = load(tmp_path / f"t{suffix}")
    for key, t in tensors.items():
        got = out[key]
        assert got.dtype is dtype and got.shape == t.shape and got.is_contiguous() and got.is_leaf
        assert got.numpy().tobytes() == np.ascontiguousarray(t.numpy()).tobytes()
        assert not np.shares_memory(got.numpy(), t.numpy())


def test_checkpoint_round_trips_keys_containers_and_numbers_exactly():
    sd = OrderedDict([("fc.weight", minitorch.randn(3, 2)), ("fc.bias", minitorch.zeros(3)),
                      ("bn.num_batches_tracked", minitorch.tensor(7))])
    sd._metadata = OrderedDict([("", {"version": 1}), ("bn", {"version": 2})])
    opt = {"state": {0: {"step": minitorch.tensor(2.0), "exp_avg": minitorch.randn(3, 2)},
                     1: {"step": minitorch.tensor(2.0)}},
           "param_groups": [{"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False,
                             "foreach": None, "params": [0, 1]}]}
    ckpt = {"epoch": 3, "model": sd, "optimizer": opt, "history": [1.5, 2, 2.0, -0.0, math.inf, math.nan, 10**30],
            "name": "run \u2713 \"quoted\"", (1, "a"): {2.5: None, True: "yes", None: [], (): ()},
            "tags": {"a", 3}, "shape": minitorch.Size([2, 3]), "dtype": minitorch.float16,
            "device": minitorch.device("cpu"), "empty": {}}
    out = round_trip(ckpt)
    assert describe(out) == describe(ckpt)
    assert type(out["model"]) is OrderedDict and out["model"]._metadata == sd._metadata
    assert list(out["optimizer"]["state"]) == [0, 1] and type(out["history"][1]) is int
    assert type(out["optimizer"]["param_groups"][0]["betas"]) is tuple and type(out["shape"]) is minitorch.Size
    assert out["dtype"] is minitorch.float16 and out["device"] == minitorch.device("cpu")


def test_requires_grad_and_tensor_identity():
    w = minitorch.tensor([1.0, 2.0], requires_grad=True)
    out = round_trip({"w": w, "again": w, "y": w * 2, "view": w.detach()[:1]})
    assert out["w"] is out["again"] and out["w"].requires_grad and out["w"].is_leaf
    assert out["y"].requires_grad and out["y"].is_leaf and out["y"].tolist() == [2.0, 4.0]
    assert not out["view"].requires_grad and out["view"].tolist() == [1.0]


def test_parameters_come_back_as_parameters():
    parameter = parameter_class()
    if parameter is None:
        pytest.skip("minitorch.nn.Parameter is not available")
    out = round_trip({"p": parameter(minitorch.ones(2)), "frozen": parameter(minitorch.ones(1), requires_grad=False)})
    assert type(out["p"]) is parameter and out["p"].requires_grad
    assert type(out["frozen"]) is parameter and not out["frozen"].requires_grad


def test_safetensors_refuses_unsupported_objects_and_cycles(tmp_path):
    with pytest.raises(TypeError, match=r"can't save numpy\.float64 at obj\['hist'\]\[1\]"):
        save({"hist": [1.0, np.float64(2.0)]}, tmp_path / "x.safetensors")
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match=r"contains itself at obj\[0\]"):
        save(loop, tmp_path / "x.safetensors")
    assert os.listdir(tmp_path) == []
    # a zip checkpoint pickles them, as torch.save does
    assert load(io.BytesIO(saved_zip({"hist": [1.0, np.float64(2.0)]})), weights_only=False)["hist"][1] == 2.0
    out = load(io.BytesIO(saved_zip(loop)))
    assert out[0] is out


def test_reads_binary_streams_that_cannot_seek():
    buf = io.BytesIO()
    save({"x": minitorch.arange(3)}, buf)

    class Stream:  # only read(), like a socket or an HTTP response
        read = io.BytesIO(buf.getvalue()).read

    assert load(Stream())["x"].tolist() == [0, 1, 2]


def test_mmap_maps_copy_on_write(tmp_path):
    path = tmp_path / "sd.pt"
    save({"w": minitorch.arange(6.0).reshape(2, 3), "i": minitorch.tensor([1, 2], dtype=minitorch.int16)}, path)
    before = path.read_bytes()
    out = load(path, mmap=True)
    assert out["w"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and out["i"].tolist() == [1, 2]
    out["w"].add_(1)
    assert out["w"].tolist()[0] == [1.0, 2.0, 3.0] and path.read_bytes() == before
    with pytest.raises(ValueError, match="mmap"):
        load(io.BytesIO(before), mmap=True)


# ---- the on-disk format ------------------------------------------------------------------------

def test_state_dict_file_is_a_plain_safetensors_file(tmp_path):
    sd = OrderedDict([("a.weight", minitorch.randn(2, 3)), ("a.mask", minitorch.tensor([True, False, True])),
                      ("a.half", minitorch.ones(3, dtype=minitorch.float16)), ("steps", minitorch.tensor(5)),
                      ("a.t", minitorch.arange(6.0, dtype=minitorch.float64).reshape(2, 3).t())])
    data = saved_safetensors(sd)
    header, start = header_of(data)
    assert start % 8 == 0 and data[8:start].rstrip(b" ").endswith(b"}")
    metadata = header.pop("__metadata__")
    assert metadata["format"] == "pt" and all(isinstance(v, str) for v in metadata.values())
    assert sorted(header) == sorted(sd)
    codes = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "I64": "<i8", "BOOL": "?"}
    end = 0
    for begin, key in sorted((info["data_offsets"][0], key) for key, info in header.items()):
        info = header[key]
        dt = np.dtype(codes[info["dtype"]])
        assert begin == end and begin % dt.itemsize == 0 and info["shape"] == list(sd[key].shape)
        end = info["data_offsets"][1]
        expected = np.ascontiguousarray(sd[key].numpy()).astype(dt)
        assert data[start + begin:start + end] == expected.tobytes()
    assert len(data) == start + end


def test_safetensors_package_reads_state_dicts_and_we_read_its_files(tmp_path):
    st = pytest.importorskip("safetensors.numpy")
    sd = {"w": minitorch.randn(2, 3), "n": minitorch.tensor(3), "b": minitorch.tensor([True])}
    save(sd, tmp_path / "sd.safetensors")
    arrays = st.load_file(tmp_path / "sd.safetensors")
    assert sorted(arrays) == sorted(sd) and all(np.array_equal(arrays[k], sd[k].numpy()) for k in sd)
    theirs = {"x": np.arange(5, dtype=np.int32), "y": np.eye(2)}
    st.save_file(theirs, tmp_path / "theirs.safetensors", metadata={"note": "plain"})
    out = load(tmp_path / "theirs.safetensors")
    assert type(out) is dict and sorted(out) == ["x", "y"]
    assert out["x"].dtype is minitorch.int32 and out["x"].tolist() == list(range(5))
    assert out["y"].tolist() == [[1, 0], [0, 1]]


def test_bfloat16_safetensors_load_as_bfloat16(tmp_path):
    values = np.array([1.5, -2.25, 2.0**100], np.float32)
    bf16 = (values.view(np.uint32) >> 16).astype("<u2")  # exact: these values fit in bfloat16
    header = {"b": {"dtype": "BF16", "shape": [3], "data_offsets": [0, 6]}}
    (tmp_path / "bf16.safetensors").write_bytes(safetensors_bytes(header, bf16.tobytes()))
    out = load(tmp_path / "bf16.safetensors")["b"]
    assert out.dtype is minitorch.bfloat16 and out.float().numpy().tobytes() == values.tobytes()


def test_torch_reads_a_minitorch_state_dict_through_safetensors(tmp_path):
    torch = pytest.importorskip("torch")
    st_torch = pytest.importorskip("safetensors.torch")
    sd = OrderedDict([("w", minitorch.randn(3, 2)), ("h", minitorch.randn(2).half()), ("n", minitorch.tensor(4))])
    save(sd, tmp_path / "sd.safetensors")
    theirs = st_torch.load_file(tmp_path / "sd.safetensors")
    for key, t in sd.items():
        assert theirs[key].dtype == getattr(torch, t.dtype.name) and np.array_equal(theirs[key].numpy(), t.numpy())


# ---- atomic writes -----------------------------------------------------------------------------

def test_interrupted_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pt"
    save({"epoch": 1, "w": minitorch.ones(3)}, path)
    old = path.read_bytes()
    packed = serialization._packed
    calls = []

    def fail_on_second_tensor(arr):
        calls.append(arr)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return packed(arr)

    monkeypatch.setattr(serialization, "_packed", fail_on_second_tensor)
    with pytest.raises(KeyboardInterrupt):
        save({"epoch": 2, "w": minitorch.zeros(3), "b": minitorch.zeros(2)}, path)
    with pytest.raises(pickle.PicklingError):
        save({"epoch": 2, "w": minitorch.zeros(3), "bad": lambda: 0}, path)
    assert len(calls) == 2 and path.read_bytes() == old and os.listdir(tmp_path) == ["ckpt.pt"]


def test_save_syncs_then_replaces_keeping_mode_and_symlinks(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pt"
    save({"v": 1}, path)
    os.chmod(path, 0o600)
    link = tmp_path / "latest.pt"
    link.symlink_to(path)
    events = []
    for fn in ("fsync", "replace"):
        real = getattr(os, fn)
        monkeypatch.setattr(os, fn, lambda *a, _real=real, _fn=fn: (events.append(_fn), _real(*a))[1])
    save({"v": 2}, link)
    assert events == ["fsync", "replace"]
    assert load(path) == {"v": 2} and link.is_symlink() and (path.stat().st_mode & 0o777) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pt", "latest.pt"]
    with pytest.raises(RuntimeError, match="Parent directory .*missing does not exist"):
        save({}, tmp_path / "missing" / "x.pt")


def test_killed_saves_leave_temporary_files_that_later_saves_delete(tmp_path):
    path = tmp_path / "ckpt.pt"
    save({"v": 1}, path)
    others = [tmp_path / ".other.pt.0123456789abcdef.minitorch-tmp", tmp_path / ".ckpt.pt.not-a-temp"]
    for other in others:
        other.write_bytes(b"x")
    ready, go = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child saves, and stops in the middle of writing its second tensor
        try:
            packed = serialization._packed
            calls = []

            def stall(arr):
                calls.append(arr)
                if len(calls) == 2:
                    os.write(go, b"!")
                    signal.pause()
                return packed(arr)

            serialization._packed = stall
            save({"big": minitorch.zeros(100_000), "small": minitorch.zeros(1)}, path)
        finally:
            os._exit(1)
    os.close(go)
    try:
        assert os.read(ready, 1) == b"!"
        [temp] = set(tmp_path.iterdir()) - {path, *others}
        assert temp.name.startswith(".ckpt.pt.") and temp.stat().st_size > 0
        save({"v": 2}, path)  # the child is alive: its file stays
        assert temp.exists()
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(ready)
    save({"v": 3}, path)
    assert not temp.exists() and load(path) == {"v": 3}
    assert sorted(tmp_path.iterdir()) == sorted([path, *others])


def test_a_temporary_file_deleted_before_it_was_locked_is_made_again(tmp_path, monkeypatch):
    flock = serialization.fcntl.flock
    deleted = []

    def another_save_deletes_it_first(fd, operation):
        if not deleted:
            [temp] = [p for p in tmp_path.iterdir() if p.name.endswith(".minitorch-tmp")]
            temp.unlink()
            deleted.append(temp)
        flock(fd, operation)

    monkeypatch.setattr(serialization.fcntl, "flock", another_save_deletes_it_first)
    save({"v": 1}, tmp_path / "ckpt.pt")
    assert deleted and load(tmp_path / "ckpt.pt") == {"v": 1} and os.listdir(tmp_path) == ["ckpt.pt"]


def test_saves_work_where_files_cannot_be_locked(tmp_path, monkeypatch):
    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(serialization.fcntl, "flock", no_locks)
    stale = tmp_path / ".ckpt.pt.0123456789abcdef.minitorch-tmp"
    stale.write_bytes(b"x")
    save({"v": 1}, tmp_path / "ckpt.pt")
    assert load(tmp_path / "ckpt.pt") == {"v": 1}
    assert stale.exists()  # without locks, a live save's temporary file looks like a dead one's


def test_save_to_a_pipe_writes_into_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the pipe holds the few bytes saved till they are read
    try:
        save({"w": minitorch.arange(3)}, fifo)
        received = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode) and os.listdir(tmp_path) == ["pipe"]
    assert load(io.BytesIO(received))["w"].tolist() == [0, 1, 2]


# ---- torch.save files, read without torch ---------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("map_location", [None, "cpu", minitorch.device("cpu"), {"cuda:0": "cpu"},
                                          lambda storage, location: storage],
                         ids=["none", "str", "device", "dict", "fn"])
def test_torch_fixtures_load_with_the_values_torch_saved(name, map_location):
    assert describe(load(FIXTURES / name, map_location=map_location)) == EXPECTED[name]


def test_torch_state_dict_geometry_and_parameters():
    for fmt in ("zip", "legacy"):
        sd = load(FIXTURES / f"state_dict_{fmt}.pt")
        assert type(sd) is OrderedDict and sd._metadata[""] == {"version": 1} and "1" in sd._metadata
        assert sd["1.num_batches_tracked"].dtype is minitorch.int64 and sd["1.num_batches_tracked"].item() == 2
        assert sd["transposed"].tolist() == np.arange(12.0).reshape(3, 4).T.tolist()
        assert sd["shared_a"].tolist() == [1.0, 1.5, 2.0, 2.5] and sd["shared_b"].tolist() == [2.5, 3.0, 3.5, 4.0, 4.5]
        assert sd["scalar"].shape == () and sd["scalar"].item() == 3.25
        assert (sd["half"].dtype, sd["double"].dtype) == (minitorch.float16, minitorch.float64)
        assert [k for k, t in sd.items() if not t.is_contiguous()] == ["transposed"]
        assert not any(t.requires_grad for t in sd.values())
        sd["shared_a"].add_(1)  # as in torch, tensors that shared a storage still do
        assert sd["shared_b"].tolist() == [3.5, 3.0, 3.5, 4.0, 4.5]
    ckpt = load(FIXTURES / "optimizer_zip.pt")
    assert ckpt["param"].requires_grad and not ckpt["frozen"].requires_grad and ckpt["leaf"].requires_grad
    parameter = parameter_class()
    if parameter is not None:
        assert type(ckpt["param"]) is parameter and type(ckpt["frozen"]) is parameter
        assert type(ckpt["leaf"]) is not parameter


def test_malicious_pickle_is_refused_without_running(tmp_path, monkeypatch):
    with zipfile.ZipFile(FIXTURES / "malicious_zip.pt") as z:
        pkl = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
    assert any(arg == "posix system" for _, arg, _ in pickletools.genops(pkl))  # the payload is there
    monkeypatch.chdir(tmp_path)
    with pytest.raises(pickle.UnpicklingError, match=r"GLOBAL posix.system was not an allowed global by default"):
        load(FIXTURES / "malicious_zip.pt")
    assert not (tmp_path / make_torch_fixtures.MARKER).exists()
    # as in PyTorch, weights_only=False trusts the file: its code runs (here it only creates the marker file)
    out = load(FIXTURES / "malicious_zip.pt", weights_only=False)
    assert (tmp_path / make_torch_fixtures.MARKER).exists() and out["weight"].tolist() == [1.0, 1.0]


# Hand-made torch checkpoints, from protocol-2 pickle opcodes, for files torch itself never writes.
def glob(qualname):
    return b"c" + qualname.replace(" ", "\n").encode() + b"\n"


def text(s):
    return b"X" + struct.pack("<I", len(s.encode())) + s.encode()


def num(n):
    return pickle.dumps(n, protocol=2)[2:-1]  # the opcode for n alone


def tup(*items):
    return b"(" + b"".join(items) + b"t"


def call(func: bytes, *args: bytes) -> bytes:
    """Opcodes that call what ``func`` pushes with the values ``args`` push."""
    return func + tup(*args) + b"R"


def tensor_pickle(size, stride, offset=0, storage="FloatStorage", numel=4, rebuild="torch._utils _rebuild_tensor_v2"):
    """Opcodes that rebuild a tensor viewing storage record 0."""
    pid = tup(text("storage"), glob(f"torch {storage}"), text("0"), text("cpu"), num(numel)) + b"Q"
    hooks = glob("collections OrderedDict") + b")R"
    return glob(rebuild) + tup(pid, num(offset), tup(*map(num, size)), tup(*map(num, stride)), b"\x89", hooks) + b"R"


FLOATS = np.arange(4, dtype="<f4").tobytes()


def dict_pickle(value: bytes, protocol: int = 2) -> bytes:
    """A pickle of ``{'w': <value's opcodes>}``."""
    return bytes([pickle.PROTO[0], protocol]) + b"}" + text("w") + value + b"s."


def torch_zip(value: bytes, data=FLOATS, byteorder="little",
              compression=zipfile.ZIP_STORED, protocol: int = 2) -> bytes:
    """A zip checkpoint ``{'w': <value's opcodes>}`` whose storage record 0 holds ``data`` (if not None)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        z.writestr("archive/data.pkl", dict_pickle(value, protocol))
        z.writestr("archive/byteorder", byteorder)
        z.writestr("archive/version", "3\n")
        if data is not None:
            z.writestr("archive/data/0", data)
    return buf.getvalue()


def test_hand_made_torch_zips():
    assert load(io.BytesIO(torch_zip(tensor_pickle((2, 2), (1, 2)))))["w"].tolist() == [[0.0, 2.0], [1.0, 3.0]]
    assert load(io.BytesIO(torch_zip(tensor_pickle((2,), (2,), offset=1))))["w"].tolist() == [1.0, 3.0]
    big = np.array([1.5, -2.0, 4.0], ">f4").tobytes()
    out = load(io.BytesIO(torch_zip(tensor_pickle((3,), (1,), numel=3), data=big, byteorder="big")))["w"]
    assert out.tolist() == [1.5, -2.0, 4.0]
    bf16 = np.array([0x3FC0, 0xC010], "<u2").tobytes()  # 1.5, -2.25
    out = load(io.BytesIO(torch_zip(tensor_pickle((2,), (1,), storage="BFloat16Storage", numel=2), data=bf16)))["w"]
    assert out.dtype is minitorch.bfloat16 and out.tolist() == [1.5, -2.25]


def torch_legacy(value: bytes, data: bytes | None, numel: int | None = None, protocol: int = 2) -> bytes:
    """A legacy checkpoint ``{'w': <value's opcodes>}`` whose FloatStorage '0' holds ``data`` (``numel`` elements),
    or that has no storage if ``data`` is None."""
    sys_info = {"protocol_version": 1001, "little_endian": True, "type_sizes": {"short": 2, "int": 4, "long": 8}}
    head = b"".join(pickle.dumps(x, protocol=2) for x in (0x1950A86A20F9469CFC6C, 1001, sys_info))
    if data is None:
        return head + dict_pickle(value, protocol) + pickle.dumps([], protocol=2)
    count = len(data) // 4 if numel is None else numel
    return (head + dict_pickle(value, protocol) + pickle.dumps(["0"], protocol=2)
            + count.to_bytes(8, "little") + data)


def test_torch_tensors_are_views_of_their_storage():
    with traced_peak() as peak:
        expanded = load(io.BytesIO(torch_zip(tensor_pickle((20000, 20000), (0, 0), numel=1))))["w"]
    assert expanded.shape == (20000, 20000) and expanded[19999, 123].item() == 0.0 and peak[0] < 100_000
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single memory"):
        expanded.add_(1)
    transposed = load(io.BytesIO(torch_zip(tensor_pickle((2, 2), (1, 2)))))["w"]
    transposed.mul_(10)  # a view that does not overlap itself is writeable
    assert transposed.tolist() == [[0.0, 20.0], [10.0, 30.0]]


@pytest.mark.parametrize("fmt", ["minitorch", "torch_zip", "torch_legacy"])
def test_loading_takes_about_the_checkpoint_size_of_memory(fmt, tmp_path):
    n = 6_000_000
    arr = np.arange(n, dtype="<f4")
    if fmt == "minitorch":
        save({"w": minitorch.from_numpy(arr)}, tmp_path / "ckpt.pt")
    else:
        make = torch_zip if fmt == "torch_zip" else torch_legacy
        (tmp_path / "ckpt.pt").write_bytes(make(tensor_pickle((n,), (1,), numel=n), data=arr.tobytes()))
    with traced_peak() as peak:
        out = load(tmp_path / "ckpt.pt")
    assert np.array_equal(out["w"].numpy(), arr) and peak[0] < arr.nbytes + 2**21


# ---- live PyTorch -----------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"_use_new_zipfile_serialization": False},
                                     {"_use_new_zipfile_serialization": False, "pickle_protocol": 4}],
                         ids=["zip", "legacy", "legacy_protocol4"])
def test_fresh_torch_save_files_load(options, tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    base = torch.randn(2, 3, 4)
    obj = {"permuted": base.permute(2, 0, 1), "strided": base[:, ::2, 1:], "expanded": torch.ones(3, 1).expand(3, 4),
           "p": torch.nn.Parameter(torch.randn(2)), "state": torch.nn.Linear(2, 2).state_dict(),
           "ints": [torch.arange(3, dtype=d) for d in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)],
           "misc": (torch.tensor(True), torch.randn(2).half(), torch.randn(2).double(), torch.zeros(0, 2))}
    torch.save(obj, tmp_path / "fresh.pt", **options)
    buf = io.BytesIO()
    torch.save(obj, buf, **options)
    expected = describe(torch.load(tmp_path / "fresh.pt", weights_only=False))  # torch's own can't read protocol 4
    assert describe(load(tmp_path / "fresh.pt")) == expected == describe(load(io.BytesIO(buf.getvalue())))
    bf16 = torch.tensor([1.5, -2.25, 0.1], dtype=torch.bfloat16)
    torch.save({"bf16": bf16}, tmp_path / "bf16.pt", **options)
    loaded = load(tmp_path / "bf16.pt")["bf16"]
    assert loaded.dtype is minitorch.bfloat16 and loaded.tolist() == bf16.tolist()


def test_torch_reads_the_hand_made_zips_as_we_do():
    torch = pytest.importorskip("torch")
    data = torch_zip(tensor_pickle((2, 2), (1, 2)))
    assert torch.load(io.BytesIO(data), weights_only=True)["w"].tolist() == load(io.BytesIO(data))["w"].tolist()


# ---- the allow-list of globals for PyTorch checkpoints (safe_globals) -------------------------------------

class Config:  # a class a checkpoint may hold once the user allows it
    def __init__(self, n, name):
        self.n, self.name = n, name


def _torch_checkpoint_with_config(torch):
    """The bytes torch.save writes for a dict holding a Config and a tensor."""
    buffer = io.BytesIO()
    torch.save({"cfg": Config(3, "adam"), "w": torch.ones(2)}, buffer)
    return np.frombuffer(buffer.getvalue(), np.uint8).copy()


def test_safe_globals_allow_a_class_in_a_torch_checkpoint(tmp_path):
    path = tmp_path / "with_config.pth"
    path.write_bytes(torch_answer(_torch_checkpoint_with_config).tobytes())
    with pytest.raises(pickle.UnpicklingError, match=r"Please use `torch.serialization.add_safe_globals\(\[\S*Config\]\)`"):
        minitorch.load(path)
    with minitorch.serialization.safe_globals([Config]):
        loaded = minitorch.load(path)
    assert (loaded["cfg"].n, loaded["cfg"].name, loaded["w"].tolist()) == (3, "adam", [1.0, 1.0])
    with pytest.raises(pickle.UnpicklingError):  # allowed inside the block only
        minitorch.load(path)
    minitorch.serialization.add_safe_globals([Config])
    try:
        assert minitorch.serialization.get_safe_globals() == [Config]
        assert minitorch.load(path)["cfg"].n == 3
    finally:
        minitorch.serialization.clear_safe_globals()
    assert minitorch.serialization.get_safe_globals() == []
