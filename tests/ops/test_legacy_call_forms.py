"""Call forms and small behaviours that tutorials meet and PyTorch keeps: the deprecated ``add(Number alpha, Tensor
other)`` overloads (with PyTorch's warning), a 0-d index for gather/scatter of a 1-d tensor, indexing with a
Python ``range``; against PyTorch when it is installed, else against the literal values."""
import re
import warnings

import numpy as np
import pytest

import minitorch

try:
    import torch
except ImportError:
    torch = None

LIBS = ["minitorch"] + (["torch"] if torch is not None else [])


def _lib(name):
    return minitorch if name == "minitorch" else torch


WARNING = (r"^This overload of {0} is deprecated:\n\t{0}\(Number alpha, Tensor other\)\nConsider using one of the "
           r"following signatures instead:\n\t{0}\(Tensor other, \*, Number alpha = 1\)")


@pytest.mark.parametrize("lib_name", LIBS)
@pytest.mark.parametrize("name, expected", [("add_", 5.0), ("sub_", -3.0), ("add", 5.0), ("sub", -3.0)])
def test_deprecated_alpha_overload(lib_name, name, expected, recwarn):
    """PyTorch warns once per process (its text is the literal here); minitorch warns as Python does."""
    t = _lib(lib_name)
    a = t.ones(3)
    r = getattr(a, name)(2, t.ones(3) * 2)
    np.testing.assert_array_equal(r.numpy(), [expected] * 3)
    assert (r is a) == name.endswith("_")
    np.testing.assert_array_equal(getattr(t, name.rstrip("_"))(t.ones(3), 2, t.ones(3) * 2).numpy(), [expected] * 3)
    if t is minitorch:
        assert re.match(WARNING.format(name), str(recwarn[0].message))


@pytest.mark.parametrize("lib_name", LIBS)
def test_zero_dim_index_of_a_vector(lib_name):
    t = _lib(lib_name)
    x = t.zeros(3)
    x.scatter_(0, t.tensor(1), 5.0)
    assert x.tolist() == [0.0, 5.0, 0.0]
    assert t.zeros(3).scatter(0, t.tensor(2), t.tensor(7.0)).tolist() == [0.0, 0.0, 7.0]
    assert t.zeros(3).scatter_add(0, t.tensor(2), t.tensor(7.0)).tolist() == [0.0, 0.0, 7.0]
    v = t.arange(3.0, requires_grad=True)
    picked = v.gather(0, t.tensor(2))
    assert picked.dim() == 0 and float(picked) == 2.0
    picked.backward()
    assert v.grad.tolist() == [0.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as self tensor"):
        t.zeros(2, 3).scatter_(0, t.tensor(1), 5.0)


@pytest.mark.parametrize("lib_name", LIBS)
def test_indexing_with_a_range(lib_name):
    t = _lib(lib_name)
    x = t.arange(10.0).reshape(5, 2)
    assert x[range(1, 4)].tolist() == [[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]
    assert x[range(3), 1].tolist() == [1.0, 3.0, 5.0]


def test_float_of_a_recorded_tensor_warns_as_torch():
    x = minitorch.tensor(2.0, requires_grad=True)
    with pytest.warns(UserWarning, match=r"^Converting a tensor with requires_grad=True to a scalar may lead to "
                                         r"unexpected behavior\.\nConsider using tensor\.detach\(\) first\.$"):
        assert float(x) == 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert int(x) == 2 and float(x.detach()) == 2.0


def test_linalg_slogdet_is_its_own_named_tuple():
    r = minitorch.linalg.slogdet(minitorch.eye(2))
    assert type(r).__name__ == "linalg_slogdet" and type(minitorch.slogdet(minitorch.eye(2))).__name__ == "slogdet"
    assert r._fields == ("sign", "logabsdet") and float(r.sign) == 1.0 and float(r.logabsdet) == 0.0
