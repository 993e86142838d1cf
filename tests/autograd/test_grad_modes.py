"""no_grad, enable_grad, set_grad_enabled, inference_mode (as context managers and
decorators) and anomaly detection."""
import warnings

import pytest


def test_no_grad_context(lib):
    b = lib.tensor([2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        d = (b * 2).sum()
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled()
    assert not d.requires_grad and d.grad_fn is None


def test_no_grad_and_enable_grad_as_decorators(lib):
    @lib.no_grad()
    def f():
        return lib.is_grad_enabled()

    @lib.no_grad
    def g():
        return lib.is_grad_enabled()

    @lib.enable_grad()
    def h():
        return lib.is_grad_enabled()

    assert not f() and not g()
    with lib.no_grad():
        assert h()
        with lib.enable_grad():
            assert lib.is_grad_enabled()
        assert not lib.is_grad_enabled()


def test_decorated_generator_runs_under_the_mode(lib):
    @lib.no_grad()
    def gen():
        yield lib.is_grad_enabled()
        yield lib.is_grad_enabled()
        return "done"

    assert list(gen()) == [False, False]
    assert lib.is_grad_enabled()


def test_set_grad_enabled_acts_at_once_and_as_context(lib):
    lib.set_grad_enabled(False)
    try:
        assert not lib.is_grad_enabled()
    finally:
        lib.set_grad_enabled(True)
    with lib.set_grad_enabled(False):
        assert not lib.is_grad_enabled()
    assert lib.is_grad_enabled()

    @lib.set_grad_enabled(False)
    def f():
        return lib.is_grad_enabled()

    assert lib.is_grad_enabled() and not f()


def test_exceptions_restore_the_mode(lib):
    with pytest.raises(ValueError):
        with lib.no_grad():
            raise ValueError
    assert lib.is_grad_enabled()


def test_inference_mode(lib):
    w = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        assert lib.is_inference_mode_enabled() and not lib.is_grad_enabled()
        t = lib.ones(3) * 2
        inner = w * 2
    assert not lib.is_inference_mode_enabled()
    assert t.is_inference() and not inner.requires_grad
    assert not lib.ones(1).is_inference()
    with pytest.raises(RuntimeError) as e:
        t * w
    assert str(e.value) == (
        "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
        "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
        "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
    normal = lib.clone(t)
    assert not normal.is_inference()
    (normal * w).sum().backward()
    assert w.grad.tolist() == [2.0, 2.0, 2.0]


def test_inference_tensors_refuse_inplace_and_requires_grad(lib):
    with lib.inference_mode():
        t = lib.ones(2)
    with pytest.raises(RuntimeError, match="^Inplace update to inference tensor outside InferenceMode is not allowed"):
        t.add_(1)
    with pytest.raises(RuntimeError) as e:
        t.requires_grad_()
    assert str(e.value) == "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


def test_inference_mode_decorator_and_false(lib):
    @lib.inference_mode()
    def f():
        return lib.ones(1)

    @lib.inference_mode
    def g():
        return lib.ones(1)

    assert f().is_inference() and g().is_inference()
    with lib.inference_mode(False):
        assert not lib.is_inference_mode_enabled()


def test_detect_anomaly_names_the_node_that_made_nan(lib):
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with lib.autograd.detect_anomaly():
        y = x.sqrt() * 0  # d sqrt / dx at 0 is inf; times 0 is nan
        with pytest.raises(RuntimeError, match=r"^Function 'SqrtBackward0' returned nan values in its 0th output.$"), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            y.sum().backward()
    assert any("Traceback of forward call that caused the error" in str(w.message) for w in caught)


def test_set_detect_anomaly_changes_the_version_hint(lib):
    x = lib.ones(2, requires_grad=True)
    with lib.autograd.set_detect_anomaly(True):
        y = x * 1
        z = y.exp()
        z.add_(1)
        with pytest.raises(RuntimeError) as e:
            z.sum().backward()
    assert str(e.value).split("\n")[0].endswith("Hint: the backtrace further above shows the operation that failed to compute its "
                                 "gradient. The variable in question was changed in there or anywhere later. Good luck!")
    assert not lib.is_anomaly_enabled()


def test_requires_grad_flag_rules(lib):
    y = lib.ones(2, requires_grad=True) * 2
    assert y.requires_grad_() is y  # asking a result to require grad is a no-op
    with pytest.raises(RuntimeError) as e:
        y.requires_grad = False
    assert str(e.value) == ("you can only change requires_grad flags of leaf variables. If you want to use a computed "
                            "variable in a subgraph that doesn't require differentiation use "
                            "var_no_grad = var.detach().")
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        lib.tensor([1, 2]).requires_grad_()
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        lib.tensor([1, 2], requires_grad=True)
