"""A grammar of short beginner programs for the stateful differential fuzzer (tests/fuzz/test_program_fuzz.py).

`program(seed)` writes 5-20 statements as a beginner would: build tensors (literals, factories, seeded random
ones), do ops, take views, change tensors and views in place (methods, item assignment, augmented assignment),
call backward (twice, with retain_graph, with a gradient), read and reset .grad, read .grad_fn / .is_leaf /
.requires_grad / ._version, detach, switch grad modes, register hooks, train an nn.Module with an optimizer,
save and load state dicts, and print things. Each statement is (family, source): the family names the grammar
rule, so that a report can group differences. The generator keeps a model of the variables (shape, dtype,
whether they need grad) only to choose statements that usually make sense; nothing here knows any result, and
a statement that raises is as useful as one that does not (its error is compared).
"""
import random

import numpy as np

SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1), (3, 2), (4,)]
FLOATS = ["torch.float32", "torch.float64"]
# numbers a beginner types: small, some negative, some with decimals, a zero now and then
NUMBERS = [0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1.5, 3.0, 0.25, -0.75, 0.1, 2.5, -3.0, 0.3]

UNARY = ["exp", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "square", "sqrt", "log", "reciprocal",
         "exp2", "expm1", "log1p", "atan", "sign", "floor", "round", "trunc", "frac", "rsqrt", "sinh", "cosh"]
UNARY_FN = ["torch.exp", "torch.sin", "torch.tanh", "torch.sigmoid", "torch.relu", "torch.abs", "torch.sqrt",
            "F.relu", "F.softplus", "F.gelu", "F.silu", "F.elu", "F.leaky_relu", "F.logsigmoid", "F.hardtanh"]
INPLACE_UNARY = ["exp_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_", "abs_", "neg_", "sqrt_", "zero_",
                 "reciprocal_", "square_", "log_", "floor_", "clamp_(min=0)", "clamp_(-1, 1)", "fill_(2.0)",
                 "uniform_()", "normal_()", "t_()", "squeeze_()", "unsqueeze_(0)"]
BINARY_OPS = ["+", "-", "*", "/", "**"]
BINARY_FN = ["torch.add", "torch.mul", "torch.sub", "torch.div", "torch.maximum", "torch.minimum", "torch.pow",
             "torch.atan2", "torch.hypot", "torch.fmod", "torch.remainder"]
INPLACE_BINARY = ["add_", "sub_", "mul_", "div_", "pow_", "copy_", "clamp_max_", "atan2_"]
REDUCE = ["sum()", "mean()", "prod()", "max()", "min()", "norm()", "std()", "var()", "amax()", "logsumexp(0)",
          "sum(0)", "mean(0)", "sum(-1)", "sum(dim=0, keepdim=True)", "max(0)", "min(-1)", "argmax()", "cumsum(0)",
          "softmax(0)", "log_softmax(-1)", "std(0)", "median()", "all()", "any()"]
VIEWS = ["[0]", "[:, 1]", "[1:]", "[..., 0]", "[None]", ".t()", ".T", ".view(-1)", ".reshape(-1)", ".flatten()",
         ".unsqueeze(0)", ".squeeze()", ".transpose(0, 1)", ".expand(2, -1)", ".narrow(0, 0, 1)", ".select(0, 1)",
         ".detach()", ".data", ".unbind(0)[0]", ".split(1)[0]", ".chunk(2)[-1]", ".diagonal()", "[::2]",
         ".permute(1, 0)", ".movedim(0, -1)", ".view_as(%s)", ".contiguous()", ".clone()", ".flip(0)", ".real"]
SCALARS = ["1", "2", "0.5", "-1", "3.0", "1e-3", "True", "0"]


class Var:
    def __init__(self, shape, dtype="torch.float32", grad=False, leaf=True, kind="tensor"):
        self.shape, self.dtype, self.grad, self.leaf, self.kind = shape, dtype, grad, leaf, kind


def _literal(rnd, shape):
    if not shape:
        return repr(rnd.choice(NUMBERS))
    return "[" + ", ".join(_literal(rnd, shape[1:]) for _ in range(shape[0])) + "]"


