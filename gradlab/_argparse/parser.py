"""PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp),
re-implemented only to produce its errors: `check(entry, args, kwargs)` is PyTorch's TypeError for a call
of the function whose overloads `entry` lists (from gradlab/_signatures/), or None if PyTorch accepts it.
"""
import dis
import functools
import operator
import os
import sys

import numpy as np

from .._ctype import tp_name
from .._dtype import dtype, layout, memory_format

_GRADLAB = __package__.rpartition(".")[0]              # gradlab, also when imported under another name
_HERE = os.path.dirname(__file__) + os.sep             # this package's files: frames _star_call skips

_NUMPY_SCALAR = (np.integer, np.floating, np.complexfloating, np.bool_)

# the names PyTorch also accepts, for NumPy compatibility (torch.sum(a, axis=0))
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}

# binary ops whose Tensor argument also takes a Python number (torch.add(2, t))
_NUMBERS_AS_TENSORS = {"add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply", "multiply_",
                       "sub", "sub_", "subtract", "subtract_", "true_divide", "true_divide_", "to", "_to_copy",
                       "copy_", "floor_divide", "floor_divide_"}


@functools.lru_cache(maxsize=None)
def _classes():
    # Tensor, device and Generator are looked up at the first call, not imported: gradlab/_device.py
    # imports this package, and tensor.py and random.py import _device, so they are not yet run
    return (_late("tensor").Tensor, dtype, memory_format, _late("_device").device, _late("random").Generator)


def _late(name):
    """gradlab's module `name` (sys.modules: `gradlab.tensor` the attribute is the function torch.tensor)."""
    return sys.modules[f"{_GRADLAB}.{name}"]


# ---------------------------------------------------------------- what PyTorch calls each value

def type_name(obj):
    """Python's tp_name of obj's type, as PyTorch's messages print it ("numpy.ndarray", "torch.dtype")."""
    return tp_name(type(obj))


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


# A one-element bool Tensor passes PyTorch's parser for an int list (or a SymInt), but a SymInt's value is
# then read as a Scalar that must be integral without bool: torch.zeros(torch.tensor([True])) raises, never
# makes one element (an IntArrayRef reads it as 1: a.permute(0, torch.tensor(True))). An item of a list (or
# a size) fails a TORCH_CHECK, a lone SymInt (a.narrow(0, 0, torch.tensor(True))) pybind's assert.
_BOOL_IN_LIST = ("Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message be "
                 "improved?  If so, please report an enhancement request to PyTorch.)")
_BOOL_FOR_SYMINT = ('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/csrc/utils/'
                    'pybind.cpp":27, please report a bug to PyTorch. ')


def int_list(fn, arg, position, value, allow_int=True, sym=False):
    """The ints of an int[] argument (SymInt[] if sym) as PyTorch's parser reads them, for functions written
    without the parser (F.pad, F.max_pool2d): an int (if allow_int), or a tuple or list whose items are
    ints or one-element integer Tensors; its errors otherwise. Only the first item is checked before the
    call is matched ("found element ... at pos 0"); a later one fails while being read."""
    if allow_int and _is_long(value):
        return [int(value)]
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, not "
                        f"{type_name(value)}")
    Tensor = _classes()[0]
    out = []
    for i, v in enumerate(value):
        if isinstance(v, Tensor) and v.numel() == 1 and not v.dtype.is_floating_point and not v.dtype.is_complex:
            if v.dtype.name == "bool" and sym:
                raise RuntimeError(_BOOL_IN_LIST)
            v = operator.index(v)
        elif i > 0 and isinstance(v, bool):                      # (a later item is read as an int: True is 1)
            v = int(v)
        if not _is_long(v):
            if i == 0:
                raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, but found "
                                f"element of type {type_name(v)} at pos 0")
            raise TypeError(f"{fn}(): argument '{arg}' failed to unpack the object at pos {position} with error "
                            f"\"type must be tuple of ints,but got {type_name(v)}\"")
        out.append(int(v))
    return out


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
        if t == "Stream":       # (PyTorch's parser has no check for a Stream: its FunctionParameter::check throws)
            raise RuntimeError("unknown parameter type")
        return False                                             # Storage, QScheme: gradlab has none


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
        `bound` (a list) receives (parameter, value, where) for each value given, for `_sure`: where is
        its position in args or its key in kwargs (the same object may be given twice: multinomial(a, a))."""
        nargs, remaining = len(args), len(kwargs)
        varargs_list = self.max_pos_args == 1 and self.params[0].type in ("IntArrayRef", "SymIntArrayRef")
        if nargs > self.max_pos_args and not varargs_list:
            return self._extra_args(nargs) if raise_error else False
        arg_pos = 0
        for i, p in enumerate(self.params):
            missing = object()
            obj, is_kwd, where = missing, False, arg_pos
            if arg_pos < nargs:
                if p.keyword_only:                               # extra positionals after view(2, 3)-style ints
                    return self._extra_args(nargs) if raise_error else False
                obj = args[arg_pos]
            elif kwargs:
                obj, where = kwargs.get(p.name, missing), p.name
                for alias in _NUMPY_NAMES.get(p.name, ()):
                    if obj is missing:
                        obj, where = kwargs.get(alias, missing), alias
                is_kwd = True
            if (obj is missing and p.optional) or (obj is None and p.allow_none):
                pass
            elif obj is missing:
                return self._missing_args(i) if raise_error else False
            elif p.check(obj, i):
                if bound is not None:
                    bound.append((p, obj, where))
            elif varargs_list and arg_pos == 0 and not is_kwd and p.check(tuple(args), i):
                if bound is not None:
                    bound.extend((_VARARG, x, j) for j, x in enumerate(args))
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
    while frame is not None and (frame.f_code.co_filename.startswith(_HERE)
                                 or frame.f_code.co_filename == "<gradlab wrapper>"
                                 or frame.f_code.co_name == "_meta_wrapper"):
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
    """(PyTorch's TypeError or None, the overload the call matched or None, [(parameter, value, where)] it bound)."""
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


_VARARG = object()                    # a "parameter" bound to each int of view(2, 3), read as view((2, 3))
