"""The registry sweeps' inputs: every registered op by its public name (``OPS``), the sample inputs of the ops
that need more than one (3, 4) float tensor (here and in tests/registry_samples_*.py), the ops without a derivative
and ``_case(name)``, the (function, inputs) the sweeps call. Shared by test_registry, test_edge_values, test_saved_tensors
and the layout and edge-value sweeps."""
import importlib.util
import pathlib


import minitorch as mt
import minitorch.nn.functional as F
from minitorch._core import registry as _registry
from registry_inputs import INF, NAN
from registry_inputs import idx as _idx
from registry_inputs import x as _x

OP_MODULES = ("minitorch._ops.", "minitorch._factories", "minitorch._random_factories")


# Inputs for the ops that take more than one (3, 4) float tensor in (0.5, 1.5): name -> (function, inputs).
# ``None`` as the function means "the registered function itself".
SAMPLES = {
    "addmm": (None, lambda: (_x(2, 4), _x(2, 3), _x(3, 4))),
    "bmm": (None, lambda: (_x(2, 2, 3), _x(2, 3, 2))),
    "broadcast_to": (lambda x: mt.broadcast_to(x, (2, 3, 4)), lambda: (_x(3, 4),)),
    "chunk": (lambda x: x.chunk(2, 1), lambda: (_x(3, 4),)),
    "clamp": (lambda x: mt.clamp(x, 0.7, 1.3), lambda: (_x(3, 4),)),
    "clamp_max": (lambda x: mt.clamp_max(x, 1.3), lambda: (_x(3, 4),)),
    "clamp_min": (lambda x: mt.clamp_min(x, 0.7), lambda: (_x(3, 4),)),
    "contiguous": (lambda x: x.t().contiguous(), lambda: (_x(3, 4),)),
    "copy_": (lambda x, y: x.clone().copy_(y), lambda: (_x(3, 4), _x(4, seed=1))),
    "cumsum": (lambda x: x.cumsum(1), lambda: (_x(3, 4),)),
    "dot": (None, lambda: (_x(4), _x(4, seed=1))),
    "expand": (lambda x: x.expand(2, 3, 4), lambda: (_x(3, 4),)),
    "expand_as": (None, lambda: (_x(1, 4), _x(3, 4, seed=1))),
    "fill_": (lambda x: x.clone().fill_(2.0) * x, lambda: (_x(3, 4),)),
    "flip": (lambda x: x.flip(0), lambda: (_x(3, 4),)),
    "gather": (lambda x: x.gather(1, _idx([0, 3], [1, 1], [2, 0])), lambda: (_x(3, 4),)),
    "index_put": (lambda x, v: x.index_put((_idx(0, 2),), v), lambda: (_x(3, 4), _x(4, seed=1))),
    "index_select": (lambda x: x.index_select(1, _idx(3, 0, 3)), lambda: (_x(3, 4),)),
    "log_softmax": (lambda x: x.log_softmax(1), lambda: (_x(3, 4),)),
    "logsumexp": (lambda x: x.logsumexp(1), lambda: (_x(3, 4),)),
    "masked_fill": (lambda x: x.masked_fill(mt.tensor([True, False, False, True]), 2.0), lambda: (_x(3, 4),)),
    "masked_select": (lambda x: x.masked_select(mt.tensor([True, False, False, True])), lambda: (_x(3, 4),)),
    "mm": (None, lambda: (_x(2, 3), _x(3, 4))),
    "movedim": (lambda x: x.movedim(0, 2), lambda: (_x(2, 3, 4),)),
    "mv": (None, lambda: (_x(2, 3), _x(3))),
    "narrow": (lambda x: x.narrow(1, 1, 2), lambda: (_x(3, 4),)),
    "permute": (lambda x: x.permute(2, 0, 1), lambda: (_x(2, 3, 4),)),
    "repeat": (lambda x: x.repeat(2, 1), lambda: (_x(3, 4),)),
    "reshape": (lambda x: x.reshape(4, 3), lambda: (_x(3, 4),)),
    "reshape_as": (None, lambda: (_x(3, 4), _x(4, 3, seed=1))),
    "rsub": (lambda x: mt.rsub(x, 2.0), lambda: (_x(3, 4),)),
    "scatter": (lambda x, s: x.scatter(1, _idx([0, 1], [2, 3], [1, 0]), s), lambda: (_x(3, 4), _x(3, 2, seed=1))),
    "scatter_add": (lambda x, s: x.scatter_add(1, _idx([0, 0], [2, 3], [1, 1]), s),
                    lambda: (_x(3, 4), _x(3, 2, seed=1))),
    "select": (lambda x: x.select(1, 2), lambda: (_x(3, 4),)),
    "softmax": (lambda x: x.softmax(1), lambda: (_x(3, 4),)),
    "split": (lambda x: x.split(3, 1), lambda: (_x(3, 4),)),
    "split_with_sizes": (lambda x: x.split_with_sizes([1, 3], 1), lambda: (_x(3, 4),)),
    "take_along_dim": (lambda x: x.take_along_dim(_idx([0, 3], [1, 1], [2, 0]), 1), lambda: (_x(3, 4),)),
    "tensor_split": (lambda x: x.tensor_split(3, 1), lambda: (_x(3, 4),)),
    "tile": (lambda x: x.tile(1, 2), lambda: (_x(3, 4),)),
    "transpose": (lambda x: x.transpose(0, 1), lambda: (_x(3, 4),)),
    "swapaxes": (lambda x: x.swapaxes(0, 1), lambda: (_x(3, 4),)),
    "unflatten": (lambda x: x.unflatten(1, (2, 2)), lambda: (_x(3, 4),)),
    "unsqueeze": (lambda x: x.unsqueeze(1), lambda: (_x(3, 4),)),
    "view": (lambda x: x.view(2, 6), lambda: (_x(3, 4),)),
    "view_as": (None, lambda: (_x(3, 4), _x(2, 6, seed=1))),
    "pow": (None, lambda: (_x(3, 4), _x(3, 4, seed=1))),
    "prod": (lambda x: x.prod(1), lambda: (mt.tensor([[0.5, 0.0, 1.5], [0.0, 0.0, 2.0], [1.0, 2.0, 3.0]],
                                                     dtype=mt.float64, requires_grad=True),)),
    "sort": (lambda x: x.sort(1, descending=True).values, lambda: (_x(3, 4),)),
    "addcdiv": (lambda a, b, c: a.addcdiv(b, c, value=0.5), lambda: (_x(3, 4), _x(3, 4, seed=1), _x(4, seed=2))),
    "addcmul": (lambda a, b, c: mt.addcmul(a, b, c, value=2), lambda: (_x(3, 4), _x(3, 4, seed=1), _x(4, seed=2))),
    "lerp": (lambda a, b, w: a.lerp(b, w), lambda: (_x(3, 4), _x(3, 4, seed=1), _x(4, seed=2))),
    "cdist": (lambda a, b: mt.cdist(a, b), lambda: (_x(3, 4), _x(2, 4, low=2.0, high=3.0, seed=1))),
    "cross": (lambda a, b: mt.cross(a, b, dim=1), lambda: (_x(2, 3), _x(2, 3, seed=1))),
    "kron": (None, lambda: (_x(2, 3), _x(3, 2, seed=1))),
    "repeat_interleave": (lambda a: a.repeat_interleave(mt.tensor([2, 0, 1, 3]), dim=1), lambda: (_x(3, 4),)),
    "take": (lambda a: a.take(_idx([0, 5], [11, 5])), lambda: (_x(3, 4),)),
    "inverse": (lambda a: (a + 3 * mt.eye(3, dtype=mt.float64)).inverse(), lambda: (_x(2, 3, 3),)),
    "det": (lambda a: (a + 3 * mt.eye(3, dtype=mt.float64)).det(), lambda: (_x(2, 3, 3),)),
    "slogdet": (lambda a: mt.slogdet(a - 3 * mt.eye(3, dtype=mt.float64)).logabsdet, lambda: (_x(3, 3),)),
    "logdet": (lambda a: (a @ a.mT + mt.eye(3, dtype=mt.float64)).logdet(), lambda: (_x(3, 3),)),
    "unsqueeze_": (lambda x: (x * 1).unsqueeze_(1), lambda: (_x(3, 4),)),
    "squeeze_": (lambda x: (x * 1).unsqueeze(1).squeeze_(1), lambda: (_x(3, 4),)),
    "transpose_": (lambda x: (x * 1).transpose_(0, 1), lambda: (_x(3, 4),)),
    "swapaxes_": (lambda x: (x * 1).swapaxes_(0, 1), lambda: (_x(3, 4),)),
    "t_": (lambda x: (x * 1).t_(), lambda: (_x(3, 4),)),
    "topk": (lambda x: x.topk(2, 1).values, lambda: (_x(3, 4),)),
    "tril": (lambda x: x.tril(1), lambda: (_x(3, 4),)),
    "triu": (lambda x: x.triu(-1), lambda: (_x(3, 4),)),
    "roll": (lambda x: x.roll((1, -2), (0, 1)), lambda: (_x(3, 4),)),
    "norm": (lambda x: (x.norm(), x.norm(p=3, dim=1), x.norm(p=float("inf"), dim=0)), lambda: (_x(3, 4),)),
    "einsum": (lambda a, b, c: mt.einsum("ij,jk,k->i", a, b, c), lambda: (_x(2, 3), _x(3, 4, seed=1), _x(4, seed=2))),
    # nn.functional
    "F.linear": (None, lambda: (_x(2, 3), _x(4, 3, seed=1), _x(4, seed=2))),
    "F.avg_pool2d": (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), lambda: (_x(1, 2, 5, 5),)),
    "F.adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), lambda: (_x(1, 2, 5, 6),)),
    "F.interpolate": (lambda x: F.interpolate(x, scale_factor=2), lambda: (_x(1, 2, 3, 3),)),
    "F.pad": (lambda x: F.pad(x, (1, 2, 0, 1)), lambda: (_x(1, 2, 3, 3),)),
    "F.batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                     lambda: (_x(4, 3, 2, 2), _x(3, seed=1), _x(3, seed=2))),
    "F.layer_norm": (lambda x, w, b: F.layer_norm(x, (4,), w, b), lambda: (_x(3, 4), _x(4, seed=1), _x(4, seed=2))),
    "F.group_norm": (lambda x, w, b: F.group_norm(x, 2, w, b), lambda: (_x(2, 4, 3), _x(4, seed=1), _x(4, seed=2))),
    "F.dropout": (lambda x: (mt.manual_seed(0), F.dropout(x, 0.5))[1], lambda: (_x(3, 4),)),
    "F.dropout2d": (lambda x: (mt.manual_seed(0), F.dropout2d(x, 0.5))[1], lambda: (_x(2, 3, 2, 2),)),
    "F.hardtanh": (lambda x: F.hardtanh(x, 0.0, 1.0), lambda: (_x(3, 4, low=0.1, high=0.9),)),
    "F.threshold": (lambda x: F.threshold(x, 1.0, 0.5), lambda: (_x(3, 4, low=1.1, high=2.0),)),
    "F.softmax": (lambda x: F.softmax(x, 1), lambda: (_x(3, 4),)),
    "F.softmin": (lambda x: F.softmin(x, 1), lambda: (_x(3, 4),)),
    "F.log_softmax": (lambda x: F.log_softmax(x, 1), lambda: (_x(3, 4),)),
    "F.embedding": (lambda w: F.embedding(_idx([0, 2], [2, 1]), w), lambda: (_x(3, 4),)),
    "F.nll_loss": (lambda x: F.nll_loss(x, _idx(0, 3, 1)), lambda: (_x(3, 4),)),
    "F.cross_entropy": (lambda x: F.cross_entropy(x, _idx(0, 3, 1), label_smoothing=0.1), lambda: (_x(3, 4),)),
    "F.mse_loss": (None, lambda: (_x(3, 4), _x(3, 4, seed=1))),
    "F.l1_loss": (None, lambda: (_x(3, 4), _x(3, 4, low=2.0, high=3.0, seed=1))),
    "F.smooth_l1_loss": (None, lambda: (_x(3, 4), _x(3, 4, low=3.0, high=4.0, seed=1))),
    "F.huber_loss": (None, lambda: (_x(3, 4), _x(3, 4, low=3.0, high=4.0, seed=1))),
    "F.binary_cross_entropy": (lambda x, y: F.binary_cross_entropy(x * 0.5, y * 0.5),
                               lambda: (_x(3, 4), _x(3, 4, seed=1))),
    "F.binary_cross_entropy_with_logits": (None, lambda: (_x(3, 4), _x(3, 4, low=0.1, high=0.9, seed=1))),
    # random fills: their result does not depend on the input, so the gradient must be 0
    **{name: (lambda x, name=name: (mt.manual_seed(0), getattr(x.clone(), name)())[1] * x, lambda: (_x(3, 4),))
       for name in ("bernoulli_", "exponential_", "normal_", "random_", "uniform_")},
}
BINARY_SHAPES = {"matmul": ((3, 4), (4, 2)), "inner": ((3, 4), (2, 4)), "outer": ((3,), (4,)), "ger": ((3,), (4,))}

