"""Tensor's construction, attributes and autograd methods: `Tensor(...)`, `size`, `stride`,
`requires_grad`, `grad`, `retain_grad`, hooks, `backward`, `detach`, `data`; and the
inference-mode bookkeeping of new tensors."""
import weakref

import numpy as np

from .. import _device, _dtype, autograd as _autograd
from .._argparse.wrappers import _vetter
from .._size import Size, tp_name as _tp_name
from .._tensor_core import InferenceVersionCounter, Tensor, _plain_make, _wrap_dim
from ..autograd import grad_mode, node as _autograd_node
from ..autograd.node import RemovableHandle, _HookDict
from ..autograd.engine import run_backward as _run_backward
from ..ops import OPS, indexing as _indexing, registry as _registry
from ..ops.operands import _type_name
from ..creation.legacy import legacy_data
from ._common import _warn_once
from .. import _warnings

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
                   "bool": "bool", "void32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}

_tuple_new = tuple.__new__     # Size of a numpy shape, without Size()'s checks of its items



# Tensor.type's C parser (THPVariable_type), which tools/make_signatures.py cannot pin from its messages alone
_vet_type = _vetter(("type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)",))

class _AttributeMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- construction ---------------------------------------------------------------------------
    def __init__(self, *args, **kwargs):
        """`Tensor(2, 3)` (uninitialised in torch, zeros here) or `Tensor([1, 2])`: the default dtype."""
        _init(self, legacy_data(args, kwargs))

    def is_inference(self, *args):
        """Whether this tensor was made under inference_mode (PyTorch's inference tensors)."""
        if args:
            raise TypeError(f"TensorBase.is_inference() takes no arguments ({len(args)} given)")
        return _INFERENCE_TENSORS.get(id(self)) is self

    def _view_of(self, base):
        """Mark self as a view of base: same storage, same version counter. The base (the tensor
        that owns the storage) remembers its views: when an in-place change gives the base a new
        history, every view must read through it (ops/indexing.py, _refresh_views)."""
        root = base._base if base._base is not None else base
        self._version_counter = root._version_counter
        if _INFERENCE_TENSORS and _INFERENCE_TENSORS.get(id(root)) is root:   # a view of an inference tensor
            _INFERENCE_TENSORS[id(self)] = self
        self._base = root
        if self.grad_fn is not None and getattr(base, "_multi_output", None) is not None:
            self._multi_output = base._multi_output      # (a view of an output of unbind/split: same rule)
        if not grad_mode._state["enabled"]:
            self.__dict__["_no_grad_view"] = True       # (PyTorch's creation_meta: its in-place error names it)
        elif base._base is not None and base.__dict__.get("_no_grad_view"):
            self.__dict__["_no_grad_view"] = base.__dict__["_no_grad_view"]     # (a view of such a view: the same)
        if self.grad_fn is None and (base.grad_fn is not None or base._requires_grad):
            # made under no_grad from a tensor that requires grad: PyTorch's view then requires grad
            # too, as a leaf that no gradient ever reaches (and that no in-place op may change)
            self._requires_grad = True
            self._accumulator = _autograd_node.NO_GRADIENT_EDGE
        # (a view of a tensor without history follows its base's requires_grad_(): _set_requires_grad; a view of
        # a leaf that requires grad reads through the leaf after an untracked change of it, a no_grad step)
        _indexing.remember_view(root, self)
        return self

    # --- basic attributes (shape, dim, dtype, ... are in _tensor_core.py) -------------------------
    def size(self, dim=None):
        if dim is None:
            return _tuple_new(Size, self._data.shape)
        if self._data.ndim == 0:      # (PyTorch's own message: a 0-d tensor has no dimension to wrap)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def is_signed(self):
        """Whether the dtype holds negative numbers: every dtype but uint8 and bool."""
        return self.dtype.is_signed

    def type(self, *args, **kwargs):
        """`x.type()` names the legacy tensor type ('torch.FloatTensor'); `x.type(t)` converts to a dtype
        or a legacy name."""
        args, kwargs = _vet_type(args, kwargs)          # (x.type(torch.half, input=x): PyTorch's TypeError)
        dtype = args[0] if args else kwargs.get("dtype")
        if dtype is None:
            return "torch." + self.dtype._legacy
        if isinstance(dtype, str):
            if dtype.startswith("torch.cuda."):
                raise RuntimeError(_NO_CUDA_LIBRARY)
            target = _dtype.get_default() if dtype == "torch.Tensor" else _dtype.from_legacy_name(dtype)
            if target is None:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = target
        elif not isinstance(dtype, _dtype.dtype):
            if getattr(dtype, "is_cuda", False) is True and isinstance(dtype, type):
                raise RuntimeError(_NO_CUDA_LIBRARY)        # torch.cuda.FloatTensor
            if isinstance(getattr(dtype, "dtype", None), _dtype.dtype) and isinstance(dtype, type):
                dtype = dtype.dtype                 # torch.DoubleTensor
            elif dtype is Tensor:
                dtype = _dtype.get_default()        # torch.Tensor: the default tensor type
            elif isinstance(dtype, type):
                raise ValueError(f"invalid type: '{_tp_name(dtype)}'")
            else:
                raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def data_ptr(self):
        if type(self._data) is _device.MetaArray:
            return 0                    # (a meta tensor has no memory)
        return self._data.__array_interface__["data"][0]

    def storage_offset(self):
        """Where the tensor starts in its storage, in elements: the numpy array that owns the
        memory stands in for the storage (0 for a tensor with its own memory)."""
        data = owner = self._data
        while True:
            base = owner.base
            if isinstance(base, np.ndarray):
                owner = base
            elif isinstance(getattr(base, "base", None), np.ndarray):   # numpy's as_strided wraps its input
                owner = base.base
            else:
                break
        if owner is data or any(s < 0 for s in data.strides):
            return 0
        offset, rest = divmod(self.data_ptr() - owner.__array_interface__["data"][0], data.itemsize)
        inside = offset < owner.nbytes // data.itemsize or data.size == 0     # (an empty view has an offset too)
        return offset if rest == 0 and 0 <= offset and inside else 0

    @property
    def nbytes(self):
        return self._data.size * self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def H(self):
        """The conjugate transpose of a matrix (its transpose, for real tensors)."""
        nd = self._data.ndim
        if nd == 0:
            _warn_once("Tensor.H is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4335.)")
            return _conj(self)
        if nd != 2:
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {nd}-D tensor."
                               + (" For batches of matrices, consider using tensor.mH" if nd > 2 else ""))
        return _conj(self.transpose(0, 1))

    @property
    def mH(self):
        """The conjugate transpose of the last two dimensions (mT, conjugated)."""
        nd = self._data.ndim
        if nd == 0:
            _warn_once("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4382.)")
            return _conj(self)
        if nd == 1:
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return _conj(self.transpose(-2, -1))

    def conj(self):
        """The complex conjugate; a real tensor itself."""
        if self._data.dtype.kind not in "cV":
            return self
        out = OPS["conj"](self)
        if not self.__dict__.get("_conj_bit", False):    # (conj of a conj clears the bit)
            out._conj_bit = True  # (PyTorch's result is a lazy conjugate: is_conj() says so, resolve_conj() copies)
        return out

    @property
    def real(self):
        """The real parts of a complex tensor, a view (view_as_real, then select); a real tensor itself."""
        if self._data.dtype.kind not in "cV":
            return self
        return _complex_part(self, 0)

    @real.setter
    def real(self, value):
        """`t.real = v`: v copied into the real parts (into t itself, for a real tensor)."""
        part = self.real if self._data.dtype.kind not in "cV" else _complex_part(self, 0, writing=True)
        part.copy_(_part_value(part, value))

    @property
    def imag(self):
        """The imaginary parts of a complex tensor, a view; real tensors have none."""
        if self._data.dtype.kind not in "cV":
            raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
        part = _complex_part(self, 1)
        if self.is_conj():
            part.__dict__["_neg_bit"] = True      # (PyTorch's view of a conj(): the parts negated, a bit says)
        return part

    @imag.setter
    def imag(self, value):
        part = self.imag if self._data.dtype.kind != "c" else _complex_part(self, 1, writing=True)
        part.copy_(_part_value(part, value))

    def is_contiguous(self, memory_format=_dtype.contiguous_format):
        """C order by default; channels_last asks for PyTorch's NHWC order of a 4-d tensor (dims 1, 3, 2, 0
        from the fastest), where dims of size 1 may have any stride. Other formats ask for C order."""
        if memory_format is _dtype.channels_last:
            if self._data.ndim != 4:
                return False
            expected, strides, sizes = 1, self.stride(), self._data.shape
            for d in (1, 3, 2, 0):
                if sizes[d] != 1:
                    if strides[d] != expected:
                        return False
                    expected *= sizes[d]
            return True
        return bool(self._data.flags.c_contiguous)

    def stride(self, dim=None):
        data = self._data
        given = self.__dict__.get("_empty_strides") if data.size == 0 else None
        if given is not None and given[0] == data.shape:
            strides = given[1]        # (an empty as_strided view's own strides, which numpy may not keep)
        elif data.size == 0 and not any(data.strides):
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
        return self._grad_fn is not None or self._requires_grad      # (the slot: grad_fn is a property too)

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
        if flag and self._data.dtype.kind not in "fcV":
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if flag:
            _check_not_inference(self)
        _set_requires_grad(self, flag)

    @requires_grad.deleter
    def requires_grad(self):       # (PyTorch's setter is handed no value, which is not a bool)
        raise RuntimeError("requires_grad must be a bool")

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
        if requires_grad and self._data.dtype.kind not in "fcV":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad:
            _check_not_inference(self)
        _set_requires_grad(self, requires_grad)
        return self

    @property
    def grad(self):
        if self._grad is None and self.grad_fn is not None and not self._retains_grad:
            _warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:       # PyTorch's checks, in its order: type, itself, dtype, device, size
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{_type_name(value)}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            want = vars(self).get("_grad_dtype", self.dtype)           # (None: any dtype)
            if want is not None and value.dtype is not want:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_CPP_TYPE_NAMES[value._data.dtype.name]}' to a "
                    f"tensor with grad_dtype '{want._legacy[:-len('Tensor')]}'. The gradient must match the "
                    "tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                    "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. "
                    "Diverging the dtypes of a tensor and its gradient may break downstream systems that assume "
                    "they match.")
            mine, its = self.device.type, value.device.type
            if mine != its:
                raise RuntimeError(f"attempting to assign a gradient with device type '{its}' to a tensor with device "
                                   f"type '{mine}'. Please ensure that the gradient and the tensor are on the same "
                                   "device")
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
            node._hooked = True          # (the engine's one test for hooks and retain_grad)
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
                node._hooked = True
            hooks = node._tensor_hooks.setdefault(self._output_nr, _HookDict())
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook):
        """hook(tensor) runs after backward has added this leaf's gradient into its `.grad`."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        node = _autograd_node.accumulator_of(self)
        if node._post_accumulate_hooks is None:
            node._post_accumulate_hooks = _HookDict()
            # PyTorch keeps these hooks on the tensor: the leaf now holds its AccumulateGrad (otherwise
            # held only while a graph uses it) for as long as the leaf lives
            self._accumulator = lambda: node
        handle = RemovableHandle(node._post_accumulate_hooks)
        node._post_accumulate_hooks[handle.id] = hook
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

    def _is_zerotensor(self):
        return getattr(self, "_zerotensor", False)

    def detach(self):
        """The same data without history: shares storage and the version counter."""
        t = Tensor._make(self._data)
        t._version_counter = self._version_counter
        if self.requires_grad:
            # a change through t is an untracked change of self: its views' history (ops/inplace.py)
            t._detached_of = weakref.ref(self)
        elif getattr(self, "_detached_of", None) is not None:       # (x.detach().detach(): still x's)
            t._detached_of = self._detached_of
        if getattr(self, "_zerotensor", False):
            t._zerotensor = True
        if _INFERENCE_TENSORS and self.is_inference():
            _INFERENCE_TENSORS[id(t)] = t
            if not InferenceVersionCounter.inference_mode:
                # (PyTorch lets the detached tensor be changed in place outside inference_mode)
                t._version_counter = [0]
        return t

    def detach_(self):
        if self._base is not None:            # any view, with history or not (PyTorch's rule)
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        """The same storage as a new leaf without history; changes through it are not tracked."""
        t = Tensor._make(self._data)
        if _INFERENCE_TENSORS and self.is_inference():
            _INFERENCE_TENSORS[id(t)] = t
        return t

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {_type_name(value)}")
        if self.requires_grad and value._data.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._data = value._data

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")


def _part_value(part, value):
    """What `t.real = value` copies: a tensor, or a number as a tensor of the part's dtype."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.number)):
        return Tensor._make(np.asarray(value, dtype=part._data.dtype))
    raise TypeError(f"can't assign a {_type_name(value)} to a torch.{part.dtype._legacy}")


