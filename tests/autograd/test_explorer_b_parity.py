"""What the second independent explorer (autograd, errors, warnings, nn modules) found, as generated programs run
under both libraries: each statement's printed text, exception (type and message) and warnings must agree.

The families: torch.autograd.grad(is_grads_batched=True) and materialize_grads under create_graph; custom Functions
(mark_dirty's version count, the version error naming the Function, a view or an input returned as-is changed in
place, full backward hooks on an in-place module); grad_fn._saved_* attributes (dims kept as the user gave them,
int64 parameters read as unsigned, PyTorch's own parameter names); the bias dtype checked first by a convolution;
the nodes of a gradient's graph for sort, topk and repeat."""
import contextlib
import io
import random
import re
import warnings

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _transcript(lib, statements):
    """Each statement's (stdout, exception, warnings), run in one namespace where `torch` is `lib`."""
    ns = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    out = []
    for stmt in statements:
        buf, exc = io.StringIO(), None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with contextlib.redirect_stdout(buf):
                    exec(stmt, ns)
            except Exception as e:          # noqa: BLE001  (the exception is what is compared)
                exc = (type(e).__name__, str(e))
        text = re.sub("0x[0-9a-f]+", "0x", buf.getvalue().replace("gradlab", "torch"))
        out.append((stmt, text, exc, [(w.category.__name__, str(w.message)) for w in caught]))
    return out


def _check(statements):
    expected, got = _transcript(torch, statements), _transcript(gradlab, statements)
    for e, g in zip(expected, got):
        assert e == g, f"\n{e[0]}\n torch:   {e[1:]}\n gradlab: {g[1:]}"


def _shape(r, nd):
    return tuple(r.randint(1, 4) for _ in range(nd))


# --- autograd.grad(is_grads_batched=True) ---------------------------------------------------------------------
_CHAINS = ["x.exp() * 2", "x.sin().sum(0)", "(x * w).tanh()", "x.pow(2).cumsum(-1)", "x.softmax(-1)", "x.relu() + w",
           "x.movedim(0, -1)", "x.sum()", "x * w.sum()", "x[0]", "x.t() if x.dim() == 2 else x", "x.max()"]


@pytest.mark.parametrize("seed", range(24))
def test_grads_batched(seed):
    r = random.Random(seed)
    nd = r.randint(1, 3)
    s = _shape(r, nd)
    dt = r.choice(["torch.float64", "torch.float32"])
    chain = r.choice(_CHAINS)
    create = r.choice([False, True])
    _check([
        f"torch.manual_seed({seed})",
        f"x = torch.randn({s}, dtype={dt}, requires_grad=True)",
        f"w = torch.randn({s}, dtype={dt}, requires_grad=True)",
        "u = torch.randn(2, dtype=torch.float64, requires_grad=True)",
        f"y = {chain}",
        "B = torch.eye(y.numel(), dtype=y.dtype).reshape(y.numel(), *y.shape)",
        f"r = torch.autograd.grad(y, [x, w], grad_outputs=B, is_grads_batched=True, allow_unused=True, "
        f"retain_graph=True, create_graph={create})",
        # (under create_graph PyTorch's vmap leaves the formula's last node; gradlab stacks one backward per vector)
        "print([t if t is None or not t.requires_grad else t.detach() for t in r], "
        "[None if t is None else (t.shape, t.requires_grad) for t in r])",
        "print(torch.autograd.grad(y, [x, u], B * 3, retain_graph=True, is_grads_batched=True, materialize_grads=True))",
        f"print(torch.autograd.grad(y, [x, u], retain_graph=True, grad_outputs=torch.ones_like(y), "
        f"materialize_grads=True, create_graph={create}))",
        f"torch.autograd.grad(y, x, grad_outputs=torch.ones({r.randint(1, 3)}, {r.randint(1, 3)}, dtype=y.dtype), "
        "retain_graph=True, is_grads_batched=True)",
        "torch.autograd.grad(y, x, grad_outputs=torch.ones(y.shape, dtype=y.dtype), is_grads_batched=True)",
    ])


