"""PyTorch's argument parser, for its error messages.

PyTorch checks every call of a built-in function or method against the function's overloads (the
"python arg parser", torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp) and raises
TypeErrors with fixed wording: "abs() takes 1 positional argument but 2 were given",
"sum() received an invalid combination of arguments - got (str), but expected one of: ...".
gradlab's functions are plain Python, so a wrong call would give Python's own message, a numpy
error, or even a result. This module re-implements that parser (only to produce its errors) from
the signature table in `_signatures.py`, and `install()` wraps gradlab's public functions and
methods so that a call PyTorch would refuse raises PyTorch's TypeError.

Every call a user makes is checked, as PyTorch checks it (a.amin(0, 1): "argument 'keepdim' (position
2) must be bool, not int"), but parsed only once for each combination of argument types: see "every
call checked, cheaply" below. Cost on a valid positional call: the wrapper's frame and one set lookup,
0-0.2 us (x.sum(0), torch.mm(a, b)); an int list or Tensor list 0.3-0.4 us more (its items are
looked at); keywords ~0.5 us more. gradlab's own calls are never refused. After the parser accepts
a call, what PyTorch's parser reads as an int reaches gradlab's function as a Python int, a 0-d
Tensor given for a Number as a Python number, a deprecated overload (a.add(2, b)) with PyTorch's
warning in its current form, and a keyword PyTorch names otherwise than gradlab (a.dot(tensor=b))
by position. Re-run tools/make_signatures.py when gradlab gains a public name.
"""
import dis
import functools
import inspect
import operator
import os
import sys
import warnings

import numpy as np

from . import _signatures

_NUMPY_SCALAR = (np.integer, np.floating, np.complexfloating, np.bool_)

# the names PyTorch also accepts, for NumPy compatibility (torch.sum(a, axis=0))
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}

# binary ops whose Tensor argument also takes a Python number (torch.add(2, t))
_NUMBERS_AS_TENSORS = {"add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply", "multiply_",
                       "sub", "sub_", "subtract", "subtract_", "true_divide", "true_divide_", "to", "_to_copy",
                       "copy_", "floor_divide", "floor_divide_"}


@functools.lru_cache(maxsize=None)
def _classes():
    # imported late: this module is imported while gradlab itself is being built
    from .tensor import Tensor
    from ._dtype import dtype, memory_format
    from ._device import device
    from .random import Generator
    return Tensor, dtype, memory_format, device, Generator


# ---------------------------------------------------------------- what PyTorch calls each value

def type_name(obj):
    """Python's tp_name of obj's type, as PyTorch's messages print it ("numpy.ndarray", "torch.dtype")."""
    Tensor, dtype, memory_format, device, Generator = _classes()
    t = type(obj)
    from ._dtype import layout
    special = {dtype: "torch.dtype", memory_format: "torch.memory_format", device: "torch.device",
               Generator: "torch._C.Generator", layout: "torch.layout"}
    if t in special:
        return special[t]
    if isinstance(obj, Tensor) or t.__flags__ & (1 << 9):        # Python-defined classes: just the name
        return t.__name__
    module = t.__module__                                        # C types: "module.name" unless builtin
    return t.__name__ if module == "builtins" else f"{module}.{t.__name__}"


def _is_long(obj):
    return (isinstance(obj, int) and not isinstance(obj, bool)) or isinstance(obj, np.integer)


def _is_double(obj):
    return isinstance(obj, (float, int)) or isinstance(obj, _NUMPY_SCALAR)


def _is_scalar(obj):
    return isinstance(obj, (float, int, complex)) or isinstance(obj, _NUMPY_SCALAR)


def _is_index(obj):
    """An int, or anything with __index__ (numpy ints, one-element integer tensors); not a bool."""
    if isinstance(obj, (bool, np.bool_)):
        return False
    if _is_long(obj):
        return True
    try:
        operator.index(obj)
    except Exception:
        return False
    return True


def _is_dimname(obj):
    return obj is None or isinstance(obj, str)


# ---------------------------------------------------------------- one parameter, one signature

_TYPE_NAMES = {"Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int", "double": "float",
               "complex": "complex", "TensorList": "tuple of Tensors",
               "c10::List<::std::optional<Tensor>>": "tuple of Tensors",
               "c10::List<c10::optional<Tensor>>": "tuple of Tensors", "IntArrayRef": "tuple of ints",
               "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
               "Generator": "torch.Generator", "bool": "bool", "Storage": "torch.Storage", "PyObject*": "object",
               "ScalarType": "torch.dtype", "Layout": "torch.layout", "MemoryFormat": "torch.memory_format",
               "QScheme": "torch.qscheme", "Device": "torch.device", "Stream": "torch.Stream",
               "std::string": "str", "c10::string_view": "str", "Dimname": "name", "DimnameList": "tuple of names",
               "ScalarList": "tuple of Scalars"}


