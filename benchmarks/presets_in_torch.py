"""The weights' preprocessing presets of the torch copy of ``minitorch.models`` (``models_in_torch.py`` installs
this file as ``torch_models._presets``, beside a copy of ``datasets/transforms/_interpolation.py``): torchvision's
where it is installed, else minitorch's ``InterpolationMode`` and a stand-in preset, enough to build every model.
The torch side never imports minitorch, so a Python with only torch and numpy (the benchmarks' side virtualenv)
runs it, and PyTorch's memory in the benchmarks is PyTorch's own."""
try:
    from torchvision.transforms import InterpolationMode
    from torchvision.transforms._presets import ImageClassification
except ImportError:
    from ._interpolation import InterpolationMode  # noqa: F401  (the models import it from here)

    class ImageClassification:
        """Named by the weights' entries; preprocessing images with it needs torchvision."""

        def __init__(self, **kwargs):
            raise ModuleNotFoundError("the torch models' weights transforms need torchvision, which is not installed")