# --- custom autograd.Function ---------------------------------------------------------------------------------
_DIRTY = """
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_({k})
        ctx.mark_dirty(a)
        return a
    @staticmethod
    def backward(ctx, g):
        return g * {k}
"""
_SAVES_OUTPUT = """
class {name}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        r = a.{op}()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
"""
_VIEW_OUT = """
class V(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return {expr}
    @staticmethod
    def backward(ctx, g):
        return None
"""


@pytest.mark.parametrize("seed", range(16))
def test_custom_function_versions_and_views(seed):
    r = random.Random(seed)
    s = _shape(r, r.randint(1, 3))
    name = r.choice(["E", "MyExp", "Sq2"])
    _check([
        f"torch.manual_seed({seed})",
        f"x = torch.randn({s}, requires_grad=True)",
        _DIRTY.format(k=r.choice([2, 3])),
        "z = x * 1",
        "print(z._version)",
        "y = D.apply(z)",
        "print(y is z, z._version, y.grad_fn.name())",
        "y.sum().backward()",
        "print(x.grad)",
        "with torch.no_grad():\n    q = torch.ones(2)",
        "print(D.apply(q)._version)",
        _SAVES_OUTPUT.format(name=name, op=r.choice(["exp", "sigmoid", "tanh"])),
        f"y = {name}.apply(x)",
        "y.add_(1)",
        "y.sum().backward()",
        _VIEW_OUT.format(expr=r.choice(["a[0]", "a", "a.view(-1)", "a.unsqueeze(0)"])),
        "v = V.apply(x * 1)",
        "v.mul_(2)",
        "print(v.grad_fn.name())",
    ])


@pytest.mark.parametrize("module", ["nn.ReLU(inplace=True)", "nn.SiLU(inplace=True)", "nn.ELU(inplace=True)",
                                    "nn.Hardtanh(inplace=True)", "nn.ReLU()", "nn.LeakyReLU(0.1, inplace=True)"])
def test_full_backward_hook_on_inplace_module(module):
    _check([
        "torch.manual_seed(0)",
        f"m = {module}",
        "log = []",
        "h = m.register_full_backward_hook(lambda mod, gi, go: log.append(len(gi)))",
        "x = torch.randn(2, 3, requires_grad=True)",
        "out = m(x)",
        "out.sum().backward()",
        "print(log, x.grad)",
    ])


# --- grad_fn._saved_* ------------------------------------------------------------------------------------------
_SAVED = [
    ("x.transpose({d}, {e})", ["_saved_dim0", "_saved_dim1"]), ("x.softmax({d})", ["_saved_dim"]),
    ("x.log_softmax({d})", ["_saved_dim"]), ("x.sum({d})", ["_saved_dim", "_saved_keepdim"]),
    ("x.sum(({d}, {e}))", ["_saved_dim"]), ("x.mean({d})", ["_saved_dim"]), ("x.cumsum({d})", ["_saved_dim"]),
    ("x.cumprod({d})", ["_saved_dim"]), ("x.unsqueeze({d})", ["_saved_dim"]), ("x.select({d}, -1)", ["_saved_dim", "_saved_index"]),
    ("x[-1]", ["_saved_dim", "_saved_index"]), ("x.squeeze({d})", ["_saved_dim"]), ("x.narrow({d}, 0, 1)", ["_saved_dim", "_saved_start", "_saved_end"]),
    ("x.unbind({d})[0]", ["_saved_dim"]), ("torch.cat([x, x], {d})", ["_saved_dim"]), ("torch.stack([x, x], {d})", ["_saved_dim"]),
    ("x.max({d})[0]", ["_saved_dim"]), ("x.min({d}).values", ["_saved_dim"]), ("x.prod({d})", ["_saved_dim"]),
    ("x.median({d}).values", ["_saved_dim"]), ("x.kthvalue(1, {d}).values", ["_saved_dim"]), ("x.mode({d}).values", ["_saved_dim"]),
    ("x.topk(1, {d}).values", ["_saved_dim"]), ("x.sort({d}).values", ["_saved_dim"]), ("x.amax({d})", ["_saved_dim"]),
    ("x.logsumexp({d})", ["_saved_dim"]), ("x.std({d})", ["_saved_dim", "_saved_correction"]),
    ("x.gather({d}, torch.zeros_like(x, dtype=torch.long))", ["_saved_dim", "_saved_sparse_grad"]),
    ("x.index_select({d}, torch.tensor([0]))", ["_saved_dim"]), ("x.roll(1, {d})", ["_saved_dims", "_saved_shifts"]),
    ("x.roll(-1, {d})", ["_saved_shifts"]), ("x.flip({d})", ["_saved_dims"]), ("x.cummax({d}).values", ["_saved_dim"]),
    ("x.logcumsumexp({d})", ["_saved_dim"]), ("x.unfold({d}, 1, 1)", ["_saved_dimension", "_saved_size", "_saved_step"]),
    ("x.split(1, {d})[0]", ["_saved_dim", "_saved_split_size", "_saved_self_sym_sizes"]),
    ("x.chunk(2, {d})[0]", ["_saved_dim"]), ("F.glu(torch.cat([x, x], {d}), {d})", ["_saved_dim"]),
    ("x.norm(dim={d})", ["_saved_dim", "_saved_ord", "_saved_p"]), ("x.norm()", ["_saved_ord", "_saved_p"]),
    ("x.norm(p=1)", ["_saved_ord"]), ("x.std()", ["_saved_correction", "_saved_dim"]), ("x.var()", ["_saved_correction"]),
    ("x.std(unbiased=False)", ["_saved_correction"]), ("x.var({d}, correction=0)", ["_saved_correction"]),
    ("x.tril(-1) if x.dim() == 2 else x.sum()", ["_saved_diagonal"]), ("x[..., -1:]", ["_saved_start", "_saved_end", "_saved_step"]),
    ("x[..., :1]", ["_saved_start", "_saved_end"]), ("x[::2]", ["_saved_end", "_saved_step"]),
]


