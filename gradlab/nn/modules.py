"""Module and the layers and losses built on it, with PyTorch's API and printed text.

A Module keeps three ordered dicts, filled by `__setattr__`:
`_parameters` (Parameters), `_buffers` (tensors saved in the state_dict but not trained) and
`_modules` (submodules). Everything else (parameters(), state_dict(), printing, train/eval)
walks those dicts recursively.
"""
import itertools
import math
import operator
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Iterable

import numpy as np

from .. import random as _random
from ..autograd import grad_mode
from ..autograd.node import RemovableHandle, _HookDict
from ..tensor import Tensor
from . import functional as F
from .parameter import Parameter


def _addindent(text, spaces):
    """Indent every line but the first (how torch nests a child's repr)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


def zero_grads(params, set_to_none=True):
    """What Module.zero_grad and Optimizer.zero_grad do: drop each .grad (the default), or zero it in
    place after cutting it from any graph (set_to_none=False)."""
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g.grad_fn is not None:
            g.detach_()
        else:
            g.requires_grad_(False)
        g.zero_()


class Module:
    """Base class of every layer: holds parameters, buffers and submodules."""

    training: bool

    def __init__(self, *args, **kwargs):
        # a layer without its own __init__ (nn.Tanh(foo=1)) refuses arguments in torch's words
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} "
                            "were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_hooks", _HookDict())
        object.__setattr__(self, "_forward_pre_hooks", _HookDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    # --- calling: pre-hooks, forward, hooks ----------------------------------------------------------
    def __call__(self, *args, **kwargs):
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        output = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, output)
            if result is not None:
                output = result
        return output

    def register_forward_pre_hook(self, hook):
        """hook(module, args) -> None or new args; runs before forward."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        """hook(module, args, output) -> None or a new output; runs after forward."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # --- registration ---------------------------------------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
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
            self._forget(name)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name):
        for d in (self.__dict__, self._parameters, self._buffers, self._modules):
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
        module = self
        for item in target.split(".") if target else []:
            if item not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if name not in module._parameters:
            raise AttributeError(f"{type(module).__name__} has no attribute `{name}`")
        return module._parameters[name]

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

    def to(self, *args, dtype=None, device=None, **kwargs):
        from .. import _device, _dtype
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
            if any(True for _ in self.parameters()) or any(True for _ in self.buffers()):
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
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy tensors into the parameters and buffers; torch's errors for missing/unexpected keys."""
        from collections.abc import Mapping
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        own = OrderedDict()
        for prefix, module in self.named_modules():
            p = prefix + "." if prefix else ""
            for name, t in module._parameters.items():
                if t is not None:
                    own[p + name] = t
            for name, t in module._buffers.items():
                if t is not None and name not in module._non_persistent_buffers_set:
                    own[p + name] = t
        for key, target in own.items():
            if key not in state_dict:
                missing.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                              f'Tensor-like object from checkpoint but received {type(value)}')
                continue
            if value._data.shape != target._data.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                              f"checkpoint, the shape in current model is {target.shape}.")
                continue
            with grad_mode.no_grad():
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


def _type_name(value):
    if isinstance(value, Tensor):
        return "torch." + value.dtype._legacy
    return type(value).__module__ + "." + type(value).__qualname__ if type(value).__module__ != "builtins" \
        else type(value).__qualname__


