"""nn.Module mechanics: registration order, state_dict, hooks, modes, containers, repr,
default initialisation and freezing."""
import math
from collections import OrderedDict

import numpy as np
import pytest


def small_net(nn):
    return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1), nn.BatchNorm1d(1)))


def test_registration_order_and_names(lib):
    nn = lib.nn
    m = small_net(nn)
    assert [n for n, _ in m.named_modules()] == ["", "0", "1", "2", "2.0", "2.1"]
    assert [n for n, _ in m.named_parameters()] == ["0.weight", "0.bias", "2.0.weight", "2.0.bias", "2.1.weight",
                                                    "2.1.bias"]
    assert [n for n, _ in m.named_buffers()] == ["2.1.running_mean", "2.1.running_var", "2.1.num_batches_tracked"]
    assert [n for n, _ in m.named_children()] == ["0", "1", "2"]
    assert len(list(m.parameters())) == 6 and len(list(m.modules())) == 6


def test_state_dict_keys_and_metadata(lib):
    m = small_net(lib.nn)
    sd = m.state_dict()
    assert list(sd) == ["0.weight", "0.bias", "2.0.weight", "2.0.bias", "2.1.weight", "2.1.bias",
                        "2.1.running_mean", "2.1.running_var", "2.1.num_batches_tracked"]
    assert dict(sd._metadata) == {"": {"version": 1}, "0": {"version": 1}, "1": {"version": 1},
                                  "2": {"version": 1}, "2.0": {"version": 1}, "2.1": {"version": 2}}
    assert not sd["0.weight"].requires_grad and sd["0.weight"].is_leaf
    assert m.state_dict(keep_vars=True)["0.weight"] is m[0].weight


def test_load_state_dict_round_trip(lib):
    a, b = small_net(lib.nn), small_net(lib.nn)
    assert str(b.load_state_dict(a.state_dict())) == "<All keys matched successfully>"
    for (na, pa), (nb, pb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert na == nb and pa.tolist() == pb.tolist()


def test_load_state_dict_errors(lib):
    m = small_net(lib.nn)
    bad = {"0.weight": lib.zeros(3, 2), "foo": lib.zeros(1), "0.bias": lib.zeros(4)}
    with pytest.raises(RuntimeError) as e:
        m.load_state_dict(bad)
    size = "torch.Size" if lib.__name__ == "torch" else "minitorch.Size"
    assert str(e.value) == (
        'Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "2.0.weight", "2.0.bias", '
        '"2.1.weight", "2.1.bias", "2.1.running_mean", "2.1.running_var". \n\tUnexpected key(s) in state_dict: '
        f'"foo". \n\tsize mismatch for 0.bias: copying a param with shape {size}([4]) from checkpoint, the shape in '
        f'current model is {size}([3]).')
    result = m.load_state_dict({"0.weight": lib.zeros(3, 2)}, strict=False)
    assert result.missing_keys == ["0.bias", "2.0.weight", "2.0.bias", "2.1.weight", "2.1.bias", "2.1.running_mean",
                                   "2.1.running_var"]
    assert result.unexpected_keys == [] and m[0].weight.abs().sum().item() == 0


def test_batchnorm_fills_num_batches_tracked_for_old_checkpoints(lib):
    bn = lib.nn.BatchNorm1d(2)
    old = OrderedDict((k, v) for k, v in bn.state_dict().items() if k != "num_batches_tracked")
    old._metadata = {"": {"version": 1}}
    assert str(bn.load_state_dict(old)) == "<All keys matched successfully>"


def test_repr(lib):
    nn = lib.nn
    assert repr(small_net(nn)) == """Sequential(
  (0): Linear(in_features=2, out_features=3, bias=True)
  (1): ReLU()
  (2): Sequential(
    (0): Linear(in_features=3, out_features=1, bias=True)
    (1): BatchNorm1d(1, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
  )
)"""
    assert repr(nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()])) == \
        "ModuleList(\n  (0-1): 2 x ReLU()\n  (2): Tanh()\n)"
    layers = [nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.MaxPool2d(2), nn.Dropout(0.2),
              nn.AdaptiveAvgPool2d(1), nn.Embedding(10, 3, padding_idx=0), nn.LayerNorm(4), nn.GroupNorm(2, 4),
              nn.Flatten(), nn.Upsample(scale_factor=2), nn.ConvTranspose2d(2, 3, 2), nn.Conv1d(2, 2, 3, groups=2),
              nn.ReLU(inplace=True), nn.LeakyReLU(0.1), nn.GELU(), nn.Softmax(dim=1), nn.Hardswish(),
              nn.CrossEntropyLoss(), nn.Hardswish(inplace=True), nn.Hardsigmoid(inplace=True), nn.SiLU(inplace=True)]
    assert [repr(m) for m in layers] == [
        "Conv2d(3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)",
        "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)", "Dropout(p=0.2, inplace=False)",
        "AdaptiveAvgPool2d(output_size=1)", "Embedding(10, 3, padding_idx=0)",
        "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)", "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)",
        "Flatten(start_dim=1, end_dim=-1)", "Upsample(scale_factor=2.0, mode='nearest')",
        "ConvTranspose2d(2, 3, kernel_size=(2, 2), stride=(1, 1))", "Conv1d(2, 2, kernel_size=(3,), stride=(1,), groups=2)",
        "ReLU(inplace=True)", "LeakyReLU(negative_slope=0.1)", "GELU(approximate='none')", "Softmax(dim=1)",
        "Hardswish()", "CrossEntropyLoss()", "Hardswish()", "Hardsigmoid()", "SiLU(inplace=True)"]


