"""minitorch.distributions: values, shapes, gradients and printing against torch.distributions (where PyTorch is
installed); sample statistics, gradcheck and the special functions on their own."""
import math

import numpy as np
import pytest

import minitorch
import minitorch.distributions as D
from minitorch.autograd import gradcheck
from minitorch.distributions._gamma_sampler import standard_gamma_grad
from minitorch._ops.linalg.decompositions import cholesky, solve_triangular
from minitorch._ops.elementwise.special import digamma, lgamma, polygamma
from torch_answers import assert_matches, torch_answer

f64 = np.float64
COV = np.array([[2.0, 0.5, 0.1], [0.5, 1.0, -0.2], [0.1, -0.2, 1.5]])
TRIL = np.linalg.cholesky(COV)
MASK = np.tril(np.ones((3, 3)))


def _t(lib, x, requires_grad=False):
    return lib.tensor(np.asarray(x, f64), requires_grad=requires_grad)


def _mvn_tril(L, lib, loc, A):
    return L.MultivariateNormal(loc, scale_tril=A * lib.tensor(MASK, dtype=A.dtype))


def _mvn_cov(L, lib, loc, A):
    return L.MultivariateNormal(loc, covariance_matrix=(A + A.mT) / 2)


def _mvn_prec(L, lib, loc, A):
    return L.MultivariateNormal(loc, precision_matrix=(A + A.mT) / 2)


