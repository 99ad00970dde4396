"""torch.Size: a tuple that prints as `torch.Size([2, 3])`."""
import operator

import numpy as np

from ._ctype import CType, tp_name  # noqa: F401  (tp_name: imported from here by the layers above)


class Size(tuple, metaclass=CType, c_name="torch.Size"):
    __slots__ = ()

    def __new__(cls, sizes=()):
        """As PyTorch's: ints and numpy integers are kept, anything else with __index__ (a bool, an
        integer tensor of one element) becomes an int, and anything else is refused."""
        sizes = tuple(sizes)
        for s in sizes:
            if type(s) is not int:
                return tuple.__new__(cls, [_size_item(i, s) for i, s in enumerate(sizes)])
        return tuple.__new__(cls, sizes)

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def numel(self, *args, **kwargs):
        if kwargs:                         # (a C method without arguments: CPython's words)
            raise TypeError("Size.numel() takes no keyword arguments")
        if args:
            raise TypeError(f"Size.numel() takes no arguments ({len(args)} given)")
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        out = tuple.__getitem__(self, item)
        return Size(out) if isinstance(item, slice) else out

    # torch.Size is a C tuple type: + and * keep the Size on either side, let the other operand's reflected
    # method try (numpy's), then fail with its own words or Python's sequence ones
    def __add__(self, other):
        if isinstance(other, tuple):
            return Size(tuple.__add__(self, other))
        return _reflected(self, other, "__radd__", f"can only concatenate tuple (not {tp_name(type(other))}) to torch.Size")

    def __radd__(self, other):
        if isinstance(other, tuple):
            return Size(tuple.__add__(other, self))
        return NotImplemented

    def __mul__(self, other):
        try:
            return Size(tuple.__mul__(self, operator.index(other)))
        except TypeError:
            return _reflected(self, other, "__rmul__", f"can't multiply sequence by non-int of type '{tp_name(type(other))}'")

    def __rmul__(self, other):
        try:
            return Size(tuple.__mul__(self, operator.index(other)))
        except TypeError:
            raise TypeError(f"can't multiply sequence by non-int of type '{tp_name(type(other))}'") from None


def _reflected(size, other, name, message):
    method = getattr(type(other), name, None)
    result = NotImplemented if method is None else method(other, size)
    if result is NotImplemented:
        raise TypeError(message)
    return result


def _size_item(i, s):
    if isinstance(s, np.integer) or (type(s) is not bool and isinstance(s, int)):
        return s
    try:
        return int(operator.index(s))
    except TypeError:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{tp_name(type(s))}')") from None
