"""torchvision's classic families in minitorch.models against torchvision's recorded answers
(tests/fixtures/zoo/*.json.gz, from tests/fixtures/make_zoo_fixtures.py): every builder's module tree, state_dict
keys, shapes, dtypes and parameter count, its warnings, signature and weights enum; the classes' signatures; errors;
and forward/backward numbers and initialisation of small models with deterministic weights (tests/models/
zoo_classic_cases.py says which)."""
import contextlib
import hashlib
import json
import pathlib
import warnings

import pytest

import minitorch
import minitorch.models as models
from minitorch.models._api import IMAGENET_CATEGORIES
from zoo_classic_cases import FAMILIES
from zoo_record import outcome, resolve, run_case, signature, structure, weights_record
from zoo_support import assert_close_record, cheap_parameters, load_fixture, skipped_init

FIXTURES = {family: load_fixture(family) for family in FAMILIES}
BUILDERS = [(family, name) for family, spec in FAMILIES.items() for name in spec.builders]
CASES = [(family, name) for family, spec in FAMILIES.items() for name in spec.cases]


@pytest.mark.parametrize("family,name", BUILDERS, ids=[name for _, name in BUILDERS])
def test_builder_structure_warnings_and_signature(family, name):
    expected = FIXTURES[family]["builders"][name]
    with warnings.catch_warnings(record=True) as caught, cheap_parameters():
        warnings.simplefilter("always")
        model = models.get_model(name)
    assert [[w.category.__name__, str(w.message)] for w in caught] == expected["warnings"]
    actual = structure(model)
    assert actual["num_params"] == expected["num_params"]
    assert actual["state"] == expected["state"]
    assert actual["modules"] == expected["modules"]
    assert signature(getattr(models, name)) == expected["signature"]


@pytest.mark.parametrize("family,name", BUILDERS, ids=[name for _, name in BUILDERS])
def test_weights_enum(family, name):
    weights = models.get_model_weights(name)
    # exact, but NaN (the metrics of vgg16's feature weights) equals NaN
    assert_close_record(weights_record(weights, IMAGENET_CATEGORIES), FIXTURES[family]["builders"][name]["weights"],
                        name, rtol=1e-15)
    assert models.get_model_weights(getattr(models, name)) is weights is getattr(models, weights.__name__)
    for member in weights:
        assert models.get_weight(f"{weights.__name__}.{member.name}") is member


def test_imagenet_categories_and_registry():
    digest = hashlib.sha256(json.dumps(IMAGENET_CATEGORIES).encode()).hexdigest()
    assert {fixture["imagenet_categories_sha256"] for fixture in FIXTURES.values()} == {digest}
    assert {name for _, name in BUILDERS} <= set(models.list_models())
    assert models.get_model_weights("VGG16") is models.VGG16_Weights
    assert models.VGG16_Weights.verify("IMAGENET1K_FEATURES") is models.VGG16_Weights.IMAGENET1K_FEATURES


@pytest.mark.parametrize("family", FAMILIES)
def test_signatures(family):
    for path, expected in FIXTURES[family]["signatures"].items():
        assert signature(resolve(models, path)) == expected, path


@pytest.mark.parametrize("family", FAMILIES)
def test_outcomes(family):
    for name, call in FAMILIES[family].outcomes.items():
        with skipped_init():  # the calls look at structure, or at values they set themselves
            assert outcome(models, minitorch.nn, call) == FIXTURES[family]["outcomes"][name], name


@pytest.mark.parametrize("family,case", CASES, ids=[case for _, case in CASES])
def test_forward_backward_and_initialisation(family, case):
    spec = FAMILIES[family].cases[case]
    # a case that does not check the initialisation skips it (AlexNet's and VGG's classifiers before narrowing)
    actual = run_case(minitorch, models, spec, contextlib.nullcontext if spec.init else skipped_init)
    assert_close_record(actual, FIXTURES[family]["cases"][case], case)


def test_readme_models_table():
    """The README's models table has a row for every builder with torchvision's weights: its parameter count, the
    default weights' file size and the ImageNet entries."""
    readme = (pathlib.Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in readme.splitlines() if line.startswith("| ")}
    assert rows["model"] == "| model | parameters | size (MB) | weights |"
    builders = [n for n in models.list_models() if models.get_model_weights(n).DEFAULT.url is not None]
    assert len(builders) == 80
    for name in builders:
        weights = models.get_model_weights(name)
        entries = [m.name + (" (default)" if m is weights.DEFAULT else "") for m in weights if m.url is not None]
        meta = weights.DEFAULT.meta
        assert rows[name] == f"| {name} | {meta['num_params']:,} | {meta['_file_size']} | {', '.join(entries)} |"
