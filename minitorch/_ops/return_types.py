"""Named results of ops that return several tensors (``minitorch.return_types``, as ``torch.return_types``)."""
from __future__ import annotations

import collections


def _return_type(name, fields=("values", "indices")):
    base = collections.namedtuple(name, fields)

    def __repr__(self):
        items = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"minitorch.return_types.{name}(\n{items})"
    return type(name, (base,), {"__repr__": __repr__, "__slots__": ()})


class return_types:
    """Named results of ops that return several tensors, like ``torch.return_types``."""

    max = _return_type("max")
    min = _return_type("min")
    sort = _return_type("sort")
    topk = _return_type("topk")
    slogdet = _return_type("slogdet", ("sign", "logabsdet"))
    median = _return_type("median")
