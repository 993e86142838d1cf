"""``save`` and ``load``: checkpoints in PyTorch's format, readable by ``torch.load``.

``save`` writes what ``torch.save`` writes: a zip archive whose ``archive/data.pkl`` is a protocol-2
pickle of the object, tensors in it rebuilt by ``torch._utils._rebuild_tensor_v2`` from storages kept as
raw little-endian records ``archive/data/<key>`` (see ``_torch_pickle``). So PyTorch loads a minitorch
checkpoint, with ``weights_only=True`` when it holds tensors, containers, numbers, strings, sizes and dtypes.

A path ending in ``.safetensors`` gets a safetensors file instead:

- bytes 0-7: ``N``, the header's length (little-endian u64); then N bytes of UTF-8 JSON padded
  with spaces to a multiple of 8; then the tensors' raw bytes, little-endian and C-ordered;
- the header maps each tensor's name to ``{"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}``
  (offsets into the data section, tensors back to back, largest item size first so that each is aligned);
- its ``__metadata__`` holds ``"format": "pt"`` and, under ``"minitorch"``, the saved object as JSON:
  plain values as themselves, containers tagged (``{"odict": [[key, value], ...], "attrs": {...}}``,
  ``{"tuple": [...]}``, ...) so key types and container types come back exactly, and tensors as
  ``{"tensor": name}``. Tensors are named by their path in the object (``model.fc.weight``).

``load`` reads both, safetensors files written by other tools and ``torch.save`` files (zip or legacy).
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import mmap as _mmap
import os
import pickle
import re
import secrets
import stat
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import BinaryIO, Union

import numpy as np

try:
    import fcntl
except ImportError:  # Windows: no locks, so no cleaning up after killed saves
    fcntl = None

from . import _dtype, _torch_pickle
from ._core.shape import Size
from ._core.tensor import Tensor
from ._device import device
from ._torch_pickle import Invalid, check_shape, make_leaf

FileLike = Union[str, bytes, "os.PathLike", BinaryIO]

FORMAT_VERSION = 1
_MAX_HEADER = 100_000_000  # the safetensors limit
_TEMP_SUFFIX = ".minitorch-tmp"
_CODES = {_dtype.bool: "BOOL", _dtype.uint8: "U8", _dtype.int8: "I8", _dtype.int16: "I16", _dtype.int32: "I32",
          _dtype.int64: "I64", _dtype.float16: "F16", _dtype.float32: "F32", _dtype.float64: "F64",
          _dtype.complex64: "C64", _dtype.complex128: "C128", _dtype.bfloat16: "BF16"}
_CODE_OF = {d.np: code for d, code in _CODES.items()}
_LITTLE_ENDIAN = {code: d.np.newbyteorder("<") for d, code in _CODES.items()}
_LITTLE_ENDIAN["BF16"] = np.dtype("<u2")  # read as its bits (numpy's bfloat16 has no byte order), then viewed
_SEQUENCES = {"list": list, "tuple": tuple, "set": set, "size": Size}
_MAPPINGS = {"dict": dict, "odict": OrderedDict}
_TAGS = {kind: tag for tag, kind in (*_SEQUENCES.items(), *_MAPPINGS.items())}


def save(obj: object, f: FileLike, pickle_module=pickle, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False) -> None:
    """Save ``obj`` to a path or a binary file object, as ``torch.save`` does.

    Any picklable object can be saved (a whole module, numpy arrays); ``torch.load(weights_only=True)``
    and minitorch's default ``load`` read back tensors and nestings of dicts, OrderedDicts, lists and tuples
    of them, None, bools, ints, floats, strings, ``minitorch.Size``, dtypes and devices. A path ending in
    ``.safetensors`` gets the safetensors layout (those objects, and sets, only). Saving to a path
    replaces the file atomically: an interrupted save leaves any previous file intact, and what a killed
    one leaves (``.<name>.<16 hex digits>.minitorch-tmp`` next to it) the next save to the path deletes.
    The replaced file's mode, owner and group carry over (owner and group where the process may set them);
    hard links to it keep the old content, as a new file takes its name. Saving needs a directory where a
    temporary file can be made: a writable file in a read-only directory is refused.

    ``pickle_protocol``: the object pickle's protocol; ``_disable_byteorder_record`` leaves out the byte-order
    record, as torch's. Not supported: a ``pickle_module`` other than ``pickle`` (minitorch pickles with its own
    pickler, which writes torch's globals) and the legacy format (``_use_new_zipfile_serialization=False``).
    """
    _standard_pickle(pickle_module, "save")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("minitorch.save writes the zip format only (_use_new_zipfile_serialization=True)")
    is_path = isinstance(f, (str, bytes, os.PathLike))
    if is_path and os.fsdecode(f).endswith(".safetensors"):
        encoder = _Encoder()
        tree = json.dumps({"version": FORMAT_VERSION, "object": encoder.encode(obj, ())}, separators=(",", ":"))
        header, arrays = _layout(encoder.arrays, {"format": "pt", "minitorch": tree})

        def write(fh: BinaryIO) -> None:
            fh.write(header)
            fh.writelines(_packed(arr) for arr in arrays)
    else:
        def write(fh: BinaryIO) -> None:
            _torch_pickle.write_zip(obj, fh, _packed, pickle_protocol, not _disable_byteorder_record)

    if is_path:
        _write_atomically(os.fsdecode(f), write)
    else:
        write(f)


def load(f: FileLike, map_location=None, pickle_module=None, *, weights_only: bool | None = None,
         mmap: bool | None = None, **pickle_load_args) -> object:
    """Load an object saved by ``save``, a safetensors file or a ``torch.save`` file (zip or legacy).

    With ``weights_only=True`` (the default, as in PyTorch 2.6+), nothing in the file is executed: pickles
    are read by a restricted unpickler that refuses, with PyTorch's error and the file's name, every global
    but tensors, containers, sizes, dtypes, devices and what ``add_safe_globals`` allows, and any attempt to
    make the loader iterate over a tensor. ``weights_only=False`` unpickles anything (whole modules, numpy
    arrays): only for files from a trusted source. ``weights_only`` is resolved as ``torch.load`` does:
    ``None`` is the default; the environment variable ``TORCH_FORCE_WEIGHTS_ONLY_LOAD`` (1, y, yes or true)
    makes every load weights-only, ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` those that leave ``weights_only``
    unset. Unlike ``torch.load``, only ``False`` itself turns the restrictions off: a falsy value such as
    ``0`` or ``''`` loads weights-only, with a warning.

    Tensors load on the CPU (``map_location`` is accepted and ignored). ``mmap=True`` (paths only; not for
    legacy ``torch.save`` files, as in PyTorch) maps the file copy-on-write instead of reading it. Raises
    RuntimeError naming the file if it is truncated, corrupted or not a checkpoint.

    ``pickle_module`` (``pickle`` only: minitorch unpickles with its own unpickler) means a trusted file, as in
    torch: weights_only then defaults to False, and is an error with weights_only=True. ``pickle_load_args``
    (encoding, errors, fix_imports) go to the unpickler of a torch checkpoint.
    """
    if pickle_module is not None:
        _standard_pickle(pickle_module, "load")
        if weights_only is None and os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() not in _TRUE:
            weights_only = False
    full = _unpickles_anything(weights_only)
    if pickle_module is not None and not full:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    for key in pickle_load_args.keys() - {"encoding", "errors", "fix_imports"}:
        raise TypeError(f"Unpickler.__init__() got an unexpected keyword argument '{key}'")
    if pickle_load_args and not full:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", UserWarning, stacklevel=2)
    is_path = isinstance(f, (str, bytes, os.PathLike))
    name = repr(os.fsdecode(f)) if is_path else _name_of(f)
    with _opened(f) as fh:
        head = fh.read(32)
        fh.seek(-len(head), os.SEEK_CUR)
        legacy = _torch_pickle.LEGACY_SIGNATURE.match(head)
        if mmap and legacy:
            raise RuntimeError("mmap can only be used with files saved with `torch.save("
                               f"{f + ', ' if isinstance(f, str) else ''}_use_new_zipfile_serialization=True), "
                               "please torch.save your checkpoint with this option in order to use mmap.")
        if mmap and not is_path:
            raise ValueError("f must be a file path in order to use the mmap argument")
        if head.startswith(_torch_pickle.ZIP_SIGNATURE):
            mapped = _mmap.mmap(fh.fileno(), 0, access=_mmap.ACCESS_COPY) if mmap else None
            return _load_torch(lambda fh: _torch_pickle.load_zip(fh, full, mapped, **pickle_load_args), fh, name,
                               "zip", full)
        if legacy:
            return _load_torch(lambda fh: _torch_pickle.load_legacy(fh, full, **pickle_load_args), fh, name,
                               "legacy", full)
        try:
            return _load_safetensors(fh, bool(mmap))
        except Invalid as e:
            raise RuntimeError(f"minitorch.load: {name} {e}") from None


