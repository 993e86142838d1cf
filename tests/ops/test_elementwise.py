"""Elementwise API breadth: in-place forms of the elementwise ops (``torch.<op>_`` and
``Tensor.<op>_``), in-place comparisons and logical/bitwise ops, bitwise shifts, copysign, nextafter, ldexp,
frexp, heaviside, float_power, gcd, lcm, sgn, positive and fill, against torch (values, dtypes, graph nodes,
gradients, errors) and against hand-derived numbers."""
import numpy as np
import pytest

import minitorch as mt
from op_helper import check_error, floats, helper_test_op, ints
from torch_answers import torch_answer

f32, f64 = np.float32, np.float64

# in-place forms that torch also exports as torch.<name>_, and those that are Tensor methods only
TOP_LEVEL = ("abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ atan_ atanh_ ceil_ "
             "clamp_ clamp_max_ clamp_min_ clip_ cos_ cosh_ deg2rad_ erf_ erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_ "
             "frac_ gcd_ i0_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ rad2deg_ "
             "reciprocal_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ zero_").split()
TENSOR_ONLY = ("absolute_ addcdiv_ addcmul_ bitwise_and_ bitwise_left_shift_ bitwise_not_ bitwise_or_ "
               "bitwise_right_shift_ bitwise_xor_ copysign_ divide_ float_power_ floor_divide_ fmod_ ge_ greater_ "
               "greater_equal_ gt_ heaviside_ le_ lerp_ less_ less_equal_ logical_and_ logical_not_ logical_or_ "
               "logical_xor_ lt_ multiply_ ne_ eq_ nextafter_ not_equal_ remainder_ sgn_ sign_ subtract_ "
               "true_divide_ atan2_ hypot_").split()
NEW_FUNCTIONS = ("bitwise_left_shift bitwise_right_shift copysign fill float_power frexp gcd heaviside lcm ldexp "
                 "nextafter positive sgn").split()


def test_namespaces_hold_the_forms_torch_has():
    for name in TOP_LEVEL + NEW_FUNCTIONS:
        assert callable(getattr(mt, name)) and callable(getattr(mt.Tensor, name)), name
    for name in TENSOR_ONLY:
        assert callable(getattr(mt.Tensor, name)) and not hasattr(mt, name), name
    # the lists are torch's: its namespace has the functions, its Tensor alone the tensor-only methods
    assert torch_answer(_torch_namespaces, TOP_LEVEL + NEW_FUNCTIONS, TENSOR_ONLY) == (True, False, True)


def _torch_namespaces(torch, functions, tensor_only):
    return (all(hasattr(torch, n) for n in functions), any(hasattr(torch, n) for n in tensor_only),
            all(hasattr(torch.Tensor, n) for n in tensor_only))


def test_aliases_are_the_same_functions():
    pairs = [("negative_", "neg_"), ("absolute_", "abs_"), ("fix_", "trunc_"), ("clip_", "clamp_"),
             ("divide_", "div_"), ("true_divide_", "div_"), ("multiply_", "mul_"), ("subtract_", "sub_"),
             ("not_equal_", "ne_"), ("less_", "lt_"), ("less_equal_", "le_"), ("greater_", "gt_"),
             ("greater_equal_", "ge_"), ("arcsinh_", "asinh_")]
    for alias, name in pairs:
        assert getattr(mt.Tensor, alias) is getattr(mt.Tensor, name), alias


# ---- unary in-place forms -----------------------------------------------------------------------------------
UNARY_INPLACE = {"expm1": (-2, 2), "log1p": (-0.5, 2), "log2": (0.1, 3), "log10": (0.1, 3), "rsqrt": (0.1, 3),
                 "tan": (-1, 1), "trunc": (-3, 3), "fix": (-3, 3), "frac": (-3, 3), "sign": (-2, 2), "sgn": (-2, 2),
                 "square": (-2, 2), "negative": (-2, 2), "absolute": (-2, 2), "erf": (-2, 2), "nan_to_num": (-2, 2)}


