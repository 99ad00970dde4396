"""Geometric(probs= / logits=): the number of failures before the first success. sample inverts the CDF at
a uniform draw in (tiny, 1)."""
from .. import _dtype, _size, contiguous_format as _contiguous_format, no_grad, zeros_like
from ..nn import functional as F
from . import constraints
from .distribution import Distribution
from .utils import binary_logits_and_probs, broadcast_all, probs_or_logits, _is_number

__all__ = ["Geometric"]


class Geometric(Distribution):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        given = probs_or_logits(probs, logits)
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        batch_shape = _size.Size() if _is_number(given) else given.size()
        super().__init__(batch_shape, validate_args=validate_args)
        # (a probability of 0 passes unit_interval but never succeeds: PyTorch checks it here)
        if self._validate_args and probs is not None:
            value = self.probs
            valid = value > 0
            if not valid.all():
                invalid_value = value.data[~valid]
                raise ValueError("Expected parameter probs "
                                 f"({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {repr(self)} "
                                 f"to be positive but found invalid values:\n{invalid_value}")

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Geometric, _instance)
        batch_shape = _size.Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
        super(Geometric, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    logits, probs = binary_logits_and_probs()

    def sample(self, sample_shape=_size.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = _dtype.finfo(self.probs.dtype).tiny
        with no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=_contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0        # (0 * log(0) is 0 here)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
