"""PyTorch's argument parser, for its error messages.

PyTorch checks every call of a built-in function or method against the function's overloads (the
"python arg parser", torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp) and raises
TypeErrors with fixed wording: "abs() takes 1 positional argument but 2 were given",
"sum() received an invalid combination of arguments - got (str), but expected one of: ...".
gradlab's functions are plain Python, so a wrong call would give Python's own message, a numpy
error, or even a result. parser.py re-implements that parser (only to produce its errors) from the
signature table in `_signatures/`; wrappers.py puts it in front of a function; fronts.py holds
torch.norm and torch.split, which PyTorch writes in Python, `wrapped()`, the checked forms of a module's
public functions, which the module binds itself at its end (gradlab/__init__.py, nn/functional.py:
`globals().update(_argparse.wrapped(globals(), ...))`), and `wrap_methods()`, which checks Tensor's
methods on the class, so that a call PyTorch would refuse raises PyTorch's TypeError.

Every call a user makes is checked, as PyTorch checks it (a.amin(0, 1): "argument 'keepdim' (position
2) must be bool, not int"), but parsed only once for each combination of argument types: see "every
call checked, cheaply" in wrappers.py. Cost on a valid positional call: the wrapper's frame and one set lookup,
0-0.2 us (x.sum(0), torch.mm(a, b)); an int list or Tensor list 0.3-0.4 us more (its items are
looked at); keywords ~0.5 us more. gradlab's own calls are never refused. After the parser accepts
a call, what PyTorch's parser reads as an int reaches gradlab's function as a Python int, a 0-d
Tensor given for a Number as a Python number, a deprecated overload (a.add(2, b)) with PyTorch's
warning in its current form, and a keyword PyTorch names otherwise than gradlab (a.dot(tensor=b))
by position. Re-run tools/make_signatures.py when gradlab gains a public name.

Imports point one way: parser.py <- wrappers.py <- fronts.py. This package is imported by
gradlab/_device.py, before gradlab.tensor exists: parser.py's `_classes()` looks Tensor up at the
first call.
"""
from .parser import Param, Signature, _overloads, check, int_list, type_name
from .wrappers import checked
from .fronts import wrap_methods, wrapped

__all__ = ["Param", "Signature", "check", "checked", "int_list", "type_name", "wrap_methods", "wrapped"]
