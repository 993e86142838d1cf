"""Registry sweep inputs for the elementwise ops of minitorch/_ops/numeric.py and the in-place forms of
arithmetic.py and comparison.py: second inputs, domains away from kinks, and the ops without gradients."""
import minitorch as mt
from registry_inputs import x


def _pair(low=-1.5, high=-0.5):
    return lambda: (x(3, 4), x(3, 4, low=low, high=high, seed=1))


def _three():
    return x(3, 4), x(3, 4, seed=1), x(4, seed=2)


SAMPLES = {
    "sgn_": (lambda t: t.clone().sgn_(), lambda: (x(3, 4),)),  # real input: the complex sgn is swept as sgn
    "copysign": (None, _pair()),
    "nextafter": (None, _pair()),
    "ldexp": (None, _pair(-1.0, 1.0)),
    "float_power": (None, _pair(0.5, 1.5)),
    "frexp": (lambda t: mt.frexp(t).mantissa, lambda: (x(3, 4, low=0.55, high=0.95),)),  # away from 2 ** k
    "positive": (lambda t: mt.positive(t * 2.0), lambda: (x(3, 4),)),
    "fill": (lambda t, v: (mt.fill(t, v), mt.fill(t, 2.0) * t), lambda: (x(3, 4), x(seed=1))),
    "lerp_": (lambda a, b, w: (a.clone().lerp_(b, w), a.clone().lerp_(b, 0.3)), _three),
    "addcmul_": (lambda a, b, c: a.clone().addcmul_(b, c, value=-2), _three),
    "addcdiv_": (lambda a, b, c: a.clone().addcdiv_(b, c, value=0.5), _three),
    # in-place comparisons on a float tensor in a graph: recorded, with a zero gradient
    **{name: (lambda a, b, name=name: (getattr(a.clone(), name)(b), getattr(a.clone(), name)(1.0)), _pair(0.5, 1.5))
       for name in ("eq_", "ne_", "lt_", "le_", "gt_", "ge_")},
}

# integer-only ops, and the logical and bitwise in-place forms (torch records no graph for them)
NOT_DIFFERENTIABLE = {
    "gcd", "gcd_", "lcm", "lcm_", "bitwise_left_shift", "bitwise_left_shift_", "bitwise_right_shift",
    "bitwise_right_shift_", "logical_and_", "logical_or_", "logical_xor_", "logical_not_", "bitwise_and_",
    "bitwise_or_", "bitwise_xor_", "bitwise_not_",
}
NO_DERIVATIVE = {"heaviside", "heaviside_", "floor_divide_"}
