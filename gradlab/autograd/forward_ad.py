"""torch.autograd.forward_ad: forward-mode automatic differentiation with dual tensors.

    with fwAD.dual_level():
        x = fwAD.make_dual(primal, tangent)     # x carries a tangent v
        y = f(x)                                # every op carries it on: y's tangent is J v
        jvp = fwAD.unpack_dual(y).tangent

How the tangents flow. Each op of the op table is declared once, with its backward formulas (the vjp:
u -> J^T u). An op's forward formula (its jvp: v -> J v) is derived from them, not written a second time:
J^T u is linear in u, so the gradient of <J^T u, v> with respect to u is J v (the double-vjp trick, the one
torch.func.jvp uses in gradlab/func.py, whose helpers this reuses). So while a dual level holds a dual tensor,
ops/registry.py's apply hands every op to `_apply_dual` below: the op runs as always, then, if an input has a
tangent, its jvp is computed from the same row and stored as the result's tangent. Two exceptions, as in
PyTorch: a view's tangent is the same view of the input's tangent (ops that return a view of their input are
linear in it: the op itself is its jvp), and an in-place op changes the tangent in place.

The tangents sit in autograd/forward_grads.py's table, beside the tensors.
"""
from typing import NamedTuple

import numpy as np

from .._tensor_core import Tensor
from ..func import _double_vjp, _lift, _undo
from ..ops import inplace as _inplace, registry as _registry
from . import forward_grads as _fw
from .grad_mode import _DecoratorContextManager, enable_grad, is_grad_enabled, no_grad

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]


def enter_dual_level():
    """Enter a new forward grad level (there is at most one: PyTorch 2.13 supports no nesting)."""
    if _fw.LEVEL[0] >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _fw.LEVEL[0] = 0
    return 0


def exit_dual_level(*, level=None):
    """Exit the forward grad level: every tangent of it is deleted."""
    current = _fw.LEVEL[0]
    if level is None:
        level = current
    if level != current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    _fw.clear()
    _fw.APPLY_HOOK[0] = _fw.INPLACE_HOOK[0] = None
    _fw.LEVEL[0] = level - 1


def make_dual(tensor, tangent, *, level=None):
    """A new tensor aliased to `tensor` (a view of it) whose tangent is `tangent`."""
    if level is None:
        level = _fw.LEVEL[0]
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if level != _fw.LEVEL[0]:
        raise RuntimeError("Invalid level given to _make_dual")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    hooks = _hooks_off()
    try:
        dual = tensor.view(tensor.shape)        # (PyTorch's _make_dual is a view: ViewBackward0 under grad)
    finally:
        _hooks_on(hooks)
    _fw.set_tangent(dual, tangent)
    _hooks_on((_apply_dual, _inplace_dual))     # from now on every op looks for tangents
    return dual


class UnpackedDualTensor(NamedTuple):
    """Namedtuple returned by :func:`unpack_dual` containing the primal and tangent components of the dual tensor."""

    primal: Tensor
    tangent: "Tensor | None"


def unpack_dual(tensor, *, level=None):
    """(primal, tangent): the primal a view of `tensor` (without its tangent), the tangent as stored, or None."""
    if level is None:
        level = _fw.LEVEL[0]
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not {type(tensor).__name__}")
    tangent = _fw.tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    hooks = _hooks_off()
    try:
        primal = tensor.view(tensor.shape)
    finally:
        _hooks_on(hooks)
    return UnpackedDualTensor(primal, tangent)