class Param:
    __slots__ = ("type", "name", "optional", "allow_none", "keyword_only", "size", "default",
                 "numbers_as_tensors")

    def __init__(self, fmt, keyword_only, numbers_as_tensors):
        type_str, _, name = fmt.partition(" ")
        self.allow_none = "?" in type_str
        type_str = type_str.replace("?", "")
        self.size = 0
        if "[" in type_str:                                      # IntArrayRef[2]: a single int is accepted too
            type_str, _, size = type_str.partition("[")
            self.size = int(size[:-1])
        self.type = type_str
        self.name, eq, self.default = name.partition("=")
        self.optional = bool(eq)
        if self.default == "None":
            self.allow_none = True
        self.keyword_only = keyword_only
        self.numbers_as_tensors = numbers_as_tensors

    def type_name(self):
        return _TYPE_NAMES[self.type]

    def check(self, obj, argnum):
        """Whether obj fits this parameter (python_arg_parser.cpp's FunctionParameter::check)."""
        Tensor, dtype, memory_format, device, Generator = _classes()
        from ._dtype import layout
        t = self.type
        if t == "Tensor":
            return isinstance(obj, Tensor) or (self.numbers_as_tensors and _is_scalar(obj))
        if t in ("Scalar", "complex", "double"):
            if t != "double" and (_is_scalar(obj) or isinstance(obj, complex)):
                return True
            if _is_double(obj):
                return True
            return isinstance(obj, Tensor) and not obj.requires_grad and obj.dim() == 0
        if t == "int64_t":
            if _is_long(obj):
                return True
            return (isinstance(obj, Tensor) and not obj.dtype.is_floating_point and not obj.dtype.is_complex
                    and obj.dtype.name != "bool" and not obj.requires_grad and obj.dim() == 0)
        if t == "SymInt":
            return _is_index(obj)
        if t in ("IntArrayRef", "SymIntArrayRef"):
            if isinstance(obj, (tuple, list)):                   # only the first element is looked at here
                return len(obj) == 0 or _is_index(obj[0])
            if t == "SymIntArrayRef":
                return self.size > 0 and _is_index(obj)
            # a one-element integer (or bool) Tensor is an int here: a.sum(torch.tensor([0]))
            return self.size > 0 and (_is_long(obj) or isinstance(obj, Tensor) and obj.numel() == 1
                                      and not obj.dtype.is_floating_point and not obj.dtype.is_complex)
        if t.startswith("c10::List") or t == "TensorList":
            if not isinstance(obj, (tuple, list)):
                return False
            for i, item in enumerate(obj):                       # PyTorch raises at once on a non-tensor
                if not isinstance(item, Tensor) and not (item is None and t.startswith("c10::List")):
                    raise TypeError(f"expected Tensor as element {i} in argument {argnum}, "
                                    f"but got {type_name(item)}")
            return True
        if t == "ArrayRef<double>":
            return isinstance(obj, (tuple, list)) and (not obj or _is_double(obj[0]) or isinstance(obj[0], complex))
        if t == "bool":
            return isinstance(obj, bool)
        if t == "PyObject*":
            return True
        if t == "ScalarType":
            return isinstance(obj, dtype) or obj in (float, int, bool, complex)
        if t == "MemoryFormat":
            return isinstance(obj, memory_format) and not isinstance(obj, layout)
        if t == "Layout":
            return isinstance(obj, layout)
        if t == "Device":
            return _is_long(obj) or isinstance(obj, (str, device))
        if t == "Generator":
            return isinstance(obj, Generator)
        if t in ("std::string", "c10::string_view"):
            return isinstance(obj, str)
        if t == "Dimname":
            return _is_dimname(obj)
        if t == "DimnameList":
            if isinstance(obj, (tuple, list)) and all(_is_dimname(x) for x in obj):
                return True
            return self.size == 1 and _is_dimname(obj)
        if t == "ScalarList":
            return isinstance(obj, (tuple, list)) and all(_is_scalar(x) for x in obj)
        return False                                             # Storage, QScheme, Stream: gradlab has none


