"""nn.functional: the activations beyond nn/functional.py's (celu, selu, the shrinks, threshold, rrelu, glu,
the in-place forms) and the other dropouts (alpha, feature, 1d/2d/3d), as PyTorch writes them (imported by
gradlab/nn/functional.py, and by gradlab/__init__.py for the torch.<fn> forms PyTorch also has).

The random ones draw from the default generator exactly as PyTorch's kernels do, so that under
manual_seed they zero (or scale) the same numbers as PyTorch."""
import math

import numpy as np

from ... import _signatures, random as _random
from ..._argparse.wrappers import _vetter
from ..._tensor_core import _wrap_dim
from ...ops.inplace import _check_inplace_allowed, check_overlaps as _check_overlaps
from ...ops.registry import OPS
from ...tensor import Tensor
from .. import functional as F
from ... import _warnings

__all__ = ["celu", "celu_", "selu", "selu_", "tanhshrink", "hardshrink", "softshrink", "threshold", "threshold_",
           "rrelu", "rrelu_", "glu", "elu_", "leaky_relu_", "relu_", "alpha_dropout", "feature_alpha_dropout",
           "dropout1d", "dropout2d", "dropout3d"]

# PyTorch's SELU constants (Activation.cpp)
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _float_kernel(kernel, input):
    F._float_only(kernel, input)


def _inplace_checks(input):
    """An in-place form's checks before its kernel's: autograd's (a leaf that requires grad), then
    TensorIterator's (an expanded tensor would write one number twice)."""
    _check_inplace_allowed(input)
    _check_overlaps(input, ())


# --- elu family ------------------------------------------------------------------------------------------
def celu(input, alpha=1.0, inplace=False):
    """elu(x, alpha) with x / alpha inside the exponential (CeluBackward0)."""
    return celu_(input, alpha) if inplace else _celu("celu", input, alpha, False)


def celu_(input, alpha=1.0):
    return _celu("celu_", input, alpha, True)


def _celu(name, input, alpha, inplace):
    F._tensor_arg(name, input)
    F._number_arg(name, alpha, "alpha", 2)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        _inplace_checks(input)
    _float_kernel("elu_cpu", input)
    if inplace:
        return input._inplace("celu_inplace", alpha=alpha)
    return OPS["celu"](input, alpha=alpha)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with PyTorch's two constants (EluBackward0)."""
    return selu_(input) if inplace else _selu("selu", input, False)


def selu_(input):
    return _selu("selu_", input, True)


def _selu(name, input, inplace):
    F._tensor_arg(name, input)
    if inplace:
        _inplace_checks(input)
    _float_kernel("elu_cpu", input)
    if inplace:         # torch records the in-place form as EluBackward1 (it saves the result)
        return input._inplace("elu_inplace", alpha=_SELU_ALPHA, scale=_SELU_SCALE, input_scale=1)
    return OPS["elu"](input, alpha=_SELU_ALPHA, scale=_SELU_SCALE, input_scale=1)


def elu_(input, alpha=1, scale=1, input_scale=1):
    """torch's C elu_ (EluBackward1), with its scale and input_scale."""
    F._tensor_arg("elu_", input)
    F._number_arg("elu_", alpha, "alpha", 2)
    _inplace_checks(input)
    _float_kernel("elu_cpu", input)
    return input._inplace("elu_inplace", alpha=alpha, scale=scale, input_scale=input_scale)


def leaky_relu_(input, negative_slope=0.01):
    return F.leaky_relu(input, negative_slope, inplace=True)


def relu_(input):
    return F.relu(input, inplace=True)


# --- shrinks and threshold -------------------------------------------------------------------------------
def tanhshrink(input):
    """input - tanh(input), as torch composes it (SubBackward0)."""
    return input - input.tanh()


