"""Shared fixtures and hooks.

``lib`` runs a test on minitorch and, where PyTorch is installed, on PyTorch too:
tests written against ``lib`` state behaviour that both must have, so every
expectation in them is checked against the specification as well. Without PyTorch
the torch variant is not generated: it checks the test, not minitorch.

The hooks tell ``torch_answers`` which test is running (its answers are keyed by it)
and let it write the recordings at the end of a record run.
"""
import importlib

import pytest

import torch_answers

LIBS = ["minitorch"] + (["torch"] if torch_answers.torch is not None else [])


@pytest.fixture(params=LIBS)
def lib(request):
    return importlib.import_module(request.param)


def pytest_runtest_setup(item):
    torch_answers.SESSION.start(item.path, item.nodeid.split("::", 1)[1])


def pytest_sessionfinish(session):
    torch_answers.SESSION.save()
