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

``mobilenet_v3_small/large``, ``efficientnet_b0``..``b7``, ``efficientnet_v2_s/m/l``, ``regnet_x_*``/``regnet_y_*``,
``convnext_tiny/small/base/large``, ``vit_b_16``..``vit_h_14``, ``swin_t/s/b``, ``swin_v2_t/s/b`` and ``maxvit_t``
are torchvision's too, with their ImageNet (and SWAG) entries; ``ops`` holds the layers they share
(``torchvision.ops``).
"""
from ._api import (WEIGHTS_DIR_ENV, Weights, WeightsEnum, get_model, get_model_builder, get_model_weights, get_weight,
                   list_models, read_manifest, update_manifest, weights_dir)
from . import mobilenet, ops
from .ops.misc import Conv2dNormActivation
from .convnext import (ConvNeXt, ConvNeXt_Base_Weights, ConvNeXt_Large_Weights, ConvNeXt_Small_Weights,
                       ConvNeXt_Tiny_Weights, convnext_base, convnext_large, convnext_small, convnext_tiny)
from .efficientnet import (EfficientNet, EfficientNet_B0_Weights, EfficientNet_B1_Weights, EfficientNet_B2_Weights,
                           EfficientNet_B3_Weights, EfficientNet_B4_Weights, EfficientNet_B5_Weights,
                           EfficientNet_B6_Weights, EfficientNet_B7_Weights, EfficientNet_V2_L_Weights,
                           EfficientNet_V2_M_Weights, EfficientNet_V2_S_Weights, efficientnet_b0, efficientnet_b1,
                           efficientnet_b2, efficientnet_b3, efficientnet_b4, efficientnet_b5, efficientnet_b6,
                           efficientnet_b7, efficientnet_v2_l, efficientnet_v2_m, efficientnet_v2_s)
from .maxvit import MaxVit, MaxVit_T_Weights, maxvit_t
from .mobilenetv2 import (Cifar_MobileNet_V2_Weights, InvertedResidual, MobileNet_V2_Weights, MobileNetV2,
                          cifar_mobilenet_v2, mobilenet_v2)
from .mobilenetv3 import (MobileNet_V3_Large_Weights, MobileNet_V3_Small_Weights, MobileNetV3, mobilenet_v3_large,
                          mobilenet_v3_small)
from .regnet import (RegNet, RegNet_X_1_6GF_Weights, RegNet_X_3_2GF_Weights, RegNet_X_8GF_Weights,
                     RegNet_X_16GF_Weights, RegNet_X_32GF_Weights, RegNet_X_400MF_Weights, RegNet_X_800MF_Weights,
                     RegNet_Y_1_6GF_Weights, RegNet_Y_3_2GF_Weights, RegNet_Y_8GF_Weights, RegNet_Y_16GF_Weights,
                     RegNet_Y_32GF_Weights, RegNet_Y_128GF_Weights, RegNet_Y_400MF_Weights, RegNet_Y_800MF_Weights,
                     regnet_x_1_6gf, regnet_x_3_2gf, regnet_x_8gf, regnet_x_16gf, regnet_x_32gf, regnet_x_400mf,
                     regnet_x_800mf, regnet_y_1_6gf, regnet_y_3_2gf, regnet_y_8gf, regnet_y_16gf, regnet_y_32gf,
                     regnet_y_128gf, regnet_y_400mf, regnet_y_800mf)
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
from .swin_transformer import (Swin_B_Weights, Swin_S_Weights, Swin_T_Weights, Swin_V2_B_Weights, Swin_V2_S_Weights,
                               Swin_V2_T_Weights, SwinTransformer, swin_b, swin_s, swin_t, swin_v2_b, swin_v2_s,
                               swin_v2_t)
from .vision_transformer import (ViT_B_16_Weights, ViT_B_32_Weights, ViT_H_14_Weights, ViT_L_16_Weights,
                                 ViT_L_32_Weights, VisionTransformer, vit_b_16, vit_b_32, vit_h_14, vit_l_16, vit_l_32)
