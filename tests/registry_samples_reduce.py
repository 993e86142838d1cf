"""Registry sweep inputs for the reductions, scans, selections and scatters (minitorch/_ops/reduction/scans.py,
statistics.py, sorting.py, scatter.py, counting.py): their arguments, and inputs with zeros or ties where
the gradient has a special case."""

NOT_DIFFERENTIABLE = {"isin", "unique_consecutive"}
