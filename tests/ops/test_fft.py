"""minitorch.fft and stft/istft: values, dtypes and gradients against PyTorch, hand-derived values,
gradcheck/gradgradcheck in float64 (complex inputs count as pairs of reals), and torch's errors.

Complex inputs are made inside the compared functions as ``view_as_complex`` of a real (..., 2) array, and
complex outputs compared through ``view_as_real``: the helpers then compare gradients w.r.t. real leaves."""
import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import gradcheck, gradgradcheck
from op_helper import check_error, floats, helper_test_op


def as_real(lib, y):
    """A complex result as real pairs (torch's lazily conjugated results resolved first)."""
    return lib.view_as_real(y.resolve_conj()) if y.is_complex() else y


def spectral(fn, complex_input):
    """``fn(lib, x)`` on a real or complex input, compared as real tensors."""
    if complex_input:
        return lambda lib, x: as_real(lib, fn(lib, lib.view_as_complex(x)))
    return lambda lib, x: as_real(lib, fn(lib, x))


TRANSFORMS = {  # name: (function, input shape, real input allowed, complex input allowed)
    "fft": (lambda L, x, norm: L.fft.fft(x, norm=norm), (4, 6), True, True),
    "fft_n_dim": (lambda L, x, norm: L.fft.fft(x, n=9, dim=0, norm=norm), (4, 6), True, True),
    "ifft_trim": (lambda L, x, norm: L.fft.ifft(x, n=3, norm=norm), (4, 6), True, True),
    "fft2": (lambda L, x, norm: L.fft.fft2(x, norm=norm), (2, 4, 5), True, True),
    "ifft2_s": (lambda L, x, norm: L.fft.ifft2(x, s=(3, 7), norm=norm), (4, 5), True, True),
    "fftn": (lambda L, x, norm: L.fft.fftn(x, norm=norm), (3, 4, 5), True, True),
    "ifftn_dim": (lambda L, x, norm: L.fft.ifftn(x, s=(5, -1), dim=(0, 2), norm=norm), (3, 4, 5), True, True),
    "rfft": (lambda L, x, norm: L.fft.rfft(x, norm=norm), (4, 7), True, False),
    "rfft_n_dim": (lambda L, x, norm: L.fft.rfft(x, n=6, dim=0, norm=norm), (4, 7), True, False),
    "rfft2": (lambda L, x, norm: L.fft.rfft2(x, norm=norm), (4, 6), True, False),
    "rfftn_s": (lambda L, x, norm: L.fft.rfftn(x, s=(2, 5, 9), norm=norm), (3, 4, 5), True, False),
    "irfft": (lambda L, x, norm: L.fft.irfft(x, norm=norm), (4, 5), True, True),
    "irfft_odd": (lambda L, x, norm: L.fft.irfft(x, n=7, dim=0, norm=norm), (4, 5), False, True),
    "irfft2": (lambda L, x, norm: L.fft.irfft2(x, norm=norm), (4, 5), False, True),
    "irfftn_s": (lambda L, x, norm: L.fft.irfftn(x, s=(3, 9), norm=norm), (4, 5), False, True),
    "hfft": (lambda L, x, norm: L.fft.hfft(x, norm=norm), (4, 5), True, True),
    "hfft2": (lambda L, x, norm: L.fft.hfft2(x, s=(5, 5), norm=norm), (4, 5), False, True),
    "hfftn": (lambda L, x, norm: L.fft.hfftn(x, norm=norm), (3, 4, 5), False, True),
    "ihfft": (lambda L, x, norm: L.fft.ihfft(x, norm=norm), (4, 6), True, False),
    "ihfft2": (lambda L, x, norm: L.fft.ihfft2(x, norm=norm), (4, 6), True, False),
    "ihfftn_s": (lambda L, x, norm: L.fft.ihfftn(x, s=(3, 6), norm=norm), (3, 4, 5), True, False),
}
CASES = [(name, kind) for name, (_, _, real, cplx) in TRANSFORMS.items()
         for kind, ok in (("real", real), ("complex", cplx)) if ok]


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("name, kind", CASES)
def test_transforms_match_torch_in_values_dtypes_and_gradients(name, kind, norm):
    fn, shape, _, _ = TRANSFORMS[name]
    complex_input = kind == "complex"
    compare = spectral(lambda L, x: fn(L, x, norm), complex_input)
    helper_test_op([shape + (2,) if complex_input else shape], compare, check_node=False)
    helper_test_op([shape + (2,) if complex_input else shape], compare, dtype=np.float64, check_node=False)


