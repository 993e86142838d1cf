"""minitorch.models: torchvision's architectures (state_dict keys, shapes, parameter counts, init), the CPU
presets, PyTorch checkpoints loaded without PyTorch, the finetuning seeds and the weights API.

The expected state_dicts are written out from torchvision's definitions (``resnet.py``, ``mobilenetv2.py``),
not from ours. The .pt fixtures and their outputs come from tests/fixtures/make_model_fixtures.py (run with
PyTorch); the comparisons with a live PyTorch model skip without PyTorch.
"""
import functools
import hashlib
import importlib.util
import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import minitorch
import minitorch.models as models
from minitorch import nn, optim
from minitorch.models import (Cifar_MobileNet_V2_Weights, Cifar_ResNet20_Weights, MobileNet_V2_Weights,
                              ResNet18_Weights, ResNet34_Weights, ResNet50_Weights)
from locations import FIXTURES

_spec = importlib.util.spec_from_file_location("make_model_fixtures", FIXTURES / "make_model_fixtures.py")
make_model_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_model_fixtures)


# --- torchvision's state_dicts, written from its definitions ---------------------------------------------------

def _bn(prefix, c):
    return [(f"{prefix}.weight", (c,)), (f"{prefix}.bias", (c,)), (f"{prefix}.running_mean", (c,)),
            (f"{prefix}.running_var", (c,)), (f"{prefix}.num_batches_tracked", ())]


def resnet_state(bottleneck, layers, num_classes=1000):
    """torchvision ResNet: 7x7 stem; stages of 64/128/256/512 planes; BasicBlock = conv3x3, conv3x3;
    Bottleneck = conv1x1, conv3x3, conv1x1 to 4 * planes; downsample (conv1x1, bn) on a stage's first block
    when the stride or width changes; fc."""
    state = [("conv1.weight", (64, 3, 7, 7)), *_bn("bn1", 64)]
    inplanes = 64
    for stage, (planes, blocks) in enumerate(zip((64, 128, 256, 512), layers), start=1):
        out = planes * 4 if bottleneck else planes
        for b in range(blocks):
            p = f"layer{stage}.{b}"
            convs = [(planes, inplanes, 1), (planes, planes, 3), (out, planes, 1)] if bottleneck else \
                [(planes, inplanes, 3), (planes, planes, 3)]
            for i, (o, c, k) in enumerate(convs, start=1):
                state += [(f"{p}.conv{i}.weight", (o, c, k, k)), *_bn(f"{p}.bn{i}", o)]
            if b == 0 and (stage > 1 or inplanes != out):
                state += [(f"{p}.downsample.0.weight", (out, inplanes, 1, 1)), *_bn(f"{p}.downsample.1", out)]
            inplanes = out
    return state + [("fc.weight", (num_classes, inplanes)), ("fc.bias", (num_classes,))]


def mobilenet_v2_state(num_classes=1000):
    """torchvision MobileNetV2 (width 1): features.0 = conv 3x3/2 to 32 + bn; blocks from the (t, c, n, s) table,
    each ``conv`` = [pw expand (if t != 1)], dw 3x3, pw-linear conv, bn; features.18 = conv 1x1 to 1280 + bn;
    classifier = Dropout, Linear."""
    state = [("features.0.0.weight", (32, 3, 3, 3)), *_bn("features.0.1", 32)]
    cin, idx = 32, 1
    for t, c, n, _ in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for _ in range(n):
            p, hidden, j = f"features.{idx}.conv", cin * t, 0
            if t != 1:
                state += [(f"{p}.0.0.weight", (hidden, cin, 1, 1)), *_bn(f"{p}.0.1", hidden)]
                j = 1
            state += [(f"{p}.{j}.0.weight", (hidden, 1, 3, 3)), *_bn(f"{p}.{j}.1", hidden),
                      (f"{p}.{j + 1}.weight", (c, hidden, 1, 1)), *_bn(f"{p}.{j + 2}", c)]
            cin, idx = c, idx + 1
    return state + [("features.18.0.weight", (1280, 320, 1, 1)), *_bn("features.18.1", 1280),
                    ("classifier.1.weight", (num_classes, 1280)), ("classifier.1.bias", (num_classes,))]


EXPECTED_STATE = {
    "resnet18": resnet_state(False, [2, 2, 2, 2]),
    "resnet34": resnet_state(False, [3, 4, 6, 3]),
    "resnet50": resnet_state(True, [3, 4, 6, 3]),
    "mobilenet_v2": mobilenet_v2_state(),
}
# (entries, a few entries as printed by torchvision) for each model
LANDMARKS = {
    "resnet18": (122, [("layer1.0.conv1.weight", (64, 64, 3, 3)), ("layer2.0.downsample.0.weight", (128, 64, 1, 1)),
                       ("layer4.1.bn2.num_batches_tracked", ()), ("fc.weight", (1000, 512))]),
    "resnet34": (218, [("layer3.5.conv2.weight", (256, 256, 3, 3)), ("layer4.0.downsample.1.running_var", (512,)),
                       ("fc.weight", (1000, 512))]),
    "resnet50": (320, [("layer1.0.conv1.weight", (64, 64, 1, 1)), ("layer1.0.downsample.0.weight", (256, 64, 1, 1)),
                       ("layer2.0.conv2.weight", (128, 128, 3, 3)), ("layer4.2.conv3.weight", (2048, 512, 1, 1)),
                       ("fc.weight", (1000, 2048))]),
    "mobilenet_v2": (314, [("features.1.conv.0.0.weight", (32, 1, 3, 3)), ("features.1.conv.1.weight", (16, 32, 1, 1)),
                           ("features.1.conv.2.running_mean", (16,)), ("features.2.conv.0.0.weight", (96, 16, 1, 1)),
                           ("features.17.conv.2.weight", (320, 960, 1, 1)), ("features.18.0.weight", (1280, 320, 1, 1)),
                           ("classifier.1.weight", (1000, 1280))]),
}
FIRST_LAST = {"resnet18": ("conv1.weight", "layer4.1.bn2.num_batches_tracked", "fc.bias"),
              "resnet34": ("conv1.weight", "layer4.2.bn2.num_batches_tracked", "fc.bias"),
              "resnet50": ("conv1.weight", "layer4.2.bn3.num_batches_tracked", "fc.bias"),
              "mobilenet_v2": ("features.0.0.weight", "features.18.1.num_batches_tracked", "classifier.1.bias")}
