"""Graph nodes: what a tensor's `grad_fn` is.

Every operation that records a graph creates one Node. A node knows where gradients go next
(`next_functions`: one `(node, output_nr)` pair per differentiable input slot, `(None, 0)` for a
constant) and keeps only the values its gradient formula needs (its *saved tensors*). Leaves are
reached through `AccumulateGrad` nodes, which add incoming gradients into `leaf.grad`.
"""
import itertools
import math
import sys
import weakref

import numpy as np

from .._ctype import CType
from .._dtype import from_numpy_dtype
from .._tensor_core import InferenceVersionCounter, GivenDims, Tensor
from ._saved_names import SAVED_NAMES
from .grad_mode import _set_grad, is_grad_enabled

_sequence = itertools.count()   # creation order: the engine runs the newest ready node first

SECOND_BACKWARD_ERROR = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward."
)


def _pack(pack_hook, tensor):
    """A pack hook's value: PyTorch calls it with grad mode off (what it computes records no graph)."""
    prev = is_grad_enabled()
    _set_grad(False)
    try:
        return pack_hook(tensor)
    finally:
        _set_grad(prev)


_DETACHED_INPLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not supported, "
    "please use out-of-place `.detach()` instead")

# nodes whose `_saved_dim` PyTorch shows as one int (gradlab keeps a 1-tuple)
_INT_DIM_NODES = {"MaxBackward0", "MinBackward0", "ProdBackward1", "MedianBackward1", "NanmedianBackward1",
                  "KthvalueBackward0", "ModeBackward0"}

# the int64_t parameters a node keeps: PyTorch's getters read them as unsigned (-1 shows as 18446744073709551615),
# and a dim keeps its value as the user gave it (see _tensor_core.WrappedDim)
_INT64_KEYS = {"dim", "dims", "dim0", "dim1", "dim2", "index", "diagonal", "offset", "shifts", "dimension", "start",
               "end"}


_MISSING = object()


def _split_size(n):
    sections, meta = n.__dict__.get("sections"), n._input_meta[0] if n._input_meta else None
    if isinstance(sections, (list, tuple)) and len(sections):
        return int(sections[0])
    return _MISSING if meta is None else (meta[0][n.__dict__["dim"]] if meta[0] else 1)


def _input_sizes(n):
    meta = n._input_meta[0] if n._input_meta else None
    if meta is None:
        return _MISSING
    return tuple(meta[0])


def _norm_ord(n):
    p = n.__dict__.get("p", _MISSING)
    return int(p) if type(p) is float and p.is_integer() else p


# (node class, parameter) -> the value PyTorch's `_saved_<parameter>` shows, or _MISSING for a name it lacks
_PYTORCH_NAMES = {
    ("SliceBackward0", "end"): lambda n: n.__dict__["_shown"]["end"] if "_shown" in n.__dict__ else n.__dict__["stop"],
    ("GatherBackward0", "sparse_grad"): lambda n: False,
    ("LinalgVectorNormBackward0", "ord"): _norm_ord,
    ("LinalgVectorNormBackward0", "p"): lambda n: _MISSING,
    ("SplitBackward0", "split_size"): _split_size,
    ("SplitBackward0", "self_sizes"): _input_sizes,
    ("NllLossBackward0", "weight"): lambda n: n.__dict__.get("weights"),         # (gradlab's `weights`)
    ("NllLoss2DBackward0", "weight"): lambda n: n.__dict__.get("weights"),
}


def _int64_shown(v):
    if not isinstance(v, int) or type(v) is bool:
        return v
    v = v.__dict__.get("given", v) if type(v) is not int else v
    return v % 2 ** 64 if v < 0 else int(v)


class RemovableHandle:
    """Returned by `register_hook`; `handle.remove()` unregisters the hook."""
    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.id = next(RemovableHandle._ids)
        self._hooks = weakref.ref(hooks_dict) if hooks_dict is not None else None

    def remove(self):
        hooks = self._hooks() if self._hooks is not None else None
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


RemovableHandle.__module__ = "gradlab.utils.hooks"    # prints as torch.utils.hooks.RemovableHandle's does


class _HookDict(dict):
    """A dict that a weak reference can point to (plain dicts cannot be weakly referenced)."""
    __slots__ = ("__weakref__",)


# the (pack_hook, unpack_hook) pairs of the open torch.autograd.graph.saved_tensors_hooks contexts, innermost last
SAVED_TENSORS_HOOKS = []