@pytest.mark.parametrize("seed", range(40))
def test_saved_attributes(seed):
    r = random.Random(seed)
    nd = r.randint(1, 3)
    s = _shape(r, nd)
    statements = [f"torch.manual_seed({seed})", f"x = torch.randn({s}, dtype=torch.float64, requires_grad=True)"]
    for expr, attrs in r.sample(_SAVED, 8):
        d, e = r.randint(-nd, nd - 1), r.randint(-nd, nd - 1)
        if "unsqueeze" in expr or "stack" in expr:
            d = r.randint(-nd - 1, nd)
        if "(({d}, {e}))" in expr and d % nd >= e % nd:
            continue        # (left: gradlab's node keeps several dims sorted, PyTorch's in the order given)
        statements.append(f"y = {expr.format(d=d, e=e)}")
        statements.append("print(type(y.grad_fn).__name__)")
        for a in attrs:
            statements.append(f"v = y.grad_fn.{a}\nprint(v if not isinstance(v, torch.Tensor) else v.shape)")
    _check(statements)


# --- convolutions: the bias dtype first ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_conv_bias_dtype_checked_first(seed):
    r = random.Random(seed)
    k = r.choice([1, 2, 3])
    fn = f"F.conv{k}d"
    c_in, c_w = r.randint(1, 3), r.randint(1, 3)
    spatial = ", ".join(str(r.randint(1, 5)) for _ in range(k))
    kernel = ", ".join(str(r.randint(1, 4)) for _ in range(k))
    in_dt, p_dt = r.sample(["torch.float32", "torch.float64"], 2) if r.random() < 0.8 else ["torch.float32"] * 2
    lead = r.choice(["1, ", "", "1, 1, "])
    extra = r.choice(["", ", stride=0", ", padding=-1", ", groups=2", ", groups=0", ", padding='same'", ", padding='valid'",
                      ", padding='bad'", ", padding='same', stride=2", ", stride=(1, 1, 1, 1)"])
    bias = r.choice([f"torch.ones({r.randint(1, 4)}, dtype={p_dt})", "None"])
    _check([
        f"{fn}(torch.ones({lead}{c_in}, {spatial}, dtype={in_dt}), torch.ones(2, {c_w}, {kernel}, dtype={p_dt}), "
        f"{bias}{extra})",
        f"m = nn.Conv{k}d({c_w}, 2, {r.randint(1, 3)})",
        f"m(torch.ones({lead}{c_in}, {spatial}, dtype={in_dt}))",
    ])