# the parameter counts in torchvision's documentation
TORCHVISION_PARAMS = {"resnet18": 11_689_512, "resnet34": 21_797_672, "resnet50": 25_557_032,
                      "mobilenet_v2": 3_504_872}


@functools.cache
def built(name):
    """One model per builder, for tests that only read it (or run it without caring about its state)."""
    minitorch.manual_seed(0)
    return models.get_model(name)


@pytest.fixture(scope="module", autouse=True)
def _free_built_models():
    yield
    built.cache_clear()


def n_params(model):
    return sum(p.numel() for p in model.parameters())


def state_shapes(model):
    return [(k, tuple(v.shape)) for k, v in model.state_dict().items()]


@pytest.mark.parametrize("name", list(EXPECTED_STATE))
def test_state_dict_keys_and_shapes_are_torchvisions(name):
    state = state_shapes(built(name))
    count, landmarks = LANDMARKS[name]
    assert len(state) == len(EXPECTED_STATE[name]) == count
    assert state == EXPECTED_STATE[name]
    for entry in landmarks:
        assert entry in state
    first, last_buffer, last = FIRST_LAST[name]
    assert (state[0][0], state[-3][0], state[-1][0]) == (first, last_buffer, last)


@pytest.mark.parametrize("name", list(TORCHVISION_PARAMS))
def test_parameter_counts_are_torchvisions(name):
    assert n_params(built(name)) == TORCHVISION_PARAMS[name]


def test_resnext_arguments_and_errors():
    # torchvision documents resnext50_32x4d at 25,028,904 parameters
    model = models.ResNet(models.Bottleneck, [3, 4, 6, 3], groups=32, width_per_group=4)
    assert n_params(model) == 25_028_904
    assert model.layer1[0].conv2.groups == 32 and model.layer1[0].conv2.weight.shape == (128, 4, 3, 3)
    with pytest.raises(ValueError, match="BasicBlock only supports groups=1 and base_width=64"):
        models.resnet18(groups=2)
    with pytest.raises(ValueError, match=re.escape("replace_stride_with_dilation should be None or a 3-element "
                                                   "tuple, got [True]")):
        models.resnet50(replace_stride_with_dilation=[True])
    with pytest.raises(NotImplementedError, match="Dilation > 1 not supported in BasicBlock"):
        models.resnet18(replace_stride_with_dilation=[False, False, True])


def test_resnet_structure():
    model = built("resnet50")
    assert type(model).__name__ == "ResNet" and isinstance(model.layer1[0], models.Bottleneck)
    assert model.relu.inplace and model.layer1[0].relu.inplace
    assert (model.conv1.stride, model.conv1.padding, model.conv1.bias) == ((2, 2), (3, 3), None)
    assert (model.maxpool.kernel_size, model.maxpool.stride, model.maxpool.padding) == (3, 2, 1)
    assert model.avgpool.output_size == (1, 1)
    # v1.5: the stride is on the 3x3 conv, not on the first 1x1
    block = model.layer2[0]
    assert (block.conv1.stride, block.conv2.stride, block.downsample[0].stride) == ((1, 1), (2, 2), (2, 2))
    assert block.stride == 2 and model.layer2[1].downsample is None
    assert models.Bottleneck.expansion == 4 and models.BasicBlock.expansion == 1
    basic = built("resnet18").layer3[0]
    assert (basic.conv1.stride, basic.conv2.stride) == ((2, 2), (1, 1))
    assert isinstance(basic.downsample, nn.Sequential) and isinstance(basic.downsample[1], nn.BatchNorm2d)
    assert models.resnet.conv3x3(4, 8, stride=2, dilation=2).padding == (2, 2)
    assert models.resnet.conv1x1(4, 8).kernel_size == (1, 1)


def test_replace_stride_with_dilation_keeps_the_resolution():
    model = models.resnet50(replace_stride_with_dilation=[False, True, True]).eval()
    assert model.layer3[0].conv2.stride == (1, 1) and model.layer3[0].downsample[0].stride == (1, 1)
    assert (model.layer3[0].conv2.dilation, model.layer3[1].conv2.dilation) == ((1, 1), (2, 2))
    assert (model.layer4[0].conv2.dilation, model.layer4[1].conv2.dilation) == ((2, 2), (4, 4))
    seen = []
    model.layer4.register_forward_hook(lambda m, i, o: seen.append(tuple(o.shape)))
    with minitorch.no_grad():
        model(minitorch.randn(1, 3, 64, 64))
    assert seen == [(1, 2048, 8, 8)]  # 64 / 8 instead of 64 / 32


