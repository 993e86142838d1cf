"""Benchmarks: the same workloads on minitorch and on PyTorch, side by side.

    python benchmarks/run.py                       # torch from this Python, if importable
    python benchmarks/run.py --torch-python /path/to/venv/bin/python
    python benchmarks/run.py --only W1,W3 --repeats 5
    python benchmarks/run.py --no-users-blas       # minitorch only as the environment is
    python benchmarks/run.py --threads 2,8 --pin-cores   # both counts, and each library's speed-up from 2 to 8

Each measurement runs in a fresh process, alternating minitorch and torch (A B A B ...),
with the same number of threads for both; the table shows medians over the repeats,
the minitorch/torch ratio, the peak RSS of each process, and the fraction of the
float32 GEMM peak (measured with numpy) that each workload reaches. Several thread counts (``--threads 2,8``)
alternate within each repeat too, and add each library's speed-up from the first count to the others.
``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` pin numpy's OpenBLAS to a kernel chosen by whoever set them;
a user's machine lets OpenBLAS pick its own. By default minitorch is measured both with them removed from its
subprocesses ("as users have it") and as the environment is; PyTorch uses its own BLAS and runs once.
The workloads' code is written once against a ``torch``-like module; the models are
``minitorch.models`` and, for W7 and W8, those of ``examples/char_lm.py`` (on torch: the same source
with ``minitorch`` replaced by ``torch``).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from models_in_torch import to_torch, torch_models  # noqa: E402

WORKLOADS = {
    "W1": "autograd overhead: 2000 elementwise ops on 16 elements, fwd+bwd (us/op)",
    "W2": "MLP 784-512-256-10, batch 128, SGD momentum (ms/step)",
    "W3": "CIFAR ResNet-20, batch 64 of 3x32x32, SGD momentum (ms/step)",
    "W4f": "resnet18 frozen but fc, batch 4 of 3x224x224 (ms/step)",
    "W4": "resnet18 all trained, batch 4 of 3x224x224 (ms/step)",
    "W5f": "mobilenet_v2 frozen but classifier[1], batch 4 of 3x224x224 (ms/step)",
    "W5": "mobilenet_v2 all trained, batch 4 of 3x224x224 (ms/step)",
    "W6": "resnet18 eval under no_grad, batch 16 of 3x224x224 (ms/batch)",
    "W7": "2-layer LSTM LM, embedding 256, hidden 512, vocabulary 10k, batch 32 x 64 tokens, SGD (ms/step)",
    "W8": "nanoGPT 6 layers, 6 heads, 384 wide, vocabulary 65, batch 8 x 256 tokens, AdamW (ms/step)",
    "R1": "randn(10**6), float32 (ms)",
    "R2": "dropout(p=0.5) of a 128 x 4096 batch in training, float32 (ms)",
    "R3": "build resnet18 with its initialisation (ms)",
}
BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
CONFIGS = {"users": "as users have it", "configured": "as configured"}


# ---- running one workload (inside a worker process) ---------------------------------------------------------
def load_models(name: str):
    """``minitorch.models``, or for torch the same source with ``minitorch`` replaced by ``torch``."""
    if name == "minitorch":
        import minitorch.models
        return minitorch.models
    return torch_models()


def load_char_lm(lib: str) -> types.ModuleType:
    """``examples/char_lm.py`` as a module; for torch, its source with ``minitorch`` replaced by ``torch``."""
    path = ROOT / "examples" / "char_lm.py"
    source = path.read_text()
    module = types.ModuleType(f"char_lm_{lib}")
    exec(compile(to_torch(source) if lib == "torch" else source, str(path), "exec"), module.__dict__)
    return module


def count_flops(torch, model, x) -> float:
    """Multiply-adds x 2 of one forward pass through the model's convolutions, linear and LSTM layers."""
    total = [0]

    def hook(module, args, out):
        if isinstance(module, torch.nn.Conv2d):
            k = module.weight.shape[1] * module.weight.shape[2] * module.weight.shape[3]
            total[0] += 2 * out.numel() * k
        elif isinstance(module, torch.nn.Linear):
            total[0] += 2 * out.numel() * module.in_features
        elif isinstance(module, torch.nn.LSTM):  # the four gates' input and recurrent matmuls, per token
            tokens = out[0].numel() // (module.hidden_size * (2 if module.bidirectional else 1))
            total[0] += sum(2 * tokens * w.shape[0] * w.shape[1] for name, w in module.named_parameters()
                            if name.startswith("weight_"))
    handles = [m.register_forward_hook(hook) for m in model.modules()
               if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear, torch.nn.LSTM))]
    with torch.no_grad():
        model(x)
    for h in handles:
        h.remove()
    return float(total[0])


