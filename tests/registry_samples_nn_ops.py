"""Registry-sweep inputs for the nn ops registered beside their ops in minitorch/_ops (dropout, activations,
normalization, embedding, distances, losses) and their nn.functional forms. Random ops reseed before each call, so
that gradcheck's repeated evaluations see one mask."""
from math import inf as INF
from math import nan as NAN

EDGES = {
    "threshold": (1.0, NAN, -INF),
    "hardshrink": (0.1, -0.1, NAN, -0.0),
    "F.multi_margin_loss": (NAN, INF, -INF, 2.0, 2.0),
}
