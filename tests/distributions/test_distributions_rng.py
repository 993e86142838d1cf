"""Distribution sample()/rsample() draw PyTorch's random streams: after the same manual_seed, minitorch and torch
give the same samples and leave the generator in the same state."""
import numpy as np
import pytest

import minitorch
import minitorch.distributions as D
from torch_answers import fingerprint, torch_answer

P3 = [0.2, 0.7, 0.5]
P23 = [[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]
COV = [[2.0, 0.5, 0.1], [0.5, 1.0, -0.2], [0.1, -0.2, 1.5]]
TRIL = np.linalg.cholesky(np.array(COV)).tolist()


def _logistic(L, t):
    base = L.Uniform(t([0.0, 0.0, 0.0]), t([1.0, 1.0, 1.0]))
    return L.TransformedDistribution(base, [L.SigmoidTransform().inv, L.AffineTransform(t([0.5, -1.0, 2.0]),
                                                                                      t([1.0, 0.5, 2.0]))])


def _mixture(L, t):
    return L.MixtureSameFamily(L.Categorical(probs=t(P23)), L.Normal(t([[0.0, 1.0, -2.0], [3.0, 0.5, 1.0]]),
                                                                      t([[1.0, 0.5, 2.0], [0.3, 1.0, 1.5]])))


def _mixture_mvn(L, t):
    comp = L.Independent(L.Normal(t([[0.0, 1.0], [-2.0, 3.0], [0.5, 1.0]]), t([[1.0, 0.5], [2.0, 0.3], [1.0, 1.5]])), 1)
    return L.MixtureSameFamily(L.Categorical(probs=t([0.2, 0.5, 0.3])), comp)


# name: (make(distributions module, tensor constructor), bitwise); bitwise=False where the sample is pushed through
# float math (log, exp, pow, matmul, ...) that numpy and torch may round differently, compared with rtol=1e-6.
CASES = {
    "Normal": (lambda L, t: L.Normal(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), True),
    "Normal_scalar": (lambda L, t: L.Normal(0.5, 2.0), True),
    "Uniform": (lambda L, t: L.Uniform(t([0.0, -1.0, 2.0]), t([1.0, 3.0, 2.5])), True),
    "Bernoulli_probs": (lambda L, t: L.Bernoulli(probs=t(P3)), True),
    "Bernoulli_logits": (lambda L, t: L.Bernoulli(logits=t([-1.0, 0.3, 2.0])), True),
    "Categorical_probs": (lambda L, t: L.Categorical(probs=t(P23)), True),
    "Categorical_logits": (lambda L, t: L.Categorical(logits=t([[0.2, -1.5, 0.3], [1.0, 0.1, 0.8]])), True),
    "OneHotCategorical": (lambda L, t: L.OneHotCategorical(probs=t(P23)), True),
    "Multinomial": (lambda L, t: L.Multinomial(7, probs=t(P23)), True),
    "OneHotCategoricalStraightThrough": (lambda L, t: L.OneHotCategoricalStraightThrough(probs=t(P23)), True),
    "Exponential": (lambda L, t: L.Exponential(t([1.0, 0.5, 3.0])), True),
    "Cauchy": (lambda L, t: L.Cauchy(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), True),
    "Laplace": (lambda L, t: L.Laplace(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), False),
    "Geometric": (lambda L, t: L.Geometric(probs=t(P3)), True),
    "Gumbel": (lambda L, t: L.Gumbel(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), False),
    "LogNormal": (lambda L, t: L.LogNormal(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), False),
    "HalfNormal": (lambda L, t: L.HalfNormal(t([1.0, 0.5, 2.0])), True),
    "HalfCauchy": (lambda L, t: L.HalfCauchy(t([1.0, 0.5, 2.0])), True),
    "Logistic": (_logistic, False),
    "LogisticNormal": (lambda L, t: L.LogisticNormal(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0])), False),
    "RelaxedBernoulli": (lambda L, t: L.RelaxedBernoulli(t(0.7), probs=t(P3)), False),
    "RelaxedOneHotCategorical": (lambda L, t: L.RelaxedOneHotCategorical(t(0.5), probs=t(P23)), False),
    "ContinuousBernoulli": (lambda L, t: L.ContinuousBernoulli(probs=t([0.2, 0.7, 0.501])), False),
    "Kumaraswamy": (lambda L, t: L.Kumaraswamy(t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.5])), False),
    "Weibull": (lambda L, t: L.Weibull(t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.5])), False),
    "Pareto": (lambda L, t: L.Pareto(t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.5])), False),
    "GeneralizedPareto": (lambda L, t: L.GeneralizedPareto(t([0.0, 1.0, -2.0]), t([1.0, 0.5, 2.0]),
                                                           t([0.3, 0.0, -0.2])), False),
    "MVN_scale_tril": (lambda L, t: L.MultivariateNormal(t([0.0, 1.0, 2.0]), scale_tril=t(TRIL)), False),
    "MVN_cov": (lambda L, t: L.MultivariateNormal(t([0.0, 1.0, 2.0]), covariance_matrix=t(COV)), False),
    "LowRankMVN": (lambda L, t: L.LowRankMultivariateNormal(t([0.0, 1.0, 2.0]), t([[1.0, 0.5], [0.2, -1.0],
                                                                                   [0.3, 0.4]]),
                                                            t([1.0, 0.5, 2.0])), False),
    "Independent": (lambda L, t: L.Independent(L.Normal(t([[0.0, 1.0], [2.0, 3.0]]), t([[1.0, 0.5], [2.0, 1.5]])),
                                               1), True),
    "MixtureSameFamily": (_mixture, True),
    "MixtureSameFamily_event": (_mixture_mvn, True),
}

