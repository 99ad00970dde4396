"""torch.func against live PyTorch: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, linearize,
functional_call, stack_module_state and vmap on generated functions, inputs, dtypes and argnums. The
printed results (values, signed zeros, dtype, grad_fn), and the exceptions' types and messages."""
import warnings
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# functions of one or two tensors, written once for both libraries (T is torch or gradlab)
UNARY = {
    "sin_sum": lambda T: lambda x: x.sin().sum(),
    "exp_mean": lambda T: lambda x: x.exp().mean(),
    "tanh_sq": lambda T: lambda x: (x.tanh() ** 2).sum(),
    "logsumexp": lambda T: lambda x: T.logsumexp(x.reshape(-1), 0),
    "outer_prod": lambda T: lambda x: (x.reshape(-1, 1) * x.reshape(1, -1)).sum(),
    "sigmoid_dot": lambda T: lambda x: (T.sigmoid(x) * x).sum(),
    "cube": lambda T: lambda x: (x ** 3).sum(),
    "softmax0": lambda T: lambda x: T.softmax(x.reshape(-1), 0)[0],
}
VECTOR = {          # tensor-valued
    "sin": lambda T: lambda x: x.sin(),
    "outer": lambda T: lambda x: x.reshape(-1, 1) * x.reshape(1, -1),
    "cumsum": lambda T: lambda x: x.reshape(-1).cumsum(0),
    "softmax": lambda T: lambda x: T.softmax(x.reshape(-1), 0),
    "pair": lambda T: lambda x: (x.exp(), x.sum()),
    # (an inner dimension above 1: with 1, torch's mm gives signed zeros its BLAS kernel decides)
    "mm": lambda T: lambda x: (x.reshape(-1, 1) * x.reshape(1, -1)) @ x.reshape(-1, 1).tanh(),
}
BINARY = {
    "mul_sum": lambda T: lambda x, y: (x * y).sum(),
    "div_sum": lambda T: lambda x, y: (x / (y * y + 1)).sum(),
    "atan2": lambda T: lambda x, y: T.atan2(x, y + 2).sum(),
    "mixed": lambda T: lambda x, y: (x.sin() * y.cos() + x * x * y).sum(),
}
BINARY_VEC = {
    "mul": lambda T: lambda x, y: x * y,
    "hyp": lambda T: lambda x, y: (x * x + y * y).sqrt(),
    "two": lambda T: lambda x, y: (x * y, y.exp()),
}


def _show(obj):
    if isinstance(obj, (torch.Tensor, gradlab.Tensor)):
        return repr(obj)
    if isinstance(obj, (tuple, list)):
        return type(obj).__name__ + "(" + ", ".join(_show(o) for o in obj) + ")"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in obj.items()) + "}"
    return repr(obj)


def _outcome(fn):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            result = fn()
        # (torch's own internals warn too: torch.jit.script's deprecation, torch.fx's get_attr in linearize)
        return "ok", _show(result), [str(x.message) for x in w if "site-packages/torch/" not in x.filename
                                     and "torch.jit" not in str(x.message)]
    except Exception as e:  # noqa: BLE001  (the exception is the result compared)
        return type(e).__name__, str(e), []


def _pair(arrays, requires_grad=False):
    t = [torch.tensor(a, requires_grad=requires_grad) for a in arrays]
    g = [gradlab.tensor(a, requires_grad=requires_grad) for a in arrays]
    return t, g


def _check(call, arrays, requires_grad=False):
    t, g = _pair(arrays, requires_grad)
    expected = _outcome(lambda: call(torch, torch.func, *t))
    got = _outcome(lambda: call(gradlab, gradlab.func, *g))
    assert got == expected, f"\ngradlab: {got}\ntorch:   {expected}"


def _seed(*parts):
    return zlib.crc32(repr(parts).encode())     # (hash() of a str changes from one process to the next)


def _arrays(rng, n, dtype, shape):
    return [rng.standard_normal(shape).astype(dtype) for _ in range(n)]