class Signature:
    """One overload, read from PyTorch's signature string ("sum(Tensor input, *, ScalarType? dtype=None)")."""

    def __init__(self, fmt):
        self.name, _, rest = fmt.partition("(")
        body, _, flag = rest.rpartition(")")
        self.hidden = flag in ("|hidden", "|deprecated")
        self.deprecated = flag == "|deprecated"
        numbers = self.name in _NUMBERS_AS_TENSORS
        self.params = []
        keyword_only = False
        for part in (body.split(", ") if body else ()):
            if part == "*":
                keyword_only = True
            else:
                self.params.append(Param(part, keyword_only, numbers))
        self.max_args = len(self.params)
        self.min_args = sum(not p.optional for p in self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)

    def __str__(self):
        """The overload as PyTorch prints it: "(Tensor input, *, torch.dtype dtype = None)"."""
        out, keyword = [], False
        for p in self.params:
            star = ""
            if p.keyword_only and not keyword:
                star, keyword = "*, ", True
            out.append(f"{star}{p.type_name()} {p.name}" + (f" = {p.default}" if p.optional else ""))
        return "(" + ", ".join(out) + ")"

    def _extra_args(self, nargs):
        if self.min_args != self.max_pos_args:
            return TypeError(f"{self.name}() takes from {self.min_args} to {self.max_pos_args} positional "
                             f"arguments but {nargs} were given")
        n = self.max_pos_args
        return TypeError(f"{self.name}() takes {n} positional argument{'' if n == 1 else 's'} but {nargs} "
                         f"{'was' if nargs == 1 else 'were'} given")

    def _missing_args(self, idx):
        missing = [f'"{p.name}"' for p in self.params[idx:] if not p.optional]
        # PyTorch's plural is inverted here: "missing 1 required positional arguments"
        return TypeError(f"{self.name}() missing {len(missing)} required positional argument"
                         f"{'s' if len(missing) == 1 else ''}: {', '.join(missing)}")

    def _extra_kwargs(self, kwargs, nargs):
        names = [p.name for p in self.params]
        for key in kwargs:
            if key not in names:
                return TypeError(f"{self.name}() got an unexpected keyword argument '{key}'")
            if names.index(key) < nargs:
                return TypeError(f"{self.name}() got multiple values for argument '{key}'")
        return TypeError("invalid keyword arguments")

    def parse(self, args, kwargs, raise_error, bound=None):
        """None if the call fits; else the TypeError (raise_error) or False (FunctionSignature::parse).
        `bound` (a list) receives (parameter, value) for each value given, for `_sure`."""
        nargs, remaining = len(args), len(kwargs)
        varargs_list = self.max_pos_args == 1 and self.params[0].type in ("IntArrayRef", "SymIntArrayRef")
        if nargs > self.max_pos_args and not varargs_list:
            return self._extra_args(nargs) if raise_error else False
        arg_pos = 0
        for i, p in enumerate(self.params):
            missing = object()
            obj, is_kwd = missing, False
            if arg_pos < nargs:
                if p.keyword_only:                               # extra positionals after view(2, 3)-style ints
                    return self._extra_args(nargs) if raise_error else False
                obj = args[arg_pos]
            elif kwargs:
                obj = kwargs.get(p.name, missing)
                for alias in _NUMPY_NAMES.get(p.name, ()):
                    if obj is missing:
                        obj = kwargs.get(alias, missing)
                is_kwd = True
            if (obj is missing and p.optional) or (obj is None and p.allow_none):
                pass
            elif obj is missing:
                return self._missing_args(i) if raise_error else False
            elif p.check(obj, i):
                if bound is not None:
                    bound.append((p, obj))
            elif varargs_list and arg_pos == 0 and not is_kwd and p.check(tuple(args), i):
                if bound is not None:
                    bound.extend((_VARARG, x) for x in args)
                arg_pos = nargs                                  # view(2, 3) means view((2, 3))
                continue
            elif varargs_list and arg_pos == 0 and not is_kwd and nargs > 1:
                return self._extra_args(nargs) if raise_error else False
            elif raise_error:
                where = "" if is_kwd else f" (position {arg_pos + 1})"
                if not is_kwd and p.type in ("IntArrayRef", "SymIntArrayRef") and isinstance(obj, (tuple, list)) \
                        and obj:
                    return TypeError(f"{self.name}(): argument '{p.name}'{where} must be {p.type_name()}, but "
                                     f"found element of type {type_name(obj[0])} at pos 0")
                return TypeError(f"{self.name}(): argument '{p.name}'{where} must be {p.type_name()}, "
                                 f"not {type_name(obj)}")
            else:
                return False
            if not is_kwd:
                arg_pos += 1
            elif obj is not missing:
                remaining -= 1
        if arg_pos < nargs:                                      # flip((0, 1), 2): one tuple, then more
            return self._extra_args(nargs) if raise_error else False
        if remaining > 0:
            return self._extra_kwargs(kwargs, nargs) if raise_error else False
        return None

    def unpack_error(self, args, kwargs):
        """After this overload matched: an int list with a non-int past its first element
        (view(2, 'x')) fails when PyTorch unpacks it, with this message."""
        lists = ("IntArrayRef", "SymIntArrayRef")
        # the generated C++ call unpacks its arguments right to left (GCC's order): roll's dims first
        for i, p in reversed(list(enumerate(self.params))):
            if p.type not in lists:
                continue
            if i < len(args) and not p.keyword_only:
                value = args[i]
                if i == 0 and self.max_pos_args == 1 and not isinstance(value, (tuple, list)) and len(args) > 1:
                    value = args
            else:
                value = kwargs.get(p.name)
            if isinstance(value, (tuple, list)):
                for idx, item in enumerate(value):
                    if not (isinstance(item, int) or _is_index(item)):   # past the first, a bool is an int
                        return TypeError(f"{self.name}(): argument '{p.name}' failed to unpack the object at pos "
                                         f"{idx + 1} with error \"type must be tuple of ints,but got "
                                         f"{type_name(item)}\"")
        return None


@functools.lru_cache(maxsize=None)
def _overloads(fmts):
    sigs = [Signature(f) for f in fmts]
    return [s for s in sigs if not s.deprecated] + [s for s in sigs if s.deprecated]


# ---------------------------------------------------------------- "received an invalid combination"

def _std_hash(s):
    """libstdc++'s std::hash<std::string> (MurmurHash64A style): PyTorch keeps keyword arguments in an
    unordered_map, so the order its message lists them in follows these hashes."""
    mask, mul = (1 << 64) - 1, 0xc6a4a7935bd1e995
    data = s.encode()
    n = len(data)
    h = (0xc70f6907 ^ (n * mul)) & mask
    aligned = n & ~7
    for k in range(0, aligned, 8):
        v = (int.from_bytes(data[k:k + 8], "little") * mul) & mask
        v = ((v ^ (v >> 47)) * mul) & mask
        h = ((h ^ v) * mul) & mask
    if n & 7:
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * mul) & mask
    h = ((h ^ (h >> 47)) * mul) & mask
    return h ^ (h >> 47)


