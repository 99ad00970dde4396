"""The autograd engine's rules, checked against real PyTorch (the oracle) on generated cases.

* a node that saved anything (a tensor, but also a Python scalar, an index, a mask or a target,
  which PyTorch keeps as tensors) is spent after a backward without retain_graph: a second backward
  through it raises; a node that saved nothing (AddBackward0, views) may run again. Checked for
  every op of the op table (tests/ops/op_samples.py) and on hand-written graphs;
* integer and bool results never require grad;
* assigning `.grad`, and the arguments of backward() / autograd.grad(), are checked like PyTorch's;
* clone() and contiguous() lay their copies out as PyTorch does (strides, is_contiguous).

Every case is run under both libraries and the outcomes compared: the values, dtype, requires_grad,
grad_fn name, strides, or the exception's type and message, and the warnings.
"""
import importlib
import itertools
import random
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402
from gradlab.ops import OPS  # noqa: E402

for _module in ("gradlab.nn.functional", "gradlab.nn"):
    importlib.import_module(_module)

from op_samples import SAMPLES  # noqa: E402


# --- running one case under both libraries ----------------------------------------------------------

def describe(value, layout):
    """A library-neutral description of a result: plain data, never an object address. Values are
    rounded (a last-bit difference of a gradient formula is other tests' business); with `layout`,
    strides too, except those of dims of size 1 and of empty tensors (any stride is right there)."""
    if isinstance(value, (torch.Tensor, gradlab.Tensor)):
        data = value.detach().numpy() if isinstance(value, torch.Tensor) else value._data
        if data.dtype.kind in "fc":
            data = data.astype(np.complex128 if data.dtype.kind == "c" else np.float64).round(4)
        strides = tuple(None if n == 1 else s for n, s in zip(value.shape, value.stride())) if data.size else None
        return ("tensor", str(value.dtype), tuple(value.shape), value.requires_grad,
                type(value.grad_fn).__name__ if value.grad_fn is not None else None,
                (strides, value.is_contiguous()) if layout else None, data.tolist())
    if isinstance(value, (tuple, list)):
        return tuple(describe(v, layout) for v in value)
    if isinstance(value, dict):
        return {k: describe(v, layout) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return type(value).__name__


def outcome(T, source, layout=False):
    """Run `source` (Python code using the module `T`, leaving its result in `r`) and describe what
    happened: (result or exception, warnings)."""
    env = {"T": T, "np": np, "F": importlib.import_module(T.__name__ + ".nn.functional")}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(source, env)
            result = describe(env.get("r"), layout)
        except Exception as e:         # the exception is the outcome being compared
            result = ("raises", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message).split(" (Triggered internally at")[0]) for w in caught]


def check_same(source, layout=False):
    expected = outcome(torch, source, layout)
    got = outcome(gradlab, source, layout)
    assert got == expected, f"\n{source}\ntorch:   {expected}\ngradlab: {got}"


# --- 1. a second backward through a spent node, for every op of the op table --------------------------