def build(workload: str, torch, models):
    """``(step, units, flops_per_step)``: one step of the workload, how to report it, its FLOPs."""
    nn, F = torch.nn, torch.nn.functional
    torch.manual_seed(0)
    if workload == "W1":
        x0, w, b = (torch.randn(16, requires_grad=True) for _ in range(3))

        def step():
            y = x0
            for _ in range(400):
                y = (((y * w) + b).tanh() * 0.5).exp()
            y.sum().backward()
        return step, ("us/op", 1e6 / 2000), 0.0

    def train_step(model, x, y, params, lr=0.01):
        opt = torch.optim.SGD(params, lr=lr, momentum=0.9)

        def step():
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        return step

    if workload == "W2":
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
        x, y = torch.randn(128, 784), torch.randint(0, 10, (128,))
        return train_step(model, x, y, model.parameters()), ("ms", 1e3), 3 * count_flops(torch, model, x)
    if workload == "W3":
        model = models.cifar_resnet20(num_classes=10)
        x, y = torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,))
        return train_step(model, x, y, model.parameters()), ("ms", 1e3), 3 * count_flops(torch, model, x)
    if workload in ("W4", "W4f", "W5", "W5f"):
        frozen = workload.endswith("f")
        if workload.startswith("W4"):
            model = models.resnet18()
            head_in, classes = 512, 10
        else:
            model = models.mobilenet_v2()
            head_in, classes = 1280, 2
        if frozen:
            model.requires_grad_(False)
        head = nn.Linear(head_in, classes)
        if workload.startswith("W4"):
            model.fc = head
        else:
            model.classifier[1] = head
        x, y = torch.rand(4, 3, 224, 224), torch.randint(0, classes, (4,))
        flops = count_flops(torch, model, x) * (1 if frozen else 3)
        return train_step(model, x, y, model.parameters()), ("ms", 1e3), flops
    if workload == "W6":
        model = models.resnet18().eval()
        x = torch.rand(16, 3, 224, 224)

        def step():
            with torch.no_grad():
                model(x)
        return step, ("ms", 1e3), count_flops(torch, model, x)
    if workload in ("W7", "W8"):
        char_lm = load_char_lm(torch.__name__)
        if workload == "W7":
            model = char_lm.LSTMLM(10_000, embed=256, hidden=512, layers=2)
            x, y = torch.randint(0, 10_000, (32, 64)), torch.randint(0, 10_000, (32, 64))
            opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            attention = 0
        else:
            model = char_lm.GPT(65, block_size=256, layers=6, heads=6, width=384)
            x, y = torch.randint(0, 65, (8, 256)), torch.randint(0, 65, (8, 256))
            opt = torch.optim.AdamW(model.parameters(), lr=6e-4, weight_decay=0.1)
            attention = 6 * 2 * (2 * 8 * 256 * 256 * 384)  # q @ k^T and weights @ v of 6 layers, unmasked

        def step():
            opt.zero_grad()
            char_lm.lm_loss(model, x, y).backward()
            opt.step()
        return step, ("ms", 1e3), 3 * (count_flops(torch, model, x) + attention)
    if workload == "R1":
        return (lambda: torch.randn(10 ** 6)), ("ms", 1e3), 0.0
    if workload == "R2":
        x = torch.randn(128, 4096)
        return (lambda: F.dropout(x, 0.5, training=True)), ("ms", 1e3), 0.0
    if workload == "R3":
        return models.resnet18, ("ms", 1e3), 0.0
    raise ValueError(workload)