_MULTI_OUTPUT_CHANGED = (
    "Output {1} of {0} is a view and its base or another view of its base has been modified inplace. This view is "
    "the output of a function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation "
    "tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or "
    "use `torch.no_grad()` instead of `torch.inference_mode()`.")


def short_name(name):
    """A node's name as PyTorch's messages give it: without "Backward0", but keeping another overload's number
    (AddBackward0 -> Add, ClampBackward1 -> Clamp1, TBackward1 -> T1, CopySlices unchanged)."""
    stem = name.rstrip("0123456789")
    if not stem.endswith("Backward") or stem == name:
        return name
    number = name[len(stem):]
    return stem[:-len("Backward")] + ("" if number == "0" else number)


class SavedTensor(metaclass=CType, c_name="gradlab._C._autograd.SavedTensor"):
    """A tensor kept for the backward formula, with the version it had when saved.

    Reading it after an in-place change raises PyTorch's version-counter error. A saved *output*
    of the node (like `exp`'s result) is kept as its array and version counter, not as the tensor
    object, so that the node does not keep its own output alive (no reference cycle).

    Users meet it as `grad_fn._raw_saved_self`: PyTorch's torch._C._autograd.SavedTensor, with its
    `data`, `unpack()`, `unpack_hook` and `register_hooks`; the engine reads it through `_unpack`.
    """
    __slots__ = ("tensor", "array", "counter", "version", "is_output", "output_nr", "origin", "packed",
                 "hook", "freed", "view_fn")

    def __init__(self, tensor=None, is_output=False):
        if tensor is None:
            raise RuntimeError("Trying to create a SavedTensor object from Python is forbidden.")
        self.counter = tensor._version_counter
        if type(self.counter) is InferenceVersionCounter:
            raise RuntimeError(INFERENCE_SAVED)
        self.version = self.counter[0]
        self.is_output = is_output
        self.hook = None
        if SAVED_TENSORS_HOOKS:         # torch.autograd.graph.saved_tensors_hooks: keep what pack_hook gave
            pack_hook, self.hook = SAVED_TENSORS_HOOKS[-1]
            self.packed = _pack(pack_hook, tensor)
            self.output_nr = tensor._output_nr
            self.origin = (tensor.grad_fn, tensor._output_nr, tensor._requires_grad)
            self.tensor = self.array = None
            return
        if is_output:
            self.tensor = None
            self.array = tensor._data
            self.output_nr = tensor._output_nr
        else:
            self.tensor = tensor
            self.array = None

    # --- PyTorch's Python API (torch._C._autograd.SavedTensor) ---------------------------------------
    @property
    def data(self):
        """The saved tensor as kept, without the version check (the packed value once hooks are set; None
        once a backward freed it). A node's own saved output is kept without its grad_fn (no cycle)."""
        if getattr(self, "freed", False):
            return None
        if self.hook is not None:
            return self.packed
        if self.is_output:
            if self.array is None:
                return None
            t = Tensor._make(self.array)
            t._version_counter = self.counter
            return t
        return self.tensor

    def __dir__(self):
        # PyTorch's public names only: the slots above are this implementation's
        return [n for n in object.__dir__(self) if n not in SavedTensor.__slots__]

    @data.setter
    def data(self, value):
        raise AttributeError("property of 'SavedTensor' object has no setter")

    @property
    def unpack_hook(self):
        """The unpack hook register_hooks (or saved_tensors_hooks) set, else None."""
        return None if getattr(self, "freed", False) else self.hook

    @unpack_hook.setter
    def unpack_hook(self, value):
        raise AttributeError("property of 'SavedTensor' object has no setter")

    def unpack(self, *args):
        """The saved tensor as the gradient formula reads it (checking its version). Called from Python
        there is no node to give a saved output its grad_fn back: PyTorch then raises, as here."""
        if args:
            raise TypeError(
                "unpack(): incompatible function arguments. The following argument types are supported:\n"
                "    1. (self: torch._C._autograd.SavedTensor) -> torch.Tensor\n\n"
                f"Invoked with: {self!r}, {', '.join(map(repr, args))}")
        if getattr(self, "freed", False):
            raise RuntimeError(SECOND_BACKWARD_ERROR)
        if self.is_output:
            raise RuntimeError(_DETACHED_INPLACE)
        if self.hook is not None:
            t = self._unpack_hooked(None, False)
            grad_fn, output_nr, requires_grad = self.origin
            if grad_fn is not None:
                return Tensor._make(t._data, grad_fn, output_nr)
            if requires_grad and not t._requires_grad:      # (a leaf's: it flows to the same leaf in PyTorch)
                t = t.detach().requires_grad_()
            return t
        if self.tensor is None:
            return None
        return self._unpack(None)

    def _free(self):
        """A backward freed the node's saved values: this object stays, empty (PyTorch's errors)."""
        self.tensor = self.array = self.packed = self.hook = None
        self.freed = True

    def _unpack(self, node, as_arrays=False):
        """The saved value for `node`'s formulas: its numpy array when they run on arrays (a backward
        that builds no graph of its own), else a Tensor."""
        if self.hook is not None:
            return self._unpack_hooked(node, as_arrays)
        if self.counter[0] != self.version:
            raise RuntimeError(self._version_message(node))
        if as_arrays:
            return self.array if self.is_output else self.tensor._data
        if self.is_output:
            # rebuild the output; it is differentiable through this node (needed for create_graph)
            t = Tensor._make(self.array, node, self.output_nr)
            t._version_counter = self.counter
            return t
        return self.tensor

    def register_hooks(self, *args):
        """`node._raw_saved_self.register_hooks(pack, unpack)`: pack the saved tensor now, unpack it when the
        formula reads it (torch.autograd.graph.saved_tensors_hooks does the same for every saved tensor)."""
        pack_hook, unpack_hook = args if len(args) == 2 else (None, None)
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types are supported:\n"
                "    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, arg1: "
                "collections.abc.Callable) -> None\n\n"
                f"Invoked with: {', '.join(map(repr, (self,) + args))}")
        if self.hook is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: "
                               "only one pair of hooks is allowed at a time.")
        if getattr(self, "freed", False):
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need "
                "to backward through the graph a second time or if you need to access saved variables after calling "
                "backward.")
        if self.tensor is None and self.array is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        tensor = Tensor._make(self.array) if self.is_output else self.tensor
        if self.is_output:
            tensor._version_counter = self.counter
        else:
            self.output_nr = tensor._output_nr
            self.origin = (tensor.grad_fn, tensor._output_nr, tensor._requires_grad)
        self.packed = _pack(pack_hook, tensor)
        self.hook = unpack_hook
        self.tensor = self.array = None

    def _unpack_hooked(self, node, as_arrays):
        t = self.hook(self.packed)
        if not isinstance(t, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(t).__name__}")
        if as_arrays:
            return t._data
        if self.is_output:
            out = Tensor._make(t._data, node, self.output_nr)
            out._version_counter = t._version_counter
            return out
        return t

    def _view_fn_gone(self, producer):
        """Whether the grad_fn a saved view had when saved (an in-place op's result written through it) is gone
        in PyTorch: the base changed in place since, and PyTorch regenerated the view's grad_fn (it does so
        lazily, when the view is used: gradlab eagerly, so its new grad_fn `producer` that nothing holds yet
        counts as unused)."""
        ref = getattr(self, "view_fn", None)
        if ref is None or ref() is not None:
            return False
        # (held by the view's slot, the caller's variable, this parameter and getrefcount's argument: more is a use)
        return sys.getrefcount(producer) > 4

    def _version_message(self, node):
        if self.is_output:
            shape, dtype, producer, output_nr = self.array.shape, self.array.dtype, node, self.output_nr
            name = producer.name()
        else:
            t = self.tensor
            shape, dtype, producer, output_nr = t._data.shape, t._data.dtype, t.grad_fn, t._output_nr
            name = None if producer is None else producer.name()
            if t._base is not None and producer is not None:
                # a view changed in place since: PyTorch first gives it a fresh history read from its base
                multi = getattr(t, "_multi_output", None)
                if multi is not None:
                    return _MULTI_OUTPUT_CHANGED.format(*multi)
                name = "AsStridedBackward0"
                if node is not None and self._view_fn_gone(producer):
                    # (PyTorch's weak grad_fn of the view is gone: it names the node the tensor was saved for)
                    name, output_nr = node.name(), 0
        if name is not None and producer is not None and name == producer.name() and hasattr(producer, "_forward_cls"):
            name = producer._forward_cls.__name__      # (a custom Function's node: PyTorch's PyNode names its class)
        clause = "" if name is None else f", which is output {output_nr} of {short_name(name)},"
        return (
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [torch.{from_numpy_dtype(dtype)._legacy} [{', '.join(map(str, shape))}]]{clause} "
            f"is at version {self.counter[0]}; expected version {self.version} instead. Hint: enable "
            "anomaly detection to find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False)."
        )


