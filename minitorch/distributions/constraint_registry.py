"""``biject_to`` and ``transform_to``: from unconstrained space onto a constraint's set (as torch's
``constraint_registry``). ``biject_to(c)`` is bijective (for HMC-style reparameterisation); ``transform_to(c)``
may not be, but is cheaper or better conditioned (for optimisation)."""
from __future__ import annotations

from . import constraints, transforms

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """A registry of transform factories, looked up by the constraint's class."""

    def __init__(self):
        self._registry = {}

    def register(self, constraint, factory=None):
        """Register ``factory(constraint) -> Transform`` for ``constraint`` (a Constraint class or instance);
        usable as a decorator."""
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint, constraints.Constraint):
            raise TypeError(f"Expected constraint to be either a Constraint subclass or instance, but got "
                            f"{constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _both(constraint, factory):
    biject_to.register(constraint, factory)
    transform_to.register(constraint, factory)


_both(constraints.real, lambda c: transforms.identity_transform)
# positive and nonnegative are instances of these two classes: exp(x) + 0
_both(constraints.greater_than,
      lambda c: transforms.ComposeTransform([transforms.ExpTransform(), transforms.AffineTransform(c.lower_bound, 1)]))
_both(constraints.greater_than_eq,
      lambda c: transforms.ComposeTransform([transforms.ExpTransform(), transforms.AffineTransform(c.lower_bound, 1)]))
_both(constraints.less_than,
      lambda c: transforms.ComposeTransform([transforms.ExpTransform(), transforms.AffineTransform(c.upper_bound, -1)]))


def _interval(c):
    lower_is_0 = isinstance(c.lower_bound, (int, float)) and c.lower_bound == 0
    upper_is_1 = isinstance(c.upper_bound, (int, float)) and c.upper_bound == 1
    if lower_is_0 and upper_is_1:
        return transforms.SigmoidTransform()
    return transforms.ComposeTransform([transforms.SigmoidTransform(),
                                        transforms.AffineTransform(c.lower_bound, c.upper_bound - c.lower_bound)])


_both(constraints.interval, _interval)
_both(constraints.half_open_interval, _interval)
biject_to.register(constraints.simplex, lambda c: transforms.StickBreakingTransform())
transform_to.register(constraints.simplex, lambda c: transforms.SoftmaxTransform())
transform_to.register(constraints.lower_cholesky, lambda c: transforms.LowerCholeskyTransform())
transform_to.register(constraints.positive_definite, lambda c: transforms.PositiveDefiniteTransform())
transform_to.register(constraints.positive_semidefinite, lambda c: transforms.PositiveDefiniteTransform())
_both(constraints.corr_cholesky, lambda c: transforms.CorrCholeskyTransform())
biject_to.register(constraints.independent, lambda c: transforms.IndependentTransform(
    biject_to(c.base_constraint), c.reinterpreted_batch_ndims))
transform_to.register(constraints.independent, lambda c: transforms.IndependentTransform(
    transform_to(c.base_constraint), c.reinterpreted_batch_ndims))
biject_to.register(constraints.cat, lambda c: transforms.CatTransform([biject_to(x) for x in c.cseq], c.dim,
                                                                      c.lengths))
transform_to.register(constraints.cat, lambda c: transforms.CatTransform([transform_to(x) for x in c.cseq], c.dim,
                                                                         c.lengths))
biject_to.register(constraints.stack, lambda c: transforms.StackTransform([biject_to(x) for x in c.cseq], c.dim))
transform_to.register(constraints.stack, lambda c: transforms.StackTransform([transform_to(x) for x in c.cseq],
                                                                             c.dim))
