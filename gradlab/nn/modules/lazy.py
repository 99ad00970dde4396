"""Lazy modules (torch/nn/modules/lazy.py): parameters whose shapes come from the first input. Until the
first forward they are UninitializedParameters (`<UninitializedParameter>`); a forward pre-hook then
infers the sizes, materializes the parameters, initialises them as the eager layer does (drawing from the
global generator at that moment, as PyTorch) and turns the module into that layer (LazyLinear -> Linear)."""
from ..parameter import is_lazy

__all__ = []


class LazyModuleMixin:
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        object.__setattr__(self, "_initialize_hook",
                           self.register_forward_pre_hook(lambda module, args: module._infer_parameters(module, args)))

    def has_uninitialized_params(self):
        return any(is_lazy(t) for t in (*self._parameters.values(), *self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def _infer_parameters(self, module, args, kwargs=None):
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module.__dict__["_initialize_hook"]
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become