# --- the nodes of a gradient's graph --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(16))
def test_double_backward_nodes(seed):
    r = random.Random(seed)
    nd = r.randint(1, 3)
    s = _shape(r, nd)
    d = r.randint(-nd, nd - 1)
    reps = tuple(r.randint(0 if r.random() < 0.1 else 1, 3) for _ in range(nd + r.randint(0, 2)))
    expr = r.choice([f"x.sort({d})[0]", f"x.topk(1, {d})[0]", f"x.repeat{reps}", f"x.sort({d}, descending=True).values",
                     f"x.topk(1, {d}, largest=False).values"])
    _check([
        f"torch.manual_seed({seed})",
        f"x = torch.randn({s}, dtype=torch.float64, requires_grad=True)",
        f"y = {expr}",
        "g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)",
        "print(g, g.grad_fn.name(), [type(f).__name__ for f, _ in g.grad_fn.next_functions])",
        "g.sum().backward()",
        "print(x.grad)",
    ])


# --- losses given an input and a target of two dtypes ----------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_loss_dtype_pairs(seed):
    r = random.Random(seed)
    dts = ["torch.float32", "torch.float64", "torch.float16", "torch.int64", "torch.int32", "torch.bool"]
    a, b = r.choice(dts[:4] + dts[:2]), r.choice(dts)
    fn = r.choice(["huber_loss", "huber_loss", "smooth_l1_loss", "mse_loss", "l1_loss", "soft_margin_loss"])
    red = r.choice(["'mean'", "'sum'", "'none'"])
    s = _shape(r, r.randint(1, 2))
    st = s if r.random() < 0.7 else _shape(r, r.randint(1, 3))      # (a target of another shape: broadcasting)
    make = "torch.randn({s}).to({d})"
    _check([
        f"torch.manual_seed({seed})",
        f"x = {make.format(s=s, d=a)}",
        f"t = {make.format(s=st, d=b)}",
        "x.requires_grad_(x.is_floating_point())",
        f"loss = F.{fn}(x, t, reduction={red})",
        "print(loss, loss.dtype)",
        "loss.sum().backward()",
        "print(x.grad)",
    ])


# --- a gradient's zeros keep PyTorch's signs (its running sums start at +0) ------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_cumulative_gradient_zero_signs(seed):
    r = random.Random(seed)
    nd = r.randint(1, 3)
    s = _shape(r, nd)
    d = r.randint(-nd, nd - 1)
    expr = r.choice([f"x.cumprod({d})", f"x.cumsum({d})", f"x.cumprod({d}).flip({d})"])
    pick = r.choice(["[0]", "[..., :1]", ".narrow(0, 0, 1)", ".index_select(0, torch.tensor([0, 0]))"])
    _check([
        f"torch.manual_seed({seed})",
        f"x = torch.randn({s}, dtype={r.choice(['torch.float64', 'torch.float32'])}, requires_grad=True)",
        f"y = ({expr}){pick}",
        "y.sum().backward()",
        "print(x.grad)",
    ])


# --- nn containers and modules -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(16))
def test_sequential_item_assignment_and_arithmetic(seed):
    r = random.Random(seed)
    layers = ["nn.Linear(2, 2)", "nn.ReLU()", "nn.Tanh()", "nn.Identity()", "nn.Sigmoid()"]
    n = r.randint(1, 4)
    ops = [f"s[{r.randint(-n - 1, n)}] = {r.choice(layers)}", f"s = s * {r.choice([1, 2, 0, -1, 1.5])}",
           f"s = {r.choice([2, 3])} * s", f"s *= {r.choice([1, 2, 0])}", f"s += nn.Sequential({r.choice(layers)})",
           f"s += [{r.choice(layers)}]", f"del s[{r.randint(-n, n - 1)}]", f"s.{r.choice(['x', '0', '1'])} = {r.choice(layers)}",
           f"s[{r.choice(['0', '-1'])}] = 3", f"s.insert({r.randint(-n, n)}, {r.choice(layers)})"]
    statements = [f"torch.manual_seed({seed})", f"s = nn.Sequential({', '.join(r.choice(layers) for _ in range(n))})"]
    for op in r.sample(ops, 5):
        statements += [op, "print(s, list(s.state_dict()), len(s))"]
    statements += ["l = nn.ModuleList([nn.ReLU()])", f"l += [{r.choice(layers)}]", "l += 3", "print(l)"]
    _check(statements)


