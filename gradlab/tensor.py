"""Tensor: a numpy array plus what autograd needs (requires_grad, grad, grad_fn, version).

The class itself (its slots, `_make`, plain accessors such as `shape`) is in `_tensor_core.py`, below
autograd and the ops; its methods are written here and attached to it. Operators and methods call
the op table (`gradlab/ops`); printing lives in `gradlab/display`.
What a student reads here is the bookkeeping PyTorch does for every tensor:

* a *leaf* is a tensor the user created; it has no grad_fn, and backward adds into its `.grad`;
* a tensor computed from inputs that require grad has a `grad_fn` (the node that made it) and
  `output_nr` (which output of that node it is);
* `_version` counts in-place changes; views and `detach()` share the counter with their base.
"""
import numbers
import operator
import warnings
import weakref

import numpy as np

from . import _dtype
from . import _device
from . import random as _random
from ._size import Size, tp_name as _tp_name
from ._tensor_core import Tensor, _plain_make, _wrap_dim
from . import autograd as _autograd
from .autograd import grad_mode
from .autograd import node as _autograd_node
from .autograd.node import NoDerivative, RemovableHandle, _HookDict
from .autograd.engine import run_backward as _run_backward
from .ops import OPS
from .ops import elementwise as _elementwise, indexing as _indexing, registry as _registry
from .ops.indexing import assign_data, fill_inplace, setitem
from .ops.linalg import mat2_transposed as _mat2_transposed
from .ops.shape import cat, concat, concatenate, stack  # noqa: F401  (gradlab.cat, ... are imported from here)
from .ops.operands import (_SCALARS, _as_tensor, _binary, _check_arguments, _check_int_scalar,  # noqa: F401
                           _described, _kind, _number, _py, _type_name, broadcast_error, where)

_FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"
_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)


# the C++ names PyTorch's messages give dtypes in (numpy dtype name -> C++ type)
_CPP_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int8": "signed char",
                   "int16": "short int", "int32": "int", "int64": "long int", "uint8": "unsigned char",
                   "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}

_tuple_new = tuple.__new__     # Size of a numpy shape, without Size()'s checks of its items
_NO_DIM = object()      # sum(), mean(): no dim given (an explicit dim=None is another overload in PyTorch)


class _NoRounding:
    """x.div(y)'s default, shown as None: an explicit rounding_mode=None is PyTorch's other overload."""
    def __repr__(self):
        return "None"


_NO_ROUNDING = _NoRounding()


