"""Handles returned by ``register_*hook`` methods."""
from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict


class RemovableHandle:
    """Removes the hook it was returned for: ``handle.remove()`` or a ``with`` block."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict: OrderedDict):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None:
            hooks_dict.pop(self.id, None)

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def add_hook(hooks_dict: OrderedDict, hook) -> RemovableHandle:
    """Store ``hook`` in ``hooks_dict`` (in registration order) and return its handle."""
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = hook
    return handle
