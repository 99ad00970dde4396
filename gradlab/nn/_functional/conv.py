"""nn.functional: convolution, pooling and padding (imported by gradlab/nn/functional.py).

Each function checks its arguments as PyTorch does (its messages, in its order), then runs ops of the
table (ops/conv.py), so the graph shows PyTorch's nodes: ConvolutionBackward0,
MaxPool2DWithIndicesBackward0, AvgPool2DBackward0, ... The 1-d pools run as PyTorch runs them: the
2-d pool of an unsqueezed input, squeezed back (SqueezeBackward1 on top); unbatched convolutions too.
"""

import math

import numpy as np

from ... import _argparse, _parallel
from ...autograd import grad_mode
from ...creation.factories import _checked_fill
from ...ops import conv as _conv
from ...ops.registry import OPS
from ...tensor import Tensor, _type_name
from ... import _warnings

__all__ = ["conv1d", "conv2d", "max_pool1d", "max_pool2d", "max_pool1d_with_indices", "max_pool2d_with_indices",
           "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices", "pad"]

_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                 "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "void32": "ComplexHalf",
                 "complex64": "ComplexFloat", "complex128": "ComplexDouble"}
# the C type names of conv's type errors
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
            "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
_LEGACY_NAMES = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "float16": "torch.HalfTensor",
                 "int64": "torch.LongTensor", "int32": "torch.IntTensor", "int16": "torch.ShortTensor",
                 "int8": "torch.CharTensor", "uint8": "torch.ByteTensor", "bool": "torch.BoolTensor",
                 "complex64": "CPUComplexFloatType", "complex128": "CPUComplexDoubleType"}   # (no legacy class)


def _name(t):
    return _SCALAR_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _tensor(fn, value, arg, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(value)}")


def _ints(value):
    """An int or a sequence of ints as a list (torch's IntArrayRef)."""
    if isinstance(value, (int, np.integer)):
        return [int(value)]
    return [int(v) for v in value]


# --- convolution ------------------------------------------------------------------------------------

def _expand(name, value, dim, declared):
    """torch's expand_param_if_needed, after its argument parser made an int `declared` values long."""
    values = [int(value)] * declared if isinstance(value, (int, np.integer)) else _ints(value)
    if len(values) == 1:
        return values * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={_dims(values)}")
    return values


