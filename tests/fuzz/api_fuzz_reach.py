"""More generated calls for the differential fuzzer: every public name gradlab shares with torch, reached
with arguments built from the name's own signature (tests/fuzz/test_api_fuzz.py --coverage lists what no case
calls).

- `signature_cases`: each torch function and Tensor method, its arguments drawn by parameter type and name
  from PyTorch's own signatures (gradlab/_signatures/ holds them, generated from torch): valid values mostly,
  sometimes one bad one (None, a string, a float dim, out-of-range dims), positional or keyword, numpy's
  aliases (`axis`, `keepdims`), on tensors of every dtype, 0-d, empty, non-contiguous and expanded.
- `autograd_cases`: the differentiable ones again on float leaves, through `autograd.grad(create_graph=True)`
  and a second backward (the harness compares grads, grad_fn names and printing).
- `dunder_cases`: every operator incl. reflected and in-place ones, conversions, containers, spelled both as
  syntax and as the dunder call.
- `api_cases`: nn modules (built with valid arguments and applied), nn.Module's and Optimizer's methods, the
  autograd API, and the small classes (Size, dtype, device, finfo, iinfo, the legacy tensor types).
Same Case format and rules as api_fuzz_cases: fixed seeds, nothing here knows an answer.
"""
import random
import re
from keyword import iskeyword

from api_fuzz_cases import DTYPES, FLOATS, SHAPES, Case, dim_arg, literal, operand, tensor_input

# --- signatures -------------------------------------------------------------------------------------


def _parse(sig):
    """'name(T a, T2 b=1, *, T3 c=None)' -> [(type, name, has_default, keyword_only)]."""
    inner = sig[sig.index("(") + 1:sig.rindex(")")]
    out, kwonly = [], False
    for p in re.split(r",\s*(?![^\[{]*[\]}])", inner):     # (not inside [..] or a {0,1} default)
        p = p.strip()
        if not p:
            continue
        if p == "*":
            kwonly = True
            continue
        head, eq, _default = p.partition("=")
        typ, _space, name = head.strip().rpartition(" ")
        out.append((typ, name, bool(eq), kwonly))
    return out


def _signatures(table, name):
    v = table.get(name)
    if v is None:
        return None
    if isinstance(v, str):
        return [[]] if not v.endswith("/1") else [[("Tensor", "other", False, False)]]
    # (out_dtype overloads run on CUDA only: torch's CPU build answers them with a dispatcher dump)
    return [_parse(s) for s in v if "|deprecated" not in s and "out_dtype" not in s]


SKIP_PARAMS = {"out", "layout", "pin_memory", "memory_format", "generator", "names", "non_blocking", "copy",
               "async", "sparse_grad", "_stacklevel"}
NUMPY_ALIASES = {"dim": "axis", "keepdim": "keepdims", "input": "x", "other": "x2"}
BAD = ["None", "'x'", "1.5", "[1, 2]", "torch.tensor([0.5])", "(0, 0)", "5", "-4", "True", "torch.float64",
       "np.int64(1)"]
NUMBERS = ["2", "-1", "0", "0.5", "-2.5", "True", "np.float64(1.5)", "np.int64(3)", "np.float32(-0.5)",
           "torch.tensor(2.)", "torch.tensor(3)", "1e3", "float('nan')"]


