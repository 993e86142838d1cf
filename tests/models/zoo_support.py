"""The minitorch side of the model-zoo tests: reading the recorded fixtures, building big models cheaply for their
structure, and comparing records within float32's tolerance."""
from __future__ import annotations

import contextlib
import gzip
import json
import math
from typing import Any, Iterator
from unittest import mock

import numpy as np

import minitorch
from minitorch import _factories, nn
from locations import FIXTURES

ZOO = FIXTURES / "zoo"


def load_fixture(family: str) -> dict[str, Any]:
    """tests/fixtures/zoo/<family>.json.gz, written by tests/fixtures/make_zoo_fixtures.py from torchvision."""
    with gzip.open(ZOO / f"{family}.json.gz", "rt", encoding="utf-8") as fh:
        return json.load(fh)


def _no_init(tensor: Any, *args: Any, **kwargs: Any) -> Any:
    return tensor


def _lazy_zeros(*size: Any, dtype: Any = None, **kwargs: Any) -> minitorch.Tensor:
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    dtype = minitorch.get_default_dtype() if dtype is None else dtype
    return minitorch.Tensor._wrap(np.zeros(shape, dtype.np))  # calloc: pages come when written


def _zero_stride_empty(*size: Any, dtype: Any = None, **kwargs: Any) -> minitorch.Tensor:
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    dtype = minitorch.get_default_dtype() if dtype is None else dtype
    return minitorch.Tensor._wrap(np.broadcast_to(np.zeros((), dtype.np), shape))


@contextlib.contextmanager
def skipped_init() -> Iterator[None]:
    """Within it, ``nn.init``'s functions (which the layers' own initialisation calls too) do nothing and layers'
    parameters start as zeros (memory the system gives only once written)."""
    inits = [name for name in dir(nn.init) if name.endswith("_") and not name.startswith("_")]
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(_factories, "empty", _lazy_zeros))
        for name in inits:
            stack.enter_context(mock.patch.object(nn.init, name, _no_init))
        yield


@contextlib.contextmanager
def cheap_parameters() -> Iterator[None]:
    """Within it, layers get their parameters as read-only zero-stride arrays (no memory, whatever their size) and
    are not initialised: a model of any size builds in a moment, with its real module tree, state_dict keys and
    shapes. For counting and comparing structure only: such a model cannot be run or loaded into."""
    with skipped_init(), mock.patch.object(_factories, "empty", _zero_stride_empty):
        yield


def assert_close_record(actual: Any, expected: Any, path: str = "", rtol: float = 1e-7) -> None:
    """``actual`` equals ``expected`` (both JSON-like), floats within ``rtol`` (and, in lists of floats, an absolute
    tolerance of ``rtol`` times the list's largest magnitude: float32 sums of many terms differ in their last bits)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and actual.keys() == expected.keys(), \
            f"{path}: keys {sorted(actual)} != {sorted(expected)}"
        for key in expected:
            assert_close_record(actual[key], expected[key], f"{path}.{key}", rtol)
    elif isinstance(expected, list) and expected and all(isinstance(v, float) for v in expected):
        a, e = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
        scale = float(np.abs(e).max())
        np.testing.assert_allclose(a, e, rtol=rtol, atol=rtol * scale, err_msg=path)
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: lengths differ"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close_record(a, e, f"{path}[{i}]", rtol)
    elif isinstance(expected, float):
        assert isinstance(actual, (int, float)), f"{path}: {actual!r} is not a number"
        assert math.isclose(actual, expected, rel_tol=rtol, abs_tol=1e-6) or \
            (math.isnan(actual) and math.isnan(expected)), f"{path}: {actual} != {expected}"
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"
