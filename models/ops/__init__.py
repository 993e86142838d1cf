"""``minitorch.models.ops`` (``torchvision.ops`` under ``python -m minitorch``): the layers torchvision's
classification models are built from. ``misc``: ``Conv2dNormActivation``, ``Conv3dNormActivation``,
``FrozenBatchNorm2d``, ``SqueezeExcitation``, ``MLP``, ``Permute``; ``stochastic_depth``: ``StochasticDepth``
and ``stochastic_depth``. torchvision's detection operators (boxes, NMS, RoI pooling, deformable convolution,
feature pyramids, losses) are not here."""
from .misc import Conv2dNormActivation, Conv3dNormActivation, FrozenBatchNorm2d, MLP, Permute, SqueezeExcitation
from .stochastic_depth import StochasticDepth, stochastic_depth

__all__ = ["stochastic_depth", "StochasticDepth", "FrozenBatchNorm2d", "Conv2dNormActivation", "Conv3dNormActivation",
           "SqueezeExcitation", "MLP", "Permute"]
