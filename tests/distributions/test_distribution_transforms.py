"""minitorch.distributions.transforms, biject_to/transform_to, and the distributions built on them or on
random draws that the table of tests/distributions/test_distributions.py cannot hold (relaxed, mixture, von Mises, the
straight-through estimator), against torch.distributions where PyTorch is installed."""
import math

import numpy as np
import pytest

import minitorch
import minitorch.distributions as D
from minitorch.autograd import gradcheck, gradgradcheck
from minitorch.distributions import constraints, transforms as T
from torch_answers import torch_answer

f64 = np.float64


def _mod(lib):
    return D if lib is minitorch else lib.distributions


def _np(x):
    return x.detach().numpy()


# name: (make(transforms module, tensor library), input)
TRANSFORMS = {
    "Exp": (lambda T, lib: T.ExpTransform(), [[0.3, -1.2, 2.0]]),
    "Power": (lambda T, lib: T.PowerTransform(lib.tensor([0.5, 2.0, 3.0], dtype=lib.float64)), [[0.3, 1.2, 2.0]]),
    "Sigmoid": (lambda T, lib: T.SigmoidTransform(), [[0.3, -1.2, 2.0]]),
    "Softplus": (lambda T, lib: T.SoftplusTransform(), [[0.3, -1.2, 2.0]]),
    "Tanh": (lambda T, lib: T.TanhTransform(), [[0.3, -1.2, 2.0]]),
    "Affine": (lambda T, lib: T.AffineTransform(1.5, lib.tensor([2.0, -0.5, 3.0], dtype=lib.float64)),
               [[0.3, -1.2, 2.0]]),
    "Affine_event": (lambda T, lib: T.AffineTransform(1.5, -2.0, event_dim=1), [[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]),
    "StickBreaking": (lambda T, lib: T.StickBreakingTransform(), [[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]),
    "LowerCholesky": (lambda T, lib: T.LowerCholeskyTransform(), [[0.3, 0.0], [2.0, 0.4]]),
    "CorrCholesky": (lambda T, lib: T.CorrCholeskyTransform(), [[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]),
    "Compose": (lambda T, lib: T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()]),
                [[0.3, -1.2, 2.0]]),
    "Independent": (lambda T, lib: T.IndependentTransform(T.ExpTransform(), 1), [[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]),
    "Reshape": (lambda T, lib: T.ReshapeTransform((2, 3), (3, 2)), [[[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]]),
    "Cat": (lambda T, lib: T.CatTransform([T.ExpTransform(), T.SigmoidTransform()], dim=1, lengths=[2, 1]),
            [[0.3, -1.2, 2.0], [1.0, 0.0, 0.5]]),
    "Stack": (lambda T, lib: T.StackTransform([T.ExpTransform(), T.TanhTransform()], dim=1),
              [[0.3, -1.2], [1.0, 0.5]]),
    "Inverse": (lambda T, lib: T.SigmoidTransform().inv, [[0.3, 0.6, 0.9]]),
}
NOT_BIJECTIVE = {"Abs", "Softmax"}


def _transform_run(lib, name):
    """The transform ``name`` at its input: y, x recovered by the inverse, log|det J| (None where not
    implemented), the gradient of sum(y) + sum(log|det J|), forward_shape and its facts."""
    make, x = TRANSFORMS[name]
    t = make(_mod(lib).transforms, lib)
    x = lib.tensor(np.asarray(x, f64), requires_grad=True)
    y = t(x)
    try:
        jacobian = t.log_abs_det_jacobian(x, y)
    except NotImplementedError:
        jacobian = None
    (y.sum() if jacobian is None else y.sum() + jacobian.sum()).backward()
    facts = (tuple(t.forward_shape(lib.Size(tuple(x.shape)))), t.bijective, t.domain.event_dim,
             t.codomain.event_dim, repr(t))
    return {"y": y, "x back": t.inv(y), "jacobian": jacobian, "grad": x.grad, "facts": facts}


@pytest.mark.parametrize("name", TRANSFORMS)
def test_transform_values_log_jacobians_and_shapes_match_torch(name):
    mine, theirs = _transform_run(minitorch, name), torch_answer(_transform_run, name)
    np.testing.assert_allclose(_np(mine["y"]), _np(theirs["y"]), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_np(mine["x back"]), np.asarray(TRANSFORMS[name][1], f64), rtol=1e-7, atol=1e-9)
    assert (mine["jacobian"] is None) == (theirs["jacobian"] is None)
    if theirs["jacobian"] is not None:
        np.testing.assert_allclose(_np(mine["jacobian"]), _np(theirs["jacobian"]), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(mine["grad"].numpy(), theirs["grad"].numpy(), rtol=1e-8, atol=1e-10)
    assert mine["facts"] == theirs["facts"]


@pytest.mark.parametrize("name", ["Sigmoid", "Tanh", "StickBreaking", "CorrCholesky", "Power"])
def test_log_jacobian_gradcheck_and_matches_autograd(name):
    """log|det J| of a 1-d transform is log|dy/dx|: compare with the derivative autograd gives, and gradcheck."""
    make, x = TRANSFORMS[name]
    t = make(T, minitorch)
    x = minitorch.tensor(np.asarray(x, f64), requires_grad=True)
    assert gradcheck(lambda a: t.log_abs_det_jacobian(a, t(a)), (x,))
    assert gradgradcheck(lambda a: t.log_abs_det_jacobian(a, t(a)), (x,))
    if t.domain.event_dim == 0:
        (dy,) = minitorch.autograd.grad(t(x).sum(), x)
        np.testing.assert_allclose(t.log_abs_det_jacobian(x, t(x)).detach().numpy(), np.log(np.abs(dy.numpy())))


def test_caching_and_equality():
    t = T.ExpTransform(cache_size=1)
    x = minitorch.tensor([0.5])
    y = t(x)
    assert t(x) is y and t.inv(y) is x
    assert T.ExpTransform() == T.ExpTransform() and T.ExpTransform() != T.SigmoidTransform()
    assert T.ExpTransform().inv.inv == T.ExpTransform()
    assert T.identity_transform(x) is x
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        T.ExpTransform(cache_size=2)
    with pytest.raises(ValueError, match="in_shape, out_shape have different numbers of elements"):
        T.ReshapeTransform((2, 3), (4,))


@pytest.mark.parametrize("constraint", [
    constraints.real, constraints.positive, constraints.greater_than(2.0), constraints.less_than(1.0),
    constraints.unit_interval, constraints.interval(-1.0, 3.0), constraints.simplex, constraints.real_vector,
    constraints.corr_cholesky])
def test_biject_to_maps_into_the_constraint_and_matches_torch(constraint):
    t = D.biject_to(constraint)
    u = minitorch.tensor(np.random.default_rng(0).normal(size=(4, 6)))
    assert bool(constraint.check(t(u)).all())
    np.testing.assert_allclose(t.inv(t(u)).numpy(), u.numpy(), rtol=1e-7, atol=1e-9)
    name = repr(constraint).split("(")[0].lower().replace("greaterthan", "greater_than").replace(
        "lessthan", "less_than").replace("independentconstraint", "real_vector").replace("corrcholesky", "corr_cholesky")
    expected = torch_answer(_torch_biject_to, name)
    if expected is not None:
        assert repr(t).replace("minitorch", "torch") == expected


def _torch_biject_to(torch, name):
    """repr of torch's biject_to for its constraint ``name``; None where it has no such instance."""
    constraint = getattr(torch.distributions.constraints, name, None)
    return None if constraint is None or callable(constraint) else repr(torch.distributions.biject_to(constraint))


def test_transform_to_and_unsupported_constraints():
    assert isinstance(D.transform_to(constraints.simplex), T.SoftmaxTransform)
    assert isinstance(D.transform_to(constraints.lower_cholesky), T.LowerCholeskyTransform)
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky constraints"):
        D.biject_to(constraints.lower_cholesky)
    L = D.transform_to(constraints.positive_definite)(minitorch.tensor([[0.3, 0.0], [-1.0, 0.2]]))
    assert bool(constraints.positive_definite.check(L))


def test_transformed_distribution_log_prob(lib):
    """A LogNormal built by hand equals the library's LogNormal; its batch shape follows the transforms."""
    L = _mod(lib)
    base = L.Normal(lib.tensor([0.0, 1.0], dtype=lib.float64), lib.tensor([1.0, 0.5], dtype=lib.float64))
    d = L.TransformedDistribution(base, [L.transforms.ExpTransform()])
    x = lib.tensor([0.5, 2.0], dtype=lib.float64)
    np.testing.assert_allclose(_np(d.log_prob(x)), _np(L.LogNormal(base.loc, base.scale).log_prob(x)))
    np.testing.assert_allclose(_np(d.cdf(x)), _np(base.cdf(x.log())))
    flipped = L.TransformedDistribution(base, [L.transforms.AffineTransform(0.0, -1.0)])
    np.testing.assert_allclose(_np(flipped.cdf(-x)), 1 - _np(base.cdf(x)))
    broadcast = L.TransformedDistribution(L.Normal(0.0, 1.0), L.transforms.AffineTransform(
        lib.zeros(3, dtype=lib.float64), 2.0))
    assert tuple(broadcast.batch_shape) == (3,)
    assert tuple(L.TransformedDistribution(L.Normal(lib.zeros(3), 1.0), L.transforms.StickBreakingTransform())
                 .event_shape) == (4,)


def _generalized_pareto(lib):
    """A float32 GeneralizedPareto's log_prob, cdf, log survival function, icdf, moments, entropy and support."""
    args = ([0.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.1, -0.2, 0.0])
    d = _mod(lib).GeneralizedPareto(*[lib.tensor(a, requires_grad=True) for a in args])
    v = lib.tensor([0.3, 2.0, 1.1])
    return ([getattr(d, method)(v) for method in ("log_prob", "cdf", "log_survival_function")],
            d.icdf(lib.tensor([0.1, 0.5, 0.9])), [getattr(d, prop) for prop in ("mean", "variance", "mode")],
            d.entropy(), repr(d.support).replace("minitorch", "torch"))


def test_generalized_pareto_matches_torch_in_float32():
    methods, icdf, moments, entropy, support = _generalized_pareto(minitorch)
    their_methods, their_icdf, their_moments, their_entropy, their_support = torch_answer(_generalized_pareto)
    for a, b in zip(methods, their_methods, strict=True):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_np(icdf), _np(their_icdf), rtol=1e-5)
    for a, b in zip(moments, their_moments, strict=True):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-5)
    np.testing.assert_allclose(_np(entropy), _np(their_entropy), rtol=1e-6)
    assert support == their_support


def test_kumaraswamy_mode_is_the_closed_form():
    a, b = np.array([2.0, 3.0, 0.5]), np.array([2.5, 1.5, 2.0])
    mode = D.Kumaraswamy(minitorch.tensor(a), minitorch.tensor(b)).mode.numpy()
    np.testing.assert_allclose(mode[:2], ((a - 1) / (a * b - 1))[:2] ** (1 / a[:2]))
    assert np.isnan(mode[2])


LOC, KAPPA = [0.5, -2.0, 1.0], [0.3, 2.0, 30.0]


def _von_mises(lib):
    """A VonMises, its log_prob at three points, variance, and the gradient of the summed log_prob."""
    d = _mod(lib).VonMises(lib.tensor(LOC, dtype=lib.float64), lib.tensor(KAPPA, dtype=lib.float64,
                                                                          requires_grad=True))
    log_prob = d.log_prob(lib.tensor([1.0, -1.5, 1.2], dtype=lib.float64))
    log_prob.sum().backward()
    return d, (log_prob, d.variance, d.concentration.grad)


def test_von_mises_matches_torch_and_samples_follow_the_density():
    dm, (lm, variance, grad) = _von_mises(minitorch)
    lt, their_variance, their_grad = torch_answer(lambda torch: _von_mises(torch)[1])
    np.testing.assert_allclose(_np(lm), _np(lt), rtol=1e-7)
    np.testing.assert_allclose(_np(variance), _np(their_variance), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), their_grad.numpy(), rtol=1e-6)
    minitorch.manual_seed(0)
    x = dm.sample((20000,)).numpy()
    assert x.min() >= -math.pi and x.max() < math.pi
    # the circular mean direction and resultant length E[cos(x - loc)] = I1(k) / I0(k) = 1 - variance
    r = np.cos(x - np.array(LOC)).mean(0)
    np.testing.assert_allclose(r, 1 - _np(dm.variance), atol=0.02)


def _relaxed(lib):
    L = _mod(lib)
    t = lib.tensor([0.5], dtype=lib.float64)
    return (L.RelaxedBernoulli(t, probs=lib.tensor([0.3, 0.8], dtype=lib.float64)),
            L.RelaxedOneHotCategorical(t, logits=lib.tensor([[0.3, -1.0, 0.5]], dtype=lib.float64)))


def _relaxed_log_probs(lib):
    b, c = _relaxed(lib)
    return (b.log_prob(lib.tensor([0.2, 0.9], dtype=lib.float64)),
            c.log_prob(lib.tensor([[0.2, 0.3, 0.5]], dtype=lib.float64)))


def test_relaxed_distributions_log_prob_matches_torch():
    for a, b in zip(_relaxed_log_probs(minitorch), torch_answer(_relaxed_log_probs), strict=True):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-10)