_TRUE = ("1", "y", "yes", "true")  # the values of torch's environment variables that count as set


def _standard_pickle(module, fn: str) -> None:
    if module is not pickle:
        raise NotImplementedError(f"minitorch.{fn}: pickle_module={getattr(module, '__name__', module)!r} is not "
                                  "supported (minitorch reads and writes torch's pickles with its own (un)pickler)")


def _unpickles_anything(weights_only) -> bool:
    """Whether ``load(weights_only=weights_only)`` may unpickle any global (see ``load``)."""
    forced = os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE
    forced_off = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE
    if forced and forced_off:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
                           "should be set, but both were set.")
    if forced:
        return False
    if weights_only is None:
        if forced_off:
            warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the`weights_only` "
                          "argument was not explicitly passed to `torch.load`, forcing weights_only=False.",
                          UserWarning, stacklevel=3)
        return forced_off
    if weights_only is False:
        return True
    if not weights_only:
        warnings.warn(f"minitorch.load: weights_only={weights_only!r:.40} is not False, so the file is loaded with "
                      "weights_only=True (torch.load would unpickle anything). Pass weights_only=False to unpickle "
                      "any object, only for files from a trusted source.", UserWarning, stacklevel=3)
    return False


# ---- saving ----------------------------------------------------------------------------------