SHAPES = [(3,), (2, 3), (), (4,)]
DTYPES = [np.float64, np.float32]


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_grad_jacrev_jacfwd_hessian_scalar(name, dtype, shape):
    rng = np.random.default_rng(_seed((name, str(dtype), shape)))
    a = _arrays(rng, 1, dtype, shape)
    f = UNARY[name]
    for transform in ("grad", "grad_and_value", "jacrev", "jacfwd", "hessian"):
        _check(lambda T, F, x: getattr(F, transform)(f(T))(x), a)
    if name != "logsumexp":     # (gradlab's logsumexp double backward rounds differently: plain autograd too)
        _check(lambda T, F, x: F.grad(F.grad(lambda y: f(T)(y * 1.5 + x)))(x.sum()), a)
    _check(lambda T, F, x: F.jacrev(F.jacrev(f(T)))(x), a)
    _check(lambda T, F, x: F.jacfwd(F.jacfwd(f(T)))(x), a)
    _check(lambda T, F, x: F.grad(f(T))(x), a, requires_grad=True)
    _check(lambda T, F, x: F.grad_and_value(f(T))(x), a, requires_grad=True)


@pytest.mark.parametrize("name", sorted(VECTOR))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3,), (2, 2), ()])
def test_vector_functions(name, dtype, shape):
    rng = np.random.default_rng(_seed((name, str(dtype), shape)))
    a = _arrays(rng, 2, dtype, shape)
    f = VECTOR[name]
    _check(lambda T, F, x, v: F.jacrev(f(T))(x), a)
    _check(lambda T, F, x, v: F.jacfwd(f(T))(x), a)
    _check(lambda T, F, x, v: F.jvp(f(T), (x,), (v,)), a)
    _check(lambda T, F, x, v: F.linearize(f(T), x)[1](v), a)

    def vjp(T, F, x, v):
        out, fn = F.vjp(f(T), x)
        cot = tuple(o * 0 + v.sum() for o in out) if isinstance(out, tuple) else v.reshape(out.shape) \
            if v.numel() == out.numel() else out * 0 + v.sum()
        return out, fn(cot)
    _check(vjp, a)
    _check(vjp, a, requires_grad=True)
    _check(lambda T, F, x, v: F.grad(lambda y: f(T)(y)[0].sum() if name == "pair" else f(T)(y).sum())(x), a)


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0), -1])
def test_argnums(name, dtype, argnums):
    rng = np.random.default_rng(_seed((name, str(dtype), str(argnums))))
    a = _arrays(rng, 2, dtype, (3,))
    f = BINARY[name]
    for transform in ("grad", "grad_and_value", "jacrev", "jacfwd", "hessian"):
        _check(lambda T, F, x, y: getattr(F, transform)(f(T), argnums=argnums)(x, y), a)
    _check(lambda T, F, x, y: F.grad(lambda p, q: (f(T)(p, q), p.detach() * 2), argnums=argnums, has_aux=True)(x, y),
           a)


@pytest.mark.parametrize("name", sorted(BINARY_VEC))
@pytest.mark.parametrize("dtype", DTYPES)
def test_two_input_vector_functions(name, dtype):
    rng = np.random.default_rng(_seed((name, str(dtype))))
    a = _arrays(rng, 4, dtype, (3,))
    f = BINARY_VEC[name]
    _check(lambda T, F, x, y, u, v: F.jvp(f(T), (x, y), (u, v)), a)
    _check(lambda T, F, x, y, u, v: F.jacrev(f(T), argnums=(0, 1))(x, y), a)
    _check(lambda T, F, x, y, u, v: F.jacfwd(f(T), argnums=(0, 1))(x, y), a)
    _check(lambda T, F, x, y, u, v: F.jacrev(f(T), argnums=1)(x, y), a)
    _check(lambda T, F, x, y, u, v: F.vjp(f(T), x, y)[1](
        (u, v) if name == "two" else u), a)
    _check(lambda T, F, x, y, u, v: F.vmap(F.grad(lambda p, q: (f(T)(p, q)[0] if name == "two" else f(T)(p, q))
                                                  .sum()))(x.reshape(3, 1), y.reshape(3, 1)), a)


