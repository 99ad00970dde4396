"""What PyTorch's backward ops with several outputs share (native_layer_norm_backward, convolution_backward, ...).

In PyTorch a gradient recorded under create_graph is often the output of a backward op of its own: one
node (NativeLayerNormBackwardBackward0, ConvolutionBackwardBackward0) gives the gradients of all the forward's
inputs at once, and its formulas (derivatives.yaml: `input, weight, grad_out: f(grads[0], grads[1], ...)`) are
one C++ function of FunctionsManual.cpp giving every input's gradient. The op table has one formula per input
slot: these helpers let each slot's formula take its part of one call, computed once per backward.
"""
import contextlib

import numpy as np

from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..autograd.node import AsTensors


def node_of(n):
    """The node itself, as a formula sees it (on Tensors, formulas get an AsTensors view of it)."""
    return object.__getattribute__(n, "_node") if type(n) is AsTensors else n


def output_mask(n):
    """Which of the node's inputs want a gradient (PyTorch's grad_input_mask)."""
    return tuple(edge[0] is not None for edge in n.next_functions)


def once(compute):
    """A function (g, n, ...) -> tuple of every slot's gradient, run once per backward: the node keeps its result
    for the same incoming g (each slot's formula then picks its part)."""
    def joint(g, n, *args):
        cache = getattr(n, "_grads", None)
        if cache is not None and cache[0] is g:
            return cache[1]
        grads = compute(g, n, *args)
        node_of(n)._grads = (g, grads)
        return grads
    joint.__name__ = compute.__name__
    joint.__doc__ = compute.__doc__
    return joint


@contextlib.contextmanager
def on_tensors(grads):
    """A double-backward formula written once, with Tensors, as FunctionsManual.cpp writes it: under create_graph
    it records its graph; in a plain backward (arrays) it runs on the arrays as Tensors under no_grad and gives
    arrays back. Yields (to_tensor, to_result)."""
    if any(isinstance(gi, Tensor) for gi in grads):
        yield (lambda a: a if a is None or isinstance(a, Tensor) else Tensor._make(np.asarray(a))), (lambda t: t)
        return
    with grad_mode.no_grad():
        yield ((lambda a: None if a is None else Tensor._make(np.asarray(a).view(np.ndarray))),
               (lambda t: None if t is None else t._data))


def masked(grads, mask):
    """The gradients a backward op's outputs got, None for the outputs its output_mask left undefined."""
    return tuple(gi if keep else None for gi, keep in zip(grads, mask))


def placeholders(grads, mask):
    """A backward op's outputs: the gradients output_mask asks for, zeros for the others (PyTorch leaves them
    undefined; the double backward reads them as undefined through `masked`)."""
    return tuple(gr if keep else np.zeros(np.shape(gr), np.asarray(gr).dtype) for gr, keep in zip(grads, mask))
