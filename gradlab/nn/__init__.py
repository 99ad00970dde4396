"""gradlab.nn: modules, losses and initialisers with PyTorch's API and printed text."""
from . import functional, init, modules, utils
from .modules import *  # noqa: F401,F403  (every layer, loss and container: nn/modules/__init__.py lists them)
from .parameter import Parameter

__all__ = modules.__all__ + ["Parameter", "functional", "init", "utils"]
