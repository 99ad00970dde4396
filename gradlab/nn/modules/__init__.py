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

__all__ = ["Module", "Sequential", "ModuleList", "Identity", "Linear", "ReLU", "LeakyReLU", "GELU", "ELU", "SiLU",
           "Softplus", "Softmin", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "Flatten", "MSELoss",
           "L1Loss", "NLLLoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss"]
