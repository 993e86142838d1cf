"""The classic families of torchvision's zoo as tests/fixtures/make_zoo_fixtures.py records them and the tests in
tests/models compare them: alexnet, vgg, squeezenet, densenet, googlenet, inception, shufflenetv2, resnet, mnasnet.

Every builder's structure is recorded. The numbers are compared on small models: each family's smallest member or
a reduced configuration of its class, with 10 classes and no dropout (so that training is deterministic). Where
the class fixes widths that make it too costly for the suite, the case replaces a few layers after building, in
both libraries alike: AlexNet's and VGG's classifier (9216 or 25088 -> 4096 -> 4096) gets narrow Linear layers;
GoogLeNet and Inception v3 are built with a narrower conv block (their ``blocks``/``inception_blocks`` argument)
and get Linear layers to match. Inception v3's auxiliary classifier needs 299x299 images, which the narrowed
network makes affordable.
"""
from __future__ import annotations

import functools
import re
from unittest import mock

from zoo_record import Case, Family, resolve


def _narrow_classifier(model, nn, in_features, width=16):
    """Replace the classifier's three Linear layers (indices of AlexNet's or VGG's) by narrow ones."""
    linear = [i for i, m in enumerate(model.classifier) if isinstance(m, nn.Linear)]
    for i, (n_in, n_out) in zip(linear, [(in_features, width), (width, width), (width, 10)]):
        model.classifier[i] = nn.Linear(n_in, n_out)
    return model


def _vgg(models, nn, batch_norm):
    features = models.vgg.make_layers([8, "M", 16, "M", 512, "M"], batch_norm=batch_norm)
    return _narrow_classifier(models.VGG(features, num_classes=10, dropout=0.0), nn, 512 * 7 * 7)


def _narrowed(models, module, factor):
    """``module``'s BasicConv2d with ``factor`` times fewer channels (the image's 3 excepted): as the conv block of
    an Inception network, it narrows the whole network by ``factor``, every channel count being a multiple of it."""
    basic_conv = resolve(models, f"{module}:BasicConv2d")

    def conv_block(in_channels, out_channels, **kwargs):
        return basic_conv(in_channels if in_channels == 3 else in_channels // factor, out_channels // factor,
                          **kwargs)
    return conv_block


