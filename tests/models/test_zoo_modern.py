"""torchvision's families mobilenetv3, efficientnet, regnet, convnext, vision_transformer, swin_transformer and
maxvit, and the layers of ``torchvision.ops`` (``minitorch.models.ops``), against torchvision's answers recorded
in tests/fixtures/zoo/<family>.json by tests/fixtures/zoo_modern.py (they run without torch and torchvision).

Every builder: the module tree (repr), the state_dict keys, shapes and dtypes, the parameter count, the weights
enum, the legacy ``pretrained`` warnings; built with ``shapes_only`` (no memory, no initialisation). Every family:
its public signatures and the errors of bad arguments. Small members: outputs in eval and train mode (stochastic
depth and dropout draws included), gradients and running statistics with deterministic weights, the seeded
initialisation, and a state_dict round trip with a PyTorch checkpoint where torch is installed.
"""
import functools
import importlib
import io
import json
import sys

import numpy as np
import pytest

import minitorch
import minitorch.models as models
from minitorch import nn
from minitorch.models import ops

import zoo_modern_cases as cases
from shapes_only import shapes_only
from locations import FIXTURES

ZOO = FIXTURES / "zoo"
BUILDERS = [(family, name) for family, names in cases.FAMILIES.items() for name in names]


@functools.cache
def record(name: str) -> dict:
    return json.loads((ZOO / f"{name}.json").read_text())


def same_text(ours: str, theirs: str) -> None:
    """Equal texts; else the first line that differs."""
    if ours != theirs:
        a, b = ours.splitlines(), theirs.splitlines()
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        pytest.fail(f"line {i}: minitorch {a[i] if i < len(a) else '<end>'!r} != torchvision "
                    f"{b[i] if i < len(b) else '<end>'!r} ({len(a)} vs {len(b)} lines)")


@pytest.mark.parametrize("family,name", BUILDERS)
def test_builder_has_torchvisions_tree_state_dict_and_parameter_count(family, name):
    expected = record(family)["builders"][name]
    with shapes_only():
        model = models.get_model(name)
    assert sum(p.numel() for p in model.parameters()) == expected["num_params"]
    same_text(cases.state_listing(model), cases.unpack(expected["state"]))
    same_text(repr(model), cases.unpack(expected["repr"]))
    builder = getattr(models, name)
    assert models.get_model_builder(name.upper()) is builder
    assert builder.__module__ == f"minitorch.models.{family}" and getattr(importlib.import_module(
        f"minitorch.models.{family}"), name) is builder


@pytest.mark.parametrize("family,name", BUILDERS)
def test_weights_enum_as_torchvision(family, name):
    expected = record(family)["builders"][name]["weights"]
    enum = models.get_model_weights(name)
    assert cases.weights_record(enum) == expected
    assert getattr(models, enum.__name__) is enum
    for member in expected["members"]:
        assert models.get_weight(f"{enum.__name__}.{member}") is enum[member]


@pytest.mark.parametrize("family", cases.FAMILIES)
def test_signatures_errors_and_legacy_warnings_as_torchvision(family):
    expected = record(family)
    module = importlib.import_module(f"minitorch.models.{family}")
    assert cases.signatures(module) == expected["signatures"]
    assert {name: cases.raised(call, models, minitorch) for name, call in cases.ERRORS[family].items()} == \
        expected["errors"]
    with shapes_only():
        assert {name: cases.legacy_warnings(models, name) for name in expected["legacy"]} == expected["legacy"]


def check_run(ours: dict, theirs: dict) -> None:
    for key, value in theirs.items():
        if key == "param_grads":
            assert [v is None for v in ours[key]] == [v is None for v in value]
            ours, theirs = dict(ours), dict(theirs)
            ours[key], value = [v for v in ours[key] if v is not None], [v for v in value if v is not None]
        scale = max([1.0, *np.abs(value).ravel()])
        np.testing.assert_allclose(ours[key], value, rtol=2e-4, atol=2e-5 * scale, err_msg=key)


@pytest.mark.parametrize("name", cases.SMALL)
def test_small_member_computes_as_torchvision(name):
    family, build, shape = cases.SMALL[name]
    expected = record(family)["small"][name]
    np.testing.assert_allclose(cases.init_sums(minitorch, build, models), expected["init"], rtol=1e-4, atol=1e-4)
    model = build(models)
    assert repr(model) == cases.unpack(expected["repr"])
    cases.load_formula(model, minitorch)
    check_run(cases.run(minitorch, model, shape), expected["run"])


