"""Unmodified PyTorch scripts under ``python -m minitorch``, and the device layer a CPU framework
answers with (torch.cuda, backends, accelerator, mps, amp, distributed, onnx, nn.parallel).

The corpus scripts in tests/corpus run with ``import torch``; when PyTorch is installed they also
run on it, and the outputs must match (minitorch prints its own name in ``minitorch.Size``)."""
import subprocess
import sys

import numpy as np
import pytest

import minitorch
from corpus_runner import CORPUS, has_torchvision, run, torch
from printed_numbers import assert_same_printout


@pytest.fixture(scope="module")
def image_folder(tmp_path_factory):
    from PIL import Image
    root = tmp_path_factory.mktemp("images")
    for c in ("cat", "dog"):
        (root / c).mkdir()
        for i in range(2):
            Image.fromarray(np.full((4, 4), 50 * i, np.uint8)).save(root / c / f"{i}.png")
    return root


def test_device_boilerplate_runs_unmodified():
    out = run([CORPUS / "device_boilerplate.py"])
    assert "device: cpu\ndevice: cpu\ndevice: cpu\nuse_cuda: False use_mps: False gpus: 0\n" in out
    assert "loss 3.2500 scale 1.0\nloss 3.2400 scale 1.0\nweight: [[1.440000057220459, 1.5]]\n" in out
    if torch is not None:
        assert_same_printout(out, run([CORPUS / "device_boilerplate.py"], minitorch_runner=False))


def test_torchvision_imports_resolve_to_minitorch(image_folder):
    out = run([CORPUS / "torchvision_imports.py", image_folder])
    assert "classes: ['cat', 'dog'] batches: 2\n" in out and "same classes: True True True" in out
    if torch is not None and has_torchvision():
        assert_same_printout(out, run([CORPUS / "torchvision_imports.py", image_folder], minitorch_runner=False))