# (its repr, <torch._C._autograd.SavedTensor object at 0x...>, names the module PyTorch's lives in)
SavedTensor.__module__ = "gradlab._C._autograd"


# Ops whose node keeps inputs' sizes that gradlab's formulas do not need (read as `_saved_<input>_sym_sizes`)
_SIZES_SAVED = {"mm": ("self", "mat2"), "addmm": ("mat1", "mat2")}

# this implementation's own bookkeeping, whose names look like PyTorch's saved attributes: dir() leaves them out
_INTERNAL_SAVED = frozenset(("_saved", "_saved_names", "_saved_param", "_raw_saved", "_saved_list", "_saved_inputs"))
_SAVED_SETS = {}


def _pytorch_saved(cls_name):
    """The `_saved_*` / `_raw_saved_*` names PyTorch's class of that name has (a frozenset), or None for a class
    PyTorch does not have (a custom Function's node: its names are whatever it saved)."""
    names = _SAVED_SETS.get(cls_name)
    if names is None:
        listed = SAVED_NAMES.get(cls_name)
        if listed is None:
            return None
        names = _SAVED_SETS[cls_name] = frozenset(listed.split())
    return names


class Node:
    """Base of every grad_fn. Subclasses are named exactly like PyTorch's (`MulBackward0`)."""

    # Defaults live on the class, so that creating a node (once per recorded op) sets only what
    # differs; instances override them when an op, a hook or backward needs to.
    next_functions = ()
    _saved = None            # dict name -> SavedTensor, or None when nothing is saved
    _freed = False
    _input_meta = ()         # (shape, numpy dtype) per input slot: gradients are reduced to these
                             # (an op's node has None for an input shaped like its output)
    _pre_hooks = None        # node pre-hooks: fn(grad_outputs)
    _post_hooks = None       # node hooks: fn(grad_inputs, grad_outputs)
    _tensor_hooks = None     # {output_nr: _HookDict} from Tensor.register_hook on non-leaves
    _retained = None         # {output_nr: weakref to tensor} from Tensor.retain_grad
    _hooked = False          # True once any of the four above was set: the engine then looks at them
    _output_refs = ()        # weak references to the tensors this node produced (for drawings)...
    _output_ref = None       # ...or, for a single output, just its weak reference (one object less per op)
    _num_outputs = 1
    _saved_names = ()
    _guards = None           # SavedTensors PyTorch saves but the formulas do not read (see save_for_check)
    _raw_saved = None        # {name: SavedTensor} handed out as `_raw_saved_<name>` (see __getattr__)

    # Whether the class serves the attributes _getattr_fallback computes by itself, without a __getattr__:
    # a class with a __getattr__ keeps Python (3.11+) from specializing every attribute read of its
    # instances, and the engine reads a node's attributes on every step. The op table's node classes get
    # one descriptor per name instead (registry.py, FallbackAttribute) and AccumulateGrad needs none;
    # every other subclass gets __getattr__ (see __init_subclass__).
    _static_attributes = False

    def __init__(self):
        self._sequence_nr = next(_sequence)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls._static_attributes and "__getattr__" not in cls.__dict__:
            cls.__getattr__ = Node._getattr_fallback

    @property
    def _outputs(self):
        """Weak references to the tensors this node produced (drawings show them)."""
        return (self._output_ref,) if self._output_ref is not None else self._output_refs

    # --- PyTorch's node API -------------------------------------------------------------------
    def name(self):
        return type(self).__name__

    def __dir__(self):
        # PyTorch generates one getter per field a backward class keeps: those are the `_saved_*` names dir() lists
        # (this implementation keeps other parameters, under other names, and its own bookkeeping)
        allowed = _pytorch_saved(type(self).__name__)
        return [n for n in object.__dir__(self) if n not in _INTERNAL_SAVED and (
            allowed is None or not n.startswith(("_saved_", "_raw_saved_")) or n in allowed)]

    # No __repr__ of our own: object's default already prints `<AddBackward0 object at 0x...>` for
    # classes in the `builtins` module (as PyTorch's node classes are), and IPython then shows the
    # same `<AddBackward0 at 0x...>` that a notebook cell running PyTorch shows.

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after the node computed its gradients."""
        if self._post_hooks is None:
            self._post_hooks = _HookDict()
            self._hooked = True
        handle = RemovableHandle(self._post_hooks)
        self._post_hooks[handle.id] = fn
        return handle

    def register_prehook(self, fn):
        """fn(grad_outputs) runs before the node; it may return replacement grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
            self._hooked = True
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = fn
        return handle

    @property
    def requires_grad(self):
        """Always True: a node exists only where a gradient is needed (PyTorch's answers the same)."""
        return True

    @property
    def metadata(self):
        if not hasattr(self, "_metadata"):
            self._metadata = {}
        return self._metadata

    # --- saved tensors ---------------------------------------------------------------------------
    def _save(self, name, tensor, is_output=False):
        if self._saved is None:
            self._saved = {}
        self._saved[name] = SavedTensor(tensor, is_output)

    def _getattr_fallback(self, attr):
        # Saved tensors are read as attributes (`node.other`) and as PyTorch's `_saved_other`.
        # (Only called when normal lookup fails: parameters and scalars are plain attributes. A node
        # class's __getattr__, or, for the op table's, its FallbackAttribute descriptors.)
        if attr.startswith(("_saved_", "_raw_saved_")):
            allowed = _pytorch_saved(type(self).__name__)
            if allowed is not None and attr not in allowed:     # (not a field of PyTorch's class)
                raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")
        saved = self._saved
        if saved is not None and attr in saved:
            return saved_entry(saved[attr])._unpack(self)
        if attr.startswith("_raw_saved_"):      # the SavedTensor object itself (its register_hooks)
            raw = self.__dict__.setdefault("_raw_saved", {})
            key = attr[len("_raw_saved_"):]
            if key not in raw:
                if self._freed and key in self._saved_names:     # (freed by a backward: the object stays)
                    raw[key] = SavedTensor.__new__(SavedTensor)
                    raw[key].tensor = raw[key].array = raw[key].hook = None
                elif saved is not None and key in saved:
                    # (stored back as the SavedTensor: hooks registered on it are what the formula unpacks)
                    raw[key] = saved[key] = saved_entry(saved[key])
                else:
                    try:
                        value = getattr(self, "_saved_" + key)
                    except AttributeError:
                        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'") from None
                    if value is None:                # an input not saved (no one needs its gradient)
                        raw[key] = SavedTensor.__new__(SavedTensor)
                        raw[key].tensor = raw[key].array = raw[key].hook = None
                    elif isinstance(value, Tensor):
                        raw[key] = SavedTensor(value)
                    else:
                        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")
            return raw[key]
        key = attr[7:] if attr.startswith("_saved_") else attr
        if key == "self_sym_numel" and "self_sizes" in self.__dict__:      # (MeanBackward's)
            return math.prod(self.__dict__["self_sizes"])
        if key.endswith("_sym_sizes"):           # PyTorch's `_saved_self_sym_sizes` is our `self_sizes`
            key = key[:-len("_sym_sizes")] + "_sizes"
        if saved is not None and key in saved:
            return saved_entry(saved[key])._unpack(self)
        if self._freed and key in self._saved_names:
            raise RuntimeError(SECOND_BACKWARD_ERROR)
        renamed = _PYTORCH_NAMES.get((type(self).__name__, key)) if key != attr else None
        if renamed is not None:                          # a parameter PyTorch names or keeps otherwise
            value = renamed(self)
            if value is _MISSING:
                raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")
            return self._saved_param(key, value)
        shown = self.__dict__.get("_shown")           # parameters as PyTorch kept them (a slice's start and end)
        if key != attr and shown is not None and key in shown:
            return self._saved_param(key, shown[key])
        if key != attr and key in self.__dict__:
            return self._saved_param(key, self.__dict__[key])
        if key == "end" and key != attr and "stop" in self.__dict__:      # (SliceBackward0's end is our stop)
            return self._saved_param(key, self.__dict__["stop"])
        op = self.__dict__.get("_op")
        if key != attr and op is not None and key in op.inputs and key in op.saves:
            return None       # an input whose gradient no one needs was not saved: PyTorch shows None
        if key == "self_sizes" and op is not None and op.key == "expand":
            # (ExpandBackward0 keeps self's sizes: gradlab's are the input's meta, or the output's when alike)
            meta = self._input_meta[0] if self._input_meta else None
            out = self._output_ref() if self._output_ref is not None else None
            if meta is not None or out is not None:
                return tuple(meta[0] if meta is not None else out._data.shape)
        if key != attr and op is not None and key.endswith("_sizes") and key[:-6] in _SIZES_SAVED.get(op.key, ()):
            # (MmBackward0 keeps both inputs' sizes: an input's meta, or the output's shape when alike)
            meta = self._input_meta[op.inputs.index(key[:-6])] if self._input_meta else None
            out = self._output_ref() if self._output_ref is not None else None
            if meta is not None or out is not None:
                return tuple(meta[0] if meta is not None else out._data.shape)
            kept = saved.get(key[:-6]) if saved is not None else None     # (the output is gone: the input saved)
            kept = getattr(kept, "tensor", kept) if not isinstance(kept, Tensor) else kept
            if isinstance(kept, Tensor):
                return tuple(kept._data.shape)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

    def _saved_param(self, key, value):
        """A parameter read as PyTorch's `_saved_<name>`, in the form PyTorch shows it."""
        op = self.__dict__.get("_op")
        if op is not None and key in op.inputs and type(value) in (int, float, bool):
            # a Python number given for a tensor input: PyTorch saved it as a 0-d tensor, if its formulas
            # read it (add's `other` is not saved: `_saved_other` does not exist)
            if key not in op.saves:
                raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{key}'")
            if self._freed:
                raise RuntimeError(SECOND_BACKWARD_ERROR)
            return Tensor._make(np.array(value, {bool: np.bool_, int: np.int64, float: np.float64}[type(value)]))
        if isinstance(value, (np.ndarray, np.generic)):     # an index, a mask, a target: a saved tensor
            if self._freed:
                raise RuntimeError(SECOND_BACKWARD_ERROR)
            return Tensor._make(np.asarray(value))
        if type(value) is tuple and value and all(isinstance(v, np.ndarray) for v in value):
            if self._freed:
                raise RuntimeError(SECOND_BACKWARD_ERROR)
            return tuple(Tensor._make(v) for v in value)
        if key == "reduction" and type(value) is str:      # PyTorch's enum: none 0, mean 1, sum 2
            return {"none": 0, "mean": 1, "sum": 2}.get(value, value)
        if key == "ignore_index" and type(value) is int and value < 0:
            return value % 2 ** 64                          # PyTorch shows it as unsigned (-100: 2**64 - 100)
        if type(value) is GivenDims:        # (a 0-d tensor's dims, or every dim, kept as written)
            value = value.given
        if key in _INT64_KEYS:
            if type(value) is tuple:
                value = tuple(_int64_shown(v) for v in value)
            elif isinstance(value, int) and type(value) is not bool:
                value = _int64_shown(value)
        if key == "dim" and type(value) is tuple and len(value) == 1 and type(self).__name__ in _INT_DIM_NODES:
            return value[0]
        return value

    def _release(self):
        """Free saved tensors after backward (unless retain_graph=True). The engine calls this for a
        node whose `_saved` is not None: it saved something (maybe only a scalar or an index, which
        PyTorch keeps as tensors too), so it is spent: a second backward through it raises."""
        self._saved_names = tuple(self._saved or ())
        # (read through the class default, not self.__dict__: that would build every node a real dict)
        if self._raw_saved is not None:
            for raw in self._raw_saved.values():
                raw._free()
        self._saved = None
        self._guards = None
        self._freed = True

    def _check_not_freed(self):
        if self._freed:
            raise RuntimeError(SECOND_BACKWARD_ERROR)

    @property
    def saved_tensors_info(self):
        """(name, SavedTensor) pairs, for drawings: what this node keeps and at which version."""
        return tuple((name, saved_entry(s)) for name, s in (self._saved or {}).items())

    # --- the gradient itself ----------------------------------------------------------------------
    def apply(self, grad_outputs, as_arrays=False):
        """Given the gradient for each output, return one gradient (or None) per input slot.

        The engine says which kind of value travels: numpy arrays (as_arrays=True, a backward that
        builds no graph of its own: no Tensor is made) or Tensors (create_graph, or a node called by
        hand: the formulas' own operations then record a graph of the gradient)."""
        raise NotImplementedError

    def __call__(self, *grad_outputs):
        """`y.grad_fn(g)`: run this node by hand, as PyTorch allows (one gradient per input: a tuple, or the
        gradient itself for a node of one input)."""
        if self._freed:
            self._check_not_freed()
        grads = tuple(self.apply(list(grad_outputs)))
        return grads[0] if len(grads) == 1 else grads      # (one input: its gradient itself, as PyTorch's)


