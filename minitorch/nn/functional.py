"""``minitorch.nn.functional``: the layers as functions, with torch's signatures and checks.

Each function is defined beside its op in ``minitorch/_ops`` and registered there (``functional=True``); this
module re-exports the registry's functional table, and the helpers torch also exposes here."""
from .._core import registry as _registry
from .._core.tensor import Tensor  # noqa: F401  (torch.nn.functional has it too)
from ._dispatch import assert_int_or_pair, boolean_dispatch, boolean_dispatched  # noqa: F401

globals().update(_registry.functional())