def test_tutorial_derivatives_of_sin():
    """The torch.func tutorial: grad(sin) is cos, grad(grad(sin)) is -sin."""
    for value in (1.0, -0.5, 0.0, 2.5):
        _check(lambda T, F, x: (F.grad(T.sin)(x), F.grad(F.grad(T.sin))(x), F.grad(F.grad(F.grad(T.sin)))(x)),
               [np.array(value)])
        _check(lambda T, F, x: F.vmap(F.grad(T.sin))(x * T.arange(4.0)), [np.array(value)])


def test_closures_and_levels():
    rng = np.random.default_rng(5)
    a = _arrays(rng, 2, np.float64, (3,))
    # a closure over a tensor requiring grad: the gradient keeps its graph to it
    _check(lambda T, F, x, w: (lambda w: F.grad(lambda y: (y * w).sum())(x))(w.requires_grad_()), a)
    # perturbation confusion: the inner variable is not the outer one
    _check(lambda T, F, x, w: F.grad(lambda y: F.grad(lambda z: (y * z).sum())(y).sum())(x), a)
    # through torch.autograd
    _check(lambda T, F, x, w: T.autograd.grad(F.grad(lambda y: (y ** 3).sum())(x).sum(), x), a, requires_grad=True)
    # under no_grad the transform still works, the result has no graph
    def nograd(T, F, x, w):
        with T.no_grad():
            return F.grad(lambda y: (y.sin() * w).sum())(x), F.jacrev(T.sin)(x)
    _check(nograd, a, requires_grad=True)
    # an output that does not depend on the input: zeros
    _check(lambda T, F, x, w: (F.grad(lambda y: w.sum())(x), F.jacrev(lambda y: w * 2)(x),
                               F.jvp(lambda y: w * 2, (x,), (x,)), F.jacfwd(lambda y: w * 2)(x)), a)
    _check(lambda T, F, x, w: F.vjp(lambda y: (y, w * 2), x)[1]((x, x)), a)
    _check(lambda T, F, x, w: F.jvp(lambda y: (y * w, y.sum()), (x,), (w,), has_aux=False), a)
    _check(lambda T, F, x, w: F.jvp(lambda y: (y * w, {"a": y.detach()}), (x,), (w,), has_aux=True), a)
    _check(lambda T, F, x, w: F.vjp(lambda y: (y * w, [y.detach()]), x, has_aux=True)[::2], a)
    _check(lambda T, F, x, w: F.jacrev(lambda y: ({"s": y.sin(), "c": [y.cos()]}, y.detach()), has_aux=True)(x), a)
    _check(lambda T, F, x, w: F.jacfwd(lambda y: ({"s": y.sin()}, y.detach() * 0), has_aux=True)(x), a)
    _check(lambda T, F, x, w: F.jacrev(lambda d: d["a"] * d["b"])({"a": x, "b": w}), a)
    _check(lambda T, F, x, w: F.grad(lambda d: (d[0] * d[1][0]).sum())((x, [w])), a)
    _check(lambda T, F, x, w: F.hessian(lambda p, q: (p * p * q).sum(), argnums=(0, 1))(x, w), a)
    _check(lambda T, F, x, w: F.hessian(lambda p: (p.reshape(3, 1) * p).sum())(x), a)
    _check(lambda T, F, x, w: F.jacrev(lambda p: p, chunk_size=1)(x), a)


def test_float64_forward_over_reverse():
    """The printed text. (The double-vjp trick adds a tangent's terms in the reverse graph's order, not
    always forward mode's: where sin(x) * exp(x)'s second derivative cancels, its last bits can differ.)"""
    rng = np.random.default_rng(11)
    for _ in range(20):
        a = _arrays(rng, 1, np.float64, (4,))
        t, g = _pair(a)
        ht = torch.func.hessian(lambda x: (x.sin() * x.exp()).sum())(t[0])
        hg = gradlab.func.hessian(lambda x: (x.sin() * x.exp()).sum())(g[0])
        assert repr(ht) == repr(hg)