def _value(rng, typ, name, shape, receiver):
    """A valid-looking source text for one parameter (type and name as in PyTorch's signature)."""
    nd = len(shape)
    base = typ.rstrip("?")
    if name in ("dim", "dim0", "dim1", "start_dim", "end_dim", "axis0", "axis1") and base.startswith("int64"):
        return str(dim_arg(rng, nd, bad=0.1))
    if name in ("dim", "dims") and "IntArrayRef" in base:
        if nd == 0:
            return rng.choice(["0", "(0,)", "[-1]", "()"])
        ds = rng.sample(range(-nd, nd), min(nd, rng.randint(1, 2)))
        if len({d % nd for d in ds}) < len(ds):
            ds = ds[:1]
        return rng.choice([str(ds[0]), str(tuple(ds)), str(list(ds))])
    if base == "bool":
        return rng.choice(["True", "False"])
    if base in ("ScalarType",):
        return "torch." + rng.choice(DTYPES)
    if base == "Device":
        return rng.choice(["'cpu'", "torch.device('cpu')", "'cpu:0'", "None"])
    if base == "c10::string_view":
        return {"rounding_mode": rng.choice(["'floor'", "'trunc'", "None", "'round'"]),
                "approximate": rng.choice(["'none'", "'tanh'", "'exact'"])}.get(name, "'none'")
    if name in ("size", "shape", "sizes", "repeats"):
        if name == "repeats" or rng.random() < 0.3:
            return ", ".join(str(rng.randint(1, 2)) for _ in range(max(nd, 1)))
        n = 1
        for s in shape:
            n *= s
        return rng.choice([f"({n},)", "-1", f"({max(1, n)}, -1)" if n else "(0, 3)", "(2, 3)", "[3]", "()"])
    if name == "shifts":
        return str(rng.randint(-3, 3))
    if base in ("SymInt", "int64_t"):
        if name in ("steps",):
            return str(rng.randint(0, 6))
        if name in ("chunks", "sections", "split_size"):
            return str(rng.randint(1, 3))
        if name in ("high", "n", "m"):
            return str(rng.randint(1, 5))
        if name == "low":
            return str(rng.randint(-3, 0))
        if name == "decimals":
            return str(rng.randint(-1, 3))
        return str(rng.randint(-1, 2))
    if base == "double":
        return {"p": rng.choice(["0.0", "0.5", "1.0"]), "rtol": "1e-3", "atol": "1e-4",
                "std": rng.choice(["1.0", "0.5", "-1.0"]), "base": rng.choice(["10.0", "2.0"]),
                }.get(name, rng.choice(["0.5", "2.0", "-1.0", "0.0"]))
    if name in ("index",) and "Tensor" in base:
        return rng.choice(["torch.tensor([0, 1])", "torch.tensor([0])", "torch.zeros_like(a, dtype=torch.int64)",
                           "torch.tensor([-1])", "torch.tensor([5])", "torch.tensor([0.])"])
    if name in ("mask", "condition"):
        return rng.choice(["a > 0", "a != 0", "torch.tensor(True)", "a.bool()", "torch.tensor([True, False])"])
    if name in ("mat2", "vec", "vec2", "tensor", "weight") and "Tensor" in base:
        k = shape[-1] if shape else 3
        return rng.choice([literal(rng, rng.choice(FLOATS), (k, 2)), literal(rng, "float32", (k,)),
                           literal(rng, rng.choice(DTYPES), (2, k, 2)), f"a.t()" if nd == 2 else "a"])
    if name == "tensors" or base.startswith("TensorList"):
        return rng.choice(["[a, a]", "(a, a.double())", "[a]", "[a, torch.ones(1)]"])
    if name == "data" or base == "PyObject*":
        return rng.choice(["[1, 2]", "[[1.5], [2.]]", "a", "np.array([1., 2.])", "3"])
    if base == "Tensor" or (base == "Scalar" and name in ("other", "exponent", "end", "weight")):
        if rng.random() < 0.5:
            return operand(rng, shape, allow_bad=False)
        return rng.choice(NUMBERS)
    if base == "Scalar":
        if name in ("min", "max"):
            return rng.choice(["-1", "1", "0.5", "None", "torch.tensor(0.)"]) if typ.endswith("?") else \
                rng.choice(["-1", "1", "0.5"])
        if name == "correction":
            return rng.choice(["0", "1", "2", "None"])
        if name in ("start", "end", "step"):
            return rng.choice(["0", "1", "5", "0.5", "-2", "3.5"])
        return rng.choice(NUMBERS)
    return rng.choice(NUMBERS)


def _build_call(rng, params, shape, receiver, bad=0.15):
    """Argument list text for these parameters: optional ones maybe left out, positional ones maybe named."""
    args, named = [], False
    params = [p for p in params if p[1] not in SKIP_PARAMS]
    bad_at = rng.randrange(len(params)) if params and rng.random() < bad else -1
    for i, (typ, name, has_default, kwonly) in enumerate(params):
        if receiver and name in ("input", "self") and typ.startswith("Tensor") and i == 0:
            if rng.random() < 0.12:
                args.append(f"{rng.choice(['input', 'input', 'x'])}=a")
                named = True
            else:
                args.append("a")
            continue
        if iskeyword(name):  # `from`: can only be given by position
            if named:
                break
            args.append(_value(rng, typ, name, shape, receiver))
            continue
        if has_default and rng.random() < 0.5:
            named = True  # what follows must be named
            continue
        val = rng.choice(BAD) if i == bad_at else _value(rng, typ, name, shape, receiver)
        keyword = kwonly or named or rng.random() < 0.3
        if "," in val and not val.startswith(("(", "[")) and (keyword or i < len(params) - 1):
            val = f"({val})"  # varargs sizes only as the last positional argument
        if keyword:
            key = NUMPY_ALIASES.get(name, name) if rng.random() < 0.15 else name
            args.append(f"{key}={val}")
            named = True
        else:
            args.append(val)
    return ", ".join(args)


def _receiver(rng, grad=None):
    dtype = rng.choice(DTYPES + ["float32", "float32", "int64"])
    shape = SHAPES[rng.randrange(len(SHAPES))]
    return tensor_input(rng, "a", dtype=dtype, shape=shape, grad=grad)


def _meta_wrap(name, expr):
    if "empty" in name:  # uninitialized memory: only what is defined is compared
        return f"meta({expr})"
    return expr


def _seeded(name, lines):
    if any(w in name.lower() for w in ("rand", "normal", "uniform", "dropout", "bernoulli", "random", "seed")):
        return ["torch.manual_seed(0)"] + list(lines)
    return list(lines)


def signature_cases(public, seed, visits=5):
    import gradlab
    from gradlab import _signatures as sigs
    from api_fuzz_cases import public_methods
    cases = []
    for name in public_methods(gradlab):
        options = _signatures(sigs.TENSOR, name) or _signatures(sigs.TORCH, name)
        if options is None:
            continue
        rng = random.Random(f"{seed}:sig-method:{name}")
        for _ in range(visits):
            params = rng.choice(options)
            if params and params[0][1] in ("input", "self") and params[0][0].startswith("Tensor"):
                params = params[1:]
            lines = _receiver(rng)
            if name.endswith("_"):
                lines = _with_line(lines, "a = a.clone()" if rng.random() < 0.7 else None)
            expr = _meta_wrap(name, f"a.{name}({_build_call(rng, params, lines.shape, True)})")
            cases.append(Case("values" if rng.random() < 0.6 else "errors", "\n".join(_seeded(name, lines) + [expr]),
                              f"sig:Tensor.{name}"))
    for name in sorted(public):
        options = _signatures(sigs.TORCH, name)
        if options is None or not callable(getattr(gradlab, name, None)):
            continue
        rng = random.Random(f"{seed}:sig-function:{name}")
        for _ in range(visits):
            params = rng.choice(options)
            lines = _receiver(rng)
            has_input = any(p[0].startswith("Tensor") and p[1] in ("input", "self") for p in params)
            expr = _meta_wrap(name, f"torch.{name}({_build_call(rng, params, lines.shape, has_input)})")
            code = _seeded(name, lines if re.search(r"\ba\b", expr) else []) + [expr]
            cases.append(Case("values" if rng.random() < 0.6 else "errors", "\n".join(code), f"sig:torch.{name}"))
    return cases


