"""benchmarks/run.py: FLOP counting, the table's arithmetic, the BLAS configurations, and the torch copy of
minitorch.models."""
import argparse
import ast
import importlib.metadata
import importlib.util
import json
import os
import pathlib
import re
import subprocess
import sys

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
def test_subprocesses_see_the_blas_variables_only_without_the_option_and_their_cores(monkeypatch, strip):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setenv("OPENBLAS_L2_SIZE", "512")
    seen = bench.launch(bench.sys.executable, ["--probe"], threads=1, strip=strip, pin=strip)
    # a pinned process runs on as many cores as it has threads, an unpinned one on all this one may use
    assert seen["cores"] == (1 if strip else len(os.sched_getaffinity(0)))
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


def test_thread_counts_one_or_several():
    assert bench.thread_counts("2") == [2] and bench.thread_counts("2,8") == [2, 8]
    for bad in ("0", "2,2", "2,x", "-1,4"):
        with pytest.raises((argparse.ArgumentTypeError, ValueError)):
            bench.thread_counts(bad)


def test_table_rows_over_several_thread_counts_add_the_speed_up(capsys):
    at2 = {"users": {"value": 400.0, "gflops": 25.0, "rss_mb": 100.0, "unit": "ms"},
           "torch": {"value": 120.0, "gflops": 80.0, "rss_mb": 400.0, "unit": "ms"}}
    at8 = {"users": {"value": 160.0, "gflops": 62.5, "rss_mb": 110.0, "unit": "ms"},
           "torch": {"value": 40.0, "gflops": 250.0, "rss_mb": 420.0, "unit": "ms"}}
    bench.print_row("W3", at2, peaks={"users": 100.0}, kernels={"users": "SkylakeX"}, header=True, scaling=(2, 2, at2))
    bench.print_row("W3", at8, peaks={"users": 400.0}, kernels={"users": "SkylakeX"}, header=False,
                    scaling=(8, 2, at2))
    header, rule, first, second = capsys.readouterr().out.splitlines()
    assert cells(header)[2:] == ["threads", "minitorch (SkylakeX)", "torch", "ratio", "GFLOP",
                                 "% of GEMM peak (mt / torch)", "peak RSS MB (mt / torch)",
                                 "speed-up from 2 threads (mt / torch)"]
    assert len(cells(rule)) == len(cells(first)) == len(cells(second)) == 10
    # 400 -> 160 ms is 2.5x, torch's 120 -> 40 ms 3x; each row's shares are of its own thread count's GEMM peak
    assert cells(first)[2:] == ["2", "400.00 ms", "120.00 ms", "3.33", "10.0", "25% / 80%", "100 / 400", "-"]
    assert cells(second)[2:] == ["8", "160.00 ms", "40.00 ms", "4.00", "10.0", "16% / 62%", "110 / 420",
                                 "2.50x / 3.00x"]


def test_driver_alternates_libraries_and_thread_counts_and_writes_json_per_workload(monkeypatch, tmp_path, capsys):
    calls = []

    def fake_launch(python, args, threads, strip, pin=False):
        calls.append((args[-1] if args[0] == "--worker" else "probe", args[1] if len(args) > 1 else None, threads, pin))
        if args == ["--probe"]:
            return {"env": {}, "blas": [], "peak": 10.0 * threads, "cores": threads}
        lib = args[1]
        return {"value": (300.0 if lib == "minitorch" else 100.0) / threads ** (0.5 if lib == "minitorch" else 1),
                "unit": "ms", "gflops": 1.0, "rss_mb": 50.0}

    monkeypatch.setattr(bench, "launch", fake_launch)
    for var in bench.BLAS_VARS:
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "bench.json"
    results = bench.main(["--threads", "2,8", "--only", "W2,W3", "--repeats", "2", "--pin-cores",
                          "--torch-python", "python-with-torch", "--json", str(out)])
    assert calls[:2] == [("probe", None, 2, True), ("probe", None, 8, True)]
    per_workload = [("W2", "minitorch", 2, True), ("W2", "torch", 2, True), ("W2", "minitorch", 8, True),
                    ("W2", "torch", 8, True)] * 2
    assert calls[2:] == per_workload + [("W3",) + c[1:] for c in per_workload]
    assert results[8]["W3"]["users"]["value"] == pytest.approx(300 / 8 ** 0.5) and results[8]["W3"]["torch"]["value"] == 12.5
    table = capsys.readouterr().out
    # minitorch 300/sqrt(2) -> 300/sqrt(8) ms is 2x from 2 to 8 threads, torch 50 -> 12.5 ms 4x
    assert "| W3 | " in table and table.count("| 2.00x / 4.00x |") == 2
    saved = json.loads(out.read_text())
    assert saved["threads"] == [2, 8] and saved["machine"]["8"]["users"]["peak"] == 80.0
    assert saved["results"]["2"]["W2"]["torch"]["value"] == 50.0


