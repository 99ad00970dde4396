"""torch.compile and torch.compiler, for programs written for PyTorch 2: they run unchanged.

gradlab has no compiler: a compiled function or module computes what it computes uncompiled. What a student
can see of PyTorch's compiler is kept (gradlab/_dynamo.py): the outputs' `grad_fn=<CompiledFunctionBackward>`,
the `OptimizedModule` wrapper with its `_orig_mod.` names in `state_dict()`, and torch.compile's errors for
its arguments.
"""
import functools

from . import _dynamo
from .nn.modules.module import Module

__all__ = ["compile", "disable", "is_compiling", "is_dynamo_compiling", "list_backends", "reset"]


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None, options=None, name=None,
            disable=False, recompile_limit=None, isolate_recompiles=False, shapes_spec=None):
    """torch.compile: a module comes back wrapped in an OptimizedModule, a function as a function of the same
    name; without a model, a decorator (`@torch.compile(mode="max-autotune")`)."""
    settings = dict(fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options, name=name,
                    disable=disable, recompile_limit=recompile_limit, isolate_recompiles=isolate_recompiles,
                    shapes_spec=shapes_spec)
    if model is None:
        def decorator(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, **settings)
        return decorator
    chosen = _dynamo.backend_of(**settings)
    if disable:
        return model
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model, chosen)

    @functools.wraps(model)
    def compiled(*args, **kwargs):
        return _dynamo.run_compiled(model, chosen, args, kwargs)
    return compiled


class OptimizedModule(Module):
    """torch._dynamo.eval_frame.OptimizedModule: the compiled module, holding the original as `_orig_mod`
    (printed, and in its names: `_orig_mod.weight`). Attributes it does not have are the original's."""

    _own = ("_orig_mod", "_backend", "forward", "training")

    def __init__(self, mod, backend="inductor"):
        super().__init__()
        self._orig_mod = mod
        self.__dict__["_backend"] = backend

    @property
    def training(self):
        mod = self.__dict__.get("_modules", {}).get("_orig_mod")
        return True if mod is None else mod.training

    @training.setter
    def training(self, mode):
        mod = self.__dict__.get("_modules", {}).get("_orig_mod")
        if mod is not None:
            mod.training = mode

    def forward(self, *args, **kwargs):
        return _dynamo.run_compiled(self._orig_mod, self._backend, args, kwargs)

    def __getattr__(self, name):
        modules = self.__dict__.get("_modules")
        if modules is None or "_orig_mod" not in modules:
            raise AttributeError(f"'OptimizedModule' object has no attribute '{name}'")
        return modules["_orig_mod"] if name == "_orig_mod" else getattr(modules["_orig_mod"], name)

    def __setattr__(self, name, value):
        if name in OptimizedModule._own or "_modules" not in self.__dict__ or "_orig_mod" not in self._modules:
            return super().__setattr__(name, value)
        setattr(self._orig_mod, name, value)


OptimizedModule.__module__ = "torch._dynamo.eval_frame"


def disable(fn=None, recursive=True, *, reason=None):
    """torch.compiler.disable: the function runs as written (here, as everything does)."""
    if fn is None:
        return lambda f: f
    return fn


def is_compiling():
    """Whether this code is being traced by the compiler: never, in gradlab."""
    return False


is_dynamo_compiling = is_compiling


list_backends = _dynamo.list_backends
reset = _dynamo.reset
