"""gradlab against real PyTorch for elementwise, indexing, creation and random details (issue #14):
gradient bits (tanh, -0. through select/slice), double-backward graphs of indexing, pow's backward
errors, integer linspace, writes through expanded tensors, tensors built from lists holding numpy
arrays, and float16/complex random streams. Every case is generated; torch computes the answer."""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

LIBS = (gradlab, torch)


def outcome(fn, lib):
    """('ok', value) or ('raise', type name, message), with the warnings seen (category, text)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn(lib))
        except Exception as e:  # noqa: BLE001
            result = ("raise", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in seen]


def bits(t):
    """A tensor as (dtype, shape, bytes): equal only when every bit is (-0. differs from 0.; the sign
    of a NaN, which PyTorch's vectorized and scalar loops set differently, is not compared)."""
    a = np.array(t.detach().numpy(), copy=True)
    if a.dtype.kind == "f":
        a[np.isnan(a)] = np.nan
    return str(t.dtype).split(".")[-1], a.shape, a.tobytes()


def same_outcome(fn):
    got, want = outcome(fn, gradlab), outcome(fn, torch)
    assert got[1] == want[1], f"warnings: gradlab {got[1]} torch {want[1]}"
    assert got[0][0] == want[0][0], f"gradlab {got[0]} torch {want[0]}"
    if got[0][0] == "raise":
        assert got[0][1:] == want[0][1:]
    return got[0], want[0]


def _inputs(rng, dtype_name, shape_kind):
    """Generated float input data and the way to lay it out (contiguous, transposed, expanded, 0-d, empty)."""
    shape = {"0-d": (), "empty": (0, 3), "plain": (rng.randint(1, 5), rng.randint(1, 40))}.get(shape_kind, (3, 4))
    data = np.asarray(np.random.default_rng(rng.randint(0, 2**31)).uniform(-4, 4, shape))
    return data, dtype_name


def _layout(lib, data, dtype_name, shape_kind, requires_grad=True):
    x = lib.tensor(data.tolist(), dtype=getattr(lib, dtype_name), requires_grad=requires_grad)
    if shape_kind == "transposed":
        return x, x.t()
    if shape_kind == "expanded":
        return x, x[:1].expand(5, data.shape[1])
    return x, x


# --- tanh's gradient: PyTorch's kernel rounds 1 - y*y once (a fused multiply-add) ---------------

@pytest.mark.parametrize("dtype_name", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape_kind", ["plain", "0-d", "empty", "transposed", "expanded"])
def test_tanh_backward_bits(dtype_name, shape_kind):
    rng = random.Random(f"tanh{dtype_name}{shape_kind}")
    for _ in range(4):
        data, _ = _inputs(rng, dtype_name, shape_kind)
        g_data = np.random.default_rng(rng.randint(0, 99)).uniform(-3, 3, data.shape)
        # the backward kernel itself, on the same y and g
        y = torch.tensor(data, dtype=getattr(torch, dtype_name)).tanh()
        g = torch.tensor(g_data, dtype=getattr(torch, dtype_name))
        want = torch.ops.aten.tanh_backward(g, y)
        got = gradlab.ops.registry.OPS["tanh_backward"].forward(g.numpy(), y.numpy())
        assert got.dtype == want.numpy().dtype and got.tobytes() == want.numpy().tobytes()
        # and through autograd, wherever the forward values agree
        grads = []
        for lib in LIBS:
            leaf, x = _layout(lib, data, dtype_name, shape_kind)
            out = x.tanh()
            out.backward(lib.ones(out.shape, dtype=out.dtype) * 0.75)
            grads.append((out.detach().numpy(), leaf.grad.numpy()))
        (y_g, grad_g), (y_t, grad_t) = grads
        if y_g.tobytes() == y_t.tobytes():
            assert grad_g.tobytes() == grad_t.tobytes()


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_tanh_double_backward(dtype_name):
    rng = random.Random(dtype_name)
    data = np.random.default_rng(rng.randint(0, 99)).uniform(-2, 2, (3, 5))
    results = []
    for lib in LIBS:
        x = lib.tensor(data.tolist(), dtype=getattr(lib, dtype_name), requires_grad=True)
        g, = lib.autograd.grad(x.tanh().sum(), x, create_graph=True)
        (g * g).sum().backward()
        results.append((g.grad_fn.name(), [f[0].name() if f[0] else None for f in g.grad_fn.next_functions],
                        g.detach().numpy(), x.grad.numpy()))
    (name_g, next_g, g_g, x_g), (name_t, next_t, g_t, x_t) = results
    assert (name_g, next_g) == (name_t, next_t)
    np.testing.assert_allclose(g_g, g_t, rtol=1e-6)
    np.testing.assert_allclose(x_g, x_t, rtol=1e-5, atol=1e-6)


# --- indexing gradients: PyTorch's backward ops, and -0. kept ---------------------------------------

INDEXING = {
    "gather": lambda T, x: x.gather(1, T.tensor([[0, 0, 2], [1, 0, 1], [2, 2, 2]])),
    "index_select": lambda T, x: x.index_select(0, T.tensor([1, 1, 0])),
    "index_select 0-d index": lambda T, x: x.index_select(1, T.tensor(2)),
    "list": lambda T, x: x[[0, 0, 2]],
    "two lists": lambda T, x: x[[0, 1], [1, 0]],
    "mask": lambda T, x: x[x > 0],
    "step slice": lambda T, x: x[::2],
    "slice of dim 1": lambda T, x: x[:, 1:],
    "int": lambda T, x: x[0],
    "select": lambda T, x: x.select(1, -1),
    "narrow": lambda T, x: x.narrow(0, 1, 2),
    "int then slice": lambda T, x: x[1][1:],
}


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("kind", sorted(INDEXING))
def test_indexing_double_backward(kind, dtype_name):
    data = np.random.default_rng(len(kind)).uniform(-2, 2, (3, 3))
    results = []
    for lib in LIBS:
        x = lib.tensor(data.tolist(), dtype=getattr(lib, dtype_name), requires_grad=True)
        y = INDEXING[kind](lib, x)
        g, = lib.autograd.grad((y * y * y).sum(), x, create_graph=True)
        (g * g).sum().backward()
        node = g.grad_fn
        results.append((node.name(), [f[0].name() if f[0] else None for f in node.next_functions],
                        g.detach().numpy(), x.grad.numpy()))
    (name_g, next_g, g_g, x_g), (name_t, next_t, g_t, x_t) = results
    assert (name_g, next_g) == (name_t, next_t)
    np.testing.assert_allclose(g_g, g_t, rtol=1e-6)
    np.testing.assert_allclose(x_g, x_t, rtol=1e-5)


@pytest.mark.parametrize("kind", ["step slice", "slice of dim 1", "int", "select", "narrow", "int then slice"])
def test_view_gradients_keep_negative_zero(kind):
    data = np.random.default_rng(3).uniform(-2, 2, (3, 3))
    for create_graph in (False, True):
        grads = []
        for lib in LIBS:
            x = lib.tensor(data.tolist(), dtype=lib.float64, requires_grad=True)
            y = -(INDEXING[kind](lib, x) * 0)           # gradient -0. everywhere it reaches
            g, = lib.autograd.grad(y.sum(), x, create_graph=create_graph)
            grads.append(bits(g))
        assert grads[0] == grads[1]


# --- pow's backward errors ---------------------------------------------------------------------------

def _pow_cases():
    rng = random.Random(5)
    cases = []
    for _ in range(12):
        data = [round(rng.uniform(-3, 3), 2) for _ in range(4)]
        mask = [rng.random() < 0.5 for _ in range(4)]
        base = rng.choice([False, True, 0, 2, 0.5, -1])
        dtype = rng.choice(["float32", "float64", "float16"])
        cases += [
            lambda T, d=data, m=mask, dt=dtype: T.tensor(d, dtype=getattr(T, dt), requires_grad=True) ** T.tensor(m),
            lambda T, d=data, m=mask, dt=dtype: T.pow(T.tensor(d, dtype=getattr(T, dt), requires_grad=True),
                                                      T.tensor(m)),
            lambda T, d=data, b=base, dt=dtype: b ** T.tensor(d, dtype=getattr(T, dt), requires_grad=True),
            lambda T, d=data, dt=dtype: -1 ** T.tensor(d, dtype=getattr(T, dt), requires_grad=True)[::2],
        ]
    return cases


@pytest.mark.parametrize("case", range(48))
def test_pow_backward(case):
    fn = _pow_cases()[case]

    def run(T):
        out = fn(T)
        leaf = next(iter(_leaves(out)))
        out.sum().backward()
        return bits(leaf.grad)
    got, want = same_outcome(run)
    assert got == want


def _leaves(t):
    seen, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        for child, _ in getattr(node, "next_functions", ()):
            if child is not None and hasattr(child, "variable"):
                seen.append(child.variable)
            elif child is not None:
                stack.append(child)
    return seen


def test_floor_divide_in_place_names_the_in_place_op():
    data = np.random.default_rng(1).uniform(-3, 3, (2, 3)).tolist()

    def run(T, how):
        b = T.tensor(data, requires_grad=True).clone()
        if how == "operator":
            b //= T.tensor([2.0, -3.0, 1.5])
        elif how == "number":
            b //= 2
        else:
            b[0] //= 2
        b.sum().backward()
    for how in ("operator", "number", "through a view"):
        same_outcome(lambda T: run(T, how))


# --- linspace in integer dtypes ---------------------------------------------------------------------

def test_integer_linspace():
    rng = random.Random(11)
    dtypes = ["uint8", "int8", "int16", "int32", "int64"]
    for _ in range(300):
        bounds = [rng.choice([rng.randint(-300, 300), round(rng.uniform(-300, 300), 1), rng.randint(-3, 3),
                              rng.choice([-256, -255, -129, -128, 127, 128, 255, 256, 2**31, -2**31 - 1])])
                  for _ in range(2)]
        steps = rng.choice([0, 1, 2, 3, 5, 11, rng.randint(0, 40)])
        dt = rng.choice(dtypes)
        got, want = same_outcome(lambda T: T.linspace(bounds[0], bounds[1], steps, dtype=getattr(T, dt)))
        if got[0] == "ok":
            assert bits(got[1]) == bits(want[1]), (bounds, steps, dt)


# --- writes through an expanded tensor ----------------------------------------------------------------

def test_setitem_through_expanded_tensor():
    rng = random.Random(13)
    for _ in range(120):
        dt = rng.choice(["int8", "uint8", "int64", "float32", "float64", "bool"])
        n = rng.choice([1, 3, 4])
        rows = rng.choice([None, 2])
        key_kind = rng.choice(["list", "mask", "tensor", "empty list", "int", "slice", "list of dim 1"])
        value_kind = rng.choice(["number", "0-d tensor", "tensor"])
        seed = rng.randint(0, 1000)

        def run(T):
            r = random.Random(seed)
            base = T.tensor([[r.randint(0, 3)] * 1 + [r.randint(0, 3)] for _ in range(1)] if rows else
                            [r.randint(0, 3)], dtype=getattr(T, dt))
            a = base.expand(rows, 2) if rows else base.expand(n)
            size = a.shape[0]
            key = {"list": [r.randrange(-size, size) for _ in range(2)],
                   "mask": T.tensor([r.random() < 0.5 for _ in range(size)]),
                   "tensor": T.tensor([r.randrange(size)]),
                   "empty list": [],
                   "int": r.randrange(size),
                   "slice": slice(0, 2),
                   "list of dim 1": (slice(None), [r.randrange(a.shape[-1])] if a.dim() > 1 else [0])}[key_kind]
            value = {"number": r.randint(0, 3), "0-d tensor": T.tensor(r.randint(0, 3), dtype=getattr(T, dt)),
                     "tensor": T.tensor([r.randint(0, 3)], dtype=getattr(T, dt))}[value_kind]
            a[key] = value
            return bits(a), bits(base)
        got, want = same_outcome(run)
        if got[0] == "ok":
            assert got[1] == want[1]


# --- tensors from lists holding numpy arrays ------------------------------------------------------------

def test_tensor_from_lists_with_numpy_arrays():
    rng = random.Random(17)
    items = [lambda: rng.randint(-3, 3), lambda: round(rng.uniform(-2, 2), 2), lambda: rng.random() < 0.5,
             lambda: complex(1, 2), lambda: np.array([1, 2]), lambda: np.array(3), lambda: np.array(2.5),
             lambda: np.array([1.5]), lambda: np.array(True), lambda: np.array([[1]]), lambda: [1, 2]]
    for _ in range(200):
        row = [rng.choice(items)() for _ in range(rng.randint(1, 3))]
        data = rng.choice([row, [row, row], (row, [0] * len(row))])
        dt = rng.choice([None, "float32", "float64", "int64", "uint8", "bool", "complex64"])
        kwargs = {} if dt is None else {"dtype": dt}
        got, want = same_outcome(lambda T: T.tensor(data, **{k: getattr(T, v) for k, v in kwargs.items()}))
        if got[0] == "ok":
            assert bits(got[1]) == bits(want[1])


# --- random streams in float16 and complex dtypes ---------------------------------------------------------

@pytest.fixture
def _keep_rng():
    state = torch.get_rng_state()
    yield
    torch.set_rng_state(state)


RANDOM_CALLS = {
    "randn": lambda T, n, dt: T.randn(n, dtype=dt),
    "rand": lambda T, n, dt: T.rand(n, dtype=dt),
    "normal_": lambda T, n, dt: T.zeros(n, dtype=dt).normal_(1.5, 2.0),
    "uniform_": lambda T, n, dt: T.zeros(n, dtype=dt).uniform_(-1.5, 2.25),
    "normal(tensor, tensor)": lambda T, n, dt: T.normal(T.zeros(n, dtype=dt), T.tensor([1.0])),
    "normal(tensor, int tensor)": lambda T, n, dt: T.normal(T.zeros(n, dtype=dt) + 2, T.tensor([0])),
}


@pytest.mark.parametrize("call", sorted(RANDOM_CALLS))
@pytest.mark.parametrize("dtype_name", ["float16", "complex64", "complex128"])
def test_random_streams(call, dtype_name, _keep_rng):
    for seed in (0, 1, 7):
        for n in (0, 1, 5, 8, 15, 16, 17, 20, 31, 32, 33, 40):
            if dtype_name != "float16" and call.startswith("normal(tensor"):
                continue                     # (torch.normal of complex tensors: not a case here)
            out = []
            for lib in LIBS:
                lib.manual_seed(seed)
                out.append(RANDOM_CALLS[call](lib, n, getattr(lib, dtype_name)).numpy())
            got, want = out
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), (call, seed, n)     # (float32 normals too: avx_mathfun.py)


def test_random_factories_of_other_dtypes():
    """Empty integer and bool tensors have no numbers to draw (no error); other ones raise torch's."""
    rng = random.Random(19)
    calls = [lambda T, s, dt, rg: T.randn(*s, dtype=dt, requires_grad=rg),
             lambda T, s, dt, rg: T.rand(*s, dtype=dt, requires_grad=rg),
             lambda T, s, dt, rg: T.randn_like(T.zeros(*s, dtype=dt), requires_grad=rg),
             lambda T, s, dt, rg: T.rand_like(T.zeros(*s, dtype=dt), requires_grad=rg)]
    for _ in range(60):
        call = rng.choice(calls)
        shape = rng.choice([(0,), (2, 0), (3,), ()])
        dt = rng.choice(["uint8", "int8", "int64", "bool", "float16", "float64"])
        rg = rng.random() < 0.3
        got, want = same_outcome(lambda T: bits(call(T, shape, getattr(T, dt), rg)))
        if got[0] == "ok" and 0 in shape:
            assert got[1] == want[1]


def test_layout_of_copies_with_size_one_dims():
    """zeros_like, empty_like, full_like, clone and .to(dtype) keep a permuted layout as PyTorch's
    preserve_format does, size-1 dims included (numpy lays those out its own way)."""
    rng = random.Random(23)
    makers = {"zeros_like": lambda T, x: T.zeros_like(x), "empty_like": lambda T, x: T.empty_like(x),
              "ones_like": lambda T, x: T.ones_like(x, dtype=T.float64), "full_like": lambda T, x: T.full_like(x, 2),
              "clone": lambda T, x: x.clone(), "double": lambda T, x: x.double(), "to int": lambda T, x: x.to(T.int32)}
    for _ in range(80):
        shape = tuple(rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(1, 4)))
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        name = rng.choice(sorted(makers))
        strides = []
        for lib in LIBS:
            x = lib.arange(float(np.prod(shape))).reshape(shape).permute(*perm)
            y = makers[name](lib, x)
            strides.append((tuple(y.shape), y.stride(), y.is_contiguous(), str(y.dtype).split(".")[-1]))
        assert strides[0] == strides[1], (name, shape, perm)