def _with_line(lines, extra):
    from api_fuzz_cases import Setup
    return Setup(list(lines) + ([extra] if extra else []), lines.shape)


# --- autograd through every differentiable name ----------------------------------------------------

NOT_DIFFERENTIABLE = re.compile(r"^(is_|arg|eq|ne|lt|le|gt|ge|greater|less|not_equal|equal|logical|isnan|isinf|"
                                r"isfinite|nonzero|numel|dim|size|stride|element_size|tolist|item|numpy|data_ptr|"
                                r"get_device|new_|zero_|fill_|normal_|uniform_|random_|bool|int|long|short|char|byte|"
                                r"allclose|all|any|sign|round|floor|ceil|trunc|type|cpu|cuda|register|retain|draw|"
                                r"requires_grad_|detach|backward|ndimension|nelement|layout|frac|remainder|fmod)")


def autograd_cases(public, seed, visits=2):
    import gradlab
    from gradlab import _signatures as sigs
    from api_fuzz_cases import public_methods
    cases = []
    names = [("method", n) for n in public_methods(gradlab) if not NOT_DIFFERENTIABLE.match(n)]
    for kind, name in names:
        options = _signatures(sigs.TENSOR, name) or _signatures(sigs.TORCH, name)
        if options is None:
            continue
        rng = random.Random(f"{seed}:grad:{name}")
        for _ in range(visits):
            params = rng.choice(options)
            if params and params[0][1] in ("input", "self"):
                params = params[1:]
            dtype = rng.choice(["float32", "float32", "float64"])
            shape = rng.choice([(3,), (2, 3), (2, 2), (), (2, 3, 2)])
            lines = tensor_input(rng, "a", dtype=dtype, shape=shape, grad=True, special=0.0)
            leaf = "a0" if lines[0].startswith("a0 =") else "a"
            recv = "a.clone()" if name.endswith("_") else "a"
            call = f"{recv}.{name}({_build_call(rng, params, shape, True, bad=0.0)})"
            # weighted sums (1, 2, 3, 1, ...): a plain sum of softmax-like outputs has a zero gradient, whose
            # rounding noise (1e-17) would print differently in the two libraries
            weigh = "w = lambda t: t * (torch.arange(t.numel()).reshape(t.shape) % 3 + 1)"
            tail = rng.choice([
                ["o = y[0] if isinstance(y, tuple) else y", weigh,
                 f"g = torch.autograd.grad(w(o).sum(), {leaf}, create_graph=True)", "(w(g[0]), o)"],
                ["o = y[0] if isinstance(y, tuple) else y", weigh,
                 f"g = torch.autograd.grad(w(o).sum(), {leaf}, create_graph=True)",
                 "(w(g[0]).sum(), o.grad_fn.name())"],
                ["o = y[0] if isinstance(y, tuple) else y", "o.backward(torch.ones_like(o))",
                 f"({leaf}.grad, o)"],
            ])
            cases.append(Case("autograd", "\n".join(lines + [f"y = {call}"] + tail), f"grad2:{name}"))
    return cases


# --- operators: every dunder, syntax and explicit ------------------------------------------------

BINARY_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
                  "matmul": "@", "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>"}
COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def dunder_cases(public, seed, visits=8):
    import gradlab
    cases = []
    for name in sorted(n for n in vars(gradlab.Tensor) if n.startswith("__") and n.endswith("__")):
        core = name[2:-2]
        kind = core[1:] if core[:1] in "ri" and core[1:] in BINARY_SYMBOLS else core
        prefix = core[:1] if kind != core else ""
        if kind not in BINARY_SYMBOLS and kind not in COMPARE and kind not in UNARY_DUNDERS:
            continue
        rng = random.Random(f"{seed}:dunder:{name}")
        for _ in range(visits):
            grad = None if rng.random() < 0.5 else False
            lines = tensor_input(rng, "a", grad=grad)
            shape = lines.shape
            if kind == "matmul":
                k = shape[-1] if shape else 3
                other = rng.choice([literal(rng, rng.choice(DTYPES[:2] + ["int64"]), (k, 2)),
                                    literal(rng, "float32", (k,)), f"[1.] * {k}", "2", "None",
                                    f"np.ones({k}, dtype=np.float32)"])
            elif kind in BINARY_SYMBOLS or kind in COMPARE:
                other = operand(rng, shape, allow_bad=rng.random() < 0.15)
            else:
                other = None
            explicit = rng.random() < 0.35
            if kind in COMPARE:
                expr = f"a.{name}({other})" if explicit else f"a {COMPARE[kind]} {other}"
                code = lines + [expr]
            elif kind in BINARY_SYMBOLS:
                sym = BINARY_SYMBOLS[kind]
                if prefix == "r":
                    if other.startswith("np."):
                        other = rng.choice(["2", "0.5", "True", "[1.0]"])
                    expr = f"a.{name}({other})" if explicit else f"{other} {sym} a"
                    code = lines + [expr]
                elif prefix == "i":
                    step = f"b.{name}({other})" if explicit else f"b {sym}= {other}"
                    code = lines + ["b = a.clone()" if rng.random() < 0.8 else "b = a", step, "b"]
                else:
                    code = lines + [f"a.{name}({other})" if explicit else f"a {sym} {other}"]
            else:
                code = lines + [rng.choice(UNARY_DUNDERS[kind])]
            cases.append(Case("dtypes" if kind in BINARY_SYMBOLS or kind in COMPARE else "attributes",
                              "\n".join(code), f"dunder:{name}"))
    return cases


