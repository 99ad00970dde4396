"""jacobian, hessian, vjp, jvp, vhp and hvp, built from reverse-mode gradients (PyTorch's recipes)."""
import numpy as np

from .._tensor_core import Tensor
from ..creation import zeros_like
from ..tensor import stack
from . import grad as autograd_grad   # (autograd/__init__.py defines grad before it imports this module)
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled


def _as_tuple(inp, arg_name, fn_name):
    """(was it a tuple, the tuple of Tensors), with PyTorch's TypeError for anything else."""
    is_tuple = isinstance(inp, tuple)
    inp = inp if is_tuple else (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the {where} has type {type(el)}.")
    return is_tuple, inp


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh differentiable copies of the inputs (PyTorch's helper of the same name)."""
    return tuple(inp.view_as(inp) if create_graph and inp.requires_grad else inp.detach().requires_grad_(need_graph)
                 for inp in inputs)


def _grad_postprocess(inputs, create_graph):
    return inputs if create_graph else tuple(inp.detach() for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False):
    """autograd.grad of the outputs that require grad (None for every input when none does)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return autograd_grad([o for o, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                         create_graph=create_graph)


def _fill_in_zeros(grads, refs):
    return tuple(zeros_like(r) if g is None else g for g, r in zip(grads, refs))


def _unpack(res, is_tuple):
    return res if is_tuple else res[0]


def _v_or_check(v, refs, is_refs_tuple, fn_name, create_graph, what):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph, need_graph=False)
        _validate_v(v, refs, is_refs_tuple)
    elif len(refs) != 1 or refs[0].nelement() != 1:
        raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")
    return v


def _single_scalar_output(func, inputs, fn_name):
    outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    if is_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return outputs


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """J[i][j] has shape outputs[i].shape + inputs[j].shape (un-nested for single tensors)."""
    is_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    single_in = not is_tuple
    inputs = tuple(x.detach().requires_grad_(True) if not create_graph or not x.requires_grad else x for x in inputs)
    with enable_grad():
        outputs = func(*inputs)
    is_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
    single_out = not is_tuple
    rows = []
    for i, out in enumerate(outputs):
        if strict and not out.requires_grad:
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict mode.")
        per_input = [[] for _ in inputs]
        flat = out.reshape(-1) if out.requires_grad else None
        for k in range(out.numel()):
            if flat is None:
                grads = [None] * len(inputs)
            else:
                grads = autograd_grad(flat[k], inputs, retain_graph=True, create_graph=create_graph,
                                      allow_unused=True)
            for j, (g, x) in enumerate(zip(grads, inputs)):
                per_input[j].append(g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype)))
        row = []
        for j, x in enumerate(inputs):
            if per_input[j]:
                J = stack(per_input[j]).reshape(tuple(out.shape) + tuple(x.shape))
            else:
                J = Tensor._make(np.zeros(tuple(out.shape) + tuple(x.shape), x._data.dtype))
            row.append(J if create_graph else J.detach())
        rows.append(tuple(row))
    if single_out and single_in:
        return rows[0][0]
    if single_out:
        return rows[0]
    if single_in:
        return tuple(r[0] for r in rows)
    return tuple(rows)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """Second derivatives of a function returning a single-element tensor."""
    is_tuple, inputs_t = _as_tuple(inputs, "inputs", "hessian")
    single_in = not is_tuple

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        grads = _autograd_grad((out.reshape(()),), xs, create_graph=True)     # (None: out does not depend on xs)
        return tuple(g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype)).requires_grad_()
                     for g, x in zip(grads, xs))

    H = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict)
    if single_in:
        return H[0][0]
    return H


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product, as PyTorch's (non-strict) vjp."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        v = _v_or_check(v, outputs, is_outputs_tuple, "vjp", create_graph, "the user-provided function returns")
        with set_grad_enabled(True if create_graph else is_grad_enabled()):
            result = _fill_in_zeros(_autograd_grad(outputs, inputs, v, create_graph), inputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_grad_postprocess(result, create_graph), is_inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by PyTorch's double-backward trick."""
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _v_or_check(v, inputs, is_inputs_tuple, "jvp", create_graph, "the input to the user-provided function is")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        # backward is linear in grad_outputs: their value does not matter, only their graph
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        result = _fill_in_zeros(_autograd_grad(grad_inputs, grad_outputs, v, create_graph), outputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _unpack(_grad_postprocess(result, create_graph), is_outputs_tuple))


def _second_order(func, inputs, v, create_graph, fn_name, trick):
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _v_or_check(v, inputs, is_inputs_tuple, fn_name, create_graph, "the input to the user-provided function is")
        outputs = _single_scalar_output(func, inputs, fn_name)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        if trick:           # hvp: H v through the gradient of (grad . u) with respect to u
            grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
            jac, inputs_of_last = _autograd_grad(jac, inputs, grad_jac, create_graph=True), grad_jac
        else:
            inputs_of_last = inputs
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        result = _fill_in_zeros(_autograd_grad(jac, inputs_of_last, v, create_graph), inputs)
    return (_unpack(_grad_postprocess(outputs, create_graph), False),
            _unpack(_grad_postprocess(result, create_graph), is_inputs_tuple))


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function returning a single-element tensor."""
    return _second_order(func, inputs, v, create_graph, "vhp", trick=False)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function returning a single-element tensor."""
    return _second_order(func, inputs, v, create_graph, "hvp", trick=True)