def worker(lib: str, workload: str, threads: int, steps: int) -> dict:
    import resource
    if lib == "torch":
        import torch
    else:
        import minitorch as torch
    torch.set_num_threads(threads)
    step, (unit, scale), flops = build(workload, torch, load_models(lib))
    step()  # warm-up
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    return {"value": median * scale, "unit": unit, "gflops": flops / median / 1e9 if flops else 0.0,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def gemm_peak(threads: int) -> float:
    """float32 GFLOP/s of a 2048x2048 numpy matmul (the machine's practical peak)."""
    import numpy as np
    import minitorch
    minitorch.set_num_threads(threads)
    a = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
    best = min(_timed(lambda: a @ a) for _ in range(5))
    return 2 * 2048 ** 3 / best / 1e9


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


# ---- the driver ------------------------------------------------------------------------------------------
STEPS = {"W1": 5, "W2": 20, "W3": 5, "W4f": 5, "W4": 3, "W5f": 5, "W5": 3, "W6": 3, "W7": 3, "W8": 2,
         "R1": 15, "R2": 15, "R3": 3}


def worker_env(threads: int, strip: bool) -> dict:
    """The environment of a benchmark subprocess; ``strip`` removes ``BLAS_VARS`` ("as users have it")."""
    env = {k: v for k, v in os.environ.items() if not (strip and k in BLAS_VARS)}
    return env | {"OMP_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": str(threads),
                  "MKL_NUM_THREADS": str(threads)}


def launch(python: str, args: list[str], threads: int, strip: bool, pin: bool = False) -> dict:
    """Run this script with ``args`` in a fresh process and return the JSON it prints last; ``pin`` keeps the
    process on ``threads`` cores (the first of those this one may use)."""
    cores = sorted(os.sched_getaffinity(0))[:threads] if pin else None
    out = subprocess.run([python, __file__, *args, "--threads", str(threads)], capture_output=True, text=True,
                         env=worker_env(threads, strip), check=False,
                         preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None)
    if out.returncode:
        raise RuntimeError(f"{' '.join(args)} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def blas_info() -> list[dict]:
    """numpy's BLAS libraries in this process: ``internal_api``, ``version`` and kernel (``architecture``)."""
    import numpy  # noqa: F401  (threadpoolctl sees only the libraries already loaded)
    import threadpoolctl
    return [{key: info.get(key) for key in ("internal_api", "version", "architecture")}
            for info in threadpoolctl.threadpool_info() if info["user_api"] == "blas"]


def describe_blas(blas: list[dict]) -> str:
    return ", ".join(f"{b['internal_api']} {b['version']} kernel {b['architecture']}" for b in blas) or "no BLAS"


def blas_line(machine: dict) -> str:
    """numpy's BLAS, its kernel, the variables seen and the GEMM peak of each configuration's ``probe``."""
    return "numpy's BLAS " + "; ".join(
        f"{CONFIGS[config]}: {describe_blas(m['blas'])} "
        f"({', '.join(f'{k}={v}' for k, v in m['env'].items() if v) or 'neither variable set'}), "
        f"float32 GEMM peak {m['peak']:.0f} GFLOP/s" for config, m in machine.items())


def probe(threads: int) -> dict:
    """What a benchmark subprocess sees: ``BLAS_VARS``, numpy's BLAS, its GEMM peak and the cores it may use."""
    return {"env": {var: os.environ.get(var) for var in BLAS_VARS}, "blas": blas_info(), "peak": gemm_peak(threads),
            "cores": len(os.sched_getaffinity(0))}


def torch_python(given: str | None) -> str | None:
    if given:
        return given
    if importlib.util.find_spec("torch") is not None:
        return sys.executable
    return None


def thread_counts(text: str) -> list[int]:
    """``--threads``: one count, or several separated by commas (``2,8``)."""
    counts = [int(t) for t in text.split(",")]
    if not counts or min(counts) < 1 or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"expected distinct positive thread counts, e.g. 2 or 2,8; got {text!r}")
    return counts


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description="minitorch vs PyTorch, same workloads, same machine")
    parser.add_argument("--torch-python", help="a Python with torch installed (default: this one, if it has it)")
    parser.add_argument("--only", help="comma-separated workloads, e.g. W1,W3")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per library and workload")
    parser.add_argument("--threads", type=thread_counts, default=[2],
                        help="threads of each process (default 2); several, e.g. 2,8, add each library's speed-up "
                             "from the first count")
    parser.add_argument("--pin-cores", action="store_true",
                        help="run each process on as many cores as it has threads, so that a thread count is a "
                             "core count")
    parser.add_argument("--users-blas", action=argparse.BooleanOptionalAction, default=True,
                        help=f"also measure minitorch with {' and '.join(BLAS_VARS)} removed from its subprocesses, "
                             "as users have it (default: on)")
    parser.add_argument("--json", help="also write the results to this file (after each workload)")
    parser.add_argument("--worker", nargs=2, metavar=("LIB", "WORKLOAD"), help=argparse.SUPPRESS)
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker or args.probe:
        threads = args.threads[0]
        report = worker(*args.worker, threads, STEPS[args.worker[1]]) if args.worker else probe(threads)
        print(json.dumps(report))
        return {}

    names = args.only.split(",") if args.only else list(WORKLOADS)
    counts, pin = args.threads, args.pin_cores
    other = torch_python(args.torch_python)
    set_vars = ", ".join(f"{var}={os.environ[var]}" for var in BLAS_VARS if var in os.environ)
    configs = ["users", "configured"] if args.users_blas and set_vars else ["configured"] if set_vars else ["users"]
    print(plan(configs, set_vars, bool(other)))
    strip = {config: config == "users" for config in configs}
    machine = {t: {config: launch(sys.executable, ["--probe"], t, strip[config], pin) for config in configs}
               for t in counts}
    kernels = {config: "/".join(str(b["architecture"]) for b in m["blas"]) or "no BLAS"
               for config, m in machine[counts[0]].items()}
    results = {t: {} for t in counts}
    for name in names:
        runs = {t: {key: [] for key in [*configs, "torch"]} for t in counts}
        for _ in range(args.repeats):  # A B A B, each thread count in turn: drift in the machine's speed hits all alike
            for t in counts:
                for config in configs:
                    runs[t][config].append(launch(sys.executable, ["--worker", "minitorch", name], t, strip[config],
                                                  pin))
                if other:
                    runs[t]["torch"].append(launch(other, ["--worker", "torch", name], t, strip[configs[0]], pin))
        for t in counts:
            results[t][name] = {key: {k: statistics.median(r[k] for r in rs) for k in ("value", "gflops", "rss_mb")}
                                | {"unit": rs[0]["unit"]} for key, rs in runs[t].items() if rs}
            peaks = {config: m["peak"] for config, m in machine[t].items()}
            scaling = None if len(counts) == 1 else (t, counts[0], results[counts[0]][name])
            print_row(name, results[t][name], peaks, kernels, header=name == names[0] and t == counts[0],
                      scaling=scaling)
        if args.json:
            write_json(args.json, counts, machine, results)
    for t in counts:
        print(f"\n{time.strftime('%Y-%m-%d')}, {platform.machine()} with {os.cpu_count()} cores, {t} thread{'s' * (t != 1)} "
              f"each{' on as many cores' if pin else ''}, Python {platform.python_version()}; {blas_line(machine[t])}; "
              f"medians of {args.repeats} fresh processes per library, alternating")
    return results[counts[0]] if len(counts) == 1 else results


