"""Make `import torch` (and `torch.nn`, `torch.utils.data`, ...) give gradlab's modules in this process.

A finder on sys.meta_path answers for the name `torch` and every `torch.<sub>` whose `gradlab.<sub>`
exists, with that very module object, so `torch.nn is gradlab.nn` and classes are not duplicated.
"""
import importlib
import importlib.abc
import importlib.util
import sys


_LOADED_LATER = ("nn.functional", "nn.modules", "nn.init", "nn.utils", "nn.parallel", "nn.grad", "optim",
                 "optim.lr_scheduler", "utils", "utils.data", "distributions", "fft", "func", "testing", "compiler")


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name != "torch" and not name.startswith("torch."):
            return None
        real = "gradlab" + name[len("torch"):]
        try:
            if importlib.util.find_spec(real) is None:
                return None
        except ModuleNotFoundError:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return importlib.import_module("gradlab" + spec.name[len("torch"):])

    def exec_module(self, module):
        pass        # the gradlab module is already executed


def alias_torch():
    """Install the alias (once); `import torch` then gives gradlab.

    In this process torch *is* gradlab, so gradlab's classes report torch's module names too:
    `print(type(layer))` shows <class 'torch.nn.modules.linear.Linear'>, as the program expects.
    (Without the alias they report gradlab's: <class 'gradlab.Tensor'>.)"""
    if not any(isinstance(f, _TorchAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchAlias())
    # the modules `import gradlab` leaves for their first use, loaded now, so that their classes are renamed too
    for name in _LOADED_LATER:
        importlib.import_module("gradlab." + name)
    for name, module in list(sys.modules.items()):      # the gradlab modules already imported
        if name == "gradlab" or name.startswith("gradlab."):
            sys.modules.setdefault("torch" + name[len("gradlab"):], module)
            for value in list(vars(module).values()):
                where = getattr(value, "__module__", None) if isinstance(value, type) else None
                if where is not None and (where == "gradlab" or where.startswith("gradlab.")):
                    value.__module__ = "torch" + where[len("gradlab"):]
