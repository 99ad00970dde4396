"""Random factories (rand, randn, randint, normal and their *_like forms) and the torch-level seed
functions: tensors around the numbers of gradlab.random's generator, with PyTorch's checks."""
import math
import numbers
import warnings

import numpy as np

from .. import _device, random as _random
from .._tensor_methods.random_fills import check_random_bounds, float_bounds
from .._size import Size
from .._tensor_core import Tensor
from .._tensor_data import _argument_type_name
from .. import _dtype
from .._tensor_methods._common import _resized_warning
from .._tensor_methods.operators import _no_derivative
from ..autograd import grad_mode as _grad_mode
from ..ops import conversion as _conversion
from ..ops.operands import broadcast_error
from ..ops.registry import OPS
from .factories import full
from .options import (_OPTIONS_NAMES, _combination_error, _finish, _like_device, _not_implemented, _np, _options,
                      _shape)


def _gen(generator):
    gen = generator if generator is not None else _random.default_generator
    # (a meta tensor has no numbers: PyTorch draws none, and the generator does not advance)
    return gen.throwaway() if _device.PENDING[0] == "meta" else gen


def _uniform(gen, shape, np_dtype):
    """torch.rand's numbers for any floating or complex dtype (see Generator.uniform)."""
    if np_dtype.kind not in "fc":
        raise _not_implemented("check_uniform_bounds", np_dtype)
    return gen.uniform(shape, np_dtype)


