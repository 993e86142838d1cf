"""Registry sweep inputs for the linear algebra ops (minitorch/_ops/linalg.py, decompositions.py,
factorizations.py, lu.py, householder.py): operands of matching shapes, well-conditioned square matrices,
symmetric positive-definite ones for the Cholesky family, distinct singular values for the SVD."""

NOT_DIFFERENTIABLE = {"geqrf"}