class _TensorMethods:
    """The methods of `Tensor` that need the layers above its core (`_tensor_core.py`): written here
    as a plain class body, then copied onto `Tensor` (see the loop after it)."""

    # --- construction ---------------------------------------------------------------------------
    def __init__(self, *args, device=None):
        """`Tensor(2, 3)` (uninitialised float32 in torch, zeros here) or `Tensor([1, 2])` (float32 data)."""
        from .creation import legacy_data
        _init(self, legacy_data(args, device))

    def is_inference(self, *args):
        """Whether this tensor was made under inference_mode (PyTorch's inference tensors)."""
        if args:
            raise TypeError(f"TensorBase.is_inference() takes no arguments ({len(args)} given)")
        return _INFERENCE_TENSORS.get(id(self)) is self

    def _view_of(self, base):
        """Mark self as a view of base: same storage, same version counter. The base (the tensor
        that owns the storage) remembers its views, unless it is a leaf that requires grad (whose
        history never changes): when an in-place change gives the base a new history, every view
        must read through it (ops/indexing.py, _refresh_views)."""
        root = base._base if base._base is not None else base
        self._version_counter = root._version_counter
        if _INFERENCE_TENSORS and _INFERENCE_TENSORS.get(id(root)) is root:   # a view of an inference tensor
            _INFERENCE_TENSORS[id(self)] = self
        self._base = root
        if self.grad_fn is None and (base.grad_fn is not None or base._requires_grad):
            # made under no_grad from a tensor that requires grad: PyTorch's view then requires grad
            # too, as a leaf that no gradient ever reaches (and that no in-place op may change)
            self._requires_grad = True
            self._accumulator = _autograd_node.NO_GRADIENT_EDGE
        if root.grad_fn is not None or not root._requires_grad:
            _indexing.remember_view(root, self)
        return self

    # --- basic attributes (shape, dim, dtype, ... are in _tensor_core.py) -------------------------
    def size(self, dim=None):
        if dim is None:
            return _tuple_new(Size, self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """`x.type()` names the legacy tensor type ('torch.FloatTensor'); `x.type(t)` converts to a dtype
        or a legacy name."""
        if dtype is None:
            return "torch." + self.dtype._legacy
        if isinstance(dtype, str):
            if dtype.startswith("torch.cuda."):
                raise RuntimeError(_NO_CUDA_LIBRARY)
            target = _dtype.from_legacy_name(dtype)
            if target is None:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = target
        elif not isinstance(dtype, _dtype.dtype):
            if isinstance(getattr(dtype, "dtype", None), _dtype.dtype) and isinstance(dtype, type):
                dtype = dtype.dtype                 # torch.DoubleTensor
            elif dtype is Tensor:
                dtype = _dtype.float32              # torch.Tensor: the default tensor type
            elif isinstance(dtype, type):
                raise ValueError(f"invalid type: '{_tp_name(dtype)}'")
            else:
                raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    def is_contiguous(self):
        return bool(self._data.flags.c_contiguous)

    def stride(self, dim=None):
        data = self._data
        if data.size == 0 and not any(data.strides):
            # numpy gives a new empty array zero strides; PyTorch lays it out contiguously, a size 0
            # counting as 1: torch.ones(0, 3).stride() is (3, 1)
            strides, step = [], 1
            for n in reversed(data.shape):
                strides.append(step)
                step *= max(n, 1)
            strides = tuple(reversed(strides))
        else:
            strides = tuple(s // data.itemsize for s in data.strides)
        if dim is None:
            return strides
        if type(dim) is bool:      # (a bool is an int to Python, not to PyTorch's parser)
            raise TypeError("stride(): argument 'dim' (position 1) must be int, not bool")
        if data.ndim == 0 and isinstance(dim, int):
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return strides[_wrap_dim(dim, data.ndim)]

    # --- autograd attributes --------------------------------------------------------------------
    @property
    def requires_grad(self):
        return self.grad_fn is not None or self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if type(flag) is not bool:
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None:
            if flag:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
            )
        if flag and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(flag)

    def requires_grad_(self, requires_grad=True):
        if type(requires_grad) is not bool:
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            f"{_type_name(requires_grad)}")
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a "
                    "computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach()."
                )
            return self
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad(self):
        if self._grad is None and self.grad_fn is not None and not self._retains_grad:
            warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:       # PyTorch's checks, in its order: type, itself, dtype, size
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{_type_name(value)}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_CPP_TYPE_NAMES[value._data.dtype.name]}' to a "
                    f"tensor with grad_dtype '{self.dtype._legacy[:-len('Tensor')]}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
                    "Diverging the dtypes of a tensor and its gradient may break downstream systems that assume "
                    "they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '[{', '.join(map(str, value._data.shape))}]' to a "
                    f"tensor of size '[{', '.join(map(str, self._data.shape))}]'. Please ensure that the gradient "
                    "and the tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        """Ask backward to also fill `.grad` of this non-leaf tensor (a no-op on leaves)."""
        if self.grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        node = self.grad_fn
        if node._retained is None:
            node._retained = {}
        node._retained[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """hook(grad) runs when the gradient of this tensor is computed; it may return a replacement."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = _HookDict()
            hooks = self._hooks
        else:
            node = self.grad_fn
            if node._tensor_hooks is None:
                node._tensor_hooks = {}
            hooks = node._tensor_hooks.setdefault(self._output_nr, _HookDict())
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def _copy_backwards(self):
        """The copy AccumulateGrad keeps of a gradient that has a graph (create_graph): CopyBackwards.
        (The engine, below the ops, reaches the op through this method.)"""
        return OPS["copy_backwards"](self)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor with respect to the graph leaves (see autograd.backward)."""
        if inputs is None and create_graph is False and (gradient is None or type(gradient) is Tensor) and (
                retain_graph is None or type(retain_graph) is bool):
            # the common `loss.backward()`: no argument to sort out
            _run_backward([self], [gradient], retain_graph)
        else:
            _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """The same data without history: shares storage and the version counter."""
        t = Tensor._make(self._data)
        t._version_counter = self._version_counter
        if _INFERENCE_TENSORS and self.is_inference():
            _INFERENCE_TENSORS[id(t)] = t
        return t

    def detach_(self):
        if self._base is not None:            # any view, with history or not (PyTorch's rule)
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        """The same storage as a new leaf without history; changes through it are not tracked."""
        return Tensor._make(self._data)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {_type_name(value)}")
        if self.requires_grad and value._data.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._data = value._data

    # --- conversion to Python and numpy ---------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self, *, force=False):
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None):
        # no `copy` parameter, as PyTorch's: numpy 2 then warns (DeprecationWarning) when it passes one
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data if dtype is None else self._data.astype(dtype, copy=False)

    def _scalar(self, kind):
        # PyTorch warns first (before any error), and once per process (TORCH_WARN_ONCE)
        if self.requires_grad and (_SCALAR_WARNING not in _WARNED or _WARN_ALWAYS[0]):
            _WARNED.add(_SCALAR_WARNING)
            warnings.warn(_SCALAR_WARNING, UserWarning, stacklevel=3)
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return kind(_real_item(self._data, None if kind is complex else "double"))

    def __float__(self):
        return self._scalar(float)

    def __int__(self):      # unlike float(), PyTorch's int() does not warn about requires_grad
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(_real_item(self._data, "int64_t"))

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __complex__(self):
        return self._scalar(complex)

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with " + ("no values" if self._data.size == 0 else
                                                                 "more than one value") + " is ambiguous")
        return bool(self._data.reshape(()).item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self):
        return id(self)

    def __contains__(self, element):
        if not isinstance(element, (Tensor, numbers.Number)):    # PyTorch refuses lists, None, arrays
            raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((self._data == (element._data if isinstance(element, Tensor) else element)).any())

    # --- printing (text identical to PyTorch's; rich reprs are added by gradlab.display) --------
    def __repr__(self):
        from .display.printing import format_tensor
        node = self.grad_fn
        return format_tensor(self._data, requires_grad=self._requires_grad,
                             grad_fn_name=type(node).__name__ if node is not None else None)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                               "be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        t = type(self)._make(self._data.copy())
        t._requires_grad = self._requires_grad
        if self._grad is not None:
            t._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = t
        return t

    # --- dtype and device conversion ------------------------------------------------------------
    def to(self, *args, **kwargs):
        """`x.to(dtype)`, `x.to(device)`, `x.to(device, dtype)`, `x.to(other)`: self when nothing changes
        (unless copy=True), else a copy that records ToCopyBackward0. Devices other than the CPU fail
        as in PyTorch's CPU-only build."""
        if not kwargs and len(args) == 1 and isinstance(args[0], _dtype.dtype):      # the common x.to(dtype)
            device, dtype, copy = None, args[0], False
        else:
            device, dtype, copy = _to_arguments(args, kwargs)
        if device is not None:
            device = _device.as_device(device)
            _device.require_cpu(device)
            copy = copy or device.index is not None     # cpu:0 is not a tensor's device (cpu): a copy
        if dtype is not None:
            target = _dtype.to_numpy_dtype(dtype)
            if target != self._data.dtype:
                return OPS["to_dtype"](self, dtype=target, source_dtype=self._data.dtype)
        if copy:
            return OPS["to_dtype"](self, dtype=self._data.dtype, source_dtype=self._data.dtype)
        return self

    def float(self, *args, memory_format=None):
        return self._to_named("float", args, _dtype.float32)

    def double(self, *args, memory_format=None):
        return self._to_named("double", args, _dtype.float64)

    def half(self, *args, memory_format=None):
        return self._to_named("half", args, _dtype.float16)

    def long(self, *args, memory_format=None):
        return self._to_named("long", args, _dtype.int64)

    def int(self, *args, memory_format=None):
        return self._to_named("int", args, _dtype.int32)

    def short(self, *args, memory_format=None):
        return self._to_named("short", args, _dtype.int16)

    def char(self, *args, memory_format=None):
        return self._to_named("char", args, _dtype.int8)

    def byte(self, *args, memory_format=None):
        return self._to_named("byte", args, _dtype.uint8)

    def bool(self, *args, memory_format=None):
        return self._to_named("bool", args, _dtype.bool_)

    def cpu(self, *args, memory_format=None):
        return self._to_named("cpu", args, None)

    def _to_named(self, name, args, dtype):
        if args:
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} was given")
        return self if dtype is None else self.to(dtype)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """PyTorch's CPU-only build has no CUDA: fails the way it fails there."""
        if device is not None:
            d = _device.as_device(device, "cuda", " (position 1)")
            if d.type != "cuda":
                raise RuntimeError("Invalid device, must be cuda device")
        raise AssertionError("Torch not compiled with CUDA enabled")

    def type_as(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not {_type_name(other)}")
        return self.to(other.dtype)

    def get_device(self):
        return -1                       # PyTorch's answer for a CPU tensor

    # x.new_zeros(2, 3): a factory whose dtype (and device) default to x's
    def new_tensor(self, *data, dtype=None, device=None, requires_grad=False, **kwargs):
        from .creation import _options, tensor
        # PyTorch's own words for a wrong number of arguments (data= may also be a keyword)
        if "data" in kwargs and not data:
            data = (kwargs.pop("data"),)
        if kwargs:
            raise TypeError(f"new_tensor() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if not data:
            raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
        if len(data) > 1:
            raise TypeError(f"new_tensor() takes 1 positional argument but {len(data)} were given")
        data, = data
        _options("new_tensor", dtype, device)
        return tensor(data, dtype=self.dtype if dtype is None else dtype, device=device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("zeros", size, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("ones", size, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("empty", size, dtype, device, requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        from .creation import _options, full
        _options("new_full", dtype, device)
        return full(size, fill_value, dtype=self.dtype if dtype is None else dtype, device=device,
                    requires_grad=requires_grad)

    def _new(self, factory, size, dtype, device, requires_grad):
        from . import creation
        creation._options("new_" + factory, dtype, device)
        if factory == "zeros":          # new_zeros words a negative size as empty() does, not as zeros()
            try:
                creation._shape(size)
            except TypeError:           # (a bad size: zeros() below gives PyTorch's TypeError)
                pass
        return getattr(creation, factory)(*size, dtype=self.dtype if dtype is None else dtype, device=device,
                                          requires_grad=requires_grad)

    @property
    def is_cpu(self):
        return True

    @property
    def layout(self):
        return _dtype.strided

    def clone(self, *args, memory_format=None):
        """A copy with history (CloneBackward0), laid out like self unless memory_format says otherwise."""
        if args:
            raise TypeError(f"clone() takes 0 positional arguments but {len(args)} {_was_were(args)} given")
        if memory_format is None or memory_format is _dtype.preserve_format:
            return OPS["clone"](self)
        return OPS["clone"](self, strides=_format_strides(self, memory_format, "clone"))

    def contiguous(self, *args, memory_format=_dtype.contiguous_format):
        """self when already laid out in C order (PyTorch returns the same tensor), else a C-ordered copy."""
        if args:
            raise TypeError(f"contiguous() takes 0 positional arguments but {len(args)} {_was_were(args)} given")
        if memory_format is _dtype.contiguous_format:
            if self._data.flags.c_contiguous:
                return self
        elif memory_format is _dtype.preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        strides = _format_strides(self, memory_format, "contiguous")
        if self.stride() == tuple(strides):
            return self
        return OPS["clone"](self, strides=strides)

    # --- arithmetic operators -------------------------------------------------------------------
    # As in PyTorch, an operator computes with a Tensor, a Python number or a numpy scalar, and
    # leaves anything else to Python (NotImplemented): `t * [1, 2]` then fails the way it fails
    # with PyTorch, and `t * np_array` is computed by numpy, which turns t into an array (an error
    # when t requires grad: no graph can go through numpy) and hands the result back to
    # __array_wrap__. numpy itself defers to objects with a higher __array_priority__ (PyTorch's
    # value), so `np.float64(2) * t` calls t.__rmul__ and keeps the graph.
    __array_priority__ = 1000

    def __array_wrap__(self, array):
        """numpy's result for a tensor (`np.exp(t)`, `t * np_array`) back as a Tensor, as PyTorch
        gives it (including PyTorch's habit of turning a bool result into uint8). PyTorch's takes no
        context/return_scalar arguments, so numpy 2 warns (DeprecationWarning) for both."""
        array = np.asarray(array)
        return Tensor._make(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def __add__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("add", self, other)

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        if self._data.dtype.kind == "b" or other.__class__ is bool or \
                (other.__class__ is Tensor and other._data.dtype.kind == "b"):
            _check_sub(self, other)
        return _binary("sub", self, other)

    # x.__rsub__(y) called with a Tensor y (Python never does): PyTorch computes y - x, y / x, ...
    def __rsub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        if isinstance(other, Tensor):
            if self._data.dtype.kind == "b" or other._data.dtype.kind == "b":
                _check_sub(other, self)
            return _binary("rsub_tensor", self, other)
        return _scalar_left("rsub", self, other)

    def __mul__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("mul", self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("div", self, other)

    def __rtruediv__(self, other):
        if isinstance(other, (Tensor, numbers.Number, np.generic, np.ndarray)):
            return self.reciprocal() * other       # PyTorch's own definition (an ndarray goes to numpy)
        return NotImplemented

    def __pow__(self, exponent):
        if not isinstance(exponent, _OPERANDS):
            return NotImplemented
        if isinstance(exponent, Tensor):
            return _binary("pow", self, exponent)
        if isinstance(exponent, (numbers.Number, np.generic)):
            if isinstance(exponent, numbers.Integral) and exponent < 0 and self._data.dtype.kind in "biu":
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            exponent = _number(exponent)
            cat = 0 if isinstance(exponent, bool) else 1 if isinstance(exponent, int) else \
                2 if isinstance(exponent, float) else 3
            if cat > _dtype.category(self._data.dtype):   # int_tensor ** 0.5: computed in float32
                # (cast in the tensor's own layout, as TensorIterator does: astype reorders an expanded one)
                cast = _elementwise.preserved_empty(self._data, _dtype._DEFAULT_FOR_CATEGORY[cat])
                cast[...] = self._data
                self = Tensor._make(cast)
            _check_exponent(exponent, self._data.dtype)
            return OPS["pow_scalar"](self, exponent=exponent)

    def __rpow__(self, base):
        if not isinstance(base, _OPERANDS):
            return NotImplemented
        if isinstance(base, Tensor):
            return base.__pow__(self)
        return _scalar_left("rpow", self, base)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):      # a number is no matrix either: Python's TypeError
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return matmul(other, self)

    def __floordiv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_derivative(_no_grad_binary(_elementwise.floor_divide_arrays, self, other), "floor_divide",
                              self, other)

    def __rfloordiv__(self, other):
        if isinstance(other, Tensor):
            return other.__floordiv__(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_derivative(_no_grad_scalar_left(_elementwise.floor_divide_arrays, other, self), "floor_divide",
                              self)

    def __mod__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return self.remainder(other)

    def __rmod__(self, other):
        if isinstance(other, Tensor):
            return other.remainder(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_derivative(_no_grad_scalar_left(_elementwise.remainder_arrays, other, self), "remainder", self)

    def __neg__(self):
        return OPS["neg"](self)

    def __pos__(self):
        if self._data.dtype.kind == "b":
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def __abs__(self):
        return OPS["abs"](self)

    def __invert__(self):
        if self._data.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return Tensor._make(np.invert(self._data))

    def __and__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_and, self, other)

    __rand__ = __and__

    def __or__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_or, self, other)

    __ror__ = __or__

    def __xor__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_xor, self, other)

    __rxor__ = __xor__

    # comparisons: results are bool tensors and never carry gradients. Like PyTorch, == also
    # takes a numpy array; anything else is left to Python (`t == [1, 2]` is then plain False).
    def __eq__(self, other):
        if not isinstance(other, _OPERANDS + (np.ndarray,)):
            return NotImplemented
        return _compare(np.equal, self, other)

    def __ne__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.not_equal, self, other)

    def __lt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.less, self, other)

    def __le__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.less_equal, self, other)

    def __gt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.greater, self, other)

    def __ge__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.greater_equal, self, other)

    # the named forms (x.eq(y), x.greater(y), ...) are added below the class: _named_comparison

    def equal(self, other):
        _check_tensor_argument("equal", other)
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        _check_tensor_argument("allclose", other)
        if other._data.dtype != self._data.dtype:
            raise RuntimeError(f"{_kind(self)} did not match {_kind(other)}")
        return bool(np.allclose(self._data, _data_of(other), rtol=rtol, atol=atol, equal_nan=equal_nan))

    def isnan(self):
        return Tensor._make(np.isnan(self._data))

    def isinf(self):
        return Tensor._make(np.isinf(self._data))

    def isfinite(self):
        return Tensor._make(np.isfinite(self._data))

    def any(self, dim=None, keepdim=False):
        return self._logical_reduction(np.any, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return self._logical_reduction(np.all, dim, keepdim)

    def _logical_reduction(self, reduce, dim, keepdim):
        """any/all: bool results, except for uint8 input (uint8, as in PyTorch)."""
        if not isinstance(keepdim, (bool, np.bool_)):
            raise TypeError("keepdim")            # (_argparse words PyTorch's TypeError)
        axis = None if dim is None else _dims(dim, self._data.ndim)
        out = np.asarray(reduce(self._data, axis=axis, keepdims=keepdim))
        return Tensor._make(out.astype(np.uint8) if self._data.dtype == np.uint8 else out)

    def logical_not(self):
        return Tensor._make(np.logical_not(self._data))

    def nonzero(self, as_tuple=False):
        if not isinstance(as_tuple, bool):
            raise TypeError(f"nonzero(): argument 'as_tuple' must be bool, not {_type_name(as_tuple)}")
        if self._data.ndim == 0:     # one coordinate-less hit (or none); as_tuple reads it as 1-d
            if as_tuple:
                return (Tensor._make(np.zeros(int(self._data != 0), np.int64)),)
            return Tensor._make(np.zeros((int(self._data != 0), 0), np.int64))
        idx = np.nonzero(self._data)
        if as_tuple:
            return tuple(Tensor._make(i.astype(np.int64)) for i in idx)
        # (PyTorch's result is laid out column by column: not contiguous)
        return Tensor._make(np.stack(idx, axis=0).astype(np.int64).T)

    # --- named arithmetic -----------------------------------------------------------------------
    def add(self, other, alpha=1):
        _check_operand("add", other)
        if alpha.__class__ is int and alpha == 1:
            return self + other
        return _with_alpha("add", self, other, alpha)

    def sub(self, other, alpha=1):
        _check_operand("sub", other)
        if alpha.__class__ is int and alpha == 1:
            return self - other
        _check_sub(self, other)
        return _with_alpha("sub", self, other, alpha)

    def subtract(self, other, alpha=1):
        _check_operand("subtract", other)
        return self.sub(other, alpha=alpha)

    def mul(self, other):
        _check_operand("mul", other)
        return self * other

    def multiply(self, other):
        _check_operand("multiply", other)
        return self * other

    def div(self, other, rounding_mode=_NO_ROUNDING):
        _check_operand("div", other)
        if rounding_mode is None and (self._data.dtype.kind == "f" or (
                other.__class__ is Tensor and other._data.dtype.kind == "f") or other.__class__ is float):
            # an explicit rounding_mode=None is PyTorch's other overload: true division recorded as DivBackward2
            return _binary("div_rounding", self, other, rounding_mode=None)
        if rounding_mode is None or rounding_mode is _NO_ROUNDING:
            return self / other
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        return _binary("div_rounding", self, other, rounding_mode=rounding_mode)

    def divide(self, other, rounding_mode=_NO_ROUNDING):
        _check_operand("divide", other)
        return self.div(other) if rounding_mode is _NO_ROUNDING else self.div(other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        _check_operand("true_divide", other)
        return self / other

    def pow(self, exponent):
        _check_operand("pow", exponent, "exponent")
        return self ** exponent

    def square(self):
        return self ** 2

    def remainder(self, other):
        _check_operand("remainder", other)
        other = _number(other)
        if isinstance(other, Tensor):
            return _binary("remainder_tensor", self, other)
        _check_int_scalar(other)
        a = _lifted(self, other)
        return OPS["remainder"](a, other=_wrapped(other, a))

    def fmod(self, other):
        _check_operand("fmod", other)
        other = _number(other)
        if isinstance(other, Tensor):
            return _binary("fmod_tensor", self, other)
        _check_int_scalar(other)
        a = _lifted(self, other)
        return OPS["fmod"](a, other=_wrapped(other, a))

    def neg(self):
        return OPS["neg"](self)

    negative = neg

    def reciprocal(self):
        return OPS["reciprocal"](self)

    def exp(self):
        return OPS["exp"](self)

    def expm1(self):
        return OPS["expm1"](self)

    def log(self):
        return OPS["log"](self)

    def log2(self):
        return OPS["log2"](self)

    def log10(self):
        return OPS["log10"](self)

    def log1p(self):
        return OPS["log1p"](self)

    def sqrt(self):
        return OPS["sqrt"](self)

    def rsqrt(self):
        return OPS["rsqrt"](self)

    def sin(self):
        return OPS["sin"](self)

    def cos(self):
        return OPS["cos"](self)

    def tan(self):
        return OPS["tan"](self)

    def asin(self):
        return OPS["asin"](self)

    def acos(self):
        return OPS["acos"](self)

    def atan(self):
        return OPS["atan"](self)

    arcsin, arccos, arctan = asin, acos, atan

    def sinh(self):
        return OPS["sinh"](self)

    def cosh(self):
        return OPS["cosh"](self)

    def tanh(self):
        return OPS["tanh"](self)

    def sigmoid(self):
        return OPS["sigmoid"](self)

    def relu(self):
        return OPS["relu"](self)

    def abs(self):
        return OPS["abs"](self)

    absolute = abs

    def sign(self):
        return OPS["sign"](self)

    def round(self, *, decimals=None):
        if decimals is None:
            return OPS["round"](self)
        self._check_round_decimals(decimals)
        return OPS["round_decimals"](self, decimals=decimals)

    def round_(self, *, decimals=None):
        if decimals is None:
            return self._inplace("round")
        self._check_round_decimals(decimals)
        return self._inplace("round_decimals", decimals=decimals)

    def _check_round_decimals(self, decimals):
        if self._data.dtype.kind in "biu":          # (PyTorch's kernel names differ with and without decimals)
            kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
            raise NotImplementedError(f'"{kernel}" not implemented for \'{_kind(self)}\'')

    def floor(self):
        return OPS["floor"](self)

    def ceil(self):
        return OPS["ceil"](self)

    def trunc(self):
        return OPS["trunc"](self)

    def erf(self):
        return OPS["erf"](self)

    def clamp(self, min=None, max=None):
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            # tensor bounds: PyTorch's ClampBackward0, whose bounds get gradients too
            _check_arguments("clamp", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                    ("Number min = None", "Number max = None")])
            for bound in (min, max):
                if bound is not None and bound._data.shape != self._data.shape:
                    try:
                        np.broadcast_shapes(self._data.shape, bound._data.shape)
                    except ValueError:
                        raise broadcast_error(self._data.shape, bound._data.shape) from None
            return OPS["clamp_tensor"](self, *_clamp_bounds(self, min, max))
        _check_arguments("clamp", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                ("Number min = None", "Number max = None")])
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        src = self
        for bound in (min, max):                  # (int tensor, float bound: a float result)
            if bound is not None:
                src = _lifted(src, _py(bound))
        return OPS["clamp"](src, min=_py(min), max=_py(max))

    clip = clamp

    def clamp_min(self, min):
        _check_arguments("clamp_min", (min,), [("Tensor min",), ("Number min",)])
        if isinstance(min, Tensor):
            return OPS["clamp_min_tensor"](self, min)
        return OPS["clamp_min"](_lifted(self, _py(min)), min=_py(min))

    def clamp_max(self, max):
        _check_arguments("clamp_max", (max,), [("Tensor max",), ("Number max",)])
        if isinstance(max, Tensor):
            return OPS["clamp_max_tensor"](self, max)
        return OPS["clamp_max"](_lifted(self, _py(max)), max=_py(max))

    def maximum(self, other):
        _check_operand("maximum", other)
        return maximum(self, other)

    def minimum(self, other):
        _check_operand("minimum", other)
        return minimum(self, other)

    def index_fill(self, dim, index, value):
        """A copy with the entries at `index` along `dim` set to `value`."""
        _check_arguments("index_fill", (dim, index, value), [("int dim", "Tensor index", "Tensor value"),
                                                              ("int dim", "Tensor index", "Number value")])
        _check_fill_value(value)
        return OPS["index_fill"](self, mask=self._index_fill_mask(dim, index), value=_py(value))

    def _index_fill_mask(self, dim, index):
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype != np.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if idx.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        size = self._data.shape[d] if self._data.ndim else 1
        shape = self._data.shape
        if size == 0 and idx.size and all(n for i, n in enumerate(shape) if i != d):
            # PyTorch's kernel restrides self to one slice along dim, and its storage check fails first
            strides, step = [], 1
            for n in reversed(shape):
                strides.insert(0, step)
                step *= max(n, 1)
            strides[d] = 0
            sizes = [idx.size if i == d else n for i, n in enumerate(shape)]
            need = self._data.itemsize * (1 + sum((n - 1) * st for n, st in zip(sizes, strides)))
            raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset 0, and itemsize "
                               f"{self._data.itemsize} requiring a storage size of {need} are out of bounds for "
                               "storage of size 0")
        bad = (idx < -size) | (idx >= size)
        if bad.any() and self._data.size:             # (an empty self is never looked at)
            raise IndexError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
        if not self._data.size:
            return np.zeros(shape, dtype=bool)
        mask = np.zeros(self._data.shape, dtype=bool)
        where = [slice(None)] * self._data.ndim
        if self._data.ndim:
            where[d] = idx.reshape(-1)
        mask[tuple(where)] = True
        return mask

    def where(self, condition, other):
        """x.where(cond, y): torch.where(cond, x, y)."""
        return where(condition, self, other)

    def masked_fill(self, mask, value):
        mask, value = self._masked_fill_args(mask, value)
        if isinstance(value, Tensor):
            return OPS["masked_fill_tensor"](self, value, mask=mask)
        return OPS["masked_fill"](self, mask=mask, value=value)

    def _masked_fill_args(self, mask, value, inplace=False):
        _check_arguments("masked_fill", (mask, value), [("Tensor mask", "Tensor value"), ("Tensor mask", "Number value")])
        if mask._data.dtype != np.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_c_type(mask)}")
        if isinstance(value, Tensor) and value._data.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        if not isinstance(value, Tensor):
            value = _indexing.scalar_for(self, value)
        try:
            np.broadcast_shapes(mask._data.shape, self._data.shape)
        except ValueError:        # (in place, PyTorch names self first)
            shapes = (self._data.shape, mask._data.shape) if inplace else (mask._data.shape, self._data.shape)
            raise broadcast_error(*shapes) from None
        return mask._data, value

    def lerp(self, end, weight):
        _check_arguments("lerp", (end, weight), [("Tensor end", "Tensor weight"), ("Tensor end", "Number weight")])
        if (isinstance(weight, Tensor) and not weight._data.ndim and weight._data.dtype.kind == "f"
                and self._data.dtype.kind not in "fc" and end._data.dtype == self._data.dtype):
            # a 0-d float weight promotes integer inputs, as a 0-d tensor does in PyTorch's type promotion
            return self.to(weight.dtype).lerp(end.to(weight.dtype), weight)
        self._check_lerp(end, weight)
        if isinstance(weight, Tensor):
            return OPS["lerp_tensor"](self, end, weight.to(self.dtype) if weight._data.ndim == 0 else weight)
        return OPS["lerp"](self, end, weight=_py(weight))

    def _check_lerp(self, end, weight, inplace=False):
        # PyTorch's order: dtypes (a 0-d weight may differ), then shapes, then the kernel's dtype
        if end._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {_c_type(self)} for `end` but got dtype {_c_type(end)}")
        tensor_weight = isinstance(weight, Tensor)
        if tensor_weight and weight._data.ndim and weight._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {_c_type(self)} for `weight` but got dtype {_c_type(weight)}")
        shape = self._data.shape
        for other in (end, weight):
            if isinstance(other, Tensor) and other._data.shape != shape:
                try:
                    shape = np.broadcast_shapes(shape, other._data.shape)
                except ValueError:
                    raise broadcast_error(shape, other._data.shape) from None
        if inplace and shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        if inplace and tensor_weight and not weight._data.ndim and \
                _dtype.category(weight._data.dtype) > _dtype.category(self._data.dtype):
            # (a 0-d float weight takes part in the result type: int.lerp(int, 0.25-tensor) is float)
            raise RuntimeError(f"result type {_kind(weight)} can't be cast to the desired output type {_kind(self)}")
        if self._data.dtype.kind not in "fc":
            raise NotImplementedError(f'"lerp_kernel_{"tensor" if tensor_weight else "scalar"}" not implemented for '
                                      f"'{_dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len('Tensor')]}'")

    # --- reductions -----------------------------------------------------------------------------
    def sum(self, dim=_NO_DIM, keepdim=False, dtype=None):
        src = self if dtype is None else self._accumulated_as(dtype)
        if dim is _NO_DIM:
            return _in_dtype(self, OPS["sum"](src, self_sizes=src._data.shape), dtype, src)
        if dim == () and keepdim:
            return src.clone()
        # an explicit dim=None (or ()) is PyTorch's sum over all dims: SumBackward1
        dims = tuple(range(src._data.ndim)) if dim is None or dim == () else _dims(dim, src._data.ndim)
        return _in_dtype(self, OPS["sum_dim"](src, dim=dims, keepdim=keepdim, self_sizes=src._data.shape), dtype, src)

    def _accumulated_as(self, dtype, kernel=None):
        """sum/prod/cumsum(dtype=...): the input cast to dtype (cumsum has no bool kernel)."""
        src = self.to(dtype)
        if kernel and src._data.dtype.kind == "b":
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        return src

    def mean(self, dim=_NO_DIM, keepdim=False, dtype=None):
        src = self if dtype is None else self.to(dtype)
        if src._data.dtype.kind not in "fc":
            which = "Input" if dtype is None else "Optional"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a floating point "
                               f"or complex dtype. Got: {_dtype.from_numpy_dtype(src._data.dtype)._legacy[:-6]}")
        if dim is _NO_DIM:
            return OPS["mean"](src, self_sizes=src._data.shape, count=max(src._data.size, 1))
        dims = tuple(range(src._data.ndim)) if dim is None else _dims(dim, src._data.ndim)   # (MeanBackward1)
        count = 1
        for d in dims:
            count *= src._data.shape[d]
        return OPS["mean_dim"](src, dim=dims, keepdim=keepdim, self_sizes=src._data.shape, count=count)

    def _extreme(self, which, dim, keepdim):
        if isinstance(dim, Tensor):        # x.max(y) means torch.maximum
            return maximum(self, dim) if which == "max" else minimum(self, dim)
        if dim is None:
            if self._data.size == 0:
                raise RuntimeError(f"{which}(): Expected reduction dim to be specified for input.numel() == 0. "
                                   "Specify the reduction dim with the 'dim' argument.")
            return OPS[which + "_all"](self, dim=None, keepdim=False)
        d = _wrap_dim(dim, self._data.ndim)
        _check_reduced_size(which, self, (d,))
        arg = np.argmax if which == "max" else np.argmin
        indices = np.asarray(arg(self._data, axis=d, keepdims=keepdim)) if self._data.ndim else np.zeros((), np.int64)
        values = OPS[which + "_dim"](self, dim=(d,), keepdim=keepdim, indices=indices,
                                     self_sizes=self._data.shape)
        return _ReturnType(which, values, Tensor._make(np.asarray(indices, dtype=np.int64)))

    def max(self, dim=None, keepdim=False):
        return self._extreme("max", dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return self._extreme("min", dim, keepdim)

    def amax(self, dim=(), keepdim=False):       # (dim=None: all dims, like ())
        return OPS["amax"](self, dim=self._amax_dims("amax", dim), keepdim=keepdim)

    def amin(self, dim=(), keepdim=False):
        return OPS["amin"](self, dim=self._amax_dims("amin", dim), keepdim=keepdim)

    def _amax_dims(self, name, dim):
        if dim is None or dim == () or dim == []:
            if self._data.size == 0:
                raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                                   "the reduction dim with the 'dim' argument.")
            return tuple(range(self._data.ndim))
        for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):     # (the message names the dim as given)
            if self._data.ndim and self._data.shape[_wrap_dim(d, self._data.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        return _dims(dim, self._data.ndim)

    def argmax(self, dim=None, keepdim=False):
        return self._arg_extreme("argmax", np.argmax, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return self._arg_extreme("argmin", np.argmin, dim, keepdim)

    def _arg_extreme(self, name, arg, dim, keepdim):
        if self._data.dtype == np.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        if dim is None:
            if self._data.size == 0:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            out = np.asarray(arg(self._data), dtype=np.int64)
            return Tensor._make(out.reshape((1,) * self._data.ndim) if keepdim else out)
        d = _wrap_dim(dim, self._data.ndim)
        if not self._data.ndim:
            return Tensor._make(np.zeros((), np.int64))
        _check_reduced_size(name, self, (d,))
        return Tensor._make(np.asarray(arg(self._data, axis=d, keepdims=keepdim), dtype=np.int64))

    def prod(self, dim=None, keepdim=False, dtype=None):
        src = self if dtype is None else self._accumulated_as(dtype)
        if dim is None:
            return _in_dtype(self, OPS["prod"](src, dim=None, keepdim=False), dtype, src)
        return _in_dtype(self, OPS["prod_dim"](src, dim=_dims(dim, src._data.ndim), keepdim=keepdim), dtype, src)

    def _var_args(self, name, dim, unbiased, keepdim, correction):
        if self._data.dtype.kind not in "fc":
            raise RuntimeError("std and var only support floating point and complex dtypes")
        if correction is None:
            correction = 1 if unbiased is None or unbiased else 0
        dims = None if dim is None else _dims(dim, self._data.ndim)
        count = self._data.size if dims is None else int(np.prod([self._data.shape[d] for d in dims]))
        if count - correction <= 0 or self._data.size == 0:
            warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                          "factor (input numel divided by output numel). (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=3)
        return dict(dim=dims, keepdim=keepdim, correction=correction, count=count)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        return OPS["var"](self, **self._var_args("var", dim, unbiased, keepdim, correction))

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        return OPS["std"](self, **self._var_args("std", dim, unbiased, keepdim, correction))

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        if p == "fro" or p is None:
            p = 2
        if isinstance(p, str):                 # any other string is a matrix norm's order in PyTorch
            if self._data.ndim < 2:
                raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
            if p != "nuc":
                raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
            raise NotImplementedError("gradlab does not implement the nuclear norm")
        if self._data.dtype.kind not in "fc":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")])
        dims = None if dim is None else _dims(dim, self._data.ndim)
        p = float(p)
        if dtype is not None:                  # computed in dtype (a cast without narrowing only)
            want = _dtype.to_numpy_dtype(dtype)
            if want.kind not in "fc":
                raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, but got "
                                   + dtype._legacy[:-len("Tensor")])
            if want != self._data.dtype:
                if np.promote_types(self._data.dtype, want) != want:
                    raise RuntimeError("linalg.vector_norm: the dtype of the input ("
                                       + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")]
                                       + ") should be convertible without narrowing to the specified dtype ("
                                       + dtype._legacy[:-len("Tensor")] + ")")
                return self.to(dtype).norm(p, dim, keepdim)
        if p < 0 or p == float("inf"):        # (max and min have no value on nothing)
            reduced = self._data.shape if dims is None else [self._data.shape[d] for d in dims]
            if 0 in reduced or self._data.size == 0 and dims is None:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                                   "operation does not have an identity")
        return OPS["norm"](self, p=p, dim=dims, keepdim=keepdim)

    def logsumexp(self, dim, keepdim=False):
        return OPS["logsumexp"](self, dim=_dims(dim, self._data.ndim), keepdim=keepdim)

    def cumsum(self, dim, dtype=None):
        dim = _wrap_dim(dim, self._data.ndim)
        src = self if dtype is None else self._accumulated_as(dtype, "cumsum_out_cpu")
        return _in_dtype(self, OPS["cumsum"](src, dim=dim), dtype, src)

    def softmax(self, dim, dtype=None):
        return OPS["softmax"](self if dtype is None else self.to(dtype), dim=_wrap_dim(dim, self._data.ndim))

    def log_softmax(self, dim, dtype=None):
        return OPS["log_softmax"](self if dtype is None else self.to(dtype), dim=_wrap_dim(dim, self._data.ndim))

    # --- matrix products ------------------------------------------------------------------------
    def matmul(self, other):
        _check_operand("matmul", other)
        return matmul(self, other)

    def mm(self, mat2):
        _check_tensor_argument("mm", mat2, "mat2")
        _check_mm(self, mat2)
        if mat2.requires_grad:
            return OPS["mm"](self, mat2, mat2_transposed=_mat2_transposed(mat2))
        return OPS["mm"](self, mat2)

    def mv(self, vec):
        _check_tensor_argument("mv", vec, "vec")
        if self._data.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if self._data.ndim != 2 or vec._data.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self._data.ndim}, {vec._data.ndim}")
        if self._data.shape[1] != vec._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({self._data.shape[0]}), mat "
                               f"({'x'.join(map(str, self._data.shape))}), vec ({vec._data.shape[0]})")
        if self._data.dtype != vec._data.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_kind(vec)}, {_kind(self)}, and "
                               f"{_kind(vec)}")
        if self._data.dtype == np.bool_:
            raise NotImplementedError('"addmv_impl_cpu" not implemented for \'Bool\'')
        return OPS["mv"](self, vec)

    def dot(self, other):
        _check_tensor_argument("dot", other, "tensor")
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {other._data.ndim}D tensors")
        if self._data.dtype != other._data.dtype:           # (dtypes first, as PyTorch)
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_kind(self)} and "
                               f"{_kind(other)}")
        if self._data.shape != other._data.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{self._data.size}] and src [{other._data.size}] to have "
                f"the same number of elements, but got {self._data.size} and {other._data.size} elements respectively")
        if self._data.dtype == np.bool_:
            raise NotImplementedError('"dot" not implemented for \'Bool\'')
        return OPS["dot"](self, other)

    def bmm(self, mat2):
        _check_tensor_argument("bmm", mat2, "mat2")
        for name, t in (("batch1", self), ("batch2", mat2)):
            if t._data.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        b1, b2 = self._data.shape, mat2._data.shape
        if b2[:2] != (b1[0], b1[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b1[0]}, {b1[2]}] "
                               f"but got: [{b2[0]}, {b2[1]}].")
        if self._data.dtype == np.bool_:          # (the kernel is chosen by self's dtype before mat2 is checked)
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
        if self._data.dtype != mat2._data.dtype:
            raise RuntimeError(f"expected scalar type {_kind(self)} but found {_kind(mat2)}")
        return OPS["bmm"](self, mat2)

    def outer(self, vec2):
        _check_tensor_argument("outer", vec2, "vec2")
        for name, t in (("self", self), ("vec2", vec2)):
            if t._data.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return self.reshape(-1, 1) * vec2

    def trace(self):
        if self._data.dtype == np.bool_:           # (the kernel's dtype is checked before the shape)
            raise NotImplementedError('"trace" not implemented for \'Bool\'')
        if self._data.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self._data.ndim}")
        return OPS["trace"](self, self_sizes=self._data.shape)

    # --- shape ----------------------------------------------------------------------------------
    def view(self, *shape, **keywords):
        if keywords:
            shape = _sizes_keyword(shape, keywords, "size")
        if len(shape) == 1 and isinstance(shape[0], (_dtype.dtype, type)):
            raise NotImplementedError("gradlab does not support view(dtype)")
        shape = _infer_shape(_size_args(shape), self._data.size)
        try:
            np.reshape(self._data, shape, copy=False)
        except ValueError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.") from None
        return OPS["view"](self, shape=shape, self_sizes=self._data.shape)._view_of(self)

    def view_as(self, other):
        _check_tensor_argument("view_as", other)
        return self.view(other.shape)

    def reshape(self, *shape, **keywords):
        if keywords:
            shape = _sizes_keyword(shape, keywords, "shape")
        shape = _infer_shape(_size_args(shape), self._data.size)
        try:
            np.reshape(self._data, shape, copy=False)
        except ValueError:   # needs a copy: PyTorch clones, then views (UnsafeViewBackward0)
            return OPS["unsafe_view"](self.clone(), shape=shape, self_sizes=self._data.shape)
        # a view: ViewBackward0 of a contiguous tensor, PyTorch's _reshape_alias of any other
        key = "view" if self._data.flags.c_contiguous else "reshape_alias"
        return OPS[key](self, shape=shape, self_sizes=self._data.shape)._view_of(self)

    def reshape_as(self, other):
        _check_tensor_argument("reshape_as", other)
        return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        nd = self._data.ndim
        if nd == 0:
            _wrap_dim(start_dim, 0), _wrap_dim(end_dim, 0)
            return self.reshape(1)
        s, e = _wrap_dim(start_dim, nd), _wrap_dim(end_dim, nd)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self._data.shape
        return self.reshape(shape[:s] + (int(np.prod(shape[s:e + 1])),) + shape[e + 1:])

    def unflatten(self, dim, sizes):
        if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):      # (PyTorch's argument parser)
            raise TypeError(f"unflatten(): argument 'dim' (position 1) must be int, not {_type_name(dim)}")
        if not isinstance(sizes, (tuple, list)):
            raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, not {_type_name(sizes)}")
        for i, s in enumerate(sizes):
            if not isinstance(s, numbers.Integral) or isinstance(s, bool):
                if i == 0:
                    raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found "
                                    f"element of type {_type_name(s)} at pos 0")
                raise TypeError(f"unflatten(): argument 'sizes' failed to unpack the object at pos 2 with error "
                                f"\"type must be tuple of ints,but got {_type_name(s)}\"")
        sizes = tuple(int(s) for s in sizes)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if self._data.ndim == 0:
            raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} but tensor has no "
                               "dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        try:
            sizes = _infer_shape(sizes, self._data.shape[d])
        except RuntimeError as e:            # PyTorch rewords infer_size's errors (handle_unflatten_exception)
            if "is invalid for input of size" not in str(e):
                raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
            raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't multiply up to the "
                               f"size of dim {d} ({self._data.shape[d]}) in the input tensor") from None
        return self.view(self._data.shape[:d] + sizes + self._data.shape[d + 1:])

    def squeeze(self, dim=None):
        if dim is None:
            return OPS["squeeze"](self, self_sizes=self._data.shape)._view_of(self)
        if isinstance(dim, (tuple, list)):      # several dims: SqueezeBackward2
            return OPS["squeeze_dims"](self, dim=_dims(dim, self._data.ndim),
                                       self_sizes=self._data.shape)._view_of(self)
        return OPS["squeeze_dim"](self, dim=_wrap_dim(dim, self._data.ndim),
                                  self_sizes=self._data.shape)._view_of(self)

    def unsqueeze(self, dim):
        return OPS["unsqueeze"](self, dim=_wrap_dim(dim, self._data.ndim + 1))._view_of(self)

    def transpose(self, dim0, dim1):
        nd = self._data.ndim
        return OPS["transpose"](self, dim0=_wrap_dim(dim0, nd), dim1=_wrap_dim(dim1, nd))._view_of(self)

    swapaxes = swapdims = transpose

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return OPS["t"](self)._view_of(self)

    @property
    def T(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")
        elif self._data.ndim != 2:
            _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                       "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                       "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
        return self.permute(tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4373.)")
            return self
        if self._data.ndim == 1:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    def permute(self, *dims, **keywords):
        if keywords:
            dims = _sizes_keyword(dims, keywords, "dims")
        dims = _size_args(dims)
        if len(dims) != self._data.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the length "
                               "of the desired ordering of dimensions i.e. input.dim() = "
                               f"{self._data.ndim} is not equal to len(dims) = {len(dims)}")
        dims = tuple(_wrap_dim(d, self._data.ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return OPS["permute"](self, dims=dims)._view_of(self)

    def expand(self, *sizes, implicit=False, **keywords):
        if keywords:
            sizes = _sizes_keyword(sizes, keywords, "size")
        sizes = _size_args(sizes)
        if len(sizes) < self._data.ndim:
            raise RuntimeError(
                f"expand({self.type()}{{[{', '.join(map(str, self._data.shape))}]}}, size=[{', '.join(map(str, sizes))}]): "
                f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions in "
                f"the tensor ({self._data.ndim})")
        lead = len(sizes) - self._data.ndim
        for i in range(lead):
            if sizes[i] == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
        for i in range(len(shape) - 1, lead - 1, -1):        # each old dim: kept, or stretched from 1
            old = self._data.shape[i - lead]
            if old != 1 and old != shape[i]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[i]}) must match the existing size ({old}) at "
                    f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}].  Tensor sizes: "
                    f"[{', '.join(map(str, self._data.shape))}]")
        return OPS["expand"](self, shape=shape)._view_of(self)

    def expand_as(self, other):
        _check_tensor_argument("expand_as", other)
        return self.expand(other.shape)

    def repeat(self, *repeats, **keywords):
        if keywords:
            repeats = _sizes_keyword(repeats, keywords, "repeats")
        repeats = _size_args(repeats)
        if len(repeats) < self._data.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        padded = (1,) * (len(repeats) - self._data.ndim) + self._data.shape
        sizes = [s * r for s, r in zip(padded, repeats)]
        negative = [s for s in sizes if s < 0]
        if negative:
            raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                               f"[{', '.join(map(str, sizes))}]")
        return OPS["repeat"](self, repeats=repeats, self_sizes=self._data.shape)

    def flip(self, *dims, **keywords):
        if keywords:
            dims = _sizes_keyword(dims, keywords, "dims")
        first = dims[0] if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else dims
        if first and isinstance(first[0], bool):     # (PyTorch looks at the first only)
            raise TypeError("flip")                # (a bool is no dim: _argparse words PyTorch's TypeError)
        dims = _dims(list(_size_args(dims)), self._data.ndim)
        return OPS["flip"](self, dims=dims)

    def roll(self, shifts, dims=None):
        shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        dims = (dims,) if isinstance(dims, int) else tuple(dims) if dims is not None else None
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims or ()) and not (dims is None and len(shifts) == 1):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims or ())}")
        if dims is None:                # the flattened tensor rolls (one RollBackward0 node, as in PyTorch)
            return OPS["roll"](self, shifts=shifts, dims=None)
        if not self._data.size:         # (PyTorch returns an empty tensor's copy before reading dims)
            return OPS["roll"](self, shifts=shifts[:1], dims=None)
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        dims = tuple(_wrap_dim(d, self._data.ndim) for d in dims)
        return OPS["roll"](self, shifts=shifts, dims=dims)

    def narrow(self, dim, start, length):
        if isinstance(start, Tensor):       # (PyTorch's other overload, checked before anything else)
            if start._data.ndim or start._data.dtype.kind not in "iu":
                raise RuntimeError("start must be an 0-dim integral Tensor.")
            start = int(start._data)
        if self._data.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        start = start + self._data.shape[d] if start < 0 else start
        if start + length > self._data.shape[d]:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({self._data.shape[d]}).")
        return OPS["slice"](self, dim=d, start=start, stop=start + length, step=1,
                            self_sizes=self._data.shape)._view_of(self)

    def select(self, dim, index, _real_dim=None):
        if self._data.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= index < size:
            if _real_dim is not None:       # x[1, 5]: indexing names the dim of x
                raise IndexError(f"index {index} is out of bounds for dimension {_real_dim} with size {size}")
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, self._data.shape))}] at dimension {d}")
        return OPS["select"](self, dim=d, index=index, self_sizes=self._data.shape)._view_of(self)

    def unbind(self, dim=0):
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {_wrap_dim(dim, 0)} but tensor has no dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        return _multi_output_views(self, "Unbind", OPS["unbind"](self, dim=d))

    def split(self, split_size, dim=0):
        if isinstance(split_size, bool):          # (PyTorch's parser marks every argument then)
            got = f"Tensor, bool, {_type_name(dim)}"
            bad = f"(Tensor, !bool!, !{_type_name(dim)}!)"
            raise TypeError(f"split() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n * (Tensor input, int split_size, int dim = 0)\n      didn't match because some of "
                            f"the arguments have invalid types: {bad}\n * (Tensor input, tuple of ints split_size, int "
                            f"dim = 0)\n      didn't match because some of the arguments have invalid types: {bad}\n")
        if isinstance(split_size, (list, tuple)) and split_size and isinstance(split_size[0], bool):
            raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, but found "
                            "element of type bool at pos 0")
        if isinstance(split_size, (list, tuple)) and all(isinstance(n, numbers.Integral) for n in split_size):
            split_size = [int(n) for n in split_size]     # (a later bool counts as an int)
        if not isinstance(split_size, (numbers.Integral, list, tuple)):
            raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                            f"{_type_name(split_size)}")
        if self._data.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        if isinstance(split_size, int) and split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if isinstance(split_size, int):
            if split_size == 0 and size != 0:
                raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
            if split_size == 0:               # an empty dim splits into one empty piece
                return tuple(t._view_of(self) for t in OPS["split"](self, dim=d, sections=[]))
            if split_size < 0:
                raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
            sizes = [split_size] * (size // split_size) + ([size % split_size] if size % split_size else [])
        else:
            sizes = list(split_size)
            if sum(sizes) != size:
                raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                                   f"size at dimension {d}), but got split_sizes={sizes}")
        sections = np.cumsum(sizes)[:-1].tolist()
        return _multi_output_views(self, "Split" if isinstance(split_size, int) else "SplitWithSizes",
                                   OPS["split"](self, dim=d, sections=sections))

    def chunk(self, chunks, dim=0):
        if self._data.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        size = self._data.shape[_wrap_dim(dim, self._data.ndim)]
        if size == 0:                         # an empty dim: `chunks` empty pieces, as in PyTorch
            d = _wrap_dim(dim, self._data.ndim)
            return tuple(t._view_of(self) for t in OPS["split"](self, dim=d, sections=[0] * (chunks - 1)))
        return self.split(max(-(-size // chunks), 1), dim)

    def gather(self, dim, index):
        _check_tensor_argument("gather", index, "index", position=2)
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if max(idx.ndim, 1) != max(self._data.ndim, 1):     # (a 0-d tensor counts as 1-d here)
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        for i, (n_index, n_self) in enumerate(zip(idx.shape, self._data.shape)):
            if i != d and n_index > n_self:
                raise RuntimeError(f"Size does not match at dimension {i} expected index {list(idx.shape)} to be no "
                                   f"larger than self {list(self._data.shape)} apart from dimension {d}")
        size = self._data.shape[d] if self._data.ndim else 1
        bad = (idx < 0) | (idx >= size)                  # (gather takes no negative index)
        if bad.any():
            raise RuntimeError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
        return OPS["gather"](self, dim=_wrap_dim(dim, self._data.ndim), index=_data_of(index),
                             self_sizes=self._data.shape)

    def index_select(self, dim, index):
        _check_tensor_argument("index_select", index, "index", position=2)
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if idx.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        size = self._data.shape[d] if self._data.ndim else 1
        if not self._data.ndim and idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        if size == 0 and idx.size:          # (PyTorch's 1-d kernel words it as any index out of range)
            if self._data.ndim == 1:
                raise IndexError("index out of range in self")
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        bad = (idx < 0) | (idx >= size)
        if bad.any():      # (PyTorch's kernels word it differently: its dim-1 and empty-input kernel, the others)
            if d == 1 or self._data.size == 0:
                raise RuntimeError(f"INDICES element is out of DATA bounds, id={idx[bad].flat[0]} axis_dim={size}")
            raise IndexError("index out of range in self")
        if self._data.ndim and not idx.ndim:
            idx = idx.reshape(1)           # (a 0-d index keeps the dim)
        return OPS["index_select"](self, dim=d, index=idx, self_sizes=self._data.shape)

    # --- indexing -------------------------------------------------------------------------------
    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    # --- in-place operations --------------------------------------------------------------------
    def _inplace(self, opkey, *args, **params):
        if opkey in _RESULT_CHECKED:            # x.add_(y): the result must fit x (see _check_inplace_result)
            _check_inplace_result(self, opkey, args[0] if args else params.get("exponent"), params.get("alpha", 1))
        return _indexing.run_inplace(self, opkey, args, params)

    def add_(self, other, alpha=1):
        return self._inplace("add", other, alpha=alpha)

    def sub_(self, other, alpha=1):
        return self._inplace("sub", other, alpha=alpha)

    def mul_(self, other):
        return self._inplace("mul", other)

    def div_(self, other, *, rounding_mode=_NO_ROUNDING):
        if rounding_mode is _NO_ROUNDING:
            return self._inplace("div", other)
        _indexing._check_inplace_allowed(self)        # (autograd's check first, then the mode, as in PyTorch)
        if rounding_mode is not None and rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        _check_inplace_result(self, "div" if rounding_mode is None else "div_rounding", other)
        return _indexing.run_inplace(self, "div_rounding", (other,), {"rounding_mode": rounding_mode})

    def pow_(self, exponent):
        if isinstance(exponent, Tensor):
            return self._inplace("pow", exponent)
        return self._inplace("pow_scalar", exponent=exponent)

    def neg_(self):
        return self._inplace("neg")

    def exp_(self):
        return self._inplace("exp")

    def relu_(self):
        return self._inplace("relu")

    def sigmoid_(self):
        return self._inplace("sigmoid")

    def tanh_(self):
        return self._inplace("tanh")

    def sqrt_(self):
        return self._inplace("sqrt")

    def clamp_(self, min=None, max=None):
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            _check_arguments("clamp_", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                     ("Number min = None", "Number max = None")])
            return self._inplace("clamp_tensor", *_clamp_bounds(self, min, max))
        _check_arguments("clamp_", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                 ("Number min = None", "Number max = None")])
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        return self._inplace("clamp", min=_py(min), max=_py(max))

    def zero_(self):
        return fill_inplace(self, 0)

    def fill_(self, value):
        if isinstance(value, Tensor):            # (a 0-d tensor: FillBackward3, its value gets a gradient)
            if value._data.ndim:
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                   f"{value._data.ndim} dimensions.")
            return self._inplace("fill_tensor", value)
        return fill_inplace(self, _py(value))

    def copy_(self, src, non_blocking=False):      # (non_blocking: nothing to overlap on a CPU)
        if type(non_blocking) is not bool:
            raise TypeError(f"copy_(): argument 'non_blocking' (position 2) must be bool, not "
                            f"{_argument_type_name(non_blocking)}")
        setitem(self, Ellipsis, src)
        return self

    def masked_fill_(self, mask, value):
        mask, value = self._masked_fill_args(mask, value, inplace=True)
        if self._is_expanded():
            return self._fill_expanded("masked_fill_", 2450, np.broadcast_to(mask, self._data.shape), value)
        if isinstance(value, Tensor):
            return self._inplace("masked_fill_tensor", value, mask=mask)
        return self._inplace("masked_fill", mask=mask, value=value)

    def clamp_min_(self, min):
        _check_arguments("clamp_min_", (min,), [("Tensor min",), ("Number min",)])
        if isinstance(min, Tensor):
            return self._inplace("clamp_min_tensor", min)
        self._check_lifted(_py(min))
        return self._inplace("clamp_min", min=_py(min))

    def clamp_max_(self, max):
        _check_arguments("clamp_max_", (max,), [("Tensor max",), ("Number max",)])
        if isinstance(max, Tensor):
            return self._inplace("clamp_max_tensor", max)
        self._check_lifted(_py(max))
        return self._inplace("clamp_max", max=_py(max))

    def _is_expanded(self):
        """An expanded view (stride 0 along a dim of size > 1) that records no graph."""
        return (not self._data.flags.writeable and not self._requires_grad
                and any(st == 0 and n > 1 for st, n in zip(self._data.strides, self._data.shape)))

    def _fill_expanded(self, name, line, mask, value):
        """PyTorch still fills an expanded tensor's shared memory here, with a deprecation warning."""
        warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before performing "
                      "this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered "
                      f"internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)",
                      UserWarning, stacklevel=3)
        _indexing._write_through_base(self, mask, value._data if isinstance(value, Tensor) else value)
        self._version_counter[0] += 1
        return self

    def _check_lifted(self, scalar):
        """An in-place op cannot turn an int tensor into a float one (x.clamp_min_(0.5) of int x)."""
        lifted = _lifted(self, scalar)
        if lifted is not self:
            raise RuntimeError(f"result type {_kind(lifted)} can't be cast to the desired output type {_c_type(self)}")

    def index_fill_(self, dim, index, value):
        """In-place index_fill (IndexFillBackward0 when recorded)."""
        _check_arguments("index_fill_", (dim, index, value), [("int dim", "Tensor index", "Tensor value"),
                                                               ("int dim", "Tensor index", "Number value")])
        _check_fill_value(value)
        if self._is_expanded():
            return self._fill_expanded("index_fill_", 1913, self._index_fill_mask(dim, index), _py(value))
        return self._inplace("index_fill", mask=self._index_fill_mask(dim, index), value=_py(value))

    def lerp_(self, end, weight):
        _check_arguments("lerp_", (end, weight), [("Tensor end", "Tensor weight"), ("Tensor end", "Number weight")])
        self._check_lerp(end, weight, inplace=True)
        if isinstance(weight, Tensor):
            return self._inplace("lerp_tensor", end, weight)
        return self._inplace("lerp", end, weight=_py(weight))

    # `t += x` works in place for what the operators take; for anything else Python falls back to
    # `t = t + x` (numpy computes it for an array, as with PyTorch)
    def __iadd__(self, other):
        return self.add_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __isub__(self, other):
        return self.sub_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __imul__(self, other):
        return self.mul_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __itruediv__(self, other):
        return self.div_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __ipow__(self, exponent):
        return self.pow_(exponent) if isinstance(exponent, _OPERANDS) else NotImplemented

    # operators without a differentiable in-place method here: computed out of place, then written into self
    def __ifloordiv__(self, other):
        return _inplace_operator(self, "floor_divide", other, Tensor.__floordiv__)

    def __imod__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        _check_inplace_result(self, "remainder", other)
        if isinstance(other, Tensor):          # (RemainderBackward0 recorded as for x.remainder(y))
            return _indexing.run_inplace(self, "remainder_tensor", (other,), {})
        return _indexing.run_inplace(self, "remainder", (), {"other": _wrapped(_number(other), self)})

    def __iand__(self, other):
        return _inplace_operator(self, "bitwise_and", other, Tensor.__and__)

    def __ior__(self, other):
        return _inplace_operator(self, "bitwise_or", other, Tensor.__or__)

    def __ixor__(self, other):
        return _inplace_operator(self, "bitwise_xor", other, Tensor.__xor__)

    # random in-place fills (the same streams as PyTorch's generator)
    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        gen = generator if generator is not None else _random.default_generator
        _check_uniform_bounds(self._data.dtype, from_, to)
        if self._data.size == 0:
            return assign_data(self, self._data, "uniform_")
        return assign_data(self, gen.uniform(self._data.shape, self._data.dtype, from_, to), "uniform_")

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        gen = generator if generator is not None else _random.default_generator
        if not float(std) >= 0.0:                                # (NaN too) checked before the dtype
            raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
        if self._data.size == 0:        # nothing to fill: no dtype check (float(mean) still refuses None)
            float(mean)
            return assign_data(self, self._data, "normal_")
        if self._data.dtype.kind in "biu":
            raise NotImplementedError(f'"normal_kernel_cpu" not implemented for '
                                      f"'{_dtype.from_numpy_dtype(self._data.dtype)._legacy[:-6]}'")
        return assign_data(self, gen.normal(self._data.shape, self._data.dtype, mean, std), "normal_")


