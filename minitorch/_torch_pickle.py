"""Read and write checkpoints in ``torch.save``'s formats, without PyTorch.

Both of PyTorch's formats keep the saved object in a pickle whose tensors refer to raw
storages by key (persistent ids ``('storage', torch.FloatStorage, key, location, numel)``):

- zip (torch >= 1.6): ``<prefix>/data.pkl``, one record ``<prefix>/data/<key>`` per storage,
  and ``<prefix>/byteorder``;
- legacy: the pickles of a magic number, a protocol version, sys_info, the object and a list
  of storage keys, then for each key an 8-byte element count and the storage's bytes.

By default the pickle is read by ``_RestrictedUnpickler``, which hands out only the globals a
checkpoint of tensors needs, mapped to minitorch's own implementations, and refuses (``Refused``)
anything else before it is called; ``full=True`` (``weights_only=False``) unpickles any global as
pickle does.

Nothing the file claims is allocated before it is checked against the file's size: storages are
read once, into the arrays that the loaded tensors then view (with the stride PyTorch saved), so a
checkpoint loads in about its own size of memory and an expanded tensor costs no more than its storage.
Nor may the pickle make the loader iterate over a tensor's elements (see ``_RestrictedUnpickler``).

``write_zip`` writes the zip format as ``torch.save`` does (pickle protocol 2, storages 64-byte aligned),
each tensor as a contiguous storage of its own.
"""
from __future__ import annotations

import copyreg
import functools
import io
import math
import pickle
import re
import secrets
import struct
import sys
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import BinaryIO, ClassVar

import numpy as np

from . import _dtype
from ._core import shape as _shape
from ._core.shape import Size
from ._core.tensor import Tensor
from ._device import device
from .sparse.coo import sparse_coo_tensor

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
ZIP_SIGNATURE = b"PK\x03\x04"
# The magic number pickled with protocol 2 to 5 (4 and 5 open a frame first): how a legacy file starts.
LEGACY_SIGNATURE = re.compile(rb"\x80[\x02-\x05](?:\x95.{8})?\x8a\x0a" + re.escape(MAGIC_NUMBER.to_bytes(10, "little")),
                              re.DOTALL)


class Refused(pickle.UnpicklingError):
    """What the ``weights_only`` unpickler will not do; ``qualname`` names the global, if that is what it refused."""

    def __init__(self, message: str, qualname: str | None = None):
        super().__init__(message)
        self.qualname = qualname


class Invalid(Exception):
    """What is wrong with the file being loaded, as words that follow its name ("is truncated: ...")."""


def check_shape(shape: tuple, itemsize: int, what: str) -> None:
    """Raise Invalid unless numpy can make an array of ``shape`` (``what`` names it in the message)."""
    if len(shape) > 64:
        raise Invalid(f"holds {what} with {len(shape)} dimensions: numpy arrays have at most 64")
    if itemsize * math.prod(n for n in shape if n) > sys.maxsize:
        raise Invalid(f"holds {what} of shape {list(shape)}: more bytes than numpy can address")


_PLAIN = (type(None), bool, int, float, str, bytes)
_SHAPES = (tuple, list, Size)


def _described(obj) -> str:
    """``obj`` for an error message: its repr if it is a plain value, else its type (a file's objects may be
    tensors of a billion elements, or have any repr)."""
    def plain(x) -> bool:
        return type(x) in _PLAIN and not (type(x) is int and x.bit_length() > 64)

    if plain(obj) or (type(obj) in _SHAPES and len(obj) <= 64 and all(map(plain, obj))):
        text = repr(obj)
        return text if len(text) <= 100 else text[:97] + "..."
    return f"a {type(obj).__name__}"


