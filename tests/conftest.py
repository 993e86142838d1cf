"""Shared fixtures and hooks.

``lib`` runs a test on minitorch and, where PyTorch is installed, on PyTorch too:
tests written against ``lib`` state behaviour that both must have, so every
expectation in them is checked against the specification as well. Without PyTorch
the torch variant is not generated: it checks the test, not minitorch.

The hooks tell ``torch_answers`` which test is running (its answers are keyed by it)
and let it write the recordings at the end of a record run.

Under pytest-xdist each worker gets its share of the cores: minitorch, BLAS and PyTorch
run that many threads in the worker and in the programs it starts (``OMP_NUM_THREADS``).
Two workers each running BLAS on every core make OpenBLAS's threads spin against each
other: a 2-second test then takes over a minute. Results do not depend on the count.
"""
import importlib
import os

import pytest

import minitorch
import torch_answers


def _share_the_cores() -> None:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2 or "OMP_NUM_THREADS" in os.environ:
        return
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    threads = max(1, cores // workers)
    os.environ["OMP_NUM_THREADS"] = str(threads)
    minitorch.set_num_threads(threads)
    if torch_answers.torch is not None:
        torch_answers.torch.set_num_threads(threads)


_share_the_cores()

LIBS = ["minitorch"] + (["torch"] if torch_answers.torch is not None else [])


@pytest.fixture(params=LIBS)
def lib(request):
    return importlib.import_module(request.param)


def pytest_runtest_setup(item):
    torch_answers.SESSION.start(item.path, item.nodeid.split("::", 1)[1])


def pytest_sessionfinish(session):
    torch_answers.SESSION.save()
