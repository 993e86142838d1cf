"""load given bad input: damaged, truncated and hostile files (paths that save refuses are in
test_serialization_paths.py, files that try to run code in test_serialization_malicious.py).

A damaged file must fail with a RuntimeError that names it, having allocated little more memory than
the file's own size, whatever sizes it claims.
"""
import collections
import contextlib
import io
import pickle
import re
import time
import zipfile

import numpy as np
import pytest

import minitorch
from minitorch._torch_pickle import LEGACY_SIGNATURE
from minitorch.serialization import load
from test_serialization import (FIXTURES, FLOATS, call, glob, header_of, num, safetensors_bytes, saved_safetensors,
                                tensor_pickle, text, torch_legacy, torch_zip, traced_peak, tup)

GOOD = saved_safetensors({"w": minitorch.arange(4.0), "n": minitorch.tensor(2)})
GOOD_DATA = len(GOOD) - header_of(GOOD)[1]
DEEP = b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
ZIP = r"\(a PyTorch zip checkpoint\)"


def retagged(data: bytes, edit) -> bytes:
    """``data`` with its header passed through ``edit``."""
    header, start = header_of(data)
    edit(header)
    return safetensors_bytes(header, data[start:])


def with_record_size(data: bytes, size: int) -> bytes:
    """The zip ``data`` with the size of its last record, as its central directory gives it, set to ``size``."""
    at = data.rindex(b"PK\x01\x02") + 24
    return data[:at] + size.to_bytes(4, "little") + data[at + 4:]


def encoded(times: int) -> bytes:
    """Opcodes that apply _codecs.encode(..., 'hex') ``times`` times to b'a': 2**times bytes from a few."""
    value = glob("_codecs encode") + tup(text("a"), text("latin1")) + b"R"
    for _ in range(times):
        value = glob("_codecs encode") + tup(value, text("hex")) + b"R"
    return value


DAMAGED = {
    "empty": (b"", "is empty"),
    "short": (b"abc", r"is too short to be a checkpoint \(3 bytes\)"),
    "text": (b"epoch 3: loss 0.25\n" * 4, "is not a minitorch, safetensors or PyTorch checkpoint"),
    "random": (np.random.default_rng(0).bytes(300), "is not a minitorch, safetensors or PyTorch checkpoint"),
    "cut_data": (GOOD[:-10], (f"is truncated: the header says {GOOD_DATA} bytes of tensor data but "
                              f"{GOOD_DATA - 10} are present")),
    "cut_header": (GOOD[:40], "is truncated: the header says it is"),
    "bad_json": (GOOD.replace(b'"dtype":', b'"dtype";', 1), "is corrupted: its header is not valid JSON"),
    "deep_json": (len(DEEP).to_bytes(8, "little") + DEEP,
                  "is corrupted: its header nests deeper than Python's recursion limit"),
    "trailing": (GOOD + b"\0" * 5, "is corrupted: 5 unexpected bytes follow"),
    "offsets": (retagged(GOOD, lambda h: h["w"].update(data_offsets=[0, 8])),
                r"is corrupted: tensor 'w' has data_offsets \[0, 8\]"),
    "dtype": (retagged(GOOD, lambda h: h["w"].update(dtype="U16")),
              "holds tensor 'w' of dtype U16, which minitorch does not support"),
    "entry": (retagged(GOOD, lambda h: h["w"].update(shape=[-4])),
              "is corrupted: the header entry of tensor 'w' is malformed"),
    "huge_dim": (safetensors_bytes({"x": {"dtype": "F32", "shape": [2**70, 0], "data_offsets": [0, 0]}}, b""),
                 r"holds tensor 'x' of shape \[1180591620717411303424, 0\]: more bytes than numpy can address"),
    "65_dims": (safetensors_bytes({"x": {"dtype": "F32", "shape": [1] * 65, "data_offsets": [0, 4]}}, FLOATS[:4]),
                "holds tensor 'x' with 65 dimensions: numpy arrays have at most 64"),
    "object": (retagged(GOOD, lambda h: h["__metadata__"].update(minitorch='{"version":1,"object":{"tensor":"z"}}')),
               "is corrupted: its saved object structure is invalid"),
    "deep_object": (retagged(GOOD, lambda h: h["__metadata__"].update(
                        minitorch='{"version":1,"object":' + '{"list":[' * 10_000 + "]}" * 10_000 + "}")),
                    r"is corrupted: its saved object structure is invalid \(RecursionError"),
    "version": (retagged(GOOD, lambda h: h["__metadata__"].update(minitorch='{"version":9,"object":1}')),
                r"was written by a newer minitorch \(format version 9\)"),
    "torch_zip_cut": ((FIXTURES / "state_dict_zip.pt").read_bytes()[:3000],
                      "looks like a PyTorch zip checkpoint but is truncated or corrupted"),
    "torch_legacy_cut": ((FIXTURES / "state_dict_legacy.pt").read_bytes()[:-100],
                         (r"\(a PyTorch legacy checkpoint\) is truncated: it ends inside storage '\d+': 8 bytes "
                          "expected, 7 present")),
    "view_past_storage": (torch_zip(tensor_pickle((20000, 20000), (0, 1), numel=1)),
                          (rf"{ZIP} is corrupted: a tensor with offset 0, size \(20000, 20000\) and stride \(0, 1\) "
                           "reaches element 19999 of a storage of 1 elements")),
    "view_too_big": (torch_zip(tensor_pickle((2**31, 2**31), (0, 0), numel=1)),
                     rf"{ZIP} holds a tensor of shape \[2147483648, 2147483648\]: more bytes than numpy can address"),
    "view_65_dims": (torch_zip(tensor_pickle((1,) * 65, (1,) * 65, numel=1)),
                     f"{ZIP} holds a tensor with 65 dimensions: numpy arrays have at most 64"),
    "record_claim": (with_record_size(torch_zip(tensor_pickle((4,), (1,))), 2**31),
                     (rf"{ZIP} is corrupted: its records claim more bytes than the file's \d+ \(record "
                      r"'archive/data/0' claims 2147483648\)")),
    "zip_bomb": (torch_zip(tensor_pickle((2**21,), (1,), numel=2**21), bytes(2**23), compression=zipfile.ZIP_DEFLATED),
                 (rf"{ZIP} is corrupted: its records claim more bytes than the file's \d+ \(record "
                  r"'archive/data/0' claims 8388608\)")),
    "storage_claim": (torch_zip(tensor_pickle((4,), (1,), numel=2**40)),
                      (f"{ZIP} is corrupted: a FloatStorage of 1099511627776 elements needs 4398046511104 bytes but "
                       "its data holds 16")),
    "legacy_count_claim": (torch_legacy(tensor_pickle((4,), (1,)), FLOATS, numel=2**40),
                           (r"\(a PyTorch legacy checkpoint\) is truncated: it ends inside storage '0': 4398046511104 "
                            "bytes expected, 16 present")),
    "legacy_frame_claim": (torch_legacy(tensor_pickle((4,), (1,)), FLOATS).replace(
                               b"\x80\x02}X", b"\x80\x04\x95" + (2**40).to_bytes(8, "little") + b"}X", 1),
                           r"\(a PyTorch legacy checkpoint\) is truncated: it ends inside a pickle"),
}