def _unordered(keys):
    """Iteration order of a libstdc++ unordered_map after inserting keys in this order."""
    buckets = 13 if len(keys) <= 13 else 29                      # its first two prime bucket counts
    order = []
    for key in keys:
        b = _std_hash(key) % buckets
        same = [i for i, k in enumerate(order) if _std_hash(k) % buckets == b]
        order.insert(same[0] if same else 0, key)                # heads its bucket, or the whole list
    return order


def _build_type(type_str):
    if type_str == "float":
        return ("float", "int", "long")
    if type_str == "int":
        return ("int", "long")
    return (type_str,)


def _parse_option(option):
    """invalid_arguments.cpp reads the printed overload back as (name, accepted type names) pairs;
    with defaults printed ("bool keepdim = False") it takes "False" for the name: kept, it shows."""
    arguments = []
    for arg in option[1:-1].split(", "):
        space = arg.rfind(" ")
        type_str, name = (arg, arg) if space < 0 else (arg[:space], arg[space + 1:])
        arguments.append((name, _build_type(type_str)))
    return arguments


def _describe(arg):
    if isinstance(arg, (tuple, list)):
        items = ", ".join(type_name(x) for x in arg)
        if isinstance(arg, tuple):
            return f"tuple of ({items}{',' if len(arg) == 1 else ''})"
        return f"list of [{items}]"
    return type_name(arg)


def _arg_desc(args, kwargs):
    out = "(" + "".join(type_name(a) + ", " for a in args)
    out += "".join(f"{k}={type_name(kwargs[k])}, " for k in _unordered(list(kwargs)))
    return (out[:-2] if args else out) + ")"


def _formatted_arg_desc(arguments, args, kwargs):
    red, reset = ("\33[31;1m", "\33[0m") if os.isatty(1) and os.isatty(2) else ("!", "!")
    green, reset_green = ("\33[32;1m", "\33[0m") if red != "!" else ("", "")
    out = "("
    for i in range(len(args) + len(kwargs)):
        is_kwarg = i >= len(args)
        arg = kwargs[arguments[i][0]] if is_kwarg else args[i]
        ok = i < len(arguments) and type_name(arg) in arguments[i][1]
        out += (green if ok else red) + (arguments[i][0] + "=" if is_kwarg else "") + _describe(arg)
        out += (reset_green if ok else reset) + ", "
    return (out[:-2] if args else out) + ")"


def _unmatched_kwargs(arguments, kwargs):
    start = max(len(arguments) - len(kwargs), 0)
    names = [name for name, _ in arguments[start:]]
    return [k for k in _unordered(list(kwargs)) if k not in names]


def _invalid_combination(name, options, args, kwargs):
    """invalid_arguments.cpp's format_invalid_args."""
    msg = f"{name}() received an invalid combination of arguments - "
    if len(options) == 1:
        arguments = _parse_option(options[0])
        unmatched = _unmatched_kwargs(arguments, kwargs) if kwargs else []
        if unmatched:
            return msg + "got unrecognized keyword arguments: " + ", ".join(unmatched)
        fits = len(arguments) == len(args) + len(kwargs)
        got = _formatted_arg_desc(arguments, args, kwargs) if fits else _arg_desc(args, kwargs)
        return msg + f"got {got}, but expected {options[0]}"
    msg += f"got {_arg_desc(args, kwargs)}, but expected one of:\n"
    for option in options:
        msg += f" * {option}\n"
        arguments = _parse_option(option)
        if len(arguments) == len(args) + len(kwargs):
            unmatched = _unmatched_kwargs(arguments, kwargs) if kwargs else []
            if unmatched:
                msg += "      didn't match because some of the keywords were incorrect: " + ", ".join(unmatched) + "\n"
            else:
                msg += ("      didn't match because some of the arguments have invalid types: "
                        + _formatted_arg_desc(arguments, args, kwargs) + "\n")
    return msg


def _star_call():
    """Whether the user's call was `f(*args)` (CALL_FUNCTION_EX), for which CPython's message names
    the object's class (Tensor) rather than the one defining the method (TensorBase)."""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename in (__file__, "<gradlab wrapper>")):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_code[frame.f_lasti] == dis.opmap["CALL_FUNCTION_EX"]


def check(entry, args, kwargs):
    """PyTorch's TypeError for this call of the function described by entry (its signature strings,
    or the CPython name of a C function taking no argument, or exactly one if the name ends in "/1"),
    or None if PyTorch accepts the call."""
    if isinstance(entry, str):                                   # METH_NOARGS: CPython's own messages
        if _star_call() and entry.startswith("TensorBase."):
            entry = "Tensor." + entry[len("TensorBase."):]      # a.abs(*args) names the class: "Tensor.abs"
        name, one = entry.removesuffix("/1"), entry.endswith("/1")     # "/1": METH_O, exactly one argument
        if kwargs:
            return TypeError(f"{name}() takes no keyword arguments")
        if one and len(args) != 1:
            return TypeError(f"{name}() takes exactly one argument ({len(args)} given)")
        if args and not one:
            return TypeError(f"{name}() takes no arguments ({len(args)} given)")
        return None
    return _match(entry, args, kwargs)[0]


