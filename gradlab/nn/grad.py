"""torch.nn.grad: the gradients of a convolution with respect to its input and its weight, as functions.

Each is the backward of the convolution itself: the convolution is run on a stand-in that requires grad,
and autograd takes `grad_output` back through it (the same kernels `loss.backward()` runs).
"""
from .. import autograd, enable_grad, zeros
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _graph(*tensors):
    """Whether the gradient is itself recorded (PyTorch's convolution_backward is differentiable:
    ConvolutionBackwardBackward0), as when its other operands require grad."""
    from ..autograd import grad_mode
    return grad_mode._state["enabled"] and any(t.requires_grad for t in tensors)


def _input_grad(conv, input_size, weight, grad_output, stride, padding, dilation, groups):
    graph = _graph(weight, grad_output)
    with enable_grad():
        stand_in = zeros(tuple(input_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(stand_in, weight if graph else weight.detach(), None, stride, padding, dilation, groups)
        return autograd.grad(out, stand_in, grad_output, create_graph=graph)[0]


def _weight_grad(conv, input, weight_size, grad_output, stride, padding, dilation, groups):
    graph = _graph(input, grad_output)
    with enable_grad():
        stand_in = zeros(tuple(weight_size), dtype=grad_output.dtype, requires_grad=True)
        out = conv(input if graph else input.detach(), stand_in, None, stride, padding, dilation, groups)
        return autograd.grad(out, stand_in, grad_output, create_graph=graph)[0]


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to its input (of shape input_size)."""
    return _input_grad(F.conv1d, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to its weight (of shape weight_size)."""
    return _weight_grad(F.conv1d, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to its input (of shape input_size)."""
    return _input_grad(F.conv2d, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to its weight (of shape weight_size)."""
    return _weight_grad(F.conv2d, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to its input (of shape input_size)."""
    return _input_grad(F.conv3d, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to its weight (of shape weight_size)."""
    return _weight_grad(F.conv3d, input, weight_size, grad_output, stride, padding, dilation, groups)
