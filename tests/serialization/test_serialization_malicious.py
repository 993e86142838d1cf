"""Files that try to run code, loaded under every value of ``weights_only`` and its environment variables.

Each family of malicious pickle is written here opcode by opcode. Its payload, if it ran, would add a line
to a marker file. Every family is loaded as a zip checkpoint, a legacy checkpoint and a bare pickle, at
the top level and nested in an OrderedDict and a list. Only ``weights_only=False`` (or an unset
``weights_only`` with ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD``) may run it, and then exactly once. Every
other load must refuse with PyTorch's error type, naming the file. torch is needed only for the live
comparison with ``torch.load``.
"""
import contextlib
import copyreg
import io
import os
import pickle
import re
import shlex
import warnings
from collections import namedtuple

import numpy as np
import pytest

from minitorch.serialization import load
from test_serialization import call, glob, num, text, torch_legacy, torch_zip, tup

REDUCE, EMPTY_TUPLE = b"R", b")"


def binbytes(data: bytes) -> bytes:  # BINBYTES, a protocol 3 opcode
    return b"B" + len(data).to_bytes(4, "little") + data


def listed(*items: bytes) -> bytes:
    return b"(" + b"".join(items) + b"l"


def short_text(s: str) -> bytes:  # SHORT_BINUNICODE, a protocol 4 opcode
    return b"\x8c" + bytes([len(s)]) + s.encode()


def attribute(obj: bytes, name: str) -> bytes:
    """``getattr(obj, name)``, ``obj`` built (and its globals named) first: memo 9 keeps it while getattr is pushed."""
    return obj + b"q\x09" + b"0" + call(glob("builtins getattr"), b"h\x09", text(name))


class Payload:
    """What each family runs: it appends a line to ``marker``."""

    def __init__(self, marker):
        self.marker = str(marker)
        self.shell = f"echo ran >> {shlex.quote(self.marker)}"
        self.python = f"open({self.marker!r}, 'a').write('ran\\n')"  # an expression, for eval and exec

    def argv(self) -> bytes:
        return listed(*map(text, ["sh", "-c", self.shell]))

    def runs(self) -> int:
        """How many times the payload ran."""
        return len(open(self.marker).readlines()) if os.path.exists(self.marker) else 0


# The extension codes registered (by the ``extensions`` fixture) for the EXT1, EXT2 and EXT4 families.
EXTENSIONS = {0xF1: ("os", "system"), 0xF2: ("posix", "system"), 0xF3: ("builtins", "exec")}

def refused(qualname: str) -> str:
    """The weights_only error's words for the global ``qualname``, as a regular expression."""
    return re.escape(f"Unsupported global: GLOBAL {qualname} was not an allowed global by default")


