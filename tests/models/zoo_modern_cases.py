"""What tests/models/test_zoo_modern.py checks and tests/fixtures/zoo_modern.py records from torchvision, for the
families mobilenetv3, efficientnet, regnet, convnext, vision_transformer, swin_transformer and maxvit.

Everything here takes the library as an argument (``torch`` with ``torchvision.models``, or ``minitorch`` with
``minitorch.models``), so both sides run the same code. Needs numpy only.
"""
from __future__ import annotations

import base64
import functools
import inspect
import math
import zlib

import numpy as np

FAMILIES = {
    "mobilenetv3": ["mobilenet_v3_large", "mobilenet_v3_small"],
    "efficientnet": [f"efficientnet_b{i}" for i in range(8)] + [f"efficientnet_v2_{s}" for s in "sml"],
    "regnet": [f"regnet_{kind}_{size}" for kind, sizes in (("x", "400mf 800mf 1_6gf 3_2gf 8gf 16gf 32gf"),
                                                          ("y", "400mf 800mf 1_6gf 3_2gf 8gf 16gf 32gf 128gf"))
               for size in sizes.split()],
    "convnext": [f"convnext_{s}" for s in ("tiny", "small", "base", "large")],
    "vision_transformer": ["vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14"],
    "swin_transformer": ["swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s", "swin_v2_b"],
    "maxvit": ["maxvit_t"],
}


# builder -> ``pretrained``: builders called with the legacy argument (True only where there are no weights to
# download: an error)
LEGACY = {"mobilenet_v3_small": False, "efficientnet_b0": False, "regnet_y_128gf": True, "convnext_tiny": False,
          "vit_h_14": True, "swin_v2_t": False, "maxvit_t": False}