def test_relaxed_bernoulli_density_integrates_to_one():
    b, _ = _relaxed(minitorch)
    u = np.linspace(-30, 30, 60001)  # integrate in logit space: x = sigmoid(u), dx = x (1 - x) du
    x = 1 / (1 + np.exp(-u))
    density = np.exp(b.log_prob(minitorch.tensor(np.stack([x, x], 1))).numpy()) * (x * (1 - x))[:, None]
    np.testing.assert_allclose(np.trapezoid(density, u, axis=0), [1.0, 1.0], rtol=1e-5)


def test_relaxed_samples_are_reparameterized_and_lie_in_the_support():
    logits = minitorch.tensor([[0.3, -1.0, 0.5]], dtype=minitorch.float64, requires_grad=True)
    d = D.RelaxedOneHotCategorical(minitorch.tensor([0.7], dtype=minitorch.float64), logits=logits)
    x = d.rsample((5,))
    assert bool(constraints.simplex.check(x).all())
    assert gradcheck(lambda z: (minitorch.manual_seed(0), D.RelaxedOneHotCategorical(
        minitorch.tensor([0.7], dtype=minitorch.float64), logits=z).rsample((3,)))[1], (logits,))
    p = minitorch.tensor([0.3, 0.8], dtype=minitorch.float64, requires_grad=True)
    assert gradcheck(lambda q: (minitorch.manual_seed(0), D.RelaxedBernoulli(
        minitorch.tensor(0.4, dtype=minitorch.float64), probs=q).rsample((3,)))[1], (p,))