def _complex_part(t, index, writing=False):
    """t.real (index 0) or t.imag (1): select from view_as_real(t). Of conj()'s result PyTorch's is
    view_as_real(t._conj()) (a conj bit resolved: one more ConjBackward0), and for imag a neg view of it
    (NegViewBackward0), whose gradient's zeros are -0.; gradlab's parts written to (t.imag = v) keep t's memory."""
    if not writing and t.__dict__.get("_conj_bit", False):
        base = OPS["conj"](t)._view_of(t)
        pairs = OPS["view_as_real"](base)._view_of(t)
        if index == 1:
            pairs = OPS["_neg_view"](pairs)._view_of(t)
        nd = pairs._data.ndim
        return OPS["select"](pairs, dim=nd - 1, index=index, self_sizes=pairs._data.shape)._view_of(t)
    pairs = OPS["view_as_real"](t)._view_of(t)
    nd = pairs._data.ndim
    return OPS["select"](pairs, dim=nd - 1, index=index, self_sizes=pairs._data.shape)._view_of(t)


def _conj(t):
    """t.conj(): t itself for a real tensor, as in PyTorch."""
    if t._data.dtype.kind not in "cV":
        return t
    conj = getattr(t, "conj", None)
    if conj is None:
        raise NotImplementedError("gradlab: the conjugate transpose of a complex tensor needs Tensor.conj")
    return conj()


