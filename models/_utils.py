"""Helpers of the model builders, as in ``torchvision.models._utils``."""
from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, Callable, TypeVar

from minitorch import Tensor, nn

from ._api import WeightsEnum, register_model

M = TypeVar("M", bound=nn.Module)


def _make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``, default ``divisor``),
    one multiple higher if rounding lost more than 10%: TensorFlow MobileNet's channel rounding."""
    if min_value is None:
        min_value = divisor
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def _sequence_to_str(seq: list[str]) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b', and 'c'``: how torchvision lists parameter names."""
    quoted = [f"'{item}'" for item in seq]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + ("" if len(quoted) == 2 else ",") + " and " + quoted[-1]


def handle_legacy_interface(**weights: tuple[str, WeightsEnum]) -> Callable[[Callable[..., M]], Callable[..., M]]:
    """Give a builder torchvision's pre-0.13 interface back, with torchvision's deprecation warnings.

    ``weights={weights_param: (legacy_param, default)}``: ``legacy_param=True`` (e.g. ``pretrained=True``)
    becomes ``weights_param=default`` and ``legacy_param=False`` becomes ``weights_param=None``. Keyword-only
    parameters passed by position (``resnet18(True)``) are accepted too.
    """
    def decorate(builder: Callable[..., M]) -> Callable[..., M]:
        keyword_only = [name for name, p in inspect.signature(builder).parameters.items()
                        if p.kind is p.KEYWORD_ONLY]

        @functools.wraps(builder)
        def wrapper(*args: Any, **kwargs: Any) -> M:
            if len(args) > len(keyword_only):
                raise TypeError(f"{builder.__name__}() takes at most {len(keyword_only)} positional arguments "
                                f"but {len(args)} were given")
            if args:
                warnings.warn(f"Using {_sequence_to_str(keyword_only[:len(args)])} as positional parameter(s) is "
                              f"deprecated since 0.13 and may be removed in the future. Please use keyword "
                              f"parameter(s) instead.")
                kwargs.update(zip(keyword_only, args))
            for weights_param, (legacy_param, default) in weights.items():
                missing = object()
                value = kwargs.get(weights_param, missing)
                if ((weights_param not in kwargs and legacy_param not in kwargs) or value is None
                        or isinstance(value, WeightsEnum) or (isinstance(value, str) and value != "legacy")):
                    continue
                # a legacy value given by position has landed under the new name
                positional = value is not missing
                legacy = kwargs.pop(weights_param) if positional else kwargs[legacy_param]
                kwargs.pop(legacy_param, None)
                chosen = default if legacy else None
                if legacy and chosen is None:
                    raise ValueError(f"No weights available for model {builder.__name__}")
                if not positional:
                    warnings.warn(f"The parameter '{legacy_param}' is deprecated since 0.13 and may be removed in "
                                  f"the future, please use '{weights_param}' instead.")
                msg = (f"Arguments other than a weight enum or `None` for '{weights_param}' are deprecated since "
                       f"0.13 and may be removed in the future. The current behavior is equivalent to passing "
                       f"`{weights_param}={chosen}`.")
                if legacy:
                    msg += (f" You can also use `{weights_param}={type(chosen).__name__}.DEFAULT` to get the most "
                            f"up-to-date weights.")
                warnings.warn(msg)
                kwargs[weights_param] = chosen
            return builder(**kwargs)
        return wrapper
    return decorate


def _init_convnet(model: nn.Module, init_linear: Callable[[Tensor], Any]) -> None:
    """The MobileNet/EfficientNet initialisation, module by module: convolutions He-normal (fan-out) with zero
    biases, batch and group norms at weight 1 and bias 0, Linear weights by ``init_linear`` with zero biases."""
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out")
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Linear):
            init_linear(m.weight)
            nn.init.zeros_(m.bias)


def _ovewrite_named_param(kwargs: dict[str, Any], param: str, new_value: Any) -> None:
    """Set ``kwargs[param]``, or check that the caller's value agrees with ``new_value``."""
    if param in kwargs:
        if kwargs[param] != new_value:
            raise ValueError(f"The parameter '{param}' expected value {new_value} but got {kwargs[param]} instead.")
    else:
        kwargs[param] = new_value


def _build(factory: Callable[..., M], weights: WeightsEnum | None, progress: bool, kwargs: dict[str, Any]) -> M:
    """``factory(**kwargs)`` with ``weights`` loaded into it. The weights file is read and verified before the
    model is built; ``num_classes`` becomes the number of the weights' categories (an error if the caller asked
    for another number, before any download where the categories are known without the file), as in torchvision."""
    if weights is None:
        return factory(**kwargs)
    if "categories" in weights.meta:  # the project's own weights have theirs in the manifest, beside the file
        _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
    state_dict = weights.get_state_dict(progress=progress, check_hash=True)
    _ovewrite_named_param(kwargs, "num_classes", len(weights.meta["categories"]))
    model = factory(**kwargs)
    model.load_state_dict(state_dict)
    return model


def _fixed(factory: Callable[..., M], *args: Any, **fixed: Any) -> Callable[..., M]:
    """``factory`` with these arguments; a caller's keyword argument that repeats one of them is a TypeError (unlike
    ``functools.partial``, which would let it win), as in torchvision's builders."""
    def build(**kwargs: Any) -> M:
        return factory(*args, **fixed, **kwargs)
    return build


def _registered_builder(name: str, weights_enum: type[WeightsEnum], build: Callable[..., M], doc: str,
                        legacy_weights: str | None = "IMAGENET1K_V1") -> Callable[..., M]:
    """A builder ``name(*, weights=None, progress=True, **kwargs)`` for a family of many members: it verifies
    ``weights`` against ``weights_enum`` and returns ``build(weights, progress, kwargs)``. It is registered for
    ``get_model``, annotated for ``get_model_weights`` and takes the legacy ``pretrained`` (True meaning the
    entry ``legacy_weights``), as torchvision's hand-written builders do."""
    def builder(*, weights: WeightsEnum | None = None, progress: bool = True, **kwargs: Any) -> M:
        return build(weights_enum.verify(weights), progress, kwargs)
    builder.__name__ = builder.__qualname__ = name
    builder.__module__ = build.__module__
    builder.__doc__ = doc
    builder.__annotations__ = {"weights": weights_enum | None, "progress": bool, "kwargs": Any}
    legacy = None if legacy_weights is None else weights_enum[legacy_weights]
    return register_model()(handle_legacy_interface(weights=("pretrained", legacy))(builder))
