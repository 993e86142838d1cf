"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the inverse trigonometric
and special functions (minitorch/_ops/elementwise/trigonometric.py, special.py): the ends and beyond of their
domains for the edge-value sweep (``EDGES``)."""
from math import inf as INF
from math import nan as NAN

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
