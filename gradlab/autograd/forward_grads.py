"""Where forward-mode AD keeps its tangents (torch.autograd.forward_ad is built on this: see forward_ad.py).

PyTorch stores a dual tensor's tangent inside the tensor (its forward grad, one per level). Here the tangents
sit in one table beside the tensors, keyed by the tensor's id and dropped when the tensor dies, so the Tensor
class and every op that knows nothing of forward mode stay as they are. Only one level exists at a time, as in
PyTorch 2.13 ("Nested forward mode AD is not supported at the moment").
"""
import weakref

LEVEL = [-1]            # the current dual level: -1 outside every dual_level
# What registry.apply calls instead of itself while a dual tensor may be among an op's inputs: forward_ad's
# _apply_dual, or None (then apply pays one list read). Kept here, in the lowest layer that both know.
APPLY_HOOK = [None]
INPLACE_HOOK = [None]   # the same for an in-place op (ops/inplace.py's run_inplace)

_TANGENTS = {}          # id(tensor) -> (weak reference to the tensor, its tangent)


def tangent_of(t):
    """t's tangent at the current level, or None."""
    entry = _TANGENTS.get(id(t))
    if entry is None or entry[0]() is not t:
        return None
    return entry[1]


def set_tangent(t, tangent):
    key = id(t)
    _TANGENTS[key] = (weakref.ref(t, lambda _, key=key: _TANGENTS.pop(key, None)), tangent)


def clear():
    """Exiting the level deletes every tangent of it (PyTorch: "This function deletes all the gradients
    associated with this level")."""
    _TANGENTS.clear()
