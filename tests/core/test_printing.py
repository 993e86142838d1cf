"""Tensor printing: exact ``repr`` text, generated with PyTorch 2.13 (``torch.`` -> ``minitorch.``)."""
import math

import pytest

import minitorch
from minitorch import _tensor_str

nan, inf = math.nan, math.inf
DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


@pytest.fixture(autouse=True)
def _default_printoptions():
    minitorch.set_printoptions(profile="default")
    yield
    minitorch.set_printoptions(profile="default")


def make(expr):
    return eval(expr, {"minitorch": minitorch, "nan": nan, "inf": inf})


# expression -> repr under the default print options
CASES = {
    "minitorch.tensor([1., 2., 3.])":
        "tensor([1., 2., 3.])",
    "minitorch.tensor([0.1, 0.25])":
        "tensor([0.1000, 0.2500])",
    "minitorch.tensor([-1., 2.])":
        "tensor([-1.,  2.])",
    "minitorch.tensor([[1., 2.], [3., 4.]])":
        (
            "tensor([[1., 2.],\n"
            "        [3., 4.]])"
        ),
    "minitorch.tensor([1, -20, 300])":
        "tensor([  1, -20, 300])",
    "minitorch.tensor([1, 2, 3], dtype=minitorch.int32)":
        "tensor([1, 2, 3], dtype=minitorch.int32)",
    "minitorch.tensor([True, False])":
        "tensor([ True, False])",
    "minitorch.tensor(3.)":
        "tensor(3.)",
    "minitorch.tensor(0.5)":
        "tensor(0.5000)",
    "minitorch.tensor(3)":
        "tensor(3)",
    "minitorch.tensor(True)":
        "tensor(True)",
    "minitorch.tensor(-0.)":
        "tensor(-0.)",
    "minitorch.tensor(nan)":
        "tensor(nan)",
    "minitorch.tensor(1e-5, dtype=minitorch.float64)":
        "tensor(1.0000e-05, dtype=minitorch.float64)",
    "minitorch.tensor([])":
        "tensor([])",
    "minitorch.tensor([], dtype=minitorch.int64)":
        "tensor([], dtype=minitorch.int64)",
    "minitorch.zeros(0, 3)":
        "tensor([], size=(0, 3))",
    "minitorch.zeros(2, 0, 4, dtype=minitorch.int32)":
        "tensor([], size=(2, 0, 4), dtype=minitorch.int32)",
    "minitorch.zeros(0, dtype=minitorch.float64)":
        "tensor([], dtype=minitorch.float64)",
    "minitorch.zeros(0, dtype=minitorch.bool)":
        "tensor([], dtype=minitorch.bool)",
    "minitorch.tensor([nan, inf, -inf])":
        "tensor([nan, inf, -inf])",
    "minitorch.tensor([nan, 1.5, -2.])":
        "tensor([    nan,  1.5000, -2.0000])",
    "minitorch.tensor([0., 0.])":
        "tensor([0., 0.])",
    "minitorch.tensor([-0., 0.])":
        "tensor([-0., 0.])",
    "minitorch.tensor([-0., 0.5])":
        "tensor([-0.0000, 0.5000])",
    "minitorch.tensor([1e-5, 1.])":
        "tensor([1.0000e-05, 1.0000e+00])",
    "minitorch.tensor([1e10, 1.])":
        "tensor([1.0000e+10, 1.0000e+00])",
    "minitorch.tensor([123456789., 1.])":
        "tensor([1.2346e+08, 1.0000e+00])",
    "minitorch.tensor([1e8])":
        "tensor([100000000.])",
    "minitorch.tensor([1000., 1.])":
        "tensor([1000.,    1.])",
    "minitorch.tensor([1001., 1.])":
        "tensor([1.0010e+03, 1.0000e+00])",
    "minitorch.tensor([1e-4, 1.])":
        "tensor([1.0000e-04, 1.0000e+00])",
    "minitorch.tensor([1e-4, 0.05], dtype=minitorch.float64)":
        "tensor([0.0001, 0.0500], dtype=minitorch.float64)",
    "minitorch.tensor([1e200, -1e-200], dtype=minitorch.float64)":
        "tensor([ 1.0000e+200, -1.0000e-200], dtype=minitorch.float64)",
    "minitorch.tensor([65504., -1.], dtype=minitorch.float16)":
        "tensor([ 6.5504e+04, -1.0000e+00], dtype=minitorch.float16)",
    "minitorch.tensor([0.1, 0.2], dtype=minitorch.float16)":
        "tensor([0.1000, 0.2000], dtype=minitorch.float16)",
    "minitorch.tensor([1.5, 2.], dtype=minitorch.float64)":
        "tensor([1.5000, 2.0000], dtype=minitorch.float64)",
    "minitorch.tensor([255, 0], dtype=minitorch.uint8)":
        "tensor([255,   0], dtype=minitorch.uint8)",
    "minitorch.tensor([-128, 127], dtype=minitorch.int8)":
        "tensor([-128,  127], dtype=minitorch.int8)",
    "minitorch.tensor([[-3], [4]], dtype=minitorch.int16)":
        (
            "tensor([[-3],\n"
            "        [ 4]], dtype=minitorch.int16)"
        ),
    "minitorch.arange(30.)":
        (
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
            "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
            "        28., 29.])"
        ),
    "minitorch.arange(40)":
        (
            "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
            "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,\n"
            "        36, 37, 38, 39])"
        ),
    "minitorch.tensor([i / 7 for i in range(20)])":
        (
            "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
            "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
            "        2.5714, 2.7143])"
        ),
    "minitorch.arange(12.).reshape(2, 3, 2)":
        (
            "tensor([[[ 0.,  1.],\n"
            "         [ 2.,  3.],\n"
            "         [ 4.,  5.]],\n"
            "\n"
            "        [[ 6.,  7.],\n"
            "         [ 8.,  9.],\n"
            "         [10., 11.]]])"
        ),
    "minitorch.arange(16).reshape(2, 2, 2, 2)":
        (
            "tensor([[[[ 0,  1],\n"
            "          [ 2,  3]],\n"
            "\n"
            "         [[ 4,  5],\n"
            "          [ 6,  7]]],\n"
            "\n"
            "\n"
            "        [[[ 8,  9],\n"
            "          [10, 11]],\n"
            "\n"
            "         [[12, 13],\n"
            "          [14, 15]]]])"
        ),
    "minitorch.arange(6).reshape(2, 3).t()":
        (
            "tensor([[0, 3],\n"
            "        [1, 4],\n"
            "        [2, 5]])"
        ),
    "minitorch.ones(2000)":
        "tensor([1., 1., 1.,  ..., 1., 1., 1.])",
    "minitorch.arange(2000.)":
        (
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])"
        ),
    "minitorch.arange(2000)":
        "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])",
    "minitorch.zeros(1001)":
        "tensor([0., 0., 0.,  ..., 0., 0., 0.])",
    "minitorch.arange(1200).reshape(3, 400)":
        (
            "tensor([[   0,    1,    2,  ...,  397,  398,  399],\n"
            "        [ 400,  401,  402,  ...,  797,  798,  799],\n"
            "        [ 800,  801,  802,  ..., 1197, 1198, 1199]])"
        ),
    "minitorch.tensor([[i / 7 + j for i in range(40)] for j in range(40)])":
        (
            "tensor([[ 0.0000,  0.1429,  0.2857,  ...,  5.2857,  5.4286,  5.5714],\n"
            "        [ 1.0000,  1.1429,  1.2857,  ...,  6.2857,  6.4286,  6.5714],\n"
            "        [ 2.0000,  2.1429,  2.2857,  ...,  7.2857,  7.4286,  7.5714],\n"
            "        ...,\n"
            "        [37.0000, 37.1429, 37.2857,  ..., 42.2857, 42.4286, 42.5714],\n"
            "        [38.0000, 38.1429, 38.2857,  ..., 43.2857, 43.4286, 43.5714],\n"
            "        [39.0000, 39.1429, 39.2857,  ..., 44.2857, 44.4286, 44.5714]])"
        ),
    "minitorch.arange(1400).reshape(7, 2, 100)":
        (
            "tensor([[[   0,    1,    2,  ...,   97,   98,   99],\n"
            "         [ 100,  101,  102,  ...,  197,  198,  199]],\n"
            "\n"
            "        [[ 200,  201,  202,  ...,  297,  298,  299],\n"
            "         [ 300,  301,  302,  ...,  397,  398,  399]],\n"
            "\n"
            "        [[ 400,  401,  402,  ...,  497,  498,  499],\n"
            "         [ 500,  501,  502,  ...,  597,  598,  599]],\n"
            "\n"
            "        ...,\n"
            "\n"
            "        [[ 800,  801,  802,  ...,  897,  898,  899],\n"
            "         [ 900,  901,  902,  ...,  997,  998,  999]],\n"
            "\n"
            "        [[1000, 1001, 1002,  ..., 1097, 1098, 1099],\n"
            "         [1100, 1101, 1102,  ..., 1197, 1198, 1199]],\n"
            "\n"
            "        [[1200, 1201, 1202,  ..., 1297, 1298, 1299],\n"
            "         [1300, 1301, 1302,  ..., 1397, 1398, 1399]]])"
        ),
    "minitorch.tensor([1., 2.], requires_grad=True) * 2":
        "tensor([2., 4.], grad_fn=<MulBackward0>)",
    "minitorch.tensor([1., 2.], requires_grad=True)":
        "tensor([1., 2.], requires_grad=True)",
    "minitorch.tensor(1.5, requires_grad=True)":
        "tensor(1.5000, requires_grad=True)",
    "minitorch.tensor([[0.5] * 5] * 2, dtype=minitorch.float64, requires_grad=True)":
        (
            "tensor([[0.5000, 0.5000, 0.5000, 0.5000, 0.5000],\n"
            "        [0.5000, 0.5000, 0.5000, 0.5000, 0.5000]], dtype=minitorch.float64,\n"
            "       requires_grad=True)"
        ),
    "minitorch.tensor([100000.5] * 5, dtype=minitorch.float64, requires_grad=True)":
        (
            "tensor([100000.5000, 100000.5000, 100000.5000, 100000.5000, 100000.5000],\n"
            "       dtype=minitorch.float64, requires_grad=True)"
        ),
    "minitorch.tensor([1.25] * 20, dtype=minitorch.float16)":
        (
            "tensor([1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500,\n"
            "        1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500, 1.2500,\n"
            "        1.2500, 1.2500], dtype=minitorch.float16)"
        ),
}


