"""Draw the backward graphs of the founding tutorials to PNG files, the way torchviz draws them.

- q.png: Q = 3a^3 - b^2 (the gentle introduction to autograd);
- k.png: k = j * i from "PyTorch autograd explained" (leaves, a non-leaf used twice, a division);
- mlp.png: a small model's forward, its parameters named, with saved tensors and attributes.

Run: python examples/visualize_graph.py [--out DIR]   (needs Graphviz's `dot`: apt-get install graphviz)
"""
from __future__ import annotations

import argparse
import os

import minitorch as torch
import minitorch.nn as nn
from minitorch.viz import make_dot


def graphs() -> dict:
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    q = 3 * a ** 3 - b ** 2

    c = torch.tensor(2.0) * torch.tensor(2.0)
    c.requires_grad = True
    e = torch.tensor(2.0) * c
    g = torch.tensor(2.0) * e
    h = torch.tensor(2.0, requires_grad=True)
    i = g / h
    j = i + h
    k = j * i

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    y = model(torch.randn(1, 8)).mean()
    return {
        "q": make_dot(q, params={"a": a, "b": b}),
        "k": make_dot(k, params={"c": c, "h": h}),
        "mlp": make_dot(y, params=dict(model.named_parameters()), show_attrs=True, show_saved=True),
    }


def main(argv=None) -> list:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="folder for the PNG files")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    written = []
    for name, dot in graphs().items():
        path = dot.render(os.path.join(args.out, name), format="png", cleanup=True)
        print(f"wrote {path}")
        written.append(path)
    return written


if __name__ == "__main__":
    main()