class _StorageType:
    """What ``torch.FloatStorage`` and friends unpickle to: the element type of a storage."""

    __slots__ = ("dtype", "name")

    def __init__(self, name: str, dtype: str):
        self.name = name
        self.dtype = np.dtype(dtype)

    def array(self, raw: np.ndarray, numel: int, byteorder: str) -> np.ndarray:
        """The first ``numel`` elements stored in the bytes ``raw``, native-endian: a view of ``raw`` unless
        they must be byte-swapped."""
        if type(numel) is not int or numel < 0:
            raise Invalid(f"is corrupted: invalid element count {_described(numel)} for a {self.name}")
        need = numel * self.dtype.itemsize
        if raw.size < need:
            raise Invalid(f"is corrupted: a {self.name} of {numel} elements needs {need} bytes but its data "
                          f"holds {raw.size}")
        arr = raw[:need].view(self.dtype.newbyteorder("<" if byteorder == "little" else ">"))
        arr = arr.astype(arr.dtype.newbyteorder("="), copy=False)
        return arr.view(_dtype.BF16) if self.name == "BFloat16Storage" else arr  # (read as its 16-bit pattern)


_STORAGES = {"DoubleStorage": "f8", "FloatStorage": "f4", "HalfStorage": "f2", "BFloat16Storage": "u2",
             "LongStorage": "i8", "IntStorage": "i4", "ShortStorage": "i2", "CharStorage": "i1",
             "ByteStorage": "u1", "BoolStorage": "?", "ComplexFloatStorage": "c8", "ComplexDoubleStorage": "c16"}


def parameter_class():
    try:
        from .nn import Parameter  # (serialization sits beside nn, not on top of it)
    except ImportError:  # loading and saving work without minitorch.nn
        return None
    return Parameter


def make_leaf(arr: np.ndarray, requires_grad: bool, parameter: bool = False) -> Tensor:
    """A loaded tensor around ``arr``: a ``minitorch.nn.Parameter`` if ``parameter`` and nn exists, else a leaf."""
    cls = parameter_class() if parameter else None
    if cls is not None:
        return cls(Tensor._wrap(arr), requires_grad=bool(requires_grad))
    t = Tensor._wrap(arr)
    t.requires_grad = bool(requires_grad)
    return t


def _view(storage: np.ndarray, offset: int, size: tuple, stride: tuple) -> np.ndarray:
    """The elements a tensor views in its storage, as a numpy view of the storage array.

    Read-only when two of its elements may share a memory location (an expanded tensor), as writing
    to it would be ambiguous: minitorch then refuses in-place ops with PyTorch's error.
    """
    if not isinstance(storage, np.ndarray):
        raise TypeError(f"a tensor's storage is a {type(storage).__name__}, not a storage")
    if (type(size) not in _SHAPES or type(stride) not in _SHAPES or len(size) != len(stride)
            or not all(type(n) is int and n >= 0 for n in (offset, *size, *stride))):
        raise Invalid(f"is corrupted: invalid tensor geometry: offset {_described(offset)}, size {_described(size)}, "
                      f"stride {_described(stride)}")
    size, stride = tuple(size), tuple(stride)
    check_shape(size, storage.itemsize, "a tensor")
    if 0 in size:
        return np.empty(size, storage.dtype)
    # as_strided does not check bounds: a geometry reaching past the storage would read foreign memory.
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if last >= storage.size:
        raise Invalid(f"is corrupted: a tensor with offset {offset}, size {size} and stride {stride} reaches "
                      f"element {last} of a storage of {storage.size} elements")
    return np.lib.stride_tricks.as_strided(storage[offset:], size, [s * storage.itemsize for s in stride],
                                           writeable=not _may_overlap(size, stride))


def _may_overlap(size: tuple, stride: tuple) -> bool:
    """Whether two elements of a view with this geometry can be the same element of its storage.

    Dims are taken from the smallest stride up: each stride must step past everything the smaller
    ones reach. Some exotic interleaved layouts that do not overlap fail this too (and load read-only).
    """
    reach = 0
    for n, s in sorted(((n, s) for n, s in zip(size, stride) if n > 1), key=lambda dim: dim[1]):
        if s <= reach:
            return True
        reach += (n - 1) * s
    return False


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    return make_leaf(_view(storage, storage_offset, size, stride), requires_grad)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    if not isinstance(data, Tensor):
        raise TypeError(f"a Parameter's data is a {type(data).__name__}, not a tensor")
    return make_leaf(data._data, requires_grad, parameter=True)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    # ``state`` holds Python attributes set on the Parameter; they are not restored.
    return _rebuild_parameter(data, requires_grad, backward_hooks)