# --- containers ---------------------------------------------------------------------------------------
class Sequential(Module):
    """Runs its modules in order; children are named '0', '1', ... (or by an OrderedDict's keys)."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        n = len(self._modules)
        idx = operator.index(idx)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules.values())[idx % n]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)
        return self

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index += n if index < 0 else 0
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def __delitem__(self, idx):
        keys = list(self._modules.keys())
        if isinstance(idx, slice):
            for key in keys[idx]:
                delattr(self, key)
        else:
            idx = operator.index(idx)
            if not -len(keys) <= idx < len(keys):
                raise IndexError(f"index {idx} is out of range")
            delattr(self, keys[idx])
        # renumber, as torch does: the children stay named '0', '1', ...
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        ret = Sequential()
        for layer in itertools.chain(self, other):
            ret.append(layer)
        return ret


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            if not isinstance(modules, Iterable):
                raise TypeError(f"ModuleList.extend should be called with an iterable, but got "
                                f"{type(modules).__name__}")
            for module in modules:
                self.append(module)

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        values = list(self._modules.values())
        if isinstance(idx, slice):
            return ModuleList(values[idx])
        idx = operator.index(idx)
        if not -len(values) <= idx < len(values):
            raise IndexError(f"index {idx} is out of range")
        return values[idx]

    def _abs_string_index(self, idx):
        idx = operator.index(idx)
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range")
        return str(idx % len(self))

    def __setitem__(self, idx, module):
        setattr(self, self._abs_string_index(idx), module)

    def __delitem__(self, idx):
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._abs_string_index(idx))
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))   # renumber

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def insert(self, index, module):
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got {type(modules).__name__}")
        for module in modules:
            self.append(module)
        return self

    def __add__(self, other):
        combined = ModuleList()
        for i, module in enumerate(itertools.chain(self, other)):
            combined.add_module(str(i), module)
        return combined


# --- layers ----------------------------------------------------------------------------------------------
class Linear(Module):
    """y = x @ weight.T + bias, initialised exactly as torch's nn.Linear (same random stream)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        from .. import empty            # the public (argument-checked) one: PyTorch's errors for bad sizes
        self.in_features = in_features
        self.out_features = out_features
        # torch first makes the (uninitialised) Parameters: its errors for bad sizes, devices and dtypes
        self.weight = Parameter(empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        dtype = self.weight._data.dtype
        draw = np.float32 if dtype == np.float16 else dtype       # torch draws half values as floats
        if self.weight._data.size:
            w, b = _random.linear_init(self.in_features, self.out_features, self.bias is not None, draw)
        else:       # nothing to draw for the weight (torch warns); the bias is drawn from U(0, 0)
            warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
            w = self.weight._data
            b = _random.default_generator.uniform((self.out_features,), draw, 0.0, 0.0)
        self.weight._data[...] = w
        self.weight._version_counter[0] += 1
        if self.bias is not None:
            self.bias._data[...] = b
            self.bias._version_counter[0] += 1

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Tanh(Module):
    def forward(self, input):
        F._tensor_arg("tanh", input)        # torch.tanh(input): its TypeError for a list
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        F._tensor_arg("sigmoid", input)
        return input.sigmoid()


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


# --- losses ------------------------------------------------------------------------------------------------
class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:      # the pre-1.0 flags (torch warns)
            reduction = F._legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


# PyTorch defines its layers in files torch/nn/modules/<file>.py, and type(layer) prints that path
# (<class 'torch.nn.modules.linear.Linear'>). gradlab keeps them all in this one file, but gives each
# class the same submodule name and registers those submodules, so that `gradlab.nn.modules.linear`
# imports too (and pickle finds the classes).
def _register_submodules():
    import sys
    import types
    files = {"module": [_IncompatibleKeys, Module], "container": [Sequential, ModuleList],
             "linear": [Identity, Linear], "flatten": [Flatten], "dropout": [_DropoutNd, Dropout],
             "activation": [ReLU, LeakyReLU, GELU, ELU, SiLU, Softplus, Softmin, Tanh, Sigmoid, Softmax, LogSoftmax],
             "loss": [_Loss, _WeightedLoss, MSELoss, L1Loss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss]}
    for file, classes in files.items():
        name = f"{__name__}.{file}"
        submodule = types.ModuleType(name, f"PyTorch's torch.nn.modules.{file}: classes defined in {__name__}.")
        for cls in classes:
            cls.__module__ = name
            setattr(submodule, cls.__name__, cls)
        sys.modules[name] = submodule
        globals()[file] = submodule


_register_submodules()