_ACCUMULATE_GRAD_SEQUENCE_NR = 2**64 - 1       # UINT64_MAX


class AccumulateGrad(Node):
    """The node that adds incoming gradients into a leaf's `.grad` (its `variable`)."""

    _static_attributes = True       # (no saved values: nothing for a __getattr__ to serve)

    # Tensor.register_post_accumulate_grad_hook's hooks, {id: hook(leaf)}: run once `.grad` holds the sum
    _post_accumulate_hooks = None

    def __init__(self, variable):
        # PyTorch gives every AccumulateGrad the largest sequence number, so a leaf's gradient is
        # added as soon as it is complete (the engine runs the highest number first)
        self._sequence_nr = _ACCUMULATE_GRAD_SEQUENCE_NR
        self.variable = variable
        self._input_meta = ()

    def __lt__(self, other):
        # equal priorities never reorder in the ready heap (as in PyTorch's std::priority_queue,
        # whose sift steps are heapq's); without this, a tie would compare two nodes
        return False

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad_outputs, as_arrays=False):
        return ()       # (the engine adds into the leaf's .grad itself)


AccumulateGrad.__module__ = "builtins"     # prints as <AccumulateGrad object at 0x...>, like PyTorch's


class NoDerivative(Node):
    """The grad_fn PyTorch records for an operation that has no derivative (`x // 2`): the graph
    goes on, but a backward through it fails with PyTorch's message."""

    def __init__(self, op_name, edges):
        super().__init__()
        self._op_name = op_name
        self.next_functions = edges

    def name(self):
        return "torch::autograd::NotImplemented"

    def apply(self, grad_outputs, as_arrays=False):
        raise RuntimeError(f"derivative for aten::{self._op_name} is not implemented")


