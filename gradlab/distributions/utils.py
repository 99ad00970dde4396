"""torch.distributions.utils: broadcasting the parameters, probabilities <-> logits, the lazy property."""
from functools import update_wrapper

from .. import _dtype, _size, broadcast_tensors, empty, enable_grad, get_default_dtype, log, log1p, sigmoid, tensor
from ..nn import functional as F
from ..tensor import Tensor

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property"]

euler_constant = 0.57721566490153286060      # Euler-Mascheroni constant


def _is_number(value):
    return isinstance(value, (int, float, bool))          # (torch.types._Number: a complex is not one)


def broadcast_all(*values):
    """The parameters as tensors of one shape: numbers become tensors of the first tensor's dtype (or of
    the default dtype when all are numbers), then torch.broadcast_tensors."""
    if not all(isinstance(v, Tensor) or _is_number(v) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(isinstance(v, Tensor) for v in values):
        options = dict(dtype=get_default_dtype())
        for value in values:
            if isinstance(value, Tensor):
                options = dict(dtype=value.dtype, device=value.device)
                break
        values = [v if isinstance(v, Tensor) else tensor(v, **options) for v in values]
    return broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    # (an empty tensor filled in place: the same draws as PyTorch's from the same seed)
    return empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """Sums the rightmost `dim` dimensions (an Independent's event dimensions)."""
    if dim == 0:
        return value
    required_shape = value.shape[:-dim] + (-1,)
    return value.reshape(required_shape).sum(-1)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs):
    eps = _dtype.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    # (clamped away from 0 and 1 first, so the logits stay finite)
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return log(ps_clamped) - log1p(-ps_clamped)
    return log(ps_clamped)


class lazy_property:
    """A value computed on first access and then stored in the instance (a Bernoulli made from probs
    computes its logits only when asked). Computed with gradients on, as PyTorch's."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def probs_or_logits(probs, logits):
    """The parameter a distribution given by probabilities or by logits was given: exactly one of them."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return probs if probs is not None else logits


def binary_logits_and_probs():
    """The `logits` and `probs` of the one-probability distributions (Bernoulli, Binomial, Geometric,
    LogitRelaxedBernoulli): each instance keeps the one it was given and computes the other when first read."""
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)
    return lazy_property(logits), lazy_property(probs)


class _lazy_property_and_property(lazy_property, property):
    """What the class shows for a lazy property (so documentation tools see a property)."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _as_size(shape):
    return shape if isinstance(shape, _size.Size) else _size.Size(shape)
