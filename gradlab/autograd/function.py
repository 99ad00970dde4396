"""Custom differentiable operations: subclass `Function`, write `forward` and `backward`.

    class MyExp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result

    y = MyExp.apply(x)      # y.grad_fn is a MyExpBackward node
"""
import functools
import weakref

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor_core import Tensor
from . import grad_mode
from .node import Node, SECOND_BACKWARD_ERROR, SavedTensor, record
from .. import _warnings


def _summed_to(g, meta):
    """A custom Function's gradient g (a Tensor of a broadcast shape) summed back to its input's shape and
    dtype, as PyTorch's engine does with at::sum_to (leading dims summed away, stretched dims of size 1 kept)."""
    shape, dtype = meta
    lead = g.dim() - len(shape)
    stretched = tuple(lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1)
    if stretched:
        g = g.sum(stretched, keepdim=True)
    if lead:
        g = g.sum(tuple(range(lead)))
    return g if g._data.dtype == dtype else g.to(from_numpy_dtype(dtype))


class FunctionCtx:
    """The `ctx` of a custom Function: what forward leaves for backward."""

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self._to_save = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        self._materialize = bool(value)


class BackwardCFunction(Node, FunctionCtx):
    """The grad_fn of a custom Function's outputs (its class is named `<Name>Backward`)."""
    _forward_cls = None

    def __init__(self):
        Node.__init__(self)
        self._materialize = True
        self._to_save = ()
        self._saved_list = None

    @property
    def saved_tensors(self):
        if self._saved_list is None:
            if self._freed:
                raise RuntimeError(SECOND_BACKWARD_ERROR)
            return ()
        return tuple(None if s is None else s._unpack(self) for s in self._saved_list)

    def _release(self):
        if self._saved_list:
            self._saved_list = None
            self._freed = True

    def _check_not_freed(self):
        pass        # custom backwards that read saved_tensors raise from there

    @property
    def saved_tensors_info(self):
        return tuple((f"saved_{i}", s) for i, s in enumerate(self._saved_list or ()) if s is not None)

    def apply(self, grad_outputs, as_arrays=False):
        if as_arrays:       # the user's backward works on Tensors: wrap the engine's arrays, unwrap its results
            grads = self.apply([None if g is None else Tensor._make(g) for g in grad_outputs])
            return [None if g is None else g._data for g in grads]
        grads = [g if g is not None or not self._materialize else Tensor._make(np.zeros(m[0], m[1]))
                 for g, m in zip(grad_outputs, self._output_meta)]
        with grad_mode.set_grad_enabled(grad_mode.is_grad_enabled()):
            result = self._forward_cls.backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        cls_name = type(self).__name__
        n_args = len(self._arg_is_tensor)
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {cls_name} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(result)})")
        out = []
        slot = 0
        for is_tensor, g in zip(self._arg_is_tensor, result):
            if not is_tensor:
                continue
            meta = self._input_meta[slot]
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if g is not None and self.next_functions[slot][0] is not None:
                if tuple(g.shape) != tuple(meta[0]):
                    # (PyTorch's is_expandable_to: the input's shape must expand to the gradient's, which is
                    # then summed back to it)
                    got, want = g._data.shape, tuple(meta[0])
                    if len(want) <= len(got) and all(w in (1, n) for w, n in zip(reversed(want), reversed(got))):
                        g = _summed_to(g, meta)
                    else:
                        raise RuntimeError(
                            f"Function {cls_name} returned an invalid gradient at index {slot} - got "
                            f"[{', '.join(map(str, g.shape))}] but expected shape compatible with "
                            f"[{', '.join(map(str, meta[0]))}]")
            out.append(g)
            slot += 1
        return out


_BACKWARD_CLASSES = weakref.WeakKeyDictionary()


