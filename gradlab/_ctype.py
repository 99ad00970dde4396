"""PyTorch's C types (torch.dtype, torch.Size, torch.device, ...) as Python classes that Python's own messages
name as they name the C ones: `'<=' not supported between instances of 'float' and 'torch.dtype'`,
`'torch.dtype' object is not iterable` (nn.Hardtanh(torch.float64), nn.LayerNorm(torch.float64)).

Python names an object's type in its messages by the type's tp_name: for a C type that is "module.name"
("torch.dtype", "numpy.ndarray"), for a class statement its bare name ("dtype"). CType gives a class the
C type's tp_name while its __name__ stays the bare one, as torch.dtype.__name__ is 'dtype'.
"""

_NAME_SLOT = type.__dict__["__name__"]      # a class's own name slot (a class statement's tp_name)
_HEAPTYPE = 1 << 9                          # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


class CType(type):
    """The metaclass of gradlab's stand-ins for PyTorch's C types: `class dtype(metaclass=CType,
    c_name="torch.dtype")`."""

    def __new__(mcls, name, bases, namespace, c_name=None):
        cls = super().__new__(mcls, name, bases, namespace)
        if c_name is not None:
            _NAME_SLOT.__set__(cls, c_name)          # sets tp_name, which Python's messages print
        return cls

    def __init__(cls, name, bases, namespace, c_name=None):
        super().__init__(name, bases, namespace)

    @property
    def __name__(cls):
        return _NAME_SLOT.__get__(cls).rpartition(".")[2]


def tp_name(cls):
    """A class as Python's and PyTorch's messages name it (C's tp_name): 'float', 'Tensor', 'numpy.float64',
    'torch.dtype' (a class statement goes by its bare name, unless CType gave it a C name)."""
    if cls.__flags__ & _HEAPTYPE:
        return _NAME_SLOT.__get__(cls)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


# PyTorch's C types are instances of `type` itself: type(torch.dtype) prints <class 'type'>, and so does this one's
CType.__name__ = CType.__qualname__ = "type"
CType.__module__ = "builtins"
