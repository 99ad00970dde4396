"""gradlab.nn: modules, losses and initialisers with PyTorch's API and printed text."""
from . import functional, grad, init, modules, parallel, utils
from .modules import *  # noqa: F401,F403  (every layer, loss and container: nn/modules/__init__.py lists them)
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = modules.__all__ + ["Buffer", "DataParallel", "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional", "init", "parallel",
                             "utils"]