def test_mobilenet_v2_structure():
    model = built("mobilenet_v2")
    stem = model.features[0]
    assert isinstance(stem, models.Conv2dNormActivation) and isinstance(stem, nn.Sequential)
    assert [type(m).__name__ for m in stem] == ["Conv2d", "BatchNorm2d", "ReLU6"] and stem[2].inplace
    assert (stem[0].stride, stem[0].padding, stem[0].bias, stem.out_channels) == ((2, 2), (1, 1), None, 32)
    first, second, third = model.features[1:4]
    assert [type(m).__name__ for m in first.conv] == ["Conv2dNormActivation", "Conv2d", "BatchNorm2d"]
    assert [type(m).__name__ for m in second.conv] == ["Conv2dNormActivation", "Conv2dNormActivation", "Conv2d",
                                                      "BatchNorm2d"]
    assert first.conv[0][0].groups == 32 and second.conv[1][0].groups == 96
    assert (first.use_res_connect, second.use_res_connect, third.use_res_connect) == (False, False, True)
    assert (second.stride, second.conv[1][0].stride, second._is_cn, second.out_channels) == (2, (2, 2), True, 24)
    assert isinstance(model.features[18], models.Conv2dNormActivation) and len(model.features) == 19
    assert model.last_channel == 1280
    assert isinstance(model.classifier[0], nn.Dropout) and model.classifier[0].p == 0.2
    assert (model.classifier[1].in_features, model.classifier[1].out_features) == (1280, 1000)
    assert models.mobilenet_v2(dropout=0.5, num_classes=7).classifier[0].p == 0.5


def test_mobilenet_v2_arguments():
    narrow, wide = models.mobilenet_v2(width_mult=0.5), models.mobilenet_v2(width_mult=1.4)
    assert narrow.features[0].out_channels == 16 and narrow.last_channel == 1280  # never narrower at the end
    assert wide.features[0].out_channels == 48 and wide.last_channel == 1792
    assert wide.classifier[1].in_features == 1792
    coarse = models.mobilenet_v2(width_mult=0.35, round_nearest=16)
    assert [coarse.features[i].out_channels for i in (0, 1, 2, 4)] == [16, 16, 16, 16]
    setting = [[1, 16, 1, 1], [6, 24, 1, 2]]
    small = models.mobilenet_v2(inverted_residual_setting=setting, num_classes=5)
    assert len(small.features) == 4 and small.features[3][0].in_channels == 24
    with pytest.raises(ValueError, match=re.escape("inverted_residual_setting should be non-empty or a 4-element "
                                                   "list, got [[1, 16, 1]]")):
        models.mobilenet_v2(inverted_residual_setting=[[1, 16, 1]])
    with pytest.raises(ValueError, match="stride should be 1 or 2 instead of 3"):
        models.InvertedResidual(8, 8, 3, 6)


def test_make_divisible_and_conv_norm_activation():
    from minitorch.models._utils import _make_divisible
    assert [_make_divisible(v, 8) for v in (32 * 0.35, 16 * 0.35, 24 * 0.35, 96 * 0.75, 1280 * 1.4, 3)] == \
        [16, 8, 8, 72, 1792, 8]
    assert _make_divisible(10, 8, min_value=16) == 16
    block = models.Conv2dNormActivation(4, 6, kernel_size=5, dilation=2, norm_layer=None, activation_layer=None)
    assert len(block) == 1 and block[0].padding == (4, 4) and block[0].bias is not None
    block = models.Conv2dNormActivation(4, 6, kernel_size=(3, 5), activation_layer=nn.Hardswish, inplace=None)
    assert block[0].padding == (1, 2) and block[0].bias is None and not block[2].inplace


def test_resnet_initialisation():
    model = built("resnet18")
    w = model.layer1[0].conv1.weight.detach().numpy()  # kaiming normal, fan_out = 64 * 9, gain sqrt(2)
    assert abs(w.mean()) < 2e-3 and w.std() == pytest.approx(np.sqrt(2 / (64 * 9)), rel=0.03)
    w = model.conv1.weight.detach().numpy()
    assert w.std() == pytest.approx(np.sqrt(2 / (64 * 49)), rel=0.03)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            assert (m.weight.detach().numpy() == 1).all() and (m.bias.detach().numpy() == 0).all()
    bound = 1 / np.sqrt(512)  # fc keeps Linear's default init
    assert np.abs(model.fc.weight.detach().numpy()).max() <= bound and model.fc.bias.abs().max().item() > 0
    zero = models.resnet18(zero_init_residual=True)
    assert all((b.bn2.weight.detach().numpy() == 0).all() and (b.bn1.weight.detach().numpy() == 1).all()
               for layer in (zero.layer1, zero.layer4) for b in layer)
    zero = models.resnet50(zero_init_residual=True)
    assert (zero.layer3[2].bn3.weight.detach().numpy() == 0).all()
    assert (zero.layer3[2].bn2.weight.detach().numpy() == 1).all()
    assert (zero.layer3[0].downsample[1].weight.detach().numpy() == 1).all()


def test_mobilenet_v2_initialisation():
    model = built("mobilenet_v2")
    w = model.features[18][0].weight.detach().numpy()  # kaiming normal, fan_out = 1280
    assert w.std() == pytest.approx(np.sqrt(2 / 1280), rel=0.03)
    w = model.features[2].conv[1][0].weight.detach().numpy()  # depthwise (96, 1, 3, 3): torch's fan_out is 96 * 9
    assert w.std() == pytest.approx(np.sqrt(2 / (96 * 9)), rel=0.1)
    w = model.classifier[1].weight.detach().numpy()
    assert abs(w.mean()) < 1e-4 and w.std() == pytest.approx(0.01, rel=0.02)
    assert (model.classifier[1].bias.detach().numpy() == 0).all()
    assert all((m.weight.detach().numpy() == 1).all() and (m.bias.detach().numpy() == 0).all()
               for m in model.modules() if isinstance(m, nn.BatchNorm2d))