@pytest.mark.parametrize("name", sorted(UNARY_INPLACE))
@pytest.mark.parametrize("dtype", [f32, f64])
def test_unary_in_place_forms(name, dtype):
    low, high = UNARY_INPLACE[name]
    grad = name != "sgn"  # torch's sgn gradient is a ZeroTensor, which has no numpy form (checked by hand below)
    helper_test_op([(3, 4)], lambda t, x: getattr(x * 1, name + "_")(), dtype=dtype, low=low, high=high, grad=grad)
    if hasattr(mt, name + "_"):
        helper_test_op([(5,)], lambda t, x: getattr(t, name + "_")(x * 1), dtype=dtype, low=low, high=high)


def test_float_results_cannot_be_written_into_integer_tensors():
    for name in ("expm1_", "rsqrt_", "tan_", "erf_"):
        check_error(lambda t, x: getattr(x, name)(), ints((3,), 1, 4), exc=RuntimeError,
                    msg="result type Float can't be cast to the desired output type Long")


def test_nan_to_num_replaces_and_passes_the_gradient_where_finite():
    x = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0], np.float32)
    helper_test_op([x], lambda t, a: t.nan_to_num(a * 1, nan=0.5, posinf=9.0))
    helper_test_op([x], lambda t, a: (a * 1).nan_to_num_(neginf=-3.0))
    helper_test_op([ints((4,), -3, 3)], lambda t, a: a.nan_to_num_())
    a = mt.tensor(x.astype(np.float64), requires_grad=True)
    out = mt.nan_to_num(a * 2)
    assert out.grad_fn.name() == "NanToNumBackward0"
    out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [0.0, 0.0, 0.0, 2.0, 2.0])
    np.testing.assert_array_equal(out.detach().numpy()[1:], [np.finfo(np.float64).max, np.finfo(np.float64).min,
                                                             3.0, -4.0])


def test_sgn_and_positive():
    helper_test_op([(3, 4)], lambda t, x: t.sgn(x), grad=False)
    x = mt.tensor([1.0, 0.0, -2.0], requires_grad=True)
    (x * 1).sgn_().sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0])
    helper_test_op([ints((5,), -3, 3)], lambda t, x: t.sgn(x))
    helper_test_op([np.array([True, False])], lambda t, x: x.sgn())
    x = mt.tensor([1.0, -2.0], requires_grad=True)
    assert mt.positive(x) is x and +x is x
    check_error(lambda t, b: t.positive(b), np.array([True]), exc=RuntimeError,
                msg="The `+` operator, on a bool tensor is not supported.")
    check_error(lambda t, b: +b, np.array([True]), exc=RuntimeError)


# ---- binary in-place forms ----------------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda t, a, b: (a * 1).divide_(b), lambda t, a, b: (a * 1).true_divide_(b, ),
    lambda t, a, b: (a * 1).divide_(b, rounding_mode="floor"), lambda t, a, b: (a * 1).multiply_(b),
    lambda t, a, b: (a * 1).subtract_(b, alpha=2), lambda t, a, b: (a * 1).fmod_(b), lambda t, a, b: (a * 1).fmod_(1.5),
    lambda t, a, b: (a * 1).remainder_(b), lambda t, a, b: (a * 1).remainder_(-1.5), lambda t, a, b: (a * 1).clip_(-1, 1),
    lambda t, a, b: t.clip_(a * 1, max=0.5), lambda t, a, b: t.clamp_min_(a * 1, 0.0), lambda t, a, b: t.clamp_(a * 1, b),
    lambda t, a, b: t.square_(a * 1),
], ids=["divide_", "true_divide_", "divide_floor", "multiply_", "subtract_", "fmod_", "fmod_number", "remainder_",
        "remainder_number", "clip_", "torch.clip_", "torch.clamp_min_", "torch.clamp_", "torch.square_"])
def test_binary_in_place_forms(fn):
    helper_test_op([(3, 4), floats((4,), 0.5, 2.0)], fn)


