"""gradcheck/gradgradcheck catch wrong derivatives; autograd.functional computes
Jacobians, Hessians and their products."""
import pytest


def wrong_derivative(lib, factor=2.0, second_order=False):
    """x**3 whose first (or only second) derivative is off by ``factor``."""
    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            if second_order:  # right value, wrong dependence on x: x**2 computed from a detached copy
                return g * 3 * x.detach() ** 2
            return g * 3 * x ** 2 * factor
    return Cube.apply


def test_gradcheck_accepts_right_and_rejects_wrong_gradients(lib):
    x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(lambda t: t ** 3, (x,))
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
        lib.autograd.gradcheck(wrong_derivative(lib), (x,))
    assert lib.autograd.gradcheck(wrong_derivative(lib), (x,), raise_exception=False) is False


def test_gradcheck_fast_mode(lib):
    x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
    assert lib.autograd.gradcheck(lambda t: (t ** 3).sum() * t, (x,), fast_mode=True)
    assert not lib.autograd.gradcheck(wrong_derivative(lib), (x,), fast_mode=True, raise_exception=False)


def test_gradgradcheck_rejects_a_first_order_only_backward(lib):
    x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
    f = wrong_derivative(lib, second_order=True)
    assert lib.autograd.gradcheck(f, (x,))
    assert not lib.autograd.gradgradcheck(f, (x,), raise_exception=False)
    assert lib.autograd.gradgradcheck(lambda t: t ** 3, (x,))


def test_jacobian(lib):
    J = lib.autograd.functional.jacobian(lambda t: t ** 2, lib.tensor([1.0, 2.0]))
    assert J.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    Ja, Jb = lib.autograd.functional.jacobian(lambda a, b: a * b, (lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])))
    assert Ja.tolist() == [[3.0, 0.0], [0.0, 4.0]] and Jb.tolist() == [[1.0, 0.0], [0.0, 2.0]]
    J2 = lib.autograd.functional.jacobian(lambda m: m.sum(0), lib.ones(2, 3))
    assert tuple(J2.shape) == (3, 2, 3)


def test_hessian(lib):
    H = lib.autograd.functional.hessian(lambda t: (t ** 3).sum(), lib.tensor([1.0, 2.0]))
    assert H.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    H2 = lib.autograd.functional.hessian(lambda t: t[0] * t[1] ** 2, lib.tensor([1.0, 3.0]))
    assert H2.tolist() == [[0.0, 6.0], [6.0, 2.0]]


def test_vector_products(lib):
    F = lib.autograd.functional
    out, v = F.vjp(lambda t: t ** 2, lib.tensor([1.0, 2.0]), lib.tensor([1.0, 1.0]))
    assert out.tolist() == [1.0, 4.0] and v.tolist() == [2.0, 4.0]
    out, j = F.jvp(lambda t: t ** 2, lib.tensor([1.0, 2.0]), lib.tensor([1.0, 0.0]))
    assert j.tolist() == [2.0, 0.0]
    val, hv = F.hvp(lambda t: (t ** 3).sum(), lib.tensor([1.0, 2.0]), lib.tensor([1.0, 0.0]))
    assert val.item() == 9.0 and hv.tolist() == [6.0, 0.0]
    val, vh = F.vhp(lambda t: t[0] * t[1] ** 2, lib.tensor([1.0, 3.0]), lib.tensor([1.0, 1.0]))
    assert vh.tolist() == [6.0, 8.0]
