"""`out=`: torch.add(x, y, out=result) writes the result into an existing tensor and returns it.

PyTorch's functions take `out=` where their signature has it (`_signatures.TORCH`); gradlab's functions
compute a new tensor, and `with_out` puts the write around them, with PyTorch's rules:
* no autograd: an input (or `out` itself) that requires grad, with grad mode on, is refused;
* the result must cast to out's dtype without losing its kind (float into long is refused); a factory
  (torch.arange(5, out=t)) makes its values in out's dtype;
* an out of another shape is resized, with PyTorch's deprecation warning unless it was empty;
* a tuple of outs for functions with several results (torch.max(x, 1, out=(values, indices))).
"""
import functools
import inspect

import numpy as np

from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..creation import tensor
from ..ops.inplace import _kind_name
from ..ops.registry import OPS
from .._tensor_methods._common import _c_type, _resized_warning
from .._tensor_methods.reductions import _ReturnType
from .. import _warnings

# functions that make a tensor from sizes or ranges: out gives their dtype
_FACTORIES = {"arange", "empty", "eye", "full", "linspace", "logspace", "normal", "ones", "rand", "randint",
              "randn", "zeros"}
_RANDOM = {"empty", "normal", "rand", "randint", "randn"}      # (they resize out first)


# functions whose out= form PyTorch writes as a call of another, named in its autograd error: float_power,
# and every alias (torch.arccosh(x, out=t) names acosh)
_CALLS = {"float_power": "pow", **{alias: key for key, row in OPS.items() for alias in row.aliases}}

# the BLAS products write only into an out of the result's own dtype
_SAME_DTYPE = {"matmul", "mm", "bmm", "mv", "dot", "outer", "max", "min"}


# the tests of a float's bits write only into a bool out
_BOOL_OUT = {"isposinf", "isneginf", "signbit"}
# the unary ops whose out must have the input's dtype (checked before they compute: torch.trunc(bools, out=...))
_INPUT_DTYPE_OUT = {"trunc", "fix", "floor", "ceil", "round", "neg", "negative", "sign", "frac", "sgn"}


def _check_input_dtype_out(name, args, kwargs, out):
    given = args[0] if args else kwargs.get("input")
    if name in _INPUT_DTYPE_OUT and isinstance(given, Tensor) and isinstance(out, Tensor) and \
            given._data.dtype != out._data.dtype and given._data.dtype.kind != "c":     # (complex: the op refuses it first)
        raise RuntimeError(f"Found dtype {_kind_name(out._data.dtype)} but expected {_kind_name(given._data.dtype)}")


def _write(out, result, name):
    """Copy result's values into out (resizing out if the shapes differ)."""
    data = result._data if isinstance(result, Tensor) else np.asarray(result)
    if name in _BOOL_OUT and out._data.dtype != np.bool_:
        raise RuntimeError(f"{name} does not support non-boolean outputs.")
    if not isinstance(result, Tensor):
        result = tensor(data)
    if name == "float_power" and data.dtype != out._data.dtype:     # (its result dtype is fixed: no cast)
        raise RuntimeError(f"the output given to float_power has dtype {_kind_name(out._data.dtype)} but the "
                           f"operation's result requires dtype {_kind_name(data.dtype)}")
    if name in _SAME_DTYPE and data.dtype != out._data.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_c_type(result)}, but got {_c_type(out)} instead")
    kinds = "biufc"
    if name != "sum" and kinds.index(data.dtype.kind if data.dtype.kind != "u" or data.dtype.itemsize > 1 else "u") > \
            kinds.index(out._data.dtype.kind) and not (data.dtype.kind in "iu" and out._data.dtype.kind in "iu"):
        if name == "mean":
            raise RuntimeError(f"mean.dtype_out(): input types can't be cast to the desired output type "
                               f"{_kind_name(out._data.dtype)}")
        if name in ("cat", "concat", "concatenate"):
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                            f"{_kind_name(out._data.dtype)}")
        raise RuntimeError(f"result type {_kind_name(data.dtype)} can't be cast to the desired output type "
                           f"{_kind_name(out._data.dtype)}")
    if name == "stack":         # (stack's out= form is a cat of the unsqueezed inputs: no memory format survives)
        data = np.ascontiguousarray(data)
    if name in _FACTORIES and out._data.size == data.size:
        data = data.reshape(out._data.shape)      # a factory keeps out's shape when the count fits (arange)
    if out._data.shape != data.shape:
        if name == "arange" and out._data.size != 0:
            _warnings.warn(f"The number of elements in the out tensor of shape [{', '.join(map(str, out._data.shape))}] "
                           f"is {out._data.size} which does not match the computed number of elements {data.size}. Note "
                           "that this may occur as a result of rounding error. The out tensor will be resized to a "
                           f"tensor of shape ({data.size},). (Triggered internally at "
                           "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)", UserWarning)
        elif out._data.size != 0 and name not in _FACTORIES:
            _resized_warning(out._data.shape, data.shape)
        out._data = data.astype(out._data.dtype, copy=True)
    else:
        np.copyto(out._data, data, casting="unsafe")
    out._bump_version()
    return out


def _requires_grad(values):
    for v in values:
        if isinstance(v, Tensor) and v._requires_grad:
            return True
        if isinstance(v, (list, tuple)) and any(isinstance(t, Tensor) and t._requires_grad for t in v):
            return True
    return False


def with_out(name, fn):
    """fn taking `out=` as PyTorch's function `name` does."""
    factory = name in _FACTORIES
    try:
        takes = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        takes = ()

    @functools.wraps(fn)
    def function(*args, out=None, **kwargs):
        if "self" in kwargs and not args and "self" not in takes:
            # (PyTorch's `Scalar self` overloads: torch.pow(self=2, exponent=t) is torch.pow(2, t))
            args = (kwargs.pop("self"),)
        if out is None:
            return fn(*args, **kwargs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        if not all(isinstance(o, Tensor) for o in outs):
            # PyTorch's parser accepted it (a number where an overload takes a Scalar): it is a 0-d tensor then
            outs = out = tuple(o if isinstance(o, Tensor) else tensor(o) for o in outs)
            out = out if len(out) > 1 else out[0]
        if factory and name in _RANDOM and outs[0]._requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if grad_mode.is_grad_enabled() and _requires_grad((*args, *kwargs.values(), *outs)):
            raise RuntimeError(f"{'aten::' if factory else ''}{_CALLS.get(name, name)}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        if factory and kwargs.get("dtype") is None:
            kwargs["dtype"] = outs[0].dtype
        _check_input_dtype_out(name, args, kwargs, out)
        result = fn(*args, **kwargs)
        if isinstance(out, (tuple, list)):
            for o, r in zip(out, result):
                _write(o, r, name)
            if isinstance(result, _ReturnType):       # torch.return_types.max_out(values=..., indices=...)
                return _ReturnType.of(type(result).__name__ + "_out")(out)
            if hasattr(result, "_out_type"):          # torch.return_types.frexp_out(mantissa=..., exponent=...)
                return result._out_type(out)
            return tuple(out)
        return _write(out, result, name)
    return function


def out_forms(namespace, table):
    """{name: with_out(name, fn)} for each function of namespace whose PyTorch signature takes `out=`."""
    forms = {}
    for name, entry in table.items():
        fn = namespace.get(name)
        if callable(fn) and not isinstance(fn, type) and isinstance(entry, tuple) and \
                any("Tensor out=" in s or "TensorList out=" in s or "out=" in s for s in entry):
            forms[name] = with_out(name, fn)
    return forms
