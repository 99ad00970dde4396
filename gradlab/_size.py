"""torch.Size: a tuple that prints as `torch.Size([2, 3])`."""
import operator

import numpy as np


def tp_name(cls):
    """A class as PyTorch's messages name it (C's tp_name): 'float', 'Tensor', 'numpy.float64'
    (a class written in Python, a heap type, goes by its bare name)."""
    return cls.__name__ if cls.__module__ == "builtins" or cls.__flags__ & (1 << 9) else \
        f"{cls.__module__}.{cls.__name__}"


class Size(tuple):
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

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        out = tuple.__getitem__(self, item)
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))


def _size_item(i, s):
    if isinstance(s, np.integer) or (type(s) is not bool and isinstance(s, int)):
        return s
    try:
        return int(operator.index(s))
    except TypeError:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{tp_name(type(s))}')") from None