class _Encoder:
    """Turns an object into the JSON tree stored under "minitorch", collecting its tensors' arrays by name."""

    def __init__(self):
        self.arrays: dict[str, np.ndarray] = {}
        self._names: dict[int, str] = {}  # id(tensor) -> name: a tensor met twice is stored once
        self._open: set[int] = set()      # containers being encoded, to refuse cycles
        self._parameter = _torch_pickle.parameter_class()

    def encode(self, obj, path: tuple):
        kind = type(obj)
        if obj is None or kind in (bool, int, float, str):
            return obj
        if isinstance(obj, Tensor):
            return self._tensor(obj, path)
        if kind is _dtype.dtype:
            return {"dtype": obj.name}
        if kind is device:
            return {"device": str(obj)}
        tag = _TAGS.get(kind)
        if tag is None:
            raise TypeError(f"minitorch.save: can't save {kind.__module__}.{kind.__qualname__} at {_where(path)}: "
                            "checkpoints hold tensors, None, bool, int, float, str, and lists, tuples, sets, dicts, "
                            "OrderedDicts of them, minitorch.Size, dtypes and devices")
        if id(obj) in self._open:
            raise ValueError(f"minitorch.save: the object contains itself at {_where(path)}")
        self._open.add(id(obj))
        if tag in _MAPPINGS:
            node = {tag: [[self.encode(k, path), self.encode(v, (*path, k))] for k, v in obj.items()]}
            if kind is OrderedDict and vars(obj):  # a state_dict's _metadata
                node["attrs"] = self.encode(dict(vars(obj)), path)
        else:
            node = {tag: [self.encode(x, (*path, i)) for i, x in enumerate(obj)]}
        self._open.discard(id(obj))
        return node

    def _tensor(self, t: Tensor, path: tuple) -> dict:
        if t.is_sparse:
            raise TypeError(f"minitorch.save: the safetensors layout holds dense tensors only; the sparse tensor at "
                            f"{_where(path)} needs .to_dense() or a torch.save file")
        name = self._names.get(id(t))
        if name is None:
            base = ".".join(map(str, path)) or "tensor"
            name, n = base, 1
            while name in self.arrays or name == "__metadata__":
                name, n = f"{base}#{n}", n + 1
            self.arrays[name] = t._data
            self._names[id(t)] = name
        node = {"tensor": name}
        if t.requires_grad:
            node["requires_grad"] = True
        if self._parameter is not None and isinstance(t, self._parameter):
            node["parameter"] = True
        return node


def _where(path: tuple) -> str:
    return "obj" + "".join(f"[{k!r}]" for k in path)


