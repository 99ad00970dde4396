"""torch/nn/modules/module.py: Module, the base class of every layer.

A Module keeps three ordered dicts, filled by `__setattr__`:
`_parameters` (Parameters), `_buffers` (tensors saved in the state_dict but not trained) and
`_modules` (submodules). Everything else (parameters(), state_dict(), printing, train/eval)
walks those dicts recursively.
"""
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import numpy as np

from ... import _device, _dtype, _dynamo, _signatures
from ...autograd import grad_mode
from ...creation import empty_like
from ...autograd.function import Function
from ...autograd.node import RemovableHandle, _HookDict
from ...tensor import Tensor
from ..parameter import Parameter, is_lazy, zero_grads
from ... import _warnings

__all__ = ["Module"]


def _addindent(text, spaces):
    """Indent every line but the first (how torch nests a child's repr); blank lines stay empty."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line if line.strip() else "" for line in lines[1:])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


def _type_name(value):
    """torch.typename: a Tensor's legacy type, else the object's own module and name (a function's, a class's),
    else its class's; gradlab's functions named where PyTorch keeps them (F.relu: torch.nn.functional.relu,
    torch.relu: torch._VariableFunctionsClass.relu, F.gelu: torch._C._nn.gelu)."""
    if isinstance(value, Tensor):
        return "torch." + value.dtype._legacy
    module = getattr(value, "__module__", "") or ""
    if hasattr(value, "__qualname__"):
        name = value.__qualname__
    elif hasattr(value, "__name__"):
        name = value.__name__
    else:
        module, name = type(value).__module__ or "", type(value).__qualname__
    if module.startswith("gradlab"):
        if module.startswith("gradlab.nn") and name in _signatures.NN:
            module = "torch._C._nn"
        elif module.startswith("gradlab.nn.functional") or module.startswith("gradlab.nn._functional"):
            module = "torch.nn.functional"
        elif module.startswith("gradlab._functions") and name in _signatures.TORCH:
            module = "torch._VariableFunctionsClass"
        else:
            module = "torch" + module[len("gradlab"):]
    return name if module in ("", "builtins") else f"{module}.{name}"


class Module:
    """Base class of every layer: holds parameters, buffers and submodules."""

    training: bool
    _version = 1      # the state_dict format's version (a subclass that changes its format raises it)

    def __init__(self, *args, **kwargs):
        # a layer without its own __init__ (nn.Tanh(foo=1)) refuses arguments in torch's words
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} "
                            "were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})      # (plain dicts, as PyTorch's: m._parameters.keys())
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_hooks", _HookDict())
        object.__setattr__(self, "_forward_pre_hooks", _HookDict())
        object.__setattr__(self, "_backward_hooks", _HookDict())
        object.__setattr__(self, "_backward_pre_hooks", _HookDict())
        object.__setattr__(self, "_is_full_backward_hook", None)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # --- calling: pre-hooks, forward, hooks ----------------------------------------------------------
    def __call__(self, *args, **kwargs):
        backend = self.__dict__.get("_compiled_call_impl")      # (set by Module.compile: the backend's name)
        # (PyTorch's compiler skips the frames of its own files: a Linear or Sequential compiled in place runs
        # as written; a module whose forward is the program's own is compiled)
        if backend is not None and not (type(self).forward.__module__ or "").startswith("gradlab."):
            return _dynamo.run_compiled(self._call_impl, backend, args, kwargs)
        return self._call_impl(*args, **kwargs)

    def compile(self, *args, **kwargs):
        """Compile this module's calls in place, as torch.compile(self._call_impl, ...) does (gradlab/_dynamo.py:
        the outputs then come from one CompiledFunction node); printing and state_dict are unchanged."""
        if args:
            raise TypeError(f"compile() takes from 0 to 1 positional arguments but {len(args) + 1} were given")
        self.__dict__["_compiled_call_impl"] = _dynamo.backend_of(**kwargs)

    def _call_impl(self, *args, **kwargs):
        with_kwargs = self.__dict__.get("_hooks_with_kwargs") or ()
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {result}.")
                    args, kwargs = result
                continue
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        bw_hook = None
        non_full = self._is_full_backward_hook is False and self.__dict__.get("_backward_hooks")
        if (self.__dict__.get("_backward_hooks") and not non_full) or self.__dict__.get("_backward_pre_hooks"):
            bw_hook = _BackwardHook(self, list(self._backward_hooks.values()), list(self._backward_pre_hooks.values()))
            args = bw_hook.setup_input_hook(args)
        try:
            output = self.forward(*args, **kwargs)
        except Exception:
            always = self.__dict__.get("_hooks_always_called") or ()
            for hook_id, hook in list(self._forward_hooks.items()):     # (always_call=True: run, then re-raise)
                if hook_id in always:
                    try:
                        hook(self, args, kwargs, None) if hook_id in with_kwargs else hook(self, args, None)
                    except Exception:  # noqa: BLE001  (PyTorch warns and goes on to the forward's error)
                        pass
            raise
        for hook_id, hook in list(self._forward_hooks.items()):
            result = hook(self, args, kwargs, output) if hook_id in with_kwargs else hook(self, args, output)
            if result is not None:
                output = result
        if non_full:
            self._register_non_full_backward_hooks(args, output)
        if bw_hook is not None:
            if not isinstance(output, (Tensor, tuple)):
                _warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                               f"Tensors but received {type(output)}", UserWarning)
            output = bw_hook.setup_output_hook(output)
        return output

    def register_backward_hook(self, hook):
        """The deprecated hook(module, grad_input, grad_output): a hook on the grad_fn of the module's output,
        so grad_input holds the gradients of that last node's inputs (PyTorch warns where they are not the
        module's)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        self._is_full_backward_hook = False
        return self._add_hook(self._backward_hooks, hook, False)

    def _register_non_full_backward_hooks(self, inputs, result):
        var = result
        while not isinstance(var, Tensor):
            var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
        grad_fn = var.grad_fn
        if grad_fn is None:
            return
        for hook in list(self._backward_hooks.values()):
            grad_fn.register_hook(lambda grad_input, grad_output, hook=hook: hook(self, grad_input, grad_output))
        self._maybe_warn_non_full_backward_hook(inputs, result, grad_fn)

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn):
        if not isinstance(result, Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
                _warnings.warn("Using non-full backward hooks on a Module that does not return a single Tensor or a "
                               "tuple of Tensors is deprecated and will be removed in future versions. This hook will "
                               "be missing some of the grad_output. Please use register_full_backward_hook to get the "
                               "documented behavior.", FutureWarning)
                return
        else:
            result = (result,)
        if not isinstance(inputs, Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
                _warnings.warn("Using non-full backward hooks on a Module that does not take as input a single Tensor "
                               "or a tuple of Tensors is deprecated and will be removed in future versions. This hook "
                               "will be missing some of the grad_input. Please use register_full_backward_hook to get "
                               "the documented behavior.", FutureWarning)
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            _warnings.warn("Using a non-full backward hook when outputs are nested in python data structure is "
                           "deprecated and will be removed in future versions. This hook will be missing some "
                           "grad_output.", FutureWarning)
        elif len(out_grad_fn) > 1:
            _warnings.warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                           "deprecated and will be removed in future versions. This hook will be missing some "
                           "grad_output. Please use register_full_backward_hook to get the documented behavior.",
                           FutureWarning)
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            next_functions = {n[0] for n in grad_fn.next_functions}
            if inputs_grad_fn != next_functions:
                _warnings.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                               "deprecated and will be removed in future versions. This hook will be missing some "
                               "grad_input. Please use register_full_backward_hook to get the documented behavior.",
                               FutureWarning)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) -> new grad_input or None, once the gradients with respect to
        the module's inputs are known."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        self._is_full_backward_hook = True
        return self._add_hook(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) -> new grad_output or None, before the module's gradients are computed."""
        return self._add_hook(self._backward_pre_hooks, hook, prepend)

    @staticmethod
    def _add_hook(hooks, hook, prepend):
        handle = RemovableHandle(hooks)
        if prepend:         # (first in the dict's order: the hooks run in it)
            rest = list(hooks.items())
            hooks.clear()
            hooks[handle.id] = hook
            hooks.update(rest)
        else:
            hooks[handle.id] = hook
        return handle

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) -> None or new args; runs before forward. with_kwargs: hook(module, args, kwargs)
        -> None or (new args, new kwargs). prepend: before the hooks already registered."""
        return self._add_forward_hook(self._forward_pre_hooks, hook, prepend, with_kwargs, False)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output) -> None or a new output; runs after forward (with_kwargs: hook(module,
        args, kwargs, output); always_call: also when forward raises, with output None)."""
        return self._add_forward_hook(self._forward_hooks, hook, prepend, with_kwargs, always_call)

    def _add_forward_hook(self, hooks, hook, prepend, with_kwargs, always_call):
        handle = self._add_hook(hooks, hook, prepend)
        for flag, name in ((with_kwargs, "_hooks_with_kwargs"), (always_call, "_hooks_always_called")):
            if flag:      # (ids are unique across a module's hook dicts: RemovableHandle counts globally)
                if name not in self.__dict__:
                    object.__setattr__(self, name, set())
                self.__dict__[name].add(handle.id)
        return handle

    # --- registration ---------------------------------------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if getattr(value, "_is_buffer", False) and isinstance(value, Tensor):   # an nn.Buffer: its own persistence
            self.register_buffer(name, value, value.persistent)
            return
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Drop `name` from every registry but `keep`: a parameter or child assigned again keeps its place in
        parameters(), print(model) and the state_dict (`model.fc = nn.Linear(...)`), as in PyTorch."""
        for d in (self.__dict__, self._parameters, self._buffers, self._modules):
            if d is not keep:
                d.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name):
        # only called when normal lookup fails: look in the three registries
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_type_name(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_type_name(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        if target == "":
            return self
        module = self
        for item in target.split("."):
            # (any attribute is looked up: a parameter on the way is "not an nn.Module")
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target, module, strict=False):
        """model.set_submodule("features.0", nn.Conv2d(...)): replaces (or, strict=False, adds) a submodule
        by its dotted name; it keeps its place, as an assignment does."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        atoms = target.split(".")
        if not isinstance(module, Module):
            raise ValueError("`module` is not an nn.Module, found " + str(type(module)))
        parent = self if len(atoms) == 1 else self.get_submodule(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Module):
            raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        module_path, _, buffer_name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, buffer_name):
            raise AttributeError(module._get_name() + " has no attribute `" + buffer_name + "`")
        if buffer_name not in module._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return getattr(module, buffer_name)

    # --- walking the tree -----------------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if self in memo and remove_duplicate:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        """fn(module) on every submodule (children first), then on self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- training state -------------------------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        zero_grads(self.parameters(), set_to_none)

    # --- dtype conversion (in place: the Parameter objects stay the same) ------------------------------
    def _apply_to_arrays(self, fn):
        for module in self.modules():
            for p in module._parameters.values():
                if p is None:
                    continue
                p._data = fn(p._data)
                if p._grad is not None:
                    p._grad._data = fn(p._grad._data)
            for name, b in module._buffers.items():
                if b is not None:
                    b._data = fn(b._data)
        return self

    def share_memory(self):
        """Marks every parameter and buffer shared (Tensor.share_memory_: gradlab has only one process)."""
        for t in (*self.parameters(), *self.buffers()):
            t.share_memory_()
            if t.grad is not None:
                t.grad.share_memory_()
        return self

    def to_empty(self, *, device, recurse=True):
        """Parameters and buffers made anew on `device` with no values set (empty_like): how a module built
        on the meta device gets real storage, to be filled by an init or load_state_dict next."""
        for module in self.modules() if recurse else [self]:
            for t in (*module._parameters.values(), *module._buffers.values()):
                if t is not None:
                    t._data = empty_like(t, device=device)._data
                    if t._grad is not None:
                        t._grad._data = empty_like(t._grad, device=device)._data
        return self

    def to(self, *args, dtype=None, device=None, **kwargs):
        for a in args:
            if isinstance(a, (_dtype.dtype, np.dtype)) or (isinstance(a, type) and (
                    a in _dtype._PYTHON_TYPES or issubclass(a, np.generic))):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            else:               # a device: torch's errors for 'float64', 3, 'gpu'
                device = _device.as_device(a, "to")
        if device is not None:
            device = _device.as_device(device, "to")
            if device.type == "meta":         # every parameter and buffer onto the meta device: no values kept
                self._apply_to_arrays(_device.meta_array)
            elif any(True for _ in self.parameters()) or any(True for _ in self.buffers()):
                if any(_device.is_meta(p._data) for p in (*self.parameters(), *self.buffers())):
                    raise NotImplementedError(
                        _device.META_NO_DATA + " Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() "
                        "when moving module from meta to a different device.")
                _device.require_cpu(device)     # (a module without tensors moves nothing: no error)
        if dtype is None:
            return self
        dtype = _dtype._PYTHON_TYPES.get(dtype, dtype) if isinstance(dtype, type) else dtype   # to(float): float64
        target = _dtype.to_numpy_dtype(dtype)
        if target.kind not in "fc":
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        return self._apply_to_arrays(lambda a: a.astype(target) if a.dtype.kind in "fc" else a)

    def float(self):
        return self._apply_to_arrays(lambda a: a.astype(np.float32) if a.dtype.kind == "f" else a)

    def double(self):
        return self._apply_to_arrays(lambda a: a.astype(np.float64) if a.dtype.kind == "f" else a)

    def type(self, dst_type):
        """Every parameter and buffer cast to dst_type (a dtype or a name like 'torch.DoubleTensor')."""
        dtype = _dtype.from_legacy_name(dst_type) if isinstance(dst_type, str) else dst_type
        target = _dtype.to_numpy_dtype(dtype)
        return self._apply_to_arrays(lambda a: a.astype(target))

    def half(self):
        return self._apply_to_arrays(lambda a: a.astype(np.float16) if a.dtype.kind == "f" else a)

    def cpu(self):
        return self

    def cuda(self, device=None):
        """A CPU-only build: moving a module that holds tensors fails as PyTorch's does."""
        return self.to("cuda" if device is None else device)

    # --- state_dict -----------------------------------------------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An OrderedDict name -> tensor ('0.weight', ...): parameters and persistent buffers, detached."""
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()   # each module's _version, by prefix ('' for the root)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars or is_lazy(p) else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy tensors into the parameters and buffers; torch's errors for missing/unexpected keys."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)      # (a copy: an upgrade below must not change the caller's dict)
        own = OrderedDict()
        # (every name of a shared module, as state_dict writes them: PyTorch's load recurses into _modules)
        for prefix, module in self.named_modules(remove_duplicate=False):
            p = prefix + "." if prefix else ""
            version = None if metadata is None else metadata.get(prefix, {}).get("version")
            module._upgrade_state_dict(state_dict, p, version)
            for name, t in module._parameters.items():
                if t is not None:
                    own[p + name] = (module, name, t)
            for name, t in module._buffers.items():
                if t is not None and name not in module._non_persistent_buffers_set:
                    own[p + name] = (module, name, t)
        for key, (owner, name, target) in own.items():
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if is_lazy(target) and isinstance(value, Tensor) and not is_lazy(value):
                with grad_mode.no_grad():     # a lazy module loads an initialised state: it takes its shape
                    target.materialize(value._data.shape)
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                              f'Tensor-like object from checkpoint but received {type(value)}')
                continue
            if target.dim() == 0 and value.dim() == 1:
                value = value[0]        # (PyTorch still reads 0-d values saved as 1-element vectors by old versions)
            if value._data.shape != target._data.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                              f"checkpoint, the shape in current model is {target.shape}.")
                continue
            target_meta, value_meta = _device.is_meta(target._data), _device.is_meta(value._data)
            if target_meta and not value_meta and not assign:
                _warnings.warn(f"for {key}: copying from a non-meta parameter in the checkpoint to a meta parameter in "
                               "the current model, which is a no-op. (Did you mean to pass `assign=True` to assign "
                               "items in the state dictionary to their corresponding key in the module instead of "
                               "copying them in place?)")
            with grad_mode.no_grad():
                if assign:
                    # the checkpoint's own tensor (its dtype and device too) becomes the module's; a parameter
                    # keeps the module's requires_grad
                    if isinstance(target, Parameter):
                        if isinstance(value, Parameter):
                            value.requires_grad_(target.requires_grad)
                        else:
                            value = Parameter(value, requires_grad=target.requires_grad)
                    setattr(owner, name, value)
                elif value_meta and not target_meta:
                    errors.append(f'While copying the parameter named "{key}", whose dimensions in the model are '
                                  f"{target.size()} and whose dimensions in the checkpoint are {value.size()}, an "
                                  f"exception occurred : {(_device.META_NO_DATA,)}.")
                elif not target_meta:
                    np.copyto(target._data, value._data, casting="unsafe")
                    target._version_counter[0] += 1
        unexpected = [k for k in state_dict if k not in own]
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def get_extra_state(self):
        """PyTorch calls it only for a subclass that writes it (with set_extra_state); the base refuses."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    def set_extra_state(self, state):
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    def _upgrade_state_dict(self, state_dict, prefix, version):
        """Fill in what a state_dict saved by an older version of this module (its metadata's `version`
        below the class's `_version`, or no metadata at all) lacks; PyTorch does it in _load_from_state_dict."""

    # --- printing -------------------------------------------------------------------------------------
    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split("\n")
        children = []
        for name, module in self._modules.items():
            children.append(f"({name}): " + _addindent(repr(module), 2))
        lines = lines + children
        text = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not children:
                text += lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


# --- full backward hooks: torch/utils/hooks.py's BackwardHook ---------------------------------------------
class BackwardHookFunction(Function):
    """An identity on the module's input and output tensors: its node (BackwardHookFunctionBackward) is where
    the backward hooks see the gradients."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args


class _BackwardHook:
    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn):
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)
        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        grad_fns = [t.grad_fn for t in new_tensors
                    if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return tuple(arg_list), tensors_idx

    def setup_input_hook(self, args):
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        def fn(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                if self.user_pre_hooks:
                    expected_len = len(self.grad_outputs)
                    for user_pre_hook in self.user_pre_hooks:
                        hook_grad_outputs = user_pre_hook(self.module, self.grad_outputs)
                        if hook_grad_outputs is None:
                            continue
                        if len(hook_grad_outputs) != expected_len:
                            raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                               f"got {len(hook_grad_outputs)}, but expected {expected_len}")
                        self.grad_outputs = hook_grad_outputs
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:
                    _warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                                   "outputs since no inputs require gradients. See "
                                   "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                                   "register_full_backward_hook for more details.", UserWarning)
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients.")
                    self.grad_outputs = None
                if local_grad_outputs is not None:
                    return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
                return None
            grad_fn.register_hook(hook)
        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]