UNARY_DUNDERS = {
    "neg": ["-a", "a.__neg__()"], "pos": ["+a", "a.__pos__()"], "abs": ["abs(a)", "a.__abs__()"],
    "invert": ["~a", "a.__invert__()"], "bool": ["bool(a)", "a.__bool__()", "not a", "1 if a else 0"],
    "float": ["float(a)", "a.__float__()"], "int": ["int(a)", "a.__int__()"],
    "index": ["a.__index__()", "[10, 20, 30][a]", "__import__('operator').index(a)", "range(5)[a]"],
    "complex": ["complex(a)", "a.__complex__()"], "len": ["len(a)", "a.__len__()"],
    "iter": ["list(iter(a))", "[t for t in a]", "tuple(a)"], "contains": ["1 in a", "a.__contains__(0.5)",
                                                                          "torch.tensor(1) in a", "'x' in a"],
    "format": ["f'{a:.3f}'", "format(a, '>8')", "a.__format__('')", "'{:e}'.format(a)"],
    "repr": ["a.__repr__()", "repr(a[None])"], "str": ["a.__str__()"],
    "getitem": ["a.__getitem__(0)", "a.__getitem__((Ellipsis, None))", "a.__getitem__(slice(None, None, -1))"],
    "setitem": ["a = a.clone()\na.__setitem__(0, 1)\na", "a = a.clone()\na.__setitem__(Ellipsis, 2.5)\na"],
    "array": ["np.asarray(a).dtype", "a.__array__().shape", "np.array(a).tolist()", "np.sum(a)"],
    "deepcopy": ["__import__('copy').deepcopy(a)", "a.__deepcopy__({})", "__import__('copy').copy(a)"],
    "hash": ["hash(a) == hash(a)", "len({a, a})"],
    "reduce_ex": ["__import__('pickle').loads(__import__('pickle').dumps(a))"],
}


# --- nn, optim, autograd API and the small classes ------------------------------------------------

MODULE_ARGS = {
    "Linear": ["3, 2", "3, 2, bias=False", "3, 2, dtype=torch.float64", "in_features=3, out_features=1", "3.5, 2",
               "0, 2", "-1, 2"],
    "ReLU": ["", "inplace=True", "True"], "Sigmoid": [""], "Tanh": [""], "Identity": ["", "3"],
    "Softmax": ["", "dim=1", "0", "dim=-1", "dim=5"], "LogSoftmax": ["", "dim=1", "-1"],
    "Softmin": ["", "dim=1", "0"], "Flatten": ["", "0", "start_dim=0, end_dim=-1", "1, 2"],
    "Dropout": ["", "p=0.0", "0.0", "p=1.0", "p=1.5", "inplace=True"],
    "ELU": ["", "alpha=0.5", "2.0", "inplace=True"], "GELU": ["", "approximate='tanh'", "approximate='bogus'"],
    "LeakyReLU": ["", "0.2", "negative_slope=0.1"], "SiLU": ["", "inplace=True"],
    "Softplus": ["", "beta=2", "beta=2, threshold=1", "0.5"],
    "MSELoss": ["", "reduction='sum'", "reduction='none'", "size_average=False", "reduce=False", "reduction='x'"],
    "L1Loss": ["", "reduction='sum'", "reduction='none'", "size_average=False", "reduce=False"],
    "BCELoss": ["", "reduction='sum'", "weight=torch.tensor([1., 2., 3.])", "reduction='none'"],
    "BCEWithLogitsLoss": ["", "pos_weight=torch.tensor([2.])", "reduction='sum'", "weight=torch.ones(3)"],
    "CrossEntropyLoss": ["", "label_smoothing=0.1", "ignore_index=0", "reduction='none'",
                         "weight=torch.tensor([1., 2., 3.])"],
    "NLLLoss": ["", "ignore_index=1", "reduction='sum'", "weight=torch.tensor([1., 2., 3.])"],
}
LOSS_TARGETS = {"CrossEntropyLoss": ["torch.tensor([0, 2])", "torch.tensor([1, 3])", "torch.softmax(torch.ones(2, 3), 1)",
                                     "torch.tensor([0., 1.])"],
                "NLLLoss": ["torch.tensor([0, 2])", "torch.tensor([2, 2])", "torch.tensor([-1, 0])"],
                "BCELoss": ["torch.tensor([[0., 1., 1.], [1., 0., 0.]])", "torch.ones(2, 3, dtype=torch.float64)"],
                "BCEWithLogitsLoss": ["torch.tensor([[0., 1., 1.], [1., 0., 0.]])", "torch.ones(3)"]}