# name: (make(distributions module, tensor library, *params), params, a value in the support, batch, event)
CASES = {
    "Normal": (lambda L, lib, m, s: L.Normal(m, s), ([0.0, 1.0, -2.0], [1.0, 0.5, 2.0]),
               [[0.3, 1.2, -1.0], [2.0, 0.0, 0.5]], (3,), ()),
    "Bernoulli_probs": (lambda L, lib, p: L.Bernoulli(probs=p), ([0.2, 0.7, 0.5],), [[1.0, 0.0, 1.0]], (3,), ()),
    "Bernoulli_logits": (lambda L, lib, z: L.Bernoulli(logits=z), ([-1.0, 0.3, 2.0],), [[1.0, 0.0, 0.0]], (3,), ()),
    "Categorical_probs": (lambda L, lib, p: L.Categorical(probs=p), ([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]],),
                          [[0, 2], [1, 1]], (2,), ()),
    "Categorical_logits": (lambda L, lib, z: L.Categorical(logits=z), ([[0.2, -1.5, 0.3], [1.0, 0.1, 0.8]],),
                           [[0, 2], [1, 1]], (2,), ()),
    "Uniform": (lambda L, lib, a, b: L.Uniform(a, b), ([0.0, -1.0], [1.0, 3.0]), [[0.5, 2.0], [0.1, -0.5]], (2,), ()),
    "OneHotCategorical": (lambda L, lib, p: L.OneHotCategorical(probs=p), ([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]],),
                          [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], (2,), (3,)),
    "Independent": (lambda L, lib, m, s: L.Independent(L.Normal(m, s), 1), ([[0.0, 1.0], [2.0, 3.0]],
                    [[1.0, 0.5], [2.0, 1.5]]), [[0.3, 1.2], [2.0, 0.0]], (2,), (2,)),
    "MVN_scale_tril": (_mvn_tril, ([[0.0, 1.0, 2.0], [1.0, -1.0, 0.5]], TRIL),
                       [[0.3, 1.2, 1.0], [1.0, 0.0, 0.0]], (2,), (3,)),
    "MVN_covariance": (_mvn_cov, ([0.0, 1.0, 2.0], COV), [[0.3, 1.2, 1.0], [1.0, 0.0, 0.0]], (), (3,)),
    "MVN_precision": (_mvn_prec, ([0.0, 1.0, 2.0], COV), [[0.3, 1.2, 1.0]], (), (3,)),
    "Gamma": (lambda L, lib, c, r: L.Gamma(c, r), ([0.5, 2.0, 7.0], [1.0, 0.5, 3.0]), [[0.3, 4.0, 2.0]], (3,), ()),
    "Beta": (lambda L, lib, a, b: L.Beta(a, b), ([0.5, 2.0, 7.0], [1.0, 0.5, 3.0]), [[0.3, 0.9, 0.6]], (3,), ()),
    "Dirichlet": (lambda L, lib, c: L.Dirichlet(c), ([[0.5, 2.0, 7.0], [1.0, 1.0, 3.0]],),
                  [[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], (2,), (3,)),
    "Exponential": (lambda L, lib, r: L.Exponential(r), ([0.5, 2.0],), [[0.3, 1.5]], (2,), ()),
    "Laplace": (lambda L, lib, m, s: L.Laplace(m, s), ([0.0, 1.0], [1.0, 0.5]), [[0.3, 1.5], [-1.0, 0.2]], (2,), ()),
    "Cauchy": (lambda L, lib, m, s: L.Cauchy(m, s), ([0.0, 1.0], [1.0, 0.5]), [[0.3, 1.5]], (2,), ()),
    "HalfCauchy": (lambda L, lib, s: L.HalfCauchy(s), ([1.0, 0.5],), [[0.3, 1.5]], (2,), ()),
    "HalfNormal": (lambda L, lib, s: L.HalfNormal(s), ([1.0, 0.5],), [[0.3, 1.5]], (2,), ()),
    "LogNormal": (lambda L, lib, m, s: L.LogNormal(m, s), ([0.0, 0.5], [0.5, 0.25]), [[0.3, 1.5]], (2,), ()),
    "Gumbel": (lambda L, lib, m, s: L.Gumbel(m, s), ([0.0, 1.0], [1.0, 2.0]), [[0.3, 1.5]], (2,), ()),
    "Weibull": (lambda L, lib, s, c: L.Weibull(s, c), ([1.0, 2.0], [1.5, 3.0]), [[0.3, 1.5]], (2,), ()),
    "Pareto": (lambda L, lib, s, a: L.Pareto(s, a), ([1.0, 0.5], [5.0, 6.0]), [[1.3, 0.7]], (2,), ()),
    "Chi2": (lambda L, lib, df: L.Chi2(df), ([3.0, 7.5],), [[0.3, 4.0]], (2,), ()),
    "StudentT": (lambda L, lib, df, m, s: L.StudentT(df, m, s), ([5.0, 8.0], [0.0, 1.0], [1.0, 2.0]),
                 [[0.3, -1.0]], (2,), ()),
    "FisherSnedecor": (lambda L, lib, a, b: L.FisherSnedecor(a, b), ([5.0, 8.0], [9.0, 12.0]), [[0.3, 1.2]], (2,), ()),
    "InverseGamma": (lambda L, lib, c, r: L.InverseGamma(c, r), ([3.0, 5.0], [1.0, 2.0]), [[0.3, 1.2]], (2,), ()),
    "Kumaraswamy": (lambda L, lib, a, b: L.Kumaraswamy(a, b), ([2.0, 3.0], [2.5, 1.5]), [[0.3, 0.8]], (2,), ()),
    "Geometric": (lambda L, lib, p: L.Geometric(probs=p), ([0.3, 0.6],), [[0.0, 3.0]], (2,), ()),
    "Poisson": (lambda L, lib, r: L.Poisson(r), ([0.5, 4.0],), [[0.0, 3.0]], (2,), ()),
    "Binomial": (lambda L, lib, p: L.Binomial(5, probs=p), ([0.3, 0.6],), [[0.0, 3.0]], (2,), ()),
    "NegativeBinomial": (lambda L, lib, n, z: L.NegativeBinomial(n, logits=z), ([3.0, 5.0], [-0.5, 0.3]),
                         [[0.0, 3.0]], (2,), ()),
    "Multinomial": (lambda L, lib, p: L.Multinomial(4, probs=p), ([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]],),
                    [[1.0, 2.0, 1.0], [0.0, 0.0, 4.0]], (2,), (3,)),
    "ContinuousBernoulli": (lambda L, lib, p: L.ContinuousBernoulli(probs=p), ([0.2, 0.5, 0.8],),
                            [[0.3, 0.6, 0.9]], (3,), ()),
    "LowRankMVN": (lambda L, lib, m, w, d: L.LowRankMultivariateNormal(m, w, d),
                   ([[0.0, 1.0, 2.0], [1.0, -1.0, 0.5]], TRIL[:, :2], [1.0, 0.5, 2.0]),
                   [[0.3, 1.2, 1.0], [1.0, 0.0, 0.0]], (2,), (3,)),
    "LogisticNormal": (lambda L, lib, m, s: L.LogisticNormal(m, s), ([0.0, 1.0], [1.0, 0.5]), [[0.3, 0.5, 0.2]],
                       (), (3,)),
}
DISCRETE = {"Bernoulli_probs", "Bernoulli_logits", "Categorical_probs", "Categorical_logits", "OneHotCategorical"}
NO_MOMENTS = {"Categorical_probs", "Categorical_logits"}  # mean and variance are NaN, as in torch
# torch 2.13's Kumaraswamy.mode is NaN for every a, b > 1 (its formula takes log1p(-b)); minitorch gives the
# closed form ((a - 1) / (a b - 1)) ** (1 / a), tested on its own below
TORCH_MODE_DIFFERS = {"Kumaraswamy"}