SETTINGS = settings(max_examples=5, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


def backward_twice(T, fn, arrays, requires, mode):
    """Build the sample's graph, run a backward (or autograd.grad) through it, then a second one:
    what the second one does ("ok", or its error), with the gradients of the first."""
    xs = [T.tensor(a, dtype=T.float64, requires_grad=r) for a, r in zip(arrays, requires)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            outs = fn(T, *xs)
        except Exception as e:
            return ("forward raises", type(e).__name__)
    outs = outs if isinstance(outs, (tuple, list)) else (outs,)
    outs = [o for o in outs if isinstance(o, T.Tensor) and o.requires_grad]
    if not outs:
        return "nothing requires grad"
    leaves = [x for x in xs if x.requires_grad]
    results = []
    for _ in range(2):
        root = sum(o.sum() for o in outs)
        try:
            if mode == "grad":
                grads = T.autograd.grad(root, leaves, allow_unused=True)
                results.append([None if g is None else g.detach().numpy().round(6).tolist() for g in grads])
            else:
                root.backward()
                results.append("ok")
        except RuntimeError as e:
            results.append(("raises", str(e)))
    return results


@pytest.mark.parametrize("key", sorted(k for k in OPS if k in SAMPLES))
def test_second_backward_through_every_op(key):
    sample = SAMPLES[key]

    @SETTINGS
    @given(st.data())
    def check(data):
        case = sample.draw_case(data.draw)
        n = len(case.arrays)
        # every input requiring grad, and each one alone (what a node saves depends on which)
        patterns = [(True,) * n] + ([tuple(i == j for j in range(n)) for i in range(n)] if n > 1 else [])
        for requires in patterns:
            for mode in ("backward", "grad"):
                expected = backward_twice(torch, case.torch_fn, case.arrays, requires, mode)
                if isinstance(expected, tuple):
                    continue                # the forward itself fails in torch: another test's business
                got = backward_twice(gradlab, case.fn, case.arrays, requires, mode)
                assert got == expected, (requires, mode)
    check()


GRAPHS = [   # y: a graph built from the leaf x (2 x 3, float32, requires grad)
    "x * 2", "x / 2", "x * 0.5 + 1", "x + 1", "x - 1", "1 - x", "2 - x * 3", "x.add(x, alpha=2)",
    "x.sub(1, alpha=2)", "x.div(2, rounding_mode='floor')", "x.div(x, rounding_mode='trunc')", "x ** 2",
    "2 ** x", "x.masked_fill(x > 0, 0.)", "T.where(x > 0, x, 0.)", "x.gather(1, T.tensor([[0], [1]]))",
    "x.index_select(1, T.tensor([0, 2]))", "x.min(1)[0]", "x.max(1).values", "x.min()", "x.amax(1)",
    "F.nll_loss(x, T.tensor([0, 2]))", "F.cross_entropy(x, T.tensor([0, 2]))", "F.mse_loss(x, T.zeros(2, 3))",
    "T.nn.MSELoss()(x, T.zeros(2, 3))", "F.l1_loss(x, T.zeros(2, 3))",
    "F.binary_cross_entropy(T.sigmoid(x), T.full((2, 3), 0.25))", "x.sum()", "x.mean()", "x.sum(0)",
    "x.sum(dim=1, keepdim=True)", "x.mean(1)", "x.t()", "x.view(-1)", "x[0]", "x[:, 1:]", "x[:, ::2]",
    "x[[0, 1]]", "x[x > 0]", "x[0, [1, 2]]", "x.expand(4, 2, 3)", "x.clone()", "x.t().contiguous()",
    "x.relu()", "x.neg()", "x.float()", "x.double()", "x.half()", "x.clamp(0, 1)", "x.clamp(min=0)",
    "x.clamp(max=0)", "T.cat([x, x])", "T.stack([x, x])", "x.split(1)[0]", "x.unbind()[1]", "x.flip(0)",
    "x.roll(1, 0)", "x.repeat(2, 1)", "x.cumsum(0)", "x.softmax(1)", "F.log_softmax(x, 1)", "x.logsumexp(1)",
    "x @ T.ones(3, 2)", "T.ones(4, 2) @ x", "x.unsqueeze(0).squeeze(0)", "x.reshape(3, 2).permute(1, 0)",
    "x.narrow(1, 0, 2)", "x.var()", "x.std()", "x.norm()", "x.prod()", "x.trace()", "x % 2",
    "T.maximum(x, T.zeros(2, 3))", "x.sign()", "x.round()", "x.abs()", "x.exp()", "x.square()",
    "x.reciprocal()", "T.outer(x[0], x[1])", "F.gelu(x)", "F.softplus(x)", "F.elu(x)", "F.silu(x)",
    "F.leaky_relu(x)", "F.dropout(x, 0.0)", "T.nn.Linear(3, 2)(x)",
    # in-place changes and their CopySlices
    "x.clone().fill_(2.)", "x.clone().zero_()", "x.clone().add_(1)", "x.clone().mul_(2)",
    "(lambda y: (y.__setitem__(0, 5.), y)[1])(x.clone())",
    "(lambda y: (y.__setitem__(0, T.ones(3, requires_grad=True)), y)[1])(x.clone())",
    "(lambda y: (y[0].add_(1), y)[1])(x.clone())", "(lambda y: (y[0].mul_(2), y)[1])(x.clone())",
]

SEQUENCES = [   # what runs on y
    "y.sum().backward(); y.sum().backward()",
    "y.sum().backward(retain_graph=True); y.sum().backward()",
    "y.sum().backward(retain_graph=True); y.sum().backward(); y.sum().backward()",
    "T.autograd.grad(y.sum(), x); y.sum().backward()",
    "T.autograd.grad(y.sum(), x, retain_graph=True); y.sum().backward()",
    "T.autograd.grad(y.sum(), x, create_graph=True); y.sum().backward()",
]


@pytest.mark.parametrize("sequence", SEQUENCES)
@pytest.mark.parametrize("graph", GRAPHS)
def test_second_backward_on_graphs(graph, sequence):
    # (seeded: a graph with an nn.Linear draws its weights, and what ran before in the process moved each generator)
    check_same(f"T.manual_seed(0)\nx = T.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], requires_grad=True)\n"
               f"y = {graph}\n{sequence}\nr = x.grad")


def test_double_backward_graph_is_spent_too():
    check_same("x = T.tensor([1.0, 2.0], requires_grad=True); y = (x * x).sum()\n"
               "g, = T.autograd.grad(y, x, create_graph=True); g.sum().backward(); g.sum().backward(); r = x.grad")
    check_same("x = T.tensor([1.0, 2.0], requires_grad=True); y = (x * x).sum()\n"
               "g, = T.autograd.grad(y, x, create_graph=True); g.sum().backward(); y.backward(); r = x.grad")


FUNCTIONS = {   # custom Functions: spent only when their backward reads ctx.saved_tensors
    "saves and reads": ("ctx.save_for_backward(x)", "x, = ctx.saved_tensors; return g * 2"),
    "saves, never reads": ("ctx.save_for_backward(x)", "return g * 2"),
    "saves nothing": ("pass", "return g * 2"),
    "saves None": ("ctx.save_for_backward(None)", "a, = ctx.saved_tensors; return g * 2"),
    "returns a float": ("pass", "return 1.0"),
    "returns a double": ("pass", "return g.double()"),
    "returns too many": ("pass", "return g, g"),
    "returns a wrong shape": ("pass", "return g.sum()"),
}


@pytest.mark.parametrize("retain", [False, True])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_custom_function_backward_twice(name, retain):
    save, backward = FUNCTIONS[name]
    check_same(f"""
class Double(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        {save}
        return x * 2
    @staticmethod
    def backward(ctx, g):
        {backward}
x = T.tensor([1.0, 2.0], requires_grad=True)
y = Double.apply(x)
y.sum().backward(retain_graph={retain})
y.sum().backward()
r = x.grad""")


# --- 2. integer and bool results never require grad -------------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "bool"]
CONVERSIONS = [   # {d}: an integer or bool dtype
    "x.to(T.{d})", "x.to(dtype=T.{d})", "x.type(T.{d})", "x.type_as(T.zeros(1, dtype=T.{d}))",
    "x.to(T.{d}).clone()", "x.to(T.{d}).view(-1)", "x.to(T.{d}).t()", "x.to(T.{d})[0]",
    "x.to(T.{d}) * 2", "x.to(T.{d}).sum()", "x.to(T.{d}).to(T.{d})", "T.cat([x.to(T.{d}), x.to(T.{d})])",
]
METHODS = ["x.long()", "x.int()", "x.bool()", "x.argmax()", "x.argmin(1)", "x.max(1)[1]", "x.round().long()",
           "x.sign().int()", "x > 0", "x == x", "x.isnan()", "x.long() + x", "x.long().float()",
           "T.tensor([1, 2, 3]) * x", "x // 1", "(x // 1).long()", "x.to(T.complex64)",
           "x.long().requires_grad_()", "x.detach().long()"]
ACTIONS = ["r = y", "r = y.sum().backward()", "r = T.autograd.grad(y.sum(), x)", "r = y.retain_grad()",
           "r = y.register_hook(lambda g: g)", "y.requires_grad = True; r = y", "r = y.requires_grad_()",
           "r = y.grad_fn"]


def _integer_cases():
    rng = random.Random(0)
    cases = [(c.format(d=d), a) for c, d, a in itertools.product(CONVERSIONS, INT_DTYPES, ACTIONS)]
    cases += list(itertools.product(METHODS, ACTIONS))
    return rng.sample(cases, 260)


@pytest.mark.parametrize("source", ["float16", "float32", "float64"])
@pytest.mark.parametrize("expr, action", _integer_cases())
def test_integer_results_do_not_require_grad(expr, action, source):
    check_same(f"x = T.tensor([[1.5, -2.0, 0.25], [3.0, 0.0, -1.0]], dtype=T.{source}, requires_grad=True)\n"
               f"y = {expr}\n{action}")


@pytest.mark.parametrize("how", ["T.zeros(2, dtype=T.{d}, requires_grad=True)", "T.zeros(2, dtype=T.{d}).requires_grad_()",
                                 "T.zeros(2, dtype=T.{d}).requires_grad_(False)", "T.tensor([1, 0], dtype=T.{d}, requires_grad=True)"])
@pytest.mark.parametrize("dtype", INT_DTYPES + ["float16", "float64", "complex64"])
def test_only_floating_tensors_require_grad(dtype, how):
    check_same("r = " + how.format(d=dtype))


@pytest.mark.parametrize("value", ["True", "False", "1", "0", "None", "'yes'", "1.0", "np.bool_(True)", "T.tensor(True)"])
@pytest.mark.parametrize("form", ["r = x.requires_grad_({v})", "x.requires_grad = {v}; r = x",
                                  "r = (x * 2).requires_grad_({v})", "y = x * 2; y.requires_grad = {v}; r = y"])
def test_requires_grad_flag_type(form, value):
    check_same("x = T.ones(2, requires_grad=True)\n" + form.format(v=value))


# --- 3. assigning .grad and .data ---------------------------------------------------------------------

GRAD_DTYPES = ["float16", "float32", "float64", "int64", "int32", "uint8", "bool", "complex64"]


@pytest.mark.parametrize("grad_dtype", GRAD_DTYPES)
@pytest.mark.parametrize("leaf_dtype", ["float32", "float64", "float16", "int64"])
@pytest.mark.parametrize("grad_shape", ["(2, 3)", "(3, 2)", "(6,)", "(1, 3)", "()"])
def test_assign_grad_dtype_and_shape(leaf_dtype, grad_dtype, grad_shape):
    requires = leaf_dtype.startswith("float")
    check_same(f"x = T.ones(2, 3, dtype=T.{leaf_dtype}, requires_grad={requires})\n"
               f"x.grad = T.ones({grad_shape}, dtype=T.{grad_dtype})\nr = x.grad")


@pytest.mark.parametrize("value", ["[1.0, 2.0]", "1.0", "3", "'a'", "np.ones((2, 3), np.float32)", "(1,)",
                                   "None", "x", "T.ones(2, 3, requires_grad=True)", "T.ones(3, 2).t()",
                                   "T.ones(2, 3).double()", "np.float32(1)"])
@pytest.mark.parametrize("target", ["x", "x * 2", "x[0:2]"])
def test_assign_grad_values(value, target):
    check_same(f"x = T.ones(2, 3, requires_grad=True)\ny = {target}\ny.grad = {value}\nr = y.grad")


def test_assigned_grad_accumulates():
    check_same("x = T.ones(2, 3, requires_grad=True); x.grad = T.ones(2, 3); (x * 2).sum().backward(); r = x.grad")
    check_same("x = T.ones(2, 3, requires_grad=True); x.grad = T.ones(2, 3); del x.grad; r = x.grad")


@pytest.mark.parametrize("value", ["T.ones(3)", "[1.0, 2.0]", "np.ones(2)", "1.0", "T.ones(2, dtype=T.int64)",
                                   "T.ones(2, dtype=T.float64)"])
@pytest.mark.parametrize("requires", [True, False])
def test_assign_data(value, requires):
    check_same(f"x = T.ones(2, requires_grad={requires})\nx.data = {value}\nr = x")


# --- 4. the arguments of backward() and autograd.grad() -------------------------------------------------

SETUP = "x = T.ones(2, requires_grad=True); z = T.ones(2, requires_grad=True); v = x * 2; s = (x * 2).sum()\n"
ARGUMENTS = [
    # gradient / grad_tensors / grad_outputs: tensors or None only
    "v.backward([1., 1.])", "v.backward(1.0)", "s.backward(1.0)", "s.backward(2)", "v.backward(np.ones(2, np.float32))",
    "v.backward('a')", "v.backward(T.ones(3))", "v.backward(T.ones(2, 1))", "v.backward(T.ones(2, dtype=T.float64))",
    "v.backward(T.ones(2, dtype=T.int64))", "v.backward(T.ones(2, dtype=T.bool))", "v.backward(T.ones(()))", "v.backward()",
    "s.backward(T.ones(1))", "s.backward(T.tensor(3.))", "s.backward(T.tensor(3., requires_grad=True))",
    "s.backward(None)", "s.backward(gradient=T.tensor(2.))", "s.backward([T.tensor(2.)])", "s.backward((None,))",
    "T.autograd.backward(s, grad_tensors=[1.0])", "T.autograd.backward([s, s], grad_tensors=[T.ones(())])",
    "T.autograd.backward([s, s])", "T.autograd.backward(1.0)", "T.autograd.backward([])", "T.autograd.backward((s,))",
    "T.autograd.backward(s, T.tensor(2.))", "T.autograd.backward([s, v], [None, T.ones(2)])",
    "T.autograd.backward([s, v], [None, None])", "T.autograd.backward(s, grad_variables=T.tensor(2.))",
    "T.autograd.grad(s, [x], grad_outputs=[1.0])", "T.autograd.grad(s, [x], grad_outputs=1.0)",
    "T.autograd.grad(s, [x], grad_outputs=[T.ones(2)])", "T.autograd.grad(s, [x], grad_outputs=[T.ones(()), T.ones(())])",
    "T.autograd.grad([s, s], [x], grad_outputs=[T.ones(())])", "T.autograd.grad(s, x, grad_outputs=T.ones(3))",
    "T.autograd.grad(v, x, grad_outputs=T.ones(2))", "T.autograd.grad(v, x)", "T.autograd.grad(v, x, T.ones(2, 2))",
    # inputs
    "s.backward(inputs=[])", "s.backward(inputs=x)", "s.backward(inputs=[T.ones(2)])", "s.backward(inputs=[z])",
    "s.backward(inputs=[1.0])", "s.backward(inputs=(x,))", "s.backward(inputs=[x, z])", "s.backward(inputs=[v])",
    "s.backward(inputs={'a': x})", "T.autograd.grad(s, x)", "T.autograd.grad(s, [x, z])",
    "T.autograd.grad(s, [x, z], allow_unused=True)", "T.autograd.grad(s, [x, z], materialize_grads=True)",
    "T.autograd.grad(s, [x, z], allow_unused=False, materialize_grads=True)", "T.autograd.grad(s, [])",
    "T.autograd.grad(s, [T.ones(2)])", "T.autograd.grad(s, [1.0])", "T.autograd.grad(s, x * 1)",
    "T.autograd.grad(T.ones(()), x)", "T.autograd.grad([], x)", "T.autograd.grad(1.0, x)",
    "T.autograd.grad(s, {'a': x})", "T.autograd.grad(s, (x,), only_inputs=False)",
    "T.autograd.grad(s, x, create_graph=True)[0].requires_grad", "T.autograd.grad(s, v)",
    "T.autograd.grad(T.ones(2).sum(), x)", "T.ones(2).sum().backward()", "T.ones(2, requires_grad=True).backward()",
    # hooks and retain_grad
    "x.retain_grad()", "T.ones(2).retain_grad()", "T.ones(2, dtype=T.int64).retain_grad()",
    "T.ones(2).register_hook(lambda g: g)", "v.retain_grad(); v.retain_grad(); v.sum().backward(); r = v.grad",
    "v.retain_grad(); v.sum().backward(); r = (v.grad, v.retains_grad, x.retains_grad)",
    "h = x.register_hook(lambda g: g * 2); (x * 1).sum().backward(); r = x.grad",
    "h = x.register_hook(lambda g: 1.0); (x * 1).sum().backward()",
    "h = x.register_hook(lambda g: g.double()); (x * 1).sum().backward()",
    "h = x.register_hook(lambda g: g[:1]); (x * 1).sum().backward()",
    "h = v.register_hook(lambda g: g * 3); v.sum().backward(); r = x.grad",
    "h = v.register_hook(lambda g: g * 3); h.remove(); v.sum().backward(); r = x.grad",
    # detach, data, item, requires_grad on non-leaves
    "x.detach_()", "v.detach_()", "x[0].detach_()", "T.ones(3)[0].detach_()", "x.detach().detach_()",
    "T.ones(2, 3).t().detach_()", "x.data.detach_()", "x.detach().view(2).detach_()", "T.ones(3).clone().detach_()",
    "v.detach().requires_grad", "x.data", "x.item()",
    "s.item()", "x.requires_grad_(False)", "v.requires_grad_(False)", "v.requires_grad_()", "x.grad_fn",
    "s.backward(retain_graph=False, create_graph=False, inputs=None); r = x.grad",
    "s.backward(None, True); s.backward(); r = x.grad",
    # flags are integers to PyTorch's engine; duplicated inputs; outputs that are not tensors
    "s.backward(retain_graph='yes')", "s.backward(retain_graph=1); s.backward(); r = x.grad",
    "s.backward(create_graph=None)", "T.autograd.grad(s, x, allow_unused='no')", "T.autograd.grad(s, x, retain_graph=2.5)",
    "s.backward(inputs=5)", "s.backward(inputs='x')", "s.backward(inputs=[x, x]); r = x.grad", "T.autograd.grad(s, [x, x])",
    "T.autograd.grad(s, [x, z, x], allow_unused=True)", "T.autograd.grad([s, s], x)", "T.autograd.grad((s,), (x,), (None,))",
    "T.autograd.grad(s, 5)", "T.autograd.grad(s, None)", "T.autograd.grad(None, x)", "T.autograd.grad([s, None], x)",
    "T.autograd.backward(None)", "T.autograd.backward([s, 1.0])", "T.autograd.backward(s, inputs=[x]); r = x.grad",
    # a node run by hand
    "v.grad_fn(T.ones(2))", "(x + 2).grad_fn(T.ones(2))", "s.backward(); r = v.grad_fn(T.ones(2))",
    "w = x + 2; w.sum().backward(); r = w.grad_fn(T.ones(2))",
    # (not "s.backward(create_graph=True)": PyTorch warns about its reference cycle once per process)
]


HOOKS_AND_RETAINED = [   # on x = [1., 2.] (requires grad); y = x * 2
    "y.retain_grad(); h = y.register_hook(lambda g: g * 10); y.sum().backward(); r = (y.grad, x.grad)",
    "h = y.register_hook(lambda g: g * 10); y.retain_grad(); y.sum().backward(); r = (y.grad, x.grad)",
    "y.retain_grad(); y.sum().backward(retain_graph=True); y.sum().backward(); r = (y.grad, x.grad)",
    "y = x + 2; y.retain_grad(); y.sum().backward(); y.sum().backward(); r = (y.grad, x.grad)",
    "h1 = x.register_hook(lambda g: g + 1); h2 = x.register_hook(lambda g: g * 3); (x * 1).sum().backward(); r = x.grad",
    "h1 = x.register_hook(lambda g: g + 1); h1.remove(); h1.remove(); (x * 1).sum().backward(); r = x.grad",
    "z = y * 3; y.retain_grad(); z.retain_grad(); z.sum().backward(); r = (y.grad, z.grad, x.grad)",
    "y.retain_grad(); g = T.autograd.grad(y.sum(), x); r = (g, y.grad)",
    "y.retain_grad(); y.sum().backward(inputs=[x]); r = (y.grad, x.grad)",
    "y.sum().backward(inputs=[y]); r = (y.grad, x.grad, y.retains_grad)",
    "y.sum().backward(inputs=[y]); y.sum().backward(); r = (y.grad, x.grad)",
    "z = y * y; z.sum().backward(inputs=[y], retain_graph=True); z.sum().backward(); r = (y.grad, x.grad)",
    "y.add_(1); y.sum().backward(); r = (x.grad, y.grad_fn.name())",
    "y = x.exp(); y.add_(1); y.sum().backward(); r = x.grad",
    "y = x * 1; z = y.exp(); y.add_(1); z.sum().backward(); r = x.grad",
    "y = x * 1; z = y * y; y.add_(1); z.sum().backward(); r = x.grad",
    "y = x * 1; z = y + 2; y.add_(1); z.sum().backward(); r = x.grad",
    "y = x * 1; z = y[0] * 2; y.mul_(3); z.backward(); r = x.grad",
    "(x * 2).sum().backward(); x.grad.zero_(); (x * 3).sum().backward(); r = x.grad",
    "(x * 2).sum().backward(); g = x.grad; (x * 3).sum().backward(); r = (g is x.grad, g)",
    "(x * 2).sum().backward(); x.grad = None; (x * 3).sum().backward(); r = x.grad",
    "y = x.long().float() * x; y.sum().backward(); y.sum().backward(); r = x.grad",
    "y = x * x.detach(); y.sum().backward(); y.sum().backward(); r = x.grad",
    "w = T.tensor([3., 4.], requires_grad=True); y = x.detach() * w; y.sum().backward(); y.sum().backward(); r = w.grad",
    "y = x + T.tensor([3., 4.]); y.sum().backward(); y.sum().backward(); r = x.grad",
    "y = x.sum() * 2; y.backward(); y.backward(); r = x.grad",
    "with T.no_grad():\n    y = x * 2\nr = (y, y.is_leaf)",
    "with T.no_grad():\n    y = x * 2\ny.sum().backward()",
    "with T.no_grad():\n    x.add_(1)\nr = x",
    "x.add_(1)", "x[0] = 1.", "y = x.detach(); y.add_(1); r = (x, x._version)",
    "y = x.exp(); x.data.add_(1); y.sum().backward(); r = x.grad",
    "y = x.exp(); x.detach().add_(1); y.sum().backward(); r = x.grad",
]


@pytest.mark.parametrize("case", HOOKS_AND_RETAINED)
def test_hooks_retained_grads_and_versions(case):
    check_same("x = T.tensor([1., 2.], requires_grad=True); y = x * 2\n" + case)


MODES_AND_FUNCTIONAL = [
    "r = T.is_grad_enabled()", "with T.no_grad():\n    r = T.is_grad_enabled()",
    "with T.no_grad():\n    with T.enable_grad():\n        r = T.is_grad_enabled()",
    "T.set_grad_enabled(False); r = T.is_grad_enabled(); T.set_grad_enabled(True)",
    "with T.set_grad_enabled(False):\n    pass\nr = T.is_grad_enabled()",
    "r = T.set_grad_enabled('x')", "r = T.set_grad_enabled(1)", "r = T.set_grad_enabled(None)",
    "with T.inference_mode():\n    r = (T.is_inference_mode_enabled(), T.is_grad_enabled())",
    "with T.inference_mode(False):\n    r = (T.is_inference_mode_enabled(), T.is_grad_enabled())",
    "r = T.is_inference_mode_enabled()", "with T.inference_mode():\n    y = x * 2\nr = y",
    "with T.no_grad():\n    y = x * 2\n    z = y.requires_grad_()\nr = z",
    "with T.no_grad():\n    x.mul_(2)\nr = (x, x.is_leaf)",
    # a view made under no_grad from a tensor that requires grad
    "with T.no_grad():\n    v = x[0]\nr = (v, v.requires_grad, v.is_leaf)",
    "with T.no_grad():\n    v = x.view(2)\nv.add_(1)",
    "with T.no_grad():\n    v = x.view(2)\n    v.add_(1)\nr = x",
    "with T.no_grad():\n    v = (x * 1)[0]\nv.mul_(2)",
    "with T.no_grad():\n    v = x.view(2)\nw = v.view(2)\nr = (w, w.is_leaf)",
    "with T.no_grad():\n    v = x[0]\ny = v * 2\ny.backward()\nr = (x.grad, [n for n in y.grad_fn.next_functions])",
    "with T.no_grad():\n    v = x.t()\nr = v.detach().requires_grad",
    "y = (x * x).sum()\nwith T.no_grad():\n    y.backward()\nr = x.grad",
    "y = (x * x).sum()\nwith T.no_grad():\n    g, = T.autograd.grad(y, x, create_graph=True)\nr = g",
    # autograd.functional
    "r = T.autograd.functional.jacobian(lambda a: a ** 2, x)",
    "r = T.autograd.functional.jacobian(lambda a: a.sum(), x)",
    "r = T.autograd.functional.jacobian(lambda a, b: a * b, (x, T.tensor([3., 4.])))",
    "r = T.autograd.functional.jacobian(lambda a: (a, a * 2), x)",
    "r = T.autograd.functional.jacobian(lambda a: T.ones(2), x)",
    "r = T.autograd.functional.jacobian(lambda a: a, [1., 2.])",
    "r = T.autograd.functional.jacobian(lambda a, b: a, (x, 2.0))",
    "r = T.autograd.functional.jacobian(lambda a: 3.0, x)",
    "r = T.autograd.functional.hessian(lambda a: (a ** 3).sum(), x)",
    "r = T.autograd.functional.hessian(lambda a: (a ** 3).sum(), [1.0])",
    "r = T.autograd.functional.vjp(lambda a: a ** 2, x, T.ones(2))",
    "r = T.autograd.functional.vjp(lambda a: a ** 2, x)",
    "r = T.autograd.functional.vjp(lambda a: a.sum() ** 2, x)",
    "r = T.autograd.functional.vjp(lambda a: a ** 2, x, T.ones(3))",
    "r = T.autograd.functional.vjp(lambda a: (a, a), x, (T.ones(2),))",
    "r = T.autograd.functional.vjp(lambda a: a ** 2, x, [1., 1.])",
    "r = T.autograd.functional.jvp(lambda a: a ** 2, x, T.ones(2))",
    "r = T.autograd.functional.jvp(lambda a: a ** 2, x)",
    "r = T.autograd.functional.jvp(lambda a, b: a * b, (x, T.tensor([3., 4.])), (T.ones(2), T.ones(2)))",
    "r = T.autograd.functional.hvp(lambda a: (a ** 3).sum(), x, T.ones(2))",
    "r = T.autograd.functional.vhp(lambda a: (a ** 3).sum(), x, T.tensor([1., -1.]))",
    "r = T.autograd.functional.hvp(lambda a: a ** 3, x, T.ones(2))",
    "r = T.autograd.functional.vhp(lambda a: (a ** 3).sum(), x)",
    "r = T.autograd.functional.hvp(lambda a, b: (a * b).sum(), (x, T.tensor([3., 4.])), (T.ones(2), T.ones(2)))",
    # gradcheck
    "r = T.autograd.gradcheck(lambda a: a * 2, (T.ones(2, dtype=T.float64, requires_grad=True),))",
    "r = T.autograd.gradcheck(lambda a: a.detach() * 2, (T.ones(2, dtype=T.float64, requires_grad=True),))",
    "r = T.autograd.gradcheck(lambda a: a.detach() * 2, (T.ones(2, dtype=T.float64, requires_grad=True),),"
    " raise_exception=False)",
    "r = T.autograd.gradcheck(lambda a: (a * 0).detach(), (T.ones(2, dtype=T.float64, requires_grad=True),))",
    "r = T.autograd.gradcheck(lambda a: a * 2, (T.ones(2, dtype=T.float64),))",
    "r = T.autograd.gradgradcheck(lambda a: a ** 3, (T.ones(2, dtype=T.float64, requires_grad=True),))",
]


@pytest.mark.parametrize("case", MODES_AND_FUNCTIONAL)
def test_grad_modes_and_functional(case):
    check_same("x = T.tensor([1., 2.], requires_grad=True)\n" + case)


@pytest.mark.parametrize("call", ARGUMENTS)
def test_backward_and_grad_arguments(call):
    source = SETUP + (call if "r = " in call else "r = " + call)
    if "r = x.grad" not in source and "backward" in call and "r = " not in call:
        source += "\nr = (x.grad, z.grad)"
    check_same(source)


# --- 5. clone() and contiguous() lay out their copies as PyTorch does -----------------------------------

def random_view(rng):
    """A chain of view operations (as source text) on a tensor of random shape."""
    shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 4))]
    text = f"T.arange({int(np.prod(shape))}.).reshape({', '.join(map(str, shape))})"
    for _ in range(rng.randint(1, 3)):
        ndim = len(shape)
        kind = rng.choice(["t", "transpose", "permute", "expand", "slice", "unsqueeze", "narrow", "select"])
        if kind == "t" and ndim <= 2:
            text += ".t()"
            shape = shape[::-1]
        elif kind == "transpose" and ndim >= 2:
            a, b = rng.sample(range(ndim), 2)
            text += f".transpose({a}, {b})"
            shape[a], shape[b] = shape[b], shape[a]
        elif kind == "permute":
            order = rng.sample(range(ndim), ndim)
            text += f".permute({', '.join(map(str, order))})"
            shape = [shape[i] for i in order]
        elif kind == "expand":
            new = [rng.randint(2, 3) if s == 1 else s for s in shape]
            lead = [rng.randint(1, 3)] if rng.random() < 0.5 else []
            text += f".expand({', '.join(map(str, lead + new))})"
            shape = lead + new
        elif kind == "slice":
            d = rng.randrange(ndim)
            start, step = rng.randint(0, 1), rng.randint(1, 3)
            text += "[" + ":, " * d + f"{start}::{step}]"
            shape[d] = len(range(start, shape[d], step))
        elif kind == "unsqueeze":
            d = rng.randint(0, ndim)
            text += f".unsqueeze({d})"
            shape.insert(d, 1)
        elif kind == "narrow" and shape[0] > 1:
            text += ".narrow(0, 1, 1)"
            shape[0] = 1
        elif kind == "select" and ndim > 1:
            text += "[0]"
            shape = shape[1:]
    return text