def test_parameter(lib):
    p = lib.nn.Parameter(lib.ones(2))
    assert p.requires_grad and p.is_leaf and isinstance(p, lib.Tensor)
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert repr(lib.nn.Parameter(lib.ones(2), requires_grad=False)) == "Parameter containing:\ntensor([1., 1.])"
    t = lib.zeros(2)
    q = lib.nn.Parameter(t)
    with lib.no_grad():
        q.add_(1)
    assert t.tolist() == [1.0, 1.0]  # shares storage
    assert type(p * 2).__name__ == "Tensor"


def test_attribute_errors(lib):
    nn = lib.nn
    layer = nn.Linear(2, 3)
    with pytest.raises(TypeError) as e:
        layer.weight = lib.ones(3, 2)
    assert str(e.value) == "cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None expected)"
    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'foo'$"):
        layer.foo

    class TooEarly(nn.Module):
        def __init__(self):
            self.x = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"^cannot assign module before Module.__init__\(\) call$"):
        TooEarly()

    class NoForward(nn.Module):
        pass

    with pytest.raises(NotImplementedError, match='^Module \\[NoForward\\] is missing the required "forward" function$'):
        NoForward()(1)


def test_buffers(lib):
    m = lib.nn.Module()
    m.register_buffer("kept", lib.zeros(2))
    m.register_buffer("scratch", lib.ones(1), persistent=False)
    assert list(m.state_dict()) == ["kept"] and [n for n, _ in m.named_buffers()] == ["kept", "scratch"]
    m.kept = lib.ones(2)
    assert m.state_dict()["kept"].tolist() == [1.0, 1.0]


def test_train_eval_and_dropout(lib):
    nn = lib.nn
    m = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
    assert m.training and m[1].training
    assert m.eval() is m and not m[1].training
    x = lib.ones(3, 4)
    assert lib.equal(m(x), m(x))  # eval: dropout is the identity
    m.train()
    assert m[1].training