def test_the_runner_passes_arguments_and_runs_modules(tmp_path):
    script = tmp_path / "show.py"
    script.write_text("import sys, torch, torch.nn\nprint(sys.argv, torch.nn.Linear.__module__)\n")
    assert run([script, "a", "--b"]) == f"['{script}', 'a', '--b'] torch.nn.modules.linear\n"
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "main.py").write_text("import torch\nprint(torch.ones(2).sum().item())\n")
    out = subprocess.run([sys.executable, "-m", "minitorch", "-m", "pkg.main"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=60)
    assert out.stdout == "2.0\n", out.stderr
    usage = subprocess.run([sys.executable, "-m", "minitorch"], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "usage: python -m minitorch script.py" in usage.stderr


def test_torch_names_are_the_minitorch_objects():
    code = ("import torch, torch.nn as nn, torch.utils.data as data, minitorch\n"
            "from torch.nn import functional as F\n"
            "print(nn.Linear is minitorch.nn.Linear, F is minitorch.nn.functional, data.DataLoader is "
            "minitorch.utils.data.DataLoader, isinstance(torch.ones(1), minitorch.Tensor))\n")
    out = subprocess.run([sys.executable, "-m", "minitorch", "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "usage" in out.stderr  # -c is not an option of the runner
    runner = subprocess.run([sys.executable, "-c", "from minitorch._torch_alias import install; install()\n" + code],
                            capture_output=True, text=True, timeout=60)
    assert runner.stdout == "True True True True\n", runner.stderr


@pytest.mark.parametrize("expr, value", [
    ("cuda.is_available()", False), ("cuda.device_count()", 0), ("cuda.is_initialized()", False),
    ("cuda.is_bf16_supported()", False), ("cuda.memory_allocated()", 0), ("cuda.manual_seed_all(0)", None),
    ("backends.mps.is_available()", False), ("backends.mps.is_built()", False), ("backends.cuda.is_built()", False),
    ("backends.cudnn.is_available()", False), ("backends.cudnn.enabled", True), ("backends.cudnn.version()", None),
    ("accelerator.is_available()", False), ("accelerator.current_accelerator()", None),
    ("accelerator.device_count()", 0), ("mps.is_available()", False), ("xpu.is_available()", False),
    ("version.cuda", None), ("get_float32_matmul_precision()", "highest"), ("ones(1).is_xpu", False),
    ("ones(1).is_mps", False), ("distributed.is_initialized()", False),
])
def test_the_device_layer_answers_as_a_cpu_only_pytorch(expr, value):
    assert eval("lib." + expr, {"lib": minitorch}) == value
    if torch is not None:
        assert eval("lib." + expr, {"lib": torch}) == value


@pytest.mark.parametrize("expr", ["cuda.current_device()", "cuda.get_device_name()", "cuda.synchronize()",
                                  "cuda.get_device_properties(0)", "ones(2).to('cuda')", "ones(2).cuda()",
                                  "cuda.get_rng_state()"])
def test_device_calls_raise_torch_error(expr):
    with pytest.raises(AssertionError, match="^Torch not compiled with CUDA enabled$"):
        eval("lib." + expr, {"lib": minitorch})


def test_distributed_and_onnx_import_and_say_why_they_cannot_run():
    dist = minitorch.distributed
    assert dist.is_available() is False
    with pytest.raises(RuntimeError, match=r"minitorch runs in one process: torch.distributed.init_process_group"):
        dist.init_process_group("gloo")
    with pytest.raises(RuntimeError, match="DistributedDataParallel"):
        minitorch.nn.parallel.DistributedDataParallel(minitorch.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match="cannot export ONNX"):
        minitorch.onnx.export(minitorch.nn.Linear(2, 2), minitorch.ones(1, 2), "m.onnx")


def test_data_parallel_on_cpu_passes_through():
    model = minitorch.nn.Linear(2, 3)
    wrapped = minitorch.nn.DataParallel(model)
    x = minitorch.ones(4, 2)
    assert wrapped.module is model and np.array_equal(wrapped(x).detach().numpy(), model(x).detach().numpy())
    assert list(wrapped.state_dict()) == ["module.weight", "module.bias"]


def test_compile_returns_the_model_and_works_as_a_decorator():
    model = minitorch.nn.Linear(2, 2)
    assert minitorch.compile(model) is model

    @minitorch.compile(mode="reduce-overhead")
    def f(x):
        return x * 2
    assert f(minitorch.ones(1)).item() == 2.0


def test_cuda_autocast_and_scaler_warn_and_run_disabled():
    with pytest.warns(UserWarning, match="CUDA is not available or torch_xla is imported. Disabling autocast."):
        ctx = minitorch.autocast("cuda")
    with ctx:
        assert minitorch.ones(2).dtype is minitorch.float32
    with pytest.warns(UserWarning, match="GradScaler is enabled, but CUDA is not available.  Disabling."):
        scaler = minitorch.amp.GradScaler("cuda")
    assert scaler.get_scale() == 1.0 and scaler.state_dict() == {} and not scaler.is_enabled()
    with pytest.warns(FutureWarning, match=r"torch.cuda.amp.GradScaler\(args...\)` is deprecated"):
        with pytest.warns(UserWarning):
            minitorch.cuda.amp.GradScaler()


@pytest.mark.parametrize("lib", [minitorch] + ([torch] if torch is not None else []))
def test_cpu_grad_scaler_scales_skips_infs_and_adapts(lib):
    p = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
    opt = lib.optim.SGD([p], lr=0.1)
    scaler = lib.amp.GradScaler("cpu", init_scale=8.0, growth_interval=2)
    trace = []
    for bad in (False, True, False, False):
        opt.zero_grad()
        loss = (p * p).sum() * (float("inf") if bad else 1.0)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        trace.append((scaler.get_scale(), [round(v, 6) for v in p.detach().tolist()]))
    # a clean step: p -= 0.1 * 2p; the inf step is skipped and halves the scale; 2 clean steps double it
    assert trace == [(8.0, [0.8, 1.6]), (4.0, [0.8, 1.6]), (4.0, [0.64, 1.28]), (8.0, [0.512, 1.024])]
    assert scaler.state_dict() == {"scale": 8.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2,
                                   "_growth_tracker": 0}
    opt.zero_grad()
    scaler.scale((p * p).sum()).backward()
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match=r"^unscale_\(\) has already been called on this optimizer since the "
                                           r"last update\(\).$"):
        scaler.unscale_(opt)
