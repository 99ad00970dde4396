"""The numbers torch.nn.init and nn.Linear draw (gradlab.nn.init wraps them in tensors)."""
import math

import numpy as np

from .default import default_generator
from .generator import _shape_tuple

# How torch.nn.init consumes the stream (checked against torch): every
# initialiser draws with ``Tensor.uniform_(-bound, bound)`` or
# ``Tensor.normal_(mean, std)`` on the whole (contiguous) parameter, i.e.
# exactly ``Generator.uniform(shape, dtype, -bound, bound)`` /
# ``Generator.normal(shape, dtype, mean, std)``; bounds are Python floats.
#   nn.Linear(in, out): weight = kaiming_uniform(a=sqrt(5)) -> bound 1/sqrt(in)
#   (computed as sqrt(3) * gain / sqrt(fan_in)), then
#   bias = uniform(-1/sqrt(in), 1/sqrt(in)), weight drawn first.


def fan_in_and_fan_out(shape):
    shape = _shape_tuple(shape)
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None) -> float:
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _gen(generator):
    return default_generator if generator is None else generator


def init_uniform(shape, dtype=np.float32, a=0.0, b=1.0, generator=None):
    return _gen(generator).uniform(shape, dtype, a, b)


def init_normal(shape, dtype=np.float32, mean=0.0, std=1.0, generator=None):
    return _gen(generator).normal(shape, dtype, mean, std)


def init_constant(shape, dtype=np.float32, val=0.0):
    return np.full(_shape_tuple(shape), val, dtype=dtype)


def _kaiming_std(shape, a, mode, nonlinearity):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    return gain / math.sqrt(fan)


def kaiming_uniform(shape, dtype=np.float32, a=0.0, mode="fan_in",
                    nonlinearity="leaky_relu", generator=None):
    bound = math.sqrt(3.0) * _kaiming_std(shape, a, mode, nonlinearity)
    return _gen(generator).uniform(shape, dtype, -bound, bound)


def kaiming_normal(shape, dtype=np.float32, a=0.0, mode="fan_in",
                   nonlinearity="leaky_relu", generator=None):
    std = _kaiming_std(shape, a, mode, nonlinearity)
    return _gen(generator).normal(shape, dtype, 0.0, std)


def xavier_uniform(shape, dtype=np.float32, gain=1.0, generator=None):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _gen(generator).uniform(shape, dtype, -a, a)


def xavier_normal(shape, dtype=np.float32, gain=1.0, generator=None):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _gen(generator).normal(shape, dtype, 0.0, std)


def linear_init(in_features, out_features, bias=True, dtype=np.float32, generator=None):
    """(weight, bias) exactly as ``nn.Linear(in_features, out_features)`` draws them."""
    weight = kaiming_uniform((out_features, in_features), dtype, a=math.sqrt(5),
                             generator=generator)
    b = None
    if bias:
        fan_in, _ = fan_in_and_fan_out((out_features, in_features))
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        b = _gen(generator).uniform((out_features,), dtype, -bound, bound)
    return weight, b
