"""Tensor's plain methods, made from the op table, as PyTorch makes its Tensor methods from
native_functions.yaml. A row declared

    @op("exp", "ExpBackward0", variants=("function", "method", "inplace"), ...)

gets, from `methods` below:

    "method"   x.exp()    the row's op applied to x: `registry.apply(op, (x,), {})`, as OPS["exp"](x) does
    "inplace"  x.exp_()   the same op written into x (`Tensor._inplace`, the path of every in-place method)
    aliases    x.arcsin() the row's method under PyTorch's other name (the same function), x.arcsin_() its in-place form

A made method takes the forward's own parameters: the row's tensor inputs after self, then its other
parameters with their defaults (`x.nan_to_num(nan=None, posinf=None, neginf=None)`).

The rule: a method written by hand wins. One that checks or converts its arguments (x.sum(dim),
x.clamp(min, max), x.div_(y, rounding_mode="floor")) is written in the files beside this one, and tensor.py passes
every name they define as `written`; nothing of that name is made here. So `x.exp` comes from this file
(its docstring says so), `x.sum` from reductions.py. (tests/ops/test_variants.py fails if a hand-written
method is one that this file would make.)

Each method is a plain `def` compiled from a short text, so a call costs what a hand-written one does.
For exp and add_ the texts are

    def exp(self):                                       def add_(self, other, alpha=_default2):
        return registry.apply(_op, (self,), _NO_PARAMS)      return self._inplace(_key, other, alpha=alpha)

with `_op` (the row), `_key` ("add") and the defaults given to each text as its globals.
"""
import inspect
import types

from ..ops import registry
from ..ops.registry import OPS

_NO_PARAMS = {}          # (apply only reads the parameters)
_COMPILED = {}           # a text's shape -> the code of its function, as _argparse/wrappers.py does


def _parameters(op):
    """The method's parameters after self: the forward's, each with its default (a name in the namespace)."""
    params, inputs, others, defaults = [], [], [], {}
    for i, (name, default) in enumerate(_forward_parameters(op)):
        if i == 0:
            continue                                   # self
        if default is _EMPTY:
            params.append(name)
        else:
            defaults[f"_default{i}"] = default
            params.append(f"{name}=_default{i}")
        (inputs if name in op.inputs else others).append(name)
    return params, inputs, others, defaults


_EMPTY = inspect.Parameter.empty


def _forward_parameters(op):
    """[(name, default or _EMPTY)] of the forward's parameters, read from its code object where it has plain ones
    (inspect.signature costs ~30 us a row); any other kind of parameter cannot be a method's."""
    fn = op.forward
    code = getattr(fn, "__code__", None)
    if (code is None or hasattr(fn, "__wrapped__") or hasattr(fn, "__signature__") or code.co_posonlyargcount
            or code.co_kwonlyargcount or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)):
        found = []
        for p in inspect.signature(fn).parameters.values():
            if p.kind is not p.POSITIONAL_OR_KEYWORD:
                raise TypeError(f"Tensor.{op.key}: the forward's {p} cannot be a method's; write the method by hand")
            found.append((p.name, p.default))
        return found
    names = code.co_varnames[:code.co_argcount]
    values = fn.__defaults__ or ()
    return [(name, values[i - (len(names) - len(values))] if i >= len(names) - len(values) else _EMPTY)
            for i, name in enumerate(names)]


def _made(name, source, namespace, doc):
    # Compiling costs ~70 us a text, and the ~90 texts have only ~11 shapes: each shape (the text with the name
    # replaced) is compiled once, and its code copied under each name (code.replace: the name a traceback shows).
    shape = source.replace(f"def {name}(", "def _shape(", 1)
    code = _COMPILED.get(shape)
    if code is None:
        module_code = compile(shape, "<op table>", "exec")
        code = _COMPILED[shape] = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    namespace["__name__"] = __name__                  # (the function's __module__: this file)
    namespace["__builtins__"] = __builtins__          # (as exec of the text would set it)
    code = code.replace(co_name=name, co_qualname=name, co_filename=f"<op table: Tensor.{name}>")
    # (the defaults are the namespace's _default<i>, in the order of the parameters, as the text's def reads them)
    defaults = tuple(namespace[n] for n in sorted((n for n in namespace if n.startswith("_default")),
                                                   key=lambda n: int(n[len("_default"):])))
    fn = namespace[name] = types.FunctionType(code, namespace, name, defaults or None)
    fn.__qualname__ = f"Tensor.{name}"
    fn.__doc__ = doc
    return fn


def method(op):
    """x.<key>(...): the row's op applied to x and the other arguments."""
    params, inputs, others, defaults = _parameters(op)
    kwargs = "{" + ", ".join(f"{n!r}: {n}" for n in others) + "}" if others else "_NO_PARAMS"
    source = (f"def {op.key}({', '.join(['self', *params])}):\n"
              f"    return registry.apply(_op, ({', '.join(['self', *inputs])},), {kwargs})\n")
    return _made(op.key, source, {"registry": registry, "_op": op, "_NO_PARAMS": _NO_PARAMS, **defaults},
                 f"x.{op.key}(): the op table's row {op.key!r} ({_where(op)}); made by _tensor_methods/variants.py.")


def inplace(op):
    """x.<key>_(...): the row's op written into x, through Tensor._inplace."""
    params, inputs, others, defaults = _parameters(op)
    args = ", ".join(["_key", *inputs, *(f"{n}={n}" for n in others)])
    name = op.key + "_"
    source = (f"def {name}({', '.join(['self', *params])}):\n"
              f"    return self._inplace({args})\n")
    return _made(name, source, {"_key": op.key, **defaults},
                 f"x.{name}(): x.{op.key}() written into x, in place (the op table's row {op.key!r}, "
                 f"{_where(op)}); made by _tensor_methods/variants.py.")


def _where(op):
    return op.forward.__module__.replace(".", "/") + ".py"


def methods(written):
    """{name: function} for every method and in-place form the op table declares that `written` (the names
    of Tensor's hand-written methods) does not have; aliases point at the row's method."""
    made = {}
    for key, op in OPS.items():
        if "method" in op.variants and key not in written:
            made[key] = method(op)
        if "inplace" in op.variants and key + "_" not in written:
            made[key + "_"] = inplace(op)
        if "method" in op.variants:
            for alias in op.aliases:
                if alias not in written:
                    made[alias] = made[key] if key in made else written[key]
        if "inplace" in op.variants:        # x.arcsin_(), x.fix_(): PyTorch's aliases have in-place forms too
            for alias in op.aliases:
                if alias + "_" not in written:
                    made[alias + "_"] = made[key + "_"] if key + "_" in made else written[key + "_"]
    return made