NoDerivative.__name__ = NoDerivative.__qualname__ = "NotImplemented"    # PyTorch's class name
NoDerivative.__module__ = "builtins"


def NO_GRADIENT_EDGE():
    """The `_accumulator` of a view made under no_grad from a tensor that requires grad: it requires
    grad, but, as in PyTorch, no gradient reaches it (accumulator_of gives None: no edge)."""
    return None


def accumulator_of(leaf):
    """The one AccumulateGrad node of a leaf, reused while the graph holding it is alive."""
    ref = leaf._accumulator
    node = ref() if ref is not None else None
    if node is None:
        if ref is NO_GRADIENT_EDGE:
            return None
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


def saved_entry(value):
    """A value of a node's `_saved` as a SavedTensor. The op table saves an input tensor as itself when
    it is at version 0 and no saved_tensors_hooks are open (the common case: one object less per
    saved input, for the garbage collector to walk); its SavedTensor, made here when one is read
    (drawings, errors), is the one SavedTensor(tensor) would have made then."""
    if type(value) is SavedTensor:
        return value
    s = _new(SavedTensor)
    s.counter = value._version_counter
    s.version = 0
    s.is_output = False
    s.hook = None
    s.tensor = value
    s.array = None
    return s


_new = object.__new__


class SavedValue:
    """Reads a saved tensor as a node attribute for the formulas (`n.other`), set on a node class for
    each name its op saves. It gives the numpy array: what a plain backward computes with (formulas
    that build a graph read the node through AsTensors instead). Found by normal attribute lookup,
    this is several times cheaper than the `__getattr__` fallback (which first fails a lookup), and
    every backward formula reads these. A non-data descriptor: a Python scalar or a parameter stored
    on the node itself wins."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, node, cls=None):
        if node is None:
            return self
        saved = node._saved
        if saved is not None:
            value = saved.get(self.name)
            if value is not None:
                if type(value) is not SavedTensor:      # an input saved as itself, at version 0
                    counter = value._vc
                    if counter is None or counter[0] == 0:
                        return value._data
                    return saved_entry(value)._unpack(node, True)
                # (SavedTensor.unpack's common case inlined: no hook, not changed in place since)
                if value.hook is None and value.counter[0] == value.version:
                    return value.array if value.is_output else value.tensor._data
                return value._unpack(node, True)
        return node._getattr_fallback(self.name)     # freed or never saved: Node's errors


class FallbackAttribute:
    """A name Node._getattr_fallback serves (`_saved_dim`, `_raw_saved_self`, `_saved_self_sym_sizes`), set on
    an op table's node class for each such name of its op: what a __getattr__ would do, without one
    (see Node._static_attributes). A non-data descriptor: an attribute of the node itself wins."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, node, cls=None):
        if node is None:
            return self
        return node._getattr_fallback(self.name)


