"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the nn.functional forms:
their boundary points for the edge-value sweep (``EDGES``)."""
from math import inf as INF
from math import nan as NAN

EDGES = {
    "F.softshrink": (0.1, -0.1, NAN, -0.0, INF, -INF),  # +-lambd
    "F.kl_div": {1: (0.0, -0.0, NAN, INF)},  # targets
    "F.poisson_nll_loss": {1: (1.0, 0.0, 0.5, NAN)},  # targets at and below the Stirling term's cut (full=True)
    "F.soft_margin_loss": (INF, -INF, NAN),
}
