"""What gradient formulas call: functions that work on numpy arrays *and* on Tensors.

A formula runs in two ways (see OpNode in registry.py):

* in a plain `backward()`, `g` and the saved values are numpy arrays, and `cos(x)` is `np.cos(x)`:
  no Tensor, no dispatch, no graph;
* with `create_graph=True` they are Tensors, and `cos(x)` is `x.cos()`: recorded, so the gradient
  has a graph of its own (gradients of gradients).

Operators (`g * n.other`, `-g`, `g / (2 * n.result)`) already work on both, so formulas use them
directly. Everything else a formula needs is here, named like the PyTorch function it stands for.
"""
import math

import numpy as np

Tensor = None                   # bound by gradlab/tensor.py (imports run the other way)
OPS = None                      # bound by ops/registry.py


def _unary(numpy_fn, method):
    def fn(x):
        if isinstance(x, Tensor):
            return getattr(x, method)()
        return numpy_fn(x)
    fn.__name__ = method
    fn.__doc__ = f"`np.{numpy_fn.__name__}(x)` on an array, `x.{method}()` on a Tensor."
    return fn


exp = _unary(np.exp, "exp")
log = _unary(np.log, "log")
sin = _unary(np.sin, "sin")
cos = _unary(np.cos, "cos")
sinh = _unary(np.sinh, "sinh")
cosh = _unary(np.cosh, "cosh")
sign = _unary(np.sign, "sign")
logical_not = _unary(np.logical_not, "logical_not")


def rsqrt(x):
    return x.rsqrt() if isinstance(x, Tensor) else 1 / np.sqrt(x)


def sigmoid(x):
    if isinstance(x, Tensor):
        return x.sigmoid()
    e = np.exp(-np.abs(x))                       # no overflow for large |x|
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(e.dtype, copy=False)


def erf(x):
    if isinstance(x, Tensor):
        return x.erf()
    from math import erf as _erf
    x = np.asarray(x)
    return np.vectorize(_erf, otypes=[x.dtype])(x) if x.size else x.copy()


def where(condition, a, b):
    """`a` where condition holds, else `b` (either may be a Python number)."""
    if isinstance(condition, Tensor) or isinstance(a, Tensor) or isinstance(b, Tensor):
        from ..tensor import where as tensor_where
        return tensor_where(condition, a, b)
    dtype = next((v.dtype for v in (a, b) if isinstance(v, (np.ndarray, np.generic))), None)
    out = np.where(condition, a, b)
    return out if dtype is None else out.astype(dtype, copy=False)


def t(x):
    """The transpose of a matrix."""
    return x.t() if isinstance(x, Tensor) else x.T


def transpose(x, dim0, dim1):
    if isinstance(x, Tensor):
        return x.transpose(dim0, dim1)
    return np.swapaxes(x, dim0, dim1) if x.ndim else x


def mm(a, b):
    return a.mm(b) if isinstance(a, Tensor) else a @ b


def bmm(a, b):
    return a.bmm(b) if isinstance(a, Tensor) else np.matmul(a, b)


def mv(a, v):
    return a.mv(v) if isinstance(a, Tensor) else a @ v


def sum_keepdim(x, dims):
    """x summed over `dims`, keeping them as size 1."""
    if isinstance(x, Tensor):
        return x.sum(dims, keepdim=True)
    return np.add.reduce(x, axis=dims, keepdims=True)


def sum_dims(x, dims):
    """x summed over `dims`, dropping them."""
    return x.sum(dims) if isinstance(x, Tensor) else np.add.reduce(x, axis=dims)


def mean_keepdim(x, dims):
    if isinstance(x, Tensor):
        return x.mean(dims, keepdim=True) if dims is not None else x.mean()
    return np.mean(x, axis=dims, keepdims=dims is not None, dtype=x.dtype)


def expand(x, shape):
    """x broadcast to `shape`, as a view (no copy). Small arrays are filled instead: np.broadcast_to
    costs ~3 us of Python, while filling a few thousand numbers takes well under a microsecond."""
    if isinstance(x, Tensor):
        return OPS["expand"](x, shape=tuple(shape))
    shape = tuple(shape)
    if math.prod(shape) > 4096:
        return np.broadcast_to(x, shape)
    out = np.empty(shape, dtype=x.dtype)
    out[...] = x
    return out


def unsqueeze(x, dim):
    return x.unsqueeze(dim) if isinstance(x, Tensor) else np.expand_dims(x, dim)


def squeeze(x, dim):
    return x.squeeze(dim) if isinstance(x, Tensor) else np.squeeze(x, axis=dim)


def flip(x, dims):
    return x.flip(dims) if isinstance(x, Tensor) else np.flip(x, dims)


def cumsum(x, dim):
    return x.cumsum(dim) if isinstance(x, Tensor) else np.cumsum(x, axis=dim)


def roll(x, shifts, dims):
    return x.roll(shifts, dims) if isinstance(x, Tensor) else np.roll(x, shifts, dims)


def permute(x, dims):
    return x.permute(*dims) if isinstance(x, Tensor) else np.transpose(x, dims)


def floor_divide(x, y):
    """floor(x / y), a constant (piecewise constant: its gradient is zero almost everywhere)."""
    if isinstance(x, Tensor):
        return Tensor._make(np.floor_divide(x._data, y._data))
    return np.floor_divide(x, y)


def threshold_backward(g, x, threshold):
    """g where x > threshold, else 0 (relu's gradient). On Tensors it is an op of the table, so that
    a graph of the gradient still depends on x, as PyTorch's does."""
    if isinstance(g, Tensor) or isinstance(x, Tensor):
        return OPS["threshold_backward"](g, x, threshold=threshold)
    return g * (x > threshold)          # (twice as quick as np.where on arrays)


def clamp_min(x, low):
    return x.clamp_min(low) if isinstance(x, Tensor) else np.maximum(x, low).astype(x.dtype, copy=False)


def to_dtype(x, dtype):
    """x converted to a numpy dtype."""
    return x.to(dtype) if isinstance(x, Tensor) else x.astype(dtype)


def data(x):
    """The numpy array behind x (x itself when it is one)."""
    return x._data if isinstance(x, Tensor) else np.asarray(x)


def like(g, array):
    """A constant built with numpy, in the same kind of value as `g` (array, or untracked Tensor)."""
    return Tensor._make(array) if isinstance(g, Tensor) else array


def call(op_key, *args, **params):
    """An op of the table: recorded through the table on Tensors, just its numpy forward on arrays."""
    for a in args:
        if isinstance(a, Tensor):
            return OPS[op_key](*args, **params)
    return OPS[op_key].forward(*args, **params)
