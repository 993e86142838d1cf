"""Gradient checks against finite differences: ``gradcheck`` and ``gradgradcheck``.

Central differences in float64: the analytical Jacobian (one backward pass per
output element, or one per output with ``fast_mode``, which compares
``v^T J u`` for random ``u`` and ``v``) must match the numerical one within
``atol + rtol * |numerical|``. Complex inputs and outputs count as pairs of real numbers
(real, imaginary part); the gradient of a real function of them follows torch's convention,
``dL/dRe + i dL/dIm``, so it lines up with those pairs.
"""
from __future__ import annotations

import warnings

import numpy as np

from .._core.engine import grad
from .._core.tensor import Tensor


class GradcheckError(RuntimeError):
    """Raised by gradcheck and gradgradcheck when the gradients do not match."""


def _tensors(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _outputs(func, inputs):
    out = func(*inputs)
    return (out,) if isinstance(out, Tensor) else tuple(o for o in out if isinstance(o, Tensor))


def _as_reals(arr: np.ndarray) -> np.ndarray:
    """A flat float64 array of the values, a complex one as (real, imaginary) pairs."""
    if arr.dtype.kind == "c":
        return np.stack([arr.real, arr.imag], -1).astype(np.float64).reshape(-1)
    return arr.astype(np.float64).reshape(-1)


def _real_size(arr: np.ndarray) -> int:
    return arr.size * (2 if arr.dtype.kind == "c" else 1)


def _evaluate(func, inputs):
    """Output values as flat float64 arrays. Runs with grad mode on: ``func`` may itself differentiate."""
    return [_as_reals(o._data) for o in _outputs(func, inputs)]


def _perturbed(func, inputs, x, i, delta):
    flat = x._data.reshape(-1)
    if flat.dtype.kind == "c":  # the real numbers of a (contiguous) complex array, in place
        flat = flat.view(flat.real.dtype)
    orig = flat[i]
    flat[i] = orig + delta
    try:
        return _evaluate(func, inputs)
    finally:
        flat[i] = orig


def _numerical_jacobian(func, inputs, x, eps):
    """d(output_k)/d(x) for each output, as (x.numel(), out_k.numel()) arrays."""
    if not x._data.flags.c_contiguous:
        raise ValueError("gradcheck needs contiguous inputs")
    cols = []
    for i in range(_real_size(x._data)):
        plus = _perturbed(func, inputs, x, i, eps)
        minus = _perturbed(func, inputs, x, i, -eps)
        cols.append([(p - m).reshape(-1) / (2 * eps) for p, m in zip(plus, minus)])
    n_out = len(_evaluate(func, inputs))
    return [np.array([c[k] for c in cols]).reshape(len(cols), -1) for k in range(n_out)]


def _analytical_jacobian(outputs, diff_inputs, k):
    """Row-by-row (one backward per element of output k) Jacobians w.r.t. each input."""
    out = outputs[k]
    jac = [np.zeros((_real_size(x._data), _real_size(out._data))) for x in diff_inputs]
    if not out._requires_grad:
        return jac
    pairs = out._data.dtype.kind == "c"
    for j in range(_real_size(out._data)):
        v = np.zeros(out._data.size, out._data.dtype)
        v[j // 2 if pairs else j] = 1j if pairs and j % 2 else 1  # the gradient of the real or imaginary part
        grads = grad(out, diff_inputs, Tensor._wrap(v.reshape(out._data.shape)), retain_graph=True, allow_unused=True)
        for col, g in zip(jac, grads):
            if g is not None:
                col[:, j] = _as_reals(g._data)
    return jac


def _fail(msg, raise_exception):
    if raise_exception:
        raise GradcheckError(msg)
    return False


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, fast_mode: bool = False, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_backward_ad: bool = True, masked=None, seed: int = 0) -> bool:
    """Check the gradients of ``func`` at ``inputs`` (tensors that require grad) against finite differences."""
    inputs = _tensors(inputs)
    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x._requires_grad]
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad and x._data.dtype not in (np.float64, np.complex128):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ", UserWarning, stacklevel=2)
    if not diff_inputs:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    outputs = _outputs(func, inputs)
    if fast_mode:
        return _fast_check(func, inputs, diff_inputs, outputs, eps, atol, rtol, raise_exception, seed)
    numerical = [_numerical_jacobian(func, inputs, x, eps) for x in diff_inputs]
    for k in range(len(outputs)):
        analytical = _analytical_jacobian(outputs, diff_inputs, k)
        for i, (a, n) in enumerate(zip(analytical, (num[k] for num in numerical))):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                return _fail(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                             f"numerical:{Tensor._wrap(n)}\nanalytical:{Tensor._wrap(a)}\n", raise_exception)
    return True


def _fast_check(func, inputs, diff_inputs, outputs, eps, atol, rtol, raise_exception, seed):
    """Compare ``v . (J u)`` by finite differences with ``(J^T v) . u`` by backward."""
    rng = np.random.default_rng(seed)
    for i, x in enumerate(diff_inputs):
        u = rng.standard_normal(x._data.shape)
        if x._data.dtype.kind == "c":
            u = u + 1j * rng.standard_normal(x._data.shape)
        u /= np.linalg.norm(u) or 1.0
        base = x._data.copy()
        x._data[...] = base + eps * u
        plus = _evaluate(func, inputs)
        x._data[...] = base - eps * u
        minus = _evaluate(func, inputs)
        x._data[...] = base
        for k, out in enumerate(outputs):
            if not out._requires_grad:
                continue
            v = rng.standard_normal(out._data.shape)
            if out._data.dtype.kind == "c":
                v = v + 1j * rng.standard_normal(out._data.shape)
            numerical = float(np.sum(_as_reals(v) * (plus[k] - minus[k]) / (2 * eps)))
            g = grad(out, [x], Tensor._wrap(v.astype(out._data.dtype)), retain_graph=True, allow_unused=True)[0]
            analytical = 0.0 if g is None else float(np.sum(_as_reals(g._data) * _as_reals(u)))
            if not np.isclose(analytical, numerical, rtol=rtol, atol=atol):
                return _fail(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                             f"numerical:{numerical}\nanalytical:{analytical}\n"
                             "The above quantities relating the numerical and analytical jacobians are computed in "
                             "fast mode.", raise_exception)
    return True


def _random_like(rng, arr: np.ndarray) -> np.ndarray:
    """Standard normal values of ``arr``'s shape and dtype (complex ones with random imaginary parts too)."""
    r = rng.standard_normal(arr.shape)
    if arr.dtype.kind == "c":
        r = r + 1j * rng.standard_normal(arr.shape)
    return r.astype(arr.dtype)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True, fast_mode: bool = False,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, masked: bool = False, seed: int = 0) -> bool:
    """Check second derivatives: gradcheck of the function that returns the first derivatives."""
    inputs = _tensors(inputs)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(seed)
        grad_outputs = tuple(Tensor._wrap(_random_like(rng, o._data)).requires_grad_() for o in outputs)
    else:
        grad_outputs = _tensors(grad_outputs)
    n = len(inputs)

    def first_derivatives(*args):
        outs = _outputs(func, args[:n])
        diff = [x for x in args[:n] if isinstance(x, Tensor) and x._requires_grad]
        pairs = [(o, g) for o, g in zip(outs, args[n:]) if o._requires_grad]
        grads = grad([o for o, _ in pairs], diff, [g for _, g in pairs], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, fast_mode=fast_mode, seed=seed)
