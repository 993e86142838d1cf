"""The ``Optimizer`` base class: parameter groups, per-parameter state, ``state_dict``, ``zero_grad``.

Subclasses implement ``_update_group(group)``: the update of one parameter group, which ``step`` runs under
``no_grad``. The elementwise rules prepare each parameter's state and scalars there and hand an elementwise
kernel on the arrays (``p._data``, the gradient, the state) to ``_update_each``, which runs it as one
multi-tensor update over the threads (``_multi_tensor.py``). Updates happen in the parameters' own dtype:
numpy 2 keeps ``float32_array * python_float`` in float32.
"""
from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from .._dtype import get_default_dtype
from .._core.tensor import Tensor
from ..autograd import enable_grad, no_grad
from ._multi_tensor import foreach_update

ParamsT = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]
StateDict = dict[str, Any]


class _RequiredParameter:
    """Marks a hyper-parameter without a default: every parameter group must give it."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base class of all optimizers, like ``torch.optim.Optimizer``.

    ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (parameter groups,
    each with a ``'params'`` entry and optional per-group hyper-parameters overriding ``defaults``).
    """

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        if defaults.get("differentiable"):
            raise NotImplementedError("minitorch optimizers do not support differentiable=True: "
                                      "their updates run on numpy arrays, outside the autograd graph")
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + _typename(params))
        self.state: defaultdict[Tensor, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)
        if defaults.get("fused") and defaults.get("foreach"):
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters, its missing hyper-parameters taken from the defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)

        param_set: set[Tensor] = set()
        for group in self.param_groups:
            param_set.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not param_set.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients: to None (the default), or to zeros in place with ``set_to_none=False``."""
        for group in self.param_groups:
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update the parameters once. ``closure`` re-evaluates the model and returns the loss; it runs
        first, with grad enabled, and its loss is returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    def _update_group(self, group: dict[str, Any]) -> None:
        raise NotImplementedError

    def state_dict(self) -> StateDict:
        """The optimizer state, parameters replaced by integer ids (their positions across the groups).

        ``{'state': {id: {...}}, 'param_groups': [{...hyper-parameters, 'params': [ids]}]}``; the state's
        tensors are the optimizer's own (not copies), as in PyTorch.
        """
        ids: dict[int, int] = {}
        start = 0

        def pack(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                ids.setdefault(id(p), i)
            packed["params"] = [ids[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        param_groups = [pack(g) for g in self.param_groups]
        state = {(ids[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict: StateDict) -> None:
        """Load a ``state_dict()``: hyper-parameters, and copies of the state tensors cast to each
        parameter's floating dtype (``step`` counters keep theirs)."""
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        state: defaultdict[Tensor, Any] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = _copy_to_param(v, id_map[k])
            else:
                state[k] = v
        for group, new_group in zip(groups, saved_groups):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})


