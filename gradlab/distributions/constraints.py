"""The constraints the distributions here check, with PyTorch's reprs."""


class Constraint:
    def __repr__(self):
        return self.__class__.__name__[1:] + "()"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _RealVector(Constraint):
    event_dim = 1

    def check(self, value):
        return (value == value).all(dim=-1)


class _NonNegativeInteger(Constraint):
    def check(self, value):
        return (value % 1 == 0) & (value >= 0)


simplex = _Simplex()
real_vector = _RealVector()
nonnegative_integer = _NonNegativeInteger()
