"""Poisson(rate): counts of events at a rate. sample is torch.poisson (PyTorch's sampler, the same draws)."""
from .. import _size, exp, log, no_grad, poisson as _poisson
from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, _is_number

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = _size.Size() if _is_number(rate) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = _size.Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Poisson, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=_size.Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return _poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        # log(rate^k e^-rate / k!), with xlogy so k = 0 at rate 0 gives 0
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (log(self.rate),)

    def _log_normalizer(self, x):
        return exp(x)
