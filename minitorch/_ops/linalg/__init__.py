"""Linear algebra: matrix products, decompositions and factorizations (LU, LDL, QR, SVD, eigen, Householder),
low-rank methods."""
