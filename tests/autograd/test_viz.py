"""Graph drawing (make_dot, torchviz's conventions) and the text summary of a graph."""
import io
import os
import re
import shutil

import pytest
from PIL import Image

import minitorch as torch
import minitorch.nn as nn
from minitorch.viz import Digraph, make_dot
from locations import EXAMPLES


def q_graph():
    a = torch.tensor([2.0, 3.0], requires_grad=True)
    b = torch.tensor([6.0, 4.0], requires_grad=True)
    return 3 * a ** 3 - b ** 2, a, b


def nodes_and_edges(source):
    nodes = dict(re.findall(r'^\t(n\d+) \[label="([^"]*)"', source, flags=re.M))
    edges = re.findall(r"^\t(n\d+) -> (n\d+)", source, flags=re.M)
    return nodes, edges


def test_dot_text_of_q():
    q, a, b = q_graph()
    source = make_dot(q, params={"a": a, "b": b}).source
    nodes, edges = nodes_and_edges(source)
    assert sorted(nodes.values()) == sorted([
        "\\n (2)", "SubBackward0", "MulBackward0", "PowBackward0", "PowBackward0", "AccumulateGrad",
        "AccumulateGrad", "a\\n (2)", "b\\n (2)"])
    names = {v: k for k, v in nodes.items() if v.count("PowBackward0") == 0}
    sub, mul = names["SubBackward0"], names["MulBackward0"]
    assert (sub, "n0") in edges and (mul, sub) in edges           # arrows run in the forward direction
    assert (names["a\\n (2)"], next(k for k, v in nodes.items() if v == "AccumulateGrad"
                                    and (names["a\\n (2)"], k) in edges)) in edges
    assert len(edges) == 8
    assert source.count('fillcolor="lightblue"') == 2 and source.count('fillcolor="darkolivegreen1"') == 1
    assert source.startswith("digraph {\n\tgraph [size=\"12.0,12.0\"]\n\tnode [style=\"filled\" shape=\"box\"")


def test_dot_text_is_deterministic():
    assert make_dot(q_graph()[0]).source == make_dot(q_graph()[0]).source


def test_show_attrs_and_show_saved():
    x = torch.ones(2, 3, requires_grad=True)
    y = x.sum(1, keepdim=True).exp()
    source = make_dot(y, show_attrs=True, show_saved=True).source
    assert "SumBackward1\\n----------------\\nin_shape: (2, 3)\\ndims    :   (1,)\\nkeepdim :   True" in source
    assert "ExpBackward0\\n----------------------\\nresult: [saved tensor]" in source
    assert 'label="result\\n (2, 1) v0" fillcolor="orange"' in source
    assert source.count('dir="none"') == 1
    long = make_dot(y, show_attrs=True, max_attr_chars=5).source
    assert "in_shape: (2..." in long


def test_view_output_shows_its_base():
    x = torch.ones(4, requires_grad=True)
    base = x * 2
    source = make_dot(base[1:]).source
    assert 'fillcolor="darkolivegreen3"' in source and 'style="dotted"' in source


def test_several_outputs_and_named_parameters():
    model = nn.Linear(3, 2)
    out = model(torch.ones(1, 3))
    source = make_dot((out, out * 2), params=dict(model.named_parameters())).source
    assert source.count('fillcolor="darkolivegreen1"') == 2
    assert "weight\\n (2, 3)" in source and "bias\\n (2)" in source


def test_deep_graphs_draw_without_recursion():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    nodes, edges = nodes_and_edges(make_dot(y).source)
    assert len(nodes) == 3003 and len(edges) == 3002


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_render_png(tmp_path):
    path = make_dot(q_graph()[0]).render(str(tmp_path / "q"), format="png")
    data = open(path, "rb").read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    assert image.size[0] > 100 and image.size[1] > 100
    assert (tmp_path / "q").read_text().startswith("digraph {")
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask  # an ordinary file's permissions, not a temp file's
    assert make_dot(q_graph()[0])._repr_svg_().lstrip().startswith("<?xml")


def test_render_without_graphviz(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="apt-get install graphviz"):
        Digraph().render("/tmp/never")


def test_summary_of_q():
    q, a, b = q_graph()
    text = torch.autograd.graph.summary(q, params={"a": a, "b": b}, file=io.StringIO())
    assert text == """SubBackward0 -> (2,)
├── MulBackward0 -> (2,)
│   ├── PowBackward0 -> (2,)  saves self (2,) float32 v0
│   │   └── AccumulateGrad: leaf a (2,) float32 -> .grad
│   └── (input that needs no gradient)
└── PowBackward0 -> (2,)  saves self (2,) float32 v0
    └── AccumulateGrad: leaf b (2,) float32 -> .grad
6 nodes; saved tensors keep 16 B alive"""


def test_summary_shows_what_backward_frees():
    x = torch.ones(1000, requires_grad=True)
    y = (x * 2).sin().sum()
    before = torch.autograd.graph.summary(y, file=io.StringIO())
    assert before.endswith("saved tensors keep 3.9 KB alive")  # x * 2 (4 KB), which sin keeps (x * 2 keeps the 2)
    y.backward(retain_graph=True)
    assert torch.autograd.graph.summary(y, file=io.StringIO()) == before
    y.backward()
    after = torch.autograd.graph.summary(y, file=io.StringIO())
    assert after.endswith("saved tensors keep 0 B alive") and "(saved tensors freed by backward)" in after
    with torch.no_grad():
        z = (x * 2).sin().sum()
    assert torch.autograd.graph.summary(z, file=io.StringIO()).startswith("() (no grad_fn: outside the graph)")


def test_summary_marks_tensors_modified_in_place():
    x = torch.ones(2, requires_grad=True)
    y = x * 1
    z = y.exp()
    z.add_(1)
    text = torch.autograd.graph.summary(z, file=io.StringIO())
    assert "ExpBackward0 -> (2,)  saves result (2,) float32 v0 (now v1: modified in place)" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_visualize_graph_example(tmp_path):
    import importlib.util
    path = EXAMPLES / "visualize_graph.py"
    spec = importlib.util.spec_from_file_location("visualize_graph", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.main(["--out", str(tmp_path)])
    assert [p.rsplit("/", 1)[1] for p in written] == ["q.png", "k.png", "mlp.png"]
    for p in written:
        assert Image.open(p).size[0] > 100