def _match(entry, args, kwargs):
    """(PyTorch's TypeError or None, the overload the call matched or None, [(parameter, value)] it bound)."""
    bound = []
    sigs = _overloads(entry)
    if len(sigs) == 1:
        error = sigs[0].parse(args, kwargs, True, bound) or sigs[0].unpack_error(args, kwargs)
        return error, sigs[0], bound
    for sig in sigs:
        del bound[:]
        if sig.parse(args, kwargs, False, bound) is None:
            return sig.unpack_error(args, kwargs), sig, bound
    return _no_match(sigs, args, kwargs), None, None


def _no_match(sigs, args, kwargs):
    shown = [s for s in sigs if not s.hidden]
    n = len(args) + len(kwargs)
    plausible = [s for s in shown if s.min_args <= n <= s.max_args]
    if len(plausible) == 1:
        error = plausible[0].parse(args, kwargs, True)
        if error is not None:
            return error
    return TypeError(_invalid_combination(sigs[0].name, [str(s) for s in shown], args, kwargs))


# ---------------------------------------------------------------- installation

def _refusal(entry, args, kwargs):
    """PyTorch's TypeError for the call, or None; never lets a parser fault hide the original error."""
    if any(key.startswith("_") for key in kwargs):             # gradlab's own internal call (_real_dim=)
        return None
    try:
        return check(entry, args, kwargs)
    except TypeError as error:                                   # "expected Tensor as element 1 in argument 0"
        return error
    except Exception:
        return None


class _Missing:
    """The wrapper's marker for a positional slot the caller left out."""


_MISSING = _Missing()


def _trim(values):
    """The positional arguments actually given: the wrapper's slots up to the first unused one."""
    n = len(values)
    while n and values[n - 1] is _MISSING:
        n -= 1
    return values[:n]


# the other way round: numpy's name -> PyTorch's, so that t.sum(axis=0) reaches gradlab's sum(dim=)
_TORCH_NAMES = {alias: name for name, aliases in _NUMPY_NAMES.items() for alias in aliases}


def _numpy_names(fn, kwargs):
    """kwargs with numpy's names replaced by PyTorch's, where fn takes PyTorch's name and not numpy's."""
    params = inspect.signature(fn).parameters
    renamed = {}
    for key, value in kwargs.items():
        torch_name = _TORCH_NAMES.get(key)
        if torch_name is not None and key not in params and torch_name in params and torch_name not in kwargs:
            key = torch_name
        renamed[key] = value
    return renamed


# ---------------------------------------------------------------- every call checked, cheaply
#
# PyTorch parses every call; gradlab's parser in Python costs 5-20 us, more than most ops. But whether a
# value fits a parameter almost always depends on its type only (a bool for `bool keepdim`, an int for
# `int dim`, a Tensor for `Tensor other`): a call is parsed once for each new combination of argument
# types, and when the overload it matched took every value by its type, that combination is remembered
# as accepted (`ok`: the type of one positional argument, a tuple of them for more; with keywords, the
# types of all values then the keyword names). The wrapper then checks a call with one set lookup.
# Values whose fit depends on more than their type (a 0-d Tensor for a Number, an int list's items) are
# parsed each time, except int lists and Tensor lists, whose items are checked by a `rule` (view((2, 3)),
# cat([a, b])).

_VARARG = object()                    # a "parameter" bound to each int of view(2, 3), read as view((2, 3))
_NUMBER_PARAMS = {"Scalar", "complex", "double"}
_INT_PARAMS = {"int64_t", "SymInt"}
_INT = frozenset({int})
_PRIMITIVES = (int, float, bool, complex)


def _all_ints(items):
    return _INT.issuperset(map(type, items))


def _ints_first(args, kwargs):
    return _INT.issuperset(map(type, args[0]))


def _all_tensors(items):
    Tensor = _classes()[0]
    for item in items:
        if not isinstance(item, Tensor):
            return False
    return True


def _sure(p, obj):
    """True if every value of obj's type fits the parameter p that obj fitted; a rule on the value if only
    a list's items decide; False if the value itself decides (a 0-d Tensor for a Number)."""
    kind = type(obj)
    if p is _VARARG:
        return kind is int
    t = p.type
    if t in _INT_PARAMS:
        return kind is int                                       # (others are converted to int, by `_as_ints`)
    if t in _NUMBER_PARAMS:
        return kind in _PRIMITIVES                               # (numpy's are converted, by `_as_ints`)
    if t in ("IntArrayRef", "SymIntArrayRef"):
        if isinstance(obj, (tuple, list)):
            from ._size import Size
            return True if kind is Size else _all_ints
        return kind is int
    if t == "TensorList" or t.startswith("c10::List"):
        return _all_tensors if kind in (tuple, list) else False
    if t in ("ArrayRef<double>", "DimnameList", "ScalarList"):
        return False
    if t == "ScalarType":
        return kind is not type                                  # dtype=float: the value decides
    return True                                                  # Tensor, bool, str, dtype, None, PyObject*, ...