ERRORS = [
    lambda T, F, x: F.grad(lambda y: y)(x),
    lambda T, F, x: F.grad(lambda y: 1.0)(x),
    lambda T, F, x: F.grad(lambda y: (y.sum(), 1))(x),
    lambda T, F, x: F.grad(lambda y: y.sum(), has_aux=True)(x),
    lambda T, F, x: F.grad(lambda y: y.sum())(1.0),
    lambda T, F, x: F.grad(lambda y: y.sum())(x.long()),
    lambda T, F, x: F.grad(lambda y: y.sum(), argnums=1)(x),
    lambda T, F, x: F.grad(lambda y: y.sum(), argnums=-2)(x),
    lambda T, F, x: F.grad(lambda y, z: y.sum(), argnums=(0, 0))(x, x),
    lambda T, F, x: F.grad(lambda y: y.sum(), argnums=())(x),
    lambda T, F, x: F.grad(lambda y: y.sum(), argnums=[0])(x),
    lambda T, F, x: F.grad(lambda y: y.sum(), argnums=(0.5,))(x),
    lambda T, F, x: F.vjp(lambda y: y.long(), x),
    lambda T, F, x: F.vjp(lambda y: None, x),
    lambda T, F, x: F.vjp(lambda y: 2.0, x),
    lambda T, F, x: F.vjp(lambda y: (y, 2.0), x),
    lambda T, F, x: F.vjp(T.sin, 2.0),
    lambda T, F, x: F.vjp(T.sin, x)[1](x[:2]),
    lambda T, F, x: F.vjp(T.sin, x)[1]((x,)),
    lambda T, F, x: F.vjp(lambda y: (y, y), x)[1](x),
    lambda T, F, x: F.vjp(lambda y: [y, {"a": y}], x)[1]([x, x]),
    lambda T, F, x: F.vjp(T.sin, x, has_aux=True),
    lambda T, F, x: F.jvp(T.sin, (x.long(),), (x.long(),)),
    lambda T, F, x: F.jvp(T.sin, (x,), (x.long(),)),
    lambda T, F, x: F.jvp(T.sin, (x,), (x[:2],)),
    lambda T, F, x: F.jvp(T.sin, x, x),
    lambda T, F, x: F.jvp(T.sin, (x,), [x]),
    lambda T, F, x: F.jvp(T.sin, (x,), (x, x)),
    lambda T, F, x: F.jvp(T.sin, (x, {"a": x}), (x, {"b": x})),
    lambda T, F, x: F.jvp(lambda y: T.ones(2), (x,), (x,), strict=True),
    lambda T, F, x: F.jvp(lambda y: 1.0, (x,), (x,)),
    lambda T, F, x: F.jvp(lambda y: y, (1.0,), (1.0,)),
    lambda T, F, x: F.jvp(lambda y: y, (), ()),
    lambda T, F, x: F.jvp(lambda y: y, (x,), (x,), has_aux=True),
    lambda T, F, x: F.jacrev(T.sin)(x.to(T.complex128)),
    lambda T, F, x: F.jacrev(T.sin, chunk_size=0),
    lambda T, F, x: F.jacrev(T.sin)(x.long()),
    lambda T, F, x: F.jacfwd(T.sin)(x.long()),
    lambda T, F, x: F.jacfwd(T.sin, randomness="bad")(x),
    lambda T, F, x: F.jacfwd(T.sin)(x.to(T.complex128)),
    lambda T, F, x: F.hessian(T.sin, argnums=2)(x),
    lambda T, F, x: F.linearize(T.sin, x)[1](x.float()),
    lambda T, F, x: F.linearize(T.sin, x)[1](x[:2]),
    lambda T, F, x: F.linearize(T.sin, x)[1](x, x),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors(case):
    _check(ERRORS[case], [np.random.default_rng(case).standard_normal(3)])


# --- functional_call, stack_module_state ----------------------------------------------------------------
def _mlp(T, seed):
    T.manual_seed(seed)
    return T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2))


@pytest.mark.parametrize("seed", range(4))
def test_functional_call_grad(seed):
    rng = np.random.default_rng(seed)
    # (float64: in float32 a gradient near zero from cancellation rounds differently in plain autograd too)
    a = _arrays(rng, 1, np.float64, (5, 3))

    def call(T, F, x):
        model = _mlp(T, seed).double()
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, data):
            return F.functional_call(model, p, (data,)).pow(2).mean()
        grads = F.grad(loss)(params, x)
        per_sample = F.vmap(F.grad(loss), in_dims=(None, 0))(params, x.unsqueeze(1))
        out = F.functional_call(model, params, x)
        return grads, per_sample, out, dict(model.named_parameters())["0.weight"].shape
    _check(call, a)


