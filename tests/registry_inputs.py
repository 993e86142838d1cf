"""Inputs for the registry sweep (tests/registry_cases.py and tests/registry_samples_*.py)."""
import math

import numpy as np

import minitorch as mt

NAN, INF = math.nan, math.inf  # for the EDGES points


def x(*shape, low=0.5, high=1.5, seed=0):
    """A float64 leaf that requires grad, uniform in [low, high)."""
    values = np.random.default_rng(seed).uniform(low, high, shape)
    return mt.tensor(values, dtype=mt.float64, requires_grad=True)


def idx(*values):
    """An int64 index tensor."""
    return mt.tensor(values, dtype=mt.int64)
