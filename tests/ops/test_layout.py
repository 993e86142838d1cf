"""Every registered op's result is laid out in memory as PyTorch lays out its own: the same strides and
contiguity, and a view exactly where PyTorch returns one (sharing memory with the same inputs), on the registry's
sample inputs; against PyTorch's answers recorded in tests/fixtures/layouts.json (by
tests/fixtures/make_layout_fixture.py). Ops whose sample does not run in PyTorch as written are not compared."""
import json

import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F
import registry_layout
from locations import FIXTURES
from torch_answers import torch_answer

RECORDED = json.loads((FIXTURES / "layouts.json").read_text())["layouts"]
MINITORCH = registry_layout.Library(minitorch, F, "minitorch")
COMPARED = sorted(name for name, answer in RECORDED.items() if answer is not None)

# Where minitorch still differs, each a strict xfail (it fails the day it is fixed):
# conj of a complex tensor is a view with PyTorch's conjugate bit; numpy has no lazy conjugation: minitorch copies.
LAZY_CONJUGATE = {"conj"}
KNOWN = dict.fromkeys(LAZY_CONJUGATE, "lazy conj")


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN[n], strict=True))
                                  if n in KNOWN else n for n in COMPARED])
def test_layout_as_pytorch(name):
    assert registry_layout.layout(MINITORCH, name) == RECORDED[name]


def test_the_sweep_covers_the_registry():
    assert len(COMPARED) >= 0.9 * len(registry_layout.NAMES)


def test_max_pool2d_of_a_7x7_map_is_contiguous():
    """The instance from issue 22: a 7x7 map pooled to 3x3 (kernel 3, stride 2), then ``view``."""
    out = F.max_pool2d(minitorch.arange(98.0).reshape(1, 2, 7, 7), 3, 2)
    assert out.is_contiguous() and out.stride() == (18, 9, 3, 1)
    assert out.view(1, -1).tolist() == [[16.0, 18.0, 20.0, 30.0, 32.0, 34.0, 44.0, 46.0, 48.0,
                                         65.0, 67.0, 69.0, 79.0, 81.0, 83.0, 93.0, 95.0, 97.0]]


def _transform_strides(lib, shape):
    x = lib.arange(float(np.prod(shape))).reshape(shape)
    c, f = x.to(lib.complex64), lib.fft
    calls = [f.fft(x, dim=1), f.rfft(x, dim=1), f.ifft(c, dim=0), f.irfft(c, dim=1), f.hfft(c, dim=1),
             f.fftn(x, dim=(2, 0)), f.fft2(x, dim=(2, 1)), f.rfft2(x, dim=(1, 0)), f.irfftn(c, dim=(2, 0)),
             f.ifftn(c, dim=(-1, 1)), f.fft(x.transpose(1, 2), dim=1), f.fftn(x, dim=(2, 0), s=(4, 3)),
             lib.stft(x[0], 4, hop_length=2, window=lib.hann_window(4), return_complex=True),
             lib.stft(x[:, 0], 4, hop_length=1, return_complex=True, onesided=False)]
    return [(tuple(r.shape), tuple(r.stride())) for r in calls]


def test_transforms_lay_out_their_dims_innermost_as_pytorch():
    """Transforms along any dims: torch writes the transformed dims innermost (numpy keeps the input's order)."""
    assert _transform_strides(minitorch, (2, 7, 8)) == torch_answer(_transform_strides, (2, 7, 8))
