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

from .._dtype import cast, from_numpy_dtype
from .._tensor_core import Tensor
from ..autograd.node import AsTensors
from . import operands
from .registry import OPS
from .summation import add_reduce


def _unary(numpy_fn, method):
    def fn(x):
        if isinstance(x, Tensor):
            return getattr(x, method)()
        return numpy_fn(x)
    fn.__name__ = method
    fn.__doc__ = f"`np.{numpy_fn.__name__}(x)` on an array, `x.{method}()` on a Tensor."
    return fn


_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def rounded(numpy_fn):
    """`numpy_fn` computed in float64 and rounded to float32 (or float16).

    numpy's float32 kernels are fast but up to an ulp off: np.exp(np.float32(12)) prints
    162754.7812 where PyTorch prints 162754.7969. PyTorch's are nearly correctly rounded, so
    float64 rounded to float32 agrees with it far more often (exp: 61% -> 99% of random inputs).
    PyTorch computes float16 math in float32, so float16 rounds through float32 too."""
    def fn(x):
        dtype = getattr(x, "dtype", None)
        if dtype is _F32 or dtype == _F32:
            return numpy_fn(x, dtype=_F64).astype(_F32)
        if dtype == _F16:
            return numpy_fn(x, dtype=_F64).astype(_F32).astype(_F16)
        return numpy_fn(x)
    fn.__name__ = numpy_fn.__name__
    return fn


def in_float32(numpy_fn):
    """`numpy_fn` on float16 computed in float32 and rounded, as PyTorch's half kernels do (for the
    ops whose float32 kernel numpy already gets right, like 1 / sqrt(x))."""
    def fn(x):
        if getattr(x, "dtype", None) == _F16:
            return numpy_fn(x.astype(_F32)).astype(_F16)
        return numpy_fn(x)
    fn.__name__ = numpy_fn.__name__
    return fn


def _rounded_unary(numpy_fn, method):
    """_unary(rounded(numpy_fn), method), with a float32 array (a plain backward's common case: sin's
    gradient is g * cos(self)) computed first, without the two calls between."""
    other = _unary(rounded(numpy_fn), method)

    def fn(x):
        if x.__class__ is np.ndarray and x.dtype is _F32:
            return numpy_fn(x, dtype=_F64).astype(_F32)
        return other(x)
    fn.__name__ = method
    fn.__doc__ = other.__doc__
    return fn


exp = _rounded_unary(np.exp, "exp")
log = _rounded_unary(np.log, "log")
sin = _rounded_unary(np.sin, "sin")
cos = _rounded_unary(np.cos, "cos")
sinh = _rounded_unary(np.sinh, "sinh")
cosh = _rounded_unary(np.cosh, "cosh")
tanh = _rounded_unary(np.tanh, "tanh")
def _sign(x):
    # PyTorch's sign: 0 for nan (np.sign gives nan)
    out = np.sign(x)
    return np.where(out != out, 0, out).astype(out.dtype, copy=False) if out.dtype.kind in "fc" else out


sign = _unary(_sign, "sign")
logical_not = _unary(np.logical_not, "logical_not")


def scale(x, c):
    """x * c for a Python float c as PyTorch computes it: a float16 array in float32 (numpy would
    round c to float16 first: log2's gradient g / (x * ln 2) would be off by an ulp)."""
    if not isinstance(x, Tensor) and getattr(x, "dtype", None) == _F16:
        return (x.astype(_F32) * c).astype(_F16)
    return x * c


# Arithmetic with a Python number as derivatives.yaml's C++ writes it: on Tensors (create_graph) the Scalar
# overloads, whose nodes differ from Python's (`2 * result` in C++ is MulBackward1, `x + 1` AddBackward1, `x / 3`
# DivBackward1, `x.pow(2)` PowBackward0); on arrays plain numpy.
def mul_scalar(x, c):
    return OPS["mul_scalar"](x, other=c) if isinstance(x, Tensor) else scale(x, c)


