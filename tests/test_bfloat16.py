"""bfloat16 as PyTorch's CPU computes it, bit for bit, against answers recorded by
tests/fixtures/make_bfloat16_fixtures.py (no PyTorch needed)."""
import json
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

import minitorch

sys.path.insert(0, str(pathlib.Path(__file__).parent / "fixtures"))
from make_bfloat16_fixtures import ARGUMENT_SETS, CALLS  # noqa: E402

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
FACTS = json.loads((FIXTURES / "bfloat16.json").read_text())
OPS = dict(np.load(FIXTURES / "bfloat16_ops.npz"))
BF16 = minitorch.bfloat16


def _inputs() -> dict:
    return {k: minitorch.from_numpy(np.array(v, np.uint16).view(ml_dtypes.bfloat16).reshape(FACTS["shapes"][k]))
            for k, v in FACTS["inputs"].items()}


def _bits(t) -> np.ndarray:
    assert t.dtype is BF16, t.dtype
    return t.detach().contiguous()._data.view(np.uint16)


def _same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit patterns, any NaN matching any NaN."""
    nan = lambda b: (b & 0x7F80) == 0x7F80 and (b & 0x7F) != 0  # noqa: E731
    got, want = got.reshape(-1), want.reshape(-1)
    return got.shape == want.shape and all(g == w or (nan(g) and nan(w)) for g, w in zip(got.tolist(), want.tolist()))


def _call(key: str, t: dict):
    if key in CALLS:
        return CALLS[key](t, minitorch)
    name, argset = key.split("|")
    out = getattr(minitorch, name)(*(t[a] if isinstance(a, str) else a for a in ARGUMENT_SETS[argset]))
    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, minitorch.Tensor) and o.dtype is BF16]
    want = OPS[key]
    return outs[0] if want.ndim < 1 or len(outs) == 1 or want.shape[0] != len(outs) or want.shape == outs[0].shape \
        else minitorch.stack([o.reshape(-1) for o in outs])


@pytest.mark.parametrize("key", sorted(OPS))
def test_op_matches_torch_bit_for_bit(key):
    got = _bits(_call(key, _inputs()))
    assert _same_bits(got, OPS[key]), (got.reshape(-1)[:8], OPS[key].reshape(-1)[:8])