@pytest.mark.parametrize("name,sizes", [("resnet18", [(2, 32), (1, 64), (3, 45)]), ("resnet34", [(2, 32)]),
                                        ("resnet50", [(2, 32), (1, 40)]), ("mobilenet_v2", [(2, 32), (1, 64), (3, 50)])])
def test_output_shapes(name, sizes):
    model = built(name)
    for train in (True, False):
        model.train(train)
        for batch, size in sizes:
            if train and batch == 1:
                continue  # one value per channel in the last BatchNorm
            out = model(minitorch.rand(batch, 3, size, size))
            assert out.shape == (batch, 1000) and out.requires_grad
            assert np.isfinite(out.detach().numpy()).all()
    model.train()


def test_num_classes():
    assert models.resnet18(num_classes=7)(minitorch.rand(2, 3, 32, 32)).shape == (2, 7)
    assert models.resnet50(num_classes=3).fc.weight.shape == (3, 2048)
    out = models.mobilenet_v2(num_classes=4, width_mult=0.5).eval()(minitorch.rand(1, 3, 32, 32))
    assert out.shape == (1, 4)


def test_train_and_eval_modes_differ_as_in_torch():
    minitorch.manual_seed(0)
    model = models.resnet18(num_classes=5)
    x = minitorch.rand(4, 3, 32, 32)
    model.eval()
    first, second = model(x), model(x)
    assert minitorch.equal(first, second)
    model.train()
    train_out = model(x)
    assert not np.allclose(train_out.detach().numpy(), first.detach().numpy())
    assert model.bn1.num_batches_tracked.item() == 1 and model.bn1.running_mean.abs().sum().item() > 0
    mobile = models.mobilenet_v2(num_classes=5)
    mobile.train()
    assert not minitorch.equal(mobile(x), mobile(x))  # dropout
    mobile.eval()
    assert minitorch.equal(mobile(x), mobile(x))


# --- torchvision's forward passes, written with nn.functional on a state_dict ------------------------------------

def _conv_bn(state, conv, bn, x, stride=1):
    w = state[conv]
    groups = x.shape[1] if w.shape[1] == 1 else 1  # depthwise
    x = nn.functional.conv2d(x, w, None, stride, w.shape[-1] // 2, 1, groups)
    return nn.functional.batch_norm(x, state[f"{bn}.running_mean"], state[f"{bn}.running_var"], state[f"{bn}.weight"],
                                    state[f"{bn}.bias"], False, 0.0, 1e-5)


def reference_resnet(state, x, cifar=False):
    """torchvision's ResNet.forward in eval mode (stem, blocks with the stride on the 3x3 conv, shortcut, ReLU
    after the sum, average pool, fc); ``cifar``: a 3x3 stride-1 stem without max pool."""
    F = nn.functional
    x = F.relu(_conv_bn(state, "conv1.weight", "bn1", x, 1 if cifar else 2))
    if not cifar:
        x = F.max_pool2d(x, 3, 2, 1)
    stages = sorted({k.split(".")[0] for k in state if k.startswith("layer")})
    for i, stage in enumerate(stages):
        for b in sorted({int(k.split(".")[1]) for k in state if k.startswith(stage + ".")}):
            p, stride = f"{stage}.{b}", 2 if b == 0 and i > 0 else 1
            if f"{p}.conv3.weight" in state:  # Bottleneck
                out = F.relu(_conv_bn(state, f"{p}.conv1.weight", f"{p}.bn1", x))
                out = F.relu(_conv_bn(state, f"{p}.conv2.weight", f"{p}.bn2", out, stride))
                out = _conv_bn(state, f"{p}.conv3.weight", f"{p}.bn3", out)
            else:
                out = F.relu(_conv_bn(state, f"{p}.conv1.weight", f"{p}.bn1", x, stride))
                out = _conv_bn(state, f"{p}.conv2.weight", f"{p}.bn2", out)
            if f"{p}.downsample.0.weight" in state:
                x = _conv_bn(state, f"{p}.downsample.0.weight", f"{p}.downsample.1", x, stride)
            x = F.relu(out + x)
    return F.linear(x.mean((2, 3)), state["fc.weight"], state["fc.bias"])


def reference_mobilenet_v2(state, x, strides):
    """torchvision's MobileNetV2.forward in eval mode; ``strides`` of features.0 to features.17."""
    F = nn.functional
    x = F.relu6(_conv_bn(state, "features.0.0.weight", "features.0.1", x, strides[0]))
    for i in range(1, 18):
        p, h, j = f"features.{i}.conv", x, 0
        if f"{p}.3.weight" in state:  # with a 1x1 expansion
            h, j = F.relu6(_conv_bn(state, f"{p}.0.0.weight", f"{p}.0.1", h)), 1
        h = F.relu6(_conv_bn(state, f"{p}.{j}.0.weight", f"{p}.{j}.1", h, strides[i]))
        h = _conv_bn(state, f"{p}.{j + 1}.weight", f"{p}.{j + 2}", h)  # linear bottleneck: no activation
        x = x + h if strides[i] == 1 and x.shape == h.shape else h
    x = F.relu6(_conv_bn(state, "features.18.0.weight", "features.18.1", x))
    return F.linear(x.mean((2, 3)), state["classifier.1.weight"], state["classifier.1.bias"])


def _blocks(rows):
    return [s if i == 0 else 1 for t, c, n, s in rows for i in range(n)]


REFERENCE_FORWARD = {
    "resnet18": reference_resnet, "resnet50": reference_resnet,
    "cifar_resnet20": functools.partial(reference_resnet, cifar=True),
    "mobilenet_v2": functools.partial(reference_mobilenet_v2, strides=[2, *_blocks(
        [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)])]),
    "cifar_mobilenet_v2": functools.partial(reference_mobilenet_v2, strides=[1, *_blocks(
        [(1, 16, 1, 1), (6, 24, 2, 1), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)])]),
}


