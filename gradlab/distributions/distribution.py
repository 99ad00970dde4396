"""torch.distributions' base class, as far as teaching material uses it: batch and event shapes, argument
validation with PyTorch's message, `sample_shape` handling and the repr."""
from .. import _size
from . import constraints


class Distribution:
    arg_constraints = {}
    _validate_args = __debug__

    def __init__(self, batch_shape=_size.Size(), event_shape=_size.Size(), validate_args=None):
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None), _lazy_property):
                    continue
                value = getattr(self, param)
                valid = constraint.check(value)
                if not valid.all():
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape {tuple(value.shape)}) of "
                        f"distribution {repr(self)} to satisfy the constraint {repr(constraint)}, but found "
                        f"invalid values:\n{value}")
        super().__init__()

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=_size.Size()):
        if not isinstance(sample_shape, _size.Size):
            sample_shape = _size.Size(sample_shape)
        return _size.Size(sample_shape + self._batch_shape + self._event_shape)

    def __repr__(self):
        param_names = [k for k, _ in self.arg_constraints.items() if k in self.__dict__]
        args_string = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in param_names)
        return self.__class__.__name__ + "(" + args_string + ")"


class _lazy_property:
    """A value computed on first access and then stored in the instance (torch.distributions.utils)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value