def write_json(path: str, counts: list[int], machine: dict, results: dict) -> None:
    """The machine and the results so far: as they are for one thread count, keyed by the count for several."""
    if len(counts) == 1:
        data = {"machine": machine[counts[0]], "results": results[counts[0]]}
    else:
        data = {"threads": counts, "machine": {str(t): machine[t] for t in counts},
                "results": {str(t): results[t] for t in counts}}
    pathlib.Path(path).write_text(json.dumps(data, indent=2))


def plan(configs: list[str], set_vars: str, torch: bool) -> str:
    """What the run does with ``BLAS_VARS``, in words."""
    if not set_vars:
        text = f"{' and '.join(BLAS_VARS)} are not set: minitorch runs once, the environment being as users have it"
    elif "users" in configs:
        text = (f"minitorch runs twice per repeat: as users have it, with {set_vars} removed from its subprocesses, "
                "then as configured")
    else:
        text = f"--no-users-blas: minitorch runs only as configured, with {set_vars}"
    if torch:
        text += ("; PyTorch runs once per repeat, in the environment of the first minitorch column: it uses its own BLAS "
                 "(MKL/oneDNN), which these variables do not affect")
    return text


def print_row(name: str, result: dict, peaks: dict, kernels: dict, header: bool,
              scaling: tuple[int, int, dict] | None = None) -> None:
    """One row of a Markdown table (the README shows the table as printed): minitorch in each configuration
    in ``result`` ("users" first), torch, the ratio to torch of each, GFLOP, % of the GEMM peak, peak RSS.
    Each minitorch column is a share of its own configuration's GEMM peak, torch of the first one's.
    ``scaling`` is ``(threads, first_threads, result_at_first_threads)`` in a run over several thread counts: a
    threads column, and a last one with each library's speed-up from the first count (time there / time here)."""
    configs = [c for c in CONFIGS if c in result]
    th = result.get("torch")
    libs = [result[c] for c in configs] + ([th] if th else [])
    if header:
        if len(configs) > 1:
            columns = [f"minitorch, {CONFIGS[c]} ({kernels[c]})" for c in configs]
            ratios, parts = [f"ratio ({c})" for c in configs], " / ".join([*configs, "torch"])
        else:
            columns, ratios, parts = [f"minitorch ({kernels[configs[0]]})"], ["ratio"], "mt / torch"
        threads = ["threads"] if scaling else []
        speedup = [f"speed-up from {scaling[1]} thread{'s' * (scaling[1] != 1)} ({parts})"] if scaling else []
        print("| | workload | " + " | ".join([*threads, *columns, "torch", *ratios])
              + f" | GFLOP | % of GEMM peak ({parts}) | peak RSS MB ({parts}) |"
              + "".join(f" {c} |" for c in speedup))
        print("|---|---|" + "---:|" * (2 * len(configs) + 4 + 2 * bool(scaling)))
    first = result[configs[0]]
    unit = first["unit"]
    flops = first["gflops"] * first["value"] / (1e6 if unit == "us/op" else 1e3)  # GFLOP/s x seconds per step
    values = [f"{result[c]['value']:.2f} {unit}" for c in configs] + [f"{th['value']:.2f} {unit}" if th else "-"]
    ratios = [f"{result[c]['value'] / th['value']:.2f}" if th else "-" for c in configs]
    shares = [100 * result[c]["gflops"] / peaks[c] for c in configs]
    shares += [100 * th["gflops"] / peaks[configs[0]]] if th else []
    share = " / ".join(f"{p:.0f}%" for p in shares) if first["gflops"] else "-"
    rss = " / ".join(f"{r['rss_mb']:.0f}" for r in libs)
    cells = [*values, *ratios, f"{flops:.1f}" if flops else "-", share, rss]
    if scaling:
        threads, first_threads, before = scaling
        cells.insert(0, str(threads))
        cells.append("-" if threads == first_threads else " / ".join(
            f"{before[key]['value'] / result[key]['value']:.2f}x" for key in [*configs, *(["torch"] if th else [])]))
    print(f"| {name} | {WORKLOADS[name]} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
