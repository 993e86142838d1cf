"""The layers of minitorch.nn, one family per file as in torch.nn.modules."""
from .activation import (ELU, GELU, SELU, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax,
                         Mish, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Softmin, Softplus, Tanh)
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import Container, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, ConvTranspose2d
from .dropout import Dropout, Dropout2d
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import GroupNorm, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .sparse import Embedding
from .upsampling import Upsample
from .activation_more import CELU, GLU, Hardshrink, PReLU, Softshrink, Softsign, Tanhshrink, Threshold
from .bilinear import Bilinear
from .distance import CosineSimilarity, PairwiseDistance
from .instancenorm import InstanceNorm1d, InstanceNorm2d
from .norm_more import LocalResponseNorm, RMSNorm
from .padding import (CircularPad1d, CircularPad2d, ConstantPad1d, ConstantPad2d, ReflectionPad1d, ReflectionPad2d,
                      ReplicationPad1d, ReplicationPad2d, ZeroPad1d, ZeroPad2d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling_more import AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d, MaxPool1d
from .loss_more import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, KLDivLoss, MarginRankingLoss,
                        MultiLabelSoftMarginLoss, PoissonNLLLoss, SoftMarginLoss, TripletMarginLoss)
# issue 10, nn_rest slice
from .activation_more import RReLU, Softmax2d
from .adaptive import AdaptiveLogSoftmaxWithLoss
from .channelshuffle import ChannelShuffle
from .dropout import AlphaDropout, Dropout1d, Dropout3d, FeatureAlphaDropout
from .loss_more import (CTCLoss, LinearCrossEntropyLoss, LinearCrossEntropyOptions, MultiLabelMarginLoss, MultiMarginLoss,
                        NLLLoss2d, TripletMarginWithDistanceLoss)
from .norm_more import CrossMapLRN2d
from .sparse import EmbeddingBag
# issue 11, attention slice
from .activation_attention import MultiheadAttention
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
