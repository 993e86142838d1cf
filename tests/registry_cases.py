"""The registry sweeps' inputs: every registered op by its public name (``OPS``), the sample inputs on the
registry rows of the ops that need more than one (3, 4) float tensor (``SAMPLES``, from
``minitorch._core.registry.SAMPLES``), the ops without a derivative and ``_case(name)``, the (function, inputs) the
sweeps call. Shared by test_registry, test_edge_values, test_saved_tensors
and the layout and edge-value sweeps."""
from math import inf as INF
from math import nan as NAN

import minitorch as mt
from minitorch._core import registry as _registry
from minitorch._core.samples import leaf as _x
from minitorch._core.samples import one

# name -> (function, inputs) from each op's registry row; ``None`` as the function means "the registered function".
SAMPLES = dict(_registry.SAMPLES)

OP_MODULES = ("minitorch._ops.", "minitorch._factories", "minitorch._random_factories")

# The shapes of the binary ops (see BINARY below) that take other than two (3, 4) tensors.
BINARY_SHAPES = {"matmul": ((3, 4), (4, 2)), "inner": ((3, 4), (2, 4)), "outer": ((3,), (4,)), "ger": ((3,), (4,))}

# Boundary points for the edge-value sweep (tests/ops/test_edge_values.py), written into the ops' samples:
# name -> the points, written in order into the sample's first input, or {input position: points} (nan, inf,
# -inf and -0.0 are swept for every op already; these are the points where an op changes formula).
EDGES = {
    "clamp": (0.7, 1.3, NAN, INF, -INF),
    "clamp_min": (0.7, NAN),
    "clamp_max": (1.3, NAN),
    "F.hardtanh": (0.0, 1.0, -0.0, NAN),
    "F.threshold": (1.0, NAN, -INF),
    # ties, NaN against a number, and NaN against NaN
    **{name: {0: (1.0, 2.0, NAN, NAN, 1.0), 1: (1.0, 2.0, 1.0, NAN, NAN)} for name in ("maximum", "minimum", "fmax",
                                                                                       "fmin")},
    **{name: {0: (1.0, -1.0, 3.0, 0.0, INF, -3.0), 1: (0.0, 2.0, -2.0, -2.0, 2.0, INF)} for name in ("remainder",
                                                                                                  "fmod")},
    "div": {0: (0.0, 1.0, -1.0, INF, 0.0), 1: (0.0, 0.0, -0.0, INF, INF)},
    "pow": {0: (0.0, 0.0, -1.0, 0.0, -0.0, 1.0, NAN, -2.0), 1: (0.0, -1.0, 0.5, 2.0, 3.0, NAN, 0.0, 2.0)},
    # |input - target| at the kink (1), at 0, and a NaN on either side
    **{name: {0: (1.0, 3.0, 2.0, 0.0, NAN, 1.0), 1: (0.0, 2.0, 3.0, 0.0, 1.0, NAN)} for name in ("F.smooth_l1_loss",
                                                                                              "F.huber_loss")},
    "F.binary_cross_entropy": {0: (0.0, 2.0, 0.0, 2.0), 1: (0.0, 2.0, 2.0, 0.0)},  # probabilities 0 and 1 (x 0.5)
    "F.l1_loss": {0: (2.0, NAN), 1: (2.0, 2.0)},
    "log_softmax": (-INF, -INF, -INF, -INF),  # a row of -inf
    "softmax": (-INF, -INF, -INF, -INF),
    "logsumexp": (-INF, -INF, -INF, -INF, INF, INF),
    "norm": (2.0, -2.0, 2.0),  # ties of the inf-norm
    "sort": (1.0, 1.0, NAN, 1.0),
    "topk": (2.0, 2.0, NAN, 2.0),
    # elementwise
    "F.relu6": (6.0, NAN, INF, -INF, -0.0),
    "F.hardswish": (3.0, -3.0, NAN, INF, -INF),
    "F.hardsigmoid": (3.0, -3.0, NAN),
    "F.softplus": (20.0, 20.5, NAN, -INF),  # its threshold
    "F.leaky_relu": (-0.0, NAN, -INF),
    "F.logsigmoid": (-INF, INF, NAN),
    **{name: (-1.0, 0.0, -0.0, -INF) for name in ("log", "log2", "log10", "sqrt", "rsqrt", "reciprocal")},
    "log1p": (-1.0, -2.0, -INF),
    **{name: (0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0) for name in ("round", "trunc", "ceil", "floor", "frac")},
    "exp": (710.0, -750.0, 709.0),
    "expm1": (710.0, -750.0),
    "exp2": (1025.0, -1080.0),
    "lgamma": (1.0, 2.0, -1.0, -2.0, 0.5, -0.5),
    "digamma": (1.0, -1.0, -2.0, 0.5),
    "sinc": (1.0, -1.0, 2.0),
    "erfc": (30.0, -30.0),
    **{name: (2.0, 2.0, 0.5, 0.5) for name in ("max", "min", "amax", "amin")},  # ties at the maximum and minimum
    "copysign": {0: (1.0, 1.0, 0.0, -0.0, NAN), 1: (0.0, -0.0, -1.0, 1.0, -1.0)},
    "nextafter": {0: (1.0, 0.0, NAN), 1: (1.0, 0.0, 1.0)},
    # math
    **{name: (1.0, -1.0, 1.5, -1.5) for name in ("asin", "acos", "atanh", "erfinv")},
    "acosh": (1.0, 0.5),
    "logit": (0.0, 1.0, -0.5, 1.5),
    "atan2": {0: (0.0, -0.0, 0.0, -0.0, INF, INF, -INF), 1: (0.0, 0.0, -0.0, -0.0, INF, -INF, INF)},
    "hypot": {0: (INF, NAN, 0.0, -INF), 1: (NAN, INF, 0.0, 0.0)},
    "logaddexp": {0: (INF, -INF, INF, -INF), 1: (INF, -INF, -INF, 1.0)},
    "logaddexp2": {0: (INF, -INF, INF, -INF), 1: (INF, -INF, -INF, 1.0)},
    "xlogy": {0: (0.0, 0.0, 1.0, 0.0, -0.0), 1: (0.0, NAN, 0.0, INF, 0.0)},
    "polygamma": (1.0, -1.0, 0.5, -0.5),
    "mvlgamma": (1.0, 1.5, 2.0),  # the domain ends at (p - 1) / 2 = 1
    # nn
    "F.softshrink": (0.1, -0.1, NAN, -0.0, INF, -INF),  # +-lambd
    "F.kl_div": {1: (0.0, -0.0, NAN, INF)},  # targets
    "F.poisson_nll_loss": {1: (1.0, 0.0, 0.5, NAN)},  # targets at and below the Stirling term's cut (full=True)
    "F.soft_margin_loss": (INF, -INF, NAN),
    # nn ops
    "threshold": (1.0, NAN, -INF),
    "hardshrink": (0.1, -0.1, NAN, -0.0),
    "F.multi_margin_loss": (NAN, INF, -INF, 2.0, 2.0),
}