_NO_CUDA_LIBRARY = "Cannot initialize CUDA without ATen_cuda library. " + _device.NO_CUDA_LIBRARY


# Tensors made under inference_mode. While it is on, Tensor._make also records each new tensor here
# (swapped in and out by _inference_mode_changed, so that the usual _make pays nothing for it).
_INFERENCE_TENSORS = weakref.WeakValueDictionary()     # id -> tensor (a WeakSet would compare with ==)


def _init(t, data):
    """Tensor(...) and Parameter(...): the core's slots, and the inference-mode mark."""
    Tensor._init(t, data)
    if grad_mode._state["inference"]:
        _INFERENCE_TENSORS[id(t)] = t
        t._version_counter = InferenceVersionCounter([0])


def _make_inference(cls, data, grad_fn=None, output_nr=0):
    t = _plain_make(cls, data, grad_fn, output_nr)
    _INFERENCE_TENSORS[id(t)] = t
    t._version_counter = InferenceVersionCounter([0])
    _registry.INFERENCE_RESULTS[0] = _inference_result
    return t


# An op on inference tensors outside inference_mode: the inputs have no autograd dispatch key, so PyTorch's kernel
# runs straight away, and where it writes its new (ordinary) result through another op (copy_, fill_, an out= op,
# a div_ after a sum), that op goes through autograd's in-place bookkeeping and counts: the result is at version 1
# or 2. (Measured with live torch on every shape and dtype of tests/fuzz/programs_grammar.py's vocabulary; ops that
# write their result directly, as the elementwise ones, leave it at 0.) {op key: version, or version(input, result)}
def _numel(t):
    return t._data.size