# The class body above becomes Tensor's own methods, as PyTorch's torch/_tensor.py adds its Python
# methods to the C++ TensorBase. (No method uses zero-argument super() or a __private name, which
# would still point at _TensorMethods.) Their __qualname__ becomes Tensor's, for reprs and errors.
for _name, _value in vars(_TensorMethods).items():
    if _name in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"):
        continue
    for _fn in (_value.fget, _value.fset, _value.fdel) if isinstance(_value, property) else (
            getattr(_value, "__func__", _value),):
        if getattr(_fn, "__qualname__", "").startswith("_TensorMethods."):
            _fn.__qualname__ = "Tensor." + _fn.__qualname__[len("_TensorMethods."):]
    setattr(Tensor, _name, _value)
del _name, _value, _fn, _TensorMethods


# ---------------------------------------------------------------------------------------------------
# helpers used by the methods above

def _check_uniform_bounds(np_dtype, from_, to):
    """uniform_'s checks, in PyTorch's order and words (aten's check_uniform_bounds)."""
    if np_dtype.kind in "biu":
        raise NotImplementedError(f'"check_uniform_bounds" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}'")
    if np_dtype.kind != "f":
        return
    from_, to = float(from_), float(to)
    info = np.finfo(np_dtype)
    c_name = {"float16": "c10::Half", "float32": "float", "float64": "double"}[np_dtype.name]
    for name, value in (("from", from_), ("to", to)):
        if not float(info.min) <= value <= float(info.max):
            raise RuntimeError(f"{name} is out of bounds for {c_name}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    if to - from_ > float(info.max):
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}"
                           f">::max(), but found to={to:g} and from={from_:g} which result in to-from to exceed the limit")


_SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                   "Consider using tensor.detach() first. (Triggered internally at "
                   "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def _real_item(data, c_type):
    """The one element as a Python number; a complex one only if real (PyTorch's float()/int())."""
    value = data.reshape(()).item()
    if isinstance(value, complex) and c_type is not None:
        if value.imag != 0 or c_type == "int64_t" and not -2.0 ** 63 <= value.real < 2.0 ** 63:   # (NaN too)
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        value = value.real
    return value


_NO_CUDA_LIBRARY = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.")

# Tensor.to's three signatures, as PyTorch's argument parser tries them: (parameter, accepts)
_TO_SIGNATURES = (
    ((("device", "device"), ("dtype", "dtype"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, "
     "torch.memory_format memory_format = None)"),
    ((("dtype", "dtype!"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = "
     "None)"),
    ((("tensor", "tensor"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)"),
)
_PYTHON_TYPES = {float: _dtype.float64, int: _dtype.int64, bool: _dtype.bool_, complex: _dtype.complex128}


def _accepts(kind, value):
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "tensor":          # a Python number stands for a 0-d tensor of double (or its own type)
        return isinstance(value, (Tensor, numbers.Number, np.bool_))
    if value is None:
        return kind != "dtype!"
    if kind == "device":
        return isinstance(value, (_device.device, str)) or \
            isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    return isinstance(value, _dtype.dtype) or isinstance(value, type) and value in _PYTHON_TYPES     # dtype


def _to_arguments(args, kwargs):
    """(device, dtype, copy) of a call to Tensor.to, or PyTorch's TypeError for a call it refuses."""
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were given")
    options = dict(kwargs)
    memory_format = options.pop("memory_format", None)
    for params, _ in _TO_SIGNATURES:
        if len(args) > len(params):
            continue
        bound = dict(zip((name for name, _ in params), args))
        kinds = dict(params)
        if any(name in bound or name not in kinds for name in options):
            continue
        bound.update(options)
        if params[0][1] == "dtype!" and "dtype" not in bound or params[0][0] == "tensor" and "tensor" not in bound:
            continue
        if all(_accepts(kinds[name], value) for name, value in bound.items()) and \
                (memory_format is None or isinstance(memory_format, _dtype.memory_format)):
            other = bound.get("tensor")
            if other is not None:
                if isinstance(other, Tensor):
                    return other.device, other.dtype, bool(bound.get("copy"))
                dtype = _dtype.bool_ if isinstance(other, (bool, np.bool_)) else \
                    _dtype.complex128 if isinstance(other, complex) else _dtype.float64
                return None, dtype, bool(bound.get("copy"))
            dtype = bound.get("dtype")
            return bound.get("device"), _PYTHON_TYPES.get(dtype, dtype), bool(bound.get("copy"))
    got = [_argument_type_name(a) for a in args]
    named = [f"{k}={_argument_type_name(v)}" for k, v in reversed(kwargs.items())]
    described = ", ".join(got + named) if got else "".join(n + ", " for n in named)
    raise TypeError(f"to() received an invalid combination of arguments - got ({described}), but expected one "
                    "of:\n" + "\n".join(line for _, line in _TO_SIGNATURES) + "\n")


def _argument_type_name(x):
    """A type as PyTorch's argument parser names it (torch.dtype, torch.device, int, Tensor)."""
    if isinstance(x, _dtype.dtype):
        return "torch.dtype"
    if isinstance(x, _device.device):
        return "torch.device"
    if isinstance(x, _dtype.memory_format):
        return "torch.memory_format"
    if isinstance(x, Size):
        return "torch.Size"
    return "Tensor" if isinstance(x, Tensor) else _type_name(x)


def _multi_output_views(base, name, outputs):
    """The views unbind and split return. PyTorch refuses to change one of them in place while it
    requires grad ("Output 1 of Unbind is a view and is being modified inplace..."): each remembers
    which output of which function it is."""
    views = tuple(t._view_of(base) for t in outputs)
    if grad_mode._state["enabled"] and base.requires_grad:
        for i, view in enumerate(views):
            view._multi_output = (name, i)
    return views


class _ReturnType(tuple):
    """What `x.max(dim)` returns: a (values, indices) pair. As in PyTorch, each op has its own class
    (`gradlab.return_types.max`, named like `torch.return_types.max`), printed like torch's."""
    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0
    _classes = {}

    def __new__(cls, name, values, indices):
        return tuple.__new__(_ReturnType.of(name), (values, indices))

    @staticmethod
    def of(name):
        """The class for op `name` (one subclass per op, made on first use; gradlab.return_types lists them)."""
        kind = _ReturnType._classes.get(name)
        if kind is None:
            kind = _ReturnType._classes[name] = type(name, (_ReturnType,), {
                "__module__": "gradlab.return_types", "__qualname__": name, "__slots__": (),
                "__new__": lambda c, seq: tuple.__new__(c, tuple(seq))})
        return kind

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"


# Tensors made under inference_mode. While it is on, Tensor._make also records each new tensor here
# (swapped in and out by _inference_mode_changed, so that the usual _make pays nothing for it).
_INFERENCE_TENSORS = weakref.WeakValueDictionary()     # id -> tensor (a WeakSet would compare with ==)


def _make_inference(cls, data, grad_fn=None, output_nr=0):
    t = _plain_make(cls, data, grad_fn, output_nr)
    _INFERENCE_TENSORS[id(t)] = t
    return t


def _inference_mode_changed(on):
    Tensor._make = classmethod(_make_inference if on else _plain_make)


grad_mode.on_inference_change.append(_inference_mode_changed)


def _init(t, data):
    """Tensor(...) and Parameter(...): the core's slots, and the inference-mode mark."""
    if grad_mode._state["inference"]:
        _INFERENCE_TENSORS[id(t)] = t
    Tensor._init(t, data)


def _plain(x):
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _data_of(x):
    return x._data if isinstance(x, Tensor) else np.asarray(x)


def _size_args(args):
    """Accept sizes as varargs `(2, 3)`, a tuple/list/Size `((2, 3),)`, or `()`."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = args[0]
    if all(type(a) is int for a in args):      # the common case, checked cheaply
        return tuple(args)
    out = []
    for a in args:
        if isinstance(a, Tensor):
            a = a.item()
        if not isinstance(a, numbers.Integral):
            raise TypeError(f"empty(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(a).__name__} at pos {len(out)}")
        out.append(int(a))
    return tuple(out)


def _sizes_keyword(args, keywords, name):
    """t.reshape(shape=(2, 3)): the sizes by PyTorch's keyword, then a tuple or list only. A wrong call
    raises a bare TypeError, which gradlab's argument parser (_argparse) rewords as PyTorch's."""
    if args or set(keywords) != {name} or not isinstance(keywords[name], (tuple, list, Size)):
        raise TypeError(name)
    return (keywords[name],)


def _infer_shape(shape, numel):
    """The -1 in a view/reshape shape filled in; PyTorch's infer_size (its checks, in its order)."""
    if -1 not in shape and all(s >= 0 for s in shape):      # the common case
        n = 1
        for s in shape:
            n *= s
        if n == numel:
            return shape
    text = f"[{', '.join(map(str, shape))}]"
    infer, known = None, 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {text}")
    if numel == known or (infer is not None and known > 0 and numel % known == 0):
        if infer is None:
            return shape
        if known == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {text} because the unspecified "
                               "dimension size -1 can be any value and is ambiguous")
        return shape[:infer] + (numel // known,) + shape[infer + 1:]
    raise RuntimeError(f"shape '{text}' is invalid for input of size {numel}")


def _check_reduced_size(name, t, dims):
    for d in dims:
        if t._data.ndim and t._data.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


_WARNED = set()
_WARN_ALWAYS = [False]


def set_warn_always(b):
    """torch.set_warn_always: warnings PyTorch gives once per process show every time."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


def _warn_once(message):
    """PyTorch's TORCH_WARN_ONCE: a deprecation warning shows once per process (unless
    set_warn_always(True))."""
    if message not in _WARNED or _WARN_ALWAYS[0]:
        _WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _check_tensor_argument(name, other, arg="other", position=1):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(other)}")


def _clamp_bounds(t, low, high):
    """clamp's tensor bounds, a missing one standing in as the most extreme value of the result's
    dtype (so that it changes nothing, not even the result dtype)."""
    given = low if low is not None else high
    like = _dtype.result_np_dtype([(t._data.ndim, t._data.dtype), (given._data.ndim, given._data.dtype)], [])
    if like == np.bool_:
        lo, hi = False, True
    elif like.kind in "iu":
        lo, hi = np.iinfo(like).min, np.iinfo(like).max
    else:
        lo, hi = -np.inf, np.inf
    return (low if low is not None else Tensor._make(np.asarray(lo, like)),
            high if high is not None else Tensor._make(np.asarray(hi, like)))


def _dims(dim, ndim):
    """Dims to reduce over, wrapped. A 0-d tensor takes dim 0 or -1, as PyTorch allows, and has
    nothing to reduce: sum(0) of a 0-d tensor is the tensor's value."""
    if isinstance(dim, (list, tuple)):
        dims = tuple(sorted(_wrap_dim(d, ndim) for d in dim))
        for a, b in zip(dims, dims[1:]):
            if a == b:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
    else:
        dims = (_wrap_dim(dim, ndim),)
    return dims if ndim else ()


_OPERANDS = (Tensor, bool, int, float, complex, np.generic)   # what PyTorch's operators compute with
_TENSOR_ONLY = ("matmul", "maximum", "minimum")
_ARGUMENT_ERROR = ("add", "sub", "mul", "div") + _TENSOR_ONLY     # the rest report "invalid combination"


def _was_were(args):
    return "was" if len(args) == 1 else "were"


def _format_strides(t, memory_format, function):
    """The strides (in elements) of a copy of t in a memory format (contiguous or channels_last)."""
    if not isinstance(memory_format, _dtype.memory_format):
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{_type_name(memory_format)}")
    shape = t._data.shape
    if memory_format is _dtype.channels_last:
        if len(shape) != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        n, c, h, w = (max(s, 1) for s in shape)       # NCHW stored as NHWC
        return [h * w * c, 1, w * c, c]
    return _elementwise.contiguous_strides(shape)


def _check_operand(name, other, arg="other"):
    """`t.mul([1, 2])`: a named operation refuses what its operator refuses, with PyTorch's TypeError."""
    if isinstance(other, Tensor) or (name not in _TENSOR_ONLY and isinstance(other, _OPERANDS)):
        return
    if name in _ARGUMENT_ERROR:
        raise TypeError(f"{name}(): argument '{arg}' (position 1) must be Tensor, not {_type_name(other)}")
    why = f"      didn't match because some of the arguments have invalid types: (!{_described(other)}!)"
    if name == "subtract":
        lines = [" * (Tensor other, *, Number alpha = 1)", " * (Number other, Number alpha = 1)"]
    elif name == "divide":
        lines = [" * (Tensor other)", why, " * (Tensor other, *, str rounding_mode)", " * (Number other)", why,
                 " * (Number other, *, str rounding_mode)"]
    else:
        lines = [f" * (Tensor {arg})", why, f" * (Number {arg})", why]
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({_type_name(other)}), but "
                    "expected one of:\n" + "\n".join(lines) + "\n")


_C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
            "float16": "c10::Half"}


def _check_exponent(exponent, dtype):
    """`int8_tensor ** 300`: PyTorch converts the exponent to the tensor's type and refuses to overflow."""
    _check_int_scalar(exponent)
    if exponent.__class__ is int and dtype.kind in "iu":
        if exponent >= 2**63:                      # a Python int is first read as an int64
            dtype = np.dtype(np.int64)
        elif np.iinfo(dtype).min <= exponent <= np.iinfo(dtype).max:
            return
    elif exponent.__class__ in (int, float) and dtype == np.float16:
        if not abs(exponent) > 65504 or np.isinf(exponent):     # (inf and nan convert)
            return
    else:
        return
    raise RuntimeError(f"value cannot be converted to type {_C_TYPES[dtype.name]} without overflow")


def _wrapped(scalar, a):
    """A Python int as a number of `a`'s integer dtype, wrapped around as PyTorch does with integer
    scalars (uint8 - 3 computes uint8 + 253), where numpy 2 raises OverflowError."""
    if scalar.__class__ is int and a._data.dtype.kind in "iu":
        return np.asarray(scalar).astype(a._data.dtype)[()]
    return scalar


def _check_sub(a, b):
    """PyTorch refuses to subtract booleans: a Python bool counts as a bool tensor, np.bool_ as a float."""
    _check_int_scalar(b)
    a_bool = a._data.dtype.kind == "b"
    b_bool = b.__class__ is bool or (isinstance(b, Tensor) and b._data.dtype.kind == "b")
    if a_bool and b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


_RESULT_CHECKED = {"add", "sub", "mul", "div", "pow", "pow_scalar"}


def _check_inplace_result(t, opname, other, alpha=1):
    """x op= y writes into x: PyTorch first refuses a broadcast shape other than x's, then a result
    type x cannot hold (a float into an integer tensor, anything but bool into a bool one)."""
    _check_int_scalar(other)
    if opname == "sub" and (t._data.dtype.kind == "b" or other.__class__ is bool or
                            (other.__class__ is Tensor and other._data.dtype.kind == "b")):
        _indexing._check_inplace_allowed(t)
        _check_sub(t, other)
    if other.__class__ is int and other >= 2**63 and t._data.dtype.kind == "b":       # (read as a uint64)
        if opname == "pow_scalar":
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                           "promote Bool and UInt64")
    data = t._data
    if opname == "pow_scalar" and isinstance(other, numbers.Integral) and other < 0 and data.dtype.kind in "biu":
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if opname == "pow_scalar" and other.__class__ in (int, float) and data.dtype.kind != "b":
        _check_exponent(other, data.dtype)
    if other.__class__ is Tensor:
        od = other._data
        if od.shape != data.shape:
            try:
                shape = np.broadcast_shapes(data.shape, od.shape)
            except ValueError:
                _indexing._check_inplace_allowed(t)
                _indexing.check_overlaps(t, (other,))
                raise broadcast_error(data.shape, od.shape) from None
            if shape != data.shape:
                _indexing._check_inplace_allowed(t)
                _indexing.check_overlaps(t, (other,))
                raise RuntimeError(f"output with shape [{', '.join(map(str, data.shape))}] doesn't match the "
                                   f"broadcast shape [{', '.join(map(str, shape))}]")
        if od.dtype == data.dtype and opname != "div" and alpha.__class__ is int:
            return                               # (the common case: nothing to check)
        res = _dtype.result_np_dtype([(data.ndim, data.dtype), (od.ndim, od.dtype)], [])
    elif isinstance(other, _SCALARS + (np.generic,)):
        other = _number(other)
        if data.dtype.kind == "f" and other.__class__ is not complex:
            res = data.dtype                     # (a real number never lifts a float tensor: quick)
        else:
            res = _dtype.result_np_dtype([(data.ndim, data.dtype)], [_scalar_category(other)])
    else:
        return
    if opname == "div" and res.kind in "biu":
        res = np.dtype(np.float32)              # true division of integers gives the default float
    kind, target = res.kind, data.dtype.kind
    if (kind in "fc" and target in "biu") or (kind == "c" and target != "c") or (target == "b" and kind != "b"):
        _indexing._check_inplace_allowed(t)
        _indexing.check_overlaps(t, (other,) if other.__class__ is Tensor else ())   # (refused first)
        raise RuntimeError(f"result type {_dtype.from_numpy_dtype(res)._legacy[:-6]} can't be cast to the "
                           f"desired output type {_kind(t)}")
    if alpha.__class__ is bool and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if alpha.__class__ is float and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def _scalar_category(x):
    return 0 if isinstance(x, bool) else 1 if isinstance(x, int) else 2 if isinstance(x, float) else 3


def _inplace_operator(t, opname, other, compute):
    """`t //= y`, `t &= y`: checked as an in-place op, computed out of place, written into t."""
    if not isinstance(other, _OPERANDS):
        return NotImplemented
    _indexing._check_inplace_allowed(t)
    _indexing.check_overlaps(t, (other,))       # (an expanded t is refused before any dtype check)
    _check_inplace_result(t, opname, other)
    result = compute(t, other)
    if result is NotImplemented:
        return NotImplemented
    return _indexing._adopt(t, result)


def _with_alpha(key, a, b, alpha):
    """a.add(b, alpha=...) / a.sub(b, alpha=...), with PyTorch's checks of alpha against the result."""
    alpha = _number(alpha)
    out = _binary(key, a, b, alpha=alpha)
    kind = out._data.dtype.kind
    if alpha.__class__ is bool and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if alpha.__class__ is float and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    return out


def _lifted(a, scalar):
    """`2.5 - int_tensor`: a scalar of a higher kind (float over int) makes the op compute in the
    default dtype of that kind, as PyTorch's scalar promotion does."""
    cat = 0 if isinstance(scalar, bool) else 1 if isinstance(scalar, int) else 2 if isinstance(scalar, float) else 3
    if cat > _dtype.category(a._data.dtype):
        lifted = a._data.astype(_dtype._DEFAULT_FOR_CATEGORY[cat])
        if lifted.ndim and not lifted.flags.c_contiguous:     # (numpy's cast forgets an expanded layout)
            lifted = _registry.torch_layout(None, lifted, (a._data,))
        return Tensor._make(lifted)
    return a


def _scalar_left(key, a, scalar):
    """`scalar - a`, `scalar ** a`: a Python scalar on the left of a tensor."""
    if isinstance(scalar, Tensor):
        return NotImplemented
    scalar = _number(scalar)
    if not isinstance(scalar, _SCALARS):
        return _binary("sub" if key == "rsub" else "pow", _as_tensor(scalar), a)
    _check_int_scalar(scalar)
    if key == "rsub" and (scalar.__class__ is bool or a._data.dtype.kind == "b"):
        _check_sub(a, scalar)
    a = _lifted(a, scalar)
    if key == "rsub":
        return OPS["rsub"](a, other=_wrapped(scalar, a))
    return OPS["rpow"](a, base=_wrapped(scalar, a))


_BITWISE = {np.bitwise_and: "bitwise_and", np.bitwise_or: "bitwise_or", np.bitwise_xor: "bitwise_xor"}


def _no_derivative(result, op_name, *inputs):
    """Give `result` PyTorch's NotImplemented grad_fn when an input requires grad (see NoDerivative)."""
    if grad_mode._state["enabled"]:
        edges = tuple(_registry.edge_of(t) for t in inputs if isinstance(t, Tensor) and t.requires_grad)
        if edges:
            result.grad_fn = NoDerivative(op_name, edges)
            result.grad_fn._output_ref = weakref.ref(result)
    return result


def _no_grad_scalar_left(ufunc, scalar, a):
    """`2 // t`, `2 % t`: a number on the left, promoted as PyTorch promotes a Python scalar."""
    scalar = _number(scalar)
    _check_int_scalar(scalar)
    dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype)], [_dtype.category(np.asarray(scalar).dtype)])
    return Tensor._make(np.asarray(ufunc(np.asarray(scalar).astype(dt), a._data.astype(dt, copy=False))))