def _copy_to_param(value: Any, param: Tensor, key: Any = None) -> Any:
    """A deep copy of a parameter's saved state; tensors other than ``step`` take a floating param's dtype."""
    if isinstance(value, Tensor):
        arr = value._data
        if key != "step" and param.is_floating_point():
            return Tensor._wrap(arr.astype(param._data.dtype))
        return Tensor._wrap(arr.copy())
    if isinstance(value, dict):
        return {k: _copy_to_param(v, param, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copy_to_param(v, param) for v in value)
    return value


def _typename(obj: Any) -> str:
    """Like ``torch.typename``: ``'torch.FloatTensor'`` for a tensor, else the qualified type name."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    return cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


# ---- helpers shared by the update rules ------------------------------------------------------------------

def _check_lr(lr: Any) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    _check_non_negative(lr, "learning rate")


def _check_non_negative(value: Any, what: str) -> None:
    """Raise torch's ``Invalid <what>: <value>`` for a negative (or NaN) hyper-parameter."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what}: {value}")


def _check_adam_args(lr: Any, eps: float, betas, weight_decay: float) -> None:
    """The hyper-parameter checks Adam and its relatives share, with torch's messages."""
    _check_lr(lr)
    _check_non_negative(eps, "epsilon value")
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
    _check_non_negative(weight_decay, "weight_decay value")


class AdamHyper(NamedTuple):
    """The hyper-parameters of Adam's moment updates, shared by Adam, AdamW, NAdam and RAdam."""
    lr: float
    weight_decay: float
    beta1: float
    beta2: float
    maximize: bool
    decoupled: bool  # weight decay scales the weights (AdamW) instead of adding to the gradient

    @classmethod
    def of(cls, group: dict[str, Any], decoupled: bool) -> "AdamHyper":
        beta1, beta2 = map(float, group["betas"])
        return cls(float(group["lr"]), float(group["weight_decay"]), beta1, beta2, group["maximize"], decoupled)


def _adam_moments(x: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray, exp_avg_sq: np.ndarray,
                  h: AdamHyper) -> np.ndarray:
    """Adam's shared first half, elementwise: weight decay (L2 into the gradient, or decoupled from the weights),
    then the moving averages ``exp_avg`` of the gradient and ``exp_avg_sq`` of its square, in place. Returns the
    gradient the update follows."""
    g = _effective_grad(x, grad, 0.0 if h.decoupled else h.weight_decay, h.maximize)
    if h.decoupled and h.weight_decay != 0:
        x *= 1 - h.lr * h.weight_decay
    _lerp_(exp_avg, g, 1 - h.beta1)
    _decay_add_square(exp_avg_sq, g, h.beta2)
    return g


def _decay_add_square(avg: np.ndarray, g: np.ndarray, decay: float) -> None:
    """``avg = decay * avg + (1 - decay) * g * g`` in place (torch's ``mul_(decay).addcmul_(g, g, 1 - decay)``)."""
    avg *= decay
    square = np.multiply(g, 1 - decay)
    square *= g
    avg += square


def _update_each(group: dict[str, Any], kernel: Callable[..., None],
                 updates: list[tuple[Tensor, tuple[np.ndarray | None, ...], tuple[Any, ...]]]) -> None:
    """Run an elementwise update ``kernel(*arrays, *scalars)`` for each ``(param, arrays, scalars)`` of a group, as
    one multi-tensor update over the threads unless the group has ``foreach=False`` or holds a parameter twice
    (its second update must follow the first); then bump each version."""
    foreach = group.get("foreach")
    if len({id(p) for p, _, _ in updates}) < len(updates):
        foreach = False
    foreach_update(kernel, [(arrays, scalars) for _, arrays, scalars in updates], foreach)
    for p, _, _ in updates:
        p._bump()


def _params_with_grad(group: dict[str, Any]) -> list[tuple[Tensor, np.ndarray]]:
    """The group's parameters that have a gradient, with that gradient's array; the others are skipped."""
    return [(p, p.grad._data) for p in group["params"] if p.grad is not None]


def _effective_grad(param: np.ndarray, grad: np.ndarray, weight_decay: float, maximize: bool) -> np.ndarray:
    """The gradient an update follows: negated to maximize, plus the L2 penalty's ``weight_decay * param``.
    Never writes into ``grad`` (it is ``p.grad``'s array)."""
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = grad + weight_decay * param
    return grad


def _lerp_(start: np.ndarray, end: np.ndarray, weight: float) -> None:
    """``start.lerp_(end, weight)`` in ``start``'s dtype, with torch's two formulas (exact at both ends)."""
    w = start.dtype.type(weight)
    diff = end - start
    if abs(w) < 0.5:
        diff *= w
        start += diff
    else:
        diff *= 1 - w
        np.subtract(end, diff, out=start)


def _zeros_like(p: Tensor) -> Tensor:
    return Tensor._wrap(np.zeros_like(p._data))


def _step_counter() -> Tensor:
    """A fresh ``state['step']``: a 0-d tensor of the default float dtype, as torch keeps it."""
    return Tensor._wrap(np.zeros((), get_default_dtype().np))


def _increment(step: Tensor) -> float:
    """Add one to a ``state['step']`` counter in place and return its new value."""
    step._data += 1
    return float(step._data)