def _size(shape):
    return ", ".join(map(str, shape)) if shape else ""


class Writer:
    """Writes one program, statement by statement, keeping a rough model of its variables."""

    def __init__(self, seed):
        self.rnd = random.Random(seed)
        self.lines = []           # (family, source)
        self.vars = {}            # name -> Var
        self.count = 0
        self.modules = {}         # name -> (in_features, out_features) or None for Dropout
        self.optims = []
        self.hooks = []
        self.no_grad = False      # torch.set_grad_enabled(False) was called as a function

    # --- helpers -----------------------------------------------------------------------------------------
    def new(self):
        self.count += 1
        return f"v{self.count}"

    def add(self, family, source, name=None, var=None):
        self.lines.append((family, source))
        if name is not None:
            self.vars[name] = var

    def pick(self, pred=lambda v: True, recent=True):
        names = [n for n, v in self.vars.items() if v.kind == "tensor" and pred(v)]
        if not names:
            return None
        if recent and self.rnd.random() < 0.6:
            return names[-1] if self.rnd.random() < 0.5 else self.rnd.choice(names[-3:])
        return self.rnd.choice(names)

    def floaty(self, v):
        return v.dtype in FLOATS

    # --- rules -------------------------------------------------------------------------------------------
    def create(self):
        r = self.rnd
        shape = r.choice(SHAPES)
        name = self.new()
        dtype = r.choice(FLOATS + ["torch.float32"] * 2)
        grad = r.random() < 0.7
        rg = ", requires_grad=True" if grad else ""
        dt = "" if dtype == "torch.float32" else f", dtype={dtype}"
        kind = r.random()
        if kind < 0.45:
            src = f"{name} = torch.tensor({_literal(r, shape)}{dt}{rg})"
            family = "create:tensor"
        elif kind < 0.6:
            fn = r.choice(["ones", "zeros", "rand", "randn", "full", "empty"])
            if fn == "empty":          # uninitialized memory: only its metadata is comparable
                src = f"{name} = torch.empty({_size(shape) or '()'}{dt}{rg}).fill_(0.5)"
            elif fn == "full":
                src = f"{name} = torch.full(({_size(shape)}{',' if len(shape) == 1 else ''}), " \
                      f"{r.choice(NUMBERS)}{dt}{rg})"
            else:
                src = f"{name} = torch.{fn}({_size(shape) or '()'}{dt}{rg})"
            family = f"create:{fn}"
        elif kind < 0.7:
            n = int(np.prod(shape)) if shape else 1
            src = f"{name} = torch.arange({float(n)}{dt}{rg}).reshape({list(shape)})"
            family = "create:arange"
        elif kind < 0.8:
            src = f"torch.manual_seed({r.randrange(100)})"
            self.add("seed", src)
            return self.create_random()
        elif kind < 0.88 and self.vars:
            other = self.pick()
            fn = r.choice(["zeros_like", "ones_like", "randn_like", "rand_like", "full_like"])
            extra = ", 3.0" if fn == "full_like" else ""
            src = f"{name} = torch.{fn}({other}{extra}{rg})"
            self.add(f"create:{fn}", src, name, Var(self.vars[other].shape, self.vars[other].dtype, grad))
            return
        else:
            return self.create_int()
        self.add(family, src, name, Var(shape, dtype, grad))

    def create_random(self):
        r = self.rnd
        name = self.new()
        shape = r.choice(SHAPES[1:])
        kind = r.choice(["rand", "randn", "randint", "randperm", "normal", "bernoulli", "multinomial"])
        if kind == "randint":
            self.add("random:randint", f"{name} = torch.randint({r.choice([0, -3])}, {r.choice([2, 5, 10])}, "
                                       f"({_size(shape)},))", name, Var(shape, "torch.int64"))
        elif kind == "randperm":
            n = r.choice([3, 4, 6])
            self.add("random:randperm", f"{name} = torch.randperm({n})", name, Var((n,), "torch.int64"))
        elif kind == "normal":
            self.add("random:normal", f"{name} = torch.normal(0.0, {r.choice(['1.0', '2.0'])}, "
                                      f"size=({_size(shape)},))", name, Var(shape))
        elif kind == "bernoulli":
            self.add("random:bernoulli", f"{name} = torch.bernoulli(torch.full(({_size(shape)},), 0.5))",
                     name, Var(shape))
        elif kind == "multinomial":
            self.add("random:multinomial", f"{name} = torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), "
                                           f"{r.choice([1, 2, 3])})", name, Var((2,), "torch.int64"))
        else:
            rg = ", requires_grad=True" if r.random() < 0.6 else ""
            self.add(f"random:{kind}", f"{name} = torch.{kind}({_size(shape)}{rg})", name, Var(shape, grad=bool(rg)))

    def create_int(self):
        r = self.rnd
        name = self.new()
        shape = r.choice(SHAPES[1:])
        dtype = r.choice(["torch.int64", "torch.int32", "torch.bool"])
        if dtype == "torch.bool":
            src = f"{name} = torch.tensor({_literal(r, shape)}) > 0"
        else:
            vals = _literal(r, shape).replace(".0", "").replace(".5", "").replace(".25", "").replace(".75", "")
            vals = vals.replace(".1", "").replace(".3", "")
            src = f"{name} = torch.tensor({vals}{'' if dtype == 'torch.int64' else ', dtype=' + dtype})"
        self.add("create:int", src, name, Var(shape, dtype))

    def unary(self):
        a = self.pick()
        if a is None:
            return self.create()
        r = self.rnd
        name = self.new()
        va = self.vars[a]
        if r.random() < 0.6:
            src = f"{name} = {a}.{r.choice(UNARY)}()"
        else:
            src = f"{name} = {r.choice(UNARY_FN)}({a})"
        dtype = va.dtype if self.floaty(va) else "torch.float32"
        self.add("unary", src, name, Var(va.shape, dtype, va.grad and not self.no_grad, leaf=not va.grad))

    def _broadcast(self, sa, sb):
        try:
            return tuple(np.broadcast_shapes(sa, sb))
        except ValueError:
            return None

    def binary(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        va = self.vars[a]
        if r.random() < 0.3:
            b, vb = r.choice(SCALARS), Var(())
        else:
            b = self.pick(lambda v: self._broadcast(v.shape, va.shape) is not None, recent=False)
            vb = self.vars[b]
        shape = self._broadcast(va.shape, vb.shape)
        name = self.new()
        if r.random() < 0.5:
            op = r.choice(BINARY_OPS)
            src = f"{name} = {a} {op} {b}" if r.random() < 0.8 else f"{name} = {b} {op} {a}"
        else:
            src = f"{name} = {r.choice(BINARY_FN)}({a}, {b})"
        grad = (va.grad or vb.grad) and not self.no_grad
        dtype = va.dtype if self.floaty(va) else vb.dtype if self.floaty(vb) else "torch.float32"
        self.add("binary", src, name, Var(shape, dtype, grad, leaf=not grad))

    def matmul(self):
        """Products in float64 (PyTorch's float32 matmul is MKL's, whose rounding is not reproducible)."""
        r = self.rnd
        a = self.pick(lambda v: len(v.shape) == 2)
        if a is None:
            return self.create()
        sa = self.vars[a].shape
        b = self.pick(lambda v: len(v.shape) >= 1 and v.shape[0] == sa[1], recent=False)
        name = self.new()
        if b is None:
            src = f"{name} = {a}.double() @ {a}.double().t()"
            shape = (sa[0], sa[0])
        else:
            sb = self.vars[b].shape
            op = r.choice(["{a} @ {b}", "torch.matmul({a}, {b})", "{a}.mm({b})" if len(sb) == 2 else "{a}.mv({b})"])
            src = f"{name} = " + op.format(a=f"{a}.double()", b=f"{b}.double()")
            shape = (sa[0],) + tuple(sb[1:])
        grad = self.vars[a].grad and not self.no_grad
        self.add("matmul", src, name, Var(shape, "torch.float64", grad, leaf=not grad))

    def reduce(self):
        a = self.pick()
        if a is None:
            return self.create()
        name = self.new()
        red = self.rnd.choice(REDUCE)
        va = self.vars[a]
        if red.endswith("()") and not red.startswith("cumsum"):
            shape = ()
        elif "keepdim" in red:
            shape = (1,) + va.shape[1:]
        elif red.startswith(("max(", "min(")):
            self.add("reduce", f"{name} = {a}.{red}", name, Var(va.shape[1:], va.dtype, kind="tuple"))
            n2 = self.new()
            self.add("reduce", f"{n2} = {name}.values", n2, Var(va.shape[1:], va.dtype, va.grad, leaf=not va.grad))
            return
        elif red.startswith(("cumsum", "softmax", "log_softmax")):
            shape = va.shape
        else:
            shape = va.shape[1:]
        if red.startswith(("argmax", "all", "any")):
            dtype = "torch.int64" if red.startswith("argmax") else "torch.bool"
            self.add("reduce", f"{name} = {a}.{red}", name, Var(shape, dtype))
            return
        self.add("reduce", f"{name} = {a}.{red}", name, Var(shape, va.dtype, va.grad, leaf=not va.grad))

    def view(self):
        a = self.pick()
        if a is None:
            return self.create()
        va = self.vars[a]
        v = self.rnd.choice(VIEWS)
        if "%s" in v:
            v = v % self.pick(lambda w: int(np.prod(w.shape)) == int(np.prod(va.shape)), recent=False)
        shape = _view_shape(v, va.shape)
        name = self.new()
        detached = v in (".detach()", ".data")
        grad = va.grad and not detached
        self.add("view", f"{name} = {a}{v}", name, Var(shape if shape is not None else va.shape, va.dtype, grad,
                                                      leaf=not grad))

    def inplace(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        va = self.vars[a]
        k = r.random()
        if k < 0.35:
            op = r.choice(INPLACE_UNARY)
            src = f"{a}.{op}" if "(" in op else f"{a}.{op}()"
            family = "inplace:unary"
            if op in ("t_()", "squeeze_()", "unsqueeze_(0)"):
                va.shape = _view_shape("." + op.replace("_(", "("), va.shape) or va.shape
        elif k < 0.6:
            b = self.pick(lambda v: self._broadcast(v.shape, va.shape) == va.shape, recent=False)
            b = b if b is not None and r.random() < 0.7 else r.choice(SCALARS[:5])
            op = r.choice(INPLACE_BINARY)
            if op == "copy_" and b in SCALARS:
                op = "add_"
            extra = ", alpha=2" if op in ("add_", "sub_") and r.random() < 0.3 else ""
            src = f"{a}.{op}({b}{extra})"
            family = "inplace:binary"
        elif k < 0.8:
            idx = r.choice(["[0]", "[:, 0]", "[1:]", "[...]", "[-1]", "[0, 0]", "[[0]]", "[:]", "[::2]"])
            value = r.choice(["0.0", "5", "-1.5", "float('nan')", "torch.tensor(2.0)"] +
                             [b for b in [self.pick(recent=False)] if b])
            if r.random() < 0.5:
                src = f"{a}{idx} = {value}"
            else:
                src = f"{a}{idx} {r.choice(['+=', '*=', '-='])} {value}"
            family = "inplace:setitem"
        elif k < 0.9:
            b = self.pick(lambda v: self._broadcast(v.shape, va.shape) == va.shape, recent=False) or "2"
            src = f"{a} {r.choice(['+=', '*=', '-=', '/='])} {b}"
            family = "inplace:augmented"
        else:
            op = r.choice(["masked_fill_({a} > 0, 0.0)", "index_fill_(0, torch.tensor([0]), -1.0)",
                           "addcmul_({a}, {a}, value=0.5)", "lerp_(torch.zeros_like({a}), 0.5)",
                           "clamp_({a}.detach().min(), 1.0)", "index_add_(0, torch.tensor([0]), {a}[:1])",
                           "scatter_(0, torch.zeros_like({a}, dtype=torch.long), 1.0)",
                           "fill_diagonal_(0.0)", "masked_scatter_({a} > 0, {a} * 2)"])
            src = f"{a}." + op.format(a=a)
            family = "inplace:other"
        self.add(family, src)

    def backward(self):
        r = self.rnd
        a = self.pick(lambda v: v.grad) or self.pick()
        if a is None:
            return self.create()
        va = self.vars[a]
        k = r.random()
        rg = ", retain_graph=True" if r.random() < 0.35 else ""
        if k < 0.4:
            src = f"{a}.sum().backward({rg[2:]})"
        elif k < 0.55:
            src = f"{a}.backward({rg[2:]})"
        elif k < 0.7:
            grad = r.choice([f"torch.ones_like({a})", f"torch.full_like({a}, 2.0)", f"torch.randn_like({a})",
                             "torch.tensor(1.0)", f"torch.ones({_size(va.shape[::-1]) or '()'})"])
            src = f"{a}.backward({grad}{rg})"
        elif k < 0.8:
            src = f"{a}.mean().backward(retain_graph=True)\n{a}.mean().backward()"
        elif k < 0.9:
            leaves = [n for n, v in self.vars.items() if v.kind == "tensor" and v.leaf and v.grad][-2:] or [a]
            opts = r.choice(["", ", retain_graph=True", ", allow_unused=True", ", create_graph=True",
                             ", allow_unused=True, materialize_grads=True"])
            src = f"torch.autograd.grad({a}.sum(), [{', '.join(leaves)}]{opts})"
        else:
            src = f"torch.autograd.backward([{a}.sum()], inputs=[{a}]{rg})"
        self.add("backward", src)

    def read(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        attr = r.choice([".grad", ".grad", ".grad_fn", ".is_leaf", ".requires_grad", "._version", ".shape",
                         ".dtype", ".retains_grad", ".grad_fn.next_functions", ".item()", ".tolist()",
                         ".numpy()", ".detach().numpy().tolist()", ".stride()", ".is_contiguous()", ".dim()",
                         ".numel()", ".size(0)", ".data_ptr() == {a}.data_ptr()", ".storage_offset()",
                         ".grad_fn.name()", ".grad_fn._saved_self", ".grad_fn._saved_result",
                         ".grad_fn._saved_other", ".requires_grad_().is_leaf", ".__len__()", ".grad.grad_fn",
                         ".untyped_storage().size()", "._base is None", ".is_floating_point()", ".element_size()"])
        src = f"{a}{attr}".format(a=a)
        k = r.random()
        if k < 0.2:
            src = f"print({src})"
        elif k < 0.3:
            src = r.choice([f"float({a})", f"int({a})", f"bool({a})", f"len({a})", f"str({a})", f"{a} == {a}",
                            f"list({a})", f"repr({a}.grad)", f"format({a}.sum().item(), '.3f')"])
        self.add("read", src)

    def grad_edit(self):
        r = self.rnd
        a = self.pick(lambda v: v.leaf and v.grad) or self.pick()
        if a is None:
            return self.create()
        src = r.choice([f"{a}.grad = None", f"{a}.grad.zero_()", f"{a}.grad = torch.zeros_like({a})",
                        f"{a}.grad = torch.ones(2)", f"{a}.grad += 1", f"{a}.grad.data.mul_(0.5)",
                        f"{a}.retain_grad()", f"{a}.grad = {a}.grad * 2", f"{a}.grad.requires_grad"])
        self.add("grad", src)

    def detach(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        va = self.vars[a]
        k = r.random()
        if k < 0.3:
            name = self.new()
            self.add("detach", f"{name} = {a}.detach()", name, Var(va.shape, va.dtype))
        elif k < 0.45:
            self.add("detach", f"{a}.detach_()")
            va.grad, va.leaf = False, True
        elif k < 0.75:
            arg = r.choice(["", "False", "True"])
            self.add("detach", f"{a}.requires_grad_({arg})")
            if arg != "False" and va.leaf:
                va.grad = True
        else:
            self.add("detach", f"{a}.requires_grad = {r.choice(['True', 'False'])}")

    def mode(self):
        r = self.rnd
        k = r.random()
        a = self.pick()
        if a is None:
            return self.create()
        name = self.new()
        va = self.vars[a]
        body = r.choice([f"{a} * 2", f"{a}.exp()", f"{a} + 1", f"{a}.sum()"])
        shape = () if body.endswith("sum()") else va.shape
        if k < 0.3:
            ctx = r.choice(["torch.no_grad()", "torch.enable_grad()", "torch.set_grad_enabled(False)",
                            "torch.inference_mode()", "torch.set_grad_enabled(True)"])
            extra = r.choice(["", f"\n    {a}.add_(1)", f"\n    {a}[0] = 1.0"]) if va.shape else ""
            self.add("mode:with", f"with {ctx}:\n    {name} = {body}{extra}", name,
                     Var(shape, va.dtype, va.grad and "False" not in ctx and "no_grad" not in ctx))
        elif k < 0.45:
            self.add("mode:nested", f"with torch.no_grad():\n    with torch.enable_grad():\n        {name} = {body}"
                     f"\n    {name}b = {body}", name, Var(shape, va.dtype, va.grad))
        elif k < 0.6:
            self.no_grad = not self.no_grad
            self.add("mode:set", f"torch.set_grad_enabled({not self.no_grad})")
        elif k < 0.75:
            self.add("mode:decorator", f"@torch.no_grad()\ndef f(t):\n    return t * 3\n{name} = f({a})", name,
                     Var(va.shape, va.dtype))
        else:
            self.add("mode:query", r.choice(["torch.is_grad_enabled()", "torch.is_inference_mode_enabled()",
                                             f"{a}.is_inference()"]))

    def hook(self):
        r = self.rnd
        a = self.pick(lambda v: v.grad) or self.pick()
        if a is None:
            return self.create()
        k = r.random()
        if k < 0.55:
            fn = r.choice(["lambda g: g * 2", "lambda g: print('grad', g)", "lambda g: None",
                           "lambda g: g.clamp(min=0)", "lambda g: g + 1", "lambda g: torch.zeros(5)",
                           "lambda g: g.sum()", "lambda g: g.add_(1)"])
            h = f"h{len(self.hooks) + 1}"
            self.hooks.append(h)
            self.add("hook:register", f"{h} = {a}.register_hook({fn})")
        elif k < 0.7 and self.hooks:
            self.add("hook:remove", f"{r.choice(self.hooks)}.remove()")
        elif k < 0.85:
            self.add("hook:retain_grad", f"{a}.retain_grad()")
        else:
            self.add("hook:post_accumulate", f"h0 = {a}.register_post_accumulate_grad_hook("
                                             f"lambda p: print('acc', p.grad))")

    def module(self):
        r = self.rnd
        k = r.random()
        linear = [n for n, v in self.modules.items() if v is not None]
        if not self.modules or k < 0.25:
            name = f"m{len(self.modules) + 1}"
            fin, fout = r.choice([1, 2, 3]), r.choice([1, 2, 3])
            seed = f"torch.manual_seed({r.randrange(10)})\n" if r.random() < 0.7 else ""
            kind = r.random()
            if kind < 0.6:
                bias = r.choice(["", ", bias=False"])
                src = f"{seed}{name} = nn.Linear({fin}, {fout}{bias}, dtype=torch.float64)"
                self.modules[name] = (fin, fout)
            elif kind < 0.85:
                src = f"{seed}{name} = nn.Sequential(nn.Linear({fin}, 3), nn.{r.choice(['ReLU', 'Tanh', 'Sigmoid'])}" \
                      f"(), nn.Linear(3, {fout})).double()"
                self.modules[name] = (fin, fout)
            else:
                src = f"{seed}{name} = nn.Dropout(p={r.choice(['0.5', '0.2', '0.0', '1.0'])})"
                self.modules[name] = None
            self.add("module:make", src)
        elif k < 0.5:
            m = r.choice(list(self.modules))
            out = self.new()
            if self.modules[m] is None:
                a = self.pick() or "torch.ones(3)"
                self.add("module:call", f"{out} = {m}({a})", out, Var(self.vars.get(a, Var((3,))).shape))
            else:
                fin, fout = self.modules[m]
                x = f"torch.randn({r.choice([1, 2, 4])}, {fin}, dtype=torch.float64)"
                cand = self.pick(lambda v: v.shape and v.shape[-1] == fin, recent=False)
                if cand is not None and r.random() < 0.6:
                    x = f"{cand}.double()"
                self.add("module:call", f"{out} = {m}({x})", out, Var((2, fout), "torch.float64", True, False))
        elif k < 0.62 and linear:
            m = r.choice(linear)
            opt = r.choice([
                f"torch.optim.SGD({m}.parameters(), lr=0.1)",
                f"torch.optim.SGD({m}.parameters(), lr=0.05, momentum=0.9)",
                f"torch.optim.SGD({m}.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)",
                f"torch.optim.SGD({m}.parameters(), lr=0.1, momentum=0.5, dampening=0.1)",
                f"torch.optim.Adam({m}.parameters(), lr=0.01)",
                f"torch.optim.Adam({m}.parameters(), lr=0.1, weight_decay=0.1)",
                f"torch.optim.Adam({m}.parameters(), lr=0.1, amsgrad=True)",
                f"torch.optim.AdamW({m}.parameters(), lr=0.1)",
                f"torch.optim.RMSprop({m}.parameters(), lr=0.01, momentum=0.9)",
                f"torch.optim.Adagrad({m}.parameters(), lr=0.1)",
            ])
            name = f"opt{len(self.optims) + 1}"
            self.optims.append(name)
            self.add("optim:make", f"{name} = {opt}")
        elif k < 0.72 and self.optims:
            o = r.choice(self.optims)
            self.add("optim:step", r.choice([f"{o}.step()", f"{o}.zero_grad()", f"{o}.zero_grad(set_to_none=False)",
                                             f"{o}.step()\n{o}.zero_grad()", f"{o}.state_dict()['state']",
                                             f"{o}.param_groups[0]['lr']", f"{o}.load_state_dict({o}.state_dict())",
                                             f"{o}.param_groups[0]['lr'] = 0.5"]))
        elif k < 0.85 and linear:
            m = r.choice(linear)
            fin, fout = self.modules[m]
            loss = r.choice(["F.mse_loss({y}, torch.zeros_like({y}))", "{y}.pow(2).mean()", "{y}.sum()",
                             "nn.MSELoss()({y}, torch.ones_like({y}))", "{y}.abs().sum()"])
            y = f"{m}(torch.arange({2 * fin}.0, dtype=torch.float64).view(2, {fin}))"
            self.add("module:train", f"loss = {loss.format(y=y)}\nloss.backward()\nloss")
        else:
            m = r.choice(list(self.modules))
            self.add("module:state", r.choice([
                f"{m}.state_dict()", f"{m}.load_state_dict({m}.state_dict())", f"list({m}.parameters())",
                f"[p.grad for p in {m}.parameters()]", f"{m}.zero_grad()", f"{m}.eval()", f"{m}.train()",
                f"{m}.training", f"sd = {m}.state_dict()\nsd[next(iter(sd))].add_(1)\n{m}.state_dict()"
                if self.modules[m] is not None else f"{m}.p",
                f"{m}.requires_grad_(False)", f"[n for n, _ in {m}.named_parameters()]",
                f"{m}.load_state_dict({{}})", f"{m}.load_state_dict({{}}, strict=False)",
                f"print({m})", f"sum(p.numel() for p in {m}.parameters())",
                f"{m}.weight.grad" if self.modules[m] is not None else f"{m}.p"]))

    def dropout(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        name = self.new()
        va = self.vars[a]
        src = r.choice([f"F.dropout({a}, p={r.choice(['0.5', '0.3', '0.0', '1.0'])})",
                        f"F.dropout({a}, p=0.5, training=False)", f"torch.dropout({a}, 0.5, True)",
                        f"F.dropout({a}, 0.5, True, True)"])
        seed = f"torch.manual_seed({r.randrange(20)})\n" if r.random() < 0.5 else ""
        self.add("dropout", f"{seed}{name} = {src}", name, Var(va.shape, va.dtype, va.grad, leaf=not va.grad))

    def index(self):
        r = self.rnd
        a = self.pick(lambda v: len(v.shape) >= 1)
        if a is None:
            return self.create()
        va = self.vars[a]
        name = self.new()
        idx = r.choice([f"[{a} > 0]", "[torch.tensor([0, 0])]", "[[0, -1]]", "[torch.tensor([True, False])]",
                        "[0, ..., None]", "[-1:]", "[torch.tensor(0)]", "[5]"])
        self.add("index", f"{name} = {a}{idx}", name, Var(va.shape if "None" not in idx else va.shape, va.dtype,
                                                          va.grad, leaf=not va.grad))

    def misc(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        b = self.pick(recent=False)
        name = self.new()
        va = self.vars[a]
        src = r.choice([f"torch.cat([{a}, {b}])", f"torch.stack([{a}, {a}])", f"{a}.to(torch.float64)",
                        f"{a}.float()", f"{a}.long()", f"{a}.where({a} > 0, {b})", f"torch.where({a} > 0, {a}, 0.0)",
                        f"{a}.clamp(-1, 1)", f"{a}.masked_fill({a} < 0, 0)", f"torch.clone({a})",
                        f"{a}.new_tensor([1.0, 2.0])", f"{a}.new_zeros(2)", f"{a}.type(torch.int32)",
                        f"{a}.repeat(2)", f"{a}.lerp({b}, 0.5)", f"torch.sort({a}).values",
                        f"torch.topk({a}.flatten(), 1).values", f"{a}.half()", f"{a}.bool()",
                        f"{a}.abs().max().item() * {a}", f"torch.einsum('...->...', {a})"])
        self.add("misc", f"{name} = {src}", name, Var(va.shape, va.dtype, va.grad, leaf=not va.grad))

    def print_(self):
        r = self.rnd
        a = self.pick()
        if a is None:
            return self.create()
        self.add("print", r.choice([f"print({a})", f"{a}", f"print({a}.grad)", f"print({a}, {a}.grad_fn)",
                                    f"print(f'{{{a}}}')", f"print({a}.sum().item())", f"repr({a}.grad_fn)",
                                    f"print({a}.shape, {a}.dtype, {a}.requires_grad)", f"str({a}.grad)"]))


RULES = [("create", 9), ("unary", 8), ("binary", 8), ("matmul", 2), ("reduce", 5), ("view", 7), ("inplace", 10),
         ("backward", 10), ("read", 9), ("grad_edit", 4), ("detach", 3), ("mode", 4), ("hook", 4), ("module", 7),
         ("dropout", 2), ("index", 3), ("misc", 4), ("print_", 3)]


def program(seed):
    """A list of (family, source) statements: 5-20 of them, from the rules above."""
    w = Writer(seed)
    rnd = w.rnd
    target = rnd.randint(5, 20)
    w.create()
    names, weights = zip(*RULES)
    while len(w.lines) < target:
        getattr(w, rnd.choices(names, weights)[0])()
    return w.lines


def _view_shape(v, shape):
    """The shape a view gives, or None where the rule does not know it."""
    s = list(shape)
    try:
        if v in ("[0]", ".unbind(0)[0]", ".select(0, 1)"):
            return tuple(s[1:]) if s else None
        if v == "[:, 1]":
            return (s[0],) + tuple(s[2:]) if len(s) >= 2 else None
        if v in ("[1:]", "[::2]"):
            n = len(range(s[0])[1:] if v == "[1:]" else range(s[0])[::2])
            return (n,) + tuple(s[1:]) if s else None
        if v == "[..., 0]":
            return tuple(s[:-1]) if s else None
        if v in ("[None]", ".unsqueeze(0)"):
            return (1,) + tuple(s)
        if v in (".t()", ".T", ".transpose(0, 1)", ".permute(1, 0)", ".movedim(0, -1)"):
            return tuple(s[::-1])
        if v in (".view(-1)", ".reshape(-1)", ".flatten()"):
            return (int(np.prod(s)),)
        if v == ".squeeze()":
            return tuple(d for d in s if d != 1)
        if v == ".narrow(0, 0, 1)" or v == ".split(1)[0]":
            return (1,) + tuple(s[1:]) if s else None
        if v == ".diagonal()":
            return (min(s),) if len(s) == 2 else None
        if v == ".expand(2, -1)":
            return (2,) + tuple(s[-1:]) if len(s) <= 2 else None
    except (IndexError, ValueError):
        return None
    return tuple(s)