def hardshrink(input, lambd=0.5):
    """0 inside [-lambd, lambd], input elsewhere (HardshrinkBackward0)."""
    F._tensor_arg("hardshrink", input)
    F._number_arg("hardshrink", lambd, "lambd", 2)
    _float_kernel("hardshrink_cpu", input)
    return OPS["hardshrink"](input, lambd=lambd)


_FLOAT_MAX = {"float32": "3.40282e+38", "float64": "1.79769e+308", "float16": "65504"}


def softshrink(input, lambd=0.5):
    """input - lambd above lambd, input + lambd below -lambd, 0 between (SoftshrinkBackward0)."""
    F._tensor_arg("softshrink", input)
    F._number_arg("softshrink", lambd, "lambd", 2)
    _float_kernel("softshrink_check", input)
    dtype = input._data.dtype
    if dtype.kind == "f" and not (0 <= lambd <= np.finfo(dtype).max):
        raise RuntimeError(f"lambda must be in range [0, {_FLOAT_MAX[dtype.name]}] for input dtype "
                           f"{F._scalar_name(input)}, but found {_g6(lambd)}")
    return OPS["softshrink"](input, lambd=lambd)


def _g6(x):
    """A double as C++'s ostream prints it (6 significant digits)."""
    return f"{x:g}" if not isinstance(x, bool) else str(int(x))


def _threshold(input, threshold, value, inplace=False):
    """value where input <= threshold, else input (ThresholdBackward0). (torch's Python name: F.threshold
    is its _threshold.)"""
    if inplace:
        return threshold_(input, threshold, value)
    return _run_threshold("threshold", input, threshold, value, False)


threshold = _threshold


def threshold_(input, threshold, value):
    return _run_threshold("threshold_", input, threshold, value, True)


_C_INT_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def _overflows(number, dtype):
    """c10::overflows: a number outside the integer dtype's range (an integer may wrap into an unsigned one)."""
    info = np.iinfo(dtype)
    if isinstance(number, (bool, np.bool_)):
        return False
    if isinstance(number, (int, np.integer)) and dtype.kind == "u" and number < 0:
        return -int(number) > info.max
    return not info.min <= number <= info.max


def _run_threshold(name, input, threshold, value, inplace):
    F._tensor_arg(name, input)
    F._number_arg(name, threshold, "threshold", 2)
    F._number_arg(name, value, "value", 3)
    if inplace:
        _inplace_checks(input)
    dtype = input._data.dtype
    if dtype.kind in "bc":
        raise NotImplementedError(f'"threshold_cpu" not implemented for \'{F._scalar_name(input)}\'')
    if dtype.kind in "iu":
        # the kernel reads both Scalars in the dtype with c10's overflow check (an int may wrap into an
        # unsigned type, -1 -> 255; a float may not), then as C's casts
        for number in (threshold, value):
            if _overflows(number, dtype):
                raise RuntimeError(f"value cannot be converted to type {_C_INT_TYPES[dtype.name]} without overflow")
        threshold = int(np.array(int(threshold)).astype(np.int64).astype(dtype))
        value = int(np.array(int(value)).astype(np.int64).astype(dtype))
    if inplace:
        return input._inplace("threshold_inplace", threshold=threshold, value=value)
    return OPS["threshold"](input, threshold=threshold, value=value)


# --- rrelu -----------------------------------------------------------------------------------------------
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """leaky_relu with a slope drawn uniformly from [lower, upper] for each negative number in training,
    the mean slope (lower + upper) / 2 otherwise (RreluWithNoiseBackward0)."""
    return rrelu_(input, lower, upper, training) if inplace else _rrelu("rrelu", input, lower, upper, training,
                                                                         False)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _rrelu("rrelu_", input, lower, upper, training, True)


