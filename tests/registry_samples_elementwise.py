"""Registry sweep inputs for the elementwise ops of minitorch/_ops/elementwise/numeric.py and the in-place forms of
arithmetic.py and comparison.py: second inputs, domains away from kinks, and the ops without gradients; and the
boundary points of the elementwise functions sampled by default (a (3, 4) input in [0.5, 1.5))."""
import minitorch as mt
from registry_inputs import INF, NAN, x


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


EDGES = {
    "F.relu6": (6.0, NAN, INF, -INF, -0.0),
    "F.hardswish": (3.0, -3.0, NAN, INF, -INF),
    "F.hardsigmoid": (3.0, -3.0, NAN),
    "F.softplus": (20.0, 20.5, NAN, -INF),  # its threshold
    "F.leaky_relu": (-0.0, NAN, -INF),
    "F.logsigmoid": (-INF, INF, NAN),
    **{name: (-1.0, 0.0, -0.0, -INF) for name in ("log", "log2", "log10", "sqrt", "rsqrt", "reciprocal")},
    "log1p": (-1.0, -2.0, -INF),
    **{name: (0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0) for name in ("round", "trunc", "ceil", "floor", "frac")},
    "exp": (710.0, -750.0, 709.0),
    "expm1": (710.0, -750.0),
    "exp2": (1025.0, -1080.0),
    "lgamma": (1.0, 2.0, -1.0, -2.0, 0.5, -0.5),
    "digamma": (1.0, -1.0, -2.0, 0.5),
    "sinc": (1.0, -1.0, 2.0),
    "erfc": (30.0, -30.0),
    **{name: (2.0, 2.0, 0.5, 0.5) for name in ("max", "min", "amax", "amin")},  # ties at the maximum and minimum
    "copysign": {0: (1.0, 1.0, 0.0, -0.0, NAN), 1: (0.0, -0.0, -1.0, 1.0, -1.0)},
    "nextafter": {0: (1.0, 0.0, NAN), 1: (1.0, 0.0, 1.0)},
}
