"""The wrappers that put PyTorch's argument parser (parser.py) in front of gradlab's functions, and their
memory of accepted argument types, which makes a checked call cost one set lookup."""
import functools
import inspect
import operator
import sys
import types

import numpy as np

from .. import _signatures
from .._size import Size
from . import _wrapper_shapes
from .parser import (_BOOL_FOR_SYMINT, _BOOL_IN_LIST, _NUMPY_NAMES, _VARARG, _classes, _late, _match, _overloads,
                     check)
from .. import _warnings


# ---------------------------------------------------------------- calling through

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
    for p, value, where in bound:
        sure = _sure(p, value)
        if sure is False:
            return
        if sure is not True:
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
    tensor = _late("tensor")                # (see _classes: this package is imported before gradlab.tensor)
    _WARNED, _WARN_ALWAYS = tensor._WARNED, tensor._WARN_ALWAYS
    sigs = _overloads(entry)
    if _DEPRECATED_WARNED not in _WARNED or _WARN_ALWAYS[0]:
        _WARNED.add(_DEPRECATED_WARNED)
        instead = "".join(f"\n\t{s.name}{s}" for s in sigs if not s.deprecated and not s.hidden)
        _warnings.warn(f"This overload of {sig.name} is deprecated:\n\t{sig.name}{sig}\nConsider using one of the "
                       f"following signatures instead:{instead} (Triggered internally at "
                       "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)", UserWarning)
    values = {p.name: v for p, v, _ in bound}
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
    frame = sys._getframe(3)
    while frame.f_code.co_name == "_meta_wrapper":      # (the meta device's net: _tensor_methods/meta.py)
        frame = frame.f_back
    caller = frame.f_globals.get("__name__", "")
    # (nn's modules are Python in PyTorch too: their forward hands the user's settings, nn.AvgPool2d(4, True)'s
    # stride, to a C function that parses them, so a module's call is checked as the user's own)
    internal = caller.startswith("gradlab") and not caller.startswith("gradlab.nn.modules")
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
    return _as_ints(bound, args, kwargs, sig)


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


def _refuse_bool_tensors(values, message):
    """PyTorch's RuntimeError if one of values (read in order) is a one-element bool Tensor."""
    Tensor = _classes()[0]
    for value in values:
        if isinstance(value, Tensor) and value.dtype.name == "bool" and value.numel() == 1:
            raise RuntimeError(message)


def _as_ints(bound, args, kwargs, sig):
    """The arguments with what PyTorch's parser reads as ints made Python ints (a.sum(np.int64(0)),
    torch.randint(torch.tensor(5), (2,)), a.view(2, torch.tensor(3))), and a 0-d Tensor or a numpy
    scalar given for a Number its Python number (F.softplus(a, torch.tensor(2)), torch.remainder(
    np.float64(1.5), t): a float32 result, as for 1.5), as gradlab's functions expect."""
    converted = {}                 # by place, not by object: multinomial(a, a) takes `a` as a Tensor, then an int
    Tensor = _classes()[0]
    for p, value, where in bound:
        t = "SymInt" if p is _VARARG else p.type
        if t in _NUMBER_PARAMS and isinstance(value, (Tensor, np.generic)):   # a Number: a Python number,
            # as PyTorch reads a 0-d Tensor or numpy's (np.bool_ is no bool to it: a float)
            # (nor is np.complex64 a complex, as np.complex128 is: read through float(), numpy's ComplexWarning)
            real = isinstance(value, np.bool_) or (isinstance(value, np.complexfloating) and not isinstance(value, complex))
            with _warnings.numpy_warnings_at_user_line():
                converted[where] = float(value) if real else value.item()
            continue
        if value.__class__ is int or t not in ("int64_t", "SymInt", "IntArrayRef", "SymIntArrayRef"):
            continue
        if t == "SymInt" and p is _VARARG:              # view(2, 3): the items of the first parameter's list
            t = sig.params[0].type + "[]"
        if t == "SymInt":                                 # (an IntArrayRef's items may be bool: a.sum(torch.tensor([0])))
            _refuse_bool_tensors((value,), _BOOL_FOR_SYMINT)
        elif t == "SymIntArrayRef[]" or t == "SymIntArrayRef" and isinstance(value, (tuple, list)):
            _refuse_bool_tensors(value if isinstance(value, (tuple, list)) else (value,), _BOOL_IN_LIST)
            # (one Tensor for a whole SymIntArrayRef[1], a.roll(torch.tensor(True)), is read as its int: 1)
        try:
            if isinstance(value, (tuple, list)):
                new = value if _all_ints(value) else type(value)(_index(v) for v in value)
            else:
                new = _index(value)
        except Exception:                                        # (the function then says what is wrong)
            continue
        if p is _VARARG and len(args) == 1 and isinstance(value, Tensor):
            new = [new]        # (one tensor taken as the varargs list: x.hsplit(torch.tensor([2])) is x.hsplit([2]))
        if new is not value:
            converted[where] = new
    if not converted:
        return args, kwargs
    args = tuple(converted.get(i, a) for i, a in enumerate(args))
    kwargs = {k: converted.get(k, v) for k, v in kwargs.items()}
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


# (slots, method, empty call known good) -> the function that makes a wrapper of that shape. The shapes
# `import gradlab` uses are written out in _wrapper_shapes.py (by tools/make_wrappers.py), whose bytecode
# Python caches: compiling their text at each import cost ~10 ms. Any other shape is compiled when first met.
_FACTORIES = {}