def _get_layout(name: str) -> _shape.layout:
    """``torch.serialization._get_layout``: the layout a pickle names (``'torch.sparse_coo'``)."""
    found = getattr(_shape, name[len("torch."):], None) if type(name) is str and name.startswith("torch.") \
        else None
    if not isinstance(found, _shape.layout):
        raise Refused(f"{_described(name)} is not a torch layout")
    return found


def _rebuild_sparse_tensor(layout, data):
    """A sparse tensor as torch pickles one: its layout, and (indices, values, size[, is_coalesced])."""
    if layout is not _shape.sparse_coo:
        raise pickle.UnpicklingError(f"minitorch: sparse layout {layout!r} is not supported (sparse COO only)")
    if type(data) is not tuple or len(data) not in (3, 4) or not all(isinstance(t, Tensor) for t in data[:2]) \
            or not isinstance(data[2], tuple) or any(type(n) is not int for n in data[2]):
        raise Refused(f"a sparse COO tensor's data is (indices, values, size[, is_coalesced]), not {_described(data)}")
    indices, values, size = data[:3]
    coalesced = data[3] if len(data) == 4 else None
    if coalesced not in (None, True, False) or indices.dtype is not _dtype.int64 or indices.dim() != 2:
        raise Refused("a sparse COO tensor's indices are a 2-D int64 tensor and is_coalesced a bool")
    try:
        return sparse_coo_tensor(indices, values, size, is_coalesced=coalesced)
    except RuntimeError as e:
        raise Refused(f"an invalid sparse COO tensor: {e}") from None


def _latin1(text: str, encoding: str) -> bytes:
    """``_codecs.encode`` as protocol 2 uses it to pickle bytes; other codecs could grow data at every call."""
    if type(text) is not str or type(encoding) is not str or encoding not in ("latin1", "latin-1"):
        raise Refused(f"_codecs.encode may only turn latin-1 text into bytes, not apply {_described(encoding)} "
                      f"to {_described(text)}")
    return text.encode("latin1")


def _device(kind: str, index: int | None = None) -> device:
    """``torch.device`` as pickles call it: ``device('cpu')`` or ``device('cuda', 0)``."""
    if type(kind) is not str or not (index is None or type(index) is int):
        raise Refused(f"torch.device takes a string and an index, not {_described(kind)} and {_described(index)}")
    return device(kind, index)


_GLOBALS = {
    "collections.OrderedDict": OrderedDict,
    "builtins.set": set,
    "_codecs.encode": _latin1,  # how protocol 2 pickles bytes
    "torch.Size": Size,
    "torch.device": _device,
    "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
    "torch._utils._rebuild_parameter": _rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
    "torch._utils._rebuild_sparse_tensor": _rebuild_sparse_tensor,
    "torch.serialization._get_layout": _get_layout,
    **{f"torch.{name}": _StorageType(name, code) for name, code in _STORAGES.items()},
    **{f"torch.{d.name}": d for d in _dtype.ALL},
}
SAFE_GLOBALS: dict = {}  # what the user allowed with serialization.add_safe_globals: qualified name -> object


def _qualname(module: str, name: str) -> str:
    return f"{'builtins' if module == '__builtin__' else module}.{name}"


def _allowed(qualname: str):
    """What a weights_only load hands out for the global ``qualname`` (the user's choice first), or None."""
    for table in (SAFE_GLOBALS, _GLOBALS):
        if qualname in table:
            return table[qualname]
    return None