def _make(name, lib, requires_grad=False):
    make, params, value, _, _ = CASES[name]
    ps = [_t(lib, p, requires_grad) for p in params]
    L = minitorch.distributions if lib is minitorch else lib.distributions
    return make(L, lib, *ps), ps


def _value(name, lib):
    v = np.asarray(CASES[name][2], f64)
    return lib.tensor(v.astype(np.int64)) if name.startswith("Categorical") else lib.tensor(v)


def _np(x):
    return x.detach().numpy()


def _unless_not_implemented(value):
    """``value()``, or None where it raises NotImplementedError."""
    try:
        return value()
    except NotImplementedError:
        return None


def _values_and_gradients(lib, name):
    """Shapes, log_prob, entropy and moments (None where not implemented), and the parameters' gradients of the
    summed log_prob plus entropy."""
    d, params = _make(name, lib, True)
    log_prob = d.log_prob(_value(name, lib))
    entropy = _unless_not_implemented(d.entropy)
    props = () if name in NO_MOMENTS else ("mean", "variance", "stddev") + (
        () if name in TORCH_MODE_DIFFERS else ("mode",))
    moments = {prop: _unless_not_implemented(lambda: getattr(d, prop)) for prop in props}
    (log_prob if entropy is None else log_prob + entropy).sum().backward()
    return {"shapes": (tuple(d.batch_shape), tuple(d.event_shape)), "log_prob": log_prob, "entropy": entropy,
            "moments": moments}, [p.grad for p in params]


