"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the linear algebra ops
(minitorch/_ops/linalg/): the ones without gradients."""

NOT_DIFFERENTIABLE = {"geqrf"}