class _Unpickler(pickle._Unpickler):  # the pure-Python unpickler, whose opcodes can be overridden
    """Unpickles any global (``weights_only=False``), torch's as minitorch's own; ``storage(type, key, numel)``
    supplies the storages that persistent ids name."""

    dispatch: ClassVar[dict] = dict(pickle._Unpickler.dispatch)

    def __init__(self, file: BinaryIO, storage: Callable | None = None, *, encoding: str = "utf-8",
                 errors: str = "strict", fix_imports: bool = True):
        super().__init__(_Bounded(file), encoding=encoding, errors=errors, fix_imports=fix_imports)
        self._storage = storage

    def find_class(self, module, name):
        found = _allowed(_qualname(module, name))
        return super().find_class(module, name) if found is None else found

    def get_extension(self, code):
        # Always through find_class: copyreg's cache of extension codes may hold what an earlier load imported.
        key = copyreg._inverted_registry.get(code)
        if key is None:
            raise pickle.UnpicklingError(f"unregistered extension code {code}")
        self.append(self.find_class(*key))

    def persistent_load(self, pid):
        if self._storage is None or type(pid) is not tuple or len(pid) not in (5, 6) or type(pid[0]) is not str \
                or pid[0] != "storage":
            raise Refused(f"persistent id {_described(pid)} is not a storage")
        storage_type, key, _location, numel = pid[1:5]
        if not isinstance(storage_type, _StorageType) or type(key) is not str:
            raise Refused(f"persistent id ('storage', {_described(storage_type)}, {_described(key)}, ...) does not "
                          "name a torch storage class and a key")
        if len(pid) == 6 and pid[5] is not None:
            raise pickle.UnpicklingError("storage views (PyTorch < 0.4) are not supported")
        return self._storage(storage_type, key, numel)