def _googlenet(models, nn):
    """GoogLeNet 8 times narrower (its Linear layers, made by the blocks themselves, replaced to match)."""
    conv = _narrowed(models, "googlenet", 8)
    blocks = [conv, functools.partial(resolve(models, "googlenet:Inception"), conv_block=conv),
              functools.partial(resolve(models, "googlenet:InceptionAux"), conv_block=conv)]
    model = models.GoogLeNet(num_classes=10, transform_input=True, init_weights=True, blocks=blocks, dropout=0.0,
                             dropout_aux=0.0)
    model.fc = nn.Linear(1024 // 8, 10)
    model.aux1.fc1, model.aux2.fc1 = nn.Linear(2048 // 8, 1024), nn.Linear(2048 // 8, 1024)
    return model


def _inception(models, nn):
    """Inception v3 16 times narrower (its Linear layers replaced to match), with its auxiliary classifier."""
    conv = _narrowed(models, "inception", 16)
    blocks = [resolve(models, f"inception:{name}") for name in ("InceptionA", "InceptionB", "InceptionC",
                                                                "InceptionD", "InceptionE", "InceptionAux")]
    model = models.Inception3(num_classes=10, init_weights=True, dropout=0.0,
                              inception_blocks=[conv] + [functools.partial(b, conv_block=conv) for b in blocks])
    model.fc = nn.Linear(2048 // 16, 10)
    model.AuxLogits.fc = nn.Linear(768 // 16, 10)
    return model


def _with_weights(builder, source, observe, **kwargs):
    """A call: ``builder(**kwargs)`` (``kwargs`` name weights) with the weights' file replaced by the state_dict
    ``source(models)`` (no download), then ``observe(model)``."""
    def call(models, nn):
        state = source(models)
        with mock.patch.object(models.get_model_weights(builder), "get_state_dict", lambda *args, **kw: state):
            return observe(models.get_model(builder, **kwargs))
    return call


def _googlenet_state(models):
    return models.GoogLeNet(init_weights=False).state_dict()


def _inception_state(models):
    return models.Inception3(init_weights=False).state_dict()


def _googlenet_seen(model):
    return model.aux_logits, model.transform_input, model.aux1 is None, model.aux2 is None, model.fc.out_features


def _inception_seen(model):
    return model.aux_logits, model.transform_input, model.AuxLogits is None, model.fc.out_features


def _densenet_v1_state(models):
    """densenet121's state_dict as torchvision's checkpoints have it (saved before batch norms counted their
    batches, with keys ``norm.1`` for ``norm1``, ...), with one entry set to 0.5 to see it loaded."""
    state = models.densenet121().state_dict()
    key = "features.denseblock2.denselayer3.conv2.weight"
    state[key] = state[key] * 0 + 0.5
    return {re.sub(r"(denselayer\d+\.(?:norm|relu|conv))([12])\.", r"\1.\2.", k): v for k, v in state.items()
            if not k.endswith("num_batches_tracked")}


def _mnasnet_version_1(models, nn):
    """A version 1 state_dict (made by loading the version 2 one with version 1 metadata: the stem is rebuilt, then
    its sizes do not match) loaded into a new mnasnet0_5: the stem is rebuilt, with a warning."""
    model = models.mnasnet0_5()
    state = model.state_dict()
    state._metadata[""]["version"] = 1
    try:
        model.load_state_dict(state)
    except RuntimeError as e:
        mismatch = re.findall(r"size mismatch for (\S+):", str(e))  # (the messages print torch.Size)
    fresh = models.mnasnet0_5()
    fresh.load_state_dict(model.state_dict())
    return (mismatch, fresh._version, fresh.state_dict()._metadata[""], [m.out_channels for m in fresh.layers[:8]
                                                                          if isinstance(m, nn.Conv2d)])


RESNET_BUILDERS = ("resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d", "resnext101_64x4d",
                   "wide_resnet50_2", "wide_resnet101_2")

FAMILIES = {
    "alexnet": Family(
        builders=("alexnet",), signatures=("alexnet:AlexNet",),
        cases={"alexnet_narrow": Case(lambda models, nn: _narrow_classifier(models.AlexNet(num_classes=10), nn, 9216),
                                      (2, 3, 63, 63), init=False)}),
    "vgg": Family(
        builders=("vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn"),
        signatures=("vgg:VGG", "vgg:make_layers"),
        cases={"vgg_reduced": Case(lambda models, nn: _vgg(models, nn, False), (2, 3, 32, 32), init=False),
               "vgg_bn_reduced": Case(lambda models, nn: _vgg(models, nn, True), (2, 3, 32, 32), ("eval", "train"),
                                      init=False)},
        outcomes={"cfgs": lambda models, nn: models.vgg.cfgs}),
    "squeezenet": Family(
        builders=("squeezenet1_0", "squeezenet1_1"), signatures=("squeezenet:SqueezeNet", "squeezenet:Fire"),
        cases={"squeezenet1_0": Case(lambda models, nn: models.squeezenet1_0(num_classes=10), (2, 3, 33, 33)),
               "squeezenet1_1": Case(lambda models, nn: models.squeezenet1_1(num_classes=10), (2, 3, 33, 33))},
        outcomes={"version": lambda models, nn: models.SqueezeNet("1_2")}),
    "densenet": Family(
        builders=("densenet121", "densenet161", "densenet169", "densenet201"),
        signatures=("densenet:DenseNet", "densenet:_DenseLayer", "densenet:_DenseBlock", "densenet:_Transition"),
        cases={"densenet_reduced": Case(lambda models, nn: models.DenseNet(
            growth_rate=4, block_config=(2, 1, 2, 1), num_init_features=8, bn_size=2, num_classes=10),
            (2, 3, 32, 32), ("eval", "train"))},
        outcomes={"num_classes_with_weights": lambda models, nn: models.densenet121(weights="DEFAULT",
                                                                                    num_classes=10),
                  "checkpoint_keys": _with_weights("densenet121", _densenet_v1_state, lambda m: (
                      m.features.denseblock2.denselayer3.conv2.weight.detach().sum().item()), weights="DEFAULT")}),
    "googlenet": Family(
        builders=("googlenet",),
        signatures=("googlenet:GoogLeNet", "googlenet:Inception", "googlenet:InceptionAux", "googlenet:BasicConv2d"),
        cases={"googlenet_narrow": Case(_googlenet, (2, 3, 32, 32), ("eval", "train"))},
        outcomes={"blocks": lambda models, nn: models.GoogLeNet(blocks=[None, None]),
                  "aux_logits_false_with_weights": lambda models, nn: models.googlenet(weights="DEFAULT",
                                                                                       aux_logits=False),
                  "num_classes_with_weights": lambda models, nn: models.googlenet(weights="DEFAULT", num_classes=10),
                  "weights": _with_weights("googlenet", _googlenet_state, _googlenet_seen, weights="DEFAULT"),
                  "weights_aux": _with_weights("googlenet", _googlenet_state, _googlenet_seen, weights="DEFAULT",
                                               aux_logits=True),
                  "weights_raw_input": _with_weights("googlenet", _googlenet_state, _googlenet_seen,
                                                     weights="IMAGENET1K_V1", transform_input=False),
                  "pretrained": _with_weights("googlenet", _googlenet_state, _googlenet_seen, pretrained=True),
                  "outputs": lambda models, nn: (models.GoogLeNetOutputs._fields, models.GoogLeNetOutputs.__name__,
                                                 models.googlenet.__name__)}),
    "inception": Family(
        builders=("inception_v3",),
        signatures=("inception:Inception3", "inception:InceptionA", "inception:InceptionB", "inception:InceptionC",
                    "inception:InceptionD", "inception:InceptionE", "inception:InceptionAux",
                    "inception:BasicConv2d"),
        cases={"inception_v3_narrow": Case(_inception, (1, 3, 75, 75)),
               # the auxiliary classifier runs in training, from 299x299 images (two: batch statistics)
               "inception_v3_narrow_train": Case(_inception, (2, 3, 299, 299), ("train",), init=False)},
        outcomes={"blocks": lambda models, nn: models.Inception3(inception_blocks=[]),
                  "aux_logits_false_with_weights": lambda models, nn: models.inception_v3(weights="DEFAULT",
                                                                                          aux_logits=False),
                  "outputs": lambda models, nn: (models.InceptionOutputs._fields, models.InceptionOutputs.__name__),
                  "weights": _with_weights("inception_v3", _inception_state, _inception_seen, weights="DEFAULT"),
                  "weights_raw_input": _with_weights("inception_v3", _inception_state, _inception_seen,
                                                     weights="DEFAULT", transform_input=False)}),
    "shufflenetv2": Family(
        builders=("shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0"),
        signatures=("shufflenetv2:ShuffleNetV2", "shufflenetv2:InvertedResidual"),
        cases={"shufflenet_v2_x0_5": Case(lambda models, nn: models.shufflenet_v2_x0_5(num_classes=10),
                                          (2, 3, 32, 32), ("eval", "train"))},
        outcomes={"repeats": lambda models, nn: models.ShuffleNetV2([4, 8], [24, 48, 96, 192, 1024]),
                  "channels": lambda models, nn: models.ShuffleNetV2([4, 8, 4], [24, 48, 96, 192]),
                  "stride": lambda models, nn: models.shufflenetv2.InvertedResidual(8, 8, 4),
                  "stride_one": lambda models, nn: models.shufflenetv2.InvertedResidual(8, 12, 1)}),
    "resnet": Family(
        builders=RESNET_BUILDERS, signatures=("resnet:ResNet", "resnet:Bottleneck"),
        cases={"resnext_reduced": Case(lambda models, nn: models.ResNet(
            models.resnet.Bottleneck, [1, 1, 1, 1], num_classes=10, groups=4, width_per_group=2), (2, 3, 16, 16),
            ("eval", "train"))},
        outcomes={"groups": lambda models, nn: models.resnext50_32x4d(groups=16),
                  "width": lambda models, nn: models.wide_resnet50_2(width_per_group=64),
                  "num_classes_with_weights": lambda models, nn: models.resnet152(weights="DEFAULT", num_classes=3)}),
    "mnasnet": Family(
        builders=("mnasnet0_5", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3"),
        signatures=("mnasnet:MNASNet", "mnasnet:_InvertedResidual"),
        cases={"mnasnet0_5": Case(lambda models, nn: models.mnasnet0_5(num_classes=10, dropout=0.0), (2, 3, 32, 32),
                                  ("eval", "train"))},
        outcomes={"alpha": lambda models, nn: models.MNASNet(0.0),
                  "depths": lambda models, nn: [models.mnasnet._get_depths(a) for a in (0.5, 0.75, 1.0, 1.3, 0.1)],
                  "round_up_bias": lambda models, nn: models.mnasnet._round_to_multiple_of(10, 8, 1.0),
                  "stride": lambda models, nn: models.mnasnet._InvertedResidual(8, 8, 3, 3, 3),
                  "kernel": lambda models, nn: models.mnasnet._InvertedResidual(8, 8, 7, 1, 3),
                  "repeats": lambda models, nn: models.mnasnet._stack(8, 8, 3, 1, 3, 0, 0.1),
                  "version_1": _mnasnet_version_1,
                  "no_version": lambda models, nn: models.mnasnet0_5().load_state_dict(
                      dict(models.mnasnet0_5().state_dict()))}),
}