@pytest.mark.parametrize("name", list(REFERENCE_FORWARD))
def test_forward_is_torchvisions(name):
    minitorch.manual_seed(0)
    model = models.get_model(name, num_classes=10).eval()
    with minitorch.no_grad():  # BatchNorm layers that are not identities in eval mode
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                for t, low, high in ((m.weight, 0.5, 1.5), (m.bias, -0.2, 0.2), (m.running_mean, -0.2, 0.2),
                                     (m.running_var, 0.5, 1.5)):
                    t.copy_(minitorch.rand(t.shape) * (high - low) + low)
        x = minitorch.randn(2, 3, 40, 40)
        expected = REFERENCE_FORWARD[name](model.state_dict(), x)
        np.testing.assert_allclose(model(x).numpy(), expected.numpy(), rtol=1e-4, atol=1e-5)


# --- the CPU presets ---------------------------------------------------------------------------------------------

def test_cifar_resnet20():
    model = models.cifar_resnet20()
    assert isinstance(model, models.CifarResNet) and isinstance(model.layer2[0], models.BasicBlock)
    assert n_params(model) == 272_474 and n_params(models.cifar_resnet20(num_classes=100)) == 278_324
    state = state_shapes(model)
    assert len(state) == 128 and state[0] == ("conv1.weight", (16, 3, 3, 3))
    assert ("layer2.0.downsample.0.weight", (32, 16, 1, 1)) in state and ("layer3.2.conv2.weight", (64, 64, 3, 3)) in state
    assert state[-2:] == [("fc.weight", (10, 64)), ("fc.bias", (10,))]
    assert not any(k.startswith(("layer1.0.downsample", "layer4", "maxpool")) for k, _ in state)
    assert [len(layer) for layer in (model.layer1, model.layer2, model.layer3)] == [3, 3, 3]
    assert model.layer2[0].conv1.stride == (2, 2) and model.layer3[0].downsample[0].stride == (2, 2)
    for batch, size, train in ((8, 32, True), (1, 32, False), (2, 28, True), (2, 40, False)):
        assert model.train(train)(minitorch.rand(batch, 3, size, size)).shape == (batch, 10)
    assert models.cifar_resnet20(num_classes=3)(minitorch.rand(2, 3, 32, 32)).shape == (2, 3)
    with pytest.raises(ValueError, match="CifarResNet has 3 stages"):
        models.CifarResNet(models.BasicBlock, [2, 2, 2, 2])


def test_cifar_mobilenet_v2():
    model = models.cifar_mobilenet_v2()
    assert type(model) is models.MobileNetV2
    assert n_params(model) == 408_938 and n_params(models.cifar_mobilenet_v2(num_classes=2)) == 398_690
    state = state_shapes(model)
    assert len(state) == 314 and state[0] == ("features.0.0.weight", (16, 3, 3, 3))
    assert ("features.1.conv.0.0.weight", (16, 1, 3, 3)) in state and ("features.17.conv.2.weight", (112, 336, 1, 1)) in state
    assert state[-2:] == [("classifier.1.weight", (10, 1280)), ("classifier.1.bias", (10,))]
    assert model.features[0][0].stride == (1, 1) and model.features[2].stride == 1
    assert model.features[4].stride == 2
    seen = []
    model.features.register_forward_hook(lambda m, i, o: seen.append(tuple(o.shape)))
    for batch, size, train in ((4, 32, True), (1, 32, False), (2, 24, True)):
        assert model.train(train)(minitorch.rand(batch, 3, size, size)).shape == (batch, 10)
    assert seen == [(4, 1280, 4, 4), (1, 1280, 4, 4), (2, 1280, 3, 3)]
    assert models.cifar_mobilenet_v2(num_classes=3, width_mult=0.5).features[0].out_channels == 16


def test_presets_learn():
    """A few Adam steps fit a tiny batch: the presets train end to end."""
    minitorch.manual_seed(0)
    x, y = minitorch.rand(8, 3, 32, 32), minitorch.arange(8) % 2
    for model in (models.cifar_resnet20(num_classes=2), models.cifar_mobilenet_v2(num_classes=2, dropout=0.0)):
        opt = optim.Adam(model.parameters(), lr=1e-3)
        losses = []
        for _ in range(8):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        assert losses[-1] < 0.1 * losses[0]


# --- PyTorch checkpoints, read without PyTorch -----------------------------------------------------------------

FIXTURE_OUTPUTS = np.load(FIXTURES / "model_outputs.npz")


@pytest.mark.parametrize("fmt", ["zip", "legacy"])
@pytest.mark.parametrize("name", list(make_model_fixtures.FIXTURE_MODELS))
def test_pytorch_checkpoint_reproduces_pytorch_outputs(name, fmt):
    build, deterministic_train = make_model_fixtures.FIXTURE_MODELS[name]
    model = build(models)
    state = minitorch.load(FIXTURES / f"model_{name}_{fmt}.pt")
    assert list(state) == list(model.state_dict())
    assert all(v.item() == 3 for k, v in state.items() if k.endswith("num_batches_tracked"))
    assert str(model.load_state_dict(state)) == "<All keys matched successfully>"
    x = minitorch.from_numpy(FIXTURE_OUTPUTS["input"])
    with minitorch.no_grad():
        np.testing.assert_allclose(model.eval()(x).numpy(), FIXTURE_OUTPUTS[f"{name}_eval"], rtol=1e-4, atol=1e-6)
        if deterministic_train:
            np.testing.assert_allclose(model.train()(x).numpy(), FIXTURE_OUTPUTS[f"{name}_train"], rtol=1e-4,
                                       atol=1e-6)


