"""Build every model of torchvision's families in ``minitorch.models`` for real (parameters allocated and
initialised) and run one forward and backward pass; not part of the test suite (the giants take gigabytes and
minutes). Prints, per builder: parameters, build time, forward + backward time, the process's peak RSS so far.

    python benchmarks/zoo_full_run.py [builder ...]    # default: every builder of tests/models/zoo_modern_cases

Each builder runs in its own process (so the peak RSS is its own). Inputs: batch 2 of 64x64 images, or batch 1 of
224x224 for the models that need that size (ViT, MaxViT); train mode (batch statistics, stochastic depth).
"""
from __future__ import annotations

import json
import pathlib
import resource
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXED_SIZE = ("vit_", "maxvit")  # their position embeddings or partitions are built for 224 pixels


def run_one(name: str) -> dict:
    import numpy as np

    import minitorch
    import minitorch.models as models

    start = time.perf_counter()
    model = models.get_model(name)
    built = time.perf_counter()
    shape = (1, 3, 224, 224) if name.startswith(FIXED_SIZE) else (2, 3, 64, 64)
    out = model.train()(minitorch.randn(*shape))
    out.sum().backward()
    done = time.perf_counter()
    grads_finite = all(bool(np.isfinite(p.grad.numpy()).all()) for p in model.parameters() if p.grad is not None)
    return {"name": name, "num_params": sum(p.numel() for p in model.parameters()), "build_s": built - start,
            "fwd_bwd_s": done - built, "output": list(out.shape), "finite": grads_finite,
            "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20}


def main(names: list[str]) -> None:
    if not names:
        sys.path.insert(0, str(ROOT / "tests" / "models"))
        from zoo_modern_cases import FAMILIES
        names = [n for family in FAMILIES.values() for n in family]
    print(f"{'builder':20} {'parameters':>12} {'build s':>8} {'fwd+bwd s':>10} {'peak GB':>8}  output  finite")
    for name in names:
        proc = subprocess.run([sys.executable, __file__, "--one", name], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode:
            print(f"{name:20} failed: {proc.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(proc.stdout)
        print(f"{name:20} {r['num_params']:>12,} {r['build_s']:>8.1f} {r['fwd_bwd_s']:>10.1f} {r['peak_rss_gb']:>8.2f}  "
              f"{r['output']}  {r['finite']}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(run_one(sys.argv[2])))
    else:
        main(sys.argv[1:])