NUMPY_REFERENCE = [  # (minitorch function, numpy.fft function, keyword arguments): values without torch
    ("fft", "fft", dict(n=7, axis=0)), ("ifft", "ifft", dict(norm="ortho")), ("fft2", "fft2", dict(s=(3, 8))),
    ("ifftn", "ifftn", dict(norm="forward")), ("rfft", "rfft", dict(n=5)), ("rfftn", "rfftn", dict(axes=(0, 1))),
    ("irfft", "irfft", dict(n=9, norm="ortho")), ("irfft2", "irfft2", {}), ("hfft", "hfft", dict(n=6)),
    ("ihfft", "ihfft", dict(norm="forward")),
]


@pytest.mark.parametrize("name, reference, kwargs", NUMPY_REFERENCE)
def test_values_match_numpy(name, reference, kwargs):
    rng = np.random.default_rng(0)
    signal = rng.standard_normal((4, 6))
    if not name.startswith(("rfft", "ihfft")):
        signal = signal + 1j * rng.standard_normal((4, 6))
    ours = {"axis": "dim", "axes": "dim"}
    result = getattr(mt.fft, name)(mt.tensor(signal), **{ours.get(k, k): v for k, v in kwargs.items()})
    np.testing.assert_allclose(result.numpy(), getattr(np.fft, reference)(signal, **kwargs), atol=1e-12)


def test_integer_signals_transform_in_the_default_float_dtype():
    x = np.arange(6).reshape(2, 3)
    helper_test_op([x], lambda L, x: as_real(L, L.fft.fft(x)))
    helper_test_op([x], lambda L, x: as_real(L, L.fft.rfft(x)))


def test_hand_derived_values():
    assert mt.fft.fft(mt.tensor([1.0, 0.0, 0.0, 0.0])).tolist() == [1, 1, 1, 1]
    assert mt.fft.fft(mt.ones(4)).tolist() == [4, 0, 0, 0]
    assert mt.fft.rfft(mt.ones(4), norm="forward").tolist() == [1, 0, 0]
    np.testing.assert_allclose(mt.fft.fft(mt.tensor([0.0, 1.0, 0.0, 0.0]), norm="ortho").numpy(),
                               [0.5, -0.5j, -0.5, 0.5j], atol=1e-7)
    np.testing.assert_allclose(mt.fft.irfft(mt.tensor([4.0 + 0j, 0, 0])).numpy(), [1, 1, 1, 1])
    assert mt.fft.fft(mt.ones(4)).dtype is mt.complex64
    assert mt.fft.fft(mt.ones(4, dtype=mt.float64)).dtype is mt.complex128
    assert mt.fft.irfft(mt.ones(3, dtype=mt.complex128)).dtype is mt.float64


def test_the_spectrum_of_a_real_signal_has_exact_zero_imaginary_parts_where_it_must():
    spectrum = mt.fft.fft(mt.arange(8.0).reshape(2, 4) / 7)  # torch prints +0.0000j at 0 and n/2, not noise
    assert (spectrum.imag[:, 0] == 0).all() and (spectrum.imag[:, 2] == 0).all()
    signal = floats((3, 4, 5), dtype=np.float64)  # the mirrored half, over several dims
    np.testing.assert_allclose(mt.fft.fftn(mt.tensor(signal), dim=(0, 2)).numpy(), np.fft.fftn(signal, axes=(0, 2)))