def test_floor_divide_in_place_is_recorded_without_a_derivative():
    helper_test_op([ints((4,), -7, 7), np.array([2, -3, 4, 5])], lambda t, a, b: a.floor_divide_(b))
    x = mt.tensor([5.0, -5.0], requires_grad=True)
    y = (x * 1).floor_divide_(2)
    assert y.grad_fn.name() == "NotImplemented"
    np.testing.assert_array_equal(y.detach().numpy(), [2.0, -3.0])
    with pytest.raises(RuntimeError, match="^derivative for aten::floor_divide_ is not implemented$"):
        y.sum().backward()


# ---- addcmul, addcdiv, lerp ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [f32, f64])
def test_addcmul_addcdiv_and_lerp_out_of_place_and_in_place(dtype):
    three = [(3, 4), (3, 4), floats((4,), 0.5, 2.0, dtype)]
    for inplace in (False, True):
        def call(x, name, *args, **kw):
            return getattr(x * 1, name + "_")(*args, **kw) if inplace else getattr(x, name)(*args, **kw)
        helper_test_op(three, lambda t, a, b, c: call(a, "addcmul", b, c, value=-0.5), dtype=dtype)
        helper_test_op(three, lambda t, a, b, c: call(a, "addcdiv", b, c, value=2), dtype=dtype)
        helper_test_op(three, lambda t, a, b, c: call(a, "lerp", b, c), dtype=dtype)
        helper_test_op(three, lambda t, a, b, c: call(a, "lerp", b, 0.25), dtype=dtype)
        helper_test_op([(3, 4), (3, 4), floats((), 0, 1, np.float64)], lambda t, a, b, w: call(a, "lerp", b, w),
                       dtype=dtype, grad_atol=1e-5)  # the float64 weight's gradient is summed in float32


def test_lerp_is_exact_at_both_ends():
    a, e = mt.tensor([0.1, 1e8]), mt.tensor([0.7, -1e-3])
    assert mt.equal(mt.lerp(a, e, 1.0), e) and mt.equal(mt.lerp(a, e, 0.0), a)
    assert mt.equal(a.clone().lerp_(e, mt.tensor([0.0, 1.0])), mt.tensor([0.1, -1e-3]))


def test_addcmul_addcdiv_and_lerp_dtypes_and_errors():
    i = np.array([1, 2])
    helper_test_op([i, i, i], lambda t, a, b, c: t.addcmul(a, b, c, value=3))
    helper_test_op([i, i, i], lambda t, a, b, c: t.addcmul(a, b, c, value=0.5))  # torch casts the value: 0
    helper_test_op([i, floats((2,)), floats((2,))], lambda t, a, b, c: t.addcdiv(a.float(), b, c))
    check_error(lambda t, a: t.addcdiv(a, a, a), i, exc=RuntimeError)
    check_error(lambda t, a: t.lerp(a, a, 0.5), i, exc=NotImplementedError,
                msg="\"lerp_kernel_scalar\" not implemented for 'Long'")
    check_error(lambda t, a, b: t.lerp(a, b, 0.5), (2,), floats((2,), dtype=f64), exc=RuntimeError,
                msg="expected dtype float for `end` but got dtype double")
    check_error(lambda t, a, w: t.lerp(a, a, w), (2,), floats((2,), dtype=f64), exc=RuntimeError,
                msg="expected dtype float for `weight` but got dtype double")
    check_error(lambda t, a, b: a.lerp_(b, 0.5), (3,), (3, 1), exc=RuntimeError,
                msg="output with shape [3] doesn't match the broadcast shape [3, 3]")
    check_error(lambda t, a, b: a.addcmul_(b, b), ints((2,)), (2,), exc=RuntimeError,
                msg="result type Float can't be cast to the desired output type Long")


# ---- comparisons, logical and bitwise ops in place ----------------------------------------------------------
COMPARISONS = ["eq_", "ne_", "lt_", "le_", "gt_", "ge_", "less_", "greater_equal_", "not_equal_"]


