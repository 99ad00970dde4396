"""Categorical(probs=...): samples class indices with torch.multinomial, so the draws are PyTorch's."""
import math

from .. import _dtype, _size
from . import constraints
from .distribution import Distribution, _lazy_property

__all__ = ["Categorical"]


class Categorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else _size.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @_lazy_property
    def logits(self):
        eps = _dtype.finfo(self.probs.dtype).eps
        return self.probs.clamp(min=eps, max=1 - eps).log()

    @_lazy_property
    def probs(self):
        return self.logits.softmax(-1)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return self.probs.new_full(self._extended_shape(), math.nan)

    def sample(self, sample_shape=_size.Size()):
        if not isinstance(sample_shape, _size.Size):
            sample_shape = _size.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = probs_2d.multinomial(sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