def module_cases(seed, visits=6):
    import gradlab
    import torch
    cases = []
    names = sorted(n for n in dir(gradlab.nn) if isinstance(getattr(gradlab.nn, n), type)
                   and issubclass(getattr(gradlab.nn, n), gradlab.nn.Module) and hasattr(torch.nn, n)
                   and n in MODULE_ARGS)
    for name in names:
        rng = random.Random(f"{seed}:module:{name}")
        for _ in range(visits):
            ctor = f"nn.{name}({rng.choice(MODULE_ARGS[name])})"
            dtype = rng.choice(["float32", "float32", "float64", "int64", "float16"])
            shape = rng.choice([(2, 3), (2, 3), (3,), (2, 3, 2), (0, 3), ()])
            grad = dtype in FLOATS and rng.random() < 0.6
            lines = ["torch.manual_seed(1)", f"m = {ctor}"]
            lines += tensor_input(rng, "a", dtype=dtype, shape=shape, grad=grad, special=0.0)
            if name in LOSS_TARGETS:
                if name in ("BCELoss",):
                    lines.append("a = a.sigmoid() if a.is_floating_point() else a")
                tail = f"m(a, {rng.choice(LOSS_TARGETS[name])})"
            elif name.endswith("Loss"):
                tail = f"m(a, {rng.choice(['torch.zeros_like(a)', 'torch.ones(3)', 'torch.zeros(2, 3).double()'])})"
            else:
                tail = rng.choice(["m(a)", "m(a)", "m(input=a)", "repr(m)", "m.extra_repr()", "m(a, a)"])
            cases.append(Case("nn", "\n".join(lines + [tail]), f"module2:{name}"))
    return cases


MODULE_METHODS = [
    "m.compile(backend='aot_eager')\nm(torch.ones(2, 3, requires_grad=True))", "m.compile(mode='quick')",
    "m.set_submodule('0', nn.Linear(3, 4))\nm", "m.set_submodule('9.x', nn.ReLU())", "m.share_memory() is m",
    "m.to_empty(device='cpu')\n[p.shape for p in m.parameters()]",
    "m.buffers()", "list(m.buffers())", "m.cuda()", "m.extra_repr()", "m[0].extra_repr()", "m.forward(torch.ones(2, 3))",
    "m[0].forward(torch.ones(3))", "m.register_forward_pre_hook(lambda mod, i: None)\nm(torch.ones(1, 3))",
    "m.register_forward_pre_hook(lambda mod, i: (i[0] * 0,))\nm(torch.ones(1, 3))",
    "m.register_module('extra', nn.ReLU())\n[n for n, _ in m.named_children()]", "m.register_module('a.b', nn.ReLU())",
    "m.register_buffer('buf', torch.ones(2))\nlist(m.state_dict())", "m.register_buffer('buf', 3)",
    "m.register_parameter('p', nn.Parameter(torch.ones(2)))\n[n for n, _ in m.named_parameters()]",
    "m.register_parameter('p', torch.ones(2))", "m.apply(lambda x: None) is m", "m.cpu() is m", "m.half()[0].weight",
    "m.float()[0].weight.dtype", "m.double()[0].bias", "m.to(dtype=torch.float64)[0].weight.dtype", "m.to('cpu') is m",
    "m.to('cuda')", "m.requires_grad_(False)\nm(torch.ones(1, 3)).requires_grad", "m.train(mode=False).training",
    "m.eval().training", "len(list(m.modules()))", "[n for n, _ in m.named_modules()]", "m.get_submodule('2')",
    "m.get_submodule('9')", "m.get_parameter('0.weight').shape", "m.get_parameter('nope')", "m.children()",
    "m.state_dict(prefix='p.')['p.0.bias']", "m.load_state_dict(m.state_dict(), strict=True)",
    "m.load_state_dict({}, strict=False)", "m.load_state_dict({'x': torch.ones(1)})", "m.zero_grad(set_to_none=False)",
    "m.add_module('x', None)\nm", "m.named_parameters(prefix='p')", "list(m.parameters(recurse=False))",
    "m.parameters()", "m(torch.ones(1, 3)).sum().backward()\nm.zero_grad()\n[p.grad for p in m.parameters()]",
    "seen = []\nm[0].register_backward_hook(lambda mod, gi, go: seen.append(len(go)))\n"
    "m(torch.ones(1, 3)).sum().backward()\nseen",
    "p = nn.UninitializedParameter()\n(type(p).__name__, p.requires_grad, isinstance(p, nn.Parameter))",
    "m.register_module('extra', nn.Module())\nm.extra.b = nn.Buffer(torch.ones(2))\n(list(m.state_dict()), "
    "type(m.extra.b).__name__, m.extra.b)",
    "m.extra = nn.Module()\nm.extra.u = nn.UninitializedBuffer()\n(type(m.extra.u).__name__, "
    "[n for n, _ in m.named_buffers()])",
    "seen = []\nfor p in m.parameters():\n    p.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.sum()))\n"
    "m(torch.ones(1, 3)).sum().backward()\nseen",
    "m[0].weight.register_post_accumulate_grad_hook(lambda t: t.grad)\nm(torch.ones(1, 3)).sum().backward()",
]

OPTIM_TAILS = [
    "opt.load_state_dict(opt.state_dict())\nopt.step()\nw", "sd = opt.state_dict()\nopt.load_state_dict(sd)\n"
    "opt.state_dict()['param_groups']", "opt.load_state_dict({})", "opt.load_state_dict({'state': {}, 'param_groups': []})",
    "opt.zero_grad(set_to_none=True)\nw.grad", "opt.step(lambda: (w ** 2).sum())", "opt.state_dict()['state']",
    "opt.add_param_group({'params': w})", "opt.add_param_group({'params': [torch.ones(2, requires_grad=True)]})\n"
    "len(opt.param_groups)", "repr(opt)", "opt.defaults", "[sorted(g) for g in opt.param_groups]",
    "torch.optim.Optimizer([w], {'lr': 0.1})", "torch.optim.Optimizer([w], {})\nrepr(type(torch.optim.Optimizer))",
    "torch.optim.Optimizer([w], {'lr': 0.1}).step()",
]