@pytest.mark.parametrize("seed", range(16))
def test_embedding_and_padding_errors(seed):
    r = random.Random(seed)
    rows = r.randint(1, 4)
    idx = [r.randint(-rows - 1, rows + 1) for _ in range(r.randint(1, 4))]
    _check([
        f"torch.manual_seed({seed})",
        f"e = nn.Embedding({rows}, 2, max_norm={r.choice(['None', '1.0'])})",
        f"print(e(torch.tensor({idx})))",
        f"print(nn.EmbeddingBag(5, 2)(torch.tensor([0, 1, 2]), torch.tensor([0, {r.randint(0, 5)}])))",
        f"print(F.unfold(torch.randn({_shape(r, r.randint(1, 2))}), 2).shape)",
        f"print(F.pad(torch.randn({_shape(r, r.randint(1, 3))}), {tuple(r.randint(-1, 2) for _ in range(r.randint(1, 4)))}, "
        f"mode={r.choice(['constant', 'reflect', 'bad', 'circular'])!r}).shape)",
    ])


@pytest.mark.parametrize("seed", range(40))
def test_linear_vector_input_bias_shapes(seed):
    r = random.Random(seed)
    out, cin = r.randint(1, 3), r.randint(1, 3)
    x = r.choice([(cin,), (cin,), (r.randint(1, 2), cin), (r.randint(1, 2), r.randint(1, 2), cin)])
    # (left: a vector input with a 3-d bias, and a >=3-d input with a 2-d bias not (1, out), whose paths
    # (addmm's expand or matmul's add_) follow no rule found yet)
    bias = tuple(r.choice([1, 1, out, r.randint(1, 3)]) for _ in range(r.randint(0, 2 if len(x) < 3 else 1)))
    if len(x) == 3 and r.random() < 0.3:
        bias = (1, out)
    _check([
        f"torch.manual_seed({seed})",
        f"w = torch.randn({out}, {cin}, requires_grad=True)",
        f"y = F.linear(torch.randn({x}), w, torch.randn({bias}))",
        "print(y, y.grad_fn)",
        "y.sum().backward()",
        "print(w.grad)",
    ])


# --- matmul of a vector and a batch: folded into mv only when PyTorch folds ----------------------------------------
@pytest.mark.parametrize("seed", range(24))
def test_matmul_vector_and_batch(seed):
    r = random.Random(seed)
    k = r.randint(1, 3)
    batch = _shape(r, r.randint(1, 2))
    vec = (k if r.random() < 0.7 else r.randint(1, 3),)
    mat = batch + ((k, r.randint(1, 3)) if r.random() < 0.5 else (r.randint(1, 3), k))
    left = r.random() < 0.5
    a, b = (vec, mat) if left else (mat, vec)
    ga, gb = r.choice([(False, False), (True, False), (False, True), (True, True)])
    _check([
        f"torch.manual_seed({seed})",
        f"a = torch.randn({a}, dtype=torch.float64, requires_grad={ga})",
        f"b = torch.randn({b}, dtype=torch.float64, requires_grad={gb})",
        f"b = b.mT if {r.random() < 0.3} and b.dim() > 1 else b",
        "y = a @ b",
        "print(y, y.grad_fn, [type(f).__name__ for f, _ in y.grad_fn.next_functions] if y.grad_fn else None)",
    ])


_RETURNS = """
class W(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones({shape}, dtype=g.dtype)
"""


@pytest.mark.parametrize("seed", range(24))
def test_custom_function_gradient_shapes(seed):
    r = random.Random(seed)
    s = _shape(r, r.randint(0, 3))
    g = tuple(r.choice([1, n, r.randint(1, 4)]) for n in s) if r.random() < 0.5 else _shape(r, r.randint(0, 3))
    if r.random() < 0.4:
        g = _shape(r, r.randint(1, 2)) + g
    _check([
        f"x = torch.ones({s}, requires_grad=True)",
        _RETURNS.format(shape=g),
        "W.apply(x).sum().backward()",
        "print(x.grad)",
    ])
