"""Tensor's random fills (`uniform_`, `normal_`, `random_`, `bernoulli_`, `exponential_`, `geometric_`)
and draws (`bernoulli`, `multinomial`): the same streams as PyTorch's generator."""
import math
import numbers

import numpy as np

from .. import _dtype, random as _random
from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..ops.indexing import _check_inplace_allowed, assign_data, check_overlaps
from ..ops.registry import OPS
from .operators import _no_derivative
from .. import _warnings


class _RandomFillMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # random in-place fills (the same streams as PyTorch's generator)
    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        gen = generator if generator is not None else _random.default_generator
        _check_uniform_bounds(self._data.dtype, from_, to)
        if self._data.size == 0:
            return assign_data(self, self._data, "uniform_")
        if self._data.dtype.kind == "V":       # complex32: complex64's numbers, rounded (as torch.rand's)
            values = _dtype.cast(gen.uniform(self._data.size, np.dtype(np.complex64), from_, to), self._data.dtype)
        else:
            values = gen.uniform(self._data.size, self._data.dtype, from_, to)
        return assign_data(self, _in_memory_order(values, self._data), "uniform_")

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
        if self._data.dtype.kind == "V":       # complex32: complex64's numbers, rounded (as torch.randn's)
            values = gen.normal(self._data.shape, np.dtype(np.complex64), mean, std)
            return assign_data(self, _dtype.cast(values, self._data.dtype), "normal_")
        if self._data.dtype.kind != "c" and (self._data.size < 16 or not self.is_contiguous()):
            # PyTorch's serial kernel, in memory order (complex tensors: pairs of normals, gen.normal's)
            values = gen.normal_scalar(self._data.size, self._data.dtype, mean, std)
            return assign_data(self, _in_memory_order(values, self._data), "normal_")
        return assign_data(self, gen.normal(self._data.shape, self._data.dtype, mean, std), "normal_")

    def random_(self, *args, generator=None, **kwargs):
        """random_() (the whole range of the dtype), random_(to), random_(from, to): integers, drawn as
        PyTorch's CPU kernels draw them (see Generator.random_bits / randint / random_from)."""
        gen = _gen(generator)
        low, high, bounded = _random_bounds(args, kwargs)
        check_overlaps(self, ())          # (PyTorch's TensorIterator first, then the bounds and the dtype)
        dt = self._data.dtype
        n = self._data.size
        if dt.kind == "V":          # (complex32: PyTorch's refusals, without and with bounds)
            if not bounded:
                raise NotImplementedError("\"random_kernel_cpu\" not implemented for 'ComplexHalf'")
            raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
        if not bounded:
            if dt.kind == "c" and n:
                raise _not_implemented("random_kernel_cpu", dt)
            return _fill(self, lambda: gen.random_bits(n, dt), "random_2")
        if dt.kind == "c":
            raise _not_implemented("random_from_to_range_calc" if high is None else "random_update_from_to", dt)
        if high is None:
            top = (1 << (np.finfo(dt).nmant + 1)) if dt.kind == "f" else 1 if dt.kind == "b" else int(np.iinfo(dt).max)
            if dt.kind == "f":
                low = _update_from(low, dt)
            if low >= top and dt.kind == "f":
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' "
                                   f"casted to dtype, but got from={low} > to_inc={top}")
            check_random_bounds(low, top + 1, dt)
            return _fill(self, lambda: gen.random_from(low, n, dt), "random_0")
        low, high = float_bounds(low, high, dt)
        check_random_bounds(low, high, dt)
        return _fill(self, lambda: gen.randint(low, high, n, np.int64).astype(dt),
                     "random_1" if len(args) + len(kwargs) == 1 else "random_0")

    def bernoulli_(self, p=0.5, *, generator=None):
        """1 with probability p (a number, or a tensor broadcast to self's shape), else 0."""
        gen = _gen(generator)
        dt = self._data.dtype
        if isinstance(p, Tensor):
            check_overlaps(self, ())      # (PyTorch's assert_no_internal_overlap comes before p's checks)
            probs = p._data
            if not self._data.size:       # (PyTorch returns before it looks at p: its shape, its dtype)
                return self
            if probs.dtype.kind not in "f":
                raise _not_implemented("bernoulli_tensor_cpu_p_", probs.dtype)
            probs = _expand_to(probs, self._data.shape)
            if dt.kind == "c":
                raise _not_implemented("bernoulli_tensor_cpu_self_", dt)
            if not ((probs >= 0) & (probs <= 1)).all():
                raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")

            def draw():
                u = _in_memory_order(gen.uniform_doubles(probs.size) if probs.dtype == np.float64
                                     else gen.uniform_floats(probs.size), self._data)
                return u < (probs if probs.dtype == np.float64 else probs.astype(np.float32))
            return _fill(self, draw, "bernoulli_1", arranged=True)
        p = float(p)
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_g(p)}")
        if dt.kind == "c" and self._data.size:
            raise _not_implemented("bernoulli_scalar_cpu_", dt)
        return _fill(self, lambda: gen.bernoulli_scalar(self._data.size, p), "bernoulli_2")

    def bernoulli(self, p=None, *, generator=None):
        """torch.bernoulli(input): 1 with probability input[i]; with p: probability p everywhere."""
        # (PyTorch's empty_like: an expanded input gets a contiguous result; numpy's empty_like would lay it
        # out in an order of its own, and the draws would land in that order)
        data = self._data
        out = Tensor._make(np.empty(data.shape, data.dtype) if 0 in data.strides else np.empty_like(data))
        if p is None:
            if self._data.dtype.kind != "f" and self._data.size:
                raise _not_implemented("bernoulli_tensor_cpu_p_", self._data.dtype)
            out.bernoulli_(self, generator=generator)
            out._vc = None                  # (PyTorch fills its new tensor below autograd: still version 0)
            if grad_mode._state["enabled"] and self.requires_grad:
                # PyTorch records BernoulliBackward0: a zero gradient for the probabilities
                return OPS["bernoulli_0"](self, values=out._data)
            return out
        # with a number p PyTorch records its NotImplemented node: a backward through it fails
        out.bernoulli_(p, generator=generator)
        out._vc = None
        return _no_derivative(out, "bernoulli", self)

    def exponential_(self, lambd=1.0, *, generator=None):
        """-log(1 - u) / lambd for float64 uniforms u."""
        lambd = float(lambd)
        if not lambd > 0.0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_g(lambd)}")
        check_overlaps(self, ())          # (the parameter's check, PyTorch's TensorIterator, then the dtype)
        if self._data.dtype.kind != "f" and self._data.size:
            raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                               f"floating point but you specified {_scalar_name(self._data.dtype)}")
        gen = _gen(generator)
        return _fill(self, lambda: gen.exponential(self._data.size, self._data.dtype, lambd), "exponential_")

    def geometric_(self, p, *, generator=None):
        """The number of Bernoulli(p) trials up to the first success: ceil(log(u) / log(1 - p))."""
        p = float(p)
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_g(p)}")
        check_overlaps(self, ())
        if self._data.dtype.kind not in "fiu" and self._data.size:
            raise _not_implemented("geometric_cpu", self._data.dtype)
        gen = _gen(generator)
        return _fill(self, lambda: gen.geometric(self._data.size, self._data.dtype, p), "geometric_")

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """Cauchy numbers: median + sigma * tan(pi * (u - 1/2))."""
        sigma = float(sigma)
        if not sigma > 0.0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_g(sigma)}")
        if self._data.dtype.kind != "f":
            raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                               f"floating point but you specified {_C_NAMES.get(self._data.dtype.name)}")
        gen = _gen(generator)
        return _fill(self, lambda: gen.cauchy(self._data.size, self._data.dtype, median, sigma), "cauchy_")

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """exp of normal numbers with this mean and standard deviation."""
        std = float(std)
        if not std > 0.0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_g(std)}")
        check_overlaps(self, ())
        if self._data.dtype.kind != "f" and self._data.size:
            raise _not_implemented("log_normal_cpu", self._data.dtype)
        gen = _gen(generator)
        return _fill(self, lambda: gen.log_normal(self._data.size, self._data.dtype, mean, std), "log_normal_")

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Indices drawn from the categories weighted by each row (see multinomial_indices)."""
        return Tensor._make(multinomial_indices(self._data, num_samples, replacement, _gen(generator)))


def _autograd_checked(fill):
    """PyTorch's autograd layer checks an in-place change (a leaf that requires grad, a view of one) before the
    kernel looks at its arguments or draws a number: a refused fill leaves the generator where it was."""
    def checked(self, *args, **kwargs):
        _check_inplace_allowed(self)
        return fill(self, *args, **kwargs)
    checked.__name__ = checked.__qualname__ = fill.__name__
    checked.__doc__ = fill.__doc__
    return checked


for _name in ("uniform_", "normal_", "random_", "bernoulli_", "exponential_", "geometric_", "cauchy_", "log_normal_"):
    setattr(_RandomFillMethods, _name, _autograd_checked(_RandomFillMethods.__dict__[_name]))


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
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{_scalar_name(np_dtype)}>::max(), but "
                           f"found to={to:g} and from={from_:g} which result in to-from to exceed the limit")


def _in_memory_order(values, like):
    """Flat draws laid out as PyTorch's kernels fill `like`: in the order of its memory (a transposed
    tensor is filled column by column), row-major when it is expanded."""
    if like.ndim < 2 or any(st == 0 and n > 1 for st, n in zip(like.strides, like.shape)):
        return values.reshape(like.shape)
    order = sorted(range(like.ndim), key=lambda d: -like.strides[d])     # (stable: ties keep their order)
    return values.reshape([like.shape[d] for d in order]).transpose(np.argsort(order))


def _fill(t, draw, key, arranged=False):
    """Write draw()'s numbers into t in place (nothing is drawn for an empty t). On a tensor that
    requires grad, the node is PyTorch's (`key`, e.g. RandomBackward2) when the op table has the row;
    otherwise a copy, through which no gradient flows back into t either."""
    if not t._data.size:                     # (nothing drawn, but the op still ran: its node is recorded)
        return assign_data(t, t._data, key) if key in OPS else assign_data(t, t._data)
    values = draw()
    if not arranged:
        values = _in_memory_order(values, t._data)
    values = values.astype(t._data.dtype, copy=False)
    if key in OPS:
        return assign_data(t, values, key)
    if grad_mode._state["enabled"] and t.requires_grad and not t.is_leaf:
        return t.copy_(Tensor._make(values))
    return assign_data(t, values)


def _gen(generator):
    return generator if generator is not None else _random.default_generator


def _g(x):
    """A number as PyTorch's C++ streams print it (%g-like: 1.5, -1, nan, inf)."""
    return "nan" if x != x else f"{x:g}"


