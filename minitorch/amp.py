"""``minitorch.amp``: ``autocast`` and ``GradScaler`` with PyTorch's interface.

``autocast("cpu", dtype=bfloat16 or float16)`` casts where PyTorch's CPU autocast casts: the ops of its
lower-precision list (matmul, linear, convolutions, ...) take their floating inputs in the autocast dtype
(float64 ones stay), those of its float32 list (losses, decompositions, ...) in float32; every other op
computes in the dtypes it is given. Each op on those lists calls ``lower_precision`` or ``full_precision``
(``_ops/amp.py``) on its tensor arguments first. Other devices cannot autocast (PyTorch's disabled context,
with its warning).
``GradScaler`` is PyTorch's: disabled (a pass-through) for CUDA, which is absent, and real loss scaling
with inf/nan checks for the CPU.
"""
from __future__ import annotations

import functools
import math
import warnings
from collections import defaultdict

import numpy as np

from . import _dtype
from ._ops.amp import region


def is_autocast_available(device_type: str) -> bool:
    return device_type == "cpu"


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """Whether an autocast region for ``device_type`` is active (as torch, the default asks about CUDA)."""
    return device_type == "cpu" and region.cast_to is not None


def get_autocast_dtype(device_type: str):
    """The dtype autocast uses on ``device_type`` (CPU: bfloat16 unless a region says otherwise)."""
    if device_type == "cpu":
        return region.cast_to if region.cast_to is not None else _dtype.bfloat16
    return _dtype.float16


class autocast:
    """Context manager and decorator: a region where the listed ops cast their inputs (module docstring)."""

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled: bool | None = None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        if enabled and device_type == "cuda":
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", UserWarning,
                          stacklevel=2)
            enabled = False
        elif enabled and device_type == "cpu" and self.fast_dtype not in (_dtype.bfloat16, _dtype.float16):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                          "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                          UserWarning, stacklevel=2)
            enabled = False
        elif enabled and device_type != "cpu":
            warnings.warn(f"minitorch has no '{device_type}' device: autocast is disabled and computations keep "
                          "their dtypes.", UserWarning, stacklevel=2)
            enabled = False
        self._enabled = enabled
        self._outer = []

    def __enter__(self):
        self._outer.append(region.cast_to)
        if self.device == "cpu":
            region.cast_to = self.fast_dtype if self._enabled else None
        return self

    def __exit__(self, *exc) -> bool:
        region.cast_to = self._outer.pop()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


class GradScaler:
    """Scale the loss so that small gradients survive reduced precision; skip steps with inf/nan gradients.

    ``scale(loss).backward()``, ``step(optimizer)``, ``update()``, as in PyTorch. For ``device="cuda"`` it
    warns and runs disabled (every call passes through), as PyTorch does on a machine without CUDA.
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True):
        self._device = device
        if enabled and device == "cuda":
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          UserWarning, stacklevel=2)
            enabled = False
        self._enabled = enabled
        if enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._scale = float(init_scale)
        self._growth_factor, self._backoff_factor = growth_factor, backoff_factor
        self._growth_interval = growth_interval
        self._growth_tracker = 0
        self._per_optimizer = defaultdict(dict)  # id(optimizer) -> {"unscaled": bool, "found_inf": bool, "stepped"}

    def is_enabled(self) -> bool:
        return self._enabled

    def get_scale(self) -> float:
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def scale(self, outputs):
        """``outputs`` (a tensor or nested sequence of tensors) multiplied by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        return outputs * self._scale

    def unscale_(self, optimizer) -> None:
        """Divide the gradients of ``optimizer``'s parameters by the scale, noting infs and nans."""
        if not self._enabled:
            return
        state = self._per_optimizer[id(optimizer)]
        if state.get("unscaled"):
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state.get("stepped"):
            raise RuntimeError("unscale_() is being called after step().")
        inv, found = 1.0 / self._scale, False
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    g = p.grad._data
                    found = found or not np.isfinite(g).all()
                    g *= inv
        state["unscaled"], state["found_inf"] = True, found

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step()`` unless the unscaled gradients hold an inf or nan."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._per_optimizer[id(optimizer)]
        if state.get("stepped"):
            raise RuntimeError("step() has already been called since the last update().")
        if not state.get("unscaled"):
            self.unscale_(optimizer)
        state["stepped"] = True
        return None if state["found_inf"] else optimizer.step(*args, **kwargs)

    def update(self, new_scale: float | None = None) -> None:
        """Grow the scale after ``growth_interval`` clean steps, shrink it after a step with infs."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(new_scale)
        else:
            states = list(self._per_optimizer.values())
            if not states:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(s.get("found_inf") for s in states):
                self._scale *= self._backoff_factor
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = self._scale * self._growth_factor
                    if math.isfinite(grown):
                        self._scale = grown
                    self._growth_tracker = 0
        self._per_optimizer = defaultdict(dict)

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        return {"scale": self._scale, "growth_factor": self._growth_factor, "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval, "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = int(state_dict["_growth_tracker"])
