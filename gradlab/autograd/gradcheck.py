"""gradcheck: compare backward's gradients with finite differences, as torch.autograd.gradcheck."""
import warnings

import numpy as np

from .._tensor_core import Tensor
from . import grad as autograd_grad   # (autograd/__init__.py defines grad before it imports this module)
from .grad_mode import enable_grad


class GradcheckError(RuntimeError):
    pass


def _numerical_jacobian(func, inputs, j, eps):
    """Central differences, one input element at a time. Grad mode stays as it is (a function may
    itself call backward), and elements are addressed by index so non-contiguous inputs work."""
    x = inputs[j]
    data = x._data
    cols = []
    for k in range(data.size):
        idx = np.unravel_index(k, data.shape)
        orig = data[idx]
        # torch's order and arithmetic: x - eps first, then x + eps, in the input's dtype
        data[idx] = _shifted(orig, -eps)
        minus = [o._data.reshape(-1).copy() for o in _outputs(func(*inputs))]
        data[idx] = _shifted(orig, eps)
        plus = [o._data.reshape(-1).copy() for o in _outputs(func(*inputs))]
        data[idx] = orig
        cols.append([_central_difference(p, m, eps) for p, m in zip(plus, minus)])
    n_out = len(cols[0]) if cols else 0
    return [np.stack([c[i] for c in cols], axis=1) if cols else None for i in range(n_out)]


def _shifted(value, delta):
    """value + delta as torch computes `tensor + number` (half in float32, rounded once)."""
    if value.dtype == np.float16:
        return np.float16(np.float32(value) + np.float32(delta))
    return value + delta


def _central_difference(plus, minus, eps):
    """torch's (b - a) / (2 * eps), in the outputs' dtype (half through float32), as float64."""
    d = plus - minus
    if d.dtype == np.float16:
        d = (d.astype(np.float32) / np.float32(2 * eps)).astype(np.float16)
    elif d.dtype.kind in "fc":
        d = d / (2 * eps)
    else:
        d = d.astype(np.float64) / (2 * eps)
    return d.astype(np.complex128 if d.dtype.kind == "c" else np.float64)


def _outputs(out):
    return out if isinstance(out, tuple) else (out,)


def _analytical_jacobian(outputs, inputs, j):
    x = inputs[j]
    result = []
    for out in outputs:
        rows = []
        flat_n = out.numel()
        for k in range(flat_n):
            if not out.requires_grad:
                rows.append(np.zeros(x.numel()))
                continue
            v = np.zeros(flat_n, dtype=out._data.dtype)
            v[k] = 1
            g, = autograd_grad(out, x, grad_outputs=Tensor._make(v.reshape(out._data.shape)), retain_graph=True,
                               allow_unused=True)
            rows.append(np.zeros(x.numel()) if g is None else g._data.astype(np.float64).reshape(-1))
        result.append(np.stack(rows, axis=0) if rows else np.zeros((0, x.numel())))
    return result


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True when backward agrees with central finite differences for every output/input pair."""
    from ..display.printing import format_tensor
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i in diff:
        if inputs[i]._data.dtype not in (np.float64, np.complex128):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ", UserWarning, stacklevel=2)
    outputs = _outputs(func(*inputs))
    if not any(isinstance(o, Tensor) and o.requires_grad for o in outputs):
        # no output is differentiable: PyTorch then only checks that the function is really constant
        for j in diff:
            if any(n is not None and np.any(n != 0) for n in _numerical_jacobian(func, inputs, j, eps)):
                if not raise_exception:
                    return False
                raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    for j in diff:
        numerical = _numerical_jacobian(func, inputs, j, eps)
        analytical = _analytical_jacobian(outputs, inputs, j)
        for i, (num, ana) in enumerate(zip(numerical, analytical)):
            num_t, ana_t = num.T, ana.T     # PyTorch prints (input element) x (output element)
            if not np.allclose(ana_t, num_t, rtol=rtol, atol=atol, equal_nan=True):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {j},\n"
                    # PyTorch's numerical Jacobian has the input's dtype, the analytical one the output's
                    f"numerical:{format_tensor(num_t.astype(inputs[j]._data.dtype))}\n"
                    f"analytical:{format_tensor(ana_t.astype(outputs[i]._data.dtype))}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001, gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck applied to the gradient function itself (second derivatives)."""
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    diff = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    outs = _outputs(func(*inputs))
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(Tensor._make(rng.standard_normal(o._data.shape).astype(o._data.dtype)) for o in outs)

    def first_derivative(*xs):
        with enable_grad():         # gradcheck evaluates finite differences under no_grad
            ys = _outputs(func(*xs))
            dx = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
            gs = autograd_grad(ys, dx, grad_outputs=list(grad_outputs), create_graph=True, allow_unused=True)
        return tuple(g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype))
                     for g, x in zip(gs, dx))

    return gradcheck(first_derivative, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception)
