"""What a binary op takes as its second operand, as PyTorch's operators do: a Tensor, a Python
number, a numpy scalar (read as the Python number it holds) or array-like data; shapes that do not
broadcast get PyTorch's message. `Tensor.__add__` (_tensor_methods/operators.py) and in-place ops (ops/inplace.py)
both come here. Also the argument checks that give PyTorch's TypeError when no overload takes the
arguments (`_check_arguments`), and `gradlab.where`, whose scalars on either side are operands too."""
import math
import numbers

import numpy as np

from .. import _dtype, _warnings
from .._tensor_core import Tensor
from .._tensor_data import _type_name, as_tensor_data as _as_tensor  # noqa: F401  (x + [1, 2]: data as torch.tensor reads it)
from . import registry as _registry
from .registry import OPS

_SCALARS = (bool, int, float, complex)


def broadcast_error(a_shape, b_shape):
    n = max(len(a_shape), len(b_shape))
    a = (1,) * (n - len(a_shape)) + tuple(a_shape)
    b = (1,) * (n - len(b_shape)) + tuple(b_shape)
    for i in range(n - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            return RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                                f"at non-singleton dimension {i}")
    return RuntimeError(f"shapes {a_shape} and {b_shape} cannot be broadcast")


def broadcast_error_of(shapes):
    """PyTorch's error for operands that do not broadcast, in their order: the shape broadcast so far (tensor a)
    against the first operand that does not fit it (tensor b)."""
    so_far = ()
    for shape in shapes:
        try:
            so_far = np.broadcast_shapes(so_far, shape)
        except ValueError:
            return broadcast_error(so_far, shape)
    return broadcast_error(shapes[0], shapes[-1])


def _number(x):
    """A numpy scalar as the Python number PyTorch takes it for (np.float64 is also a float, but
    its type would escape the scalar rules). PyTorch reads np.bool_ as a float: int_tensor +
    np.bool_(True) is float32."""
    if isinstance(x, np.bool_):
        return float(x)
    if isinstance(x, np.complexfloating) and not isinstance(x, complex):
        # (np.complex64 is no Python complex, as np.complex128 is: PyTorch reads it through float(), with
        # numpy's own ComplexWarning, its real part)
        with _warnings.numpy_warnings_at_user_line():
            return float(x)
    return x.item() if isinstance(x, np.generic) else x


def _check_int_scalar(x):
    """A Python int beyond 64 bits: PyTorch's OverflowError (numpy's would name its own types)."""
    if x.__class__ is int and not -2**63 <= x < 2**64:
        raise OverflowError("int too big to convert" if x > 0 else "can't convert negative int to unsigned")


def _binary(key, a, b, **params):
    """a (a Tensor) op b (a Tensor, Python scalar, or array-like)."""
    if not isinstance(b, Tensor):
        if isinstance(b, np.generic):
            b = _number(b)
        elif isinstance(b, _SCALARS):
            if b.__class__ is int:
                _check_int_scalar(b)
                if b >= 2**63 and a._data.dtype.kind == "b":       # (PyTorch reads it as a uint64)
                    raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted "
                                       "to promote Bool and UInt64")
        elif isinstance(b, (np.ndarray, list, tuple)):
            b = _as_tensor(b)
        else:
            return NotImplemented
    elif b._data.shape != a._data.shape:
        try:
            np.broadcast_shapes(a._data.shape, b._data.shape)
        except ValueError:
            _registry.refuse_inference_saved(OPS[key], (a, b))     # (PyTorch's first refusal)
            raise broadcast_error(a._data.shape, b._data.shape) from None
    out = _registry.apply(OPS[key], (a, b), params)
    if key == "mul" and (getattr(a, "_zerotensor", False) or getattr(b, "_zerotensor", False)):
        out._zerotensor = True            # (PyTorch's mul of a ZeroTensor is one: mul_zerotensor)
    return out


# --- argument checks: PyTorch's TypeErrors for what no overload takes ------------------------------

def _py(x):
    """A Python number from a numpy scalar or 0-d tensor, for scalar arguments."""
    if isinstance(x, Tensor):
        return x.item()
    if isinstance(x, np.complexfloating) and not isinstance(x, complex):
        return float(x)           # (np.complex64: its real part, with numpy's ComplexWarning, as in PyTorch)
    if isinstance(x, np.generic):
        return x.item()
    _check_int_scalar(x)          # (PyTorch's Scalar holds at most 64 bits)
    return x


_ARG_KINDS = {"Tensor": lambda x: isinstance(x, Tensor),
              "Number": lambda x: isinstance(x, (numbers.Number, np.number, np.bool_)) and not isinstance(x, Tensor),
              "int": lambda x: isinstance(x, numbers.Integral) and not isinstance(x, (bool, Tensor))}


