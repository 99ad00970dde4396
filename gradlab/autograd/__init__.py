"""gradlab.autograd: backward, grad, custom Functions, gradcheck, jacobian/hessian."""
import warnings

from . import events, grad_mode
from .engine import run_backward
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .node import AccumulateGrad, Node

_CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
    "to None after use to break the cycle and avoid the leak."
)


_Tensor = None                  # the Tensor class, bound by gradlab/tensor.py (imports run the other way)


def _as_list(x):
    if x is None:
        return None
    if isinstance(x, _Tensor):
        return [x]
    return list(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into `.grad` of the leaves the gradient of `tensors` (weighted by `grad_tensors`)."""
    tensors = _as_list(tensors)
    grads = _as_list(grad_tensors) or [None] * len(tensors)
    if create_graph:
        warnings.warn(_CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    inputs = _as_list(inputs)
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple; `.grad` is left untouched."""
    from ..tensor import Tensor
    outputs = _as_list(outputs)
    inputs_list = _as_list(inputs)
    grads = _as_list(grad_outputs) or [None] * len(outputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    result = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs_list,
                          accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        import numpy as np
        result = [g if g is not None else Tensor._make(np.zeros_like(t._data)) for g, t in zip(result, inputs_list)]
    return tuple(result)


from .function import Function, FunctionCtx, once_differentiable  # noqa: E402
from . import functional  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: E402

__all__ = ["backward", "grad", "Function", "FunctionCtx", "functional", "gradcheck", "gradgradcheck",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode", "events",
           "Node", "AccumulateGrad"]
