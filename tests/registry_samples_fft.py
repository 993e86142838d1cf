"""Registry sweep inputs for the complex-number ops (minitorch/_ops/elementwise/complex.py) and stft (minitorch/_ops/fft.py):
complex inputs (gradcheck treats them as pairs of reals), and real ones where the op makes complex numbers."""

NOT_DIFFERENTIABLE = {"is_conj"}
