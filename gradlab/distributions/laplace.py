"""Laplace(loc, scale): the double exponential. rsample inverts the CDF at a uniform draw in (eps-1, 1)."""
from .. import _dtype, _size, abs as _abs, expm1, log
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, _is_number

__all__ = ["Laplace"]


class Laplace(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2**0.5) * self.scale

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        if _is_number(loc) and _is_number(scale):
            batch_shape = _size.Size()
        else:
            batch_shape = self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Laplace, _instance)
        batch_shape = _size.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        super(Laplace, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def rsample(self, sample_shape=_size.Size()):
        shape = self._extended_shape(sample_shape)
        finfo = _dtype.finfo(self.loc.dtype)
        # (from eps - 1, not -1: log1p(-|u|) stays finite)
        u = self.loc.new(shape).uniform_(finfo.eps - 1, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -log(2 * self.scale) - _abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * expm1(-(value - self.loc).abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * (term).sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + log(2 * self.scale)