def _no_grad_binary(ufunc, a, b):
    """a op b computed in PyTorch's result dtype (a Python int wraps around into an integer dtype)."""
    b = _number(b)
    if isinstance(b, Tensor):
        bd = b._data
        if bd.shape != a._data.shape:       # (the shapes are checked before the dtypes)
            try:
                np.broadcast_shapes(a._data.shape, bd.shape)
            except ValueError:
                raise broadcast_error(a._data.shape, bd.shape) from None
        dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype), (bd.ndim, bd.dtype)], [])
    else:
        _check_int_scalar(b)
        bd = np.asarray(b)
        dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype)], [_dtype.category(bd.dtype)])
    if ufunc in _BITWISE and dt.kind in "fc":   # PyTorch has no kernel (numpy's TypeError says other words)
        raise NotImplementedError(f'"{_BITWISE[ufunc]}_cpu" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(dt)._legacy[:-len('Tensor')]}'")
    if dt == np.float16 and b.__class__ in (int, float) and ufunc is _elementwise.floor_divide_arrays:
        # PyTorch divides float16 by a Python number in float32 (numpy would round it to float16 first)
        return Tensor._make(ufunc(a._data.astype(np.float32), np.float32(b)).astype(np.float16))
    try:
        out = ufunc(a._data.astype(dt, copy=False), bd.astype(dt, copy=False))
    except ValueError:
        raise broadcast_error(a._data.shape, bd.shape) from None
    return Tensor._make(np.asarray(out).astype(dt, copy=False))


def _compare(ufunc, a, b):
    if isinstance(b, Tensor):
        bd = b._data
    elif isinstance(b, _SCALARS + (np.generic, np.ndarray, list, tuple)):
        # (an int is first converted to an integer tensor's dtype, wrapping: int8 < 1000 is int8 < -24)
        if isinstance(b, (list, tuple)):
            bd = np.asarray(b)
        else:
            b = _number(b)
            _check_int_scalar(b)
            bd = _wrapped(b, a)
    else:
        return NotImplemented
    try:
        out = np.asarray(ufunc(a._data, bd))
    except ValueError:
        raise broadcast_error(a._data.shape, np.shape(bd)) from None
    if out.ndim and not (out.flags.c_contiguous and a._data.flags.c_contiguous):
        out = _registry.torch_layout(None, out, (a._data, bd))     # PyTorch's layout of the result
    return Tensor._make(out)


def _check_mm(a, b):
    if a._data.ndim != 2 or b._data.ndim != 2:
        raise RuntimeError(f"{'self' if a._data.ndim != 2 else 'mat2'} must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._data.shape[0]}x{a._data.shape[1]} and "
                           f"{b._data.shape[0]}x{b._data.shape[1]})")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_c_type(a)} != {_c_type(b)}")
    if a._data.dtype == np.bool_:
        raise NotImplementedError('"addmm_impl_cpu_" not implemented for \'Bool\'')