def _check_arguments(name, args, overloads, keywords=None):
    """PyTorch's TypeError when no overload takes these arguments: each overload is a tuple of
    parameters like "Tensor min = None" (a None argument fits a "= None" parameter; "*" starts the
    keyword-only ones). `keywords`: the names the arguments were passed by."""
    def fits(x, param):
        return (x is None and param.endswith("= None")) or _ARG_KINDS[param.split()[0]](x)

    def positional(params):
        return params[:params.index("*")] if "*" in params else params
    given = list(enumerate(args))
    while given and given[-1][1] is None and all(len(positional(p)) > given[-1][0] and positional(p)[given[-1][0]]
                                                  .endswith("= None") for p in overloads):
        given.pop()                                  # (defaults left out are not shown)
    n = len(given)
    if any(len(positional(p)) >= n and all(fits(x, p[i]) for i, x in given) and
           all(q.endswith("= None") for q in positional(p)[n:]) for p in overloads):
        return
    if keywords is not None:
        given = [(i, x) for i, x in given if x is not None]
        got = "".join(f"{keywords[i]}={_type_name(x)}, " for i, x in given)
        lines = [f" * ({', '.join(params)})" for params in overloads]
    else:
        got = ", ".join(_type_name(x) for _, x in given)
        lines = []
        for params in overloads:
            lines.append(f" * ({', '.join(params)})")
            pos = positional(params)
            if "*" in params or len(pos) < n or not all(q.endswith("= None") for q in pos[n:]):
                continue                             # (PyTorch gives no reasons for these)
            # PyTorch marks !x! what does not fit, and anything given for a Number
            marks = ", ".join(f"!{_described(x)}!" if pos[i].startswith("Number") or not fits(x, pos[i])
                              else _described(x) for i, x in given)
            lines.append(f"      didn't match because some of the arguments have invalid types: ({marks})")
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                    + "\n".join(lines) + "\n")



def _check_tensor_argument(name, other, arg="other", position=1):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(other)}")

def _described(x):
    """A wrong argument described in PyTorch's words: `list of [int, int]`."""
    if isinstance(x, list):
        return f"list of [{', '.join(_type_name(e) for e in x)}]"
    if isinstance(x, tuple):
        return f"tuple of ({', '.join(_type_name(e) for e in x)})"
    return _type_name(x)


def _kind(t):
    """A dtype as PyTorch's kernels name it: Float, Long, Bool."""
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]


_OVERFLOW_NAMES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
                   "float32": "float", "void32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>"}


def _check_fits(value, dtype):
    """c10's checked conversion of a Python number to dtype (a wrapped scalar of where): integers within the
    type (an unsigned one also takes down to -max), float32 (and complex64's parts) within float's range
    (inf and nan pass); float16, float64 and complex128 are not checked."""
    name = _OVERFLOW_NAMES.get(dtype.name)
    if name is None:
        return
    if dtype.kind in "iu":
        if value.__class__ is not int:
            return
        info = np.iinfo(dtype)
        fits = (-int(info.max) if dtype.kind == "u" else int(info.min)) <= value <= int(info.max)
    else:
        parts = (value.real, value.imag) if isinstance(value, complex) else (value,)
        try:
            fits = all(not math.isfinite(p) or abs(float(p)) <= _F32_MAX for p in parts)
        except OverflowError:              # (an int too large for a double)
            fits = False
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


_F32_MAX = float(np.finfo(np.float32).max)


def where(condition, input=None, other=None, *, self=None):
    """`where(cond, a, b)`: a where cond is True, else b. Scalars on either side are constants.
    `self=` is PyTorch's keyword for a Number in input's place (where(c, self=1.5, other=x))."""
    if self is not None:
        if input is not None or isinstance(self, Tensor):
            raise TypeError("where(): self= takes a Number")    # (the argument parser words PyTorch's error)
        input = _py(self)           # (a Number: np.float64(1.5) counts as a Python float, as in PyTorch)
    given = (condition,) + tuple(a for a in (input, other) if a is not None)
    _check_arguments("where", given, [("Tensor condition",),
                                      ("Tensor condition", "Tensor input", "Tensor other", "*", "Tensor out = None"),
                                      ("Tensor condition", "Number self", "Tensor other"),
                                      ("Tensor condition", "Tensor input", "Number other"),
                                      ("Tensor condition", "Number self", "Number other")])
    cond = condition._data
    if input is None:        # (PyTorch's condition.nonzero(as_tuple=True): any dtype, a 0-d one read as 1-d)
        # (its rows are one block's, as PyTorch's unbind of nonzero(): storage offsets 0, n, 2n, ...)
        block = np.stack(np.nonzero(cond.reshape(-1) if not cond.ndim else cond)).astype(np.int64)
        return tuple(Tensor._make(row) for row in block)
    if condition._data.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{_kind(condition)}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        pair = [_py(input), _py(other)]     # (two numbers: converted to their result dtype, checked)
        if all(v.__class__ is int for v in pair) and max(pair) >= 2**63:
            raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                               + ("UInt64 and Long" if pair[0] >= 2**63 else "Long and UInt64"))
        result = _dtype.result_np_dtype([], [_dtype.category(np.asarray(v).dtype) for v in pair])
        for v in pair:
            if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
                _check_fits(v, result)
        input = _as_tensor(input)
    args = [input if isinstance(input, Tensor) else _py(input), other if isinstance(other, Tensor) else _py(other)]
    shapes = [cond.shape] + [np.shape(a._data) if isinstance(a, Tensor) else () for a in args]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error_of(shapes) from None
    numbers_given = [a for a in args if isinstance(a, (int, float, complex)) and not isinstance(a, bool)]
    if numbers_given:          # (a number is converted to the result dtype, checked: 255 into int8 is an error)
        result = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype) for a in args if isinstance(a, Tensor)],
                                        [_dtype.category(np.asarray(a).dtype) for a in args if not isinstance(a, Tensor)])
        for a in numbers_given:
            _check_fits(a, result)
    return OPS["where"](*args, condition=cond)