@pytest.mark.parametrize("name", CASES)
def test_values_and_log_prob_gradients_match_torch(name):
    values, grads = _values_and_gradients(minitorch, name)
    their_values, their_grads = torch_answer(_values_and_gradients, name)
    assert values["shapes"] == (CASES[name][3], CASES[name][4])
    assert_matches(values, their_values, rtol=1e-9, atol=1e-12)
    assert_matches(grads, their_grads, rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("name", CASES)
def test_repr_matches_torch(name):
    expected = torch_answer(lambda torch, name: repr(_make(name, torch)[0]), name)
    assert repr(_make(name, minitorch)[0]) == expected.replace("torch.Size", "minitorch.Size")


def test_repr_of_scalar_parameters():
    assert repr(D.Normal(0.0, 1.0)) == "Normal(loc: 0.0, scale: 1.0)"
    assert repr(D.Normal(minitorch.zeros(2), 1.0)) == \
        "Normal(loc: minitorch.Size([2]), scale: minitorch.Size([2]))"


@pytest.mark.parametrize("sample_shape", [(), (5,), (2, 3)])
@pytest.mark.parametrize("name", CASES)
def test_sample_and_rsample_shapes(name, sample_shape):
    d, _ = _make(name, minitorch)
    expected = tuple(sample_shape) + CASES[name][3] + CASES[name][4]
    s = d.sample(sample_shape)
    assert tuple(s.shape) == expected and not s.requires_grad
    assert bool(d.support.check(s).all())
    if name.startswith("Categorical"):
        assert s.dtype == minitorch.int64
    if d.has_rsample:
        assert tuple(d.rsample(minitorch.Size(sample_shape)).shape) == expected
    else:
        with pytest.raises(NotImplementedError):
            d.rsample(sample_shape)
    assert tuple(d.log_prob(s).shape) == tuple(sample_shape) + CASES[name][3]


def _check_moments(x, mean, var, n_se=5.0):
    """Sample mean and variance within a few standard errors of the exact ones."""
    x = np.asarray(x, f64)
    n = x.shape[0]
    m = x.mean(0)
    assert np.all(np.abs(m - mean) <= n_se * np.sqrt(var / n) + 1e-12), (m, mean)
    sq = (x - m) ** 2
    se_var = sq.std(0) / np.sqrt(n)
    assert np.all(np.abs(sq.mean(0) - var) <= n_se * se_var + 1e-12), (sq.mean(0), var)


NO_ENTROPY = {"FisherSnedecor", "Poisson", "NegativeBinomial", "LogisticNormal"}  # torch has none either
HEAVY_TAILED = {"Cauchy", "HalfCauchy"}  # no mean or variance: their samples are checked against the CDF only


@pytest.mark.parametrize("name", sorted(set(CASES) - NO_MOMENTS - HEAVY_TAILED - {"LogisticNormal"}))
def test_sample_statistics(name):
    minitorch.manual_seed(0)
    d, _ = _make(name, minitorch)
    sampler = d.rsample if d.has_rsample else d.sample
    x = sampler((20000,)).numpy()
    _check_moments(x, _np(d.mean), _np(d.variance))


def test_categorical_sample_frequencies():
    minitorch.manual_seed(0)
    d, _ = _make("Categorical_probs", minitorch)
    x = d.sample((20000,)).numpy()
    for b, probs in enumerate(_np(d.probs)):
        onehot = (x[:, b, None] == np.arange(3)).astype(f64)
        _check_moments(onehot, probs, probs * (1 - probs))


def test_mvn_sample_covariance():
    minitorch.manual_seed(0)
    d, _ = _make("MVN_covariance", minitorch)
    x = d.sample((20000,)).numpy()
    np.testing.assert_allclose(np.cov(x.T), COV, atol=0.08)


@pytest.mark.parametrize("name", CASES)
def test_gradcheck_log_prob(name):
    _, params, _, _, _ = CASES[name]
    value = _value(name, minitorch)
    make = CASES[name][0]
    ps = [_t(minitorch, p, True) for p in params]

    def f(*ps):
        d = make(D, minitorch, *ps)
        return (d.log_prob(value),) + ((d.entropy(),) if name not in NO_ENTROPY else ())

    assert gradcheck(f, ps)


def _rsample_loss_grads(lib, name, n=20000):
    d, ps = _make(name, lib, True)
    x = d.rsample((n,))
    (x ** 2).sum(list(range(1, x.dim()))).mean().backward()
    return [p.grad.numpy() for p in ps]


@pytest.mark.parametrize("name", ["Normal", "Uniform", "MVN_scale_tril", "Gamma", "Beta", "Dirichlet"])
def test_rsample_gradients_match_torch(name):
    """Gradients of a Monte-Carlo loss E[|x|^2] through rsample: minitorch's and torch's estimates agree."""
    minitorch.manual_seed(0)
    for a, b in zip(_rsample_loss_grads(minitorch, name), torch_answer(_seeded_rsample_loss_grads, name)):
        np.testing.assert_allclose(a, b, rtol=0.05, atol=0.15)  # a few standard errors


def _seeded_rsample_loss_grads(lib, name):
    lib.manual_seed(0)
    return _rsample_loss_grads(lib, name)


def test_rsample_gradient_is_exact_for_normal():
    """x = loc + eps * scale: d sum(x) / d scale = sum(eps)."""
    loc, scale = _t(minitorch, [1.0, -1.0], True), _t(minitorch, [2.0, 0.5], True)
    x = D.Normal(loc, scale).rsample((7,))
    x.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [7.0, 7.0])
    np.testing.assert_allclose(scale.grad.numpy(), ((x.detach() - loc.detach()) / scale.detach()).sum(0).numpy())