def _scalar_name(np_dtype):
    """PyTorch's name of a scalar type: Float, Long, ComplexFloat, ..."""
    return _dtype.from_numpy_dtype(np_dtype)._legacy[:-6]


def _not_implemented(kernel, np_dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(np_dtype)}\'')


def _random_bounds(args, kwargs):
    """(from, to, bounded) of random_'s three signatures: (), (to), (from, to) (to may be None)."""
    kwargs = dict(kwargs)
    if "from" in kwargs:
        args = (kwargs.pop("from"),) + tuple(args)
    if "to" in kwargs:
        args = tuple(args) + (kwargs.pop("to"),)
    if kwargs or len(args) > 2 or any(not (_integer(a) or (i == 1 and a is None)) for i, a in enumerate(args)) \
            or (len(args) == 1 and args[0] is None):
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"random_() received an invalid combination of arguments - got ({got}), but expected "
                        "one of:\n * (*, torch.Generator generator = None)\n * (int from, int to, *, torch.Generator "
                        "generator = None)\n * (int to, *, torch.Generator generator = None)\n")
    if not args:
        return 0, None, False
    if len(args) == 1:
        return 0, int(args[0]), True
    return int(args[0]), None if args[1] is None else int(args[1]), True


def _integer(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _expand_to(values, shape):
    try:
        return np.broadcast_to(values, shape)
    except ValueError:
        raise RuntimeError(f"The expanded size of the tensor ({shape[-1] if shape else 1}) must match the existing "
                           f"size ({values.shape[-1]}) at non-singleton dimension {len(shape) - 1}.  Target sizes: "
                           f"{list(shape)}.  Tensor sizes: {list(values.shape)}") from None


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
            "void32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _update_from(low, dt):
    """PyTorch's update_from: a `from` whose successor rounds below it in the dtype moves up a step."""
    with np.errstate(over="ignore"):
        above = dt.type(low + 1)
    above = int(above) if np.isfinite(above) else -2 ** 63     # (x86's conversion of an overflow)
    if above < low:
        n = abs(low + 1).bit_length() - 1
        low = above + (1 << (n - (np.finfo(dt).nmant + 1) + 1))
    return low


def _update_to(high, dt):
    """PyTorch's update_to: a `to` whose predecessor rounds up to it in the dtype moves down a step."""
    with np.errstate(over="ignore"):
        below = dt.type(high - 1)
    if np.isfinite(below) and int(below) >= high:
        below = int(below)
        n = abs(high - 1).bit_length() - 1
        high = below - (1 << (n - (np.finfo(dt).nmant + 1) + 1))
    return high


def float_bounds(low, high, dt):
    """random_(from, to)'s bounds after PyTorch's checks, moved to what a floating dtype can hold."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if dt.kind == "f":
        low, high = _update_from(low, dt), _update_to(high, dt)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but "
                               f"got from={low} >= to={high}")
    return low, high


def check_random_bounds(low, high, target):
    """PyTorch's check that random integers in [low, high) fit the dtype (floating types only warn)."""
    if target.kind == "c":
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    name = _C_NAMES.get(target.name, target.name)
    if target.kind == "f":
        biggest = float(np.finfo(target).max)
        for what, value in (("from", low), ("to - 1", high - 1)):
            if not -biggest <= value <= biggest:
                raise RuntimeError(f"{what} is out of bounds for {name}")
        digits = np.finfo(target).nmant + 1
        lowest, highest = -2 ** digits, 2 ** digits
        for what, value, line in (("from", low, 110), ("to - 1", high - 1, 111)):
            if not lowest <= value <= highest:
                _warnings.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                               f"{name} can support discrete uniform distribution only within this range. This "
                               "warning will become an error in version 1.7 release, please fix the code in advance "
                               "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                               f"DistributionTemplates.h:{line}.)", UserWarning)
        return
    if target.kind == "b":
        lowest, highest = 0, 1
    else:
        info = np.iinfo(target)
        lowest, highest = int(info.min), int(info.max)
    if low < lowest or low > highest:
        raise RuntimeError(f"from is out of bounds for {name}")
    if high - 1 < lowest or high - 1 > highest:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")