def test_frequencies_and_shifts():
    assert mt.fft.fftfreq(4).tolist() == [0.0, 0.25, -0.5, -0.25]
    assert mt.fft.fftfreq(5, d=0.5).tolist() == pytest.approx([0.0, 0.4, 0.8, -0.8, -0.4])
    assert mt.fft.rfftfreq(5, d=0.5).tolist() == pytest.approx([0.0, 0.4, 0.8])
    assert mt.fft.rfftfreq(4, dtype=mt.float64).dtype is mt.float64
    assert mt.fft.fftshift(mt.arange(5)).tolist() == [3, 4, 0, 1, 2]
    assert mt.fft.ifftshift(mt.arange(5)).tolist() == [2, 3, 4, 0, 1]
    assert mt.fft.fftshift(mt.arange(6).reshape(2, 3), dim=1).tolist() == [[2, 0, 1], [5, 3, 4]]
    helper_test_op([(3, 4)], lambda L, x: L.fft.fftshift(x) * L.fft.fftfreq(4) + L.fft.ifftshift(x, dim=(0,)))
    helper_test_op([], lambda L: L.fft.rfftfreq(7, 0.1, dtype=L.float64))


@pytest.mark.parametrize("fn, complex_input", [
    (lambda x: mt.fft.rfft(x).abs().sum(), False),
    (lambda x: mt.view_as_real(mt.fft.fft(x, n=5, norm="ortho")), False),
    (lambda x: mt.fft.irfft(mt.fft.rfft(x) * mt.fft.rfft(x), n=3), False),
    (lambda x: mt.fft.hfft(x, n=6), True),
    (lambda x: mt.fft.ifftn(x, s=(2, 5), norm="forward"), True),
    (lambda x: mt.fft.irfft2(x), True),
    (lambda x: mt.fft.ihfft2(x.real), True),
    (lambda x: (mt.fft.fft2(x).abs() ** 2).mean(), False),
])
def test_gradcheck_and_gradgradcheck(fn, complex_input):
    rng = np.random.default_rng(0)
    values = rng.standard_normal((3, 4)) + (1j * rng.standard_normal((3, 4)) if complex_input else 0)
    x = mt.tensor(values, requires_grad=True)
    assert x.dtype is (mt.complex128 if complex_input else mt.float64)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_gradcheck_catches_a_wrong_complex_gradient():
    class BadConj(mt.autograd.Function):  # the conjugate whose backward forgets to conjugate
        @staticmethod
        def forward(ctx, z):
            return z.conj()

        @staticmethod
        def backward(ctx, g):
            return g

    z = mt.tensor([1 + 2j, 3 - 1j], dtype=mt.complex128, requires_grad=True)
    assert not gradcheck(BadConj.apply, (z,), raise_exception=False)
    assert gradcheck(mt.conj, (z,))


def test_errors_match_torch():
    check_error(lambda L, x: L.fft.fft(x, norm="bad"), (4,), exc=RuntimeError, msg='Invalid normalization mode: "bad"')
    check_error(lambda L, x: L.fft.fft(x, n=0), (4,), exc=RuntimeError,
                msg="Invalid number of data points (0) specified")
    check_error(lambda L, x: L.fft.fft(x, dim=2), (2, 3), exc=IndexError)
    check_error(lambda L, x: L.fft.fftn(x, dim=(0, 0)), (2, 3), exc=RuntimeError, msg="FFT dims must be unique")
    check_error(lambda L, x: L.fft.fftn(x, s=(3,), dim=(0, 1)), (2, 3), exc=RuntimeError,
                msg="When given, dim and shape arguments must have the same length")
    check_error(lambda L, x: L.fft.fft(x), (), exc=IndexError)
    check_error(lambda L, x: L.fft.fft(x), (2, 0), exc=RuntimeError, msg="Invalid number of data points (0) specified")
    check_error(lambda L, x: L.fft.fftshift(x), (), exc=RuntimeError, msg="`shifts` required")
    helper_test_op([()], lambda L, x: L.view_as_real(L.fft.fftn(x)))
    check_error(lambda L, x: L.fft.irfft(L.view_as_complex(x)), (1, 2), exc=RuntimeError)
    check_error(lambda L, x: L.fft.fft(x.half()), (4,), exc=RuntimeError, msg="Unsupported dtype Half")
    check_error(lambda L, x: L.fft.rfft(L.view_as_complex(x)), (4, 2), exc=RuntimeError,
                msg="rfft expects a real input tensor, but got ComplexFloat")
    check_error(lambda L, x: L.fft.rfft2(L.view_as_complex(x)), (3, 4, 2), exc=RuntimeError,
                msg="rfftn expects a real-valued input tensor, but got ComplexFloat")
    check_error(lambda L, x: L.fft.ihfft(L.view_as_complex(x)), (4, 2), exc=RuntimeError,
                msg="ihfft expects a real input tensor, but got ComplexFloat")