KL_PAIRS = {
    "Normal": (lambda L, t: (L.Normal(t([0.0, 1.0]), t([1.0, 2.0])), L.Normal(t([1.0, 0.0]), t([3.0, 0.5])))),
    "Bernoulli": (lambda L, t: (L.Bernoulli(t([0.0, 0.3, 1.0, 0.4])), L.Bernoulli(t([0.5, 0.6, 1.0, 0.0])))),
    "Categorical": (lambda L, t: (L.Categorical(t([[0.0, 0.3, 0.7], [0.2, 0.2, 0.6]])),
                                  L.Categorical(t([[0.5, 0.5, 0.0], [0.1, 0.3, 0.6]])))),
    "OneHotCategorical": (lambda L, t: (L.OneHotCategorical(t([0.1, 0.3, 0.6])),
                                        L.OneHotCategorical(t([0.5, 0.2, 0.3])))),
    "Uniform": (lambda L, t: (L.Uniform(t([0.0, 1.0]), t([1.0, 2.0])), L.Uniform(t([-1.0, 1.5]), t([1.5, 2.0])))),
    "MVN": (lambda L, t: (L.MultivariateNormal(t([[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]), covariance_matrix=t(COV)),
                          L.MultivariateNormal(t([1.0, 0.0, 2.0]), scale_tril=t(np.diag([1.0, 2.0, 0.5]) + 0.1 *
                                                                                np.tril(np.ones((3, 3)), -1))))),
    "Independent": (lambda L, t: (L.Independent(L.Normal(t([[0.0, 1.0]]), t([[1.0, 2.0]])), 1),
                                  L.Independent(L.Normal(t([[1.0, 0.0]]), t([[3.0, 0.5]])), 1))),
    "Gamma": (lambda L, t: (L.Gamma(t([1.0, 2.0]), t([3.0, 0.5])), L.Gamma(t([2.0, 0.2]), t([1.0, 1.0])))),
    "Beta": (lambda L, t: (L.Beta(t([1.0, 2.0]), t([3.0, 0.5])), L.Beta(t([2.0, 0.2]), t([1.0, 1.0])))),
    "Dirichlet": (lambda L, t: (L.Dirichlet(t([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]])), L.Dirichlet(t([2.0, 0.2, 1.0])))),
}


def _kl_and_gradients(lib, name):
    """KL(p || q) of the pair ``name`` and the gradients of its finite part's sum for every parameter (zeros for
    one that gets no gradient, NaN read as 0)."""
    leaves = []

    def t(x):
        leaf = _t(lib, x, True)
        leaves.append(leaf)
        return leaf

    p, q = KL_PAIRS[name](lib.distributions, t)
    kl = lib.distributions.kl_divergence(p, q)
    lib.where(kl.isfinite(), kl, 0.0).sum().backward()
    return kl, [np.zeros(tuple(a.shape)) if a.grad is None else np.nan_to_num(a.grad.numpy()) for a in leaves]


@pytest.mark.parametrize("name", KL_PAIRS)
def test_kl_divergence_matches_torch(name):
    km, grads = _kl_and_gradients(minitorch, name)
    kt, their_grads = torch_answer(_kl_and_gradients, name)
    np.testing.assert_allclose(_np(km), _np(kt), rtol=1e-9, atol=1e-12)
    for ga, gb in zip(grads, their_grads, strict=True):
        np.testing.assert_allclose(ga, gb, rtol=1e-7, atol=1e-10)


def test_kl_dispatch_and_register_kl():
    with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type Normal and q "
                                                  "type Categorical"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(minitorch.ones(2)))

    class MyNormal(D.Normal):
        pass

    # subclasses use their base's KL until a more specific one is registered
    assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0))) == pytest.approx(0.5)

    @D.register_kl(MyNormal, D.Normal)
    def _kl(p, q):
        return minitorch.tensor(42.0)

    assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0))) == 42.0
    assert float(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 1.0))) == pytest.approx(0.5)