def add_scalar(x, c):
    return OPS["nn_add_scalar"](x, other=c) if isinstance(x, Tensor) else x + c


def div_scalar(x, c):
    return OPS["nn_div_by_number"](x, other=c) if isinstance(x, Tensor) else x / c


def rsub_scalar(c, x):
    """c - x (at::rsub(Tensor, Scalar): RsubBackward1)."""
    return OPS["rsub"](x, c) if isinstance(x, Tensor) else c - x


def sub_scalar(x, c):
    return OPS["sub_scalar"](x, other=c) if isinstance(x, Tensor) else x - c


def number_minus(c, x):
    """c - x as C++ writes it for a number c (`1 - weight`): a tensor filled with c, minus x (SubBackward0)."""
    return OPS["sub"](c, x) if isinstance(x, Tensor) else c - x


def number_over(c, x):
    """c / x as C++ writes it for a number c (`value / tensor2`): a tensor filled with c, over x (DivBackward0)."""
    return OPS["div"](c, x) if isinstance(x, Tensor) else c / x


def pow_scalar(x, c):
    return x.pow(c) if isinstance(x, Tensor) else x ** c


def fused(formula, *args):
    """formula(*args) as one PyTorch kernel computes it (tanh_backward): on
    float16 arrays in float32, rounded once at the end."""
    if not any(isinstance(a, Tensor) for a in args) and any(getattr(a, "dtype", None) == _F16 for a in args):
        return formula(*[a.astype(_F32) if getattr(a, "dtype", None) == _F16 else a for a in args]).astype(_F16)
    return formula(*args)


@in_float32
def _rsqrt(x):
    return 1 / np.sqrt(x)


_exp = rounded(np.exp)


@in_float32
def _sigmoid(x):
    # PyTorch's formula, 1 / (1 + exp(-x)), with exp rounded as PyTorch's is (exp(-x) overflows to
    # inf for x < -88: the result is then 0, as PyTorch's)
    return (1 / (1 + _exp(-x))).astype(x.dtype, copy=False)


def rsqrt(x):
    return x.rsqrt() if isinstance(x, Tensor) else _rsqrt(x)


def sigmoid(x):
    return x.sigmoid() if isinstance(x, Tensor) else _sigmoid(x)


def _erf_float64(x, dtype=None):
    """erf in float64 (numpy has none: math.erf on each number)."""
    x = np.asarray(x, dtype=_F64)
    return np.vectorize(math.erf, otypes=[_F64])(x) if x.size else x.copy()


_erf = rounded(_erf_float64)


def erf(x):
    return x.erf() if isinstance(x, Tensor) else _erf(x)


def where(condition, a, b):
    """`a` where condition holds, else `b` (either may be a Python number)."""
    if isinstance(condition, Tensor) or isinstance(a, Tensor) or isinstance(b, Tensor):
        if not isinstance(condition, Tensor):         # (a numpy mask: torch.where takes tensors only)
            condition = Tensor._make(np.asarray(condition, dtype=bool))
        return operands.where(condition, a, b)
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
    if isinstance(a, Tensor):
        return a.mm(b)
    summed = mkl_gemm_order(a, b)
    if summed is not None:
        return summed
    if a.shape[1] == 1 and a.shape[0] > 1 and b.shape[1] > 1 and a.dtype.kind == "f" and a.dtype.itemsize >= 4:
        # PyTorch's float and double mm of two true matrices is BLAS's gemm, which with one term per
        # entry stores the product itself (-0.21 * 0 = -0.); numpy's matmul adds it to +0 (a
        # student's batch of one). A row or column result goes through gemv, which adds too.
        return np.multiply(a, b, dtype=np.result_type(a, b))
    return a @ b


# ---------------------------------------------------------------- the order of MKL's sums in a small gemm

