"""Optimizers and learning-rate schedulers, like ``torch.optim``."""
from . import lr_scheduler, swa_utils
from ._stateless import swap_in_optimizer_params_and_state
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .muon import Muon
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = ["ASGD", "SGD", "Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "Muon", "NAdam",
           "Optimizer", "RAdam", "RMSprop", "Rprop", "SparseAdam", "lr_scheduler", "swa_utils",
           "swap_in_optimizer_params_and_state"]

swap_in_optimizer_params_and_state.__module__ = "minitorch.optim"