def _positional_parameters(fn):
    """(how many parameters fn takes by position, whether it has *args), read from its code object:
    inspect.signature costs ~30 us, and `import gradlab` wraps about a thousand functions."""
    target = fn
    while getattr(target, "__signature__", None) is None and hasattr(target, "__wrapped__"):
        target = target.__wrapped__                              # (as signature follows __wrapped__)
    code = getattr(target, "__code__", None)
    if code is None or getattr(target, "__signature__", None) is not None:
        kinds = inspect.Parameter
        params = inspect.signature(fn).parameters.values()
        return (sum(p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD) for p in params),
                any(p.kind == kinds.VAR_POSITIONAL for p in params))
    return code.co_argcount, bool(code.co_flags & inspect.CO_VARARGS)


def _wrap(fn, entry, method):
    """fn, raising PyTorch's TypeError for a call PyTorch refuses.

    A `def f(*args, **kwargs)` wrapper costs ~150 ns a call (packing a tuple and a dict), 5% of a
    small x.exp(). So the wrapper is written for fn's own positional parameters, positional-only and
    defaulting to a marker: a positional call whose argument types are known to be accepted passes them
    straight on (one set lookup); keywords, surplus arguments and new types take `_call`, which parses."""
    positional, var_positional = _positional_parameters(fn)
    slots = positional - (1 if method else 0) + (4 if var_positional else 0)   # view(self, *shape): 4 more
    ok, rules = set(), {}
    if isinstance(entry, str) and not entry.endswith("/1"):
        ok.add(())                                               # a.exp(): nothing to check
    key = (slots, method, () in ok)
    make = _FACTORIES.get(key) or _factory(key)
    wrapper = _named_as(make(fn, entry, _MISSING, _trim, _call, _refusal, ok, rules), fn)
    wrapper._signatures = entry
    return wrapper


def _named_as(wrapper, fn):
    """functools.update_wrapper(wrapper, fn) for a Python function fn, in a third of its time (`import
    gradlab` wraps about 1,100 functions); anything else takes update_wrapper itself."""
    if type(fn) is not _FUNCTION:
        return functools.update_wrapper(wrapper, fn)
    wrapper.__module__, wrapper.__name__, wrapper.__qualname__ = fn.__module__, fn.__name__, fn.__qualname__
    wrapper.__doc__, wrapper.__annotations__ = fn.__doc__, fn.__annotations__
    wrapper.__dict__.update(fn.__dict__)
    wrapper.__wrapped__ = fn
    return wrapper


_FUNCTION = type(_named_as)


def _factory(key):
    """The function making wrappers of this shape: the written-out one, else compiled from its text now.
    Either way its code is filed under "<gradlab wrapper>", as a warning's or traceback's line shows it:
    not a line of gradlab's source (`return fn(self, p0)`) that says nothing to the user."""
    make = getattr(_wrapper_shapes, _factory_name(*key), None)
    if make is None:          # the same text serves every function of the same shape: compiled once
        namespace = {}
        exec(compile(_factory_source(*key), _WRAPPER_FILE, "exec"), namespace)
        make = namespace[_factory_name(*key)]
    else:
        make = types.FunctionType(_filed_as_wrapper(make.__code__), make.__globals__, make.__name__)
    _FACTORIES[key] = make
    return make


_WRAPPER_FILE = "<gradlab wrapper>"


def _filed_as_wrapper(code):
    """code, and the code of the functions it defines, with the file name "<gradlab wrapper>"."""
    consts = tuple(_filed_as_wrapper(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=_WRAPPER_FILE, co_consts=consts)


def _factory_name(slots, method, empty_ok):
    return f"make_{slots}{'_method' if method else ''}{'_empty_ok' if empty_ok else ''}"


def _factory_source(slots, method, empty_ok):
    """The text of a function that returns a wrapper of this shape around fn (its names are closure cells)."""
    body = "".join("    " + line + "\n" for line in _wrapper_source(slots, method, empty_ok).splitlines())
    return (f"def {_factory_name(slots, method, empty_ok)}(fn, entry, _M, _trim, _call, _refusal, ok, rules):\n"
            f"{body}    return wrapper\n")


def shapes_module_text(keys):
    """gradlab/_argparse/_wrapper_shapes.py's text for these shapes (tools/make_wrappers.py writes it)."""
    parts = ['"""The argument wrappers\' shapes that `import gradlab` uses, written out so that Python caches their\n'
             'bytecode. Made by tools/make_wrappers.py from wrappers.py\'s _wrapper_source: do not edit."""\n']
    parts += ["\n\n" + _factory_source(*key) for key in sorted(keys)]
    return "".join(parts)


def _wrapper_source(slots, method, empty_ok):
    """The text of a wrapper taking `slots` positional arguments (after self, for a method)."""
    lead = "self, " if method else ""
    names = [f"p{i}" for i in range(slots)]
    marked = "".join(f"{n}=_M, " for n in names)
    given = "(" + "".join(f"{n}, " for n in names) + ")"
    slow = f"_call(fn, entry, ({lead}), {{given}}, {{{{}}}}, ok, rules)"
    lines = [f"def wrapper({lead}{marked}{'/, ' if lead or names else ''}*extra, **kwargs):",
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
    if empty_ok:
        lines += call([], 4)
    else:
        lines += [f"    {'elif' if names else 'if'} () not in ok:",
                  "        return " + slow.format(given="()")]
        lines += call([], 4)
    return "\n".join(lines) + "\n"


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
        return _as_ints(bound, args, kwargs, sig)
    return vet


def checked(name, fn):
    """fn as gradlab.<name> is once gradlab has bound its wrapped() forms (PyTorch's TypeErrors for its
    arguments), for code that runs inside gradlab but must refuse a user's value as torch would (nn.Linear's
    torch.empty)."""
    return _wrap(fn, _signatures.TORCH[name], method=False)