@pytest.mark.parametrize("name", COMPARISONS)
def test_in_place_comparisons_write_the_input_dtype(name):
    a, b = ints((3, 4), 0, 3), ints((4,), 0, 3)
    helper_test_op([a.astype(f32), b.astype(f32)], lambda t, x, y: getattr(x * 1, name)(y))  # zero gradients
    helper_test_op([a.astype(f32)], lambda t, x: getattr(x * 1, name)(1.0))
    helper_test_op([a, b.astype(f32)], lambda t, x, y: getattr(x, name)(y), grad=False)
    helper_test_op([a > 1, b], lambda t, x, y: getattr(x, name)(y))
    check_error(lambda t, x, y: getattr(x, name)(y), (2,), (2, 2), exc=RuntimeError,
                msg="output with shape [2] doesn't match the broadcast shape [2, 2]")


def test_in_place_comparison_gives_a_zero_gradient():
    x = mt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * 3).ge_(mt.tensor(6.0))
    assert y.grad_fn.name() == "GeBackward1"
    np.testing.assert_array_equal(y.detach().numpy(), [0.0, 1.0, 1.0])
    (y * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 1.0])  # only through the product's other factor


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_", "bitwise_and_", "bitwise_or_",
                                  "bitwise_xor_", "bitwise_left_shift_", "bitwise_right_shift_"])
def test_logical_and_bitwise_binary_in_place(name):
    a, b = ints((3, 4), -4, 5), ints((4,), 0, 3)
    helper_test_op([a, b], lambda t, x, y: getattr(x, name)(y))
    helper_test_op([a.astype(np.int16), b.astype(np.int8)], lambda t, x, y: getattr(x, name)(y))
    if name.startswith("logical"):
        helper_test_op([a.astype(f32), b], lambda t, x, y: getattr(x, name)(y), grad=False)
        helper_test_op([a > 0, b > 1], lambda t, x, y: getattr(x, name)(y))


def test_logical_and_bitwise_not_in_place():
    helper_test_op([ints((5,), -3, 3)], lambda t, x: x.bitwise_not_())
    helper_test_op([ints((5,), -3, 3)], lambda t, x: x.logical_not_())
    helper_test_op([np.array([True, False])], lambda t, x: x.bitwise_not_())
    helper_test_op([floats((4,))], lambda t, x: x.logical_not_(), grad=False)
    check_error(lambda t, x: x.bitwise_not_(), (2,), exc=NotImplementedError)


def test_in_place_ops_bump_the_version_and_refuse_leaves():
    x = mt.tensor([1, 2, 3])
    v = x._version
    x.bitwise_xor_(mt.tensor([1])).lt_(2)
    assert x._version == v + 2
    np.testing.assert_array_equal(x.numpy(), [1, 0, 0])
    leaf = mt.tensor([1.0], requires_grad=True)
    for fn in (lambda: leaf.ge_(0.0), lambda: leaf.logical_not_(), lambda: leaf.copysign_(-1.0)):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            fn()


# ---- bitwise shifts -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8])
def test_bitwise_shifts_match_torch_including_out_of_range_amounts(dtype):
    signed = np.dtype(dtype).kind == "i"
    bits = 8 * np.dtype(dtype).itemsize
    a = np.array([1, -8, 5, -1, 3, 100] if signed else [1, 8, 5, 255, 3, 100], dtype)
    s = np.array([1, 2, bits, bits + 3, bits - 1, 0] + ([-1] if signed else [9])[:0], dtype)
    helper_test_op([a, s], lambda t, x, y: t.bitwise_left_shift(x, y))
    helper_test_op([a, s], lambda t, x, y: t.bitwise_right_shift(x, y))
    helper_test_op([a], lambda t, x: (x << 2, x >> 1, 3 << x[:2].abs(), 64 >> x[:2].abs()))


def test_bitwise_shifts_by_hand():
    a = mt.tensor([1, -8, 5, -1, 3], dtype=mt.int64)
    s = mt.tensor([1, 2, 64, 70, -1])
    np.testing.assert_array_equal(mt.bitwise_left_shift(a, s).numpy(), [2, -32, 0, 0, 0])
    np.testing.assert_array_equal(mt.bitwise_right_shift(a, s).numpy(), [0, -2, 0, -1, 0])
    u = mt.tensor([255, 8], dtype=mt.uint8)
    np.testing.assert_array_equal((u << 1).numpy(), [254, 16])
    u >>= mt.tensor([9, 1], dtype=mt.uint8)
    np.testing.assert_array_equal(u.numpy(), [0, 4])
    assert u.dtype == mt.uint8