def _check_geometry(shape, w_shape, stride, padding, dilation, groups, output_padding=()):
    """ATen's check_shape_forward, shared by convolution and its transpose: the numbers, then the input's
    dims against the weight's, then the groups against the weight's first dim (in PyTorch's order)."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if len(shape) != len(w_shape):
        raise RuntimeError(f"Expected {len(w_shape)}-dimensional input for {len(w_shape)}-dimensional weight "
                           f"{_dims(w_shape)}, but got {len(shape)}-dimensional input of size {_dims(shape)} instead")
    if w_shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {_dims(w_shape)} instead")
    if w_shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{_dims(w_shape)}] instead")


def _onednn(x_dtype, shape, w_shape, groups, strided=False, dilated=False):
    """Whether PyTorch's CPU convolution takes its oneDNN path (Convolution.cpp's use_mkldnn, with more than
    one thread): float32 inputs, and a batch, groups, a kernel larger than 3x3 or a large input. Its checks
    have their own words (the dtypes' 'or input should be a MKLDNN tensor', zero dilation's)."""
    if x_dtype != np.float32:
        return False
    shape4 = shape if len(shape) >= 4 else (shape[0], shape[1], 1, shape[2])       # (1-d runs as 2-d)
    kernel = w_shape[2:] if len(w_shape) >= 4 else (1,) + tuple(w_shape[2:])
    # (a 1x1 kernel on one thread: the native kernel is faster)
    if not (strided or dilated or shape4[0] >= 16 or kernel[-1] != 1 or kernel[-2] != 1
            or _parallel.get_num_threads() > 1):
        return False
    return bool(groups > 1 or (kernel[-1] > 3 and kernel[-2] > 3) or shape4[0] > 1 or math.prod(shape4[:4]) > 20480)


def _check_bias_dtype(input, bias):
    x_dtype = input._data.dtype
    if bias is not None and bias._data.dtype != x_dtype:
        raise RuntimeError(f"Input type ({_C_NAMES.get(x_dtype.name, x_dtype.name)}) and bias type "
                           f"({_C_NAMES.get(bias._data.dtype.name, bias._data.dtype.name)}) should be the same")


def _convolution(fn, dim, input, weight, bias, stride, padding, dilation, groups, output_padding=None):
    """dim None: torch.convolution's form (no unbatched input; the dims are the weight's; output_padding checked)."""
    _tensor(fn, input, "input", 1)
    _tensor(fn, weight, "weight", 2)
    if bias is not None:
        _tensor(fn, bias, "bias", 3)
    # (PyTorch's at::convolution checks the bias's dtype before anything about shapes; a padding string takes
    # another path, which checks the shapes first)
    if output_padding is None and dim is not None and not isinstance(padding, str):
        _check_bias_dtype(input, bias)
    shape = input._data.shape
    if dim is None:
        dim = max(len(shape) - 2, 1)
    elif len(shape) not in (dim + 1, dim + 2):
        raise RuntimeError(f"Expected {dim + 1}D (unbatched) or {dim + 2}D (batched) input to {fn}, but got input "
                           f"of size: {_dims(shape)}")
    unbatched = len(shape) == dim + 1 and output_padding is None
    if unbatched:
        input = input.unsqueeze(0)
        shape = input._data.shape
    w_shape = weight._data.shape
    k = len(w_shape) - 2
    if k < 1:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride = _expand("stride", stride, k, dim)
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        dilation = _expand("dilation", dilation, k, dim)
        if padding == "valid":
            padding = [0] * k
        else:
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            totals = [d * (n - 1) for d, n in zip(dilation, w_shape[2:])]
            padding = [t // 2 for t in totals]
            extra = [t - t // 2 - t // 2 for t in totals]
            if any(extra):
                _warnings.warn_once("Using padding='same' with even kernel lengths and odd dilation may require a "
                                    "zero-padded copy of the input be created (Triggered internally at "
                                    "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)")
                pad_nd = []
                for e in reversed(extra):
                    pad_nd += [0, e]
                input = pad(input, pad_nd)
                shape = input._data.shape
    else:
        padding = _expand("padding", padding, k, dim)
        dilation = _expand("dilation", dilation, k, dim)
    if output_padding is not None:
        _expand("output_padding", output_padding, k, dim)
    _check_geometry(shape, w_shape, stride, padding, dilation, groups)
    if shape[1] != w_shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {_dims(w_shape)}, expected input{_dims(shape)} to "
                           f"have {w_shape[1] * groups} channels, but got {shape[1]} channels instead")
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != w_shape[0]):
        raise RuntimeError(f"Given weight of size {_dims(w_shape)}, expected bias to be 1-dimensional with "
                           f"{w_shape[0]} elements, but got bias of size {_dims(bias._data.shape)} instead")
    padded = [n + 2 * p for n, p in zip(shape[2:], padding)]
    kernel = [d * (n - 1) + 1 for d, n in zip(dilation, w_shape[2:])]
    if any(p < n for p, n in zip(padded, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input "
                           "size")
    x_dtype, w_dtype = input._data.dtype, weight._data.dtype
    _check_bias_dtype(input, bias)
    onednn = _onednn(x_dtype, shape, w_shape, groups, any(s != 1 for s in stride), any(d != 1 for d in dilation))
    if 0 in dilation and not (onednn and x_dtype != w_dtype):   # (oneDNN checks the dtypes first)
        if onednn:
            raise RuntimeError("non-positive dilation is not supported")
        # (the slow kernel's own check, before the dtypes'; a 1-d convolution runs as a 2-d one)
        raise RuntimeError(f"dilation should be greater than zero, but got {_dims((1, *dilation) if k == 1 else dilation)}")
    if x_dtype != w_dtype:
        if x_dtype.kind == "c":            # (a complex input takes another path, whose check has no MKLDNN text)
            raise RuntimeError(f"Input type ({_LEGACY_NAMES.get(x_dtype.name)}) and weight type "
                               f"({_LEGACY_NAMES.get(w_dtype.name)}) should be the same")
        if onednn:
            raise RuntimeError(f"Input type ({_LEGACY_NAMES.get(x_dtype.name)}) and weight type "
                               f"({_LEGACY_NAMES.get(w_dtype.name)}) should be the same or input should be a MKLDNN "
                               "tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {_name(input)} but found {_name(weight)}")
    if k == 1:
        stride, padding, dilation = (1, stride[0]), (0, padding[0]), (1, dilation[0])
    # (the forward's im2col columns are kept for the weight's gradient when it will want one)
    columns = [] if weight.requires_grad and grad_mode._state["enabled"] else None
    out = OPS["convolution"](input, weight, bias, stride=tuple(stride), padding=tuple(padding),
                             dilation=tuple(dilation), groups=groups, input_shape=shape, weight_shape=w_shape,
                             columns=columns)
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _convolution("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """torch.convolution: either layer, for inputs with a batch dim, by the weight's dims."""
    if transposed:
        return _conv_transpose("convolution", None, input, weight, bias, stride, padding, output_padding, groups,
                               dilation)
    return _convolution("convolution", None, input, weight, bias, stride, padding, dilation, groups, output_padding)


__all__ += ["conv3d"]


# --- max pooling -------------------------------------------------------------------------------------

def _pool_arg(fn, name, value, default=None, what=None, n=2):
    """A pool's int-or-n-tuple argument as an n-tuple (a pair, or a triple for 3-d); torch's message for a wrong
    length."""
    if value is None or (not isinstance(value, (int, np.integer)) and len(value) == 0):
        if default is not None:
            return default
    values = _ints(value)
    if len(values) not in (1, n):
        raise RuntimeError(f"{fn}: {name} must {what}")
    return (values[0],) * n if len(values) == 1 else tuple(values)


def _output_shape_checks(size, k, p, s, d):
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if p > int(((k - 1) * d + 1) / 2):       # (C++'s division, toward zero)
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                           f"and dilation={d}")


