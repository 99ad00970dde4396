"""gradlab.nn: modules, losses and initialisers with PyTorch's API and printed text."""
from . import functional, init
from .modules import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, Dropout, Flatten, Identity, L1Loss, Linear,
                      LogSoftmax, Module, ModuleList, MSELoss, NLLLoss, ReLU, Sequential, Sigmoid, Softmax, Tanh)
from .parameter import Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Flatten", "Identity", "L1Loss", "Linear",
           "LogSoftmax", "Module", "ModuleList", "MSELoss", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
           "Softmax", "Tanh", "functional", "init"]