@pytest.mark.parametrize("name", cases.SMALL)
def test_state_dict_round_trip_with_a_pytorch_checkpoint(name):
    """torch.save of the formula's state_dict -> minitorch.load -> load_state_dict(strict) -> minitorch.save ->
    torch.load: the same bits."""
    torch = pytest.importorskip("torch")
    model = cases.SMALL[name][1](models)
    theirs = {k: torch.from_numpy(np.array(v.numpy())) for k, v in model.state_dict().items()}
    theirs.update({k: torch.from_numpy(v) for k, v in cases.formula_state(model).items()})
    buffer = io.BytesIO()
    torch.save(theirs, buffer)
    buffer.seek(0)
    model.load_state_dict(minitorch.load(buffer), strict=True)
    buffer = io.BytesIO()
    minitorch.save(model.state_dict(), buffer)
    buffer.seek(0)
    back = torch.load(buffer)
    assert list(back) == list(theirs)
    for key, value in theirs.items():
        assert back[key].dtype == value.dtype and torch.equal(back[key], value), key


def test_vit_checkpoints_of_other_sizes_and_of_the_first_mlp_layout():
    expected = record("vision_transformer")["interpolated"]
    ours = cases.interpolated_embeddings(models, minitorch)
    assert ours["keys"] == expected["keys"]
    np.testing.assert_allclose(ours["pos_embedding"], expected["pos_embedding"], rtol=1e-5, atol=1e-6)
    # a state_dict without version metadata names the MLP's layers linear_1 and linear_2 (torchvision before 0.13)
    model = cases.SMALL["vit"][1](models)
    state = {k: v.clone() for k, v in model.state_dict().items()}
    old = {k.replace("mlp.0.", "mlp.linear_1.").replace("mlp.3.", "mlp.linear_2."): v * 2 for k, v in state.items()}
    assert "encoder.layers.encoder_layer_1.mlp.linear_2.bias" in old
    model.load_state_dict(old, strict=True)
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), state[key].numpy() * 2)


@pytest.mark.parametrize("name", cases.OPS_SMALL)
def test_ops_layer_computes_as_torchvision(name):
    build, shape = cases.OPS_SMALL[name]
    expected = record("ops")["small"][name]
    np.testing.assert_allclose(cases.init_sums(minitorch, lambda _: build(ops, nn), None), expected["init"],
                               rtol=1e-5, atol=1e-5)
    model = build(ops, nn)
    assert repr(model) == cases.unpack(expected["repr"])
    cases.load_formula(model, minitorch)
    check_run(cases.run(minitorch, model, shape), expected["run"])


def test_ops_names_signatures_and_errors_as_torchvision():
    expected = record("ops")
    assert set(ops.__all__) <= set(expected["all"])
    for module in ("misc", "stochastic_depth"):
        assert cases.signatures(importlib.import_module(f"minitorch.models.ops.{module}")) == \
            expected["signatures"][module]
    assert {name: cases.raised(call, ops, minitorch) for name, call in cases.OPS_ERRORS.items()} == \
        expected["errors"]
    # FrozenBatchNorm2d takes a BatchNorm2d's state_dict, num_batches_tracked dropped
    assert str(ops.FrozenBatchNorm2d(3).load_state_dict(nn.BatchNorm2d(3).state_dict())) == expected["frozen_load"]
    with pytest.warns(UserWarning, match="Don't use ConvNormActivation directly"):
        ops.misc.ConvNormActivation(3, 4)


def test_torchvision_ops_module_paths_under_the_alias():
    """What ``import torchvision.ops...`` gives under ``python -m minitorch`` (the alias is not installed here, as it
    would hide torch from the other tests)."""
    import minitorch.torchvision
    from minitorch import _torch_alias
    for path, module in [("torchvision.ops", "minitorch.models.ops"), ("torchvision.ops.misc", "minitorch.models.ops.misc"),
                         ("torchvision.ops.stochastic_depth", "minitorch.models.ops.stochastic_depth"),
                         ("torchvision.models.mobilenet", "minitorch.models.mobilenet")]:
        assert _torch_alias.target(path) == module and importlib.import_module(module)
    # as in torchvision, the package's stochastic_depth is the function, which hides its module
    assert ops.StochasticDepth is sys.modules["minitorch.models.ops.stochastic_depth"].StochasticDepth
    assert minitorch.torchvision.ops is ops and ops.stochastic_depth.__module__ == "minitorch.models.ops.stochastic_depth"
    assert models.mobilenet.mobilenet_v3_large is models.mobilenet_v3_large
