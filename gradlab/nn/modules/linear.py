"""torch/nn/modules/linear.py: Identity, Linear and Bilinear."""
import math

import numpy as np

from ... import _argparse, creation
from ...autograd import grad_mode
from ... import random as _random
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module
from ... import _warnings

__all__ = ["Bilinear", "Identity", "LazyLinear", "Linear"]

# torch.empty as users call it: PyTorch's errors for bad sizes and dtypes (nn.Linear(2.5, 3))
_empty = _argparse.checked("empty", creation.empty)


class Identity(Module):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x @ weight.T + bias, initialised exactly as torch's nn.Linear (same random stream)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        # torch first makes the (uninitialised) Parameters: its errors for bad sizes, devices and dtypes
        self.weight = Parameter(_empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        dtype = self.weight._data.dtype
        draw = np.float32 if dtype == np.float16 else dtype       # torch draws half values as floats
        if self.weight.is_meta:     # (no numbers on the meta device: nothing drawn, the generator stays put)
            if not self.weight._data.size:
                _warnings.warn("Initializing zero-element tensors is a no-op", UserWarning)
            w, b = self.weight._data, None if self.bias is None else self.bias._data
        elif self.weight._data.size:
            w, b = _random.linear_init(self.in_features, self.out_features, self.bias is not None, draw)
        else:       # nothing to draw for the weight (torch warns); the bias is drawn from U(0, 0)
            _warnings.warn("Initializing zero-element tensors is a no-op", UserWarning)
            w = self.weight._data
            b = _random.default_generator.uniform((self.out_features,), draw, 0.0, 0.0)
        self.weight._data[...] = w
        self.weight._version_counter[0] += 1
        if self.bias is not None:
            self.bias._data[...] = b
            self.bias._version_counter[0] += 1

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features comes from its first input (then it becomes a Linear)."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class Bilinear(Module):
    """y = x1^T A x2 + b, initialised as torch's nn.Bilinear: weight and bias from U(-1/sqrt(in1), 1/sqrt(in1))."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(_empty((out_features, in1_features, in2_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name: nn.MultiheadAttention's out_proj (PyTorch names it so that dynamic
    quantization leaves it alone; it prints as NonDynamicallyQuantizableLinear)."""
