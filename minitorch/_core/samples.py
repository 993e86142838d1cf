"""Builders for the sample inputs that registry rows carry (``register(..., sample=(function, inputs))``).

A row's sample is ``(function, inputs)``: ``inputs()`` makes the tensors, ``function(*tensors)`` calls the op on
them (``None``: the registered function itself, on the inputs as made). An op without a sample is swept on one
(3, 4) float tensor (two for a binary op), by tests/registry_cases.py. The builders draw float64 leaves from fixed
seeds, so every sweep and every recorded answer in tests/fixtures sees the same values.

``mt`` and ``F`` read ``minitorch`` and ``minitorch.nn.functional`` when a sample runs, not when its row is
registered: this module, like the rest of the core, imports no op.
"""
import importlib
import warnings

import numpy as np


class Later:
    """A module looked up at each attribute read (so a sample sees the namespace as it is when it runs)."""

    def __init__(self, name: str):
        self.module_name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self.module_name), attr)


mt = Later("minitorch")
F = Later("minitorch.nn.functional")


def leaf(*shape, low=0.5, high=1.5, seed=0):
    """A float64 leaf that requires grad, uniform in [low, high)."""
    values = np.random.default_rng(seed).uniform(low, high, shape)
    return mt.tensor(values, dtype=mt.float64, requires_grad=True)


def cx(*shape, seed=0):
    """A complex128 leaf that requires grad, real and imaginary parts uniform in [-1.5, 1.5)."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(-1.5, 1.5, shape) + 1j * rng.uniform(-1.5, 1.5, shape)
    return mt.tensor(values, dtype=mt.complex128, requires_grad=True)


def idx(*values):
    """An int64 index tensor."""
    return mt.tensor(values, dtype=mt.int64)


# ---- inputs shared by several rows ------------------------------------------------------------------------------
def one():
    return (leaf(3, 4),)


def pair(low=0.5, high=1.5):
    """Two (3, 4) inputs, the second from another seed in [low, high)."""
    return (leaf(3, 4), leaf(3, 4, low=low, high=high, seed=1))


def negative_pair():
    return pair(-1.5, -0.5)


def triple():
    return (leaf(3, 4), leaf(3, 4, seed=1), leaf(3, 4, seed=2))


def three():
    """Two (3, 4) inputs and a broadcast (4,) one."""
    return (leaf(3, 4), leaf(3, 4, seed=1), leaf(4, seed=2))


def signed():
    return (leaf(3, 4, low=-1.0, high=1.0, seed=3),)


def inside_unit():
    return (leaf(3, 4, low=-0.9, high=0.9),)


def vectors():
    return (leaf(3), leaf(2, seed=1))


def maps():
    """A batch of (2, 2) feature maps, signed."""
    return (leaf(2, 3, 2, 2, low=-1.0, high=1.0),)


def norm_inputs():
    """A (4, 3, 2) input with a weight and a bias per channel."""
    return (leaf(4, 3, 2), leaf(3, seed=1), leaf(3, seed=2))


def with_source(*shape):
    """A (3, 4) input and a source of ``shape`` (scatter-like ops)."""
    return lambda: (leaf(3, 4), leaf(*shape, seed=1))


def zeros_and_ties():
    """Zeros (prod-type gradients have exact formulas there) and ties (max-type gradients are shared)."""
    return (mt.tensor([[0.5, 0.0, 1.5, 2.0], [0.0, 0.7, 0.0, 2.0], [1.0, 2.0, 3.0, 1.25]], dtype=mt.float64,
                      requires_grad=True),)


# ---- sample functions shared by several rows --------------------------------------------------------------------
def quiet(fn):
    """``fn`` with its deprecation warning silenced (chain_matmul, torch.lu, upsample_*, ...)."""
    def call(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return fn(*args)
    return call


def seeded(fn):
    """``fn`` run right after ``manual_seed(0)``: the same random draw on every call (gradcheck calls many times)."""
    return lambda *a: (mt.manual_seed(0), fn(*a))[1]


def drawn_times(draw):
    """A random draw (whose values do not depend on the input's) times the input: the gradient is the draw."""
    return lambda t: seeded(draw)(t) * t


def constant_times(make):
    """A non-differentiable op whose arguments the sweep cannot guess: its (constant) result times the input."""
    return lambda t: make().to(mt.float64).sum() * t


def spd(a):
    """A symmetric positive-definite matrix made from ``a``."""
    return a @ a.mT + mt.eye(a.shape[-1], dtype=mt.float64)


def well_conditioned(a):
    return a + 3 * mt.eye(a.shape[-1], dtype=mt.float64)
