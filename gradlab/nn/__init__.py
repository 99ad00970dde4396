"""gradlab.nn: modules, losses and initialisers with PyTorch's API and printed text."""
from . import functional, init
from .modules import (ELU, GELU, BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, Flatten, Identity, L1Loss,
                      LeakyReLU, Linear, LogSoftmax, Module, ModuleList, MSELoss, NLLLoss, ReLU, Sequential, Sigmoid,
                      SiLU, Softmax, Softmin, Softplus, Tanh)
from .parameter import Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "ELU", "Flatten", "GELU", "Identity",
           "L1Loss", "LeakyReLU", "Linear", "LogSoftmax", "Module", "ModuleList", "MSELoss", "NLLLoss", "Parameter",
           "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax", "Softmin", "Softplus", "Tanh", "functional", "init"]
