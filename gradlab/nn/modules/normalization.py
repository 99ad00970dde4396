"""torch/nn/modules/normalization.py: LayerNorm, GroupNorm, RMSNorm (weight ones, bias zeros), LocalResponseNorm
and CrossMapLRN2d."""
import numbers

import numpy as np

from ... import _argparse, _signatures, creation
from ..._argparse.wrappers import _vetter
from ...autograd.function import Function
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "GroupNorm"]

_empty = _argparse.checked("empty", creation.empty)
# torch.empty's argument check for every call (a checked() form passes gradlab's own calls as written)
_vet_empty = _vetter(_signatures.TORCH["empty"])


class LayerNorm(Module):
    """Normalizes over the trailing `normalized_shape` dims, then scales and shifts elementwise."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            self.weight = Parameter(_empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(_empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """Channels split into num_groups groups, each normalized over its channels and positions."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if self.affine:
            self.weight = Parameter(_empty(num_channels, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(_empty(num_channels, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Divides by the root mean square over the trailing `normalized_shape` dims, then scales elementwise."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if self.elementwise_affine:
            _vet_empty((self.normalized_shape,), {})      # (torch.empty's TypeError for RMSNorm(True))
            self.weight = Parameter(_empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    """Each channel divided by (k + alpha * the mean square over `size` neighbouring channels) ** beta."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class _CrossMapLRN2dFunction(Function):
    """torch/nn/modules/_functions.py's CrossMapLRN2d, a custom Function (its node: CrossMapLRN2dBackward):
    the same running sums over the channels, on the arrays."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        x = input._data
        t = x.dtype.type
        channels = x.shape[1]
        square = x * x
        pre_pad = int((size - 1) / 2 + 1)
        scale = np.zeros_like(x)
        for c in range(min(pre_pad, channels)):
            scale[:, 0] += square[:, c]
        for c in range(1, channels):
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre_pad + 1:
                scale[:, c] += square[:, c + pre_pad - 1]
            if c > pre_pad:
                scale[:, c] -= square[:, c - pre_pad]
        scale = scale * t(alpha / size) + t(k)
        ctx.scale = scale
        output = (scale ** t(-beta)) * x
        result = Tensor._make(output.astype(x.dtype, copy=False))
        ctx.save_for_backward(input, result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        x, y, g, scale = input._data, output._data, grad_output._data, ctx.scale
        t = x.dtype.type
        batch, channels = x.shape[:2]
        size = ctx.size
        cache_ratio = t(2 * ctx.alpha * ctx.beta / size)
        inverse_pre_pad = int(size - (size - 1) / 2)
        grad_input = (scale ** t(-ctx.beta)) * g
        padded = np.zeros((channels + size - 1,) + x.shape[2:], x.dtype)
        for n in range(batch):
            padded[inverse_pre_pad:inverse_pre_pad + channels] = g[n] * y[n] / scale[n]
            accum = padded[:size - 1].sum(0)
            for c in range(channels):
                accum = accum + padded[c + size - 1]
                grad_input[n, c] = grad_input[n, c] + x[n, c] * accum * -cache_ratio
                accum = accum - padded[c]
        return Tensor._make(grad_input.astype(x.dtype, copy=False)), None, None, None, None


_CrossMapLRN2dFunction.__name__ = _CrossMapLRN2dFunction.__qualname__ = "CrossMapLRN2d"


class CrossMapLRN2d(Module):
    """LocalResponseNorm of 4-d inputs, computed as PyTorch's legacy Lua-era Function."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return _CrossMapLRN2dFunction.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


__all__ += ["RMSNorm", "LocalResponseNorm", "CrossMapLRN2d"]
