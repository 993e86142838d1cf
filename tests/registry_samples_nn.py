"""Registry-sweep inputs for the nn.functional forms added with the extra layers (tests/registry_cases.py)."""
import minitorch as mt
import minitorch.nn.functional as F
from registry_inputs import INF, NAN, x

SAMPLES = {
    "F.glu": (lambda a: F.glu(a, 1), lambda: (x(3, 4),)),
    "F.softshrink": (lambda a: F.softshrink(a, 0.1), lambda: (x(3, 4, low=-1.0, high=1.0, seed=3),)),
    "F.adaptive_max_pool1d": (lambda a: F.adaptive_max_pool1d(a, 3), lambda: (x(2, 2, 7),)),
    "F.adaptive_max_pool2d": (lambda a: F.adaptive_max_pool2d(a, (2, 3)), lambda: (x(1, 2, 5, 7),)),
    "F.instance_norm": (lambda a, w, b: F.instance_norm(a, weight=w, bias=b),
                        lambda: (x(2, 3, 4), x(3, seed=1), x(3, seed=2))),
    "F.local_response_norm": (lambda a: F.local_response_norm(a, 3, alpha=0.5), lambda: (x(2, 4, 3),)),
    "F.kl_div": (lambda a, t: F.kl_div(a, t, reduction="batchmean"), lambda: (x(3, 4), x(3, 4, seed=1))),
    "F.poisson_nll_loss": (lambda a, t: F.poisson_nll_loss(a, t, full=True),
                           lambda: (x(3, 4), x(3, 4, low=0.5, high=3.0, seed=1))),
    "F.gaussian_nll_loss": (None, lambda: (x(3, 4), x(3, 4, seed=1), x(3, 4, seed=2))),
    "F.margin_ranking_loss": (lambda a, b: F.margin_ranking_loss(a, b, mt.tensor([1.0, -1.0, 1.0, -1.0],
                                                                                 dtype=mt.float64), margin=2.0),
                              lambda: (x(4), x(4, seed=1))),
    "F.hinge_embedding_loss": (lambda a: F.hinge_embedding_loss(a, mt.tensor([[1.0, -1.0, 1.0, -1.0]] * 3,
                                                                             dtype=mt.float64), margin=2.0),
                               lambda: (x(3, 4),)),
    "F.soft_margin_loss": (lambda a: F.soft_margin_loss(a, x(3, 4, low=-1.0, high=1.0, seed=1).detach()),
                           lambda: (x(3, 4),)),  # (torch does not differentiate the target)
    "F.multilabel_soft_margin_loss": (lambda a, t, w: F.multilabel_soft_margin_loss(a, t, w),
                                      lambda: (x(3, 4), x(3, 4, seed=1), x(4, seed=2))),
    "F.cosine_embedding_loss": (lambda a, b: F.cosine_embedding_loss(a, b, mt.tensor([1.0, -1.0, 1.0],
                                                                                     dtype=mt.float64)),
                                lambda: (x(3, 4, low=-1.0, high=1.0), x(3, 4, low=-1.0, high=1.0, seed=1))),
    "F.triplet_margin_loss": (lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=3.0, swap=True),
                              lambda: (x(3, 4), x(3, 4, seed=1), x(3, 4, seed=2))),
}

EDGES = {
    "F.softshrink": (0.1, -0.1, NAN, -0.0, INF, -INF),  # +-lambd
    "F.kl_div": {1: (0.0, -0.0, NAN, INF)},  # targets
    "F.poisson_nll_loss": {1: (1.0, 0.0, 0.5, NAN)},  # targets at and below the Stirling term's cut (full=True)
    "F.soft_margin_loss": (INF, -INF, NAN),
}