class _RestrictedUnpickler(_Unpickler):
    """Unpickles as ``weights_only=True``: every refusal raises ``Refused`` before anything is called.

    - GLOBAL and the like hand out only ``_GLOBALS`` and ``SAFE_GLOBALS``; REDUCE, NEWOBJ, OBJ and INST
      call only what was handed out, with a tuple of arguments, and never an iterable type (set, OrderedDict,
      Size, a user's list) on a tensor or storage, which it would iterate element by element (an expanded
      tensor has billions of elements and one stored);
    - APPEND(S), SETITEM(S) and ADDITEMS add to lists, dicts and sets only (on a tensor they would call its
      ``add`` or ``__setitem__``);
    - BUILD sets plain attributes of an OrderedDict (a state_dict's ``_metadata``) only, or the state of
      a class in ``SAFE_GLOBALS``: elsewhere it could rewrite shared objects such as ``minitorch.float32``,
      or plant a ``__setstate__`` that a later BUILD would call.
    """

    dispatch: ClassVar[dict] = dict(_Unpickler.dispatch)

    def __init__(self, file: BinaryIO, storage: Callable | None = None, **unpickler_args):
        super().__init__(file, storage, **unpickler_args)
        self._handed_out: set[int] = set()  # ids of the globals find_class returned: all are module-level objects

    def find_class(self, module, name):
        qualname = _qualname(module, name)
        found = _allowed(qualname)
        if found is None:
            raise Refused(f"Unsupported global: GLOBAL {qualname}", qualname)
        self._handed_out.add(id(found))
        return found

    def _check_call(self, func, args, kwargs=None) -> None:
        if id(func) not in self._handed_out:
            raise Refused(f"only the globals the file names may be called, not {_described(func)}")
        if type(args) not in (tuple, list) or not (kwargs is None or type(kwargs) is dict):
            raise Refused(f"{_name(func)} may only be called with a tuple of arguments, not {_described(args)}")
        if isinstance(func, type) and issubclass(func, Iterable):
            if any(isinstance(arg, (Tensor, np.ndarray)) for arg in (*args, *(kwargs or {}).values())):
                raise Refused(f"{_name(func)}() of a tensor is not allowed: it would iterate over the tensor's "
                              "elements one by one (an expanded tensor has many more than it stores)")

    def load_reduce(self):
        self._check_call(self.stack[-2], self.stack[-1])
        super().load_reduce()

    def load_newobj(self):
        self._check_call(self.stack[-2], self.stack[-1])
        super().load_newobj()

    def load_newobj_ex(self):
        self._check_call(self.stack[-3], self.stack[-2], self.stack[-1])
        super().load_newobj_ex()

    def _instantiate(self, klass, args):  # OBJ and INST
        self._check_call(klass, args)
        super()._instantiate(klass, args)

    def _target(self, opcode: str, types: tuple, depth: int = 1):
        """The object ``opcode`` adds to, ``depth`` from the stack's top, once it is of one of ``types``."""
        target = self.stack[-depth]
        if type(target) not in types:
            raise Refused(f"{opcode} may only add to a {' or '.join(t.__name__ for t in types)}, not "
                          f"{_described(target)}")
        return target

    def load_append(self):
        self._target("APPEND", (list,), 2)
        super().load_append()

    def load_appends(self):
        items = self.pop_mark()
        self._target("APPENDS", (list,)).extend(items)

    def load_setitem(self):
        self._target("SETITEM", (dict, OrderedDict), 3)
        super().load_setitem()

    def load_setitems(self):
        items = self.pop_mark()
        target = self._target("SETITEMS", (dict, OrderedDict))
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def load_additems(self):
        items = self.pop_mark()
        self._target("ADDITEMS", (set,)).update(items)

    def load_build(self):
        state, inst = self.stack[-1], self.stack[-2]
        if type(inst) in SAFE_GLOBALS.values():  # its state is set as pickle does
            super().load_build()
            return
        if type(inst) is not OrderedDict or type(state) is not dict:
            raise Refused(f"BUILD of a {type(inst).__name__} is not allowed (only the attributes of an "
                          "OrderedDict may be set)")
        if not all(type(k) is str and not k.startswith("__") for k in state):
            raise Refused("BUILD may set only plain attributes of an OrderedDict, not special names such as "
                          "__setstate__")
        vars(inst).update(self.stack.pop())  # never through a __setstate__

    def load_bytearray8(self):  # it allocates what it claims; refused as the global protocols 2-4 name
        raise Refused("Unsupported global: GLOBAL bytearray", "builtins.bytearray")

    dispatch.update({pickle.REDUCE[0]: load_reduce, pickle.NEWOBJ[0]: load_newobj, pickle.NEWOBJ_EX[0]: load_newobj_ex,
                     pickle.APPEND[0]: load_append, pickle.APPENDS[0]: load_appends, pickle.SETITEM[0]: load_setitem,
                     pickle.SETITEMS[0]: load_setitems, pickle.ADDITEMS[0]: load_additems,
                     pickle.BUILD[0]: load_build, pickle.BYTEARRAY8[0]: load_bytearray8})


def _name(func) -> str:
    return getattr(func, "__qualname__", None) or type(func).__name__


class _StorageScan(_Unpickler):
    """Reads a pickle only to call ``storage`` for each storage its persistent ids name. Whatever
    ``weights_only`` is, it runs nothing from the file: every global but torch's storage types, and what any
    call or BUILD would make, is a placeholder, and nothing is added to containers."""

    dispatch: ClassVar[dict] = dict(_Unpickler.dispatch)
    _MADE = object()

    def find_class(self, module, name):
        found = _GLOBALS.get(_qualname(module, name))
        return found if isinstance(found, _StorageType) else self._MADE

    def persistent_load(self, pid):
        try:
            return super().persistent_load(pid)
        except Refused:  # for the load that follows to refuse in its own words
            return self._MADE

    def _drop(self, n: int) -> None:
        del self.stack[len(self.stack) - n:]

    def _made(self, inputs: int) -> None:
        """Replace the ``inputs`` objects a call takes from the stack's top by what it makes."""
        self._drop(inputs)
        self.append(self._MADE)

    def _instantiate(self, klass, args):  # OBJ and INST
        self.append(self._MADE)

    dispatch.update({pickle.REDUCE[0]: lambda self: self._made(2), pickle.NEWOBJ[0]: lambda self: self._made(2),
                     pickle.NEWOBJ_EX[0]: lambda self: self._made(3), pickle.BUILD[0]: lambda self: self._drop(1),
                     pickle.APPEND[0]: lambda self: self._drop(1), pickle.SETITEM[0]: lambda self: self._drop(2),
                     **dict.fromkeys((pickle.APPENDS[0], pickle.SETITEMS[0], pickle.ADDITEMS[0]),
                                     lambda self: self.pop_mark())})