def legacy_warnings(M, name: str) -> list[str]:
    """The warnings of ``name(pretrained=LEGACY[name])``, then its error if it raises."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            M.get_model(name, pretrained=LEGACY[name])
            error = []
        except ValueError as e:
            error = [f"ValueError: {e}"]
    return [str(w.message) for w in caught] + error


# --- small configurations, built and run on both sides --------------------------------------------------------

def _efficientnet(M):
    e = M.efficientnet
    setting = [e.FusedMBConvConfig(1, 3, 1, 8, 8, 2), e.FusedMBConvConfig(4, 3, 2, 8, 16, 1),
               e.MBConvConfig(4, 3, 2, 16, 24, 2), e.MBConvConfig(1, 5, 1, 24, 24, 1)]
    return e.EfficientNet(setting, dropout=0.2, stochastic_depth_prob=0.5, num_classes=5, last_channel=32)


def _regnet(M):
    params = M.regnet.BlockParams.from_init_params(depth=4, w_0=16, w_a=8.0, w_m=2.0, group_width=8, se_ratio=0.25)
    return M.regnet.RegNet(params, num_classes=5, stem_width=8)


def _swin(M, v2):
    s = M.swin_transformer
    extra = {"block": s.SwinTransformerBlockV2, "downsample_layer": s.PatchMergingV2} if v2 else {}
    return s.SwinTransformer(patch_size=[2, 2], embed_dim=8, depths=[2, 2], num_heads=[2, 4], window_size=[3, 3],
                             stochastic_depth_prob=0.5, dropout=0.1, num_classes=5, **extra)


def _vit(M, stem):
    v = M.vision_transformer
    extra = ({"conv_stem_configs": [v.ConvStemConfig(8, 3, 2), v.ConvStemConfig(16, 3, 2)], "representation_size": 12}
             if stem else {})
    return v.VisionTransformer(image_size=16, patch_size=4, num_layers=2, num_heads=2, hidden_dim=16, mlp_dim=24,
                               dropout=0.1, num_classes=5, **extra)


# name -> (family, build(models package), input shape); the members of the families at a small size
SMALL = {
    "mobilenet_v3_small": ("mobilenetv3", lambda M: M.mobilenet_v3_small(width_mult=0.25, num_classes=5),
                           (2, 3, 64, 64)),
    "mobilenet_v3_large_dilated": ("mobilenetv3", lambda M: M.mobilenet_v3_large(
        width_mult=0.25, reduced_tail=True, dilated=True, num_classes=5), (2, 3, 64, 64)),
    "efficientnet": ("efficientnet", _efficientnet, (2, 3, 32, 32)),
    "regnet": ("regnet", _regnet, (2, 3, 32, 32)),
    "convnext": ("convnext", lambda M: M.convnext.ConvNeXt(
        [M.convnext.CNBlockConfig(8, 16, 1), M.convnext.CNBlockConfig(16, None, 2)], stochastic_depth_prob=0.5,
        num_classes=5), (2, 3, 32, 32)),
    "vit": ("vision_transformer", lambda M: _vit(M, False), (2, 3, 16, 16)),
    "vit_conv_stem": ("vision_transformer", lambda M: _vit(M, True), (2, 3, 16, 16)),
    "swin": ("swin_transformer", lambda M: _swin(M, False), (2, 3, 20, 20)),
    "swin_v2": ("swin_transformer", lambda M: _swin(M, True), (2, 3, 20, 20)),
    "maxvit": ("maxvit", lambda M: M.maxvit.MaxVit(
        input_size=(32, 32), stem_channels=8, partition_size=2, block_channels=[8, 16], block_layers=[2, 1],
        head_dim=4, stochastic_depth_prob=0.5, mlp_dropout=0.1, num_classes=5), (2, 3, 32, 32)),
}


# name -> (build(torchvision.ops, nn), input shape): the layers of ``ops``
OPS_SMALL = {
    "squeeze_excitation": (lambda ops, nn: ops.SqueezeExcitation(6, 3, activation=nn.SiLU), (2, 6, 5, 5)),
    "mlp": (lambda ops, nn: ops.MLP(6, [8, 4], norm_layer=nn.LayerNorm, dropout=0.2), (3, 6)),
    "conv2d_norm_activation": (lambda ops, nn: ops.Conv2dNormActivation(
        3, 4, (3, 5), stride=2, dilation=2, activation_layer=nn.SiLU), (2, 3, 9, 11)),
    "conv3d_norm_activation": (lambda ops, nn: ops.Conv3dNormActivation(3, 4, kernel_size=(1, 3, 3)),
                               (2, 3, 2, 5, 5)),
    "frozen_batch_norm": (lambda ops, nn: ops.FrozenBatchNorm2d(3, eps=0.1), (2, 3, 4, 4)),
    "stochastic_depth_row": (lambda ops, nn: ops.StochasticDepth(0.5, "row"), (6, 3, 2, 2)),
    "stochastic_depth_batch": (lambda ops, nn: ops.StochasticDepth(0.5, "batch"), (6, 3, 2, 2)),
    "permute": (lambda ops, nn: nn.Sequential(ops.Permute([0, 2, 3, 1]), nn.Linear(3, 2)), (2, 3, 2, 2)),
}

OPS_ERRORS = {
    "probability": lambda ops, lib: ops.stochastic_depth(lib.ones(2, 2), 1.5, "row"),
    "mode": lambda ops, lib: ops.stochastic_depth(lib.ones(2, 2), 0.5, "column"),
}


def interpolated_embeddings(M, lib) -> dict:
    """``interpolate_embeddings`` of a 4x4-patch ViT's state to a 6x6 grid (bicubic), without its heads."""
    state = {"conv_proj.weight": lib.zeros(1), "heads.head.weight": lib.zeros(2, 3),
             "encoder.pos_embedding": lib.from_numpy(normal("pos_embedding", (1, 17, 3)).astype(np.float32))}
    out = M.vision_transformer.interpolate_embeddings(24, 4, state, reset_heads=True)
    return {"keys": list(out), "pos_embedding": _g8(out["encoder.pos_embedding"].numpy().astype(float).tolist())}


# --- constructor and builder errors ----------------------------------------------------------------------------

def _bad_maxvit(M):
    return M.maxvit.MaxVit(input_size=(32, 32), stem_channels=8, partition_size=3, block_channels=[8, 16],
                           block_layers=[1, 1], head_dim=4, stochastic_depth_prob=0.0)


def _bad_vit_input(M, lib):
    return _vit(M, False)(lib.zeros(1, 3, 20, 20))


def _bad_embeddings(M, lib):
    return M.vision_transformer.interpolate_embeddings(8, 4, {"encoder.pos_embedding": lib.zeros(1, 11, 4)})