def test_pow_scalar_exponent_gradients():
    """x ** e for Python exponents, bools included (x ** False is 0 * x ** -1 to PyTorch's backward:
    nan at 0), with and without a graph of the gradient."""
    rng = random.Random(31)
    for _ in range(40):
        e = rng.choice([True, False, 0, 1, 2, 3, -1, 0.5, -0.5, 2.5])
        dt = rng.choice(["float16", "float32", "float64"])
        data = [rng.choice([0.0, -1.5, 2.0, round(rng.uniform(-3, 3), 2)]) for _ in range(4)]
        create_graph = rng.random() < 0.5

        def run(T):
            a = T.tensor(data, dtype=getattr(T, dt), requires_grad=True)
            g, = T.autograd.grad((a ** e).sum(), a, create_graph=create_graph)
            return bits(g), g.grad_fn.name() if g.grad_fn is not None else None
        got, want = same_outcome(run)
        assert got == want, (e, dt, data, create_graph)

def test_normal_and_uniform_on_a_tensor_that_requires_grad(_keep_rng):
    """PyTorch records NormalBackward0 / UniformBackward0: no gradient flows back through the fill."""
    rng = random.Random(29)
    for _ in range(20):
        method = rng.choice(["normal_", "uniform_"])
        shape = rng.choice([(0,), (3,), (2, 3), ()])
        seed = rng.randint(0, 100)

        def run(T):
            T.manual_seed(seed)
            x = T.ones(shape, requires_grad=True)
            y = x * 2
            getattr(y, method)(0.5, 2.0)
            (y * x).sum().backward()
            return y.grad_fn.name(), bits(y), bits(x.grad)
        got, want = same_outcome(run)
        assert got == want


