"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the complex-number ops
(minitorch/_ops/elementwise/complex.py): the ones without gradients."""

NOT_DIFFERENTIABLE = {"is_conj"}