@pytest.mark.parametrize("name,size,batch", [("cifar_resnet20", 32, 4), ("cifar_mobilenet_v2", 32, 2),
                                             ("resnet18", 48, 2), ("resnet50", 64, 2), ("mobilenet_v2", 48, 2)])
def test_same_outputs_gradients_and_statistics_as_pytorch(name, size, batch):
    """A PyTorch model built from the same source, with the same weights: same outputs (float32), and the same
    loss, gradients and BatchNorm statistics in float64 (in float32, BatchNorm over few values per channel
    makes the gradients of both libraries differ from the exact ones by up to a few percent)."""
    torch = pytest.importorskip("torch")
    torch_models = make_model_fixtures.torch_models()
    kwargs = {"num_classes": 10} | ({"dropout": 0.0} if "mobilenet" in name else {})
    torch.manual_seed(0)
    theirs = torch_models.get_model(name, **kwargs)
    ours = models.get_model(name, **kwargs)
    ours.load_state_dict({k: minitorch.from_numpy(v.numpy().copy()) for k, v in theirs.state_dict().items()})
    x = torch.randn(batch, 3, size, size)
    theirs.eval(), ours.eval()
    with torch.no_grad(), minitorch.no_grad():
        np.testing.assert_allclose(ours(minitorch.from_numpy(x.numpy())).numpy(), theirs(x).numpy(), rtol=1e-4,
                                   atol=1e-5)

    theirs.double().train(), ours.double().train()
    x, y = x.double(), torch.arange(batch) % 10
    loss_t = torch.nn.functional.cross_entropy(theirs(x), y)
    loss_o = nn.functional.cross_entropy(ours(minitorch.from_numpy(x.numpy())), minitorch.from_numpy(y.numpy()))
    loss_t.backward()
    loss_o.backward()
    assert loss_o.item() == pytest.approx(loss_t.item(), rel=1e-12)
    grads_t = {k: p.grad.numpy() for k, p in theirs.named_parameters()}
    scale = max(np.abs(g).max() for g in grads_t.values())  # some gradients are 0 up to rounding
    for key, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), grads_t[key], rtol=1e-7, atol=1e-10 * scale, err_msg=key)
    buffers_t = dict(theirs.named_buffers())
    for key, b in ours.named_buffers():
        np.testing.assert_allclose(b.numpy(), buffers_t[key].numpy(), rtol=1e-9, atol=1e-12, err_msg=key)


# --- the finetuning seeds ---------------------------------------------------------------------------------------

def param_snapshot(model):
    return {k: v.detach().numpy().copy() for k, v in model.named_parameters()}


def finetune_mobilenet(model, size):
    """Seed 000: freeze everything, replace classifier[1], SGD over all parameters, one step."""
    for param in model.parameters():
        param.requires_grad = False
    model.classifier[1] = nn.Linear(in_features=1280, out_features=2, bias=True)
    opt = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    x = minitorch.rand(4, 3, size, size)
    y_p = model(x)
    y_t = minitorch.randint(2, (4,))
    before = param_snapshot(model)
    frozen_conv = model.features[1].state_dict()["conv.0.0.weight"][0].clone()
    head = model.classifier[1].state_dict()["weight"][0][:10].clone()
    loss = nn.functional.cross_entropy(y_p, y_t)
    loss.backward()
    opt.step()
    after = param_snapshot(model)
    assert minitorch.equal(model.features[1].state_dict()["conv.0.0.weight"][0], frozen_conv)
    assert not minitorch.equal(model.classifier[1].state_dict()["weight"][0][:10], head)
    assert {k for k in before if not np.array_equal(before[k], after[k])} == {"classifier.1.weight",
                                                                                "classifier.1.bias"}
    assert all(p.grad is None for k, p in model.named_parameters() if not k.startswith("classifier.1"))


@pytest.mark.parametrize("size", [64, 224])
def test_seed_finetune_mobilenet_v2(size):
    minitorch.manual_seed(0)
    finetune_mobilenet(models.mobilenet_v2(weights=None), size)


def test_seed_finetune_resnet18_fc_only():
    """Seed 001/002: freeze the backbone, new fc, optimise only fc's parameters."""
    minitorch.manual_seed(0)
    model = models.resnet18(weights=None)
    for param in model.parameters():
        param.requires_grad = False
    model.fc = nn.Linear(512, 10)
    optimizer = optim.SGD(model.fc.parameters(), lr=1e-2, momentum=0.9)
    before = param_snapshot(model)
    loss = nn.functional.cross_entropy(model(minitorch.rand(2, 3, 64, 64)), minitorch.tensor([3, 7]))
    loss.backward()
    optimizer.step()
    after = param_snapshot(model)
    changed = {k for k in before if not np.array_equal(before[k], after[k])}
    assert changed == {"fc.weight", "fc.bias"}
    assert all(p.grad is None for k, p in model.named_parameters() if not k.startswith("fc."))
    assert model.fc.weight.grad is not None and [p.requires_grad for p in model.fc.parameters()] == [True, True]


def test_seed_all_parameters_step():
    """Seed 002: loss = (prediction - labels).sum() and SGD over every parameter: every parameter moves."""
    minitorch.manual_seed(0)
    model = models.resnet18(weights=None)
    data, labels = minitorch.rand(1, 3, 64, 64), minitorch.rand(1, 1000)
    before = param_snapshot(model)
    loss = (model(data) - labels).sum()
    loss.backward()
    minitorch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9).step()
    after = param_snapshot(model)
    assert [k for k in before if np.array_equal(before[k], after[k])] == []
    assert all(p.grad is not None for p in model.parameters())