# Boundary points for the edge-value sweep (tests/ops/test_edge_values.py), beside the sample they are written into:
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
}

# More inputs live beside the ops they belong to: every tests/registry_samples_*.py defines SAMPLES (and may define
# EDGES) in the same form.
for _path in sorted(pathlib.Path(__file__).resolve().parent.glob("registry_samples_*.py")):
    _spec = importlib.util.spec_from_file_location(_path.stem, _path)
    _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
    SAMPLES.update(_module.SAMPLES)
    EDGES.update(getattr(_module, "EDGES", {}))


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


def _case(name):
    """(function, inputs) for the registered op ``name``; in-place ops run on a clone of their first input."""
    fn = OPS[name]
    key = _sampled_name(name)
    if key in SAMPLES:
        f, inputs = SAMPLES[key]
        return (f or fn), inputs()
    if name.endswith("_"):
        base = name[:-1]
        f, inputs = _case(base) if base in OPS else (None, (_x(3, 4),))
        if f is not None and f is not OPS[base]:
            return None
        return (lambda x, *rest: fn(x.clone(), *rest)), inputs
    if key in BINARY:
        sa, sb = BINARY_SHAPES.get(key, ((3, 4), (3, 4)))
        if key == "where":
            return (lambda x, y: mt.where(x > 1.0, x, y)), (_x(*sa), _x(*sb, seed=1))
        return fn, (_x(*sa), _x(*sb, low=2.0, high=3.0, seed=1))  # disjoint ranges: no ties, no x % y kinks
    return fn, (_x(3, 4),)


DIFFERENTIABLE = sorted(set(OPS) - NOT_DIFFERENTIABLE - NO_DERIVATIVE)