# minitorch.bernoulli lays its draws out by the strides of a stride-0 (expanded) or transposed probability tensor,
# where PyTorch fills a fresh row-major output: an engine bug outside minitorch.distributions.
NAMES = list(CASES)

# 5 keeps small draws on PyTorch's scalar paths (and, twice over, its cached normal); 7 x batch passes 16 elements
SHAPES = [(), (5,), (7, 2)]


def _draws(lib, L, make, method, dtype):
    def t(x):
        return lib.tensor(x, dtype=dtype)

    dist = make(L, t)
    lib.manual_seed(1234)
    out = [getattr(dist, method)(shape) for shape in SHAPES]
    out.append(dist.expand((4,) + tuple(dist.batch_shape)).sample((2,)))
    return [np.array(x.detach().numpy()) for x in out], fingerprint(lib.get_rng_state())


def _torch_draws(torch, name, method, dtype):
    """torch's ``_draws``, or None where its distribution has no rsample."""
    make = CASES[name][0]
    if method == "rsample" and not make(torch.distributions, torch.tensor).has_rsample:
        return None
    return _draws(torch, torch.distributions, make, method, getattr(torch, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method", ["sample", "rsample"])
@pytest.mark.parametrize("name", NAMES)
def test_draws_match_torch(name, method, dtype):
    make, bitwise = CASES[name]
    expected = torch_answer(_torch_draws, name, method, dtype)
    if expected is None:  # torch's has no rsample: nor has minitorch's
        assert not make(D, minitorch.tensor).has_rsample
        return
    ours, our_state = _draws(minitorch, D, make, method, getattr(minitorch, dtype))
    theirs, their_state = expected
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape and a.dtype == b.dtype
        if bitwise:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12 if dtype == "float64" else 1e-6)
    assert our_state == their_state


def test_nonreproduced_samplers_still_follow_manual_seed():
    """Gamma-based, Poisson, Binomial and VonMises draws keep their own algorithm but are decided by manual_seed."""
    dists = [D.Gamma(minitorch.tensor([1.0, 2.5]), minitorch.tensor([1.0, 0.5])),
             D.Poisson(minitorch.tensor([1.0, 4.0])),
             D.Binomial(10, probs=minitorch.tensor([0.3, 0.8])),
             D.VonMises(minitorch.tensor([0.0, 1.0]), minitorch.tensor([1.0, 4.0]))]
    for dist in dists:
        minitorch.manual_seed(7)
        a = dist.sample((3,)).numpy()
        minitorch.manual_seed(7)
        b = dist.sample((3,)).numpy()
        c = dist.sample((3,)).numpy()
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(b, c)
        assert np.isfinite(a).all()
