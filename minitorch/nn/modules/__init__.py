"""The layers of minitorch.nn, one family per file as in torch.nn.modules."""
from .activation import (ELU, GELU, SELU, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax,
                         Mish, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Softmin, Softplus, Tanh)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm
from .container import Container, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .dropout import Dropout, Dropout2d
from .flatten import Flatten, Unflatten
from .fold import Fold, Unfold
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import GroupNorm, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .sparse import Embedding
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .activation_more import CELU, GLU, Hardshrink, PReLU, Softshrink, Softsign, Tanhshrink, Threshold
from .bilinear import Bilinear
from .distance import CosineSimilarity, PairwiseDistance
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d, LazyConv2d, LazyConv3d,
                   LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d, LazyInstanceNorm1d,
                   LazyInstanceNorm2d, LazyInstanceNorm3d, LazyLinear)
from .norm_more import LocalResponseNorm, RMSNorm
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .pooling_more import (AdaptiveAvgPool1d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d,
                           AvgPool1d, AvgPool3d, FractionalMaxPool2d, FractionalMaxPool3d, LPPool1d, LPPool2d,
                           LPPool3d, MaxPool1d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d)
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
from .activation_attention import MultiheadAttention
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
                          TransformerEncoderLayer)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
