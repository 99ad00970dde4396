"""Complex numbers: conj, conj_physical and angle (PyTorch's UnaryOps.cpp), with their gradients.

PyTorch's gradient of a complex input is the conjugate Wirtinger one, so most formulas of the table
carry a `.conj()` (derivatives.yaml's `grad * other.conj()`); dual.conj is that step, and costs one
dtype check when the values are real (conj of a real number is itself).

`x.conj()` of a real tensor is `x` itself, as in PyTorch (Tensor.conj in _tensor_methods/pointwise.py).
Of a complex tensor it is a copy here: PyTorch gives a lazy view (a conj bit on the same memory), which
numpy cannot express; the values, the dtype and the grad_fn (ConjBackward0) are PyTorch's.
"""
import math

import numpy as np

from . import dual
from .registry import op


@op("conj", "ConjBackward0", variants=("function", "method"),
    self=lambda g, n: dual.conj(g))
def conj(self):
    return np.conjugate(self)


@op("_neg_view", "NegViewBackward0", promote=False, shows={"self": "grad.neg()"},
    self=lambda g, n: -g)
def _neg_view(self):
    """PyTorch's lazy negation (a neg bit), as `.imag` of a conjugated tensor records it: a negated copy here."""
    return np.negative(self)


@op("conj_physical", "ConjPhysicalBackward0", variants=("function", "method", "inplace"),
    shows={"self": "grad.conj_physical()"},
    self=lambda g, n: dual.call("conj_physical", g) if isinstance(g, dual.Tensor) else dual.conj(g))
def conj_physical(self):
    return np.conjugate(self)


def _angle_grad(g, n):
    # PyTorch's angle_backward: grad * self / |self|**2 * 1j (0 where self is 0) for complex self, zeros else
    if dual.data(n.self).dtype.kind != "c":
        return dual.like(g, np.zeros_like(dual.data(n.self)))
    x = n.self
    return dual.where(x == 0, 0.0, dual.mul_scalar(g * x / (dual.call("abs", x) ** 2), 1j))   # (Scalar 1j: MulBackward1)


@op("angle", "AngleBackward0", variants=("function", "method"), saves=("self",), float_result=True, cast_result=False,
    shows={"self": "where(self == 0, 0, grad * self / self.abs() ** 2 * 1j) if self.is_complex() "
                   "else zeros_like(self)"},
    self=_angle_grad)
def angle(self):
    if self.dtype.kind == "c":
        return np.angle(self).astype(self.real.dtype)
    # real: 0 for x >= 0, pi for x < 0, nan kept (PyTorch's angle of a real number)
    return np.where(self < 0, self.dtype.type(math.pi), np.where(self != self, self, self.dtype.type(0)))


# --- complex numbers from two real tensors: torch.complex(real, imag), torch.polar(abs, angle) ---------------

def _real(g):
    """at::real(grad): the real part of a complex gradient, for a real input (a view of it, as PyTorch's)."""
    return g.real     # (on a Tensor a view: view_as_real, then select, as PyTorch's)


def _imag(g):
    """at::imag(grad): the imaginary part (a view; on Tensors the real part of -1j * grad)."""
    return g.imag


def _complex_dtype(x):
    return np.dtype(np.complex128 if x.dtype == np.float64 else np.complex64)


# (PyTorch saves each input that requires grad, for its forward-mode formula: the node is spent after a backward)
@op("complex", "ComplexBackward0", ("real", "imag"), variants=("function",), promote=False, cast_result=False,
    saves={"real": ("real",), "imag": ("imag",)},
    shows={"real": "grad.real", "imag": "grad.imag"},
    real=lambda g, n: _real(g),
    imag=lambda g, n: _imag(g))
def complex(real, imag):
    """real + 1j * imag (two float tensors of one dtype, checked by gradlab.complex)."""
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), _complex_dtype(real))
    out.real, out.imag = real, imag
    return out


def _polar_abs_grad(g, n):
    result = n.result
    sgn = dual.call("sgn", result) if isinstance(result, dual.Tensor) else _sgn(result)
    return _real(dual.conj(g) * sgn)


def _polar_angle_grad(g, n):
    return _real(dual.conj(g) * dual.mul_scalar(n.result, 1j))      # (result * Scalar(1j): MulBackward1)


def _sgn(z):
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.abs(z)
        return np.where(a == 0, 0, z / np.where(a == 0, 1, a)).astype(z.dtype)


@op("polar", "PolarBackward0", ("abs", "angle"), variants=("function",), promote=False, cast_result=False,
    saves=("result",),
    shows={"abs": "(grad.conj() * sgn(result)).real", "angle": "(grad.conj() * result * 1j).real"},
    abs=_polar_abs_grad,
    angle=_polar_angle_grad)
def polar(abs, angle):
    """abs * (cos(angle) + 1j * sin(angle)): C's cos and sin in the dtype (float64's rounded to float32), then
    the products."""
    shape = np.broadcast_shapes(abs.shape, angle.shape)
    out = np.empty(shape, _complex_dtype(abs))
    work = np.float64
    cos, sin = (f(np.asarray(angle, work)).astype(abs.dtype) for f in (np.cos, np.sin))
    with np.errstate(invalid="ignore", over="ignore"):
        out.real, out.imag = abs * cos, abs * sin
    return out