WINDOW = (np.hanning(8) + 0.1).astype(np.float32)


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(hop_length=3, center=False, normalized=True),
    dict(hop_length=3, win_length=5, pad_mode="constant"),
    dict(onesided=False),
])
def test_stft_matches_torch(kwargs):
    win = WINDOW if kwargs.get("win_length") is None else WINDOW[:5]
    helper_test_op([(3, 40), win], lambda L, x, w: L.view_as_real(L.stft(x, 8, window=w, return_complex=True,
                                                                         **kwargs)))
    helper_test_op([(40,)], lambda L, x: L.view_as_real(L.stft(x, 8, return_complex=True, **kwargs)))


@pytest.mark.parametrize("kwargs", [
    dict(hop_length=2),
    dict(hop_length=2, length=45, normalized=True),
    dict(hop_length=3, center=False, length=30),
])
def test_istft_matches_torch(kwargs):
    hop = kwargs["hop_length"]
    frames = 1 + (40 if kwargs.get("center", True) else 40 - 8) // hop
    helper_test_op([(2, 5, frames, 2), WINDOW],
                   lambda L, s, w: L.istft(L.view_as_complex(s), 8, window=w, **kwargs))
    helper_test_op([(8, frames, 2)], lambda L, s: L.istft(L.view_as_complex(s), 8, return_complex=True,
                                                          onesided=False, **kwargs).abs())


def test_istft_inverts_stft():
    x = mt.tensor(floats((2, 50), dtype=np.float64))
    window = mt.tensor(np.hanning(16))
    spectrum = mt.stft(x, 16, hop_length=4, window=window, return_complex=True)
    assert spectrum.shape == (2, 9, 13) and spectrum.dtype is mt.complex128
    np.testing.assert_allclose(mt.istft(spectrum, 16, hop_length=4, window=window, length=50).numpy(), x.numpy())


def test_stft_gradcheck():
    x = mt.tensor(floats((20,), dtype=np.float64), requires_grad=True)
    w = mt.tensor(np.hanning(6) + 0.5, requires_grad=True)
    fn = lambda x, w: mt.stft(x, 8, hop_length=3, win_length=6, window=w, return_complex=True).abs()  # noqa: E731
    assert gradcheck(fn, (x, w)) and gradgradcheck(fn, (x, w))


def test_stft_and_istft_errors_match_torch():
    check_error(lambda L, x: L.stft(x, 8), (20,), exc=RuntimeError,
                msg="stft requires the return_complex parameter be given for real inputs, and will further require "
                    "that return_complex=True in a future PyTorch release.")
    check_error(lambda L, x: L.stft(x, 8, win_length=9, return_complex=True), (20,), exc=RuntimeError)
    check_error(lambda L, x: L.stft(x, 8, window=L.ones(5), return_complex=True), (20,), exc=RuntimeError)
    check_error(lambda L, x: L.stft(x, 8, center=False, return_complex=True), (3,), exc=RuntimeError)
    check_error(lambda L, s: L.istft(L.view_as_complex(s), 8, hop_length=9, center=False), (5, 3, 2),
                exc=RuntimeError)
    with pytest.raises(RuntimeError, match="window overlap add min: 0$"):  # (torch's message ends oddly)
        mt.istft(mt.ones(5, 3, dtype=mt.complex64), 8, hop_length=8, window=mt.tensor(np.hanning(8)))
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        assert mt.stft(mt.ones(20), 8, return_complex=False).shape == (5, 11, 2)
