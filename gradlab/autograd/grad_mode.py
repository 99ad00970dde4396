"""Grad mode: whether operations record a graph.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and as decorators
(with or without parentheses for `no_grad`), exactly like PyTorch's.
"""
import functools

_state = {"enabled": True, "inference": False}


def is_grad_enabled():
    return _state["enabled"]


def is_inference_mode_enabled():
    return _state["inference"]


class _GradModeContext:
    _mode = None      # subclasses fix the mode they switch to

    def __enter__(self):
        self._prev = _state["enabled"]
        _state["enabled"] = self._mode
        return None

    def __exit__(self, *exc):
        _state["enabled"] = self._prev
        return False

    def __call__(self, func):
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            prev = _state["enabled"]
            _state["enabled"] = mode
            try:
                return func(*args, **kwargs)
            finally:
                _state["enabled"] = prev
        return wrapper



class no_grad(_GradModeContext):
    """Inside `with no_grad():` operations build no graph: results have requires_grad=False."""
    _mode = False

    def __new__(cls, func=None):
        self = super().__new__(cls)
        if callable(func):          # used as @no_grad without parentheses
            return self(func)
        return self

    def __init__(self, func=None):
        pass


class enable_grad(_GradModeContext):
    _mode = True


class inference_mode(no_grad):
    """no_grad that is also reported by is_inference_mode_enabled()."""
    def __init__(self, mode=True):
        self._mode = not mode
        self._inference = bool(mode)

    def __enter__(self):
        self._prev_inference = _state["inference"]
        _set_inference(self._inference)
        return super().__enter__()

    def __exit__(self, *exc):
        _set_inference(self._prev_inference)
        return super().__exit__(*exc)


# called with the new flag whenever inference mode changes (tensor.py marks the tensors made meanwhile)
on_inference_change = []


def _set_inference(flag):
    if _state["inference"] != flag:
        _state["inference"] = flag
        for callback in on_inference_change:
            callback(flag)


class set_grad_enabled(_GradModeContext):
    """Called plainly it sets the mode globally; used with `with` it restores the old mode on exit."""

    def __init__(self, mode):
        if type(mode) is not bool:
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self._prev = _state["enabled"]
        self._mode = mode
        _state["enabled"] = self._mode

    def __enter__(self):
        _state["enabled"] = self._mode
        return None

    def __repr__(self):
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._mode})"

    def __call__(self, func):
        _state["enabled"] = self._prev   # as a decorator it must not change the mode at definition time
        return super().__call__(func)


# PyTorch's module path: the default repr then prints `<torch.autograd.grad_mode.no_grad object at 0x...>`
# and IPython `<torch.autograd.grad_mode.no_grad at 0x...>`, exactly what a cell running PyTorch shows.
for _cls in (no_grad, enable_grad, inference_mode, set_grad_enabled):
    _cls.__module__ = "torch.autograd.grad_mode"
del _cls