_INTERNAL = "internal"                # rules[_INTERNAL]: combinations gradlab's own calls made, parsed once
_CACHE_LIMIT = 256                    # type combinations remembered per function (a bound on memory)


def _remember(key, args, kwargs, bound, ok, rules):
    """Records key as accepted if the overload took every value by its type (or by a rule on its items)."""
    checks = []
    for p, value in bound:
        sure = _sure(p, value)
        if sure is False:
            return
        if sure is not True:
            where = next((i for i, a in enumerate(args) if a is value), None)
            if where is None:
                where = next(k for k, v in kwargs.items() if v is value)
            checks.append((where, sure))
    if len(ok) + len(rules) >= _CACHE_LIMIT:
        return
    if len(checks) == 1 and checks[0] == (0, _all_ints):         # the usual one: zeros((2, 3))
        rules[key] = _ints_first
    elif len(checks) == 1 and checks[0][0].__class__ is int:    # cat([a, b])
        where, rule = checks[0]
        rules[key] = lambda args, kwargs: rule(args[where])
    elif checks:
        rules[key] = functools.partial(_rules_hold, tuple(checks))
    else:
        ok.add(key)


def _rules_hold(checks, args, kwargs):
    return all(rule(args[where] if where.__class__ is int else kwargs[where]) for where, rule in checks)


_DEPRECATED_WARNED = "deprecated overload"   # PyTorch warns once a process, for all deprecated overloads


def _deprecated(entry, sig, bound, lead, args, kwargs):
    """A call matching a deprecated overload (a.add(2, b): alpha first): PyTorch's warning, and the
    call rewritten to the current overload's form (a.add(b, alpha=2)) for gradlab's function."""
    from .tensor import _WARNED, _WARN_ALWAYS
    sigs = _overloads(entry)
    if _DEPRECATED_WARNED not in _WARNED or _WARN_ALWAYS[0]:
        _WARNED.add(_DEPRECATED_WARNED)
        instead = "".join(f"\n\t{s.name}{s}" for s in sigs if not s.deprecated and not s.hidden)
        warnings.warn(f"This overload of {sig.name} is deprecated:\n\t{sig.name}{sig}\nConsider using one of the "
                      f"following signatures instead:{instead} (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)", UserWarning, stacklevel=5)
    values = {p.name: v for p, v in bound}
    for main in sigs:
        names = [p.name for p in main.params]
        if not main.deprecated and set(values) <= set(names):
            positional = [values[p.name] for p in main.params if not p.keyword_only and p.name in values]
            keywords = {p.name: values[p.name] for p in main.params if p.keyword_only and p.name in values}
            return tuple(positional), keywords
    return args, kwargs


def _vet(fn, entry, lead, args, kwargs, key, ok, rules):
    """A call whose types are not known to be accepted: PyTorch's TypeError if it refuses it, else the
    arguments to call fn with (a deprecated overload's in its current form, keywords gradlab names
    otherwise by position, ints and Numbers as `_as_ints` makes them)."""
    if any(k.startswith("_") for k in kwargs):
        return args, kwargs                                      # gradlab's own internal keyword (_real_dim=)
    internal = sys._getframe(3).f_globals.get("__name__", "").startswith("gradlab")
    if internal:                             # gradlab's own calls (t.div(other, None)) pass as written
        seen = rules.setdefault(_INTERNAL, set())
        if (key in seen or len(seen) >= _CACHE_LIMIT) and (not kwargs or _takes(fn, kwargs)):
            return args, kwargs
        seen.add(key)                        # parsed once, so that an accepted combination is remembered
    if isinstance(entry, str):
        error = check(entry, args, kwargs)                       # only the number of arguments matters
        if error is not None:
            if internal:
                return args, kwargs
            raise error
        ok.add(key)
        return args, kwargs
    try:
        error, sig, bound = _match(entry, args, kwargs)
    except TypeError as refusal:                                 # "expected Tensor as element 1 in argument 0"
        error, sig = refusal, None
    except Exception:                                            # a fault of the parser never blocks a call
        return args, kwargs
    if error is not None:
        if internal:
            return args, kwargs
        raise error
    if sig.deprecated:
        return _deprecated(entry, sig, bound, lead, args, kwargs)
    if kwargs and not _takes(fn, kwargs):
        args, kwargs = _positional(fn, entry, sig, bool(lead), args, kwargs)
    else:
        _remember(key, args, kwargs, bound, ok, rules)
    return _as_ints(bound, args, kwargs)