def _pool2d_checks(input, kernel, stride, padding, dilation, ceil_mode):
    shape = input._data.shape
    h, w = shape[-2:]
    for n, k, s, p, d in zip((h, w), kernel, stride, padding, dilation):
        _output_shape_checks(n, k, p, s, d)
    out_hw = tuple(_conv.pool_out_size(n, k, s, p, d, ceil_mode)
                   for n, k, s, p, d in zip((h, w), kernel, stride, padding, dilation))
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    nd = len(shape)
    if not ((nd == 3 and shape[0] and shape[1] and shape[2]) or (nd == 4 and shape[1] and shape[2] and shape[3])):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{_dims(shape)}")
    if kw // 2 < padding[1] or kh // 2 < padding[0]:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {padding[1]}, "
                           f"padH = {padding[0]}, kW = {kw}, kH = {kh}")
    if out_hw[0] < 1 or out_hw[1] < 1:
        planes = shape[-3]
        raise RuntimeError(f"Given input size: ({planes}x{h}x{w}). Calculated output size: "
                           f"({planes}x{out_hw[0]}x{out_hw[1]}). Output size is too small")


def _not_implemented(kernel, input, kinds="fiu"):
    if input._data.dtype.kind not in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_name(input)}\'')


def _arg_type_name(value):
    """The type's name as PyTorch's C++ argument parser prints it (tp_name: 'torch.dtype')."""
    return _type_name(value)


# torch's argument parser for an int[] (SymInt[] if sym=True) argument: an int (for int[N]), or a tuple or
# list of ints or one-element integer Tensors (a bool one is refused for a SymInt[])
_int_list = _argparse.int_list


def _pool_lists(fn, kernel_size, stride, padding, dilation):
    return (_int_list(fn, "kernel_size", 2, kernel_size), [] if stride is None else _int_list(fn, "stride", 3, stride),
            _int_list(fn, "padding", 4, padding), _int_list(fn, "dilation", 5, dilation))


def _max_pool_impl(nd, fn, input, kernel_size, stride, padding, dilation, ceil_mode):
    """F.max_pool2d (nd=2) and F.max_pool3d (nd=3): PyTorch's checks, in its order, then the op's row."""
    _tensor(fn, input, "input", 1)
    kernel_size, stride, padding, dilation = _pool_lists(fn, kernel_size, stride, padding, dilation)
    op, ints = f"max_pool{nd}d", "a tuple of two ints" if nd == 2 else "a tuple of three ints"
    kernel = _pool_arg(op, "kernel_size", kernel_size, what=f"either be a single int, or {ints}", n=nd)
    stride = _pool_arg(op, "stride", stride, kernel, f"either be omitted, a single int, or {ints}", n=nd)
    padding = _pool_arg(op, "padding", padding, what=f"either be a single int, or {ints}", n=nd)
    dilation = _pool_arg(op, "dilation", dilation, what=f"be either a single int, or {ints}", n=nd)
    if input._data.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input")
    if nd == 2:
        _pool2d_checks(input, kernel, stride, padding, dilation, bool(ceil_mode))
    else:
        _pool3d_checks("max_pool3d_with_indices_out_cpu_template()", input, kernel, stride, padding, dilation,
                       bool(ceil_mode))
    _not_implemented(op, input)
    values, indices = _conv.max_pool_indices(input._data, kernel, stride, padding, dilation, bool(ceil_mode))
    overlapping = any(s < d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation))
    out = OPS[op](input, indices=indices, values=values, overlapping=overlapping)
    return out, Tensor._make(indices)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool_impl(2, "max_pool2d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool_impl(2, "max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode)[0]


def _boolean_dispatch(name, arg_index, if_true, if_false):
    """torch's boolean_dispatch: F.max_pool2d is one of two functions, chosen by return_indices."""
    def fn(*args, **kwargs):
        flag = kwargs["return_indices"] if "return_indices" in kwargs else (
            args[arg_index] if arg_index < len(args) else False)
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


max_pool2d = _boolean_dispatch("max_pool2d", 6, max_pool2d_with_indices, _max_pool2d)


def _pool1d_arg(fn, name, value, what):
    values = _ints(value)
    if len(values) != 1:
        raise RuntimeError(f"{fn}() {name} must be {what} of size 1 but got size {len(values)}")
    return values[0]


