"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the elementwise ops
(minitorch/_ops/elementwise/): the boundary points of the edge-value sweep (``EDGES``), for the functions swept on
the default (3, 4) input in [0.5, 1.5) too."""
from math import inf as INF
from math import nan as NAN

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