AUTOGRAD_API = [
    "torch.autograd.backward((x * x).sum())\nx.grad", "torch.autograd.backward([(x * 2).sum()], inputs=[x])\nx.grad",
    "torch.autograd.backward(x * 2, torch.ones_like(x))\nx.grad", "torch.autograd.backward(x * 2)",
    "torch.autograd.backward((x * 2).sum(), grad_tensors=torch.tensor(3.))\nx.grad",
    "torch.autograd.backward([])", "torch.autograd.backward(x.detach().sum())",
    "torch.autograd.gradgradcheck(lambda t: (t ** 3).sum(), (x.double().detach().requires_grad_(),))",
    "torch.autograd.gradgradcheck(lambda t: t.exp(), (x.double().detach().requires_grad_(),))",
    "torch.autograd.gradcheck(lambda t: t.sin(), (x.double().detach().requires_grad_(),), eps=1e-6)",
    "with torch.autograd.enable_grad():\n    y = x * 2\ny.grad_fn",
    "with torch.no_grad():\n    with torch.autograd.enable_grad():\n        y = x * 2\ny.requires_grad",
    "@torch.autograd.enable_grad()\ndef f(t):\n    return t * 2\nwith torch.no_grad():\n    y = f(x)\ny.requires_grad",
    "with torch.autograd.set_grad_enabled(False):\n    y = x * 2\ny.requires_grad",
    "with torch.autograd.inference_mode():\n    y = x * 2\n(y.requires_grad, torch.is_inference_mode_enabled())",
    "with torch.inference_mode(False):\n    y = x * 2\ny.requires_grad",
    "with torch.autograd.no_grad():\n    y = x.exp()\ny",
    "torch.autograd.grad((x ** 2).sum(), x, grad_outputs=torch.tensor(2.))",
    "torch.autograd.grad((x ** 2).sum(), [x], create_graph=True)[0].grad_fn.name()",
    "g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)\ntorch.autograd.grad(g.sum(), x)",
    "torch.autograd.grad(x.sum(), x, torch.ones(3))", "torch.autograd.grad(x * 2, x)",
    "torch.autograd.grad((x * 2).sum(), x, is_grads_batched=False)",
    "torch.is_grad_enabled()", "torch.set_grad_enabled(False)\ny = x * 2\ntorch.set_grad_enabled(True)\ny.requires_grad",
]

SMALL_CLASSES = [
    "torch.Size([2, 3, 2]).count(2)", "torch.Size([2, 3]).index(3)", "torch.Size([2, 3]).index(5)",
    "torch.zeros(2, 3).shape.count(3)", "torch.zeros(2, 3).shape.index(2)", "torch.Size([2, 3]).numel()",
    "torch.Size((2, 3)) + (4,)", "torch.Size([2, 3])[::-1]", "torch.Size([2.5])", "torch.Size([torch.tensor(2)])",
    "torch.device('cpu').index", "torch.device('cpu', 0).index", "torch.device('cpu:0')", "torch.device('cpu').type",
    "torch.device('cpu', 0)", "torch.device('cuda:1').index", "torch.device('cpu') == 'cpu'", "torch.device(0)",
    "torch.float32.to_complex()", "torch.float64.to_complex()", "torch.complex64.to_real()", "torch.float16.to_real()",
    "torch.float16.to_complex()", "torch.complex32.to_real()", "torch.zeros(2, dtype=torch.float16).chalf()",
    "torch.tensor([1 + 2j, -0.5j]).chalf() * 2", "torch.chalf.itemsize",
    "torch.int64.to_complex()", "torch.float32.is_floating_point", "torch.uint8.is_signed", "torch.float16.itemsize",
    "torch.finfo(torch.float32)", "torch.finfo(torch.float16).eps", "torch.finfo().max", "torch.finfo(torch.int64)",
    "torch.finfo(torch.float64).tiny", "torch.finfo(torch.float32).resolution", "torch.finfo(torch.float16).bits",
    "torch.iinfo(torch.int64)", "torch.iinfo(torch.uint8).max", "torch.iinfo(torch.int8).min",
    "torch.iinfo(torch.float32)", "torch.iinfo(torch.int16).bits", "torch.iinfo(torch.bool)",
    "torch.FloatTensor([1, 2])", "torch.DoubleTensor([[1.5]])", "torch.LongTensor([1.7, 2])", "torch.IntTensor([1])",
    "torch.BoolTensor([0, 2])", "torch.ByteTensor([3, 255])", "torch.CharTensor([-3])", "torch.ShortTensor([7])",
    "torch.HalfTensor([1.1])", "meta(torch.FloatTensor(2, 3))", "torch.LongTensor('x')", "torch.FloatTensor()",
    "isinstance(torch.zeros(2), torch.FloatTensor)", "isinstance(torch.zeros(2).long(), torch.LongTensor)",
    "torch.tensor([1, 2]).type(torch.DoubleTensor)", "torch.Tensor([1, 2])", "torch.Tensor(2, 3).shape",
    "torch.Tensor()", "torch.Tensor([[1, 2], [3, 4]]).dtype", "torch.Tensor(torch.ones(2))", "torch.Tensor('x')",
    "torch.Generator().manual_seed(3).initial_seed()", "g = torch.Generator()\ng.manual_seed(2)\ntorch.rand(3, generator=g)",
    "torch.Generator('cpu').device", "torch.Generator().get_state().shape", "type(torch.Generator().seed()).__name__",
    "torch.dtype()", "torch.layout()", "torch.memory_format()", "torch.strided", "torch.layout", "torch.contiguous_format",
    "torch.zeros(2).layout", "torch.zeros(2, 2).contiguous(memory_format=torch.contiguous_format).stride()",
    "torch.preserve_format", "torch.channels_last", "torch.zeros(2).clone(memory_format=torch.preserve_format)",
    "nn.Module()(torch.ones(2))", "nn.Module().forward(torch.ones(2))", "repr(nn.Module())", "nn.Module().training",
    "torch.get_default_device()", "torch.is_warn_always_enabled()",
    "torch.set_default_device('cpu')\ntorch.get_default_device()", "torch.set_default_device(None)\ntorch.ones(1)",
    "torch.set_default_device('cuda')", "torch.set_warn_always(True)\ntorch.is_warn_always_enabled()",
    "torch.set_warn_always(False)\ntorch.is_warn_always_enabled()",
    "torch.dtype", "torch.memory_format", "torch.float32.__reduce__()",
]