@pytest.mark.parametrize("case", DAMAGED)
def test_damaged_files_raise_errors_naming_the_file(case, tmp_path):
    data, problem = DAMAGED[case]
    path = tmp_path / f"{case}.pt"
    path.write_bytes(data)
    with traced_peak() as peak:
        with pytest.raises(RuntimeError, match=f"^minitorch.load: {re.escape(repr(str(path)))} {problem}"):
            load(path)
        with pytest.raises(RuntimeError, match=f"^minitorch.load: <BytesIO> {problem}"):
            load(io.BytesIO(data))
    assert peak[0] < len(data) + 2**20


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.pt"):
        load(tmp_path / "nope.pt")


def test_truncated_legacy_checkpoints_are_reported_as_truncated():
    data = (FIXTURES / "state_dict_legacy.pt").read_bytes()
    for n in range(LEGACY_SIGNATURE.match(data).end(), len(data), 3):  # shorter, it is not recognizably one
        with pytest.raises(RuntimeError, match=r"^minitorch.load: <BytesIO> \(a PyTorch legacy checkpoint\) is "
                                               "truncated: it ends inside "):
            load(io.BytesIO(data[:n]))


@pytest.mark.parametrize("value, data, problem", [
    (tensor_pickle((2, 2), (4, 1)), b"\0" * 16, "reaches element 5 of a storage of 4 elements"),
    (tensor_pickle((5,), (1,)), b"\0" * 16, "reaches element 4 of a storage of 4 elements"),
    (tensor_pickle((2,), (-1,)), b"\0" * 16, "invalid tensor geometry"),
    (tensor_pickle((2,), (1,), numel=5), b"\0" * 16, "FloatStorage of 5 elements needs 20 bytes but its data holds 16"),
    (tensor_pickle((2,), (1,)), None, "There is no item named 'archive/data/0'"),
], ids=["past_end", "too_long", "negative_stride", "short_record", "no_record"])
def test_hand_made_torch_zips_that_are_refused(value, data, problem):
    with pytest.raises(RuntimeError, match=f"^minitorch.load: <BytesIO> .*{re.escape(problem)}"):
        load(io.BytesIO(torch_zip(value, data)))