def test_functional_call_options():
    rng = np.random.default_rng(3)
    a = _arrays(rng, 1, np.float32, (2, 3))
    cases = [
        lambda T, F, m, x: F.functional_call(m, {"0.weight": T.ones(4, 3)}, x),
        lambda T, F, m, x: F.functional_call(m, ({"0.weight": T.ones(4, 3)}, {"0.bias": T.zeros(4)}), (x,)),
        lambda T, F, m, x: F.functional_call(m, ({"0.weight": T.ones(4, 3)}, {"0.weight": T.zeros(4, 3)}), (x,)),
        lambda T, F, m, x: F.functional_call(m, [{"0.weight": T.ones(4, 3)}, 3], (x,)),
        lambda T, F, m, x: F.functional_call(m, 5, (x,)),
        lambda T, F, m, x: F.functional_call(m, {"0.weight": T.ones(4, 3)}, (x,), strict=True),
        lambda T, F, m, x: F.functional_call(m, {"0.weight": T.ones(4, 3), "zz": T.ones(1)}, (x,), strict=True),
        lambda T, F, m, x: F.functional_call(m, dict(m.named_parameters()), (x,), strict=True),
        lambda T, F, m, x: F.functional_call(m, {"0.weight": 3}, (x,)),
        lambda T, F, m, x: F.functional_call(m, {"0.weight": T.ones(4, 3)}, kwargs={"input": x}),
        lambda T, F, m, x: (F.functional_call(m, {"0.weight": T.ones(4, 3)}, (x,)), m[0].weight.sum()),
    ]
    for case in cases:
        _check(lambda T, F, x: case(T, F, _mlp(T, 1), x), a)

    def tied(T, F, x, tie):
        T.manual_seed(0)
        m = T.nn.Sequential(T.nn.Linear(3, 3, bias=False), T.nn.Linear(3, 3, bias=False))
        m[1].weight = m[0].weight
        return (F.functional_call(m, {"0.weight": T.eye(3)}, (x[:, :3],), tie_weights=tie),
                _outcome(lambda: F.functional_call(m, {"0.weight": T.eye(3), "1.weight": T.ones(3, 3)}, (x,)))[:2])
    _check(lambda T, F, x: tied(T, F, x, True), a)
    _check(lambda T, F, x: tied(T, F, x, False), a)

    def buffers(T, F, x):
        T.manual_seed(0)
        bn = T.nn.BatchNorm1d(3)
        out = F.functional_call(bn, {"running_mean": T.ones(3), "running_var": T.full((3,), 2.0)}, (x,))
        return out, bn.running_mean, bn.num_batches_tracked
    _check(buffers, a)


def test_stack_module_state():
    def call(T, F):
        models = [_mlp(T, s) for s in range(3)]
        params, buffers = F.stack_module_state(models)
        x = T.ones(2, 3)

        def run(p, b, data):
            return F.functional_call(models[0], (p, b), (data,))
        # (vmap's result detached: gradlab's vmap is a loop whose result's grad_fn is the stack's)
        return params, buffers, F.vmap(run, in_dims=(0, 0, None))(params, buffers, x).detach(), \
            [p.is_leaf for p in params.values()]
    _check(lambda T, F, *a: call(T, F), [])
    _check(lambda T, F, *a: F.stack_module_state([]), [])
    _check(lambda T, F, *a: F.stack_module_state([_mlp(T, 0), _mlp(T, 1).eval()]), [])
    _check(lambda T, F, *a: F.stack_module_state([_mlp(T, 0), T.nn.Linear(3, 4)]), [])

    def mixed(T, F, *a):
        m = [_mlp(T, 0), _mlp(T, 1)]
        m[1][0].weight.requires_grad_(False)
        return F.stack_module_state(m)
    _check(mixed, [])


def test_namespace():
    assert gradlab.func.vmap is gradlab.vmap
    assert set(n for n in torch.func.__all__ if n not in ("functionalize", "rearrange", "debug_unwrap",
                                                           "replace_all_batch_norm_modules_")) \
        <= set(dir(gradlab.func))