# PyTorch's CPU mm/addmm/matmul/linear of float32 and float64 matrices is MKL's sgemm/dgemm, and which
# order MKL adds an entry's k products in depends on the matrix sizes (measured against torch 2.13 with
# MKL 2024.2 on an AMD EPYC, 1 and 2 threads, MKL_ENABLE_INSTRUCTIONS/MKL_DEBUG_CPU_TYPE change nothing
# there; tests/ops/test_small_gemm_bits.py). For a result of m rows and n columns:
#   * n < 12, or float32's m < 4 (a row-major right operand; the left one either way): one product after
#     the other, each product rounded, `acc = acc + a[i, t] * b[t, j]` (no fused multiply-add), starting
#     from addmm's `self` when beta = alpha = 1 (the bias is the first term). The entries MKL computes
#     before a row reaches 16-byte alignment (the first (-i * n) % (16 / itemsize) entries of row i, when
#     at least a vector's width of the row is left) take another, unknown order.
#   * float32, m >= 4, n >= 12, k <= 192, any layout: one fused multiply-add after the other (followed
#     here for small products only, _FMA_MAX),
#     `acc = fma(a[i, t], b[t, j], acc)`, rounded once per step, addmm's `self` added after. With 2
#     threads MKL gives a tail of m % 4 rows of a 5..11-row result to the first kind (so those m are left
#     to numpy). OpenBLAS (numpy) often sums the same way, not always (n = 17, 24, 33 at k = 32 differ).
# Elsewhere (nn.Linear's small `x @ w.t()`, where MKL sums in 4 or 8 vector lanes; larger k; float64's
# other products; complex ones) numpy's product stays.
_PLAIN_MAX = 1 << 18      # m * k * n: the (m, k, n) products are held at once
# m * k * n: the fma takes k numpy calls, too slow for a training loop's products (with 1 << 15 the
# 8-16-16-4 MLP of benchmarks/ `mlp_small` took ~25% longer a step); above it numpy's OpenBLAS product
# stays, which on the AMD EPYC measured sums in the same fma order for 146 of 150 random such shapes
_FMA_MAX = 1 << 10
_FMA_MAX_K = 192


def mkl_gemm_order(a, b, init=None):
    """a @ b summed in MKL's order where that order is known (above), else None. `init`: addmm's self
    with beta = alpha = 1, broadcastable to the result; the result then includes it."""
    if a.ndim != 2 or b.ndim != 2 or a.dtype != b.dtype or a.dtype.kind != "f" or a.dtype.itemsize < 4:
        return None
    m, k = a.shape
    n = b.shape[1]
    if k < 2 or n < 2 or m == 0 or m * k * n == 0:
        return None
    if n < 12 or m < 4 and a.dtype.itemsize == 4:
        item = b.itemsize
        if b.strides[0] == item and b.strides[1] >= k * item:
            return None     # a column-major right operand (x @ w.t()): MKL's lanes, not followed here
        if m * k * n > _PLAIN_MAX:
            return None
        # the products as k stacked (m, n) matrices, reduced over the first axis: numpy adds whole
        # matrices one after the other there (its pairwise summation is for the innermost axis only)
        if init is None:
            summed = np.add.reduce((a.T[:, :, None] * b[:, None, :]).reshape(k, m * n), axis=0)
            return _from_zero(summed.reshape(m, n))
        products = np.empty((k + 1, m, n), a.dtype)
        products[0] = init
        np.multiply(a.T[:, :, None], b[:, None, :], out=products[1:])
        summed = np.add.reduce(products.reshape(k + 1, m * n), axis=0).reshape(m, n)
        zero = summed == 0
        if zero.any():
            # (numpy's reduction starts from +0, MKL's from the bias: terms all -0 sum to -0 there)
            all_negative_zeros = np.logical_and.reduce(np.signbit(products), axis=0) & zero
            summed[all_negative_zeros] = -0.0
        return summed
    if a.dtype.itemsize != 4 or k > _FMA_MAX_K or m * k * n > _FMA_MAX or m < 12 and m % 4:
        return None
    # float64 holds a float32 product exactly, so adding it in float64 and rounding once to float32
    # is the fma (one ufunc call per step: computed in float64, stored into the float32 sum)
    products = np.multiply(a.T.astype(np.float64)[:, :, None], b.astype(np.float64)[:, None, :])
    acc = products[0].astype(np.float32)
    for t in range(1, k):
        np.add(acc, products[t], out=acc, dtype=np.float64, casting="unsafe")
    acc = _from_zero(acc)
    if init is not None:
        acc += init
    return acc


