"""``minitorch.models``: image classifiers with torchvision's structure, names and weights API.

The builders of torchvision's classification families (``resnet18`` ... ``wide_resnet101_2``, ``alexnet``,
``vgg11`` ... ``vgg19_bn``, ``squeezenet1_0``, ``densenet121``, ``googlenet``, ``inception_v3``,
``shufflenet_v2_x0_5``, ``mnasnet0_5``, ``mobilenet_v2``, ...) build torchvision's architectures (same
state_dict keys and shapes, so torchvision checkpoints load with ``minitorch.load``). ``cifar_resnet20``
and ``cifar_mobilenet_v2`` are small presets for 32x32 images that train on a CPU in minutes. Each
builder takes ``weights`` (a member of its weights enum, its name, or None), ``progress`` and the legacy
``pretrained``. The enums have torchvision's ImageNet entries (``IMAGENET1K_V1``, ``IMAGENET1K_V2``; ``DEFAULT``
is torchvision's), downloaded into PyTorch's hub cache by ``minitorch.hub``, and ``SYNTHETIC_V1``, the
project's own weights (``DEFAULT`` of the cifar models): files in ``minitorch/weights/`` (or
``$MINITORCH_WEIGHTS_DIR``) described by its ``manifest.json``. ``weights.transforms()`` is the
preprocessing an entry expects.
"""
from ._api import (WEIGHTS_DIR_ENV, Weights, WeightsEnum, get_model, get_model_weights, get_weight, list_models,
                   read_manifest, update_manifest, weights_dir)
from ._ops import Conv2dNormActivation
from .mobilenetv2 import (Cifar_MobileNet_V2_Weights, InvertedResidual, MobileNet_V2_Weights, MobileNetV2,
                          cifar_mobilenet_v2, mobilenet_v2)
from .resnet import (BasicBlock, Bottleneck, Cifar_ResNet20_Weights, CifarResNet, ResNet, ResNet18_Weights,
                     ResNet34_Weights, ResNet50_Weights, ResNet101_Weights, ResNet152_Weights, ResNeXt50_32X4D_Weights,
                     ResNeXt101_32X8D_Weights, ResNeXt101_64X4D_Weights, Wide_ResNet50_2_Weights,
                     Wide_ResNet101_2_Weights, cifar_resnet20, resnet18, resnet34, resnet50, resnet101, resnet152,
                     resnext50_32x4d, resnext101_32x8d, resnext101_64x4d, wide_resnet50_2, wide_resnet101_2)
# torchvision's classic families (the builders replace their modules' names here, as in torchvision)
from .alexnet import *  # noqa: F403
from .densenet import *  # noqa: F403
from .googlenet import *  # noqa: F403
from .inception import *  # noqa: F403
from .mnasnet import *  # noqa: F403
from .shufflenetv2 import *  # noqa: F403
from .squeezenet import *  # noqa: F403
from .vgg import *  # noqa: F403