# opcodes(payload): the value; refusal: a regular expression that the weights_only error matches; protocol:
# of the pickle; runs: whether weights_only=False runs the payload; full: how such a load ends (None: it returns).
Family = namedtuple("Family", "opcodes refusal protocol runs full", defaults=(2, True, None))
FAMILIES = {
    "os_system": Family(lambda p: call(glob("os system"), text(p.shell)), refused("os.system")),
    "posix_system": Family(lambda p: call(glob("posix system"), text(p.shell)), refused("posix.system")),
    "eval": Family(lambda p: call(glob("builtins eval"), text(p.python)), refused("eval")),
    "exec": Family(lambda p: call(glob("__builtin__ exec"), text(p.python)), refused("exec")),
    "subprocess_popen": Family(lambda p: call(attribute(call(glob("subprocess Popen"), p.argv()), "wait")),
                               refused("subprocess.Popen")),
    "subprocess_check_output": Family(lambda p: call(glob("subprocess check_output"), p.argv()),
                                      refused("subprocess.check_output")),
    "os_popen": Family(lambda p: call(attribute(call(glob("os popen"), text(p.shell)), "close")), refused("os.popen")),
    "importlib": Family(lambda p: call(attribute(call(glob("importlib import_module"), text("os")), "system"),
                                       text(p.shell)), refused("importlib.import_module")),
    "getattr_import": Family(lambda p: call(call(glob("builtins getattr"), call(glob("builtins __import__"),
                                                                                text("os")), text("system")),
                                            text(p.shell)), refused("getattr")),
    "functools_partial": Family(lambda p: call(call(glob("functools partial"), glob("os system"), text(p.shell))),
                                refused("functools.partial")),
    "pickle_loads": Family(lambda p: call(glob("pickle loads"), binbytes(b"\x80\x02" + call(
                               glob("os system"), text(p.shell)) + b".")), refused("pickle.loads"), protocol=3),
    # BUILD of {'__setstate__': os.system} plants a __setstate__ that the second BUILD calls.
    "build_setstate": Family(lambda p: call(glob("collections OrderedDict")) + b"}" + text("__setstate__")
                             + glob("os system") + b"sb" + text(p.shell) + b"b", refused("os.system")),
    "inst": Family(lambda p: b"(" + text(p.shell) + b"ios\nsystem\n", refused("os.system")),
    "obj": Family(lambda p: b"(" + glob("os system") + text(p.shell) + b"o", refused("os.system")),
    "stack_global_4": Family(lambda p: short_text("os") + short_text("system") + b"\x93" + short_text(p.shell)
                             + b"\x85" + REDUCE, refused("os.system"), protocol=4),
    "stack_global_5": Family(lambda p: short_text("posix") + short_text("system") + b"\x93" + short_text(p.shell)
                             + b"\x85" + REDUCE, refused("posix.system"), protocol=5),
    "ext1": Family(lambda p: b"\x82\xf1" + tup(text(p.shell)) + REDUCE, refused("os.system")),
    "ext2": Family(lambda p: b"\x83\xf2\x00" + tup(text(p.shell)) + REDUCE, refused("posix.system")),
    "ext4": Family(lambda p: b"\x84\xf3\x00\x00\x00" + tup(text(p.python)) + REDUCE, refused("exec")),
    # A storage's persistent id whose storage type is what os.system returns.
    "persistent_id": Family(lambda p: tup(text("storage"), call(glob("os system"), text(p.shell)), text("0"),
                                          text("cpu"), num(1)) + b"Q", refused("os.system"),
                            full=pickle.UnpicklingError),
    "persistent_id_text": Family(lambda p: b"P" + p.shell.encode() + b"\n", "persistent id 'echo ran >> .*' is "
                                 "not a storage", runs=False, full=pickle.UnpicklingError),
}
CONTAINERS = {
    "top": lambda v: v,
    "ordered_dict": lambda v: glob("collections OrderedDict") + EMPTY_TUPLE + REDUCE + text("a") + v + b"s",
    "list": lambda v: b"]" + v + b"a",
    "list_in_ordered_dict": lambda v: CONTAINERS["ordered_dict"](CONTAINERS["list"](v)),
}
FORMATS = {
    "zip": lambda value, protocol: torch_zip(value, None, protocol=protocol),
    "legacy": lambda value, protocol: torch_legacy(value, None, protocol=protocol),
    "pickle": lambda value, protocol: bytes([pickle.PROTO[0], protocol]) + value + b".",
}


# name: the load's keyword arguments, the environment variables set, whether the load may run code, and the
# warning it gives (a regular expression).
Setting = namedtuple("Setting", "kwargs env full warning", defaults=({}, False, None))
OURS = r"minitorch.load: weights_only=.* is not False, so the file is loaded with weights_only=True"
TORCHS = re.escape("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the`weights_only` argument "
                   "was not explicitly passed to `torch.load`, forcing weights_only=False.")