@functools.lru_cache(maxsize=None)
def _parameters(fn):
    """fn's keyword names, whether it takes **kwargs, and its positional parameters' names (after self)."""
    kinds = inspect.Parameter
    params = inspect.signature(fn).parameters.values()
    names = frozenset(p.name for p in params if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY))
    positional = [p.name for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    return (names, any(p.kind == kinds.VAR_KEYWORD for p in params), tuple(positional),
            any(p.kind == kinds.VAR_POSITIONAL for p in params))


def _takes(fn, kwargs):
    names, any_name = _parameters(fn)[:2]
    return any_name or all(k in names or _TORCH_NAMES.get(k) in names for k in kwargs)


def _positional(fn, entry, sig, method, args, kwargs):
    """PyTorch took a keyword that gradlab's function names otherwise (a.swapaxes(axis0=0, axis1=1),
    torch.ones(size=(2, 3)), a.dot(tensor=b)): passed by position instead, where PyTorch's overload
    has it among its positional parameters and gradlab's function has no other meaning for that place."""
    names, _, positional, var_positional = _parameters(fn)
    positional = positional[1:] if method else positional
    given = {}
    for p in sig.params:
        for name in (p.name,) + _NUMPY_NAMES.get(p.name, ()):
            if name in kwargs:
                given[p.name] = name
                break
    new_args, rest = list(args), dict(kwargs)
    for i, p in enumerate([p for p in sig.params if not p.keyword_only][len(args):], len(args)):
        if p.name not in given:
            break
        if i < len(positional):                  # the place means something else in another overload: leave it
            other = {s.params[i].name for s in _overloads(entry) if len(s.params) > i and s is not sig}
            if positional[i] != p.name and positional[i] in other:
                return args, kwargs
        elif not var_positional:
            return args, kwargs
        new_args.append(rest.pop(given[p.name]))
    for p in sig.params:                         # pin_memory=False, layout=None: PyTorch's default, nothing to do
        key = given.get(p.name)
        if key in rest and key not in names and p.keyword_only and (
                rest[key] is None or rest[key] is False and p.default == "False"):
            del rest[key]
    if not _takes(fn, rest):
        return args, kwargs
    return tuple(new_args), rest


def _index(value):
    return value if value.__class__ is int else operator.index(value)


def _as_ints(bound, args, kwargs):
    """The arguments with what PyTorch's parser reads as ints made Python ints (a.sum(np.int64(0)),
    torch.randint(torch.tensor(5), (2,)), a.view(2, torch.tensor(3))), and a 0-d Tensor or a numpy
    scalar given for a Number its Python number (F.softplus(a, torch.tensor(2)), torch.remainder(
    np.float64(1.5), t): a float32 result, as for 1.5), as gradlab's functions expect."""
    converted = {}
    Tensor = _classes()[0]
    for p, value in bound:
        t = "SymInt" if p is _VARARG else p.type
        if t in _NUMBER_PARAMS and isinstance(value, (Tensor, np.generic)):   # a Number: a Python number,
            # as PyTorch reads a 0-d Tensor or numpy's (np.bool_ is no bool to it: a float)
            converted[id(value)] = float(value) if isinstance(value, np.bool_) else value.item()
            continue
        if value.__class__ is int or t not in ("int64_t", "SymInt", "IntArrayRef", "SymIntArrayRef"):
            continue
        try:
            if isinstance(value, (tuple, list)):
                new = value if _all_ints(value) else type(value)(_index(v) for v in value)
            else:
                new = _index(value)
        except Exception:                                        # (the function then says what is wrong)
            continue
        if new is not value:
            converted[id(value)] = new
    if not converted:
        return args, kwargs
    args = tuple(converted.get(id(a), a) for a in args)
    kwargs = {k: converted.get(id(v), v) for k, v in kwargs.items()}
    return args, kwargs


def _call(fn, entry, lead, args, kwargs, ok, rules):
    """The general path: any keyword, a surplus argument, or argument types not yet known to be accepted."""
    if kwargs:
        key = (*map(type, (*args, *kwargs.values())), *kwargs)    # the names (str, never a type) end it
    else:
        key = type(args[0]) if len(args) == 1 else tuple(map(type, args))
    if key not in ok and not (key in rules and rules[key](args, kwargs)):
        args, kwargs = _vet(fn, entry, lead, args, kwargs, key, ok, rules)
    call_kwargs = _numpy_names(fn, kwargs) if kwargs and not _TORCH_NAMES.keys().isdisjoint(kwargs) else kwargs
    try:
        return fn(*lead, *args, **call_kwargs)
    except Exception:
        error = _refusal(entry, args, kwargs)
        if error is None:
            raise
    raise error                                                  # outside the except: no "During handling..."


def _wrap(fn, entry, method):
    """fn, raising PyTorch's TypeError for a call PyTorch refuses.

    A `def f(*args, **kwargs)` wrapper costs ~150 ns a call (packing a tuple and a dict), 5% of a
    small x.exp(). So the wrapper is written for fn's own positional parameters, positional-only and
    defaulting to a marker: a positional call whose argument types are known to be accepted passes them
    straight on (one set lookup); keywords, surplus arguments and new types take `_call`, which parses."""
    kinds = inspect.Parameter
    params = list(inspect.signature(fn).parameters.values())[1 if method else 0:]
    lead = "self, " if method else ""
    names = [f"p{i}" for i, p in enumerate(params) if p.kind in (kinds.POSITIONAL_ONLY,
                                                                 kinds.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == kinds.VAR_POSITIONAL for p in params):  # view(self, *shape): four slots for it
        names += [f"p{len(names) + i}" for i in range(4)]
    slots = "".join(f"{n}=_M, " for n in names)
    given = "(" + "".join(f"{n}, " for n in names) + ")"
    slow = f"_call(fn, entry, ({lead}), {{given}}, {{{{}}}}, ok, rules)"
    lines = [f"def wrapper({lead}{slots}{'/, ' if lead or names else ''}*extra, **kwargs):",
             "    if extra:",
             f"        return _call(fn, entry, ({lead}), _trim({given}) + extra, kwargs, ok, rules)"]
    if names:                                                    # the arguments given, without calling _trim
        trimmed = " else ".join(f"({''.join(f'{n}, ' for n in names[:k])}) if {names[k - 1]} is not _M"
                                for k in range(len(names), 0, -1)) + " else ()"
        lines += ["    if kwargs:",
                  f"        return _call(fn, entry, ({lead}), {trimmed}, kwargs, ok, rules)"]
    else:
        lines += ["    if kwargs:",
                  f"        return _call(fn, entry, ({lead}), (), kwargs, ok, rules)"]
    ok, rules = set(), {}
    if isinstance(entry, str) and not entry.endswith("/1"):
        ok.add(())                                               # a.exp(): nothing to check

    def call(given, indent):                                     # fn with the k arguments given
        pad = " " * indent
        return [f"{pad}try:",
                f"{pad}    return fn({lead}{', '.join(given)})",
                f"{pad}except Exception:",
                f"{pad}    error = _refusal(entry, ({''.join(f'{n}, ' for n in given)}), {{}})",
                f"{pad}    if error is None:",
                f"{pad}        raise",
                f"{pad}raise error"]
    for k in range(len(names), 0, -1):                           # the types given, against those known good
        key = f"type({names[0]})" if k == 1 else "(" + "".join(f"type({n}), " for n in names[:k]) + ")"
        args = "(" + "".join(f"{n}, " for n in names[:k]) + ")"
        lines += [f"    {'if' if k == len(names) else 'elif'} {names[k - 1]} is not _M:",
                  f"        key = {key}",
                  f"        if key not in ok and not (key in rules and rules[key]({args}, None)):",
                  "            return " + slow.format(given=args)]
        lines += call(names[:k], 8)
    if () in ok:
        lines += call([], 4)
    else:
        lines += [f"    {'elif' if names else 'if'} () not in ok:",
                  "        return " + slow.format(given="()")]
        lines += call([], 4)
    source = "\n".join(lines) + "\n"
    namespace = {"fn": fn, "entry": entry, "_M": _MISSING, "_trim": _trim, "_call": _call,
                 "_refusal": _refusal, "ok": ok, "rules": rules}
    exec(compile(source, "<gradlab wrapper>", "exec"), namespace)
    wrapper = functools.update_wrapper(namespace["wrapper"], fn)
    wrapper._signatures = entry
    return wrapper


def _vetter(entry):
    """check(entry, ...) raising the error, with the wrappers' memory of accepted argument types; returns
    the arguments as `_as_ints` makes them."""
    ok, rules = set(), {}

    def vet(args, kwargs):
        key = (*map(type, (*args, *kwargs.values())), *kwargs)
        if key in ok or key in rules and rules[key](args, kwargs):
            return args, kwargs
        try:
            error, sig, bound = _match(entry, args, kwargs)
        except TypeError as refusal:
            error = refusal
        if error is not None:
            raise error
        _remember(key, args, kwargs, bound, ok, rules)
        return _as_ints(bound, args, kwargs)
    return vet


def _python_level(function, fn):
    """function, written as PyTorch writes it in Python, in place of gradlab's fn: Python's own messages
    name it as fn is named (Tensor.norm() takes from 1 to 5 positional arguments but 7 were given)."""
    wrapper = functools.update_wrapper(function, fn)
    wrapper.__code__ = function.__code__.replace(co_qualname=fn.__qualname__)
    wrapper._signatures = ()
    return wrapper


def _split_fronts(function, tensor_split):
    """torch.split and Tensor.split are Python in PyTorch (torch/functional.py, torch/_tensor.py): torch.split
    calls tensor.split (torch.split(a, dim=0): "split() missing 1 required positional argument:
    'split_size_or_sections'"), which calls torch._VF.split for an int and split_with_sizes for anything
    else (a.split(1.5): "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints,
    not float")."""
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

    def torch_split(tensor, split_size_or_sections, dim=0):
        return tensor.split(split_size_or_sections, dim)
    torch_split.__name__ = "split"
    return _python_level(torch_split, function), _python_level(split, tensor_split)


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


def install():
    """Wrap gradlab's public functions and Tensor methods that PyTorch implements in C (once, at import)."""
    gradlab = sys.modules[__package__]          # this package, also when imported under another name
    from .nn import functional
    from .tensor import Tensor
    for module, table in ((gradlab, _signatures.TORCH), (functional, _signatures.NN)):
        for name, entry in table.items():
            fn = vars(module).get(name)
            if inspect.isfunction(fn) and not hasattr(fn, "_signatures"):
                setattr(module, name, _wrap(fn, entry, method=False))
    for name, entry in _signatures.TENSOR.items():
        fn = vars(Tensor).get(name)
        if inspect.isfunction(fn) and not hasattr(fn, "_signatures"):
            setattr(Tensor, name, _wrap(fn, entry, method=True))
    if not hasattr(gradlab.norm, "_signatures"):                 # Python in PyTorch, calling C parsers
        gradlab.norm = _norm_front(gradlab.norm, method=False)
        Tensor.norm = _norm_front(Tensor.norm, method=True)
        gradlab.split, Tensor.split = _split_fronts(gradlab.split, Tensor.split)