VIEWS = sorted({random_view(random.Random(seed)) for seed in range(150)})
COPIES = ["r = v", "r = v.clone()", "r = v.contiguous()", "r = v.contiguous().view(-1)",
          "r = v.clone(memory_format=T.contiguous_format)", "r = v.clone(memory_format=T.preserve_format)",
          "r = v.contiguous(memory_format=T.contiguous_format)", "r = v.contiguous() is v",
          "r = v.clone().is_contiguous()", "r = T.clone(v)"]


@pytest.mark.parametrize("view", VIEWS)
def test_copies_keep_pytorch_layout(view):
    for copy in COPIES:
        check_same(f"v = {view}\n{copy}", layout=True)
    check_same(f"x = ({view}).clone().requires_grad_(); v = x.t() if x.dim() == 2 else x.transpose(0, -1)\n"
               "y = v.contiguous(); y.sum().backward(); r = (y, x.grad)")
    check_same(f"x = ({view}).clone().requires_grad_(); v = x.t() if x.dim() == 2 else x.transpose(0, -1)\n"
               "r = v.contiguous()", layout=True)


@pytest.mark.parametrize("call", [
    "v.clone(memory_format=T.channels_last)", "T.ones(2, 3, 4, 5).clone(memory_format=T.channels_last)",
    "T.ones(2, 3, 4, 5).contiguous(memory_format=T.channels_last)", "v.contiguous(memory_format=T.preserve_format)",
    "v.clone(memory_format=None)", "v.clone(memory_format='x')", "v.contiguous(memory_format=None)",
    "v.contiguous(memory_format=1)", "v.clone(1)", "v.contiguous(T.contiguous_format)",
])
def test_memory_format_arguments(call):
    check_same(f"v = T.ones(2, 3).t()\nr = {call}", layout=True)