def _layout(arrays: dict[str, np.ndarray], metadata: dict[str, str]) -> tuple[bytes, list[np.ndarray]]:
    """The safetensors header for ``arrays``, and the arrays in the order their bytes follow it."""
    # Largest items first: the data section starts 8-aligned, so every tensor then starts at a
    # multiple of its item size and a memory-mapped file gives aligned arrays.
    names = sorted(arrays, key=lambda n: -arrays[n].itemsize)
    entries: dict = {"__metadata__": metadata}
    offset = 0
    for name in names:
        arr = arrays[name]
        entries[name] = {"dtype": _CODE_OF[arr.dtype], "shape": list(arr.shape),
                         "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    text = json.dumps(entries, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text, [arrays[n] for n in names]


def _packed(arr: np.ndarray) -> np.ndarray:
    """``arr``'s bytes, C-ordered and little-endian (copied only when they are not already)."""
    return np.ascontiguousarray(arr, arr.dtype.newbyteorder("<")).reshape(-1).view(np.uint8)


def _write_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write a temporary file next to ``path``, sync it, then rename it over ``path``.

    Like ``torch.save``, fails as opening ``path`` for writing would (a write-protected file, an empty
    path), and writes a target that is not a regular file (a device, a pipe) in place. A file it replaces
    keeps its permission bits, and its owner and group where this process may set them (root may; others
    keep at least a group they belong to); hard links to the replaced file keep its old content. Deletes
    what earlier saves to ``path`` that were killed left behind.
    """
    name = path
    path = os.path.realpath(path)  # write through a symlink rather than replace it
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise RuntimeError(f"Parent directory {directory} does not exist.")
    try:
        old = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(name, "wb") as fh:
            write(fh)
        return
    if old is not None:
        os.close(os.open(name, os.O_WRONLY))  # refused as torch.save's open would be; changes nothing
    base = os.path.basename(path)
    _remove_stale_temps(directory, base)
    try:
        tmp, fd = _new_temp(directory, base)
    except OSError as e:
        raise OSError(e.errno, f"{e.strerror}: no temporary file can be made in the directory {directory}, and "
                               "saving writes one there before renaming it over the file", name) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
            if old is not None:
                _take_over(tmp, old)
            if fcntl is not None:  # renamed while locked, so that no other save takes it for stale
                os.replace(tmp, path)
        if fcntl is None:  # Windows renames closed files only
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _take_over(tmp: str, old: os.stat_result) -> None:
    """Give the new file ``tmp`` the owner, group and permission bits of the file ``old`` that it replaces, as far
    as this process may."""
    if hasattr(os, "chown"):
        for uid in (old.st_uid, -1):  # -1: keep our own, where the old file is another user's
            try:
                os.chown(tmp, uid, old.st_gid)
                break
            except PermissionError:  # not root, and not in the old file's group either: keep the mode at least
                continue
    os.chmod(tmp, stat.S_IMODE(old.st_mode))  # after chown, which clears the set-user-ID bit


def _new_temp(directory: str, base: str) -> tuple[str, int]:
    """A new temporary file for a save to ``base``, and its descriptor, which holds the file's lock until closed."""
    while True:
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(8)}{_TEMP_SUFFIX}")
        # O_EXCL with mode 0o666 makes a new file with the permissions of an ordinary open(path, "wb").
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        if fcntl is None:
            return tmp, fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a file system without locks, where no save can take a temporary file for stale
            return tmp, fd
        with contextlib.suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(fd), os.stat(tmp)):
                return tmp, fd
        os.close(fd)  # another save deleted it as stale before it was locked


def _remove_stale_temps(directory: str, base: str) -> None:
    """Delete the temporary files of saves to ``base`` that no process holds the lock of: their save died."""
    if fcntl is None:
        return
    pattern = re.compile(rf"\.{re.escape(base)}\.[0-9a-f]{{16}}{re.escape(_TEMP_SUFFIX)}")
    for entry in os.listdir(directory):
        if not pattern.fullmatch(entry):
            continue
        tmp = os.path.join(directory, entry)
        try:
            fd = os.open(tmp, os.O_RDWR)
        except OSError:  # renamed by its save meanwhile, or another user's
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while its save is alive
            os.unlink(tmp)
        except OSError:
            pass
        finally:
            os.close(fd)


# ---- loading ---------------------------------------------------------------------------------

def _name_of(f: BinaryIO) -> str:
    name = getattr(f, "name", None)
    return repr(name) if isinstance(name, str) else f"<{type(f).__name__}>"


@contextlib.contextmanager
def _opened(f: FileLike):
    """``f`` as a seekable binary file positioned where ``f`` was."""
    if isinstance(f, (str, bytes, os.PathLike)):
        with open(f, "rb") as fh:
            yield fh
    elif getattr(f, "seekable", lambda: False)():
        yield f
    else:
        yield io.BytesIO(f.read())


_UNSAFE = ("In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
           "`False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but "
           "it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
_DOCS = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only "
         "https://pytorch.org/docs/stable/generated/torch.load.html.")