def _backward_class(cls):
    node_cls = _BACKWARD_CLASSES.get(cls)
    if node_cls is None:
        node_cls = type(cls.__name__ + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        node_cls.__module__ = "torch.autograd.function"
        _BACKWARD_CLASSES[cls] = node_cls
    return node_cls


# How a tensor changed in place by a custom Function's forward (ctx.mark_dirty) takes the new history when it is
# a view (its base's history becomes CopySlices) or has views: ops/inplace.py's, the layer that knows views.
DIRTY_HISTORY = []


class _FunctionMeta(type):
    pass


class Function(metaclass=_FunctionMeta):
    """Base class for custom autograd operations; call them with `MyFunction.apply(...)`."""

    def __init__(self, *args, **kwargs):
        _warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, so "
                       "you should invoke them on the class itself. Instantiating an autograd function will raise an "
                       "error in a future version of PyTorch.", DeprecationWarning)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        node = _backward_class(cls)()
        is_tensor = [isinstance(a, Tensor) for a in args]
        node._arg_is_tensor = is_tensor
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        uses_setup = "setup_context" in cls.__dict__
        with grad_mode.no_grad():
            if uses_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(node, args, output)
            else:
                output = cls.forward(node, *args, **kwargs)
        for t in getattr(node, "_dirty", ()):     # PyTorch counts the change mark_dirty declares (recorded or not)
            t._version_counter[0] += 1
        records = grad_mode._state["enabled"] and any(t.requires_grad for t in tensor_args)
        single = not isinstance(output, tuple)
        outputs = (output,) if single else output
        if not records:
            if not any(isinstance(o, Tensor) and o.requires_grad for o in outputs):
                return output
            # PyTorch's _wrap_outputs: an input comes back as a detached alias, another output that requires
            # grad is detached in place, unless it is a view
            outputs = tuple(o if not isinstance(o, Tensor) or not o.requires_grad else
                            o.detach() if any(o is t for t in tensor_args) else
                            o if o._base is not None else o.detach_() for o in outputs)
            return outputs[0] if single else outputs
        dirty = getattr(node, "_dirty", ())
        for t in dirty:     # changed in place by forward: the checks of an in-place op
            if t.grad_fn is None and t._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            if t._base is not None and t._base.grad_fn is None and t._base._requires_grad:
                raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                                   "operation.")
        non_diff = {id(t) for t in getattr(node, "_non_differentiable", ())}
        results, wired = [], []      # wired: the outputs this node produces (None: not differentiable)
        for o in outputs:
            if isinstance(o, Tensor) and id(o) not in non_diff and o._data.dtype.kind in "fc":
                if any(o is t for t in dirty):
                    pass                          # changed in place: the input itself takes the new history
                elif o.grad_fn is not None or o._requires_grad or any(o is t for t in tensor_args):
                    o = Tensor._make(o._data)     # an input returned unchanged still gets the new grad_fn
                    o.__dict__["_custom_view"] = (cls.__name__, len(results))   # (PyTorch's alias of the input)
                elif o._base is not None:
                    o.__dict__["_custom_view"] = (cls.__name__, len(results))   # a view made inside forward
                wired.append(o)
            else:
                wired.append(None)
            results.append(o)
        record(node, tensor_args, wired)
        for i, o in enumerate(wired):
            if o is not None and any(o is t for t in dirty) and (o._base is not None or o._views):
                DIRTY_HISTORY[0](o, node, i, tensor_args)
        node._output_meta = tuple((o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), np.float32)
                                  for o in outputs)
        node._num_outputs = len(outputs)
        if node._to_save:
            saved = []
            for t in node._to_save:
                if t is None:
                    saved.append(None)
                elif any(t is r for r in results):
                    saved.append(SavedTensor(t, is_output=True))
                else:
                    saved.append(SavedTensor(t))
            node._saved_list = saved
            node._saved = {}     # non-None: tells the engine this node has something to free
        return results[0] if single else tuple(results)


class DelayedError(Node):
    """The grad_fn of what a @once_differentiable backward returns under create_graph: a second derivative
    through it raises."""

    def __init__(self, message):
        super().__init__()
        self._message = message

    def apply(self, grad_outputs, as_arrays=False):
        raise RuntimeError(self._message)


DelayedError.__module__ = "builtins"


def once_differentiable(fn):
    """A backward that runs without recording a graph; under create_graph its results require grad but a
    backward through them raises (PyTorch's DelayedError)."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = fn(ctx, *args)
        if not grad_mode.is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        fakes = [v.detach().requires_grad_() if isinstance(v, Tensor) else None for v in outs]
        node = DelayedError("trying to differentiate twice a function that was marked with @once_differentiable")
        results = [None if v is None else Tensor._make(v._data) for v in fakes]
        record(node, [v for v in fakes if v is not None], results)
        return results[0] if single else tuple(results)
    return wrapper
