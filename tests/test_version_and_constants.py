"""torch's module constants, ``torch.__version__`` as a ``TorchVersion`` and the package metadata under the alias."""
import math
import subprocess
import sys

import pytest

import minitorch
from minitorch.torch_version import TorchVersion
from torch_answers import torch_answer

# (version, other): compared with each of == != < <= > >=
COMPARISONS = [
    ("2.13.0", "2.13"), ("2.13.0", "2.13.0"), ("2.13.0", "2.0"), ("2.13.0", "2.9"), ("2.13.0", "2.13.1"),
    ("2.13.0", "2.13.0a0"), ("2.13.0", "2.13.0rc1"), ("2.13.0", "2.13.0.post1"), ("2.13.0", "2.13.0.dev20250101"),
    ("2.13.0", "2.13.0+cpu"), ("2.13.0+cpu", "2.13.0+cu121"), ("2.13.0a0", "2.13.0.dev1"), ("1.10.0", "1.9.1"),
    ("2.13.0", (2, 0)), ("2.13.0", (2, 13)), ("2.13.0", (2, 13, 0)), ("2.13.0", (2, 14)), ("2.13.0", [1, 8]),
    ("2.13.0", "parrot"), ("2.13.0", "v2.13.0"), ("2.0.0rc1", "2.0.0b2"), ("2.13.0", "2.13.0.0"),
]


def compare_all(lib_version_class, version, other):
    v = lib_version_class(version)
    return [v == other, v != other, v < other, v <= other, v > other, v >= other]


@pytest.mark.parametrize("version, other", COMPARISONS)
def test_torch_version_compares_as_pytorch(version, other):
    theirs = torch_answer(lambda torch, a, b: compare_all(torch.torch_version.TorchVersion, a, b), version, other)
    assert compare_all(TorchVersion, version, other) == theirs


def ordering_outcome(version_class, other):
    try:
        return version_class("2.13.0") < other
    except TypeError as e:
        return str(e)


@pytest.mark.parametrize("other", ["2.0", "3.0"])
def test_torch_version_refuses_ordering_with_packagings_versions(other):
    """PyTorch's compares as versions only with its own vendored packaging's Version: a ``packaging.version.Version``
    of the program's is neither a string nor a tuple, and ordering with it raises TypeError."""
    version = pytest.importorskip("packaging.version")
    answer = torch_answer(lambda torch, b: ordering_outcome(torch.torch_version.TorchVersion, version.Version(b)),
                          other)
    assert ordering_outcome(TorchVersion, version.Version(other)) == answer


def test_torch_version_is_a_string():
    v = minitorch.__version__
    assert isinstance(v, str) and type(v) is TorchVersion and v == "2.13.0" and v is minitorch.version.__version__
    assert v.split(".") == ["2", "13", "0"] and v.startswith("2.") and v + "x" == "2.13.0x" and str(v) == "2.13.0"
    assert hash(v) == hash("2.13.0") and {v: 1}["2.13.0"] == 1
    with pytest.raises(TypeError, match="'>' not supported between instances of 'TorchVersion' and 'int'"):
        v > 2  # noqa: B015


def test_module_constants_are_torchs():
    theirs = torch_answer(lambda torch: [torch.inf, str(torch.nan), torch.pi, torch.e, torch.newaxis])
    assert [minitorch.inf, str(minitorch.nan), minitorch.pi, minitorch.e, minitorch.newaxis] == theirs
    assert minitorch.inf == math.inf and math.isnan(minitorch.nan) and minitorch.ones(3)[:, minitorch.newaxis].shape \
        == (3, 1)


def test_metadata_answers_for_torch_and_torchvision_under_the_alias():
    code = ("from minitorch._torch_alias import install; install()\nimport importlib.metadata as md, torch\n"
            "print(md.version('torch'), md.version('torchvision'), md.distribution('torch').metadata['Name'],\n"
            "      'torch' in md.packages_distributions()['torch'], torch.__version__ >= '2.0', type(torch.__version__)\n"
            "      .__name__, md.version('minitorch'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["2.13.0", "0.28.0", "torch", "True", "True", "TorchVersion", "0.1.0"], out.stderr