@pytest.mark.parametrize("expr", list(CASES))
def test_repr(expr):
    assert repr(make(expr)) == CASES[expr]


def test_str_is_repr():
    t = minitorch.tensor([[1.5, -2.0], [3.0, 4.0]])
    assert str(t) == repr(t) == "tensor([[ 1.5000, -2.0000],\n        [ 3.0000,  4.0000]])"


# (options, expression, repr under those options)
OPTS = [
    (dict(precision=2), "minitorch.tensor([1.12345, 2.5])",
     "tensor([1.12, 2.50])"),
    (dict(precision=0), "minitorch.tensor([0.5, 1.5, 2.75])",
     "tensor([0, 2, 3])"),
    (dict(threshold=5), "minitorch.arange(10)",
     "tensor([0, 1, 2,  ..., 7, 8, 9])"),
    (dict(threshold=5, edgeitems=1), "minitorch.arange(12.).reshape(3, 4)",
     (
         "tensor([[ 0.,  ...,  3.],\n"
         "        ...,\n"
         "        [ 8.,  ..., 11.]])"
     )),
    (dict(edgeitems=0), "minitorch.tensor([1., 2.])",
     "tensor([1., 2.], size=(2,))"),
    (dict(edgeitems=0), "minitorch.arange(2000.)",
     "tensor([...], size=(2000,))"),
    (dict(edgeitems=0), "minitorch.arange(1200).reshape(3, 400)",
     "tensor([...], size=(3, 400))"),
    (dict(threshold=0), "minitorch.tensor(2.5)",
     "tensor(2.5000)"),
    (dict(linewidth=40), "minitorch.arange(20.)",
     (
         "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,\n"
         "         6.,  7.,  8.,  9., 10., 11.,\n"
         "        12., 13., 14., 15., 16., 17.,\n"
         "        18., 19.])"
     )),
    (dict(linewidth=40), "minitorch.tensor([1, 2, 3], dtype=minitorch.int32)",
     "tensor([1, 2, 3], dtype=minitorch.int32)"),
    (dict(linewidth=37), "minitorch.tensor([1., 2.], requires_grad=True)",
     "tensor([1., 2.], requires_grad=True)"),
    (dict(linewidth=36), "minitorch.tensor([1., 2.], requires_grad=True)",
     (
         "tensor([1., 2.],\n"
         "       requires_grad=True)"
     )),
    (dict(linewidth=10), "minitorch.tensor([100., 200.])",
     (
         "tensor([100.,\n"
         "        200.])"
     )),
    (dict(sci_mode=True), "minitorch.tensor([1., 2.5])",
     "tensor([1.0000e+00, 2.5000e+00])"),
    (dict(sci_mode=True), "minitorch.tensor([0., 0.])",
     "tensor([0., 0.])"),
    (dict(sci_mode=False), "minitorch.tensor([1e-5, 1.])",
     "tensor([0.0000, 1.0000])"),
    (dict(sci_mode=False), "minitorch.tensor([1e10, 1.])",
     "tensor([10000000000.,           1.])"),
    (dict(profile='short'), "minitorch.tensor([1.12345, 2.5])",
     "tensor([1.12, 2.50])"),
    (dict(profile='short'), "minitorch.arange(2000.)",
     "tensor([0.00e+00, 1.00e+00,  ..., 2.00e+03, 2.00e+03])"),
    (dict(profile='short', precision=6), "minitorch.tensor([1.12345, 2.5])",
     "tensor([1.123450, 2.500000])"),
]


