"""Parameter: a leaf Tensor that a Module registers as one of its learnable weights.

It is a Tensor in every way (`isinstance(p, Tensor)` is True, ops on it give plain Tensors);
the subclass only tells `Module.__setattr__` to record it in `_parameters`, and prints
`Parameter containing:` above the tensor, as PyTorch does.
"""
import numpy as np

from .. import _argparse, _signatures, creation
from ..tensor import _FLOAT_ONLY, Tensor, _init, _type_name


class Parameter(Tensor):
    def __init__(self, data=None, requires_grad=True):
        if data is None:
            array = np.empty((0,), dtype=np.float32)
        elif isinstance(data, Tensor):
            array = data._data          # shares storage with `data`, like torch
        else:                           # torch calls data.detach(): its AttributeError for a list
            raise AttributeError(f"'{_type_name(data)}' object has no attribute 'detach'")
        if not isinstance(requires_grad, bool):      # (Tensor._make_subclass's parser: not even numpy's bool)
            raise TypeError(f"_make_subclass(): argument 'require_grad' (position 3) must be bool, not "
                            f"{_argparse.type_name(requires_grad)}")
        if requires_grad and array.dtype.kind not in "fcV":
            raise RuntimeError(_FLOAT_ONLY)
        _init(self, array)
        self._requires_grad = bool(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        """A new Parameter of a copy of the data: PyTorch's copies neither .grad nor the user's attributes
        (copy.deepcopy(model) gives parameters without gradients)."""
        if id(self) not in memo:
            memo[id(self)] = type(self)(Tensor._make(self._data.copy(order="K")), self._requires_grad)
        return memo[id(self)]

    def __reduce_ex__(self, proto):
        return (Parameter, (Tensor._make(self._data.copy()), self._requires_grad))


_UNINITIALIZED_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
                        "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
                        "Call `forward` to initialize the parameters before accessing their attributes.")


class UninitializedParameter(Parameter):
    """A lazy module's parameter before its first forward: no shape yet, prints `<UninitializedParameter>`;
    `materialize(shape)` turns it into a Parameter of that shape (uninitialised values)."""

    cls_to_become = Parameter

    def __init__(self, requires_grad=True, device=None, dtype=None):
        super().__init__(creation.empty(0, device=device, dtype=dtype), requires_grad)

    def materialize(self, shape, device=None, dtype=None):
        # (torch.empty's argument checks: a wrong size gets its TypeError)
        self._data = _empty(shape, dtype=self.dtype if dtype is None else dtype)._data
        self._version_counter[0] += 1
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED_SHAPE)

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (type(self), (self._requires_grad,))

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self._requires_grad, None, None)
        return memo[id(self)]


class UninitializedBuffer(Tensor):
    """A lazy module's buffer before its first forward (running_mean of LazyBatchNorm1d, ...): as an
    UninitializedParameter, but `materialize` turns it into a plain Tensor."""

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        _init(self, creation.empty(0, device=device, dtype=dtype)._data)
        self._requires_grad = bool(requires_grad)
        self.persistent = persistent
        self._is_buffer = True

    def materialize(self, shape, device=None, dtype=None):
        self._data = _empty(shape, dtype=self.dtype if dtype is None else dtype)._data
        self._version_counter[0] += 1
        self.__class__ = Tensor

    shape = UninitializedParameter.shape

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (type(self), (self._requires_grad, None, None, self.persistent))

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self._requires_grad, None, None, self.persistent)
        return memo[id(self)]


class _BufferMeta(type):
    """isinstance(t, Buffer): any tensor that Buffer(...) marked as one (PyTorch's _BufferMeta)."""

    def __instancecheck__(cls, instance):
        if cls is Buffer:
            return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """nn.Buffer(data, persistent=True): data detached, marked as a buffer; assigned to a module's attribute,
    it is registered as a buffer (persistent or not). It is a plain Tensor otherwise."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = creation.empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


def is_lazy(param):
    return isinstance(param, (UninitializedParameter, UninitializedBuffer))


# torch.empty with PyTorch's argument checks, for materialize
_empty = _argparse.wrapped({"empty": creation.empty}, _signatures.TORCH)["empty"]


def zero_grads(params, set_to_none=True):
    """What Module.zero_grad and Optimizer.zero_grad do: drop each .grad (the default), or zero it in
    place after cutting it from any graph (set_to_none=False)."""
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g.grad_fn is not None:
            g.detach_()
        else:
            g.requires_grad_(False)
        g.zero_()