def _max_pool1d_indices(fn, input, kernel_size, stride, padding, dilation, ceil_mode):
    """torch's max_pool1d_with_indices: the checks of 1-d arguments, then max_pool2d of (..., 1, L)."""
    _tensor(fn, input, "input", 1)
    kernel_size, stride, padding, dilation = _pool_lists(fn, kernel_size, stride, padding, dilation)
    _check_1d("max_pool1d", input)
    stride = stride or kernel_size
    for name, value in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
                        ("dilation", dilation)):
        if len(value) != 1:
            raise RuntimeError(f"max_pool1d() argument '{name}' should contain one int (got {len(value)})")
    out, indices = _max_pool_impl(2, "max_pool2d_with_indices", input.unsqueeze(-2), (1, kernel_size[0]),
                                  (1, stride[0]), (0, padding[0]), (1, dilation[0]), ceil_mode)
    return out.squeeze(-2), indices.squeeze(-2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool1d_indices("max_pool1d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    fn = "max_pool1d"
    _tensor(fn, input, "input", 1)
    kernel_size, stride, padding, dilation = _pool_lists(fn, kernel_size, stride, padding, dilation)
    shape = input._data.shape
    if not ((len(shape) == 2 and shape[0] and shape[1]) or (len(shape) == 3 and shape[1] and shape[2])):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{_dims(shape)}")
    k = _pool1d_arg(fn, "kernel_size", kernel_size, "an int, list of ints or tuple of ints")
    s = k if not stride else _pool1d_arg(fn, "stride", stride, "None, an int, list of ints, or tuple of ints")
    p = _pool1d_arg(fn, "padding", padding, "an int, list of ints, or tuple of ints")
    d = _pool1d_arg(fn, "dilation", dilation, "an int, list of ints or tuple of ints")
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    width = _conv.pool_out_size(shape[-1], k, s, p, d, bool(ceil_mode))
    if width <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {width}")
    if input.requires_grad and grad_mode._state["enabled"]:     # torch then takes the path with indices
        return _max_pool1d_indices(fn, input, kernel_size, stride, padding, dilation, ceil_mode)[0]
    _not_implemented("max_pool1d_impl", input, "f")          # (its own kernel: floating types only)
    return _max_pool_impl(2, "max_pool2d", input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d),
                          ceil_mode)[0].squeeze(-2)


max_pool1d = _boolean_dispatch("max_pool1d", 6, max_pool1d_with_indices, _max_pool1d)


# --- average pooling ---------------------------------------------------------------------------------

def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    _tensor("avg_pool2d", input, "input", 1)
    kernel = _pool_arg("avg_pool2d", "kernel_size", kernel_size, what="either be a single int, or a tuple of two ints")
    stride = _pool_arg("avg_pool2d", "stride", stride, kernel,
                       "either be omitted, a single int, or a tuple of two ints")
    padding = _pool_arg("avg_pool2d", "padding", padding, what="either be a single int, or a tuple of two ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    nd = input._data.ndim
    if nd < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, {max(nd, 1) - 1}], "
                         "but got -3)")
    _pool2d_checks(input, kernel, stride, padding, (1, 1), bool(ceil_mode))
    _not_implemented("avg_pool2d", input, "f" if input._data.dtype != np.int64 else "i")   # (of integers, Long only)
    return OPS["avg_pool2d"](input, kernel=kernel, stride=stride, padding=padding, ceil_mode=bool(ceil_mode),
                             count_include_pad=bool(count_include_pad), divisor_override=divisor_override)


def _check_1d(fn, input):
    nd = input._data.ndim
    if nd not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {nd}-dimensional tensor for argument #1 'self' "
                           f"(while checking arguments for {fn})")


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    _tensor("avg_pool1d", input, "input", 1)
    _check_1d("avg_pool1d", input)
    def one(name, value):              # (avg_pool1d's own check of its lists)
        values = _ints(value)
        if len(values) != 1:
            raise RuntimeError(f"avg_pool1d() argument '{name}' should contain one int (got {len(values)})")
        return values[0]
    k = one("kernel_size", kernel_size)
    s = k if stride is None or (not isinstance(stride, (int, np.integer)) and len(stride) == 0) else \
        one("stride", stride)
    p = one("padding", padding)
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


# --- adaptive pooling --------------------------------------------------------------------------------

def _list_with_default(out_size, defaults):
    if isinstance(out_size, (int, np.integer)):
        return out_size
    if not hasattr(out_size, "__len__"):
        raise TypeError(f"object of type '{_arg_type_name(out_size)}' has no len()")
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def _adaptive_size(fn, input, output_size, sep="", nd=2, check_dtype=True):
    _tensor(fn, input, "input", 1)
    size = _list_with_default(output_size, input._data.shape)
    size = _int_list(fn, "output_size", 2, size, sym="avg" in fn)      # (avg's is a SymInt[])
    if len(size) == 1:
        size = size * nd
    if len(size) != nd:
        internal = "(): internal error: output_size.size()" if nd == 3 and "max" in fn else ": output_size"
        raise RuntimeError(f"{fn}{internal} must be {nd}")
    if min(size) < 0 and "avg" in fn:       # (ATen's adaptive_avg_pool checks the sizes before the input)
        received = f"{size[0]}, {size[1]}" if nd == 2 else f"{size[0]}, {size[1]},{size[2]}"    # (torch's spacing)
        raise RuntimeError(f"{fn}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{received}}}")
    if "avg" in fn and all(s == 1 for s in size):
        return tuple(size)          # (the caller's mean: before any check of the input, as ATen's)
    shape = input._data.shape
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{fn}(): Expected {nd + 1}D or {nd + 2}D tensor, but got{sep} {_dims(shape)}")
    for i in range(1, len(shape)):
        if not shape[i]:
            raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {_dims(shape)} with dimension {i} being empty")
    if min(size) < 0 and "max" in fn:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: "
                           f"{_dims(shape[:-nd] + tuple(size))}")
    if min(size) < 0:
        received = f"{size[0]}, {size[1]}" if nd == 2 else f"{size[0]}, {size[1]},{size[2]}"    # (torch's spacing)
        raise RuntimeError(f"{fn}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{received}}}")
    if check_dtype:
        _not_implemented(fn if nd == 2 else f"{fn}_cpu", input, "f")
    return tuple(size)


def adaptive_avg_pool2d(input, output_size):
    size = _adaptive_size("adaptive_avg_pool2d", input, output_size, check_dtype=False)
    if size == (1, 1):          # torch's shortcut: a mean over the plane (MeanBackward1)
        return input.mean((-1, -2), keepdim=True)
    _not_implemented("adaptive_avg_pool2d", input, "f")
    return OPS["adaptive_avg_pool2d"](input, output_size=size)