def _from_zero(summed):
    """The sum as MKL's kernels leave it, started from +0: an entry whose terms are all -0 is +0 (adding
    +0 changes nothing else)."""
    summed += 0
    return summed


def bmm(a, b):
    return a.bmm(b) if isinstance(a, Tensor) else np.matmul(a, b)


def mv(a, v):
    return a.mv(v) if isinstance(a, Tensor) else a @ v


def sum_keepdim(x, dims):
    """x summed over `dims`, keeping them as size 1."""
    if isinstance(x, Tensor):
        return x.sum(dims, keepdim=True)
    return add_reduce(x, axis=dims, keepdims=True)          # (in PyTorch's order, as the Tensor's sum)


def sum_dims(x, dims):
    """x summed over `dims`, dropping them."""
    return x.sum(dims) if isinstance(x, Tensor) else add_reduce(x, axis=dims)


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
    if type(x) is np.ndarray and x.size == 1 and x.flags.c_contiguous:
        # one number (the gradient of x.sum()): a read-only view with zero strides, quicker than
        # np.broadcast_to, and expanded as PyTorch's (autograd.grad(x.sum(), x)[0].stride() is (0, 0))
        out = np.ndarray(shape, x.dtype, x, 0, (0,) * len(shape))
        out.flags.writeable = False
        return out
    if math.prod(shape) > 4096 or (type(x) is np.ndarray and 0 in x.strides):   # (expanded stays expanded)
        return np.broadcast_to(x, shape)
    out = np.empty(shape, dtype=x.dtype)
    out[...] = x
    return out


def unsqueeze(x, dim):
    return x.unsqueeze(dim) if isinstance(x, Tensor) else np.expand_dims(x, dim)


def squeeze(x, dim):
    return x.squeeze(dim) if isinstance(x, Tensor) else np.squeeze(x, axis=dim)


def flip(x, dims):
    # (np.flip is a view with negative strides; PyTorch's flip is a copy)
    return x.flip(dims) if isinstance(x, Tensor) else np.flip(x, dims).copy()


def cumsum(x, dim):
    if isinstance(x, Tensor):
        return x.cumsum(dim)
    if x.dtype == np.float16:      # (PyTorch's running sum of halves is a float32 one, each step rounded to half)
        return (np.cumsum(x, axis=dim, dtype=np.float32) + 0).astype(np.float16)
    out = np.cumsum(x, axis=dim)
    if out.dtype.kind in "fc":
        out += 0        # PyTorch's running sum starts at +0: a -0 never comes out (numpy's starts at the first -0)
    return out


def roll(x, shifts, dims):
    return x.roll(shifts, dims) if isinstance(x, Tensor) else np.roll(x, shifts, dims)


def permute(x, dims):
    return x.permute(*dims) if isinstance(x, Tensor) else np.transpose(x, dims)


def floor_divide(x, y):
    """floor(x / y) (piecewise constant: its gradient is zero almost everywhere). On Tensors PyTorch's
    x.div(y, rounding_mode="floor"), recorded (DivBackward2) as derivatives.yaml's formula records it."""
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        return OPS["div_rounding"](x, y, rounding_mode="floor")
    return np.floor_divide(x, y)