def _unpickler(full: bool) -> type[_Unpickler]:
    return _Unpickler if full else _RestrictedUnpickler


class _Bounded:
    """What the unpickler reads ``file`` with: a read past its end raises Invalid, rather than coming
    back short (a truncated line of a GLOBAL would name another global) or allocating the size asked."""

    def __init__(self, file: BinaryIO):
        self._file = file
        self._end = file.tell() + _remaining(file)

    def read(self, n: int) -> bytes:
        if n > self._end - self._file.tell():
            raise Invalid("is truncated: it ends inside a pickle")
        return self._file.read(n)

    def readline(self) -> bytes:
        line = self._file.readline()
        if not line.endswith(b"\n"):
            raise Invalid("is truncated: it ends inside a pickle")
        return line


def _remaining(file: BinaryIO) -> int:
    """How many bytes ``file`` holds after its position."""
    position = file.tell()
    end = file.seek(0, io.SEEK_END)
    file.seek(position)
    return end - position


def _storages(record: Callable[[str], np.ndarray], byteorder: str) -> Callable:
    """The unpickler's ``storage``: the storage of a key is made once, from the bytes ``record(key)``, and
    every later reference gets it whatever type it names, as in torch.load."""
    made: dict[str, np.ndarray] = {}

    def storage(storage_type: _StorageType, key: str, numel: int) -> np.ndarray:
        if key not in made:
            made[key] = storage_type.array(record(key), numel, byteorder)
        return made[key]

    return storage


_CHUNK = 1 << 20


def load_zip(file: BinaryIO, full: bool = False, mapped=None, **unpickler_args) -> object:
    """The object in a zip-format ``torch.save`` file (``file`` must be seekable). ``full`` unpickles any
    global; stored records are views of ``mapped``, a copy-on-write map of the whole file, when given;
    ``unpickler_args``: the object pickle's encoding, errors, fix_imports (torch.load's pickle_load_args)."""
    size = _remaining(file)
    with zipfile.ZipFile(file) as archive:
        left = size  # what the records still to read may claim in all

        def read(name: str) -> np.ndarray:
            nonlocal left
            info = archive.getinfo(name)
            if info.file_size > left:
                raise Invalid(f"is corrupted: its records claim more bytes than the file's {size} (record {name!r} "
                              f"claims {info.file_size})")
            left -= info.file_size
            if mapped is not None and info.compress_type == zipfile.ZIP_STORED:
                start = _data_offset(file, info)
                if start + info.file_size > len(mapped):
                    raise Invalid(f"is truncated: its record {name!r} ends past the end of the file")
                return np.ndarray((info.file_size,), np.uint8, mapped, start)
            buf = np.empty(info.file_size, np.uint8)
            with archive.open(info) as record:
                for start in range(0, buf.size, _CHUNK):  # ZipExtFile.readinto reads all it is asked as bytes first
                    chunk = buf[start:start + _CHUNK]
                    try:
                        complete = record.readinto(chunk) == chunk.size
                    except EOFError:
                        complete = False
                    if not complete:
                        raise Invalid(f"is truncated: its record {name!r} holds less than the {buf.size} bytes "
                                      "the zip directory claims")
            return buf

        names = archive.namelist()
        pickles = [n for n in names if n.rsplit("/", 1)[-1] == "data.pkl"]
        if not pickles:
            raise ValueError("the zip archive has no data.pkl record")
        pkl = min(pickles, key=lambda n: n.count("/"))
        prefix = pkl[:-len("data.pkl")]
        byteorder = read(prefix + "byteorder").tobytes().decode() if prefix + "byteorder" in names else "little"
        if byteorder not in ("little", "big"):
            raise ValueError(f"unknown byteorder {byteorder!r}")
        storage = _storages(lambda key: read(f"{prefix}data/{key}"), byteorder)
        return _unpickler(full)(io.BytesIO(read(pkl).tobytes()), storage, **unpickler_args).load()


