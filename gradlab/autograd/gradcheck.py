"""gradcheck: compare backward's gradients with finite differences, as torch.autograd.gradcheck."""

import numpy as np

from .._tensor_core import Tensor
from ..display.printing import format_tensor
from . import grad as autograd_grad   # (autograd/__init__.py defines grad before it imports this module)
from .grad_mode import enable_grad
from .. import _warnings


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
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")
    for i in diff:
        if inputs[i]._data.dtype not in (np.float64, np.complex128):
            _warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                           "This check will likely fail if all the inputs are not of double precision floating point "
                           "or complex. ", UserWarning)
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
    """gradcheck of the gradient function itself (second derivatives), PyTorch's way: the function
    checked takes the inputs and the grad_outputs, and the grad_outputs, when not given, are drawn
    from the global generator as torch.testing.make_tensor draws them (uniform in [-1, 1))."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs) for o in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_args_indices = {i for i, x in enumerate(tupled_inputs) if isinstance(x, Tensor) and x.requires_grad}
    diff_grad_output_indices = {i for i, x in enumerate(tupled_grad_outputs) if x.requires_grad}

    def new_func(*args):
        with enable_grad():         # (finite differences may run under no_grad)
            input_args = tuple(x.requires_grad_() if i in diff_input_args_indices else x
                               for i, x in enumerate(args[:-num_outputs]))
            outputs = _differentiable_outputs(func(*input_args))
            grad_outputs = tuple(x.requires_grad_() if i in diff_grad_output_indices else x
                                 for i, x in enumerate(args[-num_outputs:]))
            diff_input_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_args_indices)
            grad_inputs = autograd_grad(outputs, diff_input_args, grad_outputs, create_graph=True, allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _random_grad_output(x, noncontiguous):
    """torch.testing.make_tensor(x.shape, dtype=x's (double if not floating), low=-1, high=1,
    requires_grad=True, noncontiguous=...): one uniform_ draw from the global generator (complex:
    its real view)."""
    np_dtype = x._data.dtype if x._data.dtype.kind in "fc" else np.dtype(np.float64)
    shape = tuple(x._data.shape)
    noncontiguous = noncontiguous and int(np.prod(shape)) > 1
    if noncontiguous:
        shape = shape[:-1] + (2 * shape[-1],)
    data = np.empty(shape, np_dtype)
    real = data.view(np.float32 if np_dtype == np.complex64 else np.float64).reshape(shape + (2,)) \
        if np_dtype.kind == "c" else data
    Tensor._make(real).uniform_(-1, 1)         # fills `data` in place (a view of the same memory)
    result = Tensor._make(data)
    if noncontiguous:
        result = result[..., 1::2]
    result.requires_grad = True
    return result