@pytest.mark.parametrize("value, problem", [
    (glob("torch float32") + b"N}" + text("name") + text("evil") + b"s\x86b", "BUILD of a dtype is not allowed"),
    (call(glob("collections OrderedDict")) + b"}" + text("__setstate__") + glob("torch Size") + b"sb",
     "BUILD may set only plain attributes of an OrderedDict, not special names such as __setstate__"),
    (call(call(glob("collections OrderedDict"))), "only the globals the file names may be called, not a OrderedDict"),
    (encoded(24), "_codecs.encode may only turn latin-1 text into bytes, not apply 'hex' to b'a'"),
], ids=["build", "build_setstate", "call_an_object", "codec_growth"])
def test_what_the_weights_only_unpickler_refuses(value, problem):
    data = torch_zip(value, None)
    with traced_peak() as peak:
        with pytest.raises(pickle.UnpicklingError) as refused:
            load(io.BytesIO(data))
    assert peak[0] < len(data) + 2**20
    assert str(refused.value).startswith("Weights only load failed. In PyTorch 2.6, we changed the default value")
    assert f"WeightsUnpickler error: {problem}" in str(refused.value)
    assert str(refused.value).endswith(".html. minitorch.load: <BytesIO> was not loaded.")
    assert minitorch.float32.name == "float32"


@pytest.mark.parametrize("value, name", [
    (b"\x96" + (2**40).to_bytes(8, "little"), "bytearray"),  # an opcode that would allocate what it claims
    (tensor_pickle((2,), (1,), rebuild="builtins eval"), "eval"),
])
def test_refused_globals_get_pytorchs_weights_only_error(value, name):
    data = torch_zip(value, b"\0" * 16)
    with traced_peak() as peak:
        with pytest.raises(pickle.UnpicklingError) as refused:
            load(io.BytesIO(data))
    assert peak[0] < len(data) + 2**20
    assert f"Unsupported global: GLOBAL {name} was not an allowed global by default. Please use " \
           f"`torch.serialization.add_safe_globals([{name}])`" in str(refused.value)


# ---- pickles that would make the loader iterate over a tensor ------------------------------------------------
# An expanded tensor of 10**9 elements stores one: a container made from it, or anything else that walks its
# elements, would take minutes and gigabytes. Each is refused, or loads, within a second and 100 MB.

EXPANDED = tensor_pickle((500_000_000, 2), (0, 0), numel=1)  # 10**9 elements; its rows are key-value pairs
STORAGE = tup(text("storage"), glob("torch FloatStorage"), text("0"), text("cpu"), num(1)) + b"Q"
ORDERED_DICT = call(glob("collections OrderedDict"))
CONTAINER_TYPES = [list, tuple, dict, frozenset, collections.Counter, collections.deque]  # allowed by safe_globals


def rebuilt(*args: bytes) -> bytes:
    return call(glob("torch._utils _rebuild_tensor_v2"), *args)


def made(type_name: str) -> str:
    return re.escape(f"{type_name}() of a tensor is not allowed: it would iterate over the tensor's elements")


def adds_to_tensor(opcode: str, kind: str) -> str:
    return re.escape(f"{opcode} may only add to a {kind}, not a Tensor")


