"""What the engine reports while it runs backward.

Events are small immutable records: named tuples (a dataclass costs ~0.7 ms of the import, one of
these 0.07 ms). Observers subscribe with `observe(callback)` (a context
manager); the backward animation is one such observer. With nobody subscribed the engine builds
no events at all, so the cost is one `if`.

Gradient values in events are numpy copies taken at the moment of the event, so later in-place
accumulation cannot change what an observer recorded.
"""
from contextlib import contextmanager
from typing import Any, NamedTuple, Optional, Tuple

_observers = []


class BackwardStarted(NamedTuple):
    roots: Tuple[Any, ...]            # the nodes backward starts from
    root_grads: Tuple[Any, ...]       # numpy arrays: the gradient each root starts with


class NodeStarted(NamedTuple):
    node: Any
    grad_outputs: Tuple[Any, ...]     # numpy arrays (or None): the gradient it received per output


class GradientSent(NamedTuple):
    node: Any                         # the node that computed the gradient
    input_nr: int                     # which of its input slots
    target: Any                       # the node the gradient goes to (next_functions[input_nr][0])
    output_nr: int                    # which output of `target` it belongs to
    grad: Any                         # numpy array: the gradient sent along this edge
    buffer_total: Any                 # numpy array: what target has received so far for that output
    remaining: int                    # how many more contributions target awaits before it runs


class GradAccumulated(NamedTuple):
    variable: Any                     # the leaf tensor
    old: Optional[Any]                # numpy array of .grad before, None if it had none
    added: Any                        # numpy array: the contribution
    new: Any                          # numpy array of .grad after


class NodeFinished(NamedTuple):
    node: Any
    grad_inputs: Tuple[Any, ...]      # numpy arrays (or None), one per input slot


class BackwardFinished(NamedTuple):
    pass


def active():
    return bool(_observers)


def emit(event):
    for callback in tuple(_observers):
        callback(event)


@contextmanager
def observe(callback):
    """Call `callback(event)` for every engine event inside the `with` block."""
    _observers.append(callback)
    try:
        yield callback
    finally:
        _observers.remove(callback)


@contextmanager
def paused():
    """Report nothing inside the block: what an observer itself runs (gradlab.viz evaluating a formula,
    which may run a backward of its own) is not part of the backward it watches."""
    saved = _observers[:]
    _observers.clear()
    try:
        yield
    finally:
        _observers[:] = saved


@contextmanager
def record():
    """Collect every engine event inside the `with` block into a list."""
    log = []
    with observe(log.append):
        yield log