def _imported_modules(source: str, module_level_only: bool) -> set[str]:
    """The top-level names of the absolute imports in ``source``: at module level only, or anywhere."""
    tree = ast.parse(source)
    nodes = tree.body if module_level_only else ast.walk(tree)
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_the_torch_side_imports_only_torch_numpy_and_the_standard_library():
    """What a worker for torch runs, as source: run.py and char_lm.py at import (their minitorch functions never
    run there), and every import of the torch copy of the models with its presets."""
    in_torch = sys.modules["models_in_torch"]  # imported by run.py
    whole = [bench.to_torch(path.read_text()) for path in sorted(in_torch.MODELS.rglob("*.py"))]
    whole += [path.read_text() for path in (pathlib.Path(in_torch.__file__), in_torch.PRESETS, in_torch.INTERPOLATION)]
    at_import = [(ROOT / "benchmarks" / "run.py").read_text(),
                 bench.to_torch((ROOT / "examples" / "char_lm.py").read_text())]
    allowed = set(sys.stdlib_module_names) | {"torch", "numpy", "torch_models", "torchvision", "models_in_torch"}
    imported = set().union(*(_imported_modules(s, False) for s in whole),
                           *(_imported_modules(s, True) for s in at_import))
    assert "torch" in imported and imported <= allowed, imported - allowed
    # the check can fail: the models as written for minitorch import minitorch and its datasets
    assert {"minitorch"} <= _imported_modules((ROOT / "models" / "_api.py").read_text(), False) - allowed


def _side_virtualenv(path: pathlib.Path) -> pathlib.Path:
    """A virtualenv holding only torch, numpy and the packages torch requires, linked from this Python's (the
    README's side virtualenv, built without downloading anything); its Python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    python = path / "bin" / "python"
    site = pathlib.Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                       capture_output=True, text=True, check=True).stdout.strip())
    todo, seen, tops = ["torch", "numpy"], set(), set()
    while todo:
        dist = importlib.metadata.distribution(todo.pop())
        if dist.name.lower() in seen:
            continue
        seen.add(dist.name.lower())
        todo += [re.split(r"[ ;<>=!~\[]", r)[0] for r in dist.requires or [] if "extra ==" not in r]
        tops |= {f.parts[0] for f in dist.files or [] if f.parts[0] != ".." and ".dist-info" not in f.parts[0]
                 and not f.parts[0].endswith(".pth")}
    for top in tops:
        source = pathlib.Path(dist.locate_file(top))
        if source.exists():
            (site / top).symlink_to(source)
    return python


def _torch_only_python(tmp_path: pathlib.Path) -> pathlib.Path:
    """The README's side virtualenv: the Python named by ``MINITORCH_TORCH_ONLY_PYTHON``, else one built from this
    Python's torch; skips where neither exists."""
    given = os.environ.get("MINITORCH_TORCH_ONLY_PYTHON")
    if given:
        return pathlib.Path(given)
    pytest.importorskip("torch", reason="no Python with torch: set MINITORCH_TORCH_ONLY_PYTHON to a virtualenv "
                                        "with only torch and numpy")
    return _side_virtualenv(tmp_path / "torchenv")


@pytest.mark.slow
def test_the_torch_side_runs_in_a_side_virtualenv_with_only_torch_and_numpy(tmp_path):
    python = _torch_only_python(tmp_path)
    check = subprocess.run([python, "-c", "import numpy, torch; import minitorch"], cwd=tmp_path, capture_output=True,
                           text=True)
    assert "No module named 'minitorch'" in check.stderr  # the virtualenv sees torch and numpy, not minitorch
    # R3 builds resnet18 from the torch copy of minitorch.models (W3-W6's route), W2 trains an MLP
    for workload, unit in (("R3", "ms"), ("W2", "ms")):
        report = bench.launch(str(python), ["--worker", "torch", workload], threads=1, strip=False)
        assert report["unit"] == unit and report["value"] > 0
    # W7 and W8 run examples/char_lm.py rewritten for torch: its GPT's forward on a few tokens
    gpt = ("import runpy, torch; m = runpy.run_path('benchmarks/run.py')['load_char_lm']('torch');"
           "print(tuple(m.GPT(65, block_size=8, layers=1, heads=2, width=16)(torch.zeros(2, 8, dtype=torch.long)).shape))")
    out = subprocess.run([python, "-c", gpt], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "(2, 8, 65)", out.stderr[-2000:]
