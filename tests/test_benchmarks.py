"""benchmarks/run.py: FLOP counting, the table's arithmetic, and the torch copy of minitorch.models."""
import importlib.util
import json
import pathlib

import pytest

import minitorch
import minitorch.models
from minitorch import nn

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_count_flops_counts_convolutions_and_linear_layers():
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Flatten(), nn.Linear(8 * 8 * 8, 10))
    # conv: 2 x (8 x 8 x 8 outputs) x (3 x 3 x 3 taps); linear: 2 x 10 outputs x 512 inputs
    assert bench.count_flops(minitorch, model, minitorch.zeros(1, 3, 8, 8)) == 2 * 512 * 27 + 2 * 10 * 512


def test_table_row(capsys):
    result = {"minitorch": {"value": 300.0, "gflops": 50.0, "rss_mb": 100.0, "unit": "ms"},
              "torch": {"value": 150.0, "gflops": 100.0, "rss_mb": 400.0, "unit": "ms"}}
    bench.print_row("W3", result, peak=200.0, header=False)
    cells = [c.strip() for c in capsys.readouterr().out.split("|")[1:-1]]
    # 50 GFLOP/s for 0.3 s is 15 GFLOP per step; 50 and 100 GFLOP/s are 25% and 50% of the peak
    assert cells[2:] == ["300.00 ms", "150.00 ms", "2.00", "15.0", "25% / 50%", "100 / 400"]


def test_worker_prints_one_json_line(capsys):
    bench.main(["--worker", "minitorch", "W1", "--threads", "1"])
    report = json.loads(capsys.readouterr().out)
    assert report["unit"] == "us/op" and report["value"] > 0 and report["rss_mb"] > 10


def test_models_rewritten_for_torch_have_the_same_state_dict():
    torch = pytest.importorskip("torch")
    torch_models = bench.load_models("torch")
    theirs, ours = torch_models.cifar_resnet20(num_classes=10), minitorch.models.cifar_resnet20(num_classes=10)
    assert isinstance(theirs, torch.nn.Module)
    assert {k: tuple(v.shape) for k, v in theirs.state_dict().items()} == \
        {k: tuple(v.shape) for k, v in ours.state_dict().items()}