def multinomial_indices(probs, num_samples, replacement, gen):
    """torch.multinomial's int64 indices, with its checks in its order. Without replacement (or one
    sample): argmax / top-k of p / q with q ~ Exp(1) (exponential_ of a tensor like p); with
    replacement: per row, the float64 uniforms' slots in the normalized cumulative sums (accumulated
    in the input's precision)."""
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_dtype.from_numpy_dtype(probs.dtype)._legacy[:-6]}")
    n = int(num_samples)
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    k = probs.shape[-1]
    if not replacement and n > k:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if k > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    shape = (n,) if probs.ndim == 1 else (probs.shape[0], n)
    if math.prod(shape) == 0:
        return np.empty(shape, np.int64)
    rows = probs.reshape(-1, k)
    if not replacement or n == 1:
        with np.errstate(invalid="ignore"):
            if not (rows.max() < np.inf and rows.min() >= 0):
                raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = gen.exponential(rows.shape, probs.dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = rows / q
        if n == 1:
            out = np.argmax(ratio, axis=1)[:, None]
        else:
            out = np.argsort(-ratio, axis=1, kind="stable")[:, :n]
        return out.astype(np.int64).reshape(shape)
    acc = np.float32 if probs.dtype == np.float16 else probs.dtype
    out = np.empty((rows.shape[0], n), np.int64)
    for i, row in enumerate(rows.astype(acc)):
        if (row < 0).any():
            raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
        if not np.isfinite(row).all():
            raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
        cum = np.cumsum(row, dtype=acc)
        total = cum[-1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cum = cum / total
        cum[-1] = 1
        u = gen.uniform_doubles(n)
        out[i] = np.searchsorted(cum.astype(np.float64), u, side="left")
    return out.reshape(shape)