REFUSED_ITERATIONS = {  # opcodes: what the refusal says
    **{f"{name}_reduce": (call(glob(qualname), EXPANDED), made(name))
       for name, qualname in [("set", "builtins set"), ("OrderedDict", "collections OrderedDict"), ("Size", "torch Size"),
                              *((t.__qualname__, f"{t.__module__} {t.__qualname__}") for t in CONTAINER_TYPES)]},
    "set_newobj": (glob("builtins set") + tup(EXPANDED) + b"\x81", made("set")),
    "Size_newobj": (glob("torch Size") + tup(EXPANDED) + b"\x81", made("Size")),
    "tuple_newobj_ex": (glob("builtins tuple") + tup(EXPANDED) + b"}\x92", made("tuple")),
    "set_obj": (b"(" + glob("builtins set") + EXPANDED + b"o", made("set")),
    "set_inst": (b"(" + EXPANDED + b"ibuiltins\nset\n", made("set")),
    "arguments_unpacked": (glob("builtins set") + EXPANDED + b"R", "set may only be called with a tuple of arguments"),
    "nested": (ORDERED_DICT + text("a") + b"]" + call(glob("builtins set"), EXPANDED) + b"as", made("set")),
    "set_of_Size": (call(glob("builtins set"), call(glob("torch Size"), EXPANDED)), made("Size")),
    "device": (call(glob("torch device"), EXPANDED), "torch.device takes a string and an index, not a Tensor"),
    "codecs": (call(glob("_codecs encode"), EXPANDED, text("latin1")), "_codecs.encode may only turn latin-1 text"),
    "additems": (EXPANDED + b"(" + num(1) + b"\x90", adds_to_tensor("ADDITEMS", "set")),  # would call tensor.add(1)
    "setitems": (EXPANDED + b"(" + EXPANDED + num(1) + b"u", adds_to_tensor("SETITEMS", "dict or OrderedDict")),
    "setitem": (EXPANDED + EXPANDED + num(1) + b"s", adds_to_tensor("SETITEM", "dict or OrderedDict")),
    "appends": (EXPANDED + b"(" + num(1) + b"e", adds_to_tensor("APPENDS", "list")),
    "append": (EXPANDED + num(1) + b"a", adds_to_tensor("APPEND", "list")),
    "build": (ORDERED_DICT + EXPANDED + b"b", "BUILD of a OrderedDict is not allowed"),
    "storage_key": (tup(text("storage"), glob("torch FloatStorage"), EXPANDED, text("cpu"), num(1)) + b"Q",
                    "does not name a torch storage class and a key"),
}
INVALID_ITERATIONS = {  # opcodes: what the RuntimeError says
    "geometry": (rebuilt(STORAGE, num(0), EXPANDED, EXPANDED, b"\x89", ORDERED_DICT),
                 "invalid tensor geometry: offset 0, size a Tensor, stride a Tensor"),
    "requires_grad": (rebuilt(STORAGE, num(0), tup(num(1)), tup(num(1)), EXPANDED, ORDERED_DICT),
                      "Boolean value of Tensor with more than one value is ambiguous"),
}
LOADED_WITH_A_TENSOR = {  # opcodes: how the loaded value holds the expanded tensor
    "set_of_list": (call(glob("builtins set"), b"]" + EXPANDED + b"a"), lambda w: next(iter(w))),
    "frozenset": (b"(" + EXPANDED + b"\x91", lambda w: next(iter(w))),
    "dict_key": (b"}" + EXPANDED + num(1) + b"s", lambda w: next(iter(w))),
    "OrderedDict_of_pairs": (call(glob("collections OrderedDict"), b"]" + tup(text("a"), EXPANDED) + b"a"),
                             lambda w: w["a"]),
    "Size_of_tuple": (call(glob("torch Size"), tup(EXPANDED)), lambda w: w[0]),
}


@contextlib.contextmanager
def bounded(seconds: float, traced_bytes: int):
    """Fails unless the block takes less than ``seconds`` and allocates less than ``traced_bytes``. On Linux the
    process may not grow by more than 1 GiB meanwhile, so that a regression fails with MemoryError rather than
    exhausting the machine."""
    limit = contextlib.nullcontext()
    try:
        import resource
        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = size + 2**30 if hard == resource.RLIM_INFINITY else min(size + 2**30, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        limit = contextlib.ExitStack()
        limit.callback(resource.setrlimit, resource.RLIMIT_AS, (soft, hard))
    except (ImportError, OSError):  # no resource module, or no /proc
        pass
    with limit, traced_peak() as peak:
        start = time.perf_counter()
        yield
    took = time.perf_counter() - start
    assert took < seconds and peak[0] < traced_bytes, (took, peak[0])


def iterating_file(value: bytes, file_format: str) -> bytes:
    return (torch_zip if file_format == "zip" else torch_legacy)(value, FLOATS[:4], protocol=4)


@pytest.mark.parametrize("file_format", ["zip", "legacy"])
@pytest.mark.parametrize("case", [*REFUSED_ITERATIONS, *INVALID_ITERATIONS])
def test_pickles_that_would_iterate_over_an_expanded_tensor_are_refused(case, file_format):
    if case in REFUSED_ITERATIONS:
        value, problem = REFUSED_ITERATIONS[case]
        error, name = pickle.UnpicklingError, r"\.html\. minitorch.load: <BytesIO> was not loaded\.$"
    else:
        value, problem = INVALID_ITERATIONS[case]
        error, name = RuntimeError, "^minitorch.load: <BytesIO> "
    data = iterating_file(value, file_format)
    with minitorch.serialization.safe_globals(CONTAINER_TYPES), bounded(1.0, 100 * 2**20):
        with pytest.raises(error) as refused:
            load(io.BytesIO(data))
    assert re.search(problem, str(refused.value)) and re.search(name, str(refused.value)), str(refused.value)


@pytest.mark.parametrize("file_format", ["zip", "legacy"])
@pytest.mark.parametrize("case", LOADED_WITH_A_TENSOR)
def test_containers_of_an_expanded_tensor_load(case, file_format):
    value, tensor_in = LOADED_WITH_A_TENSOR[case]
    with bounded(1.0, 100 * 2**20):
        w = load(io.BytesIO(iterating_file(value, file_format)))["w"]
    assert tensor_in(w).shape == (500_000_000, 2) and tensor_in(w)[123_456_789, 1].item() == 0.0