SETTINGS = {
    "default": Setting({}),
    "None": Setting({"weights_only": None}),
    "True": Setting({"weights_only": True}),
    "1": Setting({"weights_only": 1}),
    "'False'": Setting({"weights_only": "False"}),
    "0": Setting({"weights_only": 0}, warning=OURS),
    "''": Setting({"weights_only": ""}, warning=OURS),
    "0.0": Setting({"weights_only": 0.0}, warning=OURS),
    "[]": Setting({"weights_only": []}, warning=OURS),
    "np.False_": Setting({"weights_only": np.False_}, warning=OURS),
    "False_forced_on": Setting({"weights_only": False}, {"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "1"}),
    "None_forced_on": Setting({"weights_only": None}, {"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "TRUE"}),
    "True_forced_off": Setting({"weights_only": True}, {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1"}),
    "0_forced_off": Setting({"weights_only": 0}, {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1"}, warning=OURS),
    "default_off_not_true": Setting({}, {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "on"}),  # not one of torch's true values
    "False": Setting({"weights_only": False}, full=True),
    "None_forced_off": Setting({"weights_only": None}, {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "yes"}, True, TORCHS),
    "default_forced_off": Setting({}, {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "Y"}, True, TORCHS),
}
SAFE_SETTINGS = {name: s for name, s in SETTINGS.items() if not s.full}
ENV_VARS = ("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")


@contextlib.contextmanager
def loading_as(setting: Setting):
    """The setting's environment variables (and no other of the two), and a check of the warnings it gives."""
    before = {name: os.environ.pop(name, None) for name in ENV_VARS}
    os.environ.update(setting.env)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        messages = [str(w.message) for w in caught]
        assert len(messages) == (setting.warning is not None) and all(re.match(setting.warning, m)
                                                                       for m in messages), messages
    finally:
        for name, value in before.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value


@pytest.fixture
def extensions():
    for code, key in EXTENSIONS.items():
        copyreg.add_extension(*key, code)
    yield
    for code, key in EXTENSIONS.items():
        copyreg.remove_extension(*key, code)


def assert_refused(path, family: Family, file_format: str, **kwargs):
    name = repr(str(path))
    if file_format == "pickle":  # minitorch never unpickles a file that is not a checkpoint
        with pytest.raises(RuntimeError, match=f"^minitorch.load: {re.escape(name)} is not a minitorch, "
                                               "safetensors or PyTorch checkpoint"):
            load(path, **kwargs)
        return
    with pytest.raises(pickle.UnpicklingError) as refused:
        load(path, **kwargs)
    message = str(refused.value)
    assert message.startswith("Weights only load failed.") and re.search(family.refusal, message)
    assert message.endswith(f"torch.load.html. minitorch.load: {name} was not loaded.")


@pytest.mark.parametrize("file_format", FORMATS)
@pytest.mark.parametrize("family", FAMILIES)
def test_malicious_files_run_only_with_weights_only_false(family, file_format, tmp_path, extensions):
    family = FAMILIES[family]
    payload = Payload(tmp_path / "marker")
    for container_name, container in CONTAINERS.items():
        path = tmp_path / f"{container_name}.pt"
        path.write_bytes(FORMATS[file_format](container(family.opcodes(payload)), family.protocol))
        for setting in SAFE_SETTINGS.values():
            for mmap in (None, True) if file_format == "zip" else (None,):
                with loading_as(setting):
                    assert_refused(path, family, file_format, mmap=mmap, **setting.kwargs)
        assert payload.runs() == 0

    path = tmp_path / "top.pt"  # the test would see code that ran: weights_only=False runs it, once
    if file_format == "pickle":
        assert_refused(path, family, file_format, weights_only=False)
    else:
        with pytest.raises(family.full) if family.full else contextlib.nullcontext():
            load(path, weights_only=False)
    assert payload.runs() == (family.runs and file_format != "pickle")


def test_extension_codes_another_unpickler_cached_stay_refused(tmp_path, extensions):
    payload = Payload(tmp_path / "marker")
    assert pickle.loads(b"\x80\x02\x82\xf1.") is os.system  # pickle caches os.system for code 0xF1 in copyreg
    path = tmp_path / "ext.pt"
    path.write_bytes(torch_zip(FAMILIES["ext1"].opcodes(payload), None))
    with pytest.raises(pickle.UnpicklingError, match=refused("os.system")):
        load(path)
    assert payload.runs() == 0


# ---- how weights_only is resolved ----------------------------------------------------------------------------

def harmless_zip(tmp_path) -> tuple:
    payload = Payload(tmp_path / "marker")
    path = tmp_path / "ckpt.pt"
    path.write_bytes(torch_zip(FAMILIES["os_system"].opcodes(payload), None))
    return path, payload


@pytest.mark.parametrize("setting", SETTINGS)
def test_weights_only_settings(setting, tmp_path):
    setting = SETTINGS[setting]
    path, payload = harmless_zip(tmp_path)
    with loading_as(setting):
        if setting.full:
            assert load(path, **setting.kwargs) == {"w": 0}
        else:
            with pytest.raises(pickle.UnpicklingError, match=refused("os.system")):
                load(path, **setting.kwargs)
    assert payload.runs() == setting.full


def torch_runs(torch, path, payload, setting: Setting) -> bool:
    """Whether torch.load runs the payload under ``setting``, and checks that it warns as minitorch does (but for
    the falsy values that only minitorch warns about)."""
    before = payload.runs()
    with loading_as(setting._replace(warning=TORCHS if setting.warning == TORCHS else None)):
        with contextlib.suppress(pickle.UnpicklingError):
            torch.load(path, **setting.kwargs)
    return payload.runs() > before


def test_torch_resolves_weights_only_alike_but_for_falsy_values(tmp_path):
    torch = pytest.importorskip("torch")
    path, payload = harmless_zip(tmp_path)
    for name, setting in SETTINGS.items():  # torch.load unpickles anything when weights_only is falsy
        assert torch_runs(torch, path, payload, setting) == (setting.full or setting.warning == OURS), name


TORCH_BOTH = ("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but "
              "both were set.")
TORCH_MMAP = ("mmap can only be used with files saved with `torch.save({}_use_new_zipfile_serialization=True), please "
              "torch.save your checkpoint with this option in order to use mmap.")


def test_both_environment_variables_set_are_an_error_before_the_file_is_read(tmp_path):
    both = Setting({}, {"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "1", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "true"})
    for kwargs in ({}, {"weights_only": True}, {"weights_only": False}):
        with loading_as(both), pytest.raises(RuntimeError, match=f"^{re.escape(TORCH_BOTH)}$"):
            load(tmp_path / "missing.pt", **kwargs)


def mmap_sources(tmp_path) -> dict:
    """Makers of the sources of a zip and a legacy checkpoint: paths (str and PathLike) and file objects."""
    sources = {}
    for kind, data in (("zip", torch_zip(text("v"), None)), ("legacy", torch_legacy(text("v"), None))):
        path = tmp_path / f"{kind}.pt"
        path.write_bytes(data)
        sources.update({f"{kind}_str": lambda path=path: str(path), f"{kind}_path": lambda path=path: path,
                        f"{kind}_file": lambda data=data: io.BytesIO(data)})
    return sources


def test_mmap_rules(tmp_path):
    sources = mmap_sources(tmp_path)
    assert load(sources["zip_str"](), mmap=True) == load(sources["zip_path"](), mmap=True) == {"w": "v"}
    with pytest.raises(ValueError, match="^f must be a file path in order to use the mmap argument$"):
        load(sources["zip_file"](), mmap=True)
    for case, named in (("legacy_str", f"{sources['legacy_str']()}, "), ("legacy_path", ""), ("legacy_file", "")):
        with pytest.raises(RuntimeError, match=f"^{re.escape(TORCH_MMAP.format(named))}$"):
            load(sources[case](), mmap=True)


def test_mmap_errors_are_torchs(tmp_path):
    torch = pytest.importorskip("torch")
    sources = mmap_sources(tmp_path)
    for case in ("zip_file", "legacy_str", "legacy_path", "legacy_file"):
        with pytest.raises(Exception) as theirs:
            torch.load(sources[case](), mmap=True)
        with pytest.raises(type(theirs.value)) as ours:
            load(sources[case](), mmap=True)
        assert str(ours.value) == str(theirs.value), case