_ONE_PER_OUTPUT = dict.fromkeys(("abs", "hardtanh", "sum", "sum_dim", "prod", "max_all", "min_all", "amax",
                                 "logsumexp", "clone", "to_dtype", "rpow", "repeat", "dot", "sort", "nan_to_num",
                                 "aminmax", "median_dim"), 1)
_INFERENCE_RESULT_VERSIONS = {
    **_ONE_PER_OUTPUT,
    "mean": 2, "mean_dim": 2,                                         # (sum_out, then div_)
    "floor": lambda x, p, r: int(x._data.dtype.kind in "iub"),       # (an integer's floor is a copy)
    "ceil": lambda x, p, r: int(x._data.dtype.kind in "iub"),
    "round": lambda x, p, r: int(x._data.dtype.kind in "iub"),
    "trunc": lambda x, p, r: int(x._data.dtype.kind in "iub"),
    # (nothing to reduce: a copy; but a 0-d tensor's norm over dim 0 is computed)
    "norm": lambda x, p, r: int(_numel(x) == _numel(r) > 0 and not (x._data.ndim == 0 and p.get("dim") is not None)),
    "amin": lambda x, p, r: int(x._data.dtype != np.int64),          # (measured: amax counts, amin of int64 not)
    "std": lambda x, p, r: int(_numel(r) == 1), "var": lambda x, p, r: int(_numel(r) == 1),
    "cumsum": lambda x, p, r: int(x._data.ndim == 0),
    "flip": lambda x, p, r: int(all(x._data.shape[d] <= 1 for d in p["dims"])),   # (nothing to flip: a copy)
    "max_dim": lambda x, p, r: 1 if x._data.ndim == 0 else 2, "min_dim": lambda x, p, r: 1 if x._data.ndim == 0 else 2,
    "mse_loss": lambda x, p, r: 1 if x._data.ndim == 0 else 2,
}