# --- the weights API --------------------------------------------------------------------------------------------

@pytest.fixture
def weights_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(tmp_path))
    return tmp_path


def publish(folder, weights, model, categories, **entry):
    """Save ``model``'s state_dict as the file of ``weights`` in ``folder`` with its manifest entry."""
    path = folder / weights.file
    minitorch.save(model.state_dict(), path)
    manifest = folder / "manifest.json"
    data = json.loads(manifest.read_text()) if manifest.exists() else {"format": 1, "files": {}}
    data["files"][weights.file] = {
        "architecture": weights.meta["architecture"], "dataset": "test-shapes v0", "categories": categories,
        "num_classes": len(categories), "input_size": [3, 32, 32], "epochs": 1, "accuracy": 0.5,
        "num_params": n_params(model), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "command": weights.meta["command"], **entry}
    manifest.write_text(json.dumps(data))
    return path


def test_weights_enums():
    enums = {"resnet18": ResNet18_Weights, "resnet34": ResNet34_Weights, "resnet50": ResNet50_Weights,
             "mobilenet_v2": MobileNet_V2_Weights, "cifar_resnet20": Cifar_ResNet20_Weights,
             "cifar_mobilenet_v2": Cifar_MobileNet_V2_Weights}
    assert set(enums) <= set(models.list_models())  # with torchvision's families (tests/models/)
    for arch, enum in enums.items():
        assert models.get_model_weights(arch) is enum and models.get_model_weights(getattr(models, arch)) is enum
        assert enum.SYNTHETIC_V1.file == f"{arch}-synthetic-v1.safetensors" and enum.SYNTHETIC_V1.url is None
        assert enum.SYNTHETIC_V1.meta["command"] == f"python examples/pretrain.py --model {arch}"
        assert enum.SYNTHETIC_V1.meta["architecture"] == arch
    assert repr(ResNet18_Weights.SYNTHETIC_V1) == "ResNet18_Weights.SYNTHETIC_V1"
    assert models.get_weight("ResNet50_Weights.SYNTHETIC_V1") is ResNet50_Weights.SYNTHETIC_V1
    for name in ("SYNTHETIC_V1", "ResNet18_Weights.SYNTHETIC_V1"):
        assert ResNet18_Weights.verify(name) is ResNet18_Weights.SYNTHETIC_V1
    assert ResNet18_Weights.verify(None) is None
    with pytest.raises(TypeError, match="Invalid Weight class provided; expected ResNet18_Weights but received "
                                        "ResNet34_Weights."):
        models.resnet18(weights=ResNet34_Weights.SYNTHETIC_V1)
    with pytest.raises(KeyError, match="'IMAGENET1K_V2'"):  # torchvision's error (0.15 on)
        models.resnet18(weights="IMAGENET1K_V2")
    with pytest.raises(ValueError, match="Unknown model resnet1000"):
        models.get_model("ResNet1000")


def test_weights_folder_setting(monkeypatch, tmp_path):
    monkeypatch.delenv(models.WEIGHTS_DIR_ENV, raising=False)
    package_folder = pathlib.Path(models.__file__).resolve().parent.parent / "weights"
    assert models.weights_dir() == package_folder and (package_folder / "README.md").is_file()
    monkeypatch.setenv(models.WEIGHTS_DIR_ENV, str(tmp_path))
    synthetic = ResNet18_Weights.SYNTHETIC_V1
    assert models.weights_dir() == tmp_path and synthetic.path == tmp_path / synthetic.file
    assert models.read_manifest() == {} and "sha256" not in ResNet18_Weights.SYNTHETIC_V1.meta
    (tmp_path / "manifest.json").write_text('{"files": {"resnet18-synthetic-v1.safetensors": {"epochs": 3}}}')
    assert ResNet18_Weights.SYNTHETIC_V1.meta == {"architecture": "resnet18", "epochs": 3,
                                             "command": "python examples/pretrain.py --model resnet18"}
    (tmp_path / "manifest.json").write_text('{"files": []}')
    with pytest.raises(RuntimeError, match=re.escape(f"{tmp_path / 'manifest.json'} is not a valid weights manifest")):
        _ = ResNet18_Weights.SYNTHETIC_V1.meta


def test_pretrained_weights_load_and_set_num_classes(weights_folder):
    minitorch.manual_seed(0)
    source = models.cifar_resnet20(num_classes=3)
    source.train()(minitorch.rand(4, 3, 32, 32))  # non-trivial BatchNorm statistics
    publish(weights_folder, Cifar_ResNet20_Weights.SYNTHETIC_V1, source, ["circle", "square", "star"])
    meta = Cifar_ResNet20_Weights.SYNTHETIC_V1.meta
    assert meta["categories"] == ["circle", "square", "star"] and meta["dataset"] == "test-shapes v0"
    for kwargs in ({}, {"num_classes": 3}):
        model = models.cifar_resnet20(weights=Cifar_ResNet20_Weights.SYNTHETIC_V1, **kwargs)
        assert model.fc.out_features == 3
        for key, value in source.state_dict().items():
            assert minitorch.equal(model.state_dict()[key], value), key
    with pytest.raises(ValueError, match="The parameter 'num_classes' expected value 3 but got 10 instead."):
        models.cifar_resnet20(weights="SYNTHETIC_V1", num_classes=10)
    x = minitorch.rand(2, 3, 32, 32)
    loaded = models.get_model("cifar_resnet20", weights="Cifar_ResNet20_Weights.SYNTHETIC_V1").eval()
    assert minitorch.equal(loaded(x), source.eval()(x))