# --- activations' gradients as ops of their own (helper P6) ------------------------------------------

_ACTIVATIONS = {
    "sigmoid": lambda T, x: x.sigmoid(),
    "elu": lambda T, x: T.nn.functional.elu(x, 1.5),
    "elu_default": lambda T, x: T.nn.functional.elu(x),
    "softplus": lambda T, x: T.nn.functional.softplus(x, threshold=0.5),
    "softplus_beta": lambda T, x: T.nn.functional.softplus(x, beta=2, threshold=1),
    "silu": lambda T, x: T.nn.functional.silu(x),
    "gelu": lambda T, x: T.nn.functional.gelu(x),
}


@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
def test_activation_second_order_names_and_half_bits(name):
    """The gradient of sigmoid/elu/softplus/gelu with create_graph records torch's backward op
    (SigmoidBackwardBackward0, EluBackwardBackward0, ...); float16 gradients (first and second order)
    are torch's bits: its half kernels compute in float32 and round once (sigmoid's at each step)."""
    rng = random.Random(hash(name) % 1000)
    fn = _ACTIVATIONS[name]
    for _ in range(25):
        dt = rng.choice(["float16", "float16", "float32"])
        n = rng.choice([1, 3, 6])
        gen = np.random.default_rng(rng.randint(0, 2**31))
        x, dy, v = ((gen.standard_normal(n) * 3).round(3).tolist() for _ in range(3))
        if rng.random() < 0.2:
            x[0] = rng.choice([0.0, -0.0, 0.5, 1.0])

        def run(T):
            a = T.tensor(x, dtype=getattr(T, dt), requires_grad=True)
            g, = T.autograd.grad(fn(T, a), a, T.tensor(dy, dtype=a.dtype), create_graph=True)
            g2, = T.autograd.grad(g, a, T.tensor(v, dtype=a.dtype))
            if name == "gelu":      # (torch's gelu kernel uses an erf of its own: bits not matched yet)
                return type(g.grad_fn).__name__
            return type(g.grad_fn).__name__, bits(g), bits(g2)
        got, want = same_outcome(run)
        assert got == want, (name, dt, x, dy, v)