def _inference_result(op, args, params, result):
    """result of op(*args), at the version PyTorch's has when every tensor input is an inference tensor."""
    rule = _INFERENCE_RESULT_VERSIONS.get(op.key)
    if rule is None or InferenceVersionCounter.inference_mode:
        return result
    tensors = [a for a in args if isinstance(a, Tensor)]
    if not tensors or any(_INFERENCE_TENSORS.get(id(a)) is not a for a in tensors):
        return result
    outputs = result if isinstance(result, tuple) else (result,)
    if callable(rule):
        rule = rule(tensors[0], params, outputs[0])
    if rule:
        for r in outputs:
            r._vc = [rule]
    return result


def _set_requires_grad(t, flag):
    """A leaf's own requires_grad flag. A view that has no history (a leaf too) also requires grad while its base
    does, as PyTorch's view reads its base's flag: such a view holds `_requires_grad` True and the accumulator
    NO_GRADIENT_EDGE (no gradient reaches it: its ops record edges to nothing). So the base's flag reaches its views
    here, when it changes, and the check every op makes ("does an input require grad?") reads one slot, as before."""
    no_edge = _autograd_node.NO_GRADIENT_EDGE
    base = t._base
    if not flag and base is not None and base._grad_fn is None and base._requires_grad \
            and base._accumulator is not no_edge:
        t._requires_grad, t._accumulator = True, no_edge       # (its own flag off: its base's stays)
    else:
        if t._accumulator is no_edge:
            t._accumulator = None       # (its own flag: an AccumulateGrad of its own from now on)
        t._requires_grad = flag
    if base is None and t._views:
        for ref in t._views:
            view = ref()
            if view is None or view._grad_fn is not None or view._data.dtype.kind not in "fc":
                continue
            if flag and not view._requires_grad:
                view._requires_grad, view._accumulator = True, no_edge
            elif not flag and view._accumulator is no_edge:
                view._requires_grad, view._accumulator = False, None


def _check_not_inference(t):
    if type(t._version_counter) is InferenceVersionCounter and not InferenceVersionCounter.inference_mode:
        raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")


def _inference_mode_changed(on):
    InferenceVersionCounter.inference_mode = on
    Tensor._make = classmethod(_make_inference if on else _plain_make)


grad_mode.on_inference_change.append(_inference_mode_changed)