def adaptive_avg_pool1d(input, output_size):
    _tensor("adaptive_avg_pool1d", input, "input", 1)
    _check_1d("adaptive_avg_pool1d", input)
    size = _ints(output_size)
    if len(size) != 1:
        raise RuntimeError(f"adaptive_avg_pool1d: output_size must be 1, but got {len(size)}")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size[0])).squeeze(-2)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    size = _adaptive_size("adaptive_max_pool2d", input, output_size, ":")
    values, indices = _conv.adaptive_max_indices(input._data, size)
    out = OPS["adaptive_max_pool2d"](input, indices=indices, values=values, overlapping=True)
    return out, Tensor._make(indices)


def _adaptive_max_pool2d(input, output_size, return_indices=False):
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


adaptive_max_pool2d = _boolean_dispatch("adaptive_max_pool2d", 2, adaptive_max_pool2d_with_indices,
                                        _adaptive_max_pool2d)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    fn = "adaptive_max_pool1d"
    _tensor(fn, input, "input", 1)
    size = _int_list(fn, "output_size", 2, output_size)
    _check_1d(fn, input)
    if len(size) != 1:
        raise RuntimeError(f"adaptive_max_pool1d() argument 'output_size' should contain one int (got {len(size)})")
    out, indices = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size[0]))
    return out.squeeze(-2), indices.squeeze(-2)


def _adaptive_max_pool1d(input, output_size, return_indices=False):
    return adaptive_max_pool1d_with_indices(input, output_size)[0]


adaptive_max_pool1d = _boolean_dispatch("adaptive_max_pool1d", 2, adaptive_max_pool1d_with_indices,
                                        _adaptive_max_pool1d)


# --- 3-d pooling: the 2-d pools' code over three spatial dims (ATen's pool3d_shape_check) ----------------