def test_bitwise_shift_errors():
    check_error(lambda t, x: t.bitwise_left_shift(x, 1), (2,), exc=NotImplementedError,
                msg="\"lshift_cpu\" not implemented for 'Float'")
    check_error(lambda t, x: t.bitwise_right_shift(x, 1.5), ints((2,)), exc=NotImplementedError,
                msg="\"rshift_cpu\" not implemented for 'Float'")
    check_error(lambda t, x: t.bitwise_left_shift(x, x), np.array([True]), exc=NotImplementedError,
                msg="\"lshift_cpu\" not implemented for 'Bool'")
    check_error(lambda t, x, y: t.bitwise_left_shift(x, y), ints((2,)), ints((3,)), exc=RuntimeError,
                msg="The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
    check_error(lambda t, x, y: t.bitwise_and(x, y), ints((2,)), floats((2,), dtype=f64), exc=NotImplementedError,
                msg="\"bitwise_and_cpu\" not implemented for 'Double'")


# ---- copysign, nextafter, ldexp, frexp, heaviside, float_power ----------------------------------------------
@pytest.mark.parametrize("dtype", [f32, f64])
def test_copysign(dtype):
    signs = np.array([1.0, -1.0, -0.0, 0.0], dtype)
    a = np.array([[-1.5, 0.0, 2.0, -0.0], [3.0, -4.0, 0.5, 1.0]], dtype)
    helper_test_op([a, signs], lambda t, x, y: t.copysign(x * 1, y), dtype=dtype)
    helper_test_op([a], lambda t, x: t.copysign(x * 1, -2), dtype=dtype)
    helper_test_op([a, signs], lambda t, x, y: (x * 1).copysign_(y), dtype=dtype)
    helper_test_op([ints((4,), -3, 3), signs], lambda t, x, y: t.copysign(x, y), dtype=dtype)
    helper_test_op([ints((4,), -3, 3), ints((4,), -3, 3)], lambda t, x, y: t.copysign(x, y))
    helper_test_op([ints((4,), -3, 3)], lambda t, x: t.copysign(x, -0.0))


def test_copysign_gradient_by_hand():
    x = mt.tensor([-1.5, 0.0, 2.0], dtype=mt.float64, requires_grad=True)
    o = mt.tensor([5.0, -5.0, -1.0], dtype=mt.float64, requires_grad=True)
    r = mt.copysign(x, o)
    assert r.grad_fn.name() == "CopysignBackward0" and mt.copysign(x, 1.0).grad_fn.name() == "CopysignBackward1"
    r.sum().backward()
    np.testing.assert_array_equal(r.detach().numpy(), [1.5, -0.0, -2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [-1.0, 0.0, -1.0])
    np.testing.assert_array_equal(o.grad.numpy(), [0.0, 0.0, 0.0])


@pytest.mark.parametrize("dtype", [f32, f64])
def test_nextafter_and_ldexp(dtype):
    helper_test_op([(3, 4), (4,)], lambda t, x, y: t.nextafter(x * 1, y), dtype=dtype)
    helper_test_op([(3, 4), (4,)], lambda t, x, y: (x * 1).nextafter_(y), dtype=dtype)
    helper_test_op([(3, 4), (4,)], lambda t, x, y: t.ldexp(x * 1, y), dtype=dtype)
    helper_test_op([(3, 4), (4,)], lambda t, x, y: t.ldexp_(x * 1, y), dtype=dtype)
    # (torch's gradient is 0 for negative integer exponents, its integer 2 ** other; minitorch's is 2 ** other)
    helper_test_op([(3, 4), ints((4,), 0, 4)], lambda t, x, y: t.ldexp(x * 1, y), dtype=dtype)
    helper_test_op([ints((3,)), ints((3,))], lambda t, x, y: t.ldexp(x, y))
    helper_test_op([(2,), np.array(3)], lambda t, x, y: t.ldexp(x, y), dtype=dtype)


def test_nextafter_and_ldexp_by_hand_and_errors():
    one = mt.tensor([1.0], dtype=mt.float64)
    assert mt.nextafter(one, mt.tensor([2.0], dtype=mt.float64)).item() == 1.0 + 2.0 ** -52
    assert mt.nextafter(mt.tensor([0.0]), mt.tensor([-1.0])).item() == -(2.0 ** -149)
    x = mt.tensor([1.5, -3.0], requires_grad=True)
    y = mt.ldexp(x, mt.tensor([3, -1]))
    y.sum().backward()
    np.testing.assert_array_equal(y.detach().numpy(), [12.0, -1.5])
    np.testing.assert_array_equal(x.grad.numpy(), [8.0, 0.5])
    check_error(lambda t, x: t.nextafter(x, x), ints((2,)), exc=NotImplementedError,
                msg="\"nextafter_cpu\" not implemented for 'Long'")
    check_error(lambda t, x: t.nextafter(x, 2.0), (2,), exc=TypeError,
                msg="nextafter(): argument 'other' (position 2) must be Tensor, not float")
    check_error(lambda t, x: t.ldexp(x, 2), (2,), exc=TypeError,
                msg="ldexp(): argument 'other' (position 2) must be Tensor, not int")


@pytest.mark.parametrize("dtype", [f32, f64, np.float16])
def test_frexp(dtype):
    x = np.array([8.0, 0.0, -3.0, 0.3, -0.0, np.inf, np.nan], dtype)
    helper_test_op([x], lambda t, a: t.frexp(a * 1), dtype=dtype)
    helper_test_op([(3, 4)], lambda t, a: a.frexp(), dtype=dtype)
    m, e = mt.frexp(mt.tensor(x))
    np.testing.assert_array_equal(m.numpy()[:5], np.array([0.5, 0.0, -0.75, 0.6, -0.0], dtype))
    np.testing.assert_array_equal(e.numpy(), [4, 0, 2, -1, 0, 0, 0])
    assert e.dtype == mt.int32


def test_frexp_returns_named_results_and_refuses_integers():
    out = mt.frexp(mt.tensor(12.0))
    assert out._fields == ("mantissa", "exponent") and out.mantissa.item() == 0.75 and out.exponent.item() == 4
    assert repr(out) == ("minitorch.return_types.frexp(\nmantissa=tensor(0.7500),\n"
                         "exponent=tensor(4, dtype=minitorch.int32))")
    check_error(lambda t, a: t.frexp(a), ints((2,)), exc=RuntimeError,
                msg="torch.frexp() only supports floating-point dtypes")


def test_heaviside():
    x = np.array([[1.5, 0.0, -2.0, np.nan], [0.0, -0.0, 3.0, -1.0]], f32)
    helper_test_op([x, np.array([0.5, 7.0, 1.0, 2.0], f32)], lambda t, a, v: t.heaviside(a, v))
    helper_test_op([x, np.array(0.25, f32)], lambda t, a, v: (a * 1).heaviside_(v), grad=False)
    helper_test_op([np.array([1, 0, -2]), np.array([7])], lambda t, a, v: a.heaviside(v))
    helper_test_op([np.array([True, False]), np.array([True])], lambda t, a, v: t.heaviside(a, v))
    check_error(lambda t, a, v: t.heaviside(a, v), (2,), ints((1,)), exc=RuntimeError,
                msg="heaviside is not yet implemented for tensors with different dtypes.")
    check_error(lambda t, a: t.heaviside(a, 0.5), (2,), exc=TypeError,
                msg="heaviside(): argument 'values' (position 2) must be Tensor, not float")
    check_error(lambda t, a, v: t.heaviside(a, v), (2,), (3,), exc=RuntimeError)
    x = mt.tensor([1.0, 0.0], requires_grad=True)
    y = mt.heaviside(x * 1, mt.tensor([0.5]))
    assert y.grad_fn.name() == "NotImplemented"
    np.testing.assert_array_equal(y.detach().numpy(), [1.0, 0.5])
    with pytest.raises(RuntimeError, match="^derivative for aten::heaviside is not implemented$"):
        y.sum().backward()


def test_float_power():
    helper_test_op([(3, 4)], lambda t, x: t.float_power(x, 2), low=0.5)
    helper_test_op([(3, 4), (4,)], lambda t, x, y: t.float_power(x, y), low=0.5)
    helper_test_op([(3,)], lambda t, x: t.float_power(2, x))
    helper_test_op([ints((3,), 1, 4)], lambda t, x: (t.float_power(x, -1), t.float_power(x, 2.5)))
    helper_test_op([floats((3,), 0.5, 2, f64), (3,)], lambda t, x, y: (x * 1).float_power_(y), dtype=f64)
    check_error(lambda t, x: x.float_power_(2), (2,), exc=RuntimeError,
                msg="the base given to float_power_ has dtype Float but the operation's result requires dtype Double")
    out = mt.float_power(mt.tensor([3.0]), 2)
    assert out.dtype == mt.float64 and out.item() == 9.0


# ---- gcd, lcm, fill -----------------------------------------------------------------------------------------
def test_gcd_and_lcm():
    a, b = np.array([-4, 6, 0, 0, 12, 7]), np.array([6, -4, 0, -5, 18, 3])
    np.testing.assert_array_equal(mt.gcd(mt.tensor(a), mt.tensor(b)).numpy(), [2, 2, 0, 5, 6, 1])
    np.testing.assert_array_equal(mt.lcm(mt.tensor(a), mt.tensor(b)).numpy(), [12, 12, 0, 0, 36, 21])
    for name in ("gcd", "lcm"):
        helper_test_op([a, b], lambda t, x, y: getattr(t, name)(x, y))
        helper_test_op([a.astype(np.uint8) % 50, b.astype(np.int16)], lambda t, x, y: getattr(t, name)(x, y))
        helper_test_op([a.astype(np.int32), b[:1]], lambda t, x, y: getattr(t, name + "_")(x, y))
        check_error(lambda t, x: getattr(t, name)(x, x), (2,), exc=NotImplementedError,
                    msg=f"\"{name}_cpu\" not implemented for 'Float'")
        check_error(lambda t, x: getattr(t, name)(x, x), np.array([True]), exc=NotImplementedError,
                    msg=f"\"{name}_cpu\" not implemented for 'Bool'")
        check_error(lambda t, x: getattr(t, name)(x, 6), a, exc=TypeError,
                    msg=f"{name}(): argument 'other' (position 2) must be Tensor, not int")


def test_fill_out_of_place_and_in_place():
    helper_test_op([(3, 4)], lambda t, x: t.fill(x, 2.5) * x)
    helper_test_op([(3, 4), np.array(1.5, f32)], lambda t, x, v: t.fill(x, v) * x)
    helper_test_op([(3, 4), np.array(1.5, f32)], lambda t, x, v: t.fill_(x * 1, v))
    helper_test_op([ints((3,))], lambda t, x: (t.fill(x, 7), t.zero_(x)))
    check_error(lambda t, x: t.fill(x, x), (2,), exc=RuntimeError,
                msg="fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.")


def test_out_arguments():
    helper_test_op([(3,), np.zeros(3, f32)], lambda t, a, o: (t.copysign(a, -1.0, out=o), o), grad=False)
    helper_test_op([(3,), (3,), np.zeros(3, f64)], lambda t, a, b, o: (t.float_power(a, b, out=o), o), grad=False,
                   low=0.5)
    helper_test_op([ints((3,), 1, 9), ints((3,), 1, 9), np.zeros(3, np.int64)],
                   lambda t, a, b, o: (t.gcd(a, b, out=o), t.lcm(a, b), o))
    helper_test_op([(3,), ints((3,)), np.zeros(3, f32)], lambda t, a, b, o: (t.ldexp(a, b, out=o), o), grad=False)
