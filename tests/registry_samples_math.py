"""Registry sweep inputs for the inverse trigonometric and special functions (minitorch/_ops/elementwise/trigonometric.py,
elementwise/special.py): their domains, and the binary ones' second input."""
import minitorch as mt
from registry_inputs import INF, NAN, x


def _inside_unit():
    return (x(3, 4, low=-0.9, high=0.9),)


def _pair():
    return (x(3, 4), x(3, 4, low=-1.5, high=-0.5, seed=1))


SAMPLES = {
    "asin": (None, _inside_unit),
    "acos": (None, _inside_unit),
    "atanh": (None, _inside_unit),
    "erfinv": (None, _inside_unit),
    "acosh": (None, lambda: (x(3, 4, low=1.5, high=2.5),)),
    "logit": (None, lambda: (x(3, 4, low=0.1, high=0.9),)),
    "atan2": (None, _pair),
    "hypot": (None, _pair),
    "logaddexp": (None, _pair),
    "logaddexp2": (None, _pair),
    "xlogy": (None, lambda: (x(3, 4, low=-1.0, high=1.0), x(3, 4, seed=1))),
    "polygamma": (lambda t: mt.polygamma(2, t), lambda: (x(3, 4),)),
    "mvlgamma": (lambda t: mt.mvlgamma(t, 3), lambda: (x(3, 4, low=1.5, high=2.5),)),
}

# the ends and beyond of each domain
EDGES = {
    **{name: (1.0, -1.0, 1.5, -1.5) for name in ("asin", "acos", "atanh", "erfinv")},
    "acosh": (1.0, 0.5),
    "logit": (0.0, 1.0, -0.5, 1.5),
    "atan2": {0: (0.0, -0.0, 0.0, -0.0, INF, INF, -INF), 1: (0.0, 0.0, -0.0, -0.0, INF, -INF, INF)},
    "hypot": {0: (INF, NAN, 0.0, -INF), 1: (NAN, INF, 0.0, 0.0)},
    "logaddexp": {0: (INF, -INF, INF, -INF), 1: (INF, -INF, -INF, 1.0)},
    "logaddexp2": {0: (INF, -INF, INF, -INF), 1: (INF, -INF, -INF, 1.0)},
    "xlogy": {0: (0.0, 0.0, 1.0, 0.0, -0.0), 1: (0.0, NAN, 0.0, INF, 0.0)},
    "polygamma": (1.0, -1.0, 0.5, -0.5),
    "mvlgamma": (1.0, 1.5, 2.0),  # the domain ends at (p - 1) / 2 = 1
}
