"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the nn ops of
minitorch/_ops (activations, losses): their boundary points for the edge-value sweep (``EDGES``)."""
from math import inf as INF
from math import nan as NAN

EDGES = {
    "threshold": (1.0, NAN, -INF),
    "hardshrink": (0.1, -0.1, NAN, -0.0),
    "F.multi_margin_loss": (NAN, INF, -INF, 2.0, 2.0),
}
