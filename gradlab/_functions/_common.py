"""What every file of this package uses: the function form of a Tensor method."""
from .._tensor_core import Tensor
from ..creation import tensor
from ..ops.registry import OPS


# functions whose PyTorch signature has a `Scalar self` overload: the reflected operator does it
_SCALAR_SELF = {"pow": "__rpow__", "remainder": "__rmod__"}


def method_form(name, row=None):
    """gradlab.<name>(input, ...) calls input.<name>(...), as torch.<name> and Tensor.<name> share one kernel.
    `row`: the op table's row it was made from (_functions/variants.py), None for a method that is no row."""
    reflected = _SCALAR_SELF.get(name)

    def function(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            if reflected is not None and len(args) + len(kwargs) == 1:
                # PyTorch's `Scalar self` overload is the reflected operator's kernel: torch.pow(2, t) is 2 ** t
                # (PowBackward2), torch.remainder(3, t) is 3 % t (no derivative)
                other = args[0] if args else next(iter(kwargs.values()))
                if isinstance(other, Tensor):
                    return getattr(other, reflected)(input)
            input = tensor(input)
        return getattr(Tensor, name)(input, *args, **kwargs)
    function.__name__ = name
    function.__qualname__ = name
    function.__doc__ = (f"gradlab.{name}(input, ...) is input.{name}(...)" +
                        (f" (the op table's row {row!r}; made by _functions/variants.py)." if row else "."))
    function._row = row
    return function


# the names the op table declares forms of: those are made by _functions/variants.py, never listed by hand
_TABLE_NAMES = {name for key, op in OPS.items() if op.variants for name in (key, *op.aliases)}


def method_forms(*names):
    """{name: method_form(name)} for a module's globals().update(...): methods that are not rows of the op
    table (x.max(dim), x.eq(y), x.flatten())."""
    listed = _TABLE_NAMES.intersection(names)
    if listed:
        raise ImportError(f"{sorted(listed)}: made from the op table's variants (_functions/variants.py); "
                          "do not list them here")
    return {name: method_form(name) for name in names}