def _check_fill_value(value):
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")


def _in_dtype(t, out, dtype, src):
    """sum/prod/cumsum(dtype=...) of t: autograd refuses an integer or bool dtype for a t that
    requires grad (once dims are checked); an integer result is computed in int64, and with a
    smaller dtype (or bool) it wraps around to it, as PyTorch's accumulation in that dtype does."""
    if dtype is not None and out._data.dtype.kind in "biu":
        if t._requires_grad and grad_mode._state["enabled"]:
            raise RuntimeError(f"Autograd not support dtype: {_kind(src)}")
        if out._data.dtype != src._data.dtype:
            return Tensor._make(out._data.astype(src._data.dtype))
    return out


def _c_type(t):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "float16": "c10::Half",
            "bool": "bool", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}.get(t._data.dtype.name,
                                                                                        t._data.dtype.name)


def matmul(a, b):
    """PyTorch's matmul dispatch, so that the grad_fn names match (see torch-parity.md section 2.2)."""
    _check_tensor_argument("matmul", a, "input")
    _check_tensor_argument("matmul", b, "other", position=2)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return a.dot(b)
    if da == 2 and db == 1:
        return a.mv(b)
    if da == 1 and db == 2:
        if a._data.shape[0] != b._data.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{a._data.shape[0]} and "
                               f"{b._data.shape[0]}x{b._data.shape[1]})")
        return OPS["squeeze_matmul"](a.unsqueeze(0).mm(b), dim=0, self_sizes=(1, b._data.shape[1]))
    if da == 2 and db == 2:
        return a.mm(b)
    if (da == 3 and db == 3 and (a._data.shape[0] == 1) != (b._data.shape[0] == 1)
            and (a._data.shape[0] == 1 or a._data.shape[2] == b._data.shape[1])):   # (else bmm's error, as PyTorch)
        # a batch of one against a real batch: PyTorch squeezes it to a matrix, then folds
        return matmul(a.squeeze(0), b) if a._data.shape[0] == 1 else matmul(a, b.squeeze(0))
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    # general batched case: broadcast the batch dims, then one bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    try:
        batch = np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2])
    except ValueError:
        raise broadcast_error(a2._data.shape[:-2], b2._data.shape[:-2]) from None
    n, k = a2._data.shape[-2:]
    k2, m = b2._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{int(np.prod(batch))}, {k}] "
                           f"but got: [{int(np.prod(batch))}, {k2}].")
    a3 = a2.expand(batch + (n, k)).reshape(-1, n, k)
    b3 = b2.expand(batch + (k, m)).reshape(-1, k, m)
    out = a3.bmm(b3)
    shape = batch + ((n,) if da > 1 else ()) + ((m,) if db > 1 else ())
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


