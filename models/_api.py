"""Pretrained weights and the model registry, in the form of ``torchvision.models._api``.

A ``WeightsEnum`` entry is either torchvision's ImageNet weights, downloaded from their URL into the hub
cache (``minitorch.hub``, the folder PyTorch uses), or the project's own weights (``SYNTHETIC_V1``): a file
in the weights folder, the package's ``minitorch/weights/`` (the repository's ``weights/``), or the folder
in the environment variable ``MINITORCH_WEIGHTS_DIR`` when it is set (read at every use, so it can change
at run time). That folder's ``manifest.json`` (format in ``weights/README.md``) gives each file's
meta-data, its sha256 among them; such an entry's ``meta`` is its built-in meta-data updated with the
manifest's entry for its file.
"""
from __future__ import annotations

import enum
import hashlib
import inspect
import json
import os
import pathlib
import urllib.parse
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping

import minitorch
from minitorch import hub, nn, serialization
from minitorch.datasets._presets import ImageClassification
from minitorch.datasets.transforms import InterpolationMode

__all__ = ["WEIGHTS_DIR_ENV", "Weights", "WeightsEnum", "get_model", "get_model_builder", "get_model_weights",
           "get_weight", "list_models", "read_manifest", "update_manifest", "weights_dir"]

WEIGHTS_DIR_ENV = "MINITORCH_WEIGHTS_DIR"
MANIFEST = "manifest.json"
# models/ and weights/ are siblings both in the repository and in the installed package
_PACKAGE_WEIGHTS = pathlib.Path(__file__).resolve().parent.parent / "weights"


def weights_dir() -> pathlib.Path:
    """The folder weight files and ``manifest.json`` are read from."""
    return pathlib.Path(os.environ.get(WEIGHTS_DIR_ENV) or _PACKAGE_WEIGHTS)


def read_manifest(folder: str | os.PathLike | None = None) -> dict[str, dict[str, Any]]:
    """The ``files`` of ``manifest.json`` in ``folder`` (default: ``weights_dir()``): file name -> meta.

    A folder without a manifest has no entries; a manifest that is not valid raises RuntimeError.
    """
    path = pathlib.Path(folder if folder is not None else weights_dir()) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        files = json.loads(text)["files"]
        if not isinstance(files, dict) or not all(isinstance(v, dict) for v in files.values()):
            raise TypeError("'files' must map file names to objects")
    except (ValueError, KeyError, TypeError) as e:
        raise RuntimeError(f"{path} is not a valid weights manifest ({type(e).__name__}: {e}); "
                           f"see weights/README.md for its format") from None
    return files


def update_manifest(file: str, entry: dict[str, Any], folder: str | os.PathLike | None = None) -> None:
    """Set the manifest's entry for ``file`` in ``folder`` (default: ``weights_dir()``), with the file's
    sha256 computed here; other entries are kept, and the manifest is replaced atomically."""
    folder = pathlib.Path(folder if folder is not None else weights_dir())
    files = read_manifest(folder)
    files[file] = {**entry, "sha256": _sha256(folder / file)}
    text = json.dumps({"format": 1, "files": dict(sorted(files.items()))}, indent=2) + "\n"
    serialization._write_atomically(str(folder / MANIFEST), lambda fh: fh.write(text.encode("utf-8")))


def _sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class Weights:
    """A weights file and its meta-data, as torchvision's ``Weights``.

    ``url`` is where the file is downloaded from into the hub cache (``minitorch.hub``), or None for the
    project's own weights, a ``file`` in the weights folder. ``transforms`` makes the preprocessing the
    weights expect. The project's entries have a built-in ``meta`` with what is known before training
    (``architecture`` and ``command``, the command that (re)generates the file); the rest comes from the
    manifest.
    """

    url: str | None
    transforms: Callable[..., Any]
    meta: dict[str, Any]
    file: str = ""

    def __post_init__(self) -> None:
        if not self.file:
            self.file = os.path.basename(urllib.parse.urlparse(self.url).path)


def _synthetic_weights(arch: str, image_size: int) -> Weights:
    """The weights of the builder ``arch`` that the project's pretraining script makes on its synthetic dataset
    of ``image_size`` pixel images (rendered at that size, normalised by ImageNet's statistics)."""
    return Weights(url=None, transforms=partial(ImageClassification, crop_size=image_size, resize_size=image_size),
                   meta={"architecture": arch, "command": f"python examples/pretrain.py --model {arch}"},
                   file=f"{arch}-synthetic-v1.safetensors")