def _rrelu(name, input, lower, upper, training, inplace, generator=None):
    F._tensor_arg(name, input)
    F._number_arg(name, lower, "lower", 2)
    F._number_arg(name, upper, "upper", 3)
    if not lower <= upper:      # (nan fails it too)
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if inplace:
        _inplace_checks(input)
    if training and input._data.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"rrelu_with_noise_out_cpu" not implemented for \'{F._scalar_name(input)}\'')
    _float_kernel("leaky_relu_cpu", input)
    x = input._data
    noise = np.ones(x.shape, x.dtype)       # (torch's empty_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT))
    if training:
        # torch draws one double per non-positive element, in row-major order (of input.contiguous()): u =
        # 53 bits of a 64-bit draw / 2**53, the slope u * (upper - lower) + lower in double, with lower and
        # upper rounded to the tensor's dtype first (measured against torch's numbers)
        negative = x <= 0
        count = int(np.count_nonzero(negative))
        if count:
            gen = _random.default_generator if generator is None else generator
            u = gen._unit_f64(count)
            lo, hi = float(x.dtype.type(lower)), float(x.dtype.type(upper))
            slopes = u * (hi - lo) + lo
            noise[negative] = slopes.astype(x.dtype)
    params = dict(noise=noise, lower=float(lower), upper=float(upper), training=bool(training))
    if inplace:
        return input._inplace("rrelu_with_noise_inplace", **params)
    return OPS["rrelu_with_noise"](input, **params)


# --- glu -------------------------------------------------------------------------------------------------
def glu(input, dim=-1):
    """a * sigmoid(b), a and b the two halves of input along dim (GluBackward0)."""
    if input.dim() == 0:               # (PyTorch's first use of input: F.glu('a') is an AttributeError)
        raise RuntimeError("glu does not support scalars because halving size must be even")
    nd = input._data.ndim
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):     # (torch's C glu's parser)
        raise TypeError(f"glu(): argument 'dim' (position 2) must be int, not {F._argparse_type_name(dim)}")
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})")
    d = _wrap_dim(int(dim), nd)          # (the node keeps the dim as given: a WrappedDim)
    if input._data.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input._data.shape[d]}")
    _float_kernel("glu_cpu", input)
    return OPS["glu"](input, dim=d)


# --- dropouts --------------------------------------------------------------------------------------------
def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _noise_dropout(input, p, train, feature, alpha, inplace):
    """ATen's _dropout_impl: noise = bernoulli(1 - p) (one per number, or per (sample, channel) for the
    feature forms), then input * noise / (1 - p), or for alpha dropout input * a * noise + b."""
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input._data.size == 0:
        return input
    x = input._data
    if p == 1:
        zero = Tensor._make(np.zeros((), x.dtype))
        return input.mul_(zero) if inplace else input * zero
    if feature and input._data.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type {F._scalar_name(input)}")
    math_dtype = np.dtype(np.float32) if x.dtype == np.float16 else x.dtype
    if feature:
        shape = x.shape[:2] + (1,) * (x.ndim - 2)
        keep = _random.default_generator._unit_f64(math.prod(shape)).reshape(shape) < (1.0 - p)
    else:
        keep = F._in_memory_order(_random.default_generator._unit_f64(x.size), x) < (1.0 - p)
    noise = keep.astype(math_dtype)
    if not alpha:
        noise = (noise / math_dtype.type(1.0 - p)).astype(x.dtype, copy=False)
        noise_t = Tensor._make(noise)
        return input.mul_(noise_t) if inplace else input * noise_t
    # alpha dropout keeps SELU's mean and variance: b = (noise - 1) * alpha * a + alpha * a * p
    alpha_ = 1.7580993408473766
    a = 1.0 / math.sqrt((alpha_ * alpha_ * p + 1) * (1 - p))
    t, dtype = math_dtype.type, x.dtype      # (each step rounded to the dtype, as torch's in-place ops round)
    b = ((((noise + t(-1)) * t(alpha_ * a)).astype(dtype)).astype(math_dtype) + t(alpha_ * a * p)).astype(dtype)
    noise = (noise * t(a)).astype(dtype, copy=False)
    noise_t, b_t = Tensor._make(noise), Tensor._make(b)
    out = input.mul_(noise_t) if inplace else input * noise_t
    return out.add_(b_t)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped numbers become SELU's negative saturation value, then the
    whole is scaled and shifted to keep the mean and variance (MulBackward0, AddBackward0)."""
    _check_p(p)
    return (_VF["alpha_dropout_"] if inplace else _VF["alpha_dropout"])(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels (one draw per (sample, channel))."""
    _check_p(p)
    return (_VF["feature_alpha_dropout_"] if inplace else _VF["feature_alpha_dropout"])(input, p, training)


