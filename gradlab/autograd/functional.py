"""jacobian and hessian, built from reverse-mode gradients one output element at a time."""
import numpy as np


def _tuple(x):
    return (x, False) if isinstance(x, tuple) else ((x,), True)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """J[i][j] has shape outputs[i].shape + inputs[j].shape (un-nested for single tensors)."""
    from ..tensor import Tensor
    from . import grad as autograd_grad
    from .grad_mode import enable_grad
    inputs, single_in = _tuple(inputs)
    inputs = tuple(x.detach().requires_grad_(True) if not create_graph or not x.requires_grad else x for x in inputs)
    with enable_grad():
        outputs = func(*inputs)
    outputs, single_out = _tuple(outputs)
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
        from ..tensor import stack
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
    from . import grad as autograd_grad
    inputs_t, single_in = _tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        grads = autograd_grad(out.reshape(()), xs, create_graph=True, allow_unused=True)
        from ..tensor import Tensor
        return tuple(g if g is not None else Tensor._make(np.zeros(x._data.shape, x._data.dtype)).requires_grad_()
                     for g, x in zip(grads, xs))

    H = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict)
    if single_in:
        return H[0][0]
    return H


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    from . import grad as autograd_grad
    from .grad_mode import enable_grad
    inputs_t, single_in = _tuple(inputs)
    xs = tuple(x.detach().requires_grad_(True) for x in inputs_t)
    with enable_grad():
        out = func(*xs)
    grads = autograd_grad(out, xs, grad_outputs=v, create_graph=create_graph, allow_unused=True)
    return out.detach(), (grads[0] if single_in else grads)
