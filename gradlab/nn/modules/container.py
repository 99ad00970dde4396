"""torch/nn/modules/container.py: Sequential, ModuleList and ModuleDict (modules that hold modules),
ParameterList and ParameterDict (modules that hold parameters)."""
import itertools
import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ...tensor import Tensor
from ..parameter import Parameter
from .module import Module, _addindent
from ... import _warnings

__all__ = ["Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]

_CONTAINER_DEPRECATED = ("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                         "Subclass that instead.")


class Container(Module):
    """Deprecated: a Module whose keyword arguments become its submodules. PyTorch marks it with
    typing_extensions' @deprecated: a FutureWarning each time it is made (not a subclass) and each time it is
    subclassed."""

    def __new__(cls, *args, **kwargs):
        if cls is Container:
            _warnings.warn(_CONTAINER_DEPRECATED, FutureWarning)
        return super().__new__(cls)

    def __init_subclass__(cls, *args, **kwargs):
        _warnings.warn(_CONTAINER_DEPRECATED, FutureWarning)
        return super().__init_subclass__(*args, **kwargs)

    def __init__(self, **kwargs):
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


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

    def __setitem__(self, idx, module):
        # (the child keeps its name: an OrderedDict's key, or its number)
        n = len(self._modules)
        idx = operator.index(idx)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        setattr(self, list(self._modules.keys())[idx % n], module)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

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

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def _check_factor(self, other):
        cls = type(self)
        module = "torch" + cls.__module__[len("gradlab"):] if cls.__module__.startswith("gradlab.") else cls.__module__
        shown = f"<class '{module}.{cls.__qualname__}'>"      # (str(type(self)) as PyTorch's message shows it)
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {shown} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {shown}")

    def __mul__(self, other):
        """`Sequential(a, b) * 2` is Sequential(a, b, a, b): the same module objects again, not copies."""
        self._check_factor(other)
        combined = Sequential()
        for offset, module in enumerate(list(self) * other):
            combined.add_module(str(offset), module)
        return combined

    def __rmul__(self, other):
        return self.__mul__(other)

    def __imul__(self, other):
        self._check_factor(other)
        # (PyTorch repeats the children named '0'..'n-1': an OrderedDict's names give its KeyError)
        n = len(self)
        for copy in range(1, other):
            for i in range(n):
                self.add_module(str(i + copy * n), self._modules[str(i)])
        return self


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
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        # (by name, as PyTorch: after an insert past the end the names skip a number, and self[i] follows them)
        return self._modules[self._abs_string_index(idx)]

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

    def __iadd__(self, modules):
        return self.extend(modules)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def insert(self, index, module):
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def extend(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got {type(modules).__name__}")
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def __repr__(self):
        """torch's ModuleList repr: runs of identical children printed once, as '(0-2): 3 x Linear(...)'."""
        reprs = [repr(item) for item in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = []         # [start, end, repr]
        for i, r in enumerate(reprs):
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = [_addindent(f"({a}): {r}" if a == b else f"({a}-{b}): {b - a + 1} x {r}", 2) for a, b, r in blocks]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __add__(self, other):
        combined = ModuleList()
        for i, module in enumerate(itertools.chain(self, other)):
            combined.add_module(str(i), module)
        return combined


def _pairs(name, values, what):
    """torch's ModuleDict/ParameterDict.update over an iterable of (key, value) pairs, with its errors."""
    for j, pair in enumerate(values):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{name} update sequence element #{j} should be Iterable; is{type(pair).__name__}")
        if not len(pair) == 2:
            raise ValueError(f"{name} update sequence element #{j} has length {len(pair)}; 2 is required")
        yield pair[0], pair[1]


class ModuleDict(Module):
    """An ordered dict of named submodules (every Module method sees them)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        pairs = modules.items() if isinstance(modules, (Mapping, ModuleDict)) else \
            _pairs("ModuleDict", modules, "module")
        for key, module in pairs:
            self[key] = module


def _entry_repr(key, p, legacy_name):
    """One line of ParameterList/ParameterDict's repr: '  (0): Parameter containing: [torch.float32 of size 3x4]'."""
    if isinstance(p, Tensor):
        size = "x".join(str(n) for n in p.size())
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        dtype = "torch." + p.dtype._legacy if legacy_name else str(p.dtype)
        return f"  ({key}): {kind} containing: [{dtype} of size {size}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """A list of parameters (tensors put in it become Parameters), registered as '0', '1', ..."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx):
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param):
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        return setattr(self, idx, param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_entry_repr(k, p, False) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """An ordered dict of parameters (tensors put in it become Parameters), registered under their keys."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def copy(self):
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def __contains__(self, key):
        return key in self._keys

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        for k in self._keys.copy():
            del self[k]

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def popitem(self):
        k, _ = self._keys.popitem()
        self._keys[k] = None
        val = self[k]
        del self[k]
        return k, val

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters):
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):       # (torch sorts a plain dict's keys)
            pairs = sorted(parameters.items())
        else:
            pairs = _pairs("ParameterDict", parameters, "parameter")
        for key, parameter in pairs:
            self[key] = parameter

    def extra_repr(self):
        return "\n".join(_entry_repr(k, p, True) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other):
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self
