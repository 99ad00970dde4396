"""torch/nn/modules: one file per kind of layer, as in PyTorch, so that a layer's type prints PyTorch's
path (<class 'torch.nn.modules.linear.Linear'>) and pickles by it. Imports point one way: module.py
(Module) at the bottom, every other file builds on it."""
from .module import Module, zero_grads
from .container import ModuleList, Sequential
from .linear import Identity, Linear
from .activation import (ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softmin, Softplus,
                         Tanh)
from .dropout import Dropout
from .flatten import Flatten
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from . import batchnorm, conv, distance, normalization, pooling, rnn, sparse
from .batchnorm import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403

__all__ = ["Module", "Sequential", "ModuleList", "Identity", "Linear", "ReLU", "LeakyReLU", "GELU", "ELU", "SiLU",
           "Softplus", "Softmin", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "Flatten", "MSELoss",
           "L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"] + (batchnorm.__all__ + conv.__all__ + distance.__all__ + normalization.__all__ + pooling.__all__ +
           rnn.__all__ + sparse.__all__)
