"""Every builder of the classic zoo families built at full size and run forward and backward once, on minitorch
and on torchvision: not part of the test suite (which builds only small models), run by hand.

    python benchmarks/zoo_full_models.py --torchvision-python /work/venv-tv/bin/python [builder ...]

Each model runs in fresh processes, one per library: built with its defaults (1000 classes, real initialisation),
given the deterministic weights of tests/models/zoo_record.py, then, in eval mode, forward and backward on a fixed
batch of 2 images (299x299 for inception_v3, 64x64 otherwise) in float32: the table compares the output's and the
input gradient's sums between the libraries. minitorch then runs a training step's forward and backward (dropout
on, auxiliary classifiers included) to time it. Times are wall seconds; memory is the process's peak RSS.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "models"))
from zoo_classic_cases import FAMILIES  # noqa: E402
from zoo_record import deterministic, set_deterministic_state  # noqa: E402


def run_one(lib_name: str, name: str) -> dict:
    """Build, load deterministic weights, run eval forward/backward (and, on minitorch, a train step)."""
    if lib_name == "torch":
        import torch as lib
        import torchvision.models as models
        lib.set_num_threads(1)
    else:
        import minitorch as lib
        import minitorch.models as models
    result: dict = {}
    start = time.perf_counter()
    model = models.get_model(name, **({"init_weights": True} if name in ("googlenet", "inception_v3") else {}))
    result["build_s"] = time.perf_counter() - start
    result["params"] = sum(p.numel() for p in model.parameters())
    set_deterministic_state(lib, model)
    size = 299 if name == "inception_v3" else 64
    x = lib.from_numpy(deterministic("input", (2, 3, size, size))).requires_grad_()
    start = time.perf_counter()
    out = model.eval()(x)
    out.sum().backward()
    result["eval_s"] = time.perf_counter() - start
    result["out_sum"], result["out_abs"] = float(out.detach().sum()), float(out.detach().abs().sum())
    result["grad_sum"], result["grad_abs"] = float(x.grad.sum()), float(x.grad.abs().sum())
    if lib_name == "minitorch":
        model.zero_grad()
        start = time.perf_counter()
        out = model.train()(x.detach())
        outputs = list(out) if isinstance(out, tuple) else [out]
        sum(o.sum() for o in outputs).backward()
        result["train_s"] = time.perf_counter() - start
        result["train_type"] = type(out).__name__
        result["grads_finite"] = all(bool(np.isfinite(p.grad.numpy()).all()) for p in model.parameters()
                                     if p.grad is not None)
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torchvision-python", help="a Python with torch and torchvision")
    parser.add_argument("--one", nargs=2, metavar=("LIB", "BUILDER"), help=argparse.SUPPRESS)
    parser.add_argument("builders", nargs="*")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(*args.one)))
        return
    names = args.builders or [name for family in FAMILIES.values() for name in family.builders]
    print("| model | parameters | build (s) | eval fwd+bwd (s) | train fwd+bwd (s) | train output | peak RSS (MB) "
          "| output sum: minitorch / torchvision | input grad abs sum: minitorch / torchvision |")
    print("|---|---:|---:|---:|---:|---|---:|---|---|")
    for name in names:
        ours = json.loads(subprocess.run([sys.executable, __file__, "--one", "minitorch", name], check=True,
                                         capture_output=True, text=True).stdout)
        theirs = {}
        if args.torchvision_python:
            theirs = json.loads(subprocess.run([args.torchvision_python, __file__, "--one", "torch", name],
                                               check=True, capture_output=True, text=True).stdout)
        print(f"| {name} | {ours['params']:,} | {ours['build_s']:.1f} | {ours['eval_s']:.1f} | {ours['train_s']:.1f} "
              f"| {ours['train_type']}{'' if ours['grads_finite'] else ' (non-finite grads)'} "
              f"| {ours['peak_mb']:.0f} | {ours['out_sum']:.6g} / {theirs.get('out_sum', float('nan')):.6g} "
              f"| {ours['grad_abs']:.6g} / {theirs.get('grad_abs', float('nan')):.6g} |", flush=True)


if __name__ == "__main__":
    main()
