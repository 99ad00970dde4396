"""gradlab.autograd: backward, grad, custom Functions, gradcheck, jacobian/hessian."""
import importlib as _importlib
import operator
from collections.abc import Mapping

import numpy as np

from .._tensor_core import Tensor as _Tensor
from . import events, grad_mode, graph  # noqa: F401  (torch.autograd.graph)
from .engine import _root_edges, run_backward
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)
from .node import AccumulateGrad, Node
from .. import _warnings

_CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
    "to None after use to break the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)




def _tensor_or_tensors_to_list(tensors, length):
    """PyTorch's reading of `grad_tensors` / `grad_outputs`: None, one Tensor, or an iterable
    (a Python number is not one: `y.backward(1.0)` fails with "'float' object is not iterable")."""
    if tensors is None:
        return [None] * length
    if isinstance(tensors, _Tensor):
        return [tensors]
    return list(tensors)


def _check_gradients(tensors, grads):
    """Each gradient is a Tensor or None (PyTorch's _make_grads), and there is one per output (extra
    gradients are ignored, as PyTorch's zip() of the two does)."""
    grads = [g for _, g in zip(tensors, grads)]
    for t, g in zip(tensors, grads):
        if not isinstance(t, _Tensor):
            raise AssertionError("Expected output to be a torch.Tensor")
        if g is not None and not isinstance(g, _Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    return grads


def _flag(value):
    """A bool argument as PyTorch's engine reads it: any integer, else its TypeError."""
    return value if type(value) is bool else bool(operator.index(value))


def _inputs_list(inputs, function):
    """`inputs=` of backward() and grad(): a Tensor, a dict (its values) or an iterable of Tensors."""
    if isinstance(inputs, _Tensor):
        return [inputs]
    if type(inputs) is dict:
        inputs = inputs.values()
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{function}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    inputs = list(inputs)
    if not inputs:
        raise RuntimeError(f"`inputs` argument to `{function}()` cannot be empty.")
    return inputs


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulate into `.grad` of the leaves the gradient of `tensors` (weighted by `grad_tensors`)."""
    if grad_variables is not None:
        _warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    if inputs is not None:
        inputs = _inputs_list(inputs, "backward")
    tensors = [tensors] if isinstance(tensors, _Tensor) else list(tensors)
    grads = _tensor_or_tensors_to_list(grad_tensors, len(tensors))
    grads = _check_gradients(tensors, grads)
    create_graph = _flag(create_graph)
    retain_graph = _flag(create_graph if retain_graph is None else retain_graph)
    # PyTorch's TORCH_WARN_ONCE (once a process), from its engine: after the roots' checks have passed
    # (_make_grads' implicit gradients and shapes, then the graph: _root_edges raises what they refuse)
    if create_graph and all(t.requires_grad for t in tensors):
        _root_edges(tensors, grads)
        _warnings.warn_once(_CREATE_GRAPH_WARNING)
    run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def _zeros_like(t, requires_grad):
    z = _Tensor._make(np.zeros_like(t._data))
    z._requires_grad = requires_grad
    return z


def _grad_batched(outputs, grads, retain_graph, create_graph, inputs, allow_unused):
    """grad(..., is_grads_batched=True): the first dimension of each grad_output is a batch of vectors, and each
    input's gradient gets the same leading dimension. PyTorch vmaps one backward over it; here one backward runs
    per vector (the graph kept for all but the last) and the results are stacked."""
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if g is None:
            continue
        first = g[0]        # (PyTorch compares the first vector's shape, and prints it without its first size)
        if tuple(first._data.shape) != tuple(t._data.shape):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                "dimension. The sizes of the remaining dimensions are expected to match the shape of corresponding "
                f"output, but a mismatch was detected: grad_output[{i}] has a shape of "
                f"torch.Size([{', '.join(map(str, first._data.shape[1:]))}]) and output[{i}] has a shape of "
                f"torch.Size([{', '.join(map(str, t._data.shape))}]). If you only want some tensors in `grad_output` "
                "to be considered batched, consider using vmap.")
    size = next((g._data.shape[0] for g in grads if g is not None), 1)
    columns = []
    for b in range(size):
        keep = retain_graph or b < size - 1
        columns.append(run_backward(outputs, [None if g is None else g[b] for g in grads], keep, create_graph,
                                    inputs=inputs, accumulate=False, allow_unused=allow_unused))
    result = []
    for k in range(len(inputs)):
        column = [c[k] for c in columns]
        if all(g is None for g in column):
            result.append(None)
        elif not create_graph:
            result.append(_Tensor._make(np.stack([np.zeros_like(inputs[k]._data) if g is None else g._data
                                                  for g in column])))
        else:
            # (stacked with Tensor operations, so that the result keeps the gradients' graph)
            stacked = None
            for b, g in enumerate(column):
                if g is None:
                    continue
                onehot = _Tensor._make(np.eye(size, dtype=g._data.dtype)[b].reshape((size,) + (1,) * g.dim()))
                term = onehot * g.unsqueeze(0)
                stacked = term if stacked is None else stacked + term
            result.append(stacked)
    return result


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple; `.grad` is left untouched."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = [outputs] if isinstance(outputs, _Tensor) else list(outputs)
    inputs_list = _inputs_list(inputs, "grad")
    if not only_inputs:
        _warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                       "gradient for other parts of the graph, please use torch.autograd.backward.",
                       FutureWarning)
    grads = _tensor_or_tensors_to_list(grad_outputs, len(outputs))
    grads = _check_gradients(outputs, grads)
    create_graph, allow_unused = _flag(create_graph), _flag(allow_unused)
    retain_graph = _flag(create_graph if retain_graph is None else retain_graph)
    if is_grads_batched:
        result = _grad_batched(outputs, grads, retain_graph, create_graph, inputs_list, allow_unused)
    else:
        result = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs_list,
                              accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        # (PyTorch's zeros_like(input, requires_grad=create_graph))
        result = [g if g is not None else _zeros_like(t, create_graph) for g, t in zip(result, inputs_list)]
    if type(inputs) is dict:        # gradients by the same keys
        return dict(zip(inputs.keys(), result))
    return tuple(result)


from .function import Function, FunctionCtx, once_differentiable  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: E402
from .variable import Variable  # noqa: E402
from .anomaly_mode import detect_anomaly, set_detect_anomaly  # noqa: E402

__all__ = ["backward", "grad", "Function", "FunctionCtx", "functional", "gradcheck", "gradgradcheck",
           "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode", "events",
           "Node", "AccumulateGrad", "Variable", "detect_anomaly", "set_detect_anomaly"]


def __getattr__(name):
    # torch.autograd.forward_ad, loaded at first use (PEP 562, as gradlab/__init__.py's lazy modules): it is built
    # on torch.func's helpers, which `import gradlab` does not load
    if name == "forward_ad":
        return _importlib.import_module(".forward_ad", __name__)
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