IMAGENET_CATEGORIES: list[str] = json.loads((_PACKAGE_WEIGHTS / "imagenet_categories.json").read_text("utf-8"))


PAPER_RECIPE_DOCS = "These weights reproduce closely the results of the paper using a simple training recipe."


def new_recipe_docs(variant: str = "", claim: str = "improve upon the results of the original paper") -> str:
    """The ``_docs`` of torchvision's entries trained with (``variant`` of) its newer recipe, which ``claim``."""
    return (f"These weights {claim} by using {variant}TorchVision's `new training recipe "
            "<https://pytorch.org/blog/how-to-train-state-of-the-art-models-using-torchvision-latest-primitives/>`_.")


PORTED_DOCS = "These weights are ported from the original paper."


def _imagenet_weights(url: str, resize_size: int, accuracy: tuple[float, float], crop_size: int = 224,
                      interpolation: InterpolationMode = InterpolationMode.BILINEAR,
                      mean: tuple[float, ...] = (0.485, 0.456, 0.406), std: tuple[float, ...] = (0.229, 0.224, 0.225),
                      **meta: Any) -> Weights:
    """An entry of torchvision's ImageNet weights: evaluated at ``crop_size`` pixels (default 224) after resizing to
    ``resize_size`` with ``interpolation`` and normalising by ``mean`` and ``std``, with its ImageNet-1K top-1 and
    top-5 ``accuracy`` (%)."""
    transforms = partial(ImageClassification, crop_size=crop_size, resize_size=resize_size,
                         interpolation=interpolation, mean=mean, std=std)
    return Weights(url=url, transforms=transforms,
                   meta={"min_size": (1, 1), "categories": IMAGENET_CATEGORIES, **meta,
                         "_metrics": {"ImageNet-1K": {"acc@1": accuracy[0], "acc@5": accuracy[1]}}})


def _swag_weights(url: str, size: int, accuracy: tuple[float, float], linear: bool, **meta: Any) -> Weights:
    """An entry of the SWAG weights (Singh et al., 2022) fine-tuned on ImageNet-1K: end to end (evaluated at
    ``size`` pixels), or a linear classifier on the frozen trunk (``linear``, at 224 pixels); bicubic resizing."""
    docs = ("These weights are composed of the original frozen `SWAG <https://arxiv.org/abs/2201.08371>`_ trunk "
            "weights and a linear classifier learnt on top of them trained on ImageNet-1K data." if linear else
            "These weights are learnt via transfer learning by end-to-end fine-tuning the original `SWAG "
            "<https://arxiv.org/abs/2201.08371>`_ weights on ImageNet-1K data.")
    recipe = "https://github.com/pytorch/vision/pull/5793" if linear else "https://github.com/facebookresearch/SWAG"
    return _imagenet_weights(url, size, accuracy, crop_size=size, interpolation=InterpolationMode.BICUBIC,
                             recipe=recipe, license="https://github.com/facebookresearch/SWAG/blob/main/LICENSE",
                             _docs=docs, **meta)