def trunc_divide(x, y):
    """trunc(x / y), like floor_divide (fmod's gradient for its divisor)."""
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        return OPS["div_rounding"](x, y, rounding_mode="trunc")
    return np.trunc(np.true_divide(x, y))


def threshold_backward(g, x, threshold):
    """g where x > threshold, else 0 (relu's gradient). On Tensors it is an op of the table, so that
    a graph of the gradient still depends on x, as PyTorch's does."""
    if isinstance(g, Tensor) or isinstance(x, Tensor):
        return OPS["threshold_backward"](g, x, threshold=threshold)
    dtype = x.dtype
    if (g.__class__ is _ndarray is x.__class__ and (dtype is _F32 or dtype is _F64) and g.dtype is dtype
            and threshold.__class__ in (int, float) and threshold == 0 and g.shape == x.shape and x.flags.c_contiguous):
        # relu's gradient, the common case, in three numpy calls (the same bits as zero_where's)
        zero, minus_one, bits = _ZERO_AND_MINUS_ONE[dtype]
        drop = np.less_equal(x, zero)           # (a 0-d zero: a Python 0 costs np.less_equal 0.3 us)
        if drop.size <= 512:
            # small: copy g and zero the dropped numbers (a masked copy: 3x quicker than the bits here,
            # 3x slower past a few thousand numbers, where its branch on each number costs)
            out = g.copy()
            np.copyto(out, zero, where=drop)
            return out
        keep = np.add(drop, minus_one)          # True -> 0, False -> -1 (all bits set), in g's size
        return np.bitwise_and(g.view(bits), keep, out=keep).view(dtype)
    return zero_where(x <= threshold, g)      # (PyTorch's test: a nan x lets g through)


_ndarray = np.ndarray
_BOOL = np.dtype(bool)
# per float dtype: its 0-d zero, a 0-d -1 in the integer of its size, that integer
_ZERO_AND_MINUS_ONE = {d: (np.zeros((), d), np.array(-1, i), np.dtype(i)) for d, i in ((_F32, np.int32), (_F64, np.int64))}


_SAME_SIZE_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def where_or_zero(mask, g):
    """g where mask holds, else +0: PyTorch's where(mask, grad, 0), the gradient of every op that
    picks (relu, clamp, where, max...). Not g * mask: inf * 0 is nan, and -1 * 0 is -0.
    On float arrays it ANDs g's bits with all-ones or all-zeros: exact, and ~10x quicker than
    np.where (whose per-element branch on a random mask costs the MLP 7%)."""
    if isinstance(g, Tensor) or isinstance(mask, Tensor):
        return where(mask, g, 0.0)
    return _and_bits(g, mask, keep=True)


def zero_where(mask, g):
    """g with 0 where mask holds: PyTorch's grad.masked_fill(mask, 0) (see where_or_zero)."""
    if isinstance(g, Tensor) or isinstance(mask, Tensor):
        return g.masked_fill(mask if isinstance(mask, Tensor) else Tensor._make(np.asarray(mask, dtype=bool)), 0)
    return _and_bits(g, mask, keep=False)


def _and_bits(g, mask, keep):
    if (g.__class__ is _ndarray is mask.__class__ and mask.dtype is _BOOL and g.shape == mask.shape
            and mask.size <= 512 and (g.dtype is _F32 or g.dtype is _F64) and mask.flags.c_contiguous):
        # small: a masked copy, the same bits as below 2x quicker (past a few thousand numbers, where
        # its branch on each number costs, 3x slower), laid out as below (as the mask)
        if keep:
            out = np.zeros(g.shape, g.dtype)
            np.copyto(out, g, where=mask)
        else:
            out = g.copy()
            np.copyto(out, _ZERO_AND_MINUS_ONE[g.dtype][0], where=mask)
        return out
    g = np.asarray(g)
    it = _SAME_SIZE_INT.get(g.dtype.itemsize) if g.dtype.kind == "f" else None
    if it is None:
        return np.where(mask, g, g.dtype.type(0)) if keep else np.where(mask, g.dtype.type(0), g)
    bits = np.asarray(mask).astype(it)
    if keep:
        np.negative(bits, out=bits)                     # 1 -> -1 (all bits set), 0 -> 0
    else:
        np.subtract(bits, 1, out=bits)                  # 1 -> 0, 0 -> -1
    out = np.bitwise_and(g.view(it), bits, out=bits if bits.shape == g.shape else None)
    return out.view(g.dtype)