def _should_fold(a, b):
    """PyTorch folds the batch dims of the larger operand into matrix rows (one mm or mv instead of
    bmm) when the other operand is a vector or matrix; the grad_fn chain shows which it chose."""
    big, small = (a, b) if a._data.ndim >= b._data.ndim else (b, a)
    if not (big._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    try:
        np.reshape(big._data, (-1, big._data.shape[-1]), copy=False)
        return True
    except ValueError:
        return False


def _folded_matmul(a, b):
    transpose = b._data.ndim > a._data.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a._data.ndim == 2 else a) if transpose else b
    k = t1._data.shape[-1]
    if k != t2._data.shape[0]:
        rows = int(np.prod(t1._data.shape[:-1]))
        if t2._data.ndim == 2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and "
                               f"{t2._data.shape[0]}x{t2._data.shape[1]})")
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({t2._data.shape[0]})")
    shape = t1._data.shape[:-1]
    folded = t1.reshape(-1, k)
    if t2._data.ndim == 2:
        out = folded.mm(t2)
        out = OPS["unsafe_view"](out, shape=shape + (t2._data.shape[1],), self_sizes=out._data.shape)
        return out.mT.contiguous() if transpose else out
    out = folded.mv(t2)
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


def maximum(a, b):
    _check_tensor_argument("maximum", a, "input")
    _check_tensor_argument("maximum", b, "other", position=2)
    return _binary("maximum", a, b)


