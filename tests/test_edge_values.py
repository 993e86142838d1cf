"""NaN, inf, -inf, signed zeros and boundary points as PyTorch: values and gradients of every registered
differentiable op (tests/edge_value_cases.py builds the cases from the registry samples and ``EDGES``), against
PyTorch's answers recorded in tests/fixtures/edge_values.json by tests/fixtures/make_edge_value_fixtures.py."""
import json

import pytest

import minitorch as mt
import test_registry as registry
from edge_value_cases import FIXTURE, cases, differences, digest, run

RECORDED = json.loads(FIXTURE.read_text())["cases"]

# Differences kept on purpose: case key -> why.
KEPT = {}

OPS = [name for name in registry.DIFFERENTIABLE if registry._case(name) is not None]


def _mismatches(name):
    """(key, problems) for each case of ``name`` that differs from PyTorch's recorded answer."""
    out = []
    for key, fn, inputs in cases(name):
        recorded = RECORDED.get(key)
        assert recorded is not None and recorded["inputs"] == digest(inputs), (
            f"{key}: no PyTorch answer for these inputs; run tests/fixtures/make_edge_value_fixtures.py")
        if "crash" in recorded:
            continue
        mine = run(mt, fn, inputs)
        problems = differences(recorded, mine)
        if problems and "scalar_path" in recorded and not differences(recorded["scalar_path"], mine):
            continue  # torch's two kernels disagree here: minitorch gives its scalar kernel's answer
        if problems:
            out.append((key, problems))
    return out


@pytest.mark.parametrize("name", OPS)
def test_edge_values_match_pytorch(name):
    found = dict(_mismatches(name))
    unexpected = {k: p for k, p in found.items() if k not in KEPT}
    assert not unexpected, "\n".join(f"{k}: {'; '.join(p)}" for k, p in unexpected.items())
    stale = [k for k in KEPT if k.split("/")[0] == name and k not in found]
    assert not stale, f"{stale} match PyTorch now: remove them from KEPT"