# family -> {name: call(models package, library) that raises}
ERRORS = {
    "mobilenetv3": {
        "empty": lambda M, lib: M.mobilenetv3.MobileNetV3([], 10),
        "type": lambda M, lib: M.mobilenetv3.MobileNetV3([1], 10),
        "arch": lambda M, lib: M.mobilenetv3._mobilenet_v3_conf("mobilenet_v3_medium"),
        "stride": lambda M, lib: M.mobilenetv3.InvertedResidual(
            M.mobilenetv3.InvertedResidualConfig(8, 3, 8, 8, False, "RE", 3, 1, 1.0), lib.nn.BatchNorm2d),
        "weights_name": lambda M, lib: M.mobilenet_v3_small(weights="IMAGENET1K_V9"),
    },
    "efficientnet": {
        "empty": lambda M, lib: M.efficientnet.EfficientNet([], 0.2),
        "type": lambda M, lib: M.efficientnet.EfficientNet([1], 0.2),
        "arch": lambda M, lib: M.efficientnet._efficientnet_conf("efficientnet_v3"),
        "stride": lambda M, lib: M.efficientnet.MBConv(M.efficientnet.MBConvConfig(1, 3, 3, 8, 8, 1), 0.0,
                                                       lib.nn.BatchNorm2d),
        "weights_class": lambda M, lib: M.efficientnet_b0(weights=M.ConvNeXt_Tiny_Weights.DEFAULT),
    },
    "regnet": {
        "settings": lambda M, lib: M.regnet.BlockParams.from_init_params(depth=4, w_0=12, w_a=8.0, w_m=2.0,
                                                                         group_width=8),
    },
    "convnext": {
        "empty": lambda M, lib: M.convnext.ConvNeXt([]),
        "type": lambda M, lib: M.convnext.ConvNeXt([1]),
    },
    "vision_transformer": {
        "patch": lambda M, lib: M.vision_transformer.VisionTransformer(18, 4, 1, 2, 8, 8),
        "input": _bad_vit_input,
        "embeddings": _bad_embeddings,
        "image_size": lambda M, lib: M.vit_b_16(weights="IMAGENET1K_SWAG_E2E_V1", image_size=224),
    },
    "swin_transformer": {
        "window": lambda M, lib: M.swin_transformer.ShiftedWindowAttention(8, [3], [0], 2),
        "num_classes": lambda M, lib: M.swin_t(weights="DEFAULT", num_classes=10),
    },
    "maxvit": {
        "partition": lambda M, lib: _bad_maxvit(M),
        "heads": lambda M, lib: M.maxvit.RelativePositionalMultiHeadAttention(10, 4, 4),
        "type": lambda M, lib: M.maxvit.PartitionAttentionLayer(8, 4, 2, "row", (4, 4), 2, lib.nn.GELU,
                                                                lib.nn.LayerNorm, 0.0, 0.0, 0.0),
        "layers": lambda M, lib: M.maxvit.MaxVitBlock(8, 8, 0.25, 4, lib.nn.BatchNorm2d, lib.nn.GELU, 4, 2, 0.0, 0.0,
                                                      2, (8, 8), 2, [0.0]),
    },
}


def raised(call, M, lib) -> list[str]:
    """``[exception type name, message]`` of ``call(M, lib)``, which must raise."""
    try:
        call(M, lib)
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return [type(e).__name__, str(e)]
    raise AssertionError("no exception")


# --- the deterministic weights both libraries load -------------------------------------------------------------

def normal(key: str, shape) -> np.ndarray:
    """Standard normal float64 values seeded by ``key``."""
    return np.random.default_rng(zlib.crc32(key.encode())).standard_normal(tuple(shape))


def formula_value(key: str, shape) -> np.ndarray:
    """The value the tests give the state_dict entry ``key``: weights of fan-in ``f`` ~ N(0, 1/f), norm weights
    1 + N(0, 0.01), biases N(0, 0.01), running variances 1 + |N(0, 1/16)|, float32."""
    z, leaf = normal(key, shape), key.rsplit(".", 1)[-1]
    if leaf == "running_var":
        value = 1 + 0.25 * np.abs(z)
    elif len(shape) >= 2:
        value = z / math.sqrt(math.prod(shape[1:]))
    elif leaf == "weight":
        value = 1 + 0.1 * z
    else:
        value = 0.1 * z
    return value.astype(np.float32)


def formula_state(model) -> dict[str, np.ndarray]:
    """``formula_value`` for every parameter and floating buffer of ``model`` but Swin V2's coordinates table (it
    and the index buffers, computed from the configuration, keep the model's values)."""
    names = {n for n, _ in model.named_parameters()}
    names |= {n for n, b in model.named_buffers() if b.is_floating_point() and not n.endswith("relative_coords_table")}
    return {k: formula_value(k, tuple(v.shape)) for k, v in model.state_dict().items() if k in names}


