"""Registry-sweep facts kept in tests (the sample inputs sit on the registry rows) about the reductions, scans,
selections and scatters (minitorch/_ops/reduction/, shape/scatter.py): the ones without gradients."""

NOT_DIFFERENTIABLE = {"isin", "unique_consecutive"}
