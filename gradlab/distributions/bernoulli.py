"""Bernoulli(probs=... or logits=...): a coin, 1 with probability probs. log_prob and entropy are
binary_cross_entropy_with_logits, as PyTorch computes them."""
from .. import _size, arange, bernoulli as _bernoulli, log1p, exp, logit, nan, no_grad
from ..nn import functional as F
from . import constraints
from .exp_family import ExponentialFamily
from .utils import binary_logits_and_probs, broadcast_all, probs_or_logits, _is_number

__all__ = ["Bernoulli"]


class Bernoulli(ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        probs_or_logits(probs, logits)
        if probs is not None:
            is_scalar = _is_number(probs)
            (self.probs,) = broadcast_all(probs)
        else:
            is_scalar = _is_number(logits)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = _size.Size() if is_scalar else self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = _size.Size(batch_shape)
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new._param = new.logits
        super(Bernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = nan           # (a fair coin has no mode)
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    logits, probs = binary_logits_and_probs()

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=_size.Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return _bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def enumerate_support(self, expand=True):
        values = arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        if expand:
            values = values.expand((-1,) + self._batch_shape)
        return values

    @property
    def _natural_params(self):
        return (logit(self.probs),)

    def _log_normalizer(self, x):
        return log1p(exp(x))
