"""What every file of this package uses: the function form of a Tensor method."""
from .._tensor_core import Tensor
from ..creation import tensor


def method_form(name):
    """gradlab.<name>(input, ...) calls input.<name>(...), as torch.<name> and Tensor.<name> share one kernel."""
    def function(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            input = tensor(input)
        return getattr(Tensor, name)(input, *args, **kwargs)
    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = f"gradlab.{name}(input, ...) is input.{name}(...)."
    return function


def method_forms(*names):
    """{name: method_form(name)} for a module's globals().update(...)."""
    return {name: method_form(name) for name in names}
