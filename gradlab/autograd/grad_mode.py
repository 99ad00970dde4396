"""Grad mode: whether operations record a graph.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and as decorators
(with or without parentheses for `no_grad`), exactly like PyTorch's.
"""
import functools

# "grad" is the grad mode a program sets and reads (is_grad_enabled); "enabled" is whether operations
# record a graph: the grad mode, except under inference_mode, where nothing is recorded even inside
# enable_grad (PyTorch's InferenceMode takes autograd out of the dispatch, whatever the grad mode says).
_state = {"enabled": True, "grad": True, "inference": False}


def is_grad_enabled():
    return _state["grad"]


def is_inference_mode_enabled():
    return _state["inference"]


def _set_grad(flag):
    _state["grad"] = flag
    _state["enabled"] = flag and not _state["inference"]


class _DecoratorContextManager:
    _mode = None      # subclasses fix the mode they switch to

    def __enter__(self):
        self._prev = _state["grad"]
        _set_grad(self._mode)
        return None

    def __exit__(self, *exc):
        _set_grad(self._prev)
        return False

    def __call__(self, orig_func):
        context = self

        def decorate_context(*args, **kwargs):
            call = context.clone()
            call._prev = _state["grad"]     # (set_grad_enabled's __enter__ keeps the _prev it is given)
            with call:
                return orig_func(*args, **kwargs)
        # PyTorch's names (torch/utils/_contextlib.py), seen where orig_func has none of its own: no_grad(True)
        decorate_context.__qualname__ = "context_decorator.<locals>.decorate_context"
        return functools.wraps(orig_func)(decorate_context)

    def clone(self):
        """A fresh context like this one (a decorated function may run inside itself)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new



class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """A context that is also a decorator without parentheses (PyTorch's _NoParamDecoratorContextManager)."""

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if func is not None:        # used as @no_grad without parentheses (PyTorch wraps anything but None:
            return self(func)       # no_grad(True) is a function that calls True)
        return self


class no_grad(_NoParamDecoratorContextManager):
    """Inside `with no_grad():` operations build no graph: results have requires_grad=False."""
    _mode = False

    def __init__(self):     # (so no_grad(None) is PyTorch's TypeError: None is not a function to decorate)
        pass


class enable_grad(_NoParamDecoratorContextManager):
    """Inside `with enable_grad():` operations record a graph again (inside no_grad too)."""
    _mode = True


class inference_mode(_DecoratorContextManager):
    """no_grad that is also reported by is_inference_mode_enabled(), and whose tensors are inference tensors.
    inference_mode(False) turns it off again (and grad mode on), as PyTorch's InferenceMode(false)."""

    def __new__(cls, mode=True):
        self = super().__new__(cls)
        if callable(mode) and not isinstance(mode, bool):       # used as @inference_mode without parentheses
            self.__init__()
            return self(mode)
        return self

    def __init__(self, mode=True):
        self.mode = mode
        self._mode = not mode

    def __enter__(self):
        self._prev_inference = _state["inference"]
        _set_inference(bool(self.mode))
        return super().__enter__()

    def __exit__(self, *exc):
        _set_inference(self._prev_inference)
        return super().__exit__(*exc)


# called with the new flag whenever inference mode changes (tensor.py marks the tensors made meanwhile)
on_inference_change = []


def _set_inference(flag):
    if _state["inference"] != flag:
        _state["inference"] = flag
        _state["enabled"] = _state["grad"] and not flag
        for callback in on_inference_change:
            callback(flag)


class set_grad_enabled(_DecoratorContextManager):
    """Called plainly it sets the mode globally; used with `with` it restores the old mode on exit."""

    def __init__(self, mode):
        if type(mode) is not bool:
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self._prev = _state["grad"]
        self._mode = mode
        _set_grad(mode)

    def __enter__(self):
        _set_grad(self._mode)
        return None

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._mode})"

    def __call__(self, orig_func):
        _set_grad(self._prev)   # as a decorator it must not change the mode at definition time
        return super().__call__(orig_func)


# PyTorch's module path: the default repr then prints `<torch.autograd.grad_mode.no_grad object at 0x...>`
# and IPython `<torch.autograd.grad_mode.no_grad at 0x...>`, exactly what a cell running PyTorch shows.
for _cls in (no_grad, enable_grad, inference_mode, set_grad_enabled):
    _cls.__module__ = "torch.autograd.grad_mode"
del _cls