# Every registered op by its public name: the minitorch namespace as is, nn.functional's own as F.<name>.
OPS = {name: e.function for name, e in _registry.ENTRIES.items()}
OPS.update({"F." + name: fn for name, fn in _registry.FUNCTIONAL.items() if fn not in OPS.values()})

# The facts of the ops' registry rows (``minitorch._core.registry.Row``), by public name:
# binary ops take two tensors of one shape (a second one from another seed; away from ties; BINARY_SHAPES above
# where they need others); the not differentiable ones record no graph (boolean or integer results, new tensors
# from nothing differentiable); those without a derivative are recorded, but (as in torch) backward raises
# "derivative for aten::<name> is not implemented".
BINARY = {name for name, fn in OPS.items() if _registry.row(fn).binary}
NOT_DIFFERENTIABLE = {name for name, fn in OPS.items() if not _registry.row(fn).differentiable}
NO_DERIVATIVE = {name for name, fn in OPS.items() if not _registry.row(fn).derivative}


def _sampled_name(name):
    """``name`` or the alias of the same function that SAMPLES or BINARY lists."""
    for other in (name, *sorted(SAMPLES), *sorted(BINARY)):
        if OPS.get(other) is OPS[name] and (other in SAMPLES or other in BINARY):
            return other
    return name


def _sample(name):
    """(function, inputs) for the registered op ``name``, ``inputs`` not yet called; None for an in-place form swept
    through its out-of-place op. In-place ops run on a clone of their first input; an op without a sample on its
    row runs on one (3, 4) float tensor (``one``), a binary one on two."""
    fn = OPS[name]
    key = _sampled_name(name)
    if key in SAMPLES:
        f, inputs = SAMPLES[key]
        return (f or fn), inputs
    if name.endswith("_"):
        base = name[:-1]
        f, inputs = _sample(base) if base in OPS else (None, one)
        if f is not None and f is not OPS[base]:
            return None
        return (lambda x, *rest: fn(x.clone(), *rest)), inputs
    if key in BINARY:
        sa, sb = BINARY_SHAPES.get(key, ((3, 4), (3, 4)))
        if key == "where":
            return (lambda x, y: mt.where(x > 1.0, x, y)), lambda: (_x(*sa), _x(*sb, seed=1))
        return fn, lambda: (_x(*sa), _x(*sb, low=2.0, high=3.0, seed=1))  # disjoint ranges: no ties, no x % y kinks
    return fn, one


def _case(name):
    """(function, inputs) for the registered op ``name`` (see ``_sample``); None for an in-place form swept through
    its out-of-place op."""
    sample = _sample(name)
    return sample and (sample[0], sample[1]())


DIFFERENTIABLE = sorted(set(OPS) - NOT_DIFFERENTIABLE - NO_DERIVATIVE)