def _pool3d_checks(fn, input, kernel, stride, padding, dilation, ceil_mode, check_input_size=False):
    """ATen's pooling_output_shape for each dim, then pool3d_shape_check, in its order; the output sizes."""
    shape = input._data.shape
    sizes = shape[-3:]
    for n, k, s, p, d in zip(sizes, kernel, stride, padding, dilation):
        _output_shape_checks(n, k, p, s, d)
    out = tuple(_conv.pool_out_size(n, k, s, p, d, ceil_mode)
                for n, k, s, p, d in zip(sizes, kernel, stride, padding, dilation))
    for i, n in enumerate(shape):
        if not n and not (len(shape) == 5 and i == 0):
            # (PyTorch prints the dim's length, 0, where it means to print the dim)
            raise RuntimeError(f"{fn}: Expected input's non-batch dimensions to have positive length, but input has a "
                               f"shape of {_dims(shape)} and non-batch dimension 0 has length zero!")
    (kt, kh, kw), (st, sh, sw), (dt, dh, dw), (pt, ph, pw) = kernel, stride, dilation, padding
    if kt <= 0 or kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kT: {kt} kH: {kh} kW: {kw}")
    if st <= 0 or sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dT: {st} dH: {sh} dW: {sw}")
    if dt <= 0 or dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationT: {dt} dilationH: {dh} "
                           f"dilationW: {dw}")
    if check_input_size and any(n < k for n, k in zip(sizes, kernel)):
        raise RuntimeError(f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller than kernel size "
                           f"(kT: {kt} kH: {kh} kW: {kw})")
    if kt // 2 < pt or kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got kT: {kt} kW: {kw} "
                           f"kH: {kh} padT: {pt} padW: {pw} padH: {ph}")
    if min(out) < 1:
        planes = shape[-4]
        raise RuntimeError(f"Given input size: ({planes}x{'x'.join(map(str, sizes))}). Calculated output size: "
                           f"({planes}x{'x'.join(map(str, out))}). Output size is too small")
    return out


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool_impl(3, "max_pool3d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode)


def _max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool_impl(3, "max_pool3d", input, kernel_size, stride, padding, dilation, ceil_mode)[0]


max_pool3d = _boolean_dispatch("max_pool3d", 6, max_pool3d_with_indices, _max_pool3d)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    _tensor("avg_pool3d", input, "input", 1)
    kernel = _pool_arg("avg_pool3d", "kernel_size", kernel_size, what="be a single int, or a tuple of three ints", n=3)
    stride = _pool_arg("avg_pool3d", "stride", stride, kernel, "be omitted, a single int, or a tuple of three ints",
                       n=3)
    padding = _pool_arg("avg_pool3d", "padding", padding, what="be a single int, or a tuple of three ints", n=3)
    if input._data.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _pool3d_checks("avg_pool3d()", input, kernel, stride, padding, (1, 1, 1), bool(ceil_mode), check_input_size=True)
    _not_implemented("avg_pool3d_out_frame", input, "f" if input._data.dtype != np.int64 else "i")
    return OPS["avg_pool3d"](input, kernel=kernel, stride=stride, padding=padding, ceil_mode=bool(ceil_mode),
                             count_include_pad=bool(count_include_pad), divisor_override=divisor_override)


def adaptive_avg_pool3d(input, output_size):
    size = _adaptive_size("adaptive_avg_pool3d", input, output_size, nd=3, check_dtype=False)
    if size == (1, 1, 1):       # torch's shortcut: a mean over the volume (MeanBackward1)
        return input.mean((-1, -2, -3), keepdim=True)
    _not_implemented("adaptive_avg_pool3d_cpu", input, "f")
    return OPS["adaptive_avg_pool3d"](input, output_size=size)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    size = _adaptive_size("adaptive_max_pool3d", input, output_size, ":", nd=3)
    values, indices = _conv.adaptive_max_indices(input._data, size)
    out = OPS["adaptive_max_pool3d"](input, indices=indices, values=values, overlapping=True)
    return out, Tensor._make(indices)


def _adaptive_max_pool3d(input, output_size, return_indices=False):
    return adaptive_max_pool3d_with_indices(input, output_size)[0]


adaptive_max_pool3d = _boolean_dispatch("adaptive_max_pool3d", 2, adaptive_max_pool3d_with_indices,
                                        _adaptive_max_pool3d)


def torch_adaptive_max_pool1d(input, output_size):
    """torch.adaptive_max_pool1d: the (values, indices) pair, always."""
    return adaptive_max_pool1d_with_indices(input, output_size)


__all__ += ["max_pool3d", "max_pool3d_with_indices", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
            "adaptive_max_pool3d_with_indices"]


# --- padding -------------------------------------------------------------------------------------------

_vet_pad = _argparse.wrappers._vetter(("pad(Tensor input, SymIntArrayRef pad, c10::string_view mode=\"constant\", "
                                      "double? value=None)",))


def pad(input, pad, mode="constant", value=None):
    if not isinstance(mode, str) or not (value is None or isinstance(value, (int, float))):
        _vet_pad((input, pad, mode, value), {})       # (torch._C._nn.pad's parser: mode=1 refused)
    _tensor("pad", input, "input", 1)
    pad = tuple(_int_list("pad", "pad", 2, pad, allow_int=False, sym=True))
    shape = input._data.shape
    if mode not in ("constant", "reflect", "replicate", "circular"):      # (PyTorch's pad checks the mode first)
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > len(shape):
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {len(shape)}")
    if mode == "constant":
        for i in range(len(pad) // 2):
            size = shape[len(shape) - 1 - i]
            left, right = pad[2 * i], pad[2 * i + 1]
            if (left < 0 and size + left < 0) or (right < 0 and size + min(left, 0) + right < 0):
                raise RuntimeError("narrow(): length must be non-negative.")
        return OPS["constant_pad_nd"](input, pad=pad, value=0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    nd = len(pad) // 2
    if not (nd in (1, 2, 3) and len(shape) in (nd + 1, nd + 2)):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {len(shape)}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _pad_circular(input, pad)
    batched = len(shape) == nd + 2
    if not all(shape[int(batched):]):
        raise RuntimeError(f"Expected {nd + 1}D or {nd + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {_dims(shape)}")
    for i in range(nd):
        dim = len(shape) - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and (left >= shape[dim] or right >= shape[dim]):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({left}, {right}) at dimension {dim} of input "
                               f"{_dims(shape)}")
    if input._data.dtype == np.bool_:            # (the kernel's dtype dispatch, after its shape checks)
        kernel = "reflection" if mode == "reflect" else "replication"
        raise NotImplementedError(f'"{kernel}_pad{nd}d" not implemented for \'Bool\'')
    return OPS[f"{mode}_pad{nd}d"](input, pad=pad)


def torch_constant_pad_nd(input, pad, value=0):
    """torch.constant_pad_nd: ATen's own checks (F.pad's Python ones differ), then the constant_pad_nd row."""
    _tensor("constant_pad_nd", input, "input", 1)
    pad = tuple(_int_list("constant_pad_nd", "pad", 2, pad, allow_int=False, sym=True))
    shape = input._data.shape
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > len(shape):
        # (PyTorch's message runs the numbers into the words)
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(pad)}while the input has {len(shape)}dimensions.")
    for i in range(len(pad) // 2):
        size = shape[len(shape) - 1 - i]
        left, right = pad[2 * i], pad[2 * i + 1]
        if (left < 0 and size + left < 0) or (right < 0 and size + min(left, 0) + right < 0):
            raise RuntimeError("narrow(): length must be non-negative.")
    _checked_fill(value, input._data.dtype)
    return OPS["constant_pad_nd"](input, pad=pad, value=value)


def _pad_circular(input, pad):
    """torch's _pad_circular: the input copied into the middle of an empty tensor, then each padded dim's
    left and right borders copied from the other end of the result (so the graph is PyTorch's chain of
    CopySlices; corners are written more than once)."""
    in_shape = input._data.shape
    nd = len(pad) // 2
    lead = len(in_shape) - nd
    out_shape = list(in_shape)
    for i in range(nd):
        left, right = pad[2 * (nd - i - 1)], pad[2 * (nd - i - 1) + 1]
        size = in_shape[lead + i]
        out_shape[lead + i] = size + left + right
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[lead + i] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for i in range(nd):
        dim = nd - i + lead - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        start, stop = max(left, 0), out_shape[dim] - max(right, 0)
        out_slice = out_slice.narrow(dim, start, stop - start)
        start, stop = max(-left, 0), in_shape[dim] - max(-right, 0)
        in_slice = in_slice.narrow(dim, start, stop - start)
    out_slice.copy_(in_slice)
    for i in range(nd):
        dim = nd - i + lead - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        if left > 0:
            out.narrow(dim, 0, left).copy_(out.narrow(dim, out_shape[dim] - left - max(right, 0), left))
        if right > 0:
            start = max(left, 0)
            if start + right <= out_shape[dim] - right:
                out.narrow(dim, out_shape[dim] - right, right).copy_(out.narrow(dim, start, right))
            else:       # (a cropped left side: the two overlap, and torch's copy runs element after element)
                for j in range(right):
                    out.narrow(dim, out_shape[dim] - right + j, 1).copy_(out.narrow(dim, start + j, 1))
    return out


# --- transposed convolution ------------------------------------------------------------------------------

def _conv_transpose(fn, dim, input, weight, bias, stride, padding, output_padding, groups, dilation):
    """torch's _convolution(transposed=True): its checks in its order, then the conv_transpose row (one
    ConvolutionBackward0 node, unbatched inputs included)."""
    _tensor(fn, input, "input", 1)
    _tensor(fn, weight, "weight", 2)
    if bias is not None:
        _tensor(fn, bias, "bias", 3)
    shape = input._data.shape
    batched_only = dim is None
    if batched_only:
        dim = max(len(shape) - 2, 1)
    elif len(shape) not in (dim + 1, dim + 2):
        raise RuntimeError(f"Expected {dim + 1}D (unbatched) or {dim + 2}D (batched) input to {fn}, but got input "
                           f"of size: {_dims(shape)}")
    unbatched = len(shape) == dim + 1 and not batched_only
    if unbatched:
        shape = (1,) + shape
    w_shape = weight._data.shape
    k = len(w_shape) - 2
    if k < 1:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride = _expand("stride", stride, k, dim)
    padding = _expand("padding", padding, k, dim)
    dilation = _expand("dilation", dilation, k, dim)
    output_padding = _expand("output_padding", output_padding, k, dim)
    _check_geometry(shape, w_shape, stride, padding, dilation, groups, output_padding)
    if shape[1] != w_shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {_dims(w_shape)}, expected input{_dims(shape)} to "
                           f"have {w_shape[0]} channels, but got {shape[1]} channels instead")
    out_channels = w_shape[1] * groups
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != out_channels):
        raise RuntimeError(f"Given transposed=1, weight of size {_dims(w_shape)}, expected bias to be 1-dimensional "
                           f"with {out_channels} elements, but got bias of size {_dims(bias._data.shape)} instead")
    x_dtype, w_dtype = input._data.dtype, weight._data.dtype
    onednn = _onednn(x_dtype, shape, w_shape, groups, any(s != 1 for s in stride), any(d != 1 for d in dilation))
    if 0 in dilation and not onednn:   # (the slow kernel's own check, before the dtypes'; 1-d runs as 2-d)
        d2 = (1, dilation[0]) if k == 1 else dilation
        axes = ("depth", "height", "width")[-len(d2):]
        raise RuntimeError("dilation should be greater than zero, but got " +
                           ", ".join(f"dilation_{axis}: {v}" for axis, v in zip(axes, d2)))
    if x_dtype != w_dtype:
        if x_dtype.itemsize < w_dtype.itemsize:
            raise RuntimeError(f"Input type ({_LEGACY_NAMES.get(x_dtype.name)}) and weight type "
                               f"({_LEGACY_NAMES.get(w_dtype.name)}) should be the same or input should be a MKLDNN "
                               "tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {_name(input)} but found {_name(weight)}")
    if bias is not None and bias._data.dtype != x_dtype:
        raise RuntimeError(f"Input type ({_LEGACY_NAMES.get(x_dtype.name)}) and bias type "
                           f"({_LEGACY_NAMES.get(bias._data.dtype.name)}) should be the same or input should be a "
                           "MKLDNN tensor and bias is a dense tensor")
    # (PyTorch's 1-d runs as 2-d with a height of 1: its messages name both)
    s2, p2, d2, o2 = ((1, stride[0]), (0, padding[0]), (1, dilation[0]), (0, output_padding[0])) if k == 1 else \
        (stride, padding, dilation, output_padding)
    if any(o >= s and o >= d for o, s, d in zip(o2, s2, d2)):
        axes = ("depth", "height", "width")[-len(o2):]
        parts = [f"{what}_{axis}: {v}" for what, values in (("output_padding", o2), ("stride", s2), ("dilation", d2))
                 for axis, v in zip(axes, values)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(parts))
    if any(d == 0 for d in dilation):
        if k == 3:
            raise RuntimeError("dimensions are invalid")
        raise RuntimeError("could not create a primitive descriptor for the deconvolution forward propagation "
                           "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get additional "
                           "diagnostic information.")
    sizes = [(n - 1) * s - 2 * p + d * (kk - 1) + o + 1
             for n, s, p, d, kk, o in zip(shape[2:], stride, padding, dilation, w_shape[2:], output_padding)]
    if any(n < 1 for n in sizes):
        raise RuntimeError("could not construct a memory descriptor using a format tag")
    if unbatched:
        input = input.unsqueeze(0)
    out_shape = (shape[0], out_channels) + tuple(sizes)
    out = OPS["conv_transpose"](input, weight, bias, stride=tuple(s2), padding=tuple(p2), dilation=tuple(d2),
                                groups=groups, input_shape=shape, output_shape=out_shape, weight_shape=w_shape)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