def _data_offset(file: BinaryIO, info: zipfile.ZipInfo) -> int:
    """Where the bytes of the record ``info`` start in ``file``: after its local header, whose name and extra
    field may differ in length from those of the central directory."""
    position = file.tell()
    file.seek(info.header_offset)
    header = file.read(30)
    file.seek(position)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise Invalid(f"is corrupted: the local header of record {info.filename!r} is damaged")
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_length + extra_length


def load_legacy(file: BinaryIO, full: bool = False, **unpickler_args) -> object:
    """The object in a legacy (pre-1.6) ``torch.save`` file (``file`` must be seekable); ``full`` unpickles
    any global; ``unpickler_args`` as ``load_zip``'s."""
    _magic, protocol, sys_info = (_RestrictedUnpickler(file).load() for _ in range(3))
    if protocol != LEGACY_PROTOCOL:
        raise ValueError(f"unsupported legacy protocol version {protocol!r}")
    byteorder = "little" if sys_info.get("little_endian", True) else "big"
    # The storages' bytes follow the object pickle, and their sizes depend on the storage types
    # the object names: a scan of the object finds those types before it is built.
    start = file.tell()
    types: dict[str, _StorageType] = {}
    _StorageScan(file, lambda storage_type, key, numel: types.setdefault(key, storage_type)).load()
    records = {}
    for key in _RestrictedUnpickler(file).load():
        if key not in types:
            raise ValueError(f"storage {key!r} is listed but not used by the object")
        count = int.from_bytes(_read_exactly(file, 8, key).tobytes(), byteorder)
        records[key] = _read_exactly(file, count * types[key].dtype.itemsize, key)
    file.seek(start)
    return _unpickler(full)(file, _storages(records.__getitem__, byteorder), **unpickler_args).load()


def _read_exactly(file: BinaryIO, n: int, key: str) -> np.ndarray:
    left = _remaining(file)
    if n > left:  # checked first: a corrupted count must not make the loader allocate it
        raise Invalid(f"is truncated: it ends inside storage {key!r}: {n} bytes expected, {left} present")
    buf = np.empty(n, np.uint8)
    file.readinto(buf)
    return buf


# ---- writing ---------------------------------------------------------------------------------------

ALIGNMENT = 64  # where torch.save starts each storage's bytes, so that a mapped file gives aligned arrays
_STORAGE_OF = {np.dtype(code).str[1:]: name for name, code in _STORAGES.items() if name != "BFloat16Storage"}
_STORAGE_OF[_dtype.BF16.str[1:]] = "BFloat16Storage"


class _Global:
    """A global the pickle names that minitorch does not define (``torch.FloatStorage``): written as a GLOBAL."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle accepts only callables as the function of a reduce
        raise TypeError(f"{self.module}.{self.name} is a name written into checkpoints, not a function")


@functools.cache
def _global(module: str, name: str) -> _Global:
    return _Global(module, name)


class _Storage:
    """A tensor's data, pickled as a persistent id that names its record."""

    __slots__ = ("array", "key")

    def __init__(self, key: str, array: np.ndarray):
        self.key, self.array = key, array


def _contiguous_strides(shape: tuple) -> tuple:
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