def clamp_min(x, low):
    return x.clamp_min(low) if isinstance(x, Tensor) else np.maximum(x, low).astype(x.dtype, copy=False)


def to_dtype(x, dtype):
    """x converted to a numpy dtype."""
    if isinstance(x, Tensor):
        return x.to(from_numpy_dtype(dtype))
    if x.dtype.kind == "V" or np.dtype(dtype).kind == "V":      # (complex32: converted and rounded by cast)
        return cast(x, dtype)
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":      # (the real part, without numpy's ComplexWarning)
        x = x.real
    return x.astype(dtype)


def conj(x):
    """x's complex conjugate, derivatives.yaml's `.conj()` in a gradient formula; x itself when x is real
    (so a real gradient pays one dtype check). A Python or numpy complex number is conjugated too."""
    if type(x) is np.ndarray:
        return np.conjugate(x) if x.dtype.kind == "c" else x
    if isinstance(x, Tensor):
        return x.conj()
    if x.__class__ is complex or isinstance(x, np.complexfloating):
        return x.conjugate()
    return x


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
    # (no **params when there are none: passing an empty dict on costs a tanh backward 5%)
    return OPS[op_key].forward(*args, **params) if params else OPS[op_key].forward(*args)


# ---------------------------------------------------------------- what a formula reads of its node

def node_of(n):
    """The node itself, for a formula that ran with its saved values as Tensors (n an AsTensors view)."""
    return object.__getattribute__(n, "_node") if type(n) is AsTensors else n


def defined(n, i):
    """Whether output i of a multi-output node received a gradient (PyTorch's grad.defined()): in a graph of
    the gradient PyTorch's formulas branch on it; gradlab hands the formulas zeros for the others."""
    flags = getattr(node_of(n), "_defined", None)
    return flags is None or flags[i]


def saved_output(n, i, arrays=False):
    """Output i of a multi-output node (listed in its row's saves_outputs) as a Tensor whose grad_fn is the
    node: what PyTorch's formula reads (LinalgSvdBackward0's U, S, Vh), differentiable again through it.
    With arrays, a formula that also runs in a plain backward (n the node itself) gets its numpy array there."""
    node = node_of(n)
    guard = node._guards[node._op.saves_outputs.index(i)]
    if arrays and type(n) is not AsTensors:
        return guard._unpack(node, as_arrays=True)
    return guard._unpack(node)


def shared(n, g, slot, compute):
    """A value that PyTorch computes once for two inputs' gradients (one C++ function returns both, as
    atan2_backward's `recip`): the first formula of a node's call computes it, the formula for input `slot`
    in the same call (the same incoming g) takes it, so that a graph of the gradient holds one node for it,
    as PyTorch's. When input `slot` needs no gradient (or slot is None: the last formula) nothing is kept."""
    node = node_of(n)
    kept = getattr(node, "_shared_value", None)
    if kept is not None:
        node._shared_value = None
        if kept[0] is g:
            return kept[1]
    value = compute()
    if slot is not None and node.next_functions[slot][0] is not None:
        node._shared_value = (g, value)
    return value


def shared_with_second(n, g, compute, first):
    """`shared` for a two-input node whose formulas run in order: the first input's keeps the value for the
    second's (input 1), which takes it back and keeps nothing."""
    return shared(n, g, 1 if first else None, compute)