__all__ += ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]


# --- power-average pooling: torch's composition (an average pooling of x^p, scaled back up, to the power 1/p) ---

def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = (tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else (kernel_size, kernel_size))
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kw, kh = (tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else (kernel_size,) * 3)
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool3d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kd * kw * kh).pow(1.0 / norm_type)


__all__ += ["lp_pool1d", "lp_pool2d", "lp_pool3d"]


# --- max unpooling -------------------------------------------------------------------------------------

def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    default_size = [(input_size[-len(kernel_size) + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
                    for d in range(len(kernel_size))]
    if output_size is None:
        return default_size
    if len(output_size) == len(kernel_size) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel_size):
        raise ValueError(f"output_size should be a sequence containing {len(kernel_size)} or {len(kernel_size) + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(len(kernel_size)):
        min_size, max_size = default_size[d] - stride[d], default_size[d] + stride[d]
        if not min_size < output_size[d] < max_size:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {min_size} and {max_size})')
    return output_size


def _max_unpool2d(input, indices, output_size):
    """torch._C._nn.max_unpool2d: its checks, then the max_unpool2d row."""
    _tensor("max_unpool2d", input, "input", 1)
    _tensor("max_unpool2d", indices, "indices", 2)
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_name(indices)}")
    shape = input._data.shape
    if len(shape) not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {len(shape)} "
                           "dimensions.")
    if indices._data.shape != shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({_dims(shape)}) but got "
                           f"indices tensor with shape: {_dims(indices._data.shape)}")
    oh, ow = (int(v) for v in output_size)
    bad = indices._data[(indices._data < 0) | (indices._data >= oh * ow)]
    if bad.size:
        # (PyTorch's kernel scans every plane and reports the last bad index it met)
        raise RuntimeError(f"Found an invalid max index: {int(bad.flat[-1])} (output volumes are of size {oh}x{ow})")
    _not_implemented("max_unpool2d", input, "f")
    return OPS["max_unpool2d"](input, indices=indices._data, output_size=(oh, ow))


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else (kernel_size, kernel_size)
    stride = kernel_size if stride is None else (tuple(stride) if isinstance(stride, (list, tuple)) else (stride, stride))
    padding = tuple(padding) if isinstance(padding, (list, tuple)) else (padding, padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool2d(input, indices, output_size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else (kernel_size,)
    stride = kernel_size if stride is None else (tuple(stride) if isinstance(stride, (list, tuple)) else (stride,))
    padding = tuple(padding) if isinstance(padding, (list, tuple)) else (padding,)
    output_size = list(_unpool_output_size(input, kernel_size, stride, padding, output_size)) + [1]
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), output_size).squeeze(-1)