F_ARGS = {
    "relu": ["", "inplace=False"], "sigmoid": [""], "tanh": [""], "silu": ["", "inplace=False"],
    "gelu": ["", "approximate='tanh'", "approximate='none'"], "elu": ["", "alpha=0.5", "1.5"],
    "leaky_relu": ["", "0.2", "negative_slope=0.3"], "softplus": ["", "beta=2", "2, 1", "threshold=0.5"],
    "softmax": ["dim=-1", "0", "dim=0, dtype=torch.float64", ""], "log_softmax": ["dim=-1", "0", ""],
    "softmin": ["dim=-1", "0", "", "dim=0, dtype=torch.float64"],
    "dropout": ["p=0.0", "training=False", "0.0, True", "p=1.0"],
    "mse_loss": ["torch.zeros_like(a)", "torch.ones_like(a), reduction='sum'", "b, reduction='none'"],
    "l1_loss": ["torch.zeros_like(a)", "b, reduction='sum'", "torch.ones_like(a), reduction='none'"],
    "cross_entropy": ["torch.tensor([0, 2])", "torch.tensor([2, 1]), reduction='sum'",
                      "torch.tensor([1, 1]), label_smoothing=0.2", "torch.tensor([0, 2]), ignore_index=2",
                      "torch.softmax(b, -1)", "torch.tensor([0, 2]), weight=torch.tensor([1., 2., 0.5])"],
    "nll_loss": ["torch.tensor([0, 2])", "torch.tensor([1, 1]), reduction='none'", "torch.tensor([0, 2]), ignore_index=0",
                 "torch.tensor([0, 2]), weight=torch.tensor([1., 2., 0.5])"],
    "binary_cross_entropy": ["torch.ones_like(a) * 0.3", "b.sigmoid(), reduction='sum'", "b.sigmoid(), weight=b.abs()"],
    "binary_cross_entropy_with_logits": ["torch.ones_like(a) * 0.3", "b.sigmoid(), pos_weight=torch.tensor([2.])",
                                         "b.sigmoid(), reduction='none'"],
    "linear": ["torch.ones(4, 3)", "torch.ones(4, 3), torch.zeros(4)", "b.t(), bias=torch.ones(2)"],
}


def functional_cases(seed, visits=6):
    """Every nn.functional name with valid arguments (a (2, 3) input, b another), forward and backward."""
    cases = []
    for name, options in sorted(F_ARGS.items()):
        rng = random.Random(f"{seed}:functional:{name}")
        for _ in range(visits):
            dtype = rng.choice(["float32", "float32", "float64", "float16"])
            grad = rng.random() < 0.6
            lines = tensor_input(rng, "a", dtype=dtype, shape=(2, 3), grad=grad, special=0.0)
            lines += [f"b = {literal(rng, dtype, (2, 3), special=0.0)}"]
            src = "a.sigmoid()" if name == "binary_cross_entropy" else "a"
            args = rng.choice(options)
            cases.append(Case("nn", "\n".join(lines + [f"F.{name}({src}{', ' if args else ''}{args})"]),
                              f"functional2:{name}"))
    return cases