@pytest.mark.parametrize("options, expr, expected", OPTS)
def test_repr_with_options(options, expr, expected):
    minitorch.set_printoptions(**options)
    assert repr(make(expr)) == expected


def test_full_profile_prints_every_element():
    minitorch.set_printoptions(profile="full")
    assert _tensor_str.get_printoptions()["threshold"] == math.inf
    line = ", ".join(["0."] * 24)
    assert repr(minitorch.zeros(1001)) == "tensor([" + ",\n        ".join([line] * 41 + [", ".join(["0."] * 17)]) + "])"


def test_default_profile_restores_defaults():
    minitorch.set_printoptions(precision=1, threshold=3, edgeitems=1, linewidth=20, sci_mode=True)
    minitorch.set_printoptions(profile="default")
    assert _tensor_str.get_printoptions() == DEFAULTS


def test_set_printoptions_resets_sci_mode_when_not_given():
    minitorch.set_printoptions(sci_mode=True)
    minitorch.set_printoptions(precision=2)
    assert _tensor_str.get_printoptions() == dict(DEFAULTS, precision=2)
    assert repr(minitorch.tensor([1.0, 2.5])) == "tensor([1.00, 2.50])"


def test_printoptions_context_manager_restores():
    minitorch.set_printoptions(precision=3)
    with _tensor_str.printoptions(precision=1, sci_mode=True):
        assert _tensor_str.PRINT_OPTS.precision == 1
        assert repr(minitorch.tensor([1.0, 2.5])) == "tensor([1.0e+00, 2.5e+00])"
    assert _tensor_str.get_printoptions() == dict(DEFAULTS, precision=3)
    assert repr(minitorch.tensor([1.0, 2.5])) == "tensor([1.000, 2.500])"


def test_float32_gets_dtype_suffix_when_default_is_float64():
    minitorch.set_default_dtype(minitorch.float64)
    try:
        assert repr(minitorch.tensor([1.5], dtype=minitorch.float32)) == "tensor([1.5000], dtype=minitorch.float32)"
        assert repr(minitorch.tensor([1.5])) == "tensor([1.5000])"
    finally:
        minitorch.set_default_dtype(minitorch.float32)


def test_summarizes_huge_tensor_quickly():
    # only the edge items are formatted: a 10-million-element tensor prints instantly
    assert repr(minitorch.arange(10_000_000)) == "tensor([      0,       1,       2,  ..., 9999997, 9999998, 9999999])"