def test_batchnorm_running_statistics(lib):
    bn = lib.nn.BatchNorm2d(2, momentum=0.5)
    x = lib.tensor([[[[1.0, 3.0]], [[2.0, 6.0]]], [[[5.0, 7.0]], [[2.0, 2.0]]]])  # (2, 2, 1, 2)
    y = bn(x)
    assert bn.running_mean.tolist() == [2.0, 1.5]             # 0.5 * batch means (4, 3)
    np.testing.assert_allclose(bn.running_var.numpy(), [0.5 + 0.5 * 20 / 3, 0.5 + 0.5 * 12 / 3], rtol=1e-6)
    assert bn.num_batches_tracked.item() == 1
    np.testing.assert_allclose(y.detach().numpy().mean(axis=(0, 2, 3)), [0, 0], atol=1e-6)
    bn.eval()
    y_eval = bn(x)
    expected = (x.numpy() - bn.running_mean.numpy()[None, :, None, None]) / np.sqrt(
        bn.running_var.numpy()[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y_eval.detach().numpy(), expected, rtol=1e-5)
    assert bn.num_batches_tracked.item() == 1


def test_batchnorm_cumulative_average_and_no_tracking(lib):
    bn = lib.nn.BatchNorm1d(1, momentum=None)
    for batch in ([1.0, 3.0], [5.0, 7.0]):
        bn(lib.tensor(batch).reshape(2, 1))
    assert bn.running_mean.tolist() == [4.0]  # plain average of the batch means 2 and 6
    free = lib.nn.BatchNorm1d(1, track_running_stats=False).eval()
    assert free.running_mean is None
    np.testing.assert_allclose(free(lib.tensor([[1.0], [3.0]])).detach().numpy(), [[-1.0], [1.0]], atol=1e-4)


def test_freezing_excludes_parameters_from_the_graph(lib):
    nn = lib.nn
    backbone = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
    head = nn.Linear(4, 2)
    backbone.requires_grad_(False)
    out = head(backbone(lib.ones(5, 3)))
    out.sum().backward()
    assert all(p.grad is None for p in backbone.parameters())
    assert all(p.grad is not None for p in head.parameters())
    features = backbone(lib.ones(5, 3))
    assert not features.requires_grad and features.grad_fn is None


def test_zero_grad_and_apply(lib):
    nn = lib.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    m(lib.ones(1, 2)).sum().backward()
    m.zero_grad(set_to_none=False)
    assert all(p.grad.abs().sum().item() == 0 for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    seen = []
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen == ["Linear", "Linear", "Sequential"]


def test_to_dtype_keeps_parameter_objects(lib):
    layer = lib.nn.Linear(2, 3)
    w = layer.weight
    layer.double()
    assert layer.weight is w and w.dtype == lib.float64 and layer(lib.ones(1, 2, dtype=lib.float64)).dtype == lib.float64
    bn = lib.nn.BatchNorm1d(2).half()
    assert bn.running_mean.dtype == lib.float16 and bn.num_batches_tracked.dtype == lib.int64


def test_forward_hooks(lib):
    layer = lib.nn.Linear(2, 3)
    calls = []
    h1 = layer.register_forward_pre_hook(lambda m, args: calls.append(("pre", len(args))))
    h2 = layer.register_forward_hook(lambda m, args, out: out * 2)
    plain = lib.nn.functional.linear(lib.ones(1, 2), layer.weight, layer.bias)
    assert lib.allclose(layer(lib.ones(1, 2)), plain * 2) and calls == [("pre", 1)]
    h1.remove()
    h2.remove()
    assert lib.allclose(layer(lib.ones(1, 2)), plain)


def test_full_backward_hook(lib):
    layer = lib.nn.Linear(2, 3)
    seen = []
    layer.register_full_backward_hook(lambda m, gin, gout: seen.append(([tuple(g.shape) for g in gin],
                                                                        [tuple(g.shape) for g in gout])))
    x = lib.ones(1, 2, requires_grad=True)
    layer(x).sum().backward()
    assert seen == [([(1, 2)], [(1, 3)])]


def test_sequential_indexing_and_editing(lib):
    nn = lib.nn
    m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    assert isinstance(m[-1], nn.Linear) and len(m) == 3
    assert [type(x).__name__ for x in m[0:2]] == ["Linear", "ReLU"]
    m[2] = nn.Linear(2, 5)
    assert [n for n, _ in m.named_children()] == ["0", "1", "2"] and m[2].out_features == 5
    del m[0]
    assert [n for n, _ in m.named_children()] == ["0", "1"] and isinstance(m[0], nn.ReLU)
    m.append(nn.Tanh())
    assert len(m) == 3 and m(lib.ones(4, 2)).shape == (4, 5)
    named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert list(named.state_dict()) == ["fc.weight", "fc.bias"] and isinstance(named.act, nn.ReLU)


def test_module_list_and_dict(lib):
    nn = lib.nn
    ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
    ml.append(nn.ReLU())
    assert len(ml) == 4 and len(list(ml.parameters())) == 6 and isinstance(ml[-1], nn.ReLU)
    md = nn.ModuleDict({"a": nn.Linear(1, 2), "b": nn.ReLU()})
    assert list(md.keys()) == ["a", "b"] and "a" in md and len(list(md.parameters())) == 2


def test_shared_parameters_are_listed_once(lib):
    nn = lib.nn
    shared = nn.Linear(2, 2)
    m = nn.Sequential(shared, nn.ReLU(), shared)
    assert len(list(m.parameters())) == 2


@pytest.mark.parametrize("make, fan_in", [
    (lambda nn: nn.Linear(50, 40), 50),
    (lambda nn: nn.Conv2d(6, 8, 3), 54),
    (lambda nn: nn.Conv2d(6, 12, 3, groups=3), 18),
])
def test_default_initialisation_bounds(lib, make, fan_in):
    """torch: weight ~ U(-b, b) with b = 1/sqrt(fan_in) (kaiming_uniform with a=sqrt(5)), bias likewise."""
    lib.manual_seed(0)
    layer = make(lib.nn)
    bound = 1 / math.sqrt(fan_in)
    w = layer.weight.detach().numpy()
    assert w.min() >= -bound and w.max() <= bound and w.max() > 0.8 * bound and w.min() < -0.8 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.15 * bound  # the std of U(-b, b)
    b = layer.bias.detach().numpy()
    assert b.min() >= -bound and b.max() <= bound


def test_other_default_initialisations(lib):
    nn = lib.nn
    lib.manual_seed(0)
    emb = nn.Embedding(1000, 20).weight.detach().numpy()
    assert abs(emb.mean()) < 0.02 and abs(emb.std() - 1) < 0.02   # N(0, 1)
    bn = nn.BatchNorm2d(3)
    assert bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_var.tolist() == [1.0] * 3 and bn.running_mean.tolist() == [0.0] * 3
    ln = nn.LayerNorm(3)
    assert ln.weight.tolist() == [1.0] * 3 and ln.bias.tolist() == [0.0] * 3
