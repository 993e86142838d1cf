"""The op registry: the Tensor methods and ``minitorch.*`` functions are exactly the registered ops,
the generated index blocks are current, and every registered differentiable op passes gradcheck
and gradgradcheck in float64 (a new op is swept as soon as it is registered)."""
import ast
import inspect
import os
import pathlib
import sys
import traceback

import numpy as np
import pytest

import minitorch as mt
from minitorch._core import registry as _registry
from minitorch.autograd import gradcheck, gradgradcheck
from registry_cases import DIFFERENTIABLE, NO_DERIVATIVE, NOT_DIFFERENTIABLE, OP_MODULES, OPS, _case
from registry_inputs import idx as _idx
from registry_inputs import x as _x


@pytest.mark.parametrize("name", sorted(NO_DERIVATIVE))
def test_ops_without_a_derivative_are_recorded_but_raise_in_backward(name):
    x, y = _x(3, 4, low=0.1, high=0.9), _x(3, 4, seed=1)
    out = OPS[name](y.clone() if name.endswith("_") else y, x)
    assert out.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match=f"^derivative for aten::{name} is not implemented$"):
        out.sum().backward()


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_every_registered_op_passes_gradcheck_and_gradgradcheck(name):
    case = _case(name)
    if case is None:  # an in-place form whose out-of-place op needs a wrapper: swept through that op
        pytest.skip(f"{name} is swept as {name[:-1]}")
    fn, inputs = case
    try:
        out = fn(*inputs)
    except TypeError as e:
        pytest.fail(f"{name} needs inputs: add it to SAMPLES in tests/registry_cases.py ({e})")
    outs = out if isinstance(out, tuple) else (out,)
    assert any(o.grad_fn is not None for o in outs), f"{name} recorded no graph: add it to NOT_DIFFERENTIABLE?"
    assert gradcheck(fn, inputs)
    if OPS[name] in _registry.NO_DOUBLE_BACKWARD:  # as in torch, the gradient has no derivative of its own
        with pytest.raises(RuntimeError, match="^derivative for aten::.* is not implemented$"):
            gradgradcheck(fn, inputs)
    else:
        assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("name", sorted(NOT_DIFFERENTIABLE))
def test_ops_listed_as_not_differentiable_record_no_graph(name):
    fn = OPS[name]
    x, y = _x(3, 4), _x(3, 4, seed=1)
    for args in ((x, y), (x,), (x > 1, y > 1), (x > 1,), (_idx(0, 2, 1),), (x, (2,), 1.0), (_idx(4, 6), _idx(6, 1)),
                 (x, 2), (x, (2,), (1,))):
        try:
            out = fn(*args)
            break
        except Exception:  # not this signature: try the next
            continue
    else:
        pytest.fail(f"no sample call of {name} works: give it one here")
    outs = out if isinstance(out, tuple) else (out,)
    assert all(not isinstance(o, mt.Tensor) or o.grad_fn is None for o in outs)


def test_random_fills_of_a_recorded_tensor_pass_no_gradient():
    x = _x(3, 4)
    x.clone().uniform_().sum().backward()
    assert x.grad is None or not x.grad.numpy().any()


def test_the_prod_gradient_with_zeros_stays_in_the_graph():
    x = mt.tensor([2.0, 0.0, 3.0], dtype=mt.float64, requires_grad=True)
    (g,) = mt.autograd.grad(x.prod(), x, create_graph=True)
    assert g.grad_fn is not None
    np.testing.assert_allclose(g.detach().numpy(), [0.0, 6.0, 0.0])
    (h,) = mt.autograd.grad(g[1], x)  # d/dx of x0 * x2
    np.testing.assert_allclose(h.numpy(), [3.0, 0.0, 2.0])


def test_tensor_methods_are_exactly_the_registered_methods():
    methods = _registry.methods()
    for name, fn in methods.items():
        assert getattr(mt.Tensor, name) is fn, name
    bound = {n for n, v in vars(mt.Tensor).items()
             if inspect.isfunction(v) and v.__module__.startswith(OP_MODULES) and n not in _registry.OPERATORS}
    assert bound == set(methods)


_EVERY_FORM = {**{f"Tensor.{n}": f for n, f in _registry.methods().items()},
               **{f"minitorch.{n}": f for n, f in _registry.top_level().items()},
               **{f"F.{n}": f for n, f in _registry.functional().items()},
               **{f"Tensor.{n}": inspect.unwrap(f) for n, f in _registry.OPERATORS.items()}}


@pytest.mark.parametrize("name", sorted(_EVERY_FORM))
def test_every_registered_function_names_its_own_file_as_its_source(name):
    fn = _EVERY_FORM[name]
    assert os.path.samefile(inspect.getsourcefile(fn), sys.modules[fn.__module__].__file__)


def test_an_op_made_from_its_class_shows_that_class_as_its_source():
    assert inspect.getsourcefile(mt.Tensor.exp).endswith(os.path.join("elementwise", "unary.py"))
    assert "np.exp(" in inspect.getsource(mt.Tensor.exp)  # Exp.forward
    assert "np.exp(" in inspect.getsource(mt.Tensor.exp_)
    assert "def cat(" in inspect.getsource(mt.cat)  # the out= form made by the registry: cat's own source
    with pytest.raises(TypeError) as error:
        mt.exp(mt.ones(2), 3)
    assert inspect.getsourcefile(mt.exp) in [f.filename for f in traceback.extract_tb(error.value.__traceback__)]


def test_no_op_class_is_written_only_to_carry_a_node_name():
    """A node name of its own is ``Op.named(qualname, node_name)``, not a hand-written subclass with an empty body."""
    package = pathlib.Path(mt.__file__).parent
    name_only = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(k.arg == "name" for k in node.keywords):
                body = [b for b in node.body if not isinstance(b, ast.Pass)
                        and not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
                if not body:
                    name_only.append(f"{path.relative_to(package)}:{node.lineno} {node.name}")
    assert not name_only


def test_top_level_functions_are_exactly_the_registered_ones():
    top = _registry.top_level()
    for name, fn in top.items():
        assert getattr(mt, name) is fn, name
    exported = {n for n, v in vars(mt).items()
                if callable(v) and getattr(v, "__module__", "").startswith("minitorch._ops.")}
    assert exported == {n for n, fn in top.items() if fn.__module__.startswith("minitorch._ops.")} | {"return_types"}


def test_nn_functional_shares_the_registered_functional_ops():
    functional = _registry.functional()
    for name in ("tanh", "sigmoid", "relu_"):
        assert functional[name] is getattr(mt.nn.functional, name) is getattr(mt, name), name
    for name, fn in functional.items():
        assert getattr(mt.nn.functional, name) is fn, name
    defined = {n for n, v in vars(mt.nn.functional).items()
               if inspect.isfunction(v) and not n.startswith("_") and v.__module__ == mt.nn.functional.__name__}
    assert defined <= set(functional)


def test_generated_index_blocks_are_current():
    stale = [path for path, names, indent in _registry.generated_files()
             if not _registry.refresh(path, names, indent, write=False)]
    assert not stale, f"run `python -m minitorch._ops` to update {stale}"


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="registered twice"):
        _registry.register(lambda x: x, name="exp")
    assert _registry.ENTRIES["exp"].function is mt.exp