def test_straight_through_sample_is_one_hot_with_the_probs_gradient():
    probs = minitorch.tensor([0.2, 0.5, 0.3], requires_grad=True)
    d = D.OneHotCategoricalStraightThrough(probs=probs)
    x = d.rsample((4,))
    assert bool(((x == 0) | (x == 1)).all()) and bool((x.sum(-1) == 1).all())
    w = minitorch.tensor([1.0, 2.0, 3.0])
    (x * w).sum().backward()
    # d/dprobs of sum(probs - probs.detach()) * w over 4 samples, through Categorical's normalisation of probs
    p = probs.detach().numpy()
    jac = (np.eye(3) - p[None, :]) / p.sum()
    np.testing.assert_allclose(probs.grad.numpy(), 4 * (w.numpy() @ jac.T), rtol=1e-5)


def test_mixture_same_family(lib):
    L = _mod(lib)
    mix = L.Categorical(probs=lib.tensor([0.3, 0.7], dtype=lib.float64))
    comp = L.Normal(lib.tensor([-1.0, 2.0], dtype=lib.float64), lib.tensor([0.5, 1.5], dtype=lib.float64))
    d = L.MixtureSameFamily(mix, comp)
    x = lib.tensor([0.0, 1.5], dtype=lib.float64)
    p1 = 0.3 * np.exp(-0.5 * ((x.numpy() + 1) / 0.5) ** 2) / (0.5 * np.sqrt(2 * np.pi))
    p2 = 0.7 * np.exp(-0.5 * ((x.numpy() - 2) / 1.5) ** 2) / (1.5 * np.sqrt(2 * np.pi))
    np.testing.assert_allclose(_np(d.log_prob(x)), np.log(p1 + p2))
    np.testing.assert_allclose(_np(d.mean), 0.3 * -1 + 0.7 * 2)
    np.testing.assert_allclose(_np(d.variance), 0.3 * 0.25 + 0.7 * 2.25 + 0.3 * 0.7 * 3 ** 2)
    mv = L.MixtureSameFamily(L.Categorical(probs=lib.tensor([0.5, 0.5])),
                             L.Independent(L.Normal(lib.zeros(2, 3), lib.ones(2, 3)), 1))
    assert tuple(mv.event_shape) == (3,) and tuple(mv.sample((4,)).shape) == (4, 3)
    with pytest.raises(ValueError, match="instance of torch.distributions.Categorical"):
        L.MixtureSameFamily(comp, comp)