def load_formula(model, lib) -> None:
    """Load ``formula_state`` into ``model`` (strict: every other entry keeps its own value)."""
    state = dict(model.state_dict())
    state.update({k: lib.from_numpy(v) for k, v in formula_state(model).items()})
    model.load_state_dict(state, strict=True)


def _g8(values) -> list:
    """Floats (in nested lists and dicts) to 8 significant digits: float32's precision, in fewer characters."""
    if isinstance(values, dict):
        return {k: _g8(v) for k, v in values.items()}
    if isinstance(values, list):
        return [_g8(v) for v in values]
    return None if values is None else float(f"{values:.8g}")


def run(lib, model, shape) -> dict:
    """The eval output, then (after ``manual_seed(0)``) the train-mode output, the gradient of ``(out * w).sum()``
    (``w`` from the formula) for the input (summed per sample, and its absolute values in all) and each parameter
    (sum of absolute values), and the running statistics' sums after that step."""
    x = lib.from_numpy(normal("input", shape).astype(np.float32)).requires_grad_()
    with lib.no_grad():
        eval_out = model.eval()(x).numpy().astype(float)
    lib.manual_seed(0)
    out = model.train()(x)
    (out * lib.from_numpy(normal("grad_weights", out.shape).astype(np.float32))).sum().backward()
    grad = x.grad.numpy().astype(float)
    return _g8({"eval": eval_out.tolist(), "train": out.detach().numpy().astype(float).tolist(),
                "input_grad": grad.reshape(shape[0], -1).sum(axis=1).tolist(), "input_grad_abs": [np.abs(grad).sum()],
                "param_grads": [None if p.grad is None else np.abs(p.grad.numpy().astype(float)).sum()
                                for _, p in model.named_parameters()],
                "running": [b.numpy().astype(float).sum() for n, b in model.named_buffers()
                            if n.endswith(("running_mean", "running_var"))]})


def init_sums(lib, build, M) -> list[float]:
    """The sum of each parameter of ``build(M)`` built after ``manual_seed(0)``: the initialisation's draws."""
    lib.manual_seed(0)
    return _g8([p.detach().numpy().astype(float).sum() for _, p in build(M).named_parameters()])


# --- module trees, state_dicts and signatures as text ----------------------------------------------------------

def state_listing(model) -> str:
    """One line per state_dict entry: key, shape, dtype."""
    return "\n".join(f"{k} {list(v.shape)} {str(v.dtype).split('.')[-1]}" for k, v in model.state_dict().items())


def pack(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode(), 9)).decode()


def unpack(data: str) -> str:
    return zlib.decompress(base64.b64decode(data)).decode()


def _default(value) -> str:
    """A parameter default as text both libraries agree on: classes and functions by name, partials by parts."""
    if value is inspect.Parameter.empty:
        return "<required>"
    if isinstance(value, functools.partial):
        keywords = ", ".join(f"{k}={_default(v)}" for k, v in sorted(value.keywords.items()))
        return f"partial({_default(value.func)}, {[_default(a) for a in value.args]}, {keywords})"
    if isinstance(value, type) or inspect.isfunction(value):
        return value.__name__
    return repr(value)


def signatures(module) -> dict[str, list]:
    """The public classes and functions defined in ``module`` (weights enums aside): their parameters as
    ``[name, kind, default]``."""
    out = {}
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if not (inspect.isfunction(obj) or inspect.isclass(obj)) or name.endswith("_Weights"):
            continue
        params = inspect.signature(obj).parameters.values()
        out[name] = [[p.name, p.kind.name, _default(p.default)] for p in params]
    return out


def weights_record(enum) -> dict:
    """The entries of a weights enum: url, file, meta (categories by count and ends; ``_docs`` with its white
    space collapsed), the transforms' repr, and which entry is DEFAULT."""
    members = {}
    for name, w in enum.__members__.items():
        meta = {k: v for k, v in w.meta.items() if k != "categories"}
        meta["_docs"] = " ".join(meta["_docs"].split())
        cats = w.meta["categories"]
        members[name] = {"url": w.url, "meta": _jsonable(meta), "transforms": repr(w.transforms()),
                         "categories": [len(cats), cats[0], cats[-1]]}
    return {"members": members, "default": enum.DEFAULT.name}


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
