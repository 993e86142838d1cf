"""Anomaly detection: remember where each node was created, and fail loudly on NaN gradients."""
from __future__ import annotations

import traceback

from .grad_mode import _DecoratorContextManager, state


def record_trace(node) -> None:
    """Keep the forward stack of ``node`` (only while anomaly detection is on)."""
    node._trace = traceback.format_stack()[:-3]


class detect_anomaly(_DecoratorContextManager):
    """Context manager: record forward tracebacks and raise when backward produces NaN."""

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan

    def __enter__(self):
        self.prev = (state.anomaly, state.anomaly_check_nan)
        state.anomaly, state.anomaly_check_nan = True, self.check_nan

    def __exit__(self, *exc):
        state.anomaly, state.anomaly_check_nan = self.prev

    def clone(self):
        return type(self)(self.check_nan)


class set_detect_anomaly(_DecoratorContextManager):
    """Turn anomaly detection on or off (at once; undone at the end of a ``with`` block)."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.prev = (state.anomaly, state.anomaly_check_nan)
        self.mode, self.check_nan = mode, check_nan
        state.anomaly, state.anomaly_check_nan = mode, check_nan

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        state.anomaly, state.anomaly_check_nan = self.prev

    def clone(self):
        return type(self)(self.mode, self.check_nan)


def is_anomaly_enabled() -> bool:
    return state.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    return state.anomaly_check_nan