def matmul_cases(seed, visits=10):
    """The matrix products on fitting shapes (every call of the sweep had shapes that do not fit), and the
    comparisons that need a same-dtype partner: values, dtypes and gradients."""
    shapes = {"mm": [((2, 3), (3, 4)), ((1, 3), (3, 1)), ((0, 3), (3, 2)), ((2, 0), (0, 2))],
              "bmm": [((2, 2, 3), (2, 3, 1)), ((1, 2, 2), (1, 2, 2)), ((0, 2, 3), (0, 3, 2))],
              "mv": [((2, 3), (3,)), ((3, 1), (1,)), ((0, 2), (2,))],
              "outer": [((3,), (2,)), ((1,), (4,)), ((0,), (2,))],
              "matmul": [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 2, 3), (3, 2)), ((2, 3), (1, 3, 2)),
                         ((2, 3), (3, 2))],
              "dot": [((3,), (3,)), ((1,), (1,)), ((0,), (0,))],
              "allclose": [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (2, 3))],
              "lerp_": [((3,), (3,)), ((2, 3), (3,))]}
    cases = []
    for name, pairs in sorted(shapes.items()):
        rng = random.Random(f"{seed}:matmul:{name}")
        for _ in range(visits):
            sa, sb = rng.choice(pairs)
            dt = rng.choice(["float32", "float32", "float64", "int64", "float16", "int32", "uint8", "bool"])
            db = dt if rng.random() < 0.85 else rng.choice(["float32", "float64", "int64"])
            grad = dt in FLOATS and db in FLOATS and rng.random() < 0.5
            lines = tensor_input(rng, "a", dtype=dt, shape=sa, grad=grad, special=0.0)
            lines += tensor_input(rng, "b", dtype=db, shape=sb, grad=grad, special=0.0, layout="plain")
            if name == "allclose":
                expr = rng.choice(["torch.allclose(a, b)", "a.allclose(a)", "torch.allclose(a, a + 1e-6)",
                                   "a.allclose(b, rtol=0.5, atol=2.0)", "torch.allclose(a, a, equal_nan=True)"])
            elif name == "lerp_":
                expr = "a.detach().clone().lerp_(b, " + rng.choice(["0.5", "torch.tensor(0.25)", "2"]) + ")"
            else:
                expr = rng.choice([f"torch.{name}(a, b)", f"a.{name}(b)"] + (["a @ b", "b.__rmatmul__(a)"]
                                                                            if name == "matmul" else []))
            cases.append(Case("values", "\n".join(lines + [expr]), f"matmul:{name}"))
    return cases


def api_cases(seed):
    cases = functional_cases(seed) + matmul_cases(seed)
    rng = random.Random(f"{seed}:api-module")
    for i, tail in enumerate(MODULE_METHODS):
        for _ in range(2):
            head = ["torch.manual_seed(%d)" % rng.randint(0, 99),
                    "m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))"]
            cases.append(Case("nn", "\n".join(head + [tail]), f"module-method:{i}"))
    rng = random.Random(f"{seed}:api-optim")
    for i, tail in enumerate(OPTIM_TAILS):
        for opt in ("SGD", "Adam", "AdamW"):
            kw = rng.choice(["lr=0.1", "lr=0.1, weight_decay=0.1", "lr=0.05"] +
                            (["lr=0.1, momentum=0.9"] if opt == "SGD" else ["lr=0.1, amsgrad=True"]))
            code = ["w = torch.tensor([1., -2., 0.5], requires_grad=True)", f"opt = torch.optim.{opt}([w], {kw})",
                    "((w - 1) ** 2).sum().backward()", "opt.step()", tail]
            cases.append(Case("optim", "\n".join(code), f"optim-method:{i}:{opt}"))
    # the optimizers added later (their own random stream: the cases above stay as they were)
    rng = random.Random(f"{seed}:api-optim-more")
    more = {"Adamax": ["weight_decay=0.1", "betas=(0.5, 0.9)"],
            "NAdam": ["decoupled_weight_decay=True, weight_decay=0.1", "momentum_decay=0.01"],
            "RAdam": ["weight_decay=0.1", "foreach=True"], "Rprop": ["etas=(0.3, 1.5)", "step_sizes=(1e-3, 0.2)"],
            "ASGD": ["t0=1", "lambd=0.01, alpha=0.5"], "Adafactor": ["weight_decay=0.1", "d=2.0, eps=(1e-20, 1e-3)"]}
    for i, tail in enumerate(OPTIM_TAILS):
        for opt, extra in more.items():
            kw = rng.choice(["lr=0.1", "lr=0.05, maximize=True"] + [f"lr=0.1, {e}" for e in extra])
            code = ["w = torch.tensor([1., -2., 0.5], requires_grad=True)", f"opt = torch.optim.{opt}([w], {kw})",
                    "((w - 1) ** 2).sum().backward()", "opt.step()", tail]
            cases.append(Case("optim", "\n".join(code), f"optim-method:{i}:{opt}"))
    rng = random.Random(f"{seed}:api-autograd")
    for i, tail in enumerate(AUTOGRAD_API):
        for _ in range(2):
            x = literal(rng, rng.choice(["float32", "float64"]), (3,), True, special=0.0)
            cases.append(Case("autograd", f"x = {x}\n{tail}", f"autograd-api2:{i}"))
    for i, expr in enumerate(SMALL_CLASSES):
        cases.append(Case("attributes", expr, f"classes:{expr.split('(')[0][:30]}"))
    for i, code in enumerate(COMPILE_CASES):     # (few: PyTorch takes about a second to compile each)
        cases.append(Case("nn", "torch.compiler.reset()\n" + code, f"compile:{i}"))
    return cases


COMPILE_CASES = [
    "c = torch.compile(nn.Linear(3, 2), backend='aot_eager')\nc(torch.ones(4, 3))",
    "w = torch.ones(3, requires_grad=True)\nf = torch.compile(lambda a: (a * w).tanh(), backend='aot_eager')\n"
    "f(torch.tensor([0.5, -1., 2.]))",
    "torch.compile(nn.Linear(3, 2), mode='turbo')", "torch.compile(nn.Linear(3, 2), backend='jit')",
    "torch.compile(nn.Linear(3, 2), mode='default', options={})", "torch.compile('m')",
    "c = torch.compile(nn.Linear(3, 2))\nlist(c.state_dict())",
]


def reach_cases(public, seed=14):
    """Every generator of this module, deterministic."""
    return (signature_cases(public, seed) + autograd_cases(public, seed) + dunder_cases(public, seed)
            + module_cases(seed) + api_cases(seed))