class AsTensors:
    """A node as its formulas see it when they run on Tensors (create_graph, or a node called by
    hand): every attribute is the node's, but saved values are unpacked as Tensors, so that the
    formulas' own operations record a graph of the gradient. `apply(grads, as_arrays)` hands the
    formulas the node itself (saved values as arrays) or this view: the mode is an argument, no
    state, and the common case, a plain backward, pays nothing for the choice."""
    __slots__ = ("_node",)

    def __init__(self, node):
        self._node = node

    def __getattribute__(self, name):
        # (every read comes here directly: a __getattr__ would first fail a lookup, which raises)
        node = object.__getattribute__(self, "_node")
        saved = node._saved
        if saved is not None:
            value = saved.get(name)
            if value is not None:
                return saved_entry(value)._unpack(node)
        return getattr(node, name)


# nodes whose name() PyTorch qualifies with its C++ namespace (their class name stays short)
_QUALIFIED_NAMES = ("CopySlices", "CopyBackwards", "NotImplemented")


def make_node_class(name, base=Node, module="builtins"):
    """A Node subclass with PyTorch's class name: `type(y.grad_fn)` shows `<class 'AddBackward0'>`."""
    cls = type(name, (base,), {})
    cls.__module__ = module
    if name in _QUALIFIED_NAMES:
        cls.name = lambda self: f"torch::autograd::{name}"
    return cls


