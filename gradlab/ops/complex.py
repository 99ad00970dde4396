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

from .._tensor_core import Tensor
from . import dual
from .registry import OPS, op


@op("conj", "ConjBackward0", variants=("function", "method"),
    self=lambda g, n: dual.conj(g))
def conj(self):
    return np.conjugate(self)


@op("conj_physical", "ConjPhysicalBackward0", variants=("function", "method"),
    self=lambda g, n: dual.conj(g))
def conj_physical(self):
    return np.conjugate(self)


def _angle_grad(g, n):
    # PyTorch's angle_backward: grad * self / |self|**2 * 1j (0 where self is 0) for complex self, zeros else
    if dual.data(n.self).dtype.kind != "c":
        return dual.like(g, np.zeros_like(dual.data(n.self)))
    x = n.self
    return dual.where(x == 0, 0.0, g * x / (dual.call("abs", x) ** 2) * 1j)


@op("angle", "AngleBackward0", variants=("function", "method"), saves=("self",), float_result=True, cast_result=False,
    shows={"self": "where(self == 0, 0, grad * self / self.abs() ** 2 * 1j) if self.is_complex() "
                   "else zeros_like(self)"},
    self=_angle_grad)
def angle(self):
    if self.dtype.kind == "c":
        return np.angle(self).astype(self.real.dtype)
    # real: 0 for x >= 0, pi for x < 0, nan kept (PyTorch's angle of a real number)
    return np.where(self < 0, self.dtype.type(math.pi), np.where(self != self, self, self.dtype.type(0)))


@op("real_of_gradient", "SelectBackward0", cast_result=False,
    self=lambda g, n: g)        # (a real gradient; the engine makes it complex for the complex input)
def real_of_gradient(self):
    """The real part of a complex gradient arriving at a real input (PyTorch's handle_r_to_c, at::real: a
    select of view_as_real, hence the grad_fn's name), without the warning a cast to real gives. Internal:
    registry.sum_to_shape calls it; it is not gradlab.real (a view in PyTorch, not modelled yet)."""
    return self.real.copy()


# --- torch.complex and torch.polar: a complex tensor from two real ones ---------------------------------------

def _imag_of(g, n):
    """imag's gradient from a complex grad: its imaginary part (PyTorch's at::imag(grad))."""
    if not isinstance(g, Tensor):
        return np.imag(g)             # (a view of grad, as PyTorch's at::imag)
    return _real(g * -1j) if g._data.dtype.kind == "c" else g * 0


@op("complex", "ComplexBackward0", ("real", "imag"), variants=("function",), promote=False, cast_result=False,
    shows={"real": "grad.real", "imag": "grad.imag"},
    real=lambda g, n: g,                # (the node keeps the real part for the real input: registry.sum_to_shape)
    imag=_imag_of)
def complex_(real, imag):
    """real + imag * 1j, both of one floating dtype, broadcast (a -0.0 imaginary part kept)."""
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), np.result_type(real.dtype, np.complex64))
    out.real, out.imag = real, imag
    return out


@op("polar", "PolarBackward0", ("abs", "angle"), variants=("function",), promote=False, cast_result=False, saves=("abs", "angle"),
    shows={"abs": "(grad.conj() * sgn(polar(abs, angle))).real", "angle": "(grad.conj() * polar(abs, angle) * 1j).real"},
    abs=lambda g, n: _real(dual.conj(g) * dual.call("sgn", _polar_value(n))),
    angle=lambda g, n: _real(dual.conj(g) * _polar_value(n) * 1j))
def polar(abs, angle):
    """abs * (cos(angle) + sin(angle) * 1j), in the inputs' floating dtype."""
    out = np.empty(np.broadcast_shapes(abs.shape, angle.shape), np.result_type(abs.dtype, np.complex64))
    out.real, out.imag = abs * np.cos(angle), abs * np.sin(angle)
    return out


def _polar_value(n):
    return dual.call("polar", n.abs, n.angle)


def _real(z):
    """The real part of a complex gradient (an array, or a Tensor recording its graph)."""
    return OPS["real_of_gradient"](z) if isinstance(z, Tensor) else np.real(np.asarray(z))   # (a view, as at::real)
