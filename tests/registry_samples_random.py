"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the random draws
(minitorch/_factories.py): the ones without a derivative or a graph."""

NO_DERIVATIVE = {"binomial"}

NOT_DIFFERENTIABLE = {"multinomial"}
