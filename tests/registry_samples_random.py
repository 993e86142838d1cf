"""Registry sweep inputs for the random draws (minitorch/_factories.py): their values do not depend on the
input's values, so the gradient reaching the input must be exactly zero (as torch records them)."""

NO_DERIVATIVE = {"binomial"}

NOT_DIFFERENTIABLE = {"multinomial"}