def edge_of(t):
    """Where a gradient for tensor `t` goes: its grad_fn, its AccumulateGrad node, or nowhere."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._requires_grad:
        return (accumulator_of(t), 0)
    return (None, 0)


_NO_EDGE = (None, 0)


def set_history(node, outputs):
    """Make `outputs` the outputs of `node`, as PyTorch's `set_history` does: a Tensor is its one
    output (`grad_fn` and `_output_nr` 0); a tuple or list is a node with that many output slots
    (a multi-output op, a custom Function), each Tensor output number i of the node, None a slot with
    no tensor (a custom Function's non-differentiable output). The node keeps only weak references to
    them (for drawings), so that it does not keep its own outputs alive."""
    if isinstance(outputs, Tensor):
        outputs._grad_fn = node
        outputs._output_nr = 0
        node._output_ref = weakref.ref(outputs)
        return
    refs = []
    for i, t in enumerate(outputs):
        if t is not None:
            t._grad_fn = node
            t._output_nr = i
            refs.append(weakref.ref(t))
    node._num_outputs = len(outputs)
    node._output_refs = tuple(refs)


def save_for_check(node, tensor, is_output=False):
    """PyTorch saves `tensor` for `node`'s backward although gradlab's formulas need no copy of it (the
    indices that max(dim), sort or topk return, aminmax's results): changing it in place before the
    backward must still raise PyTorch's version-counter error, not compute with the changed values."""
    if node is not None:
        node._guards = (node._guards or ()) + (SavedTensor(tensor, is_output),)


def check_guards(node):
    """Raise PyTorch's version-counter error if a tensor saved with save_for_check was changed in place."""
    for saved in node._guards:
        if saved.counter[0] != saved.version:
            raise RuntimeError(saved._version_message(node))


def record(node, inputs, outputs, edges=None):
    """Wire a new node into the graph: the one place that connects a node to its inputs and outputs
    (PyTorch's `collect_next_edges` + `set_history`). Custom Functions, CopySlices and in-place
    writes call it; `registry.apply`, run once per op, keeps an inlined copy of it (tested to build
    the same nodes: tests/autograd/test_engine.py).

    `inputs` are the node's input slots in order: a Tensor's gradient goes to `edge_of(it)`, anything
    else (a Python number) is a constant slot, `(None, 0)`. `_input_meta` keeps, per slot, the
    (shape, dtype) its gradient is reduced to, or None when nothing is to reduce (a constant, or an
    input shaped like the node's one output). `edges`, when given, replaces the edges of `inputs`
    (CopySlices passes on its inner node's). `outputs` as in `set_history`."""
    if edges is None:
        edges = tuple(edge_of(a) if isinstance(a, Tensor) else _NO_EDGE for a in inputs)
    node.next_functions = edges
    if inputs:
        like = (outputs._data.shape, outputs._data.dtype) if isinstance(outputs, Tensor) else None
        meta = ((a._data.shape, a._data.dtype) if isinstance(a, Tensor) else None for a in inputs)
        node._input_meta = tuple(None if m == like else m for m in meta)
    set_history(node, outputs)