def test_activation_backward_without_graph_is_the_kernel():
    """A plain backward of softplus (threshold), elu (alpha) and sigmoid in float16/float32 gives torch's bits."""
    rng = random.Random(61)
    for _ in range(40):
        name = rng.choice(["elu", "softplus", "softplus_beta", "sigmoid"])
        dt = rng.choice(["float16", "float32"])
        x = [round(rng.uniform(-4, 4), 4) for _ in range(rng.choice([2, 6]))]

        def run(T):
            a = T.tensor(x, dtype=getattr(T, dt), requires_grad=True)
            _ACTIVATIONS[name](T, a).sum().backward()
            return bits(a.grad)
        got, want = same_outcome(run)
        assert got == want, (name, dt, x)


def test_recorded_write_through_an_expanded_view():
    """x.expand(...)[index] = value: PyTorch refuses it when the expanded tensor requires grad, and
    otherwise (only the value requires grad) warns, writes the shared memory and records CopySlices /
    AsStridedBackward0; the value's gradient sums the upstream over the numbers sharing memory."""
    rng = random.Random(67)
    for _ in range(40):
        base_grad = rng.random() < 0.3
        leaf = rng.random() < 0.3
        n = rng.choice([2, 3])
        shape = rng.choice([(2, n), (3, 2, n)])
        kind = rng.choice(["rows", "mask", "pairs"])
        value_kind = rng.choice(["row", "number", "tensor0"])
        seed = rng.randint(0, 1000)

        def run(T):
            gen = np.random.default_rng(seed)
            a = T.tensor(gen.uniform(-2, 2, (1, n)).round(2).tolist(), requires_grad=base_grad)
            b = a if leaf and not base_grad else a * 1
            e = b.expand(*shape)
            if kind == "rows":
                idx = T.tensor([rng_i % shape[0] for rng_i in gen.integers(0, 5, 2)])
            elif kind == "mask":
                idx = T.tensor((gen.random(shape[0]) < 0.5).tolist())
            else:
                idx = (T.tensor(gen.integers(0, shape[0], 2).tolist()), T.tensor(gen.integers(0, shape[1], 2).tolist()))
            v = {"row": T.tensor(gen.uniform(-1, 1, n).round(2).tolist(), requires_grad=True),
                 "number": 7.5, "tensor0": T.tensor(3.25, requires_grad=True)}[value_kind]
            e[idx] = v
            w = T.arange(e.numel(), dtype=T.float32).reshape(e.shape) + 1
            inputs = [t for t in (v, a) if isinstance(t, T.Tensor) and t.requires_grad]
            grads = T.autograd.grad((e * w).sum(), inputs, allow_unused=True) if inputs else ()
            return (bits(e), bits(b), e.grad_fn.name() if e.grad_fn else None, b.grad_fn.name() if b.grad_fn else None,
                    [None if g is None else bits(g) for g in grads])
        got, want = same_outcome(run)
        assert got == want, (base_grad, leaf, shape, kind, value_kind, seed)