class _Pickler(pickle._Pickler):  # the pure-Python pickler, whose dispatch table can write torch's globals
    """Pickles as torch.save does: tensors as ``_rebuild_tensor_v2`` of a storage, minitorch's Size, device
    and dtypes as torch's; ``storages`` collects the tensors' arrays in record order."""

    dispatch: ClassVar[dict] = dict(pickle._Pickler.dispatch)

    def __init__(self, file: BinaryIO, protocol: int = 2):
        super().__init__(file, protocol=protocol)
        self.storages: list[np.ndarray] = []
        self._parameter = parameter_class()

    def persistent_id(self, obj):
        if type(obj) is not _Storage:
            return None
        storage_type = _STORAGE_OF[obj.array.dtype.str[1:]]
        return "storage", _global("torch", storage_type), obj.key, "cpu", obj.array.size

    def reducer_override(self, obj):
        if isinstance(obj, Tensor) and obj.is_sparse:
            data = (obj._indices(), obj._values(), obj.size(), obj.is_coalesced())
            return _global("torch._utils", "_rebuild_sparse_tensor"), (obj.layout, data)
        if isinstance(obj, _shape.layout):
            return _global("torch.serialization", "_get_layout"), (f"torch.{obj._name}",)
        if isinstance(obj, Tensor):
            if self._parameter is not None and isinstance(obj, self._parameter):
                return _global("torch._utils", "_rebuild_parameter"), (
                    Tensor._wrap(obj._data), obj.requires_grad, OrderedDict())
            storage = _Storage(str(len(self.storages)), obj._data)
            self.storages.append(obj._data)
            shape = tuple(obj.shape)
            return _global("torch._utils", "_rebuild_tensor_v2"), (
                storage, 0, shape, _contiguous_strides(shape), obj.requires_grad, OrderedDict())
        if isinstance(obj, Size):
            return _global("torch", "Size"), (tuple(obj),)
        if type(obj) is device:
            return _global("torch", "device"), (str(obj),)
        return NotImplemented

    def save_torch_global(self, obj: _Global):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
        self.memoize(obj)

    def save_dtype(self, obj: _dtype.dtype):
        self.save(_global("torch", obj.name))

    dispatch[_Global] = save_torch_global
    dispatch[_dtype.dtype] = save_dtype


def write_zip(obj: object, fh: BinaryIO, packed: Callable[[np.ndarray], np.ndarray], protocol: int = 2,
              byteorder_record: bool = True) -> None:
    """Write ``obj`` to ``fh`` in torch.save's zip format; ``packed(array)`` gives the bytes of a storage;
    ``protocol``: the object pickle's; ``byteorder_record=False`` leaves out the record of the byte order."""
    pkl = io.BytesIO()
    pickler = _Pickler(pkl, protocol)
    pickler.dump(obj)
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as archive:
        _write_record(archive, "data.pkl", pkl.getbuffer())
        _write_record(archive, ".format_version", b"1")
        _write_record(archive, ".storage_alignment", str(ALIGNMENT).encode())
        if byteorder_record:
            _write_record(archive, "byteorder", b"little")
        for key, array in enumerate(pickler.storages):
            _write_record(archive, f"data/{key}", packed(array))
        _write_record(archive, "version", b"3\n")
        _write_record(archive, ".data/serialization_id", f"{secrets.randbits(128):040d}".encode())


def _write_record(archive: zipfile.ZipFile, name: str, data) -> None:
    """Store ``data`` (bytes-like, one byte an item) as ``archive/<name>``, its bytes starting at a multiple of
    ALIGNMENT: the local header's extra field pads it, as PyTorch's writer does."""
    info = zipfile.ZipInfo(f"archive/{name}")
    info.file_size = len(data)
    header = 30 + len(info.filename.encode()) + 4
    if info.file_size * 1.05 > zipfile.ZIP64_LIMIT:  # zipfile then adds a zip64 field of 20 bytes
        header += 20
    pad = -(archive.start_dir + header) % ALIGNMENT
    info.extra = b"FB" + pad.to_bytes(2, "little") + bytes(pad)
    with archive.open(info, "w") as record:
        record.write(data)
