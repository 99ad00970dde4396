"""gradlab.nn: modules, losses and initialisers with PyTorch's API and printed text.

nn.functional, the layers (nn.Linear, nn.MSELoss, ...: the 25 files of nn/modules), nn.init, nn.utils,
nn.parallel and nn.grad load at their first use (PEP 562's module __getattr__): `import gradlab` needs
only Parameter and Buffer."""
import importlib

from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

_SUBMODULES = {"functional", "grad", "init", "modules", "parallel", "utils"}
_OWN = ["Buffer", "DataParallel", "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional", "init",
        "parallel", "utils"]


def __getattr__(name):
    if name in _SUBMODULES:                      # (importing it binds it here, so this runs once per name)
        return importlib.import_module(f".{name}", __name__)
    if name == "DataParallel":
        value = importlib.import_module(".parallel", __name__).DataParallel
    elif name == "__all__":                      # (what `from gradlab.nn import *` reads)
        value = importlib.import_module(".modules", __name__).__all__ + _OWN
    else:
        modules = importlib.import_module(".modules", __name__)
        if name not in modules.__all__:
            raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
        value = getattr(modules, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__getattr__("__all__")) | _SUBMODULES)
