"""Activations' gradients at their corners against torch, as printed: inputs at and beyond each kink
(-3, 0, 3, 6), signed zeros, infinities and nan, upstream gradients of -1, 2, -0.0 and nan. PyTorch's
kernels write a literal 0 in a flat region (+0 whatever the upstream gradient's sign) and let a nan input
pass the gradient where their comparisons are false; a -0.0 gradient stays -0.0 (printed `-0.`)."""
import warnings

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

INPUTS = [-5.0, -3.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.0, 6.0, 7.0, float("inf"), float("-inf"), float("nan")]
NAMES = ["relu", "relu6", "hardtanh", "hardswish", "hardsigmoid", "leaky_relu", "elu", "selu", "celu", "gelu",
         "silu", "mish", "softplus", "sigmoid", "tanh", "logsigmoid", "hardshrink", "softshrink", "tanhshrink",
         "softsign", "threshold"]


def _grad(T, name, upstream, dtype):
    x = T.tensor(INPUTS, dtype=getattr(T, dtype), requires_grad=True)
    fn = getattr(T.nn.functional, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y = fn(x, 0.5, 0.0) if name == "threshold" else fn(x)
        y.backward(T.full((len(INPUTS),), upstream, dtype=getattr(T, dtype)))
    return str(x.grad)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("upstream", [-1.0, 2.0, -0.0, float("nan")])
@pytest.mark.parametrize("name", NAMES)
def test_activation_gradient_at_corners_prints_as_torch(name, upstream, dtype):
    assert _grad(gradlab, name, upstream, dtype) == _grad(torch, name, upstream, dtype)


@pytest.mark.parametrize("value", [-0.0, 0.0, 2.5, -1, complex(0, -0.0)])
def test_full_keeps_the_sign_of_zero(value):
    assert str(gradlab.full((3,), value)) == str(torch.full((3,), value))
    assert str(gradlab.ones(2).new_full((2,), value)) == str(torch.ones(2).new_full((2,), value))
