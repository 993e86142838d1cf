"""``swap_in_optimizer_params_and_state``: run an optimizer on other parameters and state for a while."""
from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from .._core.tensor import Tensor
from .optimizer import Optimizer

_NAME = "swap_in_optimizer_params_and_state"


def _fail(message: str) -> None:
    raise RuntimeError(message)


def _check_state(state: Any) -> dict:
    if not isinstance(state, dict):
        _fail(f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping packed parameter ids to per-param "
              f"state dicts, got {type(state).__name__}.")
    if any(isinstance(k, Tensor) for k in state):
        _fail(f"{_NAME} requires optimizer.state_dict()-style state keyed by packed parameter ids.")
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        _fail(f"{_NAME} requires per-parameter optimizer state entries to be dictionaries.")
    return state


def _check_group(index: int, group: dict[str, Any], swapin_group: Any) -> list[int]:
    """The packed ids of ``swapin_group``, which must mirror the live ``group``."""
    if not isinstance(swapin_group, dict):
        _fail(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = swapin_group.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        _fail(f"{_NAME} requires optimizer.state_dict()-style param_groups[*]['params'] entries keyed by packed "
              "parameter ids.")
    if len(group["params"]) != len(ids):
        _fail(f"swapin_optim_state param group {index} has a different number of params than the live optimizer "
              "param group.")
    swapin_only = [k for k in swapin_group if k not in group]
    live_only = [k for k in group if k not in swapin_group]
    if swapin_only or live_only:
        _fail(f"{_NAME} requires optimizer.state_dict()-style param group keys to exactly match the live optimizer "
              f"group keys for group {index}. Keys only in swap-in: {swapin_only}. Keys only in live: {live_only}.")
    return ids


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer: Optimizer, swapin_parameters: dict[str, Tensor],
                                       swapin_optim_state: dict[str, Any]) -> Iterator[None]:
    """Within the context, ``optimizer`` works on ``swapin_parameters`` (in the order of its parameter groups)
    with the ``state_dict()``-shaped ``swapin_optim_state`` (its hyper-parameters and per-parameter state);
    its own parameters, hyper-parameters and state are restored on exit. In-place changes of the swapped-in
    state tensors stay visible in ``swapin_optim_state``."""
    if not optimizer.state:
        _fail(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        _fail(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _check_state(swapin_optim_state.get("state"))
    swapin_groups = swapin_optim_state.get("param_groups")
    if not isinstance(swapin_groups, list):
        _fail(f"{_NAME} requires swapin_optim_state['param_groups'] to be a list of param-group dicts, got "
              f"{type(swapin_groups).__name__}.")
    if len(optimizer.param_groups) != len(swapin_groups):
        _fail("swapin_optim_state has a different number of parameter groups than the live optimizer.")
    parameters = list(swapin_parameters.values())
    plan, offset, seen = [], 0, set()
    for index, (group, swapin_group) in enumerate(zip(optimizer.param_groups, swapin_groups)):
        ids = _check_group(index, group, swapin_group)
        seen.update(ids)
        if offset + len(ids) > len(parameters):
            _fail(f"{_NAME} requires the explicit parameter state to match optimizer.param_groups ordering.")
        plan.append((group, swapin_group, parameters[offset:offset + len(ids)]))
        offset += len(ids)
    extra = [k for k in state if k not in seen]
    if extra:
        _fail(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by packed parameter ids from "
              f"param_groups[*]['params']; got extra keys {extra!r}.")

    live_state, snapshots = optimizer.state, [dict(g) for g in optimizer.param_groups]
    try:
        swapped: defaultdict[Tensor, Any] = defaultdict(dict)
        for group, swapin_group, params in plan:
            group.update({k: v for k, v in swapin_group.items() if k != "params"}, params=params)
            for p, i in zip(params, swapin_group["params"]):
                swapped[p] = dict(state.get(i, {}))
        optimizer.state = swapped
        yield
    finally:
        for group, snapshot in zip(optimizer.param_groups, snapshots):
            group.clear()
            group.update(snapshot)
        optimizer.state = live_state