class dual_level(_DecoratorContextManager):
    """Context-manager for forward AD: make_dual and unpack_dual work inside it, and its tangents die with it."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()


# --- the tangents through the ops -------------------------------------------------------------------------
def _hooks_off():
    hooks = _fw.APPLY_HOOK[0], _fw.INPLACE_HOOK[0]
    _fw.APPLY_HOOK[0] = _fw.INPLACE_HOOK[0] = None
    return hooks


def _hooks_on(hooks):
    _fw.APPLY_HOOK[0], _fw.INPLACE_HOOK[0] = hooks


# The ops of the table whose forward derivative PyTorch 2.13 does not have: the name its error gives (the
# ATen function whose kernel refuses), and whether it is an op with no derivative at all (aten::<name>).
NO_FORWARD_AD = {
    "_ctc_loss": "_ctc_loss", "pdist": "_pdist_forward", "cdist": "_cdist_forward", "cholesky": "cholesky",
    "embedding_bag": "_embedding_bag", "euclidean_dist": "_euclidean_dist", "grid_sampler_2d": "grid_sampler_2d",
    "grid_sampler_3d": "grid_sampler_3d", "igamma": "igamma", "igammac": "igammac", "lapack_geqrf": "geqrf",
    "lapack_ormqr": "ormqr", "multi_margin_loss": "multi_margin_loss",
    "multilabel_margin_loss": "multilabel_margin_loss_forward", "rrelu_with_noise_inplace": "rrelu_with_noise_",
    "special_zeta": "special_zeta", "special_zeta_scalar_other": "special_zeta",
    "special_zeta_scalar_self": "special_zeta",
    "index_reduce_prod": "index_reduce", "index_reduce_mean": "index_reduce", "index_reduce_amax": "index_reduce",
    "index_reduce_amin": "index_reduce",
    "_scaled_dot_product_flash_attention_for_cpu": "_scaled_dot_product_flash_attention_for_cpu",
    "_pack_padded_sequence": "_pack_padded_sequence",
}
NO_DERIVATIVE = {"channel_shuffle_no_derivative": "native_channel_shuffle",
                 "linalg_ldl_factor_ex": "linalg_ldl_factor_ex", "linalg_ldl_solve": "linalg_ldl_solve"}


def _refuse(op):
    if op.key in NO_FORWARD_AD:
        raise NotImplementedError(f"Trying to use forward AD with {NO_FORWARD_AD[op.key]} that does not support it "
                                  "because it has not been implemented yet.")
    if op.key in NO_DERIVATIVE:
        raise NotImplementedError(f"Trying to use forward AD with aten::{NO_DERIVATIVE[op.key]} that does not "
                                  "support it.")


def _apply_dual(op, args, params):
    """registry.apply inside a dual level: the op as always, and the result's tangent."""
    hooks = _hooks_off()
    try:
        tangents = [_fw.tangent_of(a) if isinstance(a, Tensor) else None for a in args]
        if all(t is None for t in tangents):
            return _registry.apply(op, args, params)
        _refuse(op)
        result = _registry.apply(op, args, params)
        outputs = result if isinstance(result, tuple) else (result,)
        if _is_view_of_first(args, tangents, outputs):
            # a view: its tangent is the same view of the input's tangent (a write to either shows in the other)
            out_tangents = _registry.apply(op, (tangents[0], *args[1:]), params)
            out_tangents = out_tangents if isinstance(out_tangents, tuple) else (out_tangents,)
            out_tangents = [t._view_of(tangents[0]) for t in out_tangents]
        else:
            out_tangents = _jvp(op, args, params, tangents)
        for o, t in zip(outputs, out_tangents):
            if o.is_floating_point() or o.is_complex():
                # (an output that does not vary with the inputs, floor's, still gets a tangent: zeros)
                _fw.set_tangent(o, t if t is not None else o.new_zeros(o.shape))
        return result
    finally:
        _hooks_on(hooks)


def _is_view_of_first(args, tangents, outputs):
    if tangents[0] is None or any(t is not None for t in tangents[1:]):
        return False
    data = args[0]._data
    return all(isinstance(o._data.base, np.ndarray) and np.may_share_memory(o._data, data) for o in outputs)


def _jvp(op, args, params, tangents):
    """J v for each output of the op, from its backward formulas (the double-vjp trick, see above)."""
    outer = is_grad_enabled()
    with enable_grad():
        lifted, vs, new_args = [], [], []
        for a, t in zip(args, tangents):
            if t is None:
                new_args.append(a)
                continue
            p = _lift(a)           # a fresh leaf (or a view of a tensor that requires grad: reverse over forward)
            lifted.append(p)
            vs.append(t if t.dtype == a.dtype else t.to(a.dtype))
            new_args.append(p)
        outputs = _registry.apply(op, tuple(new_args), params)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        local = {id(p) for p in lifted}
        out_tangents = _double_vjp(outputs, lifted, vs, local)
        out_tangents = list(_undo(tuple(out_tangents), local, outer))
    # (add's jvp is its input's tangent itself: a tangent of its own, as PyTorch's, so that a later in-place
    # change of one does not show in the other)
    for i, t in enumerate(out_tangents):
        if t is not None and any(np.may_share_memory(t._data, v._data) for v in vs):
            out_tangents[i] = t.clone()
    return out_tangents


def _inplace_dual(t, opkey, args, params):
    """inplace.run_inplace inside a dual level: the new values, then the new tangent written into the old one
    (PyTorch changes a dual's tangent in place: a view's tangent is a view of its base's)."""
    old = _fw.tangent_of(t)
    if old is None and all(_fw.tangent_of(a) is None for a in args if isinstance(a, Tensor)):
        hooks = _hooks_off()
        try:
            return _inplace.run_inplace(t, opkey, args, params)
        finally:
            _hooks_on(hooks)
    name = NO_FORWARD_AD.get(opkey)
    if name is not None:          # (the in-place kernel refuses: PyTorch's message names it, index_reduce_)
        raise NotImplementedError(f"Trying to use forward AD with {name.removesuffix('_')}_ that does not support "
                                  "it because it has not been implemented yet.")
    # the out-of-place op on t's values as they are now: its tangent is t's new one
    new = _fw.tangent_of(_inplace._call(opkey, t, args, params))
    hooks = _hooks_off()
    try:
        result = _inplace.run_inplace(t, opkey, args, params)
        with no_grad():
            if new is None:
                new = t.new_zeros(t.shape)
        if old is not None:
            with no_grad() if not new.requires_grad else enable_grad():
                old.copy_(new)
        else:
            _fw.set_tangent(t, new if new.dtype == t.dtype else new.to(t.dtype))
        return result
    finally:
        _hooks_on(hooks)