def _normal(gen, shape, np_dtype):
    """torch.randn's numbers for any floating or complex dtype (see Generator.normal)."""
    if not math.prod(shape):                   # (no numbers to draw: no kernel, no dtype check)
        return np.empty(shape, np_dtype)
    if np_dtype.kind not in "fc":
        raise _not_implemented("normal_kernel_cpu", np_dtype)
    return gen.normal(shape, np_dtype)


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """Uniform numbers in [0, 1), the same stream as PyTorch's CPU generator."""
    _options("rand", dtype, device, size, requires_grad=requires_grad)
    return _finish(_uniform(_gen(generator), _shape(size, "rand"), _np(dtype)), requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Standard normal numbers, the same stream as PyTorch's CPU generator."""
    _options("randn", dtype, device, size, requires_grad=requires_grad)
    return _finish(_normal(_gen(generator), _shape(size, "randn"), _np(dtype)), requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    args = [a for a in (low, high, size) if a is not None]
    np_dtype = _options("randint", dtype, device, args, requires_grad=requires_grad)
    if size is None:                    # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    _check_randint_arguments(args, low, high, size)
    target = np.dtype(np.int64) if np_dtype is None else np_dtype
    low, high = float_bounds(low, high, target)
    check_random_bounds(low, high, target)
    data = _gen(generator).randint(low, high, _shape((tuple(size),)), np.int64)
    return _finish(data.astype(target), requires_grad)


def _integer(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _check_randint_arguments(args, low, high, size):
    """randint's argument types, refused in PyTorch's words."""
    if len(args) == 3 and not (_integer(low) and _integer(high) and isinstance(size, (tuple, list, Size))):
        raise _combination_error("randint", args, {})
    if not _integer(high):
        raise TypeError(f"randint(): argument 'high' (position {len(args) - 1}) must be int, not "
                        f"{_argument_type_name(high)}")
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not "
                        f"{_argument_type_name(size)}")
    for i, s in enumerate(size):
        if not _integer(s):
            raise TypeError(f"randint(): argument 'size' (position {len(args)}) must be tuple of ints, but found "
                            f"element of type {_argument_type_name(s)} at pos {i}")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")


def _laid_out_like(data, draw, draw_strided=None):
    """draw(shape)'s numbers in PyTorch's empty_like(input) (preserve_format): a dense input that does not overlap
    itself (a transposed one) gives its own strides, and the random fill runs through memory, in that order;
    anything else is contiguous. (draw_strided: the numbers of a kernel that fills a strided tensor otherwise.)"""
    if data.ndim >= 2 and data.size and not data.flags.c_contiguous and 0 not in data.strides:
        strides = [s // data.itemsize for s in data.strides]
        big = [i for i in range(data.ndim) if data.shape[i] >= 2]
        dense = _conversion.preserved_strides(data.shape, strides)
        if all(dense[i] == strides[i] for i in big):
            order = sorted(range(data.ndim), key=lambda i: -strides[i] if data.shape[i] >= 2 else 0)
            values = (draw_strided or draw)(tuple(data.shape[i] for i in order))
            out = np.lib.stride_tricks.as_strided(np.empty(data.size, values.dtype), data.shape,
                                                  [st * values.itemsize for st in strides])
            out.transpose(order)[...] = values        # (the same strides as the input's, size-1 dims' too)
            return out
    return draw(data.shape)


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("rand_like", dtype, device, (input,), requires_grad=requires_grad)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    gen, target = _gen(generator), _np(dtype, input._data.dtype)
    return _finish(_laid_out_like(input._data, lambda shape: _uniform(gen, shape, target)), requires_grad)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("randn_like", dtype, device, (input,), requires_grad=requires_grad)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    gen, target = _gen(generator), _np(dtype, input._data.dtype)
    # (a strided tensor is filled by normal_'s scalar path, whatever its size)
    strided = None if target.kind == "c" else lambda shape: gen.normal_scalar(math.prod(shape), target).reshape(shape)
    return _finish(_laid_out_like(input._data, lambda shape: _normal(gen, shape, target), strided), requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
    _options("randint_like", dtype, device, [a for a in (input, low, high) if a is not None],
             requires_grad=requires_grad)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    if high is None:
        if isinstance(low, Tensor) and low._data.ndim:      # (PyTorch's randint_like(input, Tensor high) overload)
            raise RuntimeError("high must be a scalar tensor and on CPU")
        low, high = 0, low
    target = _np(dtype, input._data.dtype)
    low, high = float_bounds(low, high, target)
    check_random_bounds(low, high, target)
    gen = _gen(generator)
    data = _laid_out_like(input._data, lambda shape: gen.randint(low, high, shape, np.int64))
    return _finish(data.astype(target, copy=False), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    _options("normal", dtype, device)
    if isinstance(std, Tensor) and std._data.dtype.kind in "cV":
        raise RuntimeError("normal expects standard deviation to be non-complex")
    if isinstance(std, Tensor) and std._data.size and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if isinstance(std, numbers.Real) and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        return _normal_of_tensors(mean, std, generator)
    return _finish(_gen(generator).normal(tuple(size), _np(dtype), mean, std), requires_grad)


def _normal_of_tensors(mean, std, generator):
    """torch.normal with a tensor mean and/or std, in PyTorch's steps (so its dtypes, errors and roundings): a
    tensor of the broadcast shape, in mean's dtype (std's when mean is a number), filled by normal_(0, std) when
    std is a number, else by normal_(0, 1) then multiplied by std; then mean added. No gradient flows to mean or
    std (PyTorch's NormalBackward1/2/3 give zeros), but the result is recorded when one requires grad."""
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    with _grad_mode.no_grad():
        if mean_t and std_t:
            try:
                shape = np.broadcast_shapes(mean.shape, std.shape)
            except ValueError:
                raise broadcast_error(mean.shape, std.shape) from None
            out = mean.new_empty(tuple(shape))
            out.normal_(0, 1, generator=generator).mul_(std).add_(mean)
            key, inputs = "normal_Tensor_Tensor", (mean, std)
        elif mean_t:
            out = mean.new_empty(mean.shape)
            out.normal_(0, std, generator=generator).add_(mean)
            key, inputs = "normal_Tensor_float", (mean,)
        else:
            out = std.new_empty(std.shape)
            out.normal_(0, 1, generator=generator).mul_(std).add_(full((), mean, dtype=out.dtype))
            key, inputs = "normal_float_Tensor", (std,)
    if _grad_mode.is_grad_enabled() and any(t.requires_grad for t in inputs):
        return OPS[key](*inputs, values=out._data)
    return out


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of 0..n-1, PyTorch's shuffle of its generator's words (Generator.randperm)."""
    np_dtype = _options("randperm", dtype, device, (n,), requires_grad=requires_grad)
    target = np.dtype(np.int64) if np_dtype is None else np_dtype
    if not _integer(n):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not {_argument_type_name(n)}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    if target.kind in "bc":
        raise _not_implemented("randperm", target)
    if target.kind == "f":
        limit = 2 ** (np.finfo(target).nmant + 1) + 1
        if n > limit:
            name = {"float16": "2049 for Half", "float32": "2^24+1 for Float"}.get(target.name, "2^53+1 for Double")
            raise RuntimeError(f"n cannot be greater than {name} type.")
    elif n - 1 > np.iinfo(target).max:
        raise RuntimeError(f"value cannot be converted to type {_C_TYPES[target.name]} without overflow")
    return _finish(_gen(generator).randperm(int(n)).astype(target), requires_grad)


_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t"}


def bernoulli(input, p=None, *, generator=None, out=None):
    """1 with probability input[i] (or p), else 0, in input's dtype (Tensor.bernoulli)."""
    if p is None:                 # (Tensor.bernoulli's other overload: the probabilities are the input)
        return input.bernoulli(generator=generator)
    return input.bernoulli(p, generator=generator)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices of categories drawn with the weights of each row (Tensor.multinomial)."""
    return input.multinomial(num_samples, replacement, generator=generator)


def poisson(input, generator=None):
    """Poisson counts with the rates in input, in input's dtype (PyTorch's CPU sampler, element by element)."""
    rates = input._data
    if rates.dtype.kind != "f":
        raise _not_implemented("poisson_cpu", rates.dtype)
    if rates.size and not (rates >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return Tensor._make(_gen(generator).poisson(rates.astype(np.float64)).astype(rates.dtype))


def binomial(count, prob, generator=None):
    """Binomial counts: successes in count[i] trials of probability prob[i] (prob broadcast to count's shape),
    in count's dtype; PyTorch's CPU sampler (see Generator.binomial), element by element. No derivative."""
    for name, t in (("count", count), ("prob", prob)):
        if t._data.dtype.kind != "f":
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: {_dtype_name(t)}")
    if prob._data.dtype != count._data.dtype:        # (TensorIterator: the output is count's dtype)
        raise RuntimeError(f"Found dtype {_dtype_name(prob)} but expected {_dtype_name(count)}")
    try:
        shape = np.broadcast_shapes(count._data.shape, prob._data.shape)
    except ValueError:
        raise broadcast_error(count._data.shape, prob._data.shape) from None
    if shape != count._data.shape:                   # (the output, made like count, is resized: PyTorch warns)
        _resized_warning(count._data.shape, shape)
    if count._data.dtype != np.float32 and count._data.dtype != np.float64:
        raise _not_implemented("binomial_cpu", count._data.dtype)
    n = np.broadcast_to(count._data, shape).astype(np.float64)
    p = np.broadcast_to(prob._data, shape).astype(np.float64)
    result = Tensor._make(_gen(generator).binomial(n, p).astype(count._data.dtype))
    return _no_derivative(result, "binomial", count, prob)


def _dtype_name(t):
    """ScalarType's name (Float, Long, ComplexFloat, Bool) as PyTorch's messages print it."""
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-6] if t._data.dtype.kind in "fiub" else \
        {"void32": "ComplexHalf", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}.get(t._data.dtype.name, t._data.dtype.name)


def manual_seed(seed):
    return _random.manual_seed(int(seed))


def seed():
    return _random.seed()


def initial_seed():
    return _random.initial_seed()


def get_rng_state():
    return Tensor._make(_random.get_rng_state())


def set_rng_state(new_state):
    _random.set_rng_state(_random.state_array(new_state))
