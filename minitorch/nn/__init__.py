"""``minitorch.nn``: modules, parameters, functional forms, initialisation and utilities."""
from . import functional, init, parallel, utils
from .modules import *  # noqa: F403
from .modules import Module
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .parallel import DataParallel


def factory_kwargs(kwargs: dict | None) -> dict:
    """The factory keywords (device, dtype, memory_format) of ``kwargs``, merged with its ``factory_kwargs`` entry;
    a TypeError for anything else."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    unexpected = kwargs.keys() - simple - {"factory_kwargs"}
    if unexpected:
        raise TypeError(f"unexpected kwargs {unexpected}")
    merged = dict(kwargs.get("factory_kwargs", {}))
    for k in simple & kwargs.keys():
        if k in merged:
            raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
        merged[k] = kwargs[k]
    return merged