@pytest.mark.parametrize("dtype_name", ["float16", "float32", "float64", "int32", "uint8", "bool"])
def test_round_with_decimals(dtype_name):
    """round(decimals=d) and round_(decimals=d): torch's scaling kernel (RoundBackward1), its refusals of
    integer and bool tensors, in method, function and in-place forms, with the gradient (zero)."""
    rng = np.random.default_rng(7)
    for decimals in (-2, -1, 0, 1, 2, 3, 5, 40):
        for _ in range(4):
            values = (rng.standard_normal(6) * 10.0 ** rng.integers(-2, 4)).round(rng.integers(0, 6)).tolist()
            forms = [lambda T, a: a.round(decimals=decimals), lambda T, a: T.round(a, decimals=decimals),
                     lambda T, a: a.clone().round_(decimals=decimals)]
            for form in forms:
                got, want = same_outcome(lambda T: form(T, T.tensor(values).to(getattr(T, dtype_name))))
                if got[0] == "ok":
                    assert bits(got[1]) == bits(want[1])
            if dtype_name.startswith("float"):
                def grad(T):
                    a = T.tensor(values, dtype=getattr(T, dtype_name), requires_grad=True)
                    r = a.round(decimals=decimals)
                    return r.grad_fn.name(), T.autograd.grad(r.sum(), a)[0]
                got, want = same_outcome(grad)
                assert got[1][0] == want[1][0] and bits(got[1][1]) == bits(want[1][1])