__all__ += ["max_unpool1d", "max_unpool2d"]


def _max_unpool3d(input, indices, output_size, stride, padding):
    """torch._C._nn.max_unpool3d: its checks (max_unpooling3d_shape_check), then the max_unpool3d row."""
    _tensor("max_unpool3d", input, "input", 1)
    _tensor("max_unpool3d", indices, "indices", 2)
    shape = input._data.shape
    if indices._data.dtype != np.int64:
        raise RuntimeError("elements in indices should be type int64")
    if len(shape) not in (4, 5):
        raise RuntimeError(f"Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {len(shape)} "
                           "dimensions.")
    if len(output_size) != 3:
        raise RuntimeError(f"There should be exactly three elements (depth, height, width) in output_size, but got "
                           f"{len(output_size)} elements.")
    if len(stride) != 3:
        raise RuntimeError(f"There should be exactly three elements (depth, height, width) in stride, but got: "
                           f"{len(stride)} elements.")
    if len(padding) != 3:
        raise RuntimeError(f"There should be exactly three elements (depth, height, width) in padding, but got: "
                           f"{len(padding)} elements.")
    if indices._data.shape != shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({_dims(shape)}) but got "
                           f"indices tensor with shape: {_dims(indices._data.shape)}")
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"max_unpooling3d(): Expected input to have non-zero size for non-batch dimensions, but "
                               f"got {_dims(shape)} with dimension {i} being empty.")
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: {_dims(stride)}")
    od, oh, ow = (int(v) for v in output_size)
    bad = indices._data[(indices._data < 0) | (indices._data >= od * oh * ow)]
    if bad.size:
        raise RuntimeError(f"Found an invalid max index: {int(bad.flat[-1])} (output volumes are of size "
                           f"{od}x{oh}x{ow})")
    _not_implemented("max_unpool3d", input, "f")
    return OPS["max_unpool3d"](input, indices=indices._data, output_size=(od, oh, ow))


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = tuple(kernel_size) if isinstance(kernel_size, (list, tuple)) else (kernel_size,) * 3
    stride = kernel_size if stride is None else (tuple(stride) if isinstance(stride, (list, tuple)) else (stride,) * 3)
    padding = tuple(padding) if isinstance(padding, (list, tuple)) else (padding,) * 3
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _max_unpool3d(input, indices, output_size, stride, padding)


__all__ += ["max_unpool3d"]