def test_parameter_and_support_validation(lib):
    L = lib.distributions
    size = f"{lib.__name__}.Size"
    with pytest.raises(ValueError, match=r"Expected parameter scale \(Tensor of shape \(2,\)\) of distribution "
                                         r"Normal\(loc: " + size + r"\(\[2\]\), scale: " + size + r"\(\[2\]\)\) to "
                                         r"satisfy the constraint GreaterThan\(lower_bound=0.0\), but found invalid "
                                         r"values:\ntensor\(\[ 1., -1.\]\)"):
        L.Normal(lib.zeros(2), lib.tensor([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"within the support \(Boolean\(\)\) of the distribution Bernoulli"):
        L.Bernoulli(lib.tensor([0.5])).log_prob(lib.tensor([0.5]))
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified, but not both."):
        L.Categorical()
    with pytest.raises(ValueError, match="Either `probs` or `logits` must be specified, but not both."):
        L.Bernoulli(probs=lib.tensor(0.5), logits=lib.tensor(0.0))
    with pytest.raises(ValueError, match=r"Expected parameter low .* to satisfy the constraint "
                                         r"LessThan\(upper_bound=tensor\(\[0\.\]\)\)"):
        L.Uniform(lib.tensor([0.0]), lib.tensor([0.0]))
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix or precision_matrix or scale_tril"):
        L.MultivariateNormal(lib.zeros(2))
    with pytest.raises(ValueError, match="The right-most size of value must match event_shape"):
        L.MultivariateNormal(lib.zeros(2), lib.eye(2)).log_prob(lib.zeros(3))
    with pytest.raises(ValueError, match="Value is not broadcastable with batch_shape\\+event_shape"):
        L.Normal(lib.zeros(2), lib.ones(2)).log_prob(lib.zeros(3))
    with pytest.raises(ValueError, match="constraint IndependentConstraint\\(GreaterThan\\(lower_bound=0.0\\), 1\\)"):
        L.Dirichlet(lib.tensor([1.0, 0.0]))
    with pytest.raises(ValueError, match="Expected reinterpreted_batch_ndims <= len\\(base_distribution.batch_shape"):
        L.Independent(L.Normal(lib.zeros(2), lib.ones(2)), 2)
    # validate_args=False skips the checks
    L.Normal(lib.zeros(2), lib.tensor([1.0, -1.0]), validate_args=False)


def test_manual_seed_makes_samples_reproducible():
    d = D.Normal(minitorch.zeros(3), minitorch.ones(3))
    c = D.Categorical(minitorch.tensor([0.2, 0.3, 0.5]))
    g = D.Gamma(minitorch.tensor([0.5, 3.0]), 1.0)
    minitorch.manual_seed(7)
    first = [d.sample((4,)), c.sample((4,)), g.sample((4,))]
    minitorch.manual_seed(7)
    second = [d.sample((4,)), c.sample((4,)), g.sample((4,))]
    for a, b in zip(first, second):
        assert minitorch.equal(a, b)


@pytest.mark.parametrize("name", ["Normal", "Bernoulli_probs", "Categorical_logits", "Uniform", "OneHotCategorical",
                                  "Independent", "MVN_covariance", "Gamma", "Beta", "Dirichlet"])
def test_expand(name):
    d, _ = _make(name, minitorch)
    batch = (4,) + CASES[name][3]
    e = d.expand(batch)
    assert tuple(e.batch_shape) == batch and e.event_shape == d.event_shape
    v = d.sample()
    np.testing.assert_allclose(_np(e.log_prob(v)), np.broadcast_to(_np(d.log_prob(v)), batch), rtol=1e-12)
    assert tuple(e.sample((2,)).shape) == (2,) + batch + CASES[name][4]


@pytest.mark.parametrize("name", ["Bernoulli_probs", "Categorical_probs", "OneHotCategorical"])
def test_enumerate_support_matches_torch(name):
    for expand in (True, False):
        a = _make(name, minitorch)[0].enumerate_support(expand)
        b = torch_answer(lambda torch, name, expand: _make(name, torch)[0].enumerate_support(expand), name, expand)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]


def _special_functions(torch, x):
    pos = x[x > 0]
    return (torch.lgamma(torch.tensor(x)), torch.digamma(torch.tensor(x)),
            [torch.polygamma(n, torch.tensor(pos)) for n in (1, 2, 3)])


def test_special_functions_match_torch():
    x = np.array([1e-3, 0.1, 0.5, 1.0, 1.5, 2.7, 5.0, 9.9, 10.0, 33.3, 150.0, 1e4, -0.3, -2.5])
    their_lgamma, their_digamma, their_polygamma = torch_answer(_special_functions, x)
    np.testing.assert_allclose(lgamma(minitorch.tensor(x)).numpy(), their_lgamma.numpy(), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(digamma(minitorch.tensor(x)).numpy(), their_digamma.numpy(), rtol=1e-12, atol=1e-12)
    pos = x[x > 0]
    for n, theirs in zip((1, 2, 3), their_polygamma):  # torch's trigamma is accurate to about 1e-9 only
        np.testing.assert_allclose(polygamma(n, minitorch.tensor(pos)).numpy(), theirs.numpy(), rtol=1e-8)
    assert lgamma(minitorch.tensor([1.5], dtype=minitorch.float32)).dtype == minitorch.float32


def test_special_functions_exact_values_and_gradcheck():
    np.testing.assert_allclose(lgamma(_t(minitorch, [0.5, 1.0, 2.0, 10.0])).numpy(),
                               [0.5 * math.log(math.pi), 0.0, 0.0, math.log(362880.0)], atol=1e-14)
    np.testing.assert_allclose(digamma(_t(minitorch, [1.0])).numpy(), [-0.5772156649015329], rtol=1e-14)
    np.testing.assert_allclose(polygamma(1, _t(minitorch, [1.0])).numpy(), [math.pi ** 2 / 6], rtol=1e-14)
    x = _t(minitorch, [0.3, 1.7, 4.0, 12.5], True)
    assert gradcheck(lambda x: (lgamma(x), digamma(x), polygamma(2, x)), [x])


def test_cholesky_and_triangular_solve_gradcheck():
    a = np.random.default_rng(0).standard_normal((2, 3, 3))
    A = _t(minitorch, a @ a.transpose(0, 2, 1) + np.eye(3), True)
    assert gradcheck(lambda A: cholesky((A + A.mT) / 2), [A])
    L, B = _t(minitorch, TRIL, True), _t(minitorch, np.arange(6.0).reshape(3, 2), True)
    assert gradcheck(lambda L, B: solve_triangular(L * _t(minitorch, MASK), B), [L, B])
    assert gradcheck(lambda L, B: solve_triangular((L * _t(minitorch, MASK)).mT, B, upper=True), [L, B])
    with pytest.raises(RuntimeError, match="not positive-definite"):
        cholesky(minitorch.tensor([[1.0, 2.0], [2.0, 1.0]]))


def test_standard_gamma_gradient():
    """The implicit reparameterization gradient: exact for alpha = 1 via the exponential's CDF, close to torch's
    (an approximation) elsewhere."""
    x = np.array([0.01, 0.5, 1.0, 3.0, 10.0])
    # alpha = 1: P(1 + h, x) by the series; compare with a central finite difference of P
    def P(a, x):
        n = np.arange(400)[:, None]
        return np.exp(-x) * np.exp((a + n) * np.log(x) - np.vectorize(math.lgamma)(a + n + 1)).sum(0)
    h = 1e-6
    fd = -(P(1 + h, x) - P(1 - h, x)) / (2 * h) / np.exp(-x)
    np.testing.assert_allclose(standard_gamma_grad(np.ones(5), x), fd, rtol=1e-6)
    alpha = np.array([0.05, 0.5, 2.5, 10.0, 100.0, 1000.0])
    samples, theirs = torch_answer(_torch_standard_gamma_grad, alpha)
    ours = standard_gamma_grad(np.broadcast_to(alpha, samples.shape), samples.numpy())
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=3e-3)


def _torch_standard_gamma_grad(torch, alpha):
    """torch's gamma samples for ``alpha`` (50 rows) and its reparameterised gradient at them."""
    samples = torch._standard_gamma(torch.tensor(alpha).repeat(50, 1))
    return samples, torch._standard_gamma_grad(torch.tensor(alpha).repeat(50, 1), samples)


@pytest.mark.parametrize("name", CASES)
def test_float32_parameters_give_float32_results(name):
    make, params, _, _, _ = CASES[name]
    d = make(D, minitorch, *[minitorch.tensor(np.asarray(p, np.float32)) for p in params])
    s = d.sample((2,))
    assert s.dtype == (minitorch.int64 if name.startswith("Categorical") else minitorch.float32)
    assert d.log_prob(s).dtype == minitorch.float32
    if name not in NO_ENTROPY:
        assert d.entropy().dtype == minitorch.float32


WITH_CDF = ["Normal", "Uniform", "Gamma", "Exponential", "Laplace", "Cauchy", "HalfCauchy", "HalfNormal", "LogNormal",
            "Gumbel", "Weibull", "Pareto", "Kumaraswamy", "ContinuousBernoulli"]


@pytest.mark.parametrize("name", WITH_CDF)
def test_samples_follow_the_cdf(name):
    """Kolmogorov-Smirnov: the empirical CDF of 20000 samples stays within 0.015 of ``cdf`` (the 1% critical
    value is 0.0115), and ``icdf`` inverts ``cdf``."""
    minitorch.manual_seed(0)
    d, _ = _make(name, minitorch)
    x = d.sample((20000,))
    try:
        F = d.cdf(x).numpy()
    except NotImplementedError:
        pytest.skip(f"{name} has no cdf")
    F = np.sort(F, axis=0)
    n = F.shape[0]
    steps = np.arange(1, n + 1)[:, None] / n
    assert np.max(np.maximum(steps - F, F - (steps - 1 / n))) < 0.015
    p = minitorch.tensor(np.tile(np.linspace(0.05, 0.95, 7)[:, None], (1, d.batch_shape[0])))
    try:
        np.testing.assert_allclose(d.cdf(d.icdf(p)).numpy(), p.numpy(), rtol=1e-6, atol=1e-9)
    except NotImplementedError:
        pass


NEW_KL_PAIRS = {  # name: (p's parameters, q's parameters)
    "Exponential": (([0.5, 2.0],), ([1.0, 3.0],)),
    "Laplace": (([0.0, 1.0], [1.0, 2.0]), ([0.5, -1.0], [2.0, 0.5])),
    "Poisson": (([0.5, 2.0],), ([1.0, 3.0],)),
    "Geometric": (([0.3, 0.6],), ([0.5, 0.2],)),
    "Gumbel": (([0.0, 1.0], [1.0, 2.0]), ([0.5, -1.0], [2.0, 0.5])),
    "HalfNormal": (([1.0, 2.0],), ([2.0, 0.5],)),
    "LogNormal": (([0.0, 1.0], [1.0, 2.0]), ([0.5, -1.0], [2.0, 0.5])),
    "ContinuousBernoulli": (([0.3, 0.6],), ([0.5, 0.2],)),
    "Chi2": (([3.0, 5.0],), ([2.0, 4.0],)),
}


@pytest.mark.parametrize("name", NEW_KL_PAIRS)
def test_kl_divergence_of_the_new_pairs_matches_torch(name):
    np.testing.assert_allclose(_np(_new_pair_kl(minitorch, name)), _np(torch_answer(_new_pair_kl, name)), rtol=1e-9)


def _new_pair_kl(lib, name):
    a, b = NEW_KL_PAIRS[name]
    make = getattr(lib.distributions, name)
    p = make(*[_t(lib, x, True) for x in a])
    return lib.distributions.kl_divergence(p, make(*[_t(lib, x) for x in b]))


def test_exponential_family_entropy_and_kl_by_bregman_divergence():
    """The generic exponential-family entropy and KL equal the closed forms."""
    p = D.Gamma(_t(minitorch, [0.5, 2.0]), _t(minitorch, [1.0, 3.0]))
    q = D.Gamma(_t(minitorch, [1.5, 0.5]), _t(minitorch, [2.0, 1.0]))
    np.testing.assert_allclose(D.ExponentialFamily.entropy(p).detach().numpy(), p.entropy().numpy(), rtol=1e-10)
    bregman = D.kl.__dict__["_kl_expfamily_expfamily"](p, q)
    np.testing.assert_allclose(bregman.detach().numpy(), D.kl_divergence(p, q).numpy(), rtol=1e-10)
    assert isinstance(D.Normal(0.0, 1.0), D.ExponentialFamily)
    with pytest.raises(NotImplementedError, match="different exponential families cannot {29}be computed"):
        D.kl.__dict__["_kl_expfamily_expfamily"](p, D.Exponential(_t(minitorch, [1.0, 2.0])))
