"""More generated calls for the differential API fuzzer: tensor metadata, conversions, printing, modules.

Written as an independent author of a differential check would write them, for the areas the generators of
api_fuzz_cases.py and api_fuzz_reach.py reach least: every attribute and metadata query on tensors made
by views, slices, expands and transposes of every dtype (0-d and empty included); Python's conversions and
protocols (int, float, complex, bool, __index__, format, hash, in, iter, numpy); the printed text of
tensors of every dtype and value range under each print option; the printed text of nn modules,
parameters, optimizers and grad_fn objects; and nn.Module's attribute API.

Same conventions as api_fuzz_cases.py: a Case's code runs once under each library, its last line is
an expression whose value is compared; every family draws from its own `random.Random(seed)`.
"""
import math
import random

from api_fuzz_cases import Case

REAL = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
DTYPES = REAL + ["complex64"]
FLOATING = ["float32", "float64", "float16"]
SHAPES = [(), (3,), (2, 3), (2, 3, 2), (1, 3), (3, 1), (4,), (0,), (2, 0), (1,), (2, 2), (1, 1), (0, 3),
          (4, 1, 2), (2, 1, 3, 1)]


# --- tensor sources -------------------------------------------------------------------------------

def _num(rng, dtype, special):
    if dtype == "bool":
        return repr(rng.random() < 0.5)
    if dtype == "uint8":
        return repr(rng.randint(0, 255) if rng.random() < 0.2 else rng.randint(0, 9))
    if dtype.startswith("int"):
        if rng.random() < special:
            bits = int(dtype[3:])
            return repr(rng.choice([2 ** (bits - 1) - 1, -2 ** (bits - 1), 10 ** (len(str(2 ** (bits - 1))) - 2)]))
        return repr(rng.randint(-9, 12))
    if dtype == "complex64":
        return f"complex({_num(rng, 'float32', special)}, {_num(rng, 'float32', special)})"
    r = rng.random()
    if r < special:
        return rng.choice(["float('nan')", "float('inf')", "-float('inf')", "-0.0", "1e-08", "123456789.0",
                           "1e10", "0.0001", "65504.0", "1e-30"])
    if r < 0.4:
        return repr(float(rng.randint(-5, 6)))
    return repr(round(rng.uniform(-4, 4), rng.choice([1, 2, 3, 5])))


def _nested(rng, dtype, shape, special):
    if not shape:
        return _num(rng, dtype, special)
    return "[" + ", ".join(_nested(rng, dtype, shape[1:], special) for _ in range(shape[0])) + "]"


def literal(rng, dtype, shape, grad=False, special=0.05):
    rg = ", requires_grad=True" if grad else ""
    if 0 in shape:
        return f"torch.zeros({', '.join(map(str, shape))}, dtype=torch.{dtype}{rg})"
    return f"torch.tensor({_nested(rng, dtype, shape, special)}, dtype=torch.{dtype}{rg})"