def refused_message(qualname: str) -> str:
    """PyTorch's error text for a ``weights_only`` load of a pickle that names the global ``qualname``."""
    if qualname.startswith("builtins."):
        qualname = qualname[len("builtins."):]
    return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
            "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
            f"\n\t(1) {_UNSAFE}\n\t(2) Alternatively, to load with `weights_only=True` please check the "
            "recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: "
            f"GLOBAL {qualname} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{qualname}])` or the "
            f"`torch.serialization.safe_globals([{qualname}])` context manager to allowlist this global if you "
            f"trust this class/function.{_DOCS}")


def _refusal(refused: _torch_pickle.Refused, name: str) -> pickle.UnpicklingError:
    """The error for a ``weights_only`` load of the file ``name`` that the unpickler refused: PyTorch's text, its
    last line ending with the file's name (programs may pick lines out of PyTorch's text by position)."""
    if refused.qualname is not None:
        text = refused_message(refused.qualname)
    else:  # as PyTorch words what its unpickler refuses other than globals
        text = f"Weights only load failed. {_UNSAFE}\nWeightsUnpickler error: {refused}{_DOCS}"
    return pickle.UnpicklingError(f"{text} minitorch.load: {name} was not loaded.")


def _load_torch(reader: Callable[[BinaryIO], object], fh: BinaryIO, name: str, kind: str, full: bool) -> object:
    try:
        return reader(fh)
    except Invalid as e:
        raise RuntimeError(f"minitorch.load: {name} (a PyTorch {kind} checkpoint) {e}") from None
    except Exception as e:
        if full:  # the file's own classes may fail as they would in torch.load: their errors are theirs
            raise
        if isinstance(e, _torch_pickle.Refused):
            raise _refusal(e, name) from None
        raise RuntimeError(f"minitorch.load: {name} looks like a PyTorch {kind} checkpoint but is truncated or "
                           f"corrupted: {type(e).__name__}: {e}") from e


def _load_safetensors(fh: BinaryIO, use_mmap: bool) -> object:
    start = fh.tell()
    size = fh.seek(0, os.SEEK_END) - start
    fh.seek(start)
    header, data_start = _read_header(fh, size)
    entries = _check_entries(header, size - data_start)
    if use_mmap:
        buf = _mmap.mmap(fh.fileno(), 0, access=_mmap.ACCESS_COPY)  # private pages: writes never reach the file
        arrays = {key: np.ndarray(shape, _LITTLE_ENDIAN[code], buf, start + data_start + begin)
                  for key, code, shape, begin in entries}
    else:
        fh.seek(start + data_start)
        arrays = {key: _read_array(fh, _LITTLE_ENDIAN[code], shape) for key, code, shape, _ in entries}
    for key, code, _, _ in entries:
        arr = arrays[key]
        arrays[key] = arr.astype(arr.dtype.newbyteorder("="), copy=False)
        if code == "BF16":
            arrays[key] = arrays[key].view(_dtype.BF16)
    metadata = header.get("__metadata__")
    tree = metadata.get("minitorch") if isinstance(metadata, dict) else None
    if tree is None:  # a safetensors file from elsewhere: its tensors by name, in header order
        return {key: make_leaf(arrays[key], False) for key in header if key != "__metadata__"}
    try:
        doc = json.loads(tree)
        if doc["version"] != FORMAT_VERSION:
            raise Invalid(f"was written by a newer minitorch (format version {doc['version']})")
        return _decode(doc["object"], arrays)
    except (KeyError, TypeError, ValueError, RuntimeError) as e:  # RecursionError too: a tree nested too deeply
        raise Invalid(f"is corrupted: its saved object structure is invalid ({type(e).__name__}: {e})") from e


def _read_header(fh: BinaryIO, size: int) -> tuple[dict, int]:
    """The JSON header, and where the data section starts (relative to the file's start)."""
    if size < 8:
        raise Invalid("is empty" if size == 0 else f"is too short to be a checkpoint ({size} bytes)")
    first = fh.read(8)
    n = int.from_bytes(first, "little")
    raw = fh.read(n) if n <= _MAX_HEADER else b""
    if not raw.startswith(b"{"):
        raise Invalid(f"is not a minitorch, safetensors or PyTorch checkpoint (it starts with {first + raw[:8]!r})")
    if len(raw) < n:
        raise Invalid(f"is truncated: the header says it is {n} bytes long but only {len(raw)} bytes follow")
    try:
        header = json.loads(raw)
    except ValueError as e:
        raise Invalid(f"is corrupted: its header is not valid JSON ({e})") from None
    except RecursionError:
        raise Invalid("is corrupted: its header nests deeper than Python's recursion limit") from None
    if not isinstance(header, dict):
        raise Invalid("is corrupted: its header is not a JSON object")
    return header, 8 + n


