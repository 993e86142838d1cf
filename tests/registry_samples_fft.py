"""Registry sweep inputs for the complex-number ops (minitorch/_ops/elementwise/complex.py) and stft (minitorch/_ops/fft.py):
complex inputs (gradcheck treats them as pairs of reals), and real ones where the op makes complex numbers."""
import numpy as np

import minitorch as mt
from registry_inputs import x


def cx(*shape, seed=0):
    """A complex128 leaf that requires grad, real and imaginary parts uniform in [-1.5, 1.5)."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(-1.5, 1.5, shape) + 1j * rng.uniform(-1.5, 1.5, shape)
    return mt.tensor(values, dtype=mt.complex128, requires_grad=True)


SAMPLES = {
    **{name: (None, lambda: (cx(3, 4),)) for name in ("real", "imag", "conj", "conj_physical", "sgn", "angle",
                                                       "view_as_real")},
    "resolve_conj": (lambda t: mt.resolve_conj(t * 1), lambda: (cx(3, 4),)),
    "view_as_complex": (None, lambda: (x(3, 2),)),
    "complex": (None, lambda: (x(3, 4), x(3, 4, seed=1))),
    "polar": (None, lambda: (x(3, 4), x(3, 4, low=-3.0, high=3.0, seed=1))),
    "stft": (lambda t, w: mt.stft(t, 8, hop_length=3, window=w, return_complex=True),
             lambda: (x(2, 20, low=-1.0, high=1.0), x(8, seed=1))),
    "istft": (lambda t, w: mt.istft(t, 8, hop_length=2, window=w, length=18),
              lambda: (cx(5, 10), x(8, seed=1))),
}