class WeightsEnum(enum.Enum):
    """The weights a builder accepts; each value is a ``Weights``."""

    @classmethod
    def verify(cls, obj: Any) -> Any:
        """``obj`` as a member of this enum: None, a member, or its name (``"DEFAULT"``, ``"Enum.NAME"``; another
        name is a KeyError, as in torchvision)."""
        if obj is not None:
            if type(obj) is str:
                obj = cls[obj.replace(cls.__name__ + ".", "")]
            elif not isinstance(obj, cls):
                raise TypeError(f"Invalid Weight class provided; expected {cls.__name__} but received "
                                f"{obj.__class__.__name__}.")
        return obj

    @property
    def url(self) -> str | None:
        return self.value.url

    @property
    def transforms(self) -> Callable[..., Any]:
        return self.value.transforms

    @property
    def file(self) -> str:
        return self.value.file

    @property
    def path(self) -> pathlib.Path:
        """Where the file is read from: the hub cache for downloaded weights, else the current weights folder."""
        if self.url is not None:
            return pathlib.Path(hub.get_dir()) / "checkpoints" / self.file
        return weights_dir() / self.file

    @property
    def meta(self) -> dict[str, Any]:
        """The meta-data; for the project's weights, the built-in one updated with the manifest's entry."""
        if self.url is not None:
            return self.value.meta
        return {**self.value.meta, **read_manifest().get(self.file, {})}

    def get_state_dict(self, progress: bool = True, check_hash: bool = True) -> Mapping[str, Any]:
        """The state_dict in the file.

        Downloaded weights come from ``minitorch.hub.load_state_dict_from_url`` (the hub cache, else the
        URL, shown with a progress bar when ``progress``, checked against the hash in the file name when
        ``check_hash``). The project's weights are read with ``minitorch.load`` after checking their
        sha256 against the manifest; a missing file, a file without a manifest entry or with another
        sha256 raises an error that names the file and the command that regenerates it.
        """
        if self.url is not None:
            # a state_dict needs nothing beyond tensors, so the restricted unpickler is enough
            return hub.load_state_dict_from_url(self.url, progress=progress, check_hash=check_hash,
                                                weights_only=True)
        path, meta = self.path, self.meta
        fix = (f"Regenerate it with `{meta['command']}` (or set {WEIGHTS_DIR_ENV} to a folder that has it "
               f"and its {MANIFEST}).")
        if not path.is_file():
            raise FileNotFoundError(f"{self!r}: weights file {path} not found. {fix}")
        if check_hash:
            manifest = path.parent / MANIFEST
            if "sha256" not in meta:
                raise RuntimeError(f"{self!r}: {manifest} has no sha256 for {path.name}, so the weights file "
                                   f"{path} cannot be verified. {fix}")
            actual = _sha256(path)
            if actual != meta["sha256"]:
                raise RuntimeError(f"{self!r}: weights file {path} is corrupted: its sha256 is {actual}, "
                                   f"{manifest} expects {meta['sha256']}. {fix}")
        return minitorch.load(path)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self._name_}"


BUILTIN_MODELS: dict[str, Callable[..., nn.Module]] = {}


def register_model(name: str | None = None) -> Callable[[Callable[..., nn.Module]], Callable[..., nn.Module]]:
    """Add a builder to the registry of ``list_models``/``get_model``, under its name or ``name``."""
    def wrapper(fn: Callable[..., nn.Module]) -> Callable[..., nn.Module]:
        key = name if name is not None else fn.__name__
        if key in BUILTIN_MODELS:
            raise ValueError(f"An entry is already registered under the name '{key}'.")
        BUILTIN_MODELS[key] = fn
        return fn
    return wrapper


def list_models() -> list[str]:
    """The names of the registered model builders, sorted."""
    return sorted(BUILTIN_MODELS)


def get_model_builder(name: str) -> Callable[..., nn.Module]:
    """The builder registered as ``name`` (any case)."""
    try:
        return BUILTIN_MODELS[name.lower()]
    except KeyError:
        raise ValueError(f"Unknown model {name.lower()}") from None


def get_model(name: str, **config: Any) -> nn.Module:
    """Build the model registered as ``name`` with the builder's keyword arguments."""
    return get_model_builder(name)(**config)


def get_model_weights(name: str | Callable[..., nn.Module]) -> type[WeightsEnum]:
    """The weights enum of a builder (or of the model registered under ``name``)."""
    fn = get_model_builder(name) if isinstance(name, str) else name
    annotation = inspect.signature(fn, eval_str=True).parameters["weights"].annotation
    for candidate in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(candidate, type) and issubclass(candidate, WeightsEnum):
            return candidate
    raise ValueError("The WeightsEnum class for the specific method couldn't be retrieved. "
                     "Make sure the typing info is correct.")


def get_weight(name: str) -> WeightsEnum:
    """The weights named ``"Enum.MEMBER"``, e.g. ``"ResNet18_Weights.DEFAULT"``."""
    try:
        enum_name, value_name = name.split(".")
    except ValueError:
        raise ValueError(f"Invalid weight name provided: '{name}'.") from None
    for fn in BUILTIN_MODELS.values():
        weights_enum = get_model_weights(fn)
        if weights_enum.__name__ == enum_name:
            return weights_enum[value_name]
    raise ValueError(f"The weight enum '{enum_name}' for the specific method couldn't be retrieved.")