def _feature_dropout(input, p, training, inplace):
    return (_VF["feature_dropout_"] if inplace else _VF["feature_dropout"])(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) inputs."""
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    batched = inp_dim == 3
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) or (C, H, W) inputs (a 3-d input is read as (N, C, L), with
    PyTorch's warning)."""
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        _warnings.warn(f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated and will result in "
                       "an error in a future release. To retain the behavior and silence this warning, please use "
                       "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                       "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                       "inputs).")
    if inp_dim == 3:
        _warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                       "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                       "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                       "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                       "dropout1d instead.")
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs."""
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        _warnings.warn(f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated and will result in "
                       "an error in a future release. To retain the behavior and silence this warning, please use "
                       "dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 "
                       "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                       "inputs).")
    batched = inp_dim == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


# torch.<fn> forms (torch.alpha_dropout(input, p, train), torch.feature_dropout_, ...): the C functions,
# each _noise_dropout with its (feature, alpha, inplace) flags
def _torch_dropout(name, feature, alpha, inplace):
    def dropout(input, p, train):
        F._tensor_arg(name, input)
        return _noise_dropout(input, p, train, feature, alpha, inplace)
    dropout.__name__ = dropout.__qualname__ = name
    return dropout


torch_alpha_dropout = _torch_dropout("alpha_dropout", False, True, False)
torch_alpha_dropout_ = _torch_dropout("alpha_dropout_", False, True, True)
torch_feature_alpha_dropout = _torch_dropout("feature_alpha_dropout", True, True, False)
torch_feature_alpha_dropout_ = _torch_dropout("feature_alpha_dropout_", True, True, True)
torch_feature_dropout = _torch_dropout("feature_dropout", True, False, False)
torch_feature_dropout_ = _torch_dropout("feature_dropout_", True, False, True)
torch_dropout_ = _torch_dropout("dropout_", False, False, True)


def torch_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """torch.rrelu (a generator may stand in for the default one)."""
    return _rrelu("rrelu", input, lower, upper, training, False, generator)


def torch_rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _rrelu("rrelu_", input, lower, upper, training, True, generator)


def torch_threshold(input, threshold, value):
    return _run_threshold("threshold", input, threshold, value, False)


def torch_threshold_(input, threshold, value):
    return _run_threshold("threshold_", input, threshold, value, True)


def torch_celu(input, alpha=1.0):
    return _celu("celu", input, alpha, False)


def torch_selu(input):
    return _selu("selu", input, False)


# the C functions as torch._VF gives them to nn.functional: PyTorch's argument errors (train=2 is no bool).
# (A checked() form passes gradlab's own calls as written: these vet every call, as torch's parser does.)
def _vf(name, fn):
    vet = _vetter(_signatures.TORCH[name])

    def call(*args):
        return fn(*vet(args, {})[0])
    return call


_VF = {name: _vf(name, fn) for name, fn in (
    ("alpha_dropout", torch_alpha_dropout), ("alpha_dropout_", torch_alpha_dropout_),
    ("feature_alpha_dropout", torch_feature_alpha_dropout), ("feature_alpha_dropout_", torch_feature_alpha_dropout_),
    ("feature_dropout", torch_feature_dropout), ("feature_dropout_", torch_feature_dropout_))}
