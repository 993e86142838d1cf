"""Registry sweep inputs for the random draws (minitorch/_random_factories.py): their values do not depend on the
input's values, so the gradient reaching the input must be exactly zero (as torch records them)."""
import minitorch as mt
from registry_inputs import x


def _seeded(draw):
    return lambda t: (mt.manual_seed(0), draw(t))[1] * t


SAMPLES = {
    "cauchy_": (_seeded(lambda t: t.clone().cauchy_()), lambda: (x(3, 4),)),
    "log_normal_": (_seeded(lambda t: t.clone().log_normal_()), lambda: (x(3, 4),)),
    "geometric_": (_seeded(lambda t: t.clone().geometric_(0.3)), lambda: (x(3, 4),)),
    "bernoulli": (_seeded(mt.bernoulli), lambda: (x(3, 4, low=0.1, high=0.9),)),
    "poisson": (_seeded(mt.poisson), lambda: (x(3, 4),)),
}