def test_missing_weights_file_names_it_and_the_command(weights_folder):
    expected = re.escape(f"weights file {weights_folder / 'resnet18-synthetic-v1.safetensors'} not found. "
                         f"Regenerate it with `python examples/pretrain.py --model resnet18`")
    with pytest.raises(FileNotFoundError, match=expected):
        models.resnet18(weights=ResNet18_Weights.SYNTHETIC_V1)


def test_corrupted_weights_file_names_it_and_the_command(weights_folder):
    path = publish(weights_folder, Cifar_MobileNet_V2_Weights.SYNTHETIC_V1, models.cifar_mobilenet_v2(num_classes=2),
                   ["a", "b"])
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    expected = re.escape(f"weights file {path} is corrupted: its sha256 is {hashlib.sha256(data).hexdigest()}, ")
    with pytest.raises(RuntimeError, match=expected + ".*python examples/pretrain.py --model cifar_mobilenet_v2"):
        models.cifar_mobilenet_v2(weights="SYNTHETIC_V1")


def test_weights_file_without_manifest_entry_is_refused(weights_folder):
    path = publish(weights_folder, Cifar_ResNet20_Weights.SYNTHETIC_V1, models.cifar_resnet20(), list("abcdefghij"))
    (weights_folder / "manifest.json").unlink()
    expected = re.escape(f"{weights_folder / 'manifest.json'} has no sha256 for {path.name}, so the weights file "
                         f"{path} cannot be verified. Regenerate it with `python examples/pretrain.py --model "
                         f"cifar_resnet20`")
    with pytest.raises(RuntimeError, match=expected):
        models.cifar_resnet20(weights="SYNTHETIC_V1")
    assert isinstance(Cifar_ResNet20_Weights.SYNTHETIC_V1.get_state_dict(check_hash=False), dict)


LEGACY_WARNINGS = [
    "The parameter 'pretrained' is deprecated since 0.13 and may be removed in the future, please use 'weights' "
    "instead.",
    "Arguments other than a weight enum or `None` for 'weights' are deprecated since 0.13 and may be removed in the "
    "future. The current behavior is equivalent to passing `weights={}`.{}"]


def test_legacy_pretrained_argument(weights_folder):
    with pytest.warns(UserWarning) as record:
        model = models.mobilenet_v2(pretrained=False, num_classes=3)
    assert [str(w.message) for w in record] == [LEGACY_WARNINGS[0], LEGACY_WARNINGS[1].format("None", "")]
    assert model.classifier[1].out_features == 3
    # pretrained=True means the weights torchvision 0.12 gave: the project's own ones for the cifar models
    missing = re.escape("cifar_mobilenet_v2-synthetic-v1.safetensors not found. Regenerate it with `python "
                        "examples/pretrain.py --model cifar_mobilenet_v2`")
    with pytest.warns(UserWarning) as record, pytest.raises(FileNotFoundError, match=missing):
        models.cifar_mobilenet_v2(pretrained=True)
    suffix = " You can also use `weights=Cifar_MobileNet_V2_Weights.DEFAULT` to get the most up-to-date weights."
    assert [str(w.message) for w in record] == [
        LEGACY_WARNINGS[0], LEGACY_WARNINGS[1].format("Cifar_MobileNet_V2_Weights.SYNTHETIC_V1", suffix)]
    assert all(w.category is UserWarning for w in record)
    minitorch.manual_seed(0)
    publish(weights_folder, Cifar_ResNet20_Weights.SYNTHETIC_V1, models.cifar_resnet20(num_classes=2), ["a", "b"])
    with pytest.warns(UserWarning) as record:
        assert models.cifar_resnet20(True).fc.out_features == 2  # positional, as before torchvision 0.13
    assert [str(w.message) for w in record] == [
        "Using 'weights' as positional parameter(s) is deprecated since 0.13 and may be removed in the future. "
        "Please use keyword parameter(s) instead.",
        LEGACY_WARNINGS[1].format("Cifar_ResNet20_Weights.SYNTHETIC_V1",
                                  suffix.replace("MobileNet_V2", "ResNet20"))]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        models.cifar_resnet20(weights=None, num_classes=2)
    with pytest.warns(UserWarning) as record:
        models.cifar_resnet20(None, False, num_classes=2)
    assert [str(w.message) for w in record] == ["Using 'weights' and 'progress' as positional parameter(s) is "
                                                "deprecated since 0.13 and may be removed in the future. Please use "
                                                "keyword parameter(s) instead."]
    with pytest.raises(TypeError, match="takes at most 2 positional arguments but 3 were given"):
        models.cifar_resnet20(None, True, 5)


def test_seed_finetune_with_pretrained_weights(tmp_path, monkeypatch):
    """Seed 000 as written, ``pretrained=True``: torchvision's ImageNet weights, here a minitorch-made file of
    the same name in a temporary hub cache."""
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    monkeypatch.setattr(minitorch.hub, "_hub_dir", None)
    minitorch.manual_seed(0)
    (tmp_path / "hub" / "checkpoints").mkdir(parents=True)
    minitorch.save(models.mobilenet_v2().state_dict(), MobileNet_V2_Weights.IMAGENET1K_V1.path)
    with pytest.warns(UserWarning) as record:
        model = models.mobilenet_v2(pretrained=True)
    assert len(record) == 2 and str(record[0].message) == LEGACY_WARNINGS[0]
    assert "`weights=MobileNet_V2_Weights.IMAGENET1K_V1`" in str(record[1].message)
    assert model.classifier[1].out_features == 1000
    finetune_mobilenet(model, 64)
