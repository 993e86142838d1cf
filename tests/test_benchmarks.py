"""benchmarks/run.py: FLOP counting, the table's arithmetic, the BLAS configurations, and the torch copy of
minitorch.models."""
import importlib.util
import json
import pathlib

import pytest
import threadpoolctl

import minitorch
import minitorch.models
from minitorch import nn
from torch_answers import torch_answer

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def test_count_flops_counts_convolutions_and_linear_layers():
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Flatten(), nn.Linear(8 * 8 * 8, 10))
    # conv: 2 x (8 x 8 x 8 outputs) x (3 x 3 x 3 taps); linear: 2 x 10 outputs x 512 inputs
    assert bench.count_flops(minitorch, model, minitorch.zeros(1, 3, 8, 8)) == 2 * 512 * 27 + 2 * 10 * 512


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.split("|")[1:-1]]


def test_table_row_both_configurations(capsys):
    result = {"users": {"value": 300.0, "gflops": 50.0, "rss_mb": 100.0, "unit": "ms"},
              "configured": {"value": 450.0, "gflops": 100 / 3, "rss_mb": 101.0, "unit": "ms"},
              "torch": {"value": 150.0, "gflops": 100.0, "rss_mb": 400.0, "unit": "ms"}}
    bench.print_row("W3", result, peaks={"users": 200.0, "configured": 100.0}, kernels={}, header=False)
    # 50 GFLOP/s for 0.3 s is 15 GFLOP per step; 50 of the users' 200 is 25%, 33.3 of the configured 100 is 33%,
    # torch's 100 is 50% of the users' peak
    assert cells(capsys.readouterr().out)[2:] == ["300.00 ms", "450.00 ms", "150.00 ms", "2.00", "3.00", "15.0",
                                                  "25% / 33% / 50%", "100 / 101 / 400"]


def test_table_header_names_the_kernels_users_first(capsys):
    result = {"configured": {"value": 2.0, "gflops": 0.0, "rss_mb": 70.0, "unit": "us/op"},
              "users": {"value": 1.0, "gflops": 0.0, "rss_mb": 70.0, "unit": "us/op"}}
    bench.print_row("W1", result, peaks={"users": 1.0, "configured": 1.0},
                    kernels={"users": "SkylakeX", "configured": "Haswell"}, header=True)
    header, rule, row = capsys.readouterr().out.splitlines()
    assert cells(header)[2:5] == ["minitorch, as users have it (SkylakeX)", "minitorch, as configured (Haswell)",
                                  "torch"]
    assert cells(header)[5:7] == ["ratio (users)", "ratio (configured)"]
    assert len(cells(header)) == len(cells(rule)) == len(cells(row)) == 10
    assert cells(row)[2:] == ["1.00 us/op", "2.00 us/op", "-", "-", "-", "-", "-", "70 / 70"]


def test_table_one_configuration_without_torch(capsys):
    result = {"configured": {"value": 300.0, "gflops": 50.0, "rss_mb": 100.0, "unit": "ms"}}
    bench.print_row("W3", result, peaks={"configured": 200.0}, kernels={"configured": "Haswell"}, header=True)
    header, rule, row = capsys.readouterr().out.splitlines()
    assert cells(header)[2:5] == ["minitorch (Haswell)", "torch", "ratio"]
    assert len(cells(header)) == len(cells(rule)) == len(cells(row)) == 8
    assert cells(row)[2:] == ["300.00 ms", "-", "-", "15.0", "25%", "100"]


def fake_threadpool_info():
    return [{"user_api": "blas", "internal_api": "openblas", "num_threads": 2, "version": "0.3.31",
             "architecture": "SkylakeX", "prefix": "libscipy_openblas", "threading_layer": "pthreads"},
            {"user_api": "openmp", "internal_api": "openmp", "num_threads": 2, "version": None}]


def test_blas_line_names_library_version_kernel_and_variables(monkeypatch):
    monkeypatch.setattr(threadpoolctl, "threadpool_info", fake_threadpool_info)
    blas = bench.blas_info()
    assert blas == [{"internal_api": "openblas", "version": "0.3.31", "architecture": "SkylakeX"}]
    forced = [dict(blas[0], architecture="Haswell")]
    machine = {"users": {"env": {"OPENBLAS_CORETYPE": None, "OPENBLAS_L2_SIZE": None}, "blas": blas, "peak": 420.4},
               "configured": {"env": {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"}, "blas": forced,
                              "peak": 226.0}}
    assert bench.blas_line(machine) == (
        "numpy's BLAS as users have it: openblas 0.3.31 kernel SkylakeX (neither variable set), float32 GEMM peak "
        "420 GFLOP/s; as configured: openblas 0.3.31 kernel Haswell (OPENBLAS_CORETYPE=Haswell, "
        "OPENBLAS_L2_SIZE=512), float32 GEMM peak 226 GFLOP/s")
    assert bench.describe_blas([]) == "no BLAS"


@pytest.mark.parametrize("strip", [True, False])
def test_subprocesses_see_the_blas_variables_only_without_the_option(monkeypatch, strip):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setenv("OPENBLAS_L2_SIZE", "512")
    seen = bench.launch(bench.sys.executable, ["--probe"], threads=1, strip=strip)
    expected = {"OPENBLAS_CORETYPE": None, "OPENBLAS_L2_SIZE": None} if strip else \
        {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_L2_SIZE": "512"}
    assert seen["env"] == expected
    assert seen["blas"] and seen["peak"] > 0


def test_plan_says_what_it_does_with_the_variables():
    both = bench.plan(["users", "configured"], "OPENBLAS_CORETYPE=Haswell", torch=True)
    assert "OPENBLAS_CORETYPE=Haswell removed" in both and "PyTorch runs once" in both
    assert "only as configured" in bench.plan(["configured"], "OPENBLAS_CORETYPE=Haswell", torch=False)
    assert "are not set" in bench.plan(["users"], "", torch=False)


def test_worker_prints_one_json_line(capsys):
    bench.main(["--worker", "minitorch", "W1", "--threads", "1"])
    report = json.loads(capsys.readouterr().out)
    assert report["unit"] == "us/op" and report["value"] > 0 and report["rss_mb"] > 10


def _state_dict_shapes(torch):
    theirs = bench.load_models("torch").cifar_resnet20(num_classes=10)
    assert isinstance(theirs, torch.nn.Module)
    return {k: tuple(v.shape) for k, v in theirs.state_dict().items()}


def test_models_rewritten_for_torch_have_the_same_state_dict():
    ours = minitorch.models.cifar_resnet20(num_classes=10)
    assert torch_answer(_state_dict_shapes) == {k: tuple(v.shape) for k, v in ours.state_dict().items()}