def _check_entries(header: dict, data_size: int) -> list[tuple[str, str, tuple, int]]:
    """``(name, dtype code, shape, begin)`` of each tensor, in data order, once the offsets check out."""
    entries = []
    for key, info in header.items():
        if key == "__metadata__":
            continue
        try:
            code, shape, (begin, end) = info["dtype"], tuple(info["shape"]), info["data_offsets"]
            valid = isinstance(code, str) and all(type(v) is int and v >= 0 for v in (*shape, begin, end))
        except (TypeError, KeyError, ValueError):
            valid = False
        if not valid:
            raise Invalid(f"is corrupted: the header entry of tensor {key!r} is malformed: {info!r:.200}")
        if code not in _LITTLE_ENDIAN:
            raise Invalid(f"holds tensor {key!r} of dtype {code}, which minitorch does not support")
        check_shape(shape, _LITTLE_ENDIAN[code].itemsize, f"tensor {key!r}")
        entries.append((key, code, shape, begin, end))
    entries.sort(key=lambda e: e[3])
    position = 0
    for key, code, shape, begin, end in entries:
        need = math.prod(shape) * _LITTLE_ENDIAN[code].itemsize
        if begin != position or end - begin != need:
            raise Invalid(f"is corrupted: tensor {key!r} has data_offsets [{begin}, {end}] but its {need} bytes "
                           f"should start at {position}")
        position = end
    if data_size < position:
        raise Invalid(f"is truncated: the header says {position} bytes of tensor data but {data_size} are present")
    if data_size > position:
        raise Invalid(f"is corrupted: {data_size - position} unexpected bytes follow its {position} bytes "
                       "of tensor data")
    return [(key, code, shape, begin) for key, code, shape, begin, _ in entries]


def _read_array(fh: BinaryIO, dt: np.dtype, shape: tuple) -> np.ndarray:
    arr = np.empty(shape, dt)
    if fh.readinto(arr.reshape(-1).view(np.uint8)) != arr.nbytes:
        raise Invalid("is truncated: it ended while its tensor data was read")
    return arr


def _decode(node, arrays: dict[str, np.ndarray]):
    """The object that ``_Encoder.encode`` turned into ``node``."""
    made: dict[str, Tensor] = {}  # a tensor referenced twice loads as one object

    def decode(node):
        if isinstance(node, list):
            raise TypeError("a bare JSON list")
        if not isinstance(node, dict):
            return node
        tag = next(iter(node), None)
        value = node.get(tag)
        if tag == "tensor":
            if value not in made:
                made[value] = make_leaf(arrays[value], node.get("requires_grad", False), node.get("parameter", False))
            return made[value]
        if tag in _SEQUENCES:
            return _SEQUENCES[tag]([decode(x) for x in value])
        if tag in _MAPPINGS:
            out = _MAPPINGS[tag]((decode(k), decode(v)) for k, v in value)
            if "attrs" in node:
                vars(out).update(decode(node["attrs"]))
            return out
        if tag == "dtype":
            return _dtype._BY_NAME[value]
        if tag == "device":
            return device(value)
        raise ValueError(f"unknown tag {tag!r}")

    return decode(node)


# ---- globals the user allows in PyTorch checkpoints ---------------------------------------------------------
def add_safe_globals(safe_globals: list) -> None:
    """Allow these classes or functions (or ``(object, "module.name")`` pairs) in ``torch.save`` files, as
    ``torch.serialization.add_safe_globals`` does: a checkpoint may then rebuild them and set their state."""
    for item in safe_globals:
        obj, name = item if isinstance(item, tuple) else (item, f"{item.__module__}.{item.__qualname__}")
        _torch_pickle.SAFE_GLOBALS[name] = obj


def get_safe_globals() -> list:
    return list(_torch_pickle.SAFE_GLOBALS.values())


def clear_safe_globals() -> None:
    _torch_pickle.SAFE_GLOBALS.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: list):
    """Allow ``safe_globals`` (see ``add_safe_globals``) inside the ``with`` block only."""
    before = dict(_torch_pickle.SAFE_GLOBALS)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _torch_pickle.SAFE_GLOBALS.clear()
        _torch_pickle.SAFE_GLOBALS.update(before)
