"""Registry sweep inputs for the reductions, scans, selections and scatters (minitorch/_ops/reduction/scans.py,
statistics.py, sorting.py, scatter.py, counting.py): their arguments, and inputs with zeros or ties where
the gradient has a special case."""
import minitorch as mt
from registry_inputs import idx, x


def _one(shape=(3, 4)):
    return lambda: (x(*shape),)


def _with_source(*shape):
    return lambda: (x(3, 4), x(*shape, seed=1))


def _constant_times(make):
    """A non-differentiable op whose arguments the sweep cannot guess: its (constant) result times the input,
    as the random fills are swept in tests/ops/test_registry.py."""
    return lambda t: make().to(mt.float64).sum() * t


def _zeros_and_ties():
    return (mt.tensor([[0.5, 0.0, 1.5, 2.0], [0.0, 0.7, 0.0, 2.0], [1.0, 2.0, 3.0, 1.25]], dtype=mt.float64,
                      requires_grad=True),)


def _scatter_reductions(a, s):
    lines = idx([0, 1, 0, 2], [2, 2, 1, 0], [1, 0, 1, 1])
    return tuple(a.scatter_reduce(1, lines, s, r) for r in ("sum", "prod", "mean", "amax"))

SAMPLES = {
    "cumprod": (lambda t: t.cumprod(1), _one()),
    "cumprod_": (lambda t: (t * 1).cumprod_(0), _one()),
    "cumsum_": (lambda t: (t * 1).cumsum_(1), _one()),
    "cummax": (lambda t: t.cummax(1).values, _one()),
    "cummin": (lambda t: t.cummin(0).values, _one()),
    "logcumsumexp": (lambda t: t.logcumsumexp(1), _one()),
    "diff": (lambda t: t.diff(2, dim=0, append=t[:1]), _one()),
    "trapezoid": (lambda y, s: mt.trapezoid(y, s, dim=0), lambda: (x(3, 4), x(3, seed=1, low=0.0, high=3.0))),
    "cumulative_trapezoid": (lambda y: mt.cumulative_trapezoid(y, dx=0.5), _one()),
    "gradient": (lambda t: mt.gradient(t, spacing=[2.0, 0.5], edge_order=2), _one()),
    "kthvalue": (lambda t: t.kthvalue(2, 1).values, _one()),
    "mode": (lambda t: t.mode(0).values, _one()),
    "median": (lambda t: (t.median(), t.median(1).values), _one()),
    "nanmedian": (lambda t: (t.nanmedian(), t.nanmedian(0).values), _one()),
    "quantile": (lambda t: t.quantile(mt.tensor([0.2, 0.7], dtype=mt.float64), dim=1), _one()),
    "nanquantile": (lambda t: t.nanquantile(0.4, interpolation="midpoint"), _one()),
    "aminmax": (lambda t: tuple(t.aminmax(dim=1)), _one()),
    "dist": (lambda a, b: mt.dist(a, b, 3), lambda: (x(3, 4), x(4, low=2.0, high=3.0, seed=1))),
    "renorm": (lambda t: t.renorm(2, 0, 1.5), _one()),
    "renorm_": (lambda t: (t * 1).renorm_(1, 1, 2.0), _one()),
    "cov": (lambda t, w: mt.cov(t, aweights=w), lambda: (x(3, 4), x(4, seed=1))),
    "nansum": (lambda t: t.nansum(1), _one()),
    "nanmean": (lambda t: t.nanmean(0), _one()),
    "index_add": (lambda a, s: a.index_add(1, idx(3, 0, 3), s, alpha=2), _with_source(3, 3)),
    "index_copy": (lambda a, s: a.index_copy(0, idx(2, 0), s), _with_source(2, 4)),
    "index_fill": (lambda a: a.index_fill(1, idx(0, 2), -1.0), _one()),
    "index_reduce": (lambda a, s: (a.index_reduce(0, idx(2, 0, 2), s, "prod"),
                                   a.index_reduce(1, idx(1, 1), s[:, :2] * 1, "mean", include_self=False)),
                     _with_source(3, 4)),
    "scatter_reduce": (_scatter_reductions, _with_source(3, 4)),
    "masked_scatter": (lambda a, s: a.masked_scatter(mt.tensor([True, False, False, True]), s), _with_source(7)),
    "put": (lambda a, s: a.put(idx(1, -1, 5), s, accumulate=True), _with_source(3)),
    "put_": (lambda a, s: (a * 1).put_(idx(1, -1, 5), s), _with_source(3)),
    "index_put_": (lambda a, v: (a * 1).index_put_((idx(0, 2),), v), _with_source(4)),
    "select_scatter": (lambda a, s: mt.select_scatter(a, s, 1, -1), _with_source(3)),
    "slice_scatter": (lambda a, s: mt.slice_scatter(a, s, 1, 1, None, 2), _with_source(3, 2)),
    "diagonal_scatter": (lambda a, s: mt.diagonal_scatter(a, s, 1), _with_source(3)),
    "as_strided_scatter": (lambda a, s: mt.as_strided_scatter(a, s, (2, 2), (1, 3), 1), _with_source(2, 2)),
    "as_strided": (lambda t: t.as_strided((3, 3), (1, 2), 1), _one()),
    "unfold": (lambda t: t.unfold(1, 2, 1), _one()),
    "fill_diagonal_": (lambda t: (t * 1).fill_diagonal_(2.0), _one()),
    "segment_reduce": (lambda t: (mt.segment_reduce(t, "sum", lengths=idx(1, 0, 2)),
                                  mt.segment_reduce(t, "prod", lengths=idx(1, 0, 2)),
                                  mt.segment_reduce(t, "max", lengths=idx(1, 2))), _one()),
    "histogram": (_constant_times(lambda: mt.histogram(mt.tensor([0.1, 0.5, 0.6]), 2).hist), _one()),
    "histogramdd": (_constant_times(lambda: mt.histogramdd(mt.tensor([[0.1, 0.5], [0.6, 0.2]]), 2).hist), _one()),
    "nonzero_static": (_constant_times(lambda: mt.nonzero_static(mt.tensor([1, 0, 2]), size=3)), _one()),
    "apply_": (_constant_times(lambda: mt.ones(2).apply_(lambda v: v * 3)), _one()),
    "map_": (_constant_times(lambda: mt.ones(2).map_(mt.ones(2), lambda a, b: a + b)), _one()),
    "map2_": (_constant_times(lambda: mt.ones(2).map2_(mt.ones(2), mt.ones(1), lambda a, b, c: a + b + c)), _one()),
}
# prod-type gradients with zeros (exact formulas) and max-type ties (shared gradient)
SAMPLES["cumprod"] = (lambda t: (t.cumprod(1), t.cumprod(0)), _zeros_and_ties)
SAMPLES["scatter_reduce"] = (SAMPLES["scatter_reduce"][0], lambda: (_zeros_and_ties()[0], x(3, 4, seed=1)))