def _derive(rng, shape):
    """A view or an op applied to `a0` of this shape: (expression with {b}, resulting shape) or None."""
    n = len(shape)
    options = [("{b}", shape), ("{b}.view(-1)", (math.prod(shape),)), ("{b}.reshape(-1)", (math.prod(shape),)),
               ("{b}.clone()", shape), ("{b}.detach()", shape), ("{b}.contiguous()", shape),
               ("{b}.unsqueeze(0)", (1,) + shape), ("{b}.flatten()", (math.prod(shape),) if n else (1,)),
               ("{b}.squeeze()", tuple(s for s in shape if s != 1)), ("{b} * 2", shape), ("{b}.data", shape)]
    if n >= 1:
        options += [("{b}.transpose(0, -1)", (shape[-1],) + shape[1:-1] + (shape[0],) if n > 1 else shape),
                    ("{b}.permute(" + ", ".join(str(i) for i in reversed(range(n))) + ")", shape[::-1]),
                    ("{b}.unsqueeze(-1)", shape + (1,)), ("{b}.flip(0)", shape)]
        if shape[0] > 0:
            options += [("{b}[1:]", (shape[0] - 1,) + shape[1:]), ("{b}[::2]", ((shape[0] + 1) // 2,) + shape[1:]),
                        ("{b}[0]", shape[1:]), ("{b}[-1]", shape[1:]), ("{b}.narrow(0, 0, 1)", (1,) + shape[1:]),
                        ("{b}.select(0, 0)", shape[1:]), ("{b}.sum(0)", shape[1:])]
        if n >= 2 and shape[-1] > 0:
            options += [("{b}[..., 0]", shape[:-1]), ("{b}[:, 1:]", (shape[0], max(shape[1] - 1, 0)) + shape[2:])]
        if 1 in shape:
            i = shape.index(1)
            big = shape[:i] + (3,) + shape[i + 1:]
            options += [("{b}.expand(" + ", ".join(map(str, big)) + ")", big)]
    if n == 2:
        options += [("{b}.t()", shape[::-1]), ("{b}.T", shape[::-1]), ("{b}.mT", shape[::-1]),
                    ("{b}.diagonal()", (min(shape),))]
    if n == 0:
        options += [("{b}.expand(2, 3)", (2, 3)), ("{b}.view(1, 1)", (1, 1))]
    return rng.choice(options)


def subject(rng, name="a", dtypes=DTYPES, shapes=SHAPES, grad=None, special=0.05, derive=0.6):
    """Setup lines binding `name` to a tensor (a leaf `name`0, maybe a view/op of it), and its dtype and shape."""
    dtype = rng.choice(dtypes)
    shape = rng.choice(shapes)
    if grad is None:
        grad = dtype in FLOATING + ["complex64"] and rng.random() < (0.45 if dtype != "complex64" else 0.15)
    base = literal(rng, dtype, shape, grad, special)
    if rng.random() < derive:
        expr, shape = _derive(rng, shape)
        return [f"{name}0 = {base}", f"{name} = " + expr.format(b=f"{name}0")], dtype, shape
    return [f"{name} = {base}"], dtype, shape


# --- attributes and metadata ------------------------------------------------------------------------

META = ["a.shape", "a.size()", "a.size(0)", "a.size(-1)", "a.size(dim=0)", "a.size(2)", "a.size(-3)", "a.stride()",
        "a.stride(0)", "a.stride(-1)", "a.stride(1)", "a.stride(dim=-1)", "a.dim()", "a.ndim", "a.ndimension()",
        "a.numel()", "a.nelement()", "a.element_size()", "a.itemsize", "a.nbytes", "a.dtype", "a.device",
        "a.layout", "a.is_leaf", "a.requires_grad", "a.grad", "a.grad_fn", "a.data", "a.T", "a.mT", "a.H", "a.mH",
        "a.real", "a.imag", "a.is_floating_point()", "a.is_complex()", "a.is_signed()", "a.storage_offset()",
        "a.is_contiguous()", "a.is_contiguous(memory_format=torch.contiguous_format)",
        "a.is_contiguous(memory_format=torch.channels_last)", "a.is_contiguous(torch.preserve_format)",
        "a.is_cpu", "a.is_cuda", "a.get_device()", "a.type()", "a.output_nr", "a.retains_grad", "a.is_inference()",
        "a.T.stride()", "a.mT.shape", "a.H.stride()", "a.real.stride()", "a.imag.is_leaf", "a.data.requires_grad",
        "a.data.is_leaf", "a.shape[-1]", "a.shape[0]", "a.size()[::-1]", "a.shape + (1,)", "a.shape.numel()",
        "a.shape == a.size()", "a.shape == list(a.shape)", "tuple(a.shape)", "list(a.stride())",
        "a.dtype.is_floating_point", "a.dtype.is_complex", "a.dtype.is_signed", "a.dtype.itemsize",
        "a.dtype.to_real()", "a.dtype.to_complex()", "a.element_size() * a.numel() == a.nbytes",
        "a.grad_fn.name()", "a.grad_fn.next_functions", "type(a.grad_fn).__name__", "a.grad_fn is None",
        "a.requires_grad and a.is_leaf", "a.new_zeros(2).dtype", "a.new_ones(()).requires_grad",
        "a.is_nested", "a.is_sparse", "a.is_quantized", "a.is_meta", "str(a.layout)", "str(a.device)",
        "a.data_ptr() == a.data.data_ptr()", "a.contiguous().stride()", "a.t().shape", "a.t().is_contiguous()",
        "a.T.is_contiguous()", "a.view(-1).shape", "a.reshape(-1).stride()", "a.ravel().is_contiguous()"]

CONVERSIONS = ["a.item()", "a.tolist()", "len(a)", "list(a)", "[x.shape for x in a]", "bool(a)", "int(a)", "float(a)",
               "complex(a)", "a.__index__()", "[10, 20, 30, 40, 50][a]", "range(20)[a]", "f'{a:.2f}'", "f'{a}'",
               "f'{a:>8}'", "format(a, '.3e')", "format(a, '')", "'{:d}'.format(a)", "f'{a:g}'", "'%.1f' % a",
               "'%d' % a", "hash(a) == hash(a)", "1 in a", "0 in a", "True in a", "2.5 in a", "a[0] in a if len(a) else None",
               "np.asarray(a)", "a.__array__()", "a.__array__(np.float64)", "a.numpy()", "a.detach().numpy()",
               "a.numpy(force=True)", "np.array(a).dtype", "a.tolist() == a.detach().tolist()", "abs(a)", "-a",
               "+a", "~a", "round(a)", "round(a, 1)", "math.floor(a)", "math.ceil(a)", "math.trunc(a)",
               "divmod(a, 2)", "a.__float__()", "a.__int__()", "a.__bool__()", "a.__len__()", "next(iter(a))",
               "sorted(a.view(-1).tolist())", "a.item() if a.numel() == 1 else a.numel()", "bin(a)", "hex(a)",
               "a.__reversed__()", "reversed(a)", "max(a)", "sum(a)", "any(a)", "all(a)", "dict(x=a)['x'].shape",
               "np.float64(2.0) * a", "np.int64(3) + a", "a == None", "a != None", "a is None"]


def gen_metadata(rng):
    """One attribute or metadata query on a tensor of any dtype, shape and layout."""
    lines, dtype, shape = subject(rng)
    expr = rng.choice(META)
    return Case("attributes", "\n".join(lines + [expr]), f"meta:{expr}")


def gen_conversions(rng):
    """Python's conversions and protocols on tensors: mostly 0-d and one-element ones, some larger."""
    shapes = [(), (), (), (1,), (1, 1), (3,), (2, 2), (0,)]
    lines, dtype, shape = subject(rng, shapes=shapes, derive=0.4)
    expr = rng.choice(CONVERSIONS)
    setup = ["import math"] if "math." in expr else []
    return Case("attributes", "\n".join(setup + lines + [expr]), f"convert:{expr}")


def gen_grad_attributes(rng):
    """Attributes of tensors after backward: .grad of leaves and non-leaves, retain_grad, grad_fn objects."""
    dtype = rng.choice(["float32", "float64", "float32"])
    shape = rng.choice([(), (3,), (2, 3), (1, 2)])
    lines = [f"x = {literal(rng, dtype, shape, True, special=0.0)}"]
    op = rng.choice(["x * 2", "x.exp()", "x.sum()", "x.view(-1)", "x[..., :1] if x.dim() else x", "x.t() if x.dim() == 2 else x",
                     "x.unsqueeze(0)", "x.expand(2, *x.shape)", "x.mean()", "x ** 2", "x.relu()", "x.clone()",
                     "x.detach()", "x.pow(3).sum()", "x.sin().cos()", "x.reshape(-1)[0] if x.numel() else x"])
    lines.append(f"y = {op}")
    if rng.random() < 0.3:
        lines.append("y.retain_grad()" if rng.random() < 0.7 else "r = y.retain_grad()")
    if rng.random() < 0.8:
        lines.append(rng.choice(["y.sum().backward()", "y.sum().backward(retain_graph=True)",
                                 "(y * y).sum().backward()", "y.backward(torch.ones_like(y))"]))
    expr = rng.choice(["x.grad", "y.grad", "x.grad.requires_grad", "x.grad.is_leaf", "x.grad.grad_fn",
                       "x.grad.dtype", "x.grad.shape", "x.grad.stride()", "x.grad.is_contiguous()", "y.is_leaf",
                       "y.requires_grad", "y.retains_grad", "x.retains_grad", "y.grad_fn", "y.grad_fn.name()",
                       "y.grad_fn.next_functions", "[type(f).__name__ for f, _ in y.grad_fn.next_functions]",
                       "y.grad_fn.next_functions[0][0].variable is x", "x.numpy()", "x.grad.numpy()", "y.numpy()",
                       "x.detach().numpy()", "x.tolist()", "y.tolist()", "x.item() if x.numel() == 1 else x.shape",
                       "y.data", "y.data.grad_fn", "x.data.requires_grad", "repr(y)", "str(x.grad)", "y.grad_fn.metadata",
                       "y.output_nr", "y.T", "y.H", "float(y.sum())", "int(y.sum())", "bool(y.sum() > 0)",
                       "f'{y.sum():.3f}'", "y.sum().item()", "x.grad is None", "repr(y.grad_fn)[:20]",
                       "str(y.grad_fn.next_functions[0])[:26]", "y.grad_fn._saved_self if hasattr(y.grad_fn, '_saved_self') else 0",
                       "x.requires_grad_(False)", "y.requires_grad_(False)", "y.detach().requires_grad_().is_leaf",
                       "x.data.add_(1)\nx", "x.data = torch.zeros_like(x)\nx", "x.grad = None\nx.grad",
                       "x.grad = torch.ones(5)\nx.grad", "x.grad = torch.ones_like(x).double()\nx.grad", "x.grad = torch.ones_like(x)\nx.grad"])
    return Case("autograd", "\n".join(lines + [expr]), f"grad-attr:{expr.split(chr(10))[0][:30]}")


# --- printing ---------------------------------------------------------------------------------------

PRINT_OPTIONS = ["precision=2", "precision=0", "precision=8", "sci_mode=True", "sci_mode=False", "profile='short'",
                 "profile='full'", "linewidth=30", "linewidth=200", "threshold=5", "threshold=10, edgeitems=1",
                 "edgeitems=2, threshold=4", "precision=3, sci_mode=True", "precision=1, linewidth=40",
                 "threshold=float('inf')", "profile='short', sci_mode=False", "edgeitems=0, threshold=2"]


def gen_print_tensors(rng):
    """repr/str of tensors of every dtype, shape and value range; views and op results included."""
    special = rng.choice([0.0, 0.05, 0.3, 0.6])
    lines, dtype, shape = subject(rng, special=special, derive=0.3)
    scale = ""
    if dtype in FLOATING + ["complex64"] and rng.random() < 0.5:
        scale = rng.choice([" * 1000", " * 1e-5", " * 1e9", " / 3", " * 1e-12", " + 0.5", " * 12345.678", " * 1e20"])
    expr = rng.choice(["repr(a{s})", "str(a{s})", "repr(a{s})", "str([a{s}])"]).format(s=scale)
    if rng.random() < 0.2:
        opt = rng.choice(PRINT_OPTIONS)
        lines = lines + [f"torch.set_printoptions({opt})"]
    return Case("printing", "\n".join(lines + [expr]), f"print-more:{dtype}{'+opt' if 'set_print' in lines[-1] else ''}")


def gen_print_large(rng):
    """Tensors of more than 1000 elements (summarized), mixed magnitudes, huge integers."""
    r = rng.random()
    if r < 0.4:
        shape = rng.choice([(1001,), (40, 30), (3, 400), (2, 2, 300), (1, 1200), (1200, 1), (11, 11, 11), (2000,)])
        dtype = rng.choice(REAL)
        fn = rng.choice(["torch.arange({n}).reshape({s})", "torch.arange({n}).reshape({s}) / 7",
                         "torch.arange({n}).reshape({s}) * 1e5", "(torch.arange({n}).reshape({s}) % 7 - 3)",
                         "torch.linspace(-1, 1, {n}).reshape({s})", "torch.arange({n}).reshape({s}) * 1e-7"])
        expr = fn.format(n=math.prod(shape), s=", ".join(map(str, shape)))
        code = f"a = ({expr}).to(torch.{dtype})"
        if rng.random() < 0.3:
            code += f"\ntorch.set_printoptions({rng.choice(PRINT_OPTIONS)})"
        return Case("printing", code + "\nrepr(a)", f"print-large:{dtype}")
    if r < 0.7:
        n = rng.choice([2, 3, 5, 8])
        vals = [rng.choice(["1e-8", "1e8", "0.5", "-3.25", "1e-3", "1e3", "2.0", "float('nan')", "float('inf')",
                            "-0.0", "1e15", "1e-15", "0.1", "100.0", "7.0", "1e4", "99999.0", "123456.7"])
                for _ in range(n)]
        dtype = rng.choice(["float32", "float64", "float16", "float32"])
        code = f"a = torch.tensor([{', '.join(vals)}], dtype=torch.{dtype})"
        if rng.random() < 0.3:
            code += "\na = a.reshape(" + ("1, -1" if n % 2 else "2, -1") + ")"
        if rng.random() < 0.25:
            code += f"\ntorch.set_printoptions({rng.choice(PRINT_OPTIONS)})"
        return Case("printing", code + "\n" + rng.choice(["repr(a)", "str(a)", "repr(a.requires_grad_() * 1)"]),
                    f"print-magnitudes:{dtype}")
    dtype = rng.choice(["int64", "int32", "int16", "int8", "uint8"])
    bits = int(dtype[4:]) if dtype == "uint8" else int(dtype[3:])
    hi = 2 ** bits - 1 if dtype == "uint8" else 2 ** (bits - 1) - 1
    lo = 0 if dtype == "uint8" else -hi - 1
    vals = [str(rng.choice([hi, lo, 0, 1, -1 if lo else 2, hi // 3, rng.randint(lo, hi)])) for _ in range(rng.choice([1, 3, 4, 6]))]
    code = f"a = torch.tensor([{', '.join(vals)}], dtype=torch.{dtype})"
    expr = rng.choice(["repr(a)", "str(a.reshape(-1, 1) if a.numel() % 2 else a.reshape(2, -1))", "repr(a[0])",
                       "repr(a.double())", "repr(a.float())", "repr(a.half())", "repr(a.sum())", "repr(a * 1.0)"])
    return Case("printing", f"{code}\n{expr}", f"print-ints:{dtype}")


OBJECTS = ["repr(torch.float32)", "str(torch.int64)", "repr(torch.bool)", "repr(torch.complex64)", "repr(torch.half)",
           "repr(torch.double)", "repr(torch.long)", "repr(torch.uint8)", "repr(torch.cfloat)", "str(torch.float)",
           "repr(torch.Size([]))", "repr(torch.Size([2, 3]))", "str(torch.Size([0]))", "repr(torch.Size((1,)))",
           "repr(torch.zeros(2, 3).shape)", "str(torch.zeros(()).size())", "repr(torch.device('cpu'))",
           "str(torch.device('cpu'))", "repr(torch.device('cpu', 0))", "str(torch.device('cpu:0'))",
           "repr(torch.zeros(1).device)", "repr(torch.strided)", "repr(torch.contiguous_format)",
           "repr(torch.finfo(torch.float32))", "repr(torch.finfo(torch.float16))", "repr(torch.finfo(torch.float64))",
           "repr(torch.finfo())", "str(torch.finfo(torch.float32).eps)", "repr(torch.iinfo(torch.int64))",
           "repr(torch.iinfo(torch.uint8))", "repr(torch.iinfo(torch.int32))", "str(torch.iinfo(torch.int16))",
           "repr(torch.finfo(torch.complex64))", "repr(torch.finfo(torch.float32).max)",
           "repr(torch.finfo(torch.float16).smallest_normal)", "torch.finfo(torch.float32).dtype",
           "torch.iinfo(torch.int8).dtype", "repr(torch.tensor(1.).dtype)", "[torch.float32, torch.int8]",
           "{torch.float32: 1}", "(torch.Size([2]), torch.device('cpu'))", "repr(torch.get_default_dtype())",
           "str(torch.Size([2, 3]) + torch.Size([4]))", "repr(torch.Size([2, 3])[1:])", "repr(torch.Size([2, 3])[0])",
           "repr(torch.float32.to_complex())", "repr(type(torch.zeros(2)))", "repr(type(torch.zeros(2).shape))",
           "repr(type(torch.float32))", "repr(nn.Parameter(torch.zeros(2)))", "str(nn.Parameter(torch.ones(2, 2)))",
           "repr(nn.Parameter(torch.ones(2), requires_grad=False))", "repr(nn.Parameter(torch.tensor(1.5)))",
           "repr(nn.Parameter(torch.ones(2).double()))", "repr(nn.Parameter(torch.zeros(0)))",
           "repr(nn.Parameter(torch.ones(2)) * 2)", "repr(nn.Parameter(torch.ones(2))[0])",
           "repr(nn.Parameter(torch.ones(2)).data)", "repr(nn.Parameter(torch.ones(2)).detach())",
           "str([nn.Parameter(torch.ones(1))])", "type(nn.Parameter(torch.ones(1))).__name__",
           "repr(nn.Parameter())", "repr(torch.zeros(2, requires_grad=True))",
           "repr(torch.zeros(2, dtype=torch.float64, requires_grad=True))",
           "repr(torch.zeros(0, dtype=torch.float64, requires_grad=True))",
           "repr(torch.zeros(2, 0, dtype=torch.int8))", "repr(torch.zeros(0, 2, 3))", "repr(torch.ones(()) * 2)",
           "repr((torch.ones(2, requires_grad=True) * 2).grad_fn)", "str((torch.ones(2, requires_grad=True) + 1).grad_fn)",
           "(torch.ones(2, requires_grad=True) * 2).grad_fn.name()", "repr(torch.ones(2, requires_grad=True).sum().grad_fn.next_functions)",
           "repr(torch.ones(2, requires_grad=True).exp().grad_fn.next_functions[0][0])",
           "repr(torch.ones(2, 2, requires_grad=True).t())", "repr(torch.ones(2, 2, requires_grad=True)[0])",
           "repr(torch.ones(2, 2, requires_grad=True).view(4))", "repr(torch.ones(2, requires_grad=True).unbind())",
           "repr(torch.ones(2, 3, requires_grad=True).max(1))", "repr(torch.ones(2, 3).sort(1))",
           "repr(torch.ones(2, 3).topk(2))", "repr(torch.ones(2, 3).min(dim=0))", "repr(torch.ones(3).aminmax())",
           "repr(torch.ones(2, 2).split(1))", "repr(torch.ones(2, 3).chunk(2, 1))", "repr(torch.ones(2, 2).slogdet())",
           "repr(torch.tensor([1., 2.], dtype=torch.float64).requires_grad_())", "repr(torch.ones(2).to(torch.float16) * 3)",
           "repr(torch.tensor([1+2j, -3.5-0.25j]))", "repr(torch.tensor([1j]))", "repr(torch.tensor(2+0j))",
           "repr(torch.tensor([[1+1j, 2], [3, 4-1e5j]]))", "repr(torch.tensor([float('nan') + 1j]))",
           "repr(torch.tensor([1+2j], dtype=torch.complex128))", "repr(torch.tensor([True, False]))",
           "repr(torch.tensor([], dtype=torch.bool))", "repr(torch.tensor(True))", "repr(torch.tensor([[True], [False]]))"]


def gen_print_objects(rng):
    """The printed text of dtypes, sizes, devices, finfo/iinfo, parameters, grad_fn objects and result tuples."""
    expr = rng.choice(OBJECTS)
    code = expr
    if rng.random() < 0.15 and "tensor" in expr:
        code = f"torch.set_printoptions({rng.choice(PRINT_OPTIONS)})\n{expr}"
    return Case("printing", code, f"print-object:{expr[:40]}")


MODULES = ["nn.Linear(3, 4)", "nn.Linear(3, 4, bias=False)", "nn.Linear(1, 1, dtype=torch.float64)", "nn.ReLU()",
           "nn.ReLU(inplace=True)", "nn.Tanh()", "nn.Sigmoid()", "nn.GELU()", "nn.GELU(approximate='tanh')",
           "nn.LeakyReLU()", "nn.LeakyReLU(0.2)", "nn.ELU(alpha=0.5)", "nn.Softmax(dim=1)", "nn.Softmax()",
           "nn.LogSoftmax(dim=-1)", "nn.Dropout()", "nn.Dropout(0.25)", "nn.Dropout(p=0.1, inplace=True)",
           "nn.Identity()", "nn.Flatten()", "nn.Flatten(0, -1)", "nn.Unflatten(1, (2, 2))", "nn.Conv2d(1, 2, 3)",
           "nn.Conv2d(3, 8, kernel_size=(3, 5), stride=2, padding=1)", "nn.Conv1d(2, 4, 3, bias=False)",
           "nn.Conv2d(1, 1, 3, padding='same', dilation=2)", "nn.MaxPool2d(2)", "nn.MaxPool2d(3, stride=1, padding=1)",
           "nn.AvgPool2d(2)", "nn.MaxPool1d(2)", "nn.AdaptiveAvgPool2d((1, 1))", "nn.AdaptiveAvgPool2d(1)",
           "nn.BatchNorm1d(4)", "nn.BatchNorm2d(3, momentum=0.2)", "nn.BatchNorm1d(2, affine=False)",
           "nn.LayerNorm(4)", "nn.LayerNorm((2, 3), eps=1e-3)", "nn.LayerNorm(4, elementwise_affine=False)",
           "nn.GroupNorm(2, 4)", "nn.Embedding(10, 3)", "nn.Embedding(5, 2, padding_idx=0)", "nn.RNN(3, 4)",
           "nn.LSTM(3, 4, num_layers=2)", "nn.GRU(2, 3, batch_first=True)", "nn.LSTMCell(2, 3)", "nn.RNNCell(2, 2)",
           "nn.MSELoss()", "nn.MSELoss(reduction='sum')", "nn.CrossEntropyLoss()", "nn.CrossEntropyLoss(label_smoothing=0.1)",
           "nn.NLLLoss()", "nn.L1Loss()", "nn.BCELoss()", "nn.BCEWithLogitsLoss()", "nn.HuberLoss(delta=0.5)",
           "nn.SmoothL1Loss()", "nn.KLDivLoss(reduction='batchmean')", "nn.Softplus(beta=2)", "nn.Hardtanh(-2, 2)",
           "nn.PReLU()", "nn.PReLU(3)", "nn.SiLU()", "nn.Mish()", "nn.ReLU6()", "nn.Softsign()", "nn.LogSigmoid()",
           "nn.Hardswish()", "nn.Hardsigmoid()", "nn.Softmin(1)", "nn.CosineSimilarity()", "nn.PairwiseDistance()",
           "nn.Module()"]


def _module(rng, depth=0):
    r = rng.random()
    if depth < 2 and r < 0.25:
        return "nn.Sequential(" + ", ".join(_module(rng, depth + 1) for _ in range(rng.randint(0, 3))) + ")"
    if depth < 2 and r < 0.32:
        return "nn.ModuleList([" + ", ".join(_module(rng, depth + 1) for _ in range(rng.randint(0, 2))) + "])"
    if depth < 2 and r < 0.38:
        keys = rng.sample(["fc", "act", "head", "b1", "x"], rng.randint(0, 2))
        return "nn.ModuleDict({" + ", ".join(f"'{k}': {_module(rng, depth + 1)}" for k in keys) + "})"
    if depth < 2 and r < 0.42:
        return "nn.Sequential(collections.OrderedDict([" + ", ".join(
            f"('{k}', {_module(rng, depth + 1)})" for k in rng.sample(["l1", "relu", "l2"], 2)) + "]))"
    return rng.choice(MODULES)


OPTIMIZERS = ["torch.optim.SGD(m.parameters(), lr=0.1)", "torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9, nesterov=True)",
              "torch.optim.Adam(m.parameters())", "torch.optim.Adam(m.parameters(), lr=1e-3, betas=(0.8, 0.9), amsgrad=True)",
              "torch.optim.AdamW(m.parameters(), weight_decay=0.1)", "torch.optim.RMSprop(m.parameters(), lr=0.01)",
              "torch.optim.Adagrad(m.parameters())", "torch.optim.Adadelta(m.parameters())",
              "torch.optim.SGD([{'params': m[0].parameters()}, {'params': m[2].parameters(), 'lr': 0.5}], lr=0.1)"]


def gen_print_modules(rng):
    """repr of nn modules (nested containers, modules with extra_repr), optimizers and their state_dict."""
    r = rng.random()
    if r < 0.6:
        mod = _module(rng)
        code = ["import collections", f"m = {mod}"]
        expr = rng.choice(["repr(m)", "str(m)", "repr(m)", "m.extra_repr()", "repr(m) == str(m)",
                           "[repr(c) for c in m.children()]", "type(m).__name__"])
        return Case("printing", "\n".join(code + [expr]), f"print-module:{mod.split('(')[0]}")
    code = ["torch.manual_seed(0)", "m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))",
            f"opt = {rng.choice(OPTIMIZERS)}"]
    if rng.random() < 0.5:
        code += ["m(torch.ones(4, 2)).sum().backward()", "opt.step()"]
    expr = rng.choice(["repr(opt)", "str(opt)", "list(opt.state_dict())", "opt.state_dict()['param_groups']",
                       "sorted(opt.state_dict()['param_groups'][0])", "list(opt.state_dict()['state'])",
                       "[sorted(s) for s in opt.state_dict()['state'].values()]", "len(opt.param_groups)",
                       "opt.defaults", "sorted(opt.defaults)", "type(opt).__name__", "len(opt.state)",
                       "[len(g['params']) for g in opt.param_groups]"])
    return Case("printing" if "repr" in expr or "str" in expr else "optim", "\n".join(code + [expr]),
                f"print-optim:{expr[:30]}")


# --- nn.Module's attribute API ----------------------------------------------------------------------

NETS = {
    "seq": "m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))",
    "nested": "m = nn.Sequential(nn.Sequential(nn.Linear(2, 2), nn.Tanh()), nn.Linear(2, 1, bias=False))",
    "list": "m = nn.ModuleList([nn.Linear(2, 2), nn.BatchNorm1d(2)])",
    "dict": "m = nn.ModuleDict({'enc': nn.Linear(2, 3), 'act': nn.ReLU(), 'dec': nn.Linear(3, 2)})",
    "bn": "m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Dropout(0.5))",
    "custom": ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        self.scale = nn.Parameter(torch.ones(1))\n        self.fc = nn.Linear(2, 2)\n"
               "        self.register_buffer('steps', torch.zeros(1, dtype=torch.int64))\n"
               "        self.register_buffer('tmp', torch.ones(2), persistent=False)\n"
               "        self.blocks = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])\n"
               "    def forward(self, x):\n        return self.blocks[0](self.fc(x)) * self.scale\nm = Net()"),
}

MODULE_EXPRS = [
    "[n for n, _ in m.named_parameters()]", "[tuple(p.shape) for p in m.parameters()]", "len(list(m.parameters()))",
    "sum(p.numel() for p in m.parameters())", "[n for n, _ in m.named_children()]", "[n for n, _ in m.named_modules()]",
    "[type(x).__name__ for x in m.modules()]", "list(m.state_dict())", "[tuple(v.shape) for v in m.state_dict().values()]",
    "[n for n, _ in m.named_buffers()]", "[n for n, _ in m.named_parameters(prefix='net')]",
    "[n for n, _ in m.named_parameters(recurse=False)]", "[n for n, _ in m.named_modules(prefix='root')]",
    "list(m.state_dict(prefix='p.'))", "m.training", "m.eval().training", "[x.training for x in m.eval().modules()]",
    "[x.training for x in m.train(False).modules()]", "m.train(mode=True).training", "m.train('yes')",
    "[p.requires_grad for p in m.requires_grad_(False).parameters()]", "m.requires_grad_(False).requires_grad_()",
    "[p.dtype for p in m.double().parameters()]", "[p.dtype for p in m.half().parameters()]",
    "[b.dtype for b in m.double().buffers()]", "[p.dtype for p in m.to(torch.float64).parameters()]",
    "[p.dtype for p in m.to(dtype=torch.float16).parameters()]", "m.to(torch.int64)", "m.to('cpu') is m",
    "m.to(torch.device('cpu'), torch.float64) is m", "m.float() is m", "m.type(torch.float64)",
    "[p.is_leaf for p in m.double().parameters()]", "[type(p).__name__ for p in m.double().parameters()]",
    "m.zero_grad()\n[p.grad for p in m.parameters()]", "m.zero_grad(set_to_none=False)\n[p.grad for p in m.parameters()]",
    "m.apply(lambda x: None) is m", "seen = []\nm.apply(lambda x: seen.append(type(x).__name__))\nseen",
    "m.foo", "m.weight", "m.training_", "m.bogus_param = 3\nm.bogus_param", "m.register_buffer('buf', torch.ones(2))\nlist(m.state_dict())",
    "m.register_buffer('buf', torch.ones(2), persistent=False)\nlist(m.state_dict())", "m.register_buffer('a.b', torch.ones(1))",
    "m.register_buffer('', torch.ones(1))", "m.register_buffer('training', torch.ones(1))", "m.register_buffer('x', 3)",
    "m.register_buffer(3, torch.ones(1))", "m.register_buffer('n', None)\nm.n", "m.register_parameter('w', torch.ones(1))",
    "m.register_parameter('w', nn.Parameter(torch.ones(1)))\n[n for n, _ in m.named_parameters()]",
    "m.register_parameter('a.b', nn.Parameter(torch.ones(1)))", "m.register_parameter('w', None)\nm.w",
    "m.add_module('new', nn.ReLU())\n[n for n, _ in m.named_children()]", "m.add_module('a.b', nn.ReLU())",
    "m.add_module('', nn.ReLU())", "m.add_module('x', 3)", "m.register_module('extra', nn.Tanh())\nlen(list(m.modules()))",
    "m.get_submodule('0')", "m.get_submodule('nope')", "m.get_parameter('0.weight').shape", "m.get_parameter('nope')",
    "m.get_buffer('nope')", "delattr(m, 'training')", "m.extra_repr()",
    "sd = m.state_dict()\nm.load_state_dict(sd)", "m.load_state_dict({})", "m.load_state_dict({}, strict=False)",
    "sd = m.state_dict()\nsd['bogus'] = torch.ones(1)\nm.load_state_dict(sd)",
    "sd = m.state_dict()\nk = list(sd)[0]\nsd[k] = torch.ones(7, 7)\nm.load_state_dict(sd)",
    "sd = m.state_dict()\n[v.requires_grad for v in sd.values()]", "sd = m.state_dict(keep_vars=True)\n[v.requires_grad for v in sd.values()]",
    "isinstance(m, nn.Module)", "m.__class__.__name__", "hasattr(m, 'forward')", "callable(m)",
    "[n for n, p in m.named_parameters() if p.dim() > 1]", "dict(m.named_parameters()).keys()",
    "p = next(m.parameters())\np.grad", "p = next(m.parameters())\ntype(p).__name__", "p = next(m.parameters())\np.is_leaf",
    "p = next(m.parameters())\nrepr(p)[:10]", "len(m)", "m[0]", "m[-1]", "m[1:]", "m[10]", "m['enc']", "list(m.keys()) if hasattr(m, 'keys') else None",
]


def gen_module_attributes(rng):
    """nn.Module's attribute API on several nets: names and order, flags, dtypes, registration and its errors."""
    key = rng.choice(list(NETS))
    expr = rng.choice(MODULE_EXPRS)
    code = [f"torch.manual_seed({rng.randint(0, 99)})", NETS[key]]
    if "grad" in expr and rng.random() < 0.6 and key not in ("list", "dict"):
        code.append("m(torch.ones(4, 3 if m[0].in_features == 3 else 2) if isinstance(m, nn.Sequential) and "
                    "isinstance(m[0], nn.Linear) else torch.ones(4, 2)).sum().backward()")
    return Case("nn", "\n".join(code + [expr]), f"module-attr:{key}:{expr.split(chr(10))[-1][:30]}")


FAMILIES = {
    "metadata": (gen_metadata, 1400),
    "conversions": (gen_conversions, 900),
    "grad-attributes": (gen_grad_attributes, 600),
    "print-tensors": (gen_print_tensors, 900),
    "print-large": (gen_print_large, 400),
    "print-objects": (gen_print_objects, 300),
    "print-modules": (gen_print_modules, 400),
    "module-attributes": (gen_module_attributes, 700),
}


def more_cases(public=None, seed=14, scale=1.0):
    """Every family's cases, deterministic: one Random per family, so a new family leaves the others unchanged."""
    cases = []
    for key, (gen, count) in FAMILIES.items():
        rng = random.Random(f"{seed}:more:{key}")
        for _ in range(max(1, int(count * scale))):
            cases.append(gen(rng))
    return cases


# --- second round: attribute writes, grad_fn objects, print options, module mutation ---------------------

WRITES = ["a.shape = (3,)", "a.dtype = torch.float64", "a.device = 'cpu'", "a.is_leaf = True", "a.grad_fn = None",
          "a.requires_grad = True", "a.requires_grad = False", "a.requires_grad = 1", "a.requires_grad = None",
          "a.grad = torch.zeros_like(a)", "a.grad = a", "a.grad = 3", "a.grad = torch.zeros(7)", "a.grad = None",
          "del a.grad", "a.data = torch.zeros(2)", "a.data = a.double()", "a.data = 5", "a.data = a.int()",
          "a.T = a", "a.ndim = 3", "a.names = None", "a.foo = 1", "del a.foo", "a.foo", "a.retains_grad = True",
          "a.output_nr = 1", "a.layout = torch.strided", "a.real = a", "a.imag = a", "a.itemsize = 2", "a.nbytes = 0",
          "a.shape[0] = 1", "a.size()[0] = 1", "a.stride()[0] = 1", "del a.data", "del a.requires_grad",
          "a.grad_fn.foo", "a.__dict__", "a.__class__.__name__", "a.__module__", "type(a).__module__",
          "a.is_cuda = True", "a._foo = 1", "a.grad.data"]


def _is_statement(line):
    """Whether a line is an assignment or del (the last line of a case must be an expression)."""
    import re
    return line.startswith("del ") or re.match(r"^[\w.\[\]'()]+ = ", line) is not None


def gen_attribute_writes(rng):
    """Setting and deleting tensor attributes: PyTorch's errors for read-only ones, its checks for the rest."""
    lines, dtype, shape = subject(rng, derive=0.4, special=0.0)
    stmt = rng.choice(WRITES)
    tail = "a" if "=" in stmt or stmt.startswith("del") else None
    if stmt.startswith(("a.", "del")) and ("=" in stmt.replace("==", "") or stmt.startswith("del")):
        code = lines + [stmt, rng.choice(["a", "a.requires_grad", "a.grad", "a.dtype", "(a.is_leaf, a.grad_fn)"])]
    else:
        code = lines + [stmt]
    del tail
    return Case("attributes", "\n".join(code), f"attr-write:{stmt}")


GRAD_FN_OPS = ["x * y", "x + y", "x - 2 * y", "x / y", "x.exp()", "x.sin()", "x.pow(2)", "x ** y", "x.sum()",
               "x.mean(0)", "x.max()", "x.relu()", "x.sigmoid()", "x.tanh()", "x.log()", "x.sqrt()", "x @ y.t()",
               "x.view(-1)", "x.t()", "x[0]", "x.unsqueeze(0)", "x.expand(2, 2, 3)", "x.clamp(0, 1)",
               "torch.cat([x, y])", "torch.stack([x, y])", "x.abs()", "x.neg()", "x.reshape(3, 2)", "x.transpose(0, 1)",
               "x.softmax(1)", "x.log_softmax(-1)", "x.norm()", "x.std()", "x.var(1)", "x.cumsum(0)", "x.prod()",
               "torch.where(x > 0, x, y)", "x.masked_fill(x > 0, 0.)", "F.relu(x)", "F.mse_loss(x, y)", "x.clone()",
               "x.squeeze()", "x.flip(0)", "x.min(1)[0]", "x.sort(1)[0]", "x.mm(y.t())", "x.matmul(y.t())", "x.div(2)",
               "x.mul(2)", "x.add(1, alpha=2)", "x.sub(y, alpha=3)", "x.maximum(y)", "x.pow(0.5)", "x.reciprocal()"]
GRAD_FN_QUERIES = ["g.name()", "type(g).__name__", "len(g.next_functions)", "[n and n.name() for n, _ in g.next_functions]",
                   "[i for _, i in g.next_functions]", "g.next_functions[0][0].next_functions",
                   "g.next_functions[0][0].variable is x if g.next_functions[0][0] is not None and "
                   "g.next_functions[0][0].name().endswith('AccumulateGrad') else None", "g.metadata", "g is z.grad_fn",
                   "repr(g)[:14]", "str(type(g))", "g._saved_self", "g._saved_other", "g._saved_result", "g._saved_exponent",
                   "g._saved_dim", "g._saved_self_sym_sizes", "g._saved_alpha", "g._saved_indices", "g._saved_keepdim",
                   "g._raw_saved_self", "g.requires_grad", "hasattr(g, 'register_hook')", "g.foo",
                   "[type(n).__name__ for n, _ in g.next_functions]", "g(torch.ones_like(z))" , "callable(g)",
                   "g.next_functions[0][0].name() if g.next_functions[0][0] else None", "g == z.grad_fn",
                   "hash(g) == hash(z.grad_fn)"]


def gen_grad_fn_objects(rng):
    """What a student inspects on a grad_fn: its name, next_functions, saved tensors, metadata, calling it."""
    dtype = rng.choice(["float32", "float64"])
    code = [f"x = {literal(rng, dtype, (2, 3), True, special=0.0)}", f"y = {literal(rng, dtype, (2, 3), rng.random() < 0.5, special=0.0)}",
            f"z = {rng.choice(GRAD_FN_OPS)}", "g = z.grad_fn"]
    if rng.random() < 0.2:
        code.append("z.sum().backward()" if rng.random() < 0.5 else "z.sum().backward(retain_graph=True)")
    expr = rng.choice(GRAD_FN_QUERIES)
    return Case("autograd", "\n".join(code + [expr]), f"grad-fn:{expr[:28]}")


def gen_print_options(rng):
    """Every print option, alone and combined, over tensors of every dtype and range; reset after each case."""
    opts = []
    for _ in range(rng.randint(1, 3)):
        opts.append(rng.choice(["precision=0", "precision=1", "precision=2", "precision=6", "precision=10",
                                "sci_mode=True", "sci_mode=False", "sci_mode=None", "linewidth=10", "linewidth=45",
                                "linewidth=120", "threshold=0", "threshold=3", "threshold=20", "threshold=10000",
                                "edgeitems=0", "edgeitems=1", "edgeitems=5", "profile='short'", "profile='full'",
                                "profile='default'"]))
    keys = {}
    for o in opts:
        keys[o.split("=")[0]] = o
    lines, dtype, shape = subject(rng, special=rng.choice([0.0, 0.1, 0.4]), derive=0.2,
                                  shapes=SHAPES + [(5, 7), (3, 30), (2, 3, 4), (40,), (12, 12)])
    scale = rng.choice(["", "", " * 1e6", " * 1e-6", " / 7", " * 123.456"]) if dtype in FLOATING + ["complex64"] else ""
    code = lines + [f"torch.set_printoptions({', '.join(keys.values())})",
                    rng.choice(["repr(a{s})", "str(a{s})", "repr((a{s}).sum())", "repr((a{s})[0] if a.dim() else a)",
                                "repr([a{s}])", "repr(nn.Parameter(a.double()))"]).format(s=scale)]
    return Case("printing", "\n".join(code), f"print-options:{dtype}")


MODULE_MUTATIONS = [
    "m.weight = torch.ones(2, 2)", "m.weight = nn.Parameter(torch.ones(1))\nrepr(m)", "m.weight = None\nlist(m.state_dict())",
    "m.weight = 3", "m.bias = nn.Linear(1, 1)", "del m.weight\nlist(m.state_dict())", "del m.bias\nm.bias",
    "m.new = nn.Parameter(torch.zeros(3))\n[n for n, _ in m.named_parameters()]", "m.new = torch.zeros(3)\nlist(m.state_dict())",
    "m.child = nn.ReLU()\nrepr(m)", "m.child = nn.ReLU()\nm.child = None\nrepr(m)", "m.child = nn.ReLU()\ndel m.child\nrepr(m)",
    "m.training = False\nm.training", "m.in_features = 5\nrepr(m)", "m.extra_repr = lambda: 'hi'\nrepr(m)",
    "m.weight.data.fill_(1)\nm.weight", "m.weight.requires_grad = False\n[p.requires_grad for p in m.parameters()]",
    "m.weight.grad", "m.register_buffer('weight', torch.ones(1))", "m.register_parameter('bias', nn.Parameter(torch.ones(2)))",
    "m.register_parameter('fresh', None)\n(m.fresh, list(m.state_dict()))", "m.register_buffer('b', torch.ones(2))\nm.b = 5",
    "m.register_buffer('b', torch.ones(2))\nm.b = torch.zeros(3)\nm.b", "m.register_buffer('b', torch.ones(2))\nm.b = None\nlist(m.state_dict())",
    "m.register_buffer('b', torch.ones(2))\nm.b = nn.Parameter(torch.ones(1))", "m._parameters.keys()", "list(m._buffers)",
    "list(m._modules)", "m.__class__.__name__", "m.half().weight.dtype", "m.double().bias", "m.to(torch.float16).weight",
    "m.zero_grad()\nm.weight.grad", "m.requires_grad_(False).weight", "m.train(False)\nrepr(m)", "m.eval().training",
    "m.get_extra_state()", "m.set_extra_state({})", "m.state_dict(keep_vars=True)['weight'] is m.weight", "m.state_dict()['weight'] is m.weight",
    "m.state_dict()['weight'].requires_grad", "dict(m.named_parameters())['weight'] is m.weight", "m.parameters()",
    "type(m.parameters()).__name__", "m.weight.is_leaf", "m.weight.grad_fn", "m.weight * 1", "m.weight.T",
    "m.weight.shape", "m.weight.data.requires_grad", "m.weight.detach().requires_grad", "m.forward", "m.forward.__name__",
    "m(torch.ones(2, 2)).grad_fn", "m(torch.ones(2, 2)).grad_fn.next_functions", "m(torch.ones(2)).grad_fn.name()",
    "m(torch.ones(3, 2, 2)).grad_fn.name()", "m(torch.ones(2, dtype=torch.float64))", "m(torch.ones(2, 3))",
]


def gen_module_mutation(rng):
    """Assigning, deleting and registering on a module: PyTorch's bookkeeping and its exact errors."""
    layer = rng.choice(["nn.Linear(2, 2)", "nn.Linear(2, 2, bias=False)", "nn.Linear(2, 2, dtype=torch.float64)"])
    expr = rng.choice(MODULE_MUTATIONS)
    if _is_statement(expr.split("\n")[-1]):
        expr += "\n" + rng.choice(["repr(m)", "list(m.state_dict())", "[n for n, _ in m.named_parameters()]",
                                   "(m.weight, m.bias)"])
    return Case("nn", "\n".join([f"torch.manual_seed({rng.randint(0, 50)})", f"m = {layer}", expr]),
                f"module-mutation:{expr.split(chr(10))[0][:30]}")


FAMILIES.update({
    "attribute-writes": (gen_attribute_writes, 600),
    "grad-fn-objects": (gen_grad_fn_objects, 600),
    "print-options": (gen_print_options, 700),
    "module-mutation": (gen_module_mutation, 500),
})


COMPLEX_VIEWS = ["torch.view_as_real(a)", "torch.view_as_complex(a)", "torch.conj(a)", "a.conj()", "a.conj().imag",
                 "torch.view_as_real(a).stride()", "torch.view_as_complex(torch.view_as_real(a))", "a.real", "a.imag",
                 "torch.view_as_complex(a.float())", "torch.view_as_complex(a.double().contiguous())",
                 "torch.view_as_real(a.conj() * 1)", "a.is_signed()", "a.conj().is_signed()", "a.mH", "a.H"]


def gen_complex_views(rng):
    """Complex tensors and their float views: view_as_real/view_as_complex/conj, and their errors on other dtypes."""
    dtypes = ["complex64"] * 3 + ["float32", "float64", "int64", "float16"]
    shapes = [(2,), (3, 2), (2, 2), (), (0, 2), (2, 3, 2), (1, 2)]
    lines, dtype, shape = subject(rng, dtypes=dtypes, shapes=shapes, derive=0.4, special=0.02,
                                  grad=rng.random() < 0.3 if rng.random() < 0.5 else False)
    expr = rng.choice(COMPLEX_VIEWS)
    return Case("attributes", "\n".join(lines + [expr]), f"complex-view:{expr[:30]}")


FAMILIES["complex-views"] = (gen_complex_views, 300)
