"""torch/nn/utils/clip_grad.py: scaling or clamping the gradients in place, before optimizer.step()."""
import types

import numpy as np

from ...autograd import grad_mode
from ...ops.registry import OPS
from ...tensor import Tensor
from ... import _warnings

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _vector_norm(array, p):
    return np.asarray(OPS["norm"].forward(array, p, None, False))


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The norm of the tensors' norms (one 0-d tensor), as clip_grad_norm_ measures the gradients."""
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return Tensor._make(np.asarray(0.0, np.float32))
    norms = [_vector_norm(t._data, norm_type) for t in tensors]
    dtype = np.result_type(*norms)
    total = _vector_norm(np.stack([n.astype(dtype) for n in norms]), norm_type).astype(dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return Tensor._make(total)


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale every gradient by min(1, max_norm / (total_norm + 1e-6)), in place."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    with grad_mode.no_grad():
        # torch: max_norm / (total_norm + 1e-6) is (total_norm + 1e-6).reciprocal() * max_norm
        coef = (total_norm + 1e-6).reciprocal() * max_norm
        coef = coef.clamp(max=1.0)
        for g in grads:
            g.mul_(coef)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Rescale the gradients so that their total norm is at most max_norm; returns the total norm before."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            _warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", UserWarning)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    _warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                   FutureWarning)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient to [-clip_value, clip_value], in place."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:       # (PyTorch groups the gradients by device and dtype first, and that refuses an empty list)
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")
    with grad_mode.no_grad():
        for g in grads:
            g.clamp_(min=-clip_value, max=clip_value)
