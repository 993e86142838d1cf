"""Shared fixtures.

``lib`` runs a test on minitorch and, where PyTorch is installed, on PyTorch too:
tests written against ``lib`` state behaviour that both must have, so every
expectation in them is checked against the specification as well.
"""
import importlib

import pytest


@pytest.fixture(params=["minitorch", "torch"])
def lib(request):
    if request.param == "torch":
        return pytest.importorskip("torch")
    return importlib.import_module("minitorch")