COV2 = np.array([[2.0, 0.5], [0.5, 1.0]])


WISHART_PROPS = ("mean", "variance", "mode", "covariance_matrix", "precision_matrix", "scale_tril")


def _wishart(lib, given):
    """A Wishart given its ``given`` matrix: log_prob, entropy, properties, and the matrix's gradient of their sum
    (its lower triangle for scale_tril: the upper one is not part of the parameter, and torch's gradient there
    depends on its kernels)."""
    a = lib.tensor(np.linalg.cholesky(COV2) if given == "scale_tril" else COV2, requires_grad=True)
    d = _mod(lib).Wishart(lib.tensor([4.0, 5.0], dtype=lib.float64), **{given: a})
    log_prob, entropy = d.log_prob(lib.tensor(np.array([[3.0, 0.2], [0.2, 1.5]]))), d.entropy()
    props = [getattr(d, prop) for prop in WISHART_PROPS]
    (log_prob.sum() + entropy.sum()).backward()
    grad = np.tril(a.grad.numpy()) if given == "scale_tril" else a.grad.numpy()
    return log_prob, entropy, props, grad


@pytest.mark.parametrize("given", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_wishart_matches_torch(given):
    lm, em, props, grad = _wishart(minitorch, given)
    lt, et, their_props, their_grad = torch_answer(_wishart, given)
    np.testing.assert_allclose(_np(lm), _np(lt), rtol=1e-10)
    np.testing.assert_allclose(_np(em), _np(et), rtol=1e-10)
    for name, a, b in zip(WISHART_PROPS, props, their_props, strict=True):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-10, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(grad, their_grad, rtol=1e-8, atol=1e-12)


def test_wishart_samples_and_bregman_entropy():
    d = D.Wishart(minitorch.tensor(5.0, dtype=minitorch.float64), covariance_matrix=minitorch.tensor(COV2))
    np.testing.assert_allclose(D.ExponentialFamily.entropy(d).detach().numpy(), d.entropy().numpy(), rtol=1e-10)
    minitorch.manual_seed(0)
    x = d.sample((20000,)).numpy()
    np.testing.assert_allclose(x.mean(0), 5 * COV2, rtol=0.03)
    np.testing.assert_allclose(x.var(0), d.variance.numpy(), rtol=0.08)
    with pytest.raises(ValueError, match="Value of df=.* expected to be greater than ndim - 1 = 1."):
        D.Wishart(minitorch.tensor(0.5), covariance_matrix=minitorch.tensor(COV2))


def _torch_lkj_samples(torch):
    """For two concentrations, four of torch's LKJCholesky samples and its log_prob at them."""
    torch.manual_seed(0)
    out = []
    for c in (0.5, 2.0):
        d = torch.distributions.LKJCholesky(3, torch.tensor(c, dtype=torch.float64))
        L = d.sample((4,))
        out.append((L, d.log_prob(L)))
    return out


def test_lkj_cholesky_log_prob_matches_torch_and_samples_are_correlation_factors():
    for c, (L, their_log_prob) in zip((0.5, 2.0), torch_answer(_torch_lkj_samples)):
        dm = D.LKJCholesky(3, minitorch.tensor(c, dtype=minitorch.float64))
        np.testing.assert_allclose(_np(dm.log_prob(minitorch.tensor(L.numpy()))), _np(their_log_prob), rtol=1e-10)
    minitorch.manual_seed(0)
    x = D.LKJCholesky(3, 2.0).sample((20000,))
    assert bool(constraints.corr_cholesky.check(x).all())
    corr = (x @ x.mT).numpy()
    # with concentration eta, each off-diagonal correlation is Beta(eta - 1 + d/2, same) on (-1, 1): mean 0 and
    # variance 1 / (2 (eta - 1 + d / 2) + 1) = 1/6 for eta = 2, d = 3
    np.testing.assert_allclose(corr[:, 1, 0].var(), 1 / 6, rtol=0.05)
    np.testing.assert_allclose(corr[:, 2, 1].mean(), 0.0, atol=0.02)
    with pytest.raises(ValueError, match="Expected dim to be an integer greater than or equal to 2. Found dim=1."):
        D.LKJCholesky(1)
