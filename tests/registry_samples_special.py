"""Registry sweep inputs for igamma and igammac (minitorch/_ops/elementwise/bessel.py): torch differentiates them
in their second argument only, so the first is a constant."""
import minitorch as mt
from registry_inputs import x


def _shape():
    return x(3, 4, low=0.5, high=3.0, seed=2).detach()


SAMPLES = {
    "igamma": (lambda t: mt.igamma(_shape(), t), lambda: (x(3, 4, low=0.5, high=4.0),)),
    "igammac": (lambda t: mt.igammac(_shape(), t), lambda: (x(3, 4, low=0.5, high=4.0),)),
    "igamma_": (lambda t: _shape().igamma_(t), lambda: (x(3, 4, low=0.5, high=4.0),)),
    "igammac_": (lambda t: _shape().igammac_(t), lambda: (x(3, 4, low=0.5, high=4.0),)),
}
