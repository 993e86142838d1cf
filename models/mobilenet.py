"""``torchvision.models.mobilenet``: MobileNetV2 and MobileNetV3 under one module path."""
from .mobilenetv2 import *  # noqa: F401, F403
from .mobilenetv2 import __all__ as _mobilenet_v2_all
from .mobilenetv3 import *  # noqa: F401, F403
from .mobilenetv3 import __all__ as _mobilenet_v3_all

__all__ = _mobilenet_v2_all + _mobilenet_v3_all
