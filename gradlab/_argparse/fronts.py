"""torch.norm, Tensor.norm, torch.split and Tensor.split, which PyTorch writes in Python in front of its C
parsers; wrapped(), the checked forms of a module's functions, which the module binds itself; and
wrap_methods(), which checks Tensor's methods on the class."""
import functools
import inspect

from .. import _signatures
from .parser import _classes
from .wrappers import _vetter, _wrap


def _python_level(function, fn):
    """function, written as PyTorch writes it in Python, in place of gradlab's fn: Python's own messages
    name it as fn is named (Tensor.norm() takes from 1 to 5 positional arguments but 7 were given)."""
    wrapper = functools.update_wrapper(function, fn)
    wrapper.__code__ = function.__code__.replace(co_qualname=fn.__qualname__)
    wrapper._signatures = ()
    return wrapper


def _torch_split_front(function):
    """torch.split is Python in PyTorch (torch/functional.py): it calls tensor.split (torch.split(a, dim=0):
    "split() missing 1 required positional argument: 'split_size_or_sections'")."""
    def torch_split(tensor, split_size_or_sections, dim=0):
        return tensor.split(split_size_or_sections, dim)
    return _python_level(torch_split, function)


def _split_method_front(tensor_split):
    """Tensor.split is Python in PyTorch (torch/_tensor.py): it calls torch._VF.split for an int and
    split_with_sizes for anything else (a.split(1.5): "split_with_sizes(): argument 'split_sizes'
    (position 2) must be tuple of ints, not float")."""
    Tensor = _classes()[0]
    by_int, by_sizes = _vetter(_signatures.CALLED["split"]), _vetter(_signatures.CALLED["split_with_sizes"])

    def split(self, split_size, dim=0):
        if isinstance(split_size, Tensor):
            try:
                split_size = int(split_size)
            except ValueError:
                pass
        args, _ = (by_int if isinstance(split_size, int) else by_sizes)((self, split_size, dim), {})
        return tensor_split(*args)
    return _python_level(split, tensor_split)


def _norm_front(fn, method):
    """torch.norm and Tensor.norm are Python in PyTorch (torch/functional.py, torch/_tensor.py): they read
    input.layout (torch.norm(3): AttributeError), then call linalg.vector_norm, or linalg.matrix_norm for
    a str p, whose parser refuses wrong types (a.norm([1, 2]): "argument 'ord' (position 2) must be
    Number, not list"). This runs those steps ahead of gradlab's norm."""
    vector_norm = _vetter(_signatures.CALLED["linalg_vector_norm"])
    matrix_norm = _vetter(_signatures.CALLED["linalg_matrix_norm"])

    Tensor = _classes()[0]

    def front(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
        input.layout                                             # PyTorch's first use of input
        if dim is None and keepdim is False and dtype is None and p.__class__ in (str, int, float) \
                and isinstance(input, Tensor):                   # a.norm(), a.norm(1): nothing to refuse
            return fn(input, p) if out is None else fn(input, p, out=out)
        _dim = [dim] if isinstance(dim, int) or dim is None else dim
        _dim = None if dim is None else _dim
        if isinstance(p, str):
            if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
                vector_norm((input, 2, _dim, keepdim), {"dtype": dtype})
            else:
                matrix_norm((input, p, list(range(input.ndim)) if _dim is None else _dim, keepdim), {"dtype": dtype})
        else:
            vector_norm((input, 2.0 if p is None else p, _dim, keepdim), {"dtype": dtype})
        if out is not None:
            return fn(input, p, dim, keepdim, out=out, dtype=dtype)
        return fn(input, p, dim, keepdim, dtype=dtype)

    if method:
        def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
            return front(self, p, dim, keepdim, dtype=dtype)
    else:
        def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
            return front(input, p, dim, keepdim, out, dtype)
    return _python_level(norm, fn)


# PyTorch's Python functions in front of its C parsers, by name: gradlab's function -> its front
_FUNCTION_FRONTS = {"norm": functools.partial(_norm_front, method=False), "split": _torch_split_front}
_METHOD_FRONTS = {"norm": functools.partial(_norm_front, method=True), "split": _split_method_front}


def wrapped(namespace, table):
    """{name: checked function} for each function of namespace (a module's globals()) that table lists
    (_signatures.TORCH or NN), plus torch.norm and torch.split's fronts for gradlab's own namespace. The
    module binds them itself, at its end (`globals().update(...)`), so that no module sets another's names
    and its own calls between its functions go through the checks as a user's do."""
    checked = {}
    for name, entry in table.items():
        fn = namespace.get(name)
        if inspect.isfunction(fn) and not hasattr(fn, "_signatures"):
            checked[name] = _wrap(fn, entry, method=False)
    if table is _signatures.TORCH:
        for name, front in _FUNCTION_FRONTS.items():
            if name in namespace and not hasattr(namespace[name], "_signatures"):
                checked[name] = front(namespace[name])
    return checked


def wrap_methods(cls):
    """Check the methods of cls (Tensor) that PyTorch implements in C, and put Tensor.norm and Tensor.split's
    Python fronts before them: class attributes, as PyTorch adds its Python methods to TensorBase (once, at
    import, after cls has all its methods)."""
    for name, entry in _signatures.TENSOR.items():
        fn = vars(cls).get(name)
        if inspect.isfunction(fn) and not hasattr(fn, "_signatures"):
            setattr(cls, name, _wrap(fn, entry, method=True))
    for name, front in _METHOD_FRONTS.items():
        if not hasattr(getattr(cls, name), "_signatures"):
            setattr(cls, name, front(getattr(cls, name)))