def minimum(a, b):
    _check_tensor_argument("minimum", a, "input")
    _check_tensor_argument("minimum", b, "other", position=2)
    return _binary("minimum", a, b)


def _unary_in_place(key):
    def method(self):
        return self._inplace(key)
    method.__name__ = method.__qualname__ = key + "_"
    method.__doc__ = f"In-place {key}: x.{key}_() changes x (recorded like x.{key}() when x is in a graph)."
    return method


def _named_comparison(name, compare):
    def method(self, other):
        _check_operand(name, other)      # PyTorch's argument error where the operator returns NotImplemented
        return compare(self, other)
    method.__name__ = method.__qualname__ = name
    return method


# x.eq(y), x.greater(y), ...: the comparison operators by name
for _name, _operator in (("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                         ("gt", operator.gt), ("ge", operator.ge), ("greater", operator.gt), ("less", operator.lt),
                         ("greater_equal", operator.ge), ("less_equal", operator.le), ("not_equal", operator.ne)):
    setattr(Tensor, _name, _named_comparison(_name, _operator))


# x.sin_(), x.log_(), ...: the in-place form of every elementwise op of one tensor that PyTorch has
for _key in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "log", "log2", "log10", "log1p", "expm1",
             "abs", "sign", "reciprocal", "rsqrt", "floor", "ceil", "trunc", "erf"):
    setattr(Tensor, _key + "_", _unary_in_place(_key))
