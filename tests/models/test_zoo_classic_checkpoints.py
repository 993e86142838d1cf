"""PyTorch checkpoints of the classic families, where torch is installed: a state_dict saved by torch.save loads
into the minitorch model with strict=True, and minitorch.save gives it back to torch.load bit for bit, with its
metadata (the modules' versions).

Per family: its smallest builder with the keys, shapes and dtypes torchvision recorded (tests/fixtures/zoo), or,
where every builder is big for the suite (AlexNet, VGG, DenseNet, GoogLeNet with its auxiliary classifiers, Inception
v3, the ResNets), the model of its first case in tests/models/zoo_classic_cases.py.
"""
from collections import OrderedDict

import pytest

import minitorch
import minitorch.models as models
from zoo_classic_cases import FAMILIES
from zoo_record import deterministic, dtype_name
from zoo_support import load_fixture, skipped_init

SMALL_BUILDERS = {"squeezenet": "squeezenet1_1", "shufflenetv2": "shufflenet_v2_x0_5", "mnasnet": "mnasnet0_5"}


def _recorded_state(name, family):
    """``key -> (shape, dtype)`` of torchvision's state_dict of builder ``name``, as the fixture has it."""
    state = OrderedDict()
    for line in load_fixture(family)["builders"][name]["state"]:
        key, shape, *dtype = line.split("|")
        state[key] = (tuple(int(n) for n in shape.split(",") if n), dtype[0] if dtype else "float32")
    return state


def _model_and_state(family):
    if family in SMALL_BUILDERS:
        with skipped_init():
            model = models.get_model(SMALL_BUILDERS[family])
        return model, _recorded_state(SMALL_BUILDERS[family], family)
    with skipped_init():
        model = next(iter(FAMILIES[family].cases.values())).build(models, minitorch.nn)
    return model, OrderedDict((k, (tuple(v.shape), dtype_name(v.dtype))) for k, v in model.state_dict().items())


@pytest.mark.parametrize("family", FAMILIES)
def test_pytorch_checkpoint_round_trip(family, tmp_path):
    torch = pytest.importorskip("torch")
    model, recorded = _model_and_state(family)
    theirs = OrderedDict((k, torch.from_numpy(deterministic(k, shape, dtype))) for k, (shape, dtype) in recorded.items())
    # torch.save keeps a state_dict's metadata: each module's version, as torch's modules would write it
    theirs._metadata = OrderedDict((k, dict(v)) for k, v in model.state_dict()._metadata.items())
    torch.save(theirs, tmp_path / "theirs.pt")
    loaded = minitorch.load(tmp_path / "theirs.pt")
    assert loaded._metadata == theirs._metadata
    model.load_state_dict(loaded, strict=True)
    minitorch.save(model.state_dict(), tmp_path / "ours.pt")
    back = torch.load(tmp_path / "ours.pt", weights_only=True)
    assert list(back) == list(theirs) and back._metadata == theirs._metadata
    for key, value in theirs.items():
        assert back[key].dtype == value.dtype and back[key].shape == value.shape, key
        assert back[key].numpy().tobytes() == value.numpy().tobytes(), key
