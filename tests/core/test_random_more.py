"""randperm, bernoulli, multinomial, poisson and Tensor.random_/bernoulli_/exponential_/geometric_
against PyTorch: the same numbers after the same seed, the same generator state afterwards, and the
same errors."""
import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import gradlab  # noqa: E402
from gradlab.creation import sampling  # noqa: E402

pytestmark = pytest.mark.torch

# the torch.<fn> forms (gradlab/__init__.py exports them; the sampling module holds them either way)
randperm = getattr(gradlab, "randperm", sampling.randperm)
bernoulli = getattr(gradlab, "bernoulli", sampling.bernoulli)
multinomial = getattr(gradlab, "multinomial", sampling.multinomial)
poisson = getattr(gradlab, "poisson", sampling.poisson)

FLOATS = ["float32", "float64", "float16"]
INTS = ["int64", "int32", "int16", "int8", "uint8"]


@pytest.fixture(autouse=True)
def _restore_torch_rng():
    state = torch.get_rng_state()
    yield
    torch.set_rng_state(state)


def same(t, g):
    a, b = t.detach().numpy(), np.asarray(g._data)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def seed(s):
    torch.manual_seed(s)
    gradlab.manual_seed(s)


def streams_agree():
    """The generators are in the same state: the next numbers agree."""
    return same(torch.rand(5), gradlab.rand(5)) and same(torch.randn(17, dtype=torch.float64),
                                                        gradlab.randn(17, dtype=gradlab.float64))


def outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args, **kwargs)
        except Exception as e:              # noqa: BLE001
            result = (type(e).__name__, str(e))
    return result, [str(w.message) for w in caught]


def assert_same_outcome(t_fn, g_fn):
    t, t_warn = outcome(t_fn)
    g, g_warn = outcome(g_fn)
    if isinstance(t, tuple) or isinstance(g, tuple):
        assert t == g
    else:
        assert same(t, g), (t, g)
    assert t_warn == g_warn


@pytest.mark.parametrize("s", [0, 1, 2**40 + 3])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 16, 100, 1000, 5000])
def test_randperm_stream(s, n):
    seed(s)
    assert same(torch.randperm(n), randperm(n))
    assert streams_agree()


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int16", "uint8", "int8", "bool",
                                   "complex64"])
@pytest.mark.parametrize("n", [-1, 0, 5, 128, 129, 256, 257, 2049, 2050])
def test_randperm_dtypes_and_errors(dtype, n):
    seed(3)
    assert_same_outcome(lambda: torch.randperm(n, dtype=getattr(torch, dtype)),
                        lambda: randperm(n, dtype=getattr(gradlab, dtype)))
    assert streams_agree()


def test_randperm_generator_and_requires_grad():
    t, g = torch.Generator().manual_seed(9), gradlab.Generator().manual_seed(9)
    assert same(torch.randperm(30, generator=t), randperm(30, generator=g))
    assert same(torch.randperm(30, generator=t), randperm(30, generator=g))
    r = randperm(4, dtype=gradlab.float32, requires_grad=True)
    assert r.requires_grad and r.is_leaf
    assert_same_outcome(lambda: torch.randperm(4, requires_grad=True), lambda: randperm(4, requires_grad=True))
    seed(0)
    assert_same_outcome(lambda: torch.randperm(n=4), lambda: randperm(n=4))


RANDOM_ARGS = [(), (10,), (1,), (-3, 7), (0, 2), (5, None), (0, 2**28 + 1), (0, 2**31 + 5), (-2**40, 2**40),
               (0, 300), (-3, 5), (2**25,), (0, 5000), (0, 70000), (2**25 + 1, 2**25 + 2), (-2**25 - 3, None),
               (2**53 + 1, None), (2**24 - 1, 2**24 + 1), (2**11 + 1, 2**11 + 3)]


@pytest.mark.parametrize("dtype", FLOATS + INTS + ["bool"])
@pytest.mark.parametrize("args", RANDOM_ARGS)
def test_random_(dtype, args):
    seed(11)
    assert_same_outcome(lambda: torch.empty(37, dtype=getattr(torch, dtype)).random_(*args),
                        lambda: gradlab.empty(37, dtype=getattr(gradlab, dtype)).random_(*args))
    assert streams_agree()


def test_random_keywords_and_errors():
    for call in ["random_(to=4)", "random_(0, to=4)", "random_(1.5)", "random_(from_=2)", "random_(5, 2)",
                 "random_(-1)"]:
        seed(2)
        assert_same_outcome(lambda: eval("torch.empty(3)." + call), lambda: eval("gradlab.empty(3)." + call))
    assert_same_outcome(lambda: torch.empty(3, dtype=torch.complex64).random_(),
                        lambda: gradlab.empty(3, dtype=gradlab.complex64).random_())
    assert_same_outcome(lambda: torch.zeros(3, requires_grad=True).random_(),
                        lambda: gradlab.zeros(3, requires_grad=True).random_())


@pytest.mark.parametrize("pdtype", FLOATS)
@pytest.mark.parametrize("shape", [(5,), (4, 5), (17,)])
def test_bernoulli_tensor_and_scalar(pdtype, shape):
    seed(4)
    p_t = torch.rand(shape, dtype=getattr(torch, pdtype))
    p_g = gradlab.rand(shape, dtype=getattr(gradlab, pdtype))
    assert same(torch.bernoulli(p_t), bernoulli(p_g))
    assert same(p_t.bernoulli(), p_g.bernoulli())
    for p in [0.0, 0.25, 1.0]:
        assert same(torch.bernoulli(p_t, p), bernoulli(p_g, p))
        assert same(torch.bernoulli(p_t, p=p), bernoulli(p_g, p=p))
        for dt in ["float32", "int64", "bool", "float64"]:
            assert same(torch.empty(shape, dtype=getattr(torch, dt)).bernoulli_(p),
                        gradlab.empty(shape, dtype=getattr(gradlab, dt)).bernoulli_(p))
            assert same(torch.zeros((3,) + shape, dtype=getattr(torch, dt)).bernoulli_(p_t),
                        gradlab.zeros((3,) + shape, dtype=getattr(gradlab, dt)).bernoulli_(p_g))
    assert streams_agree()


def test_bernoulli_errors():
    cases = ["empty(3).bernoulli_(1.5)", "empty(3).bernoulli_(-0.1)", "empty(3).bernoulli_(tensor([0.1, 0.2, 1.5]))",
             "empty(3).bernoulli_(tensor([0.1, 0.2]))", "empty(3).bernoulli_(tensor([1, 0, 1]))",
             "tensor([0.1, 1.2]).bernoulli()", "tensor([1, 0]).bernoulli()", "tensor([1, 0]).bernoulli(0.5)",
             "tensor([1., 0]).bernoulli(1.5)", "empty(3).bernoulli_(p=0.5)"]
    for case in cases:
        seed(5)
        assert_same_outcome(lambda: eval("torch." + case), lambda: eval("gradlab." + case))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("lambd", [1.0, 0.5, 3.0, float("inf")])
def test_exponential_(dtype, lambd):
    seed(6)
    assert same(torch.empty(300, dtype=getattr(torch, dtype)).exponential_(lambd),
                gradlab.empty(300, dtype=getattr(gradlab, dtype)).exponential_(lambd))
    assert streams_agree()


@pytest.mark.parametrize("dtype", FLOATS + ["int64", "int32"])
@pytest.mark.parametrize("p", [0.05, 0.3, 0.9])
def test_geometric_(dtype, p):
    seed(7)
    assert same(torch.empty(300, dtype=getattr(torch, dtype)).geometric_(p),
                gradlab.empty(300, dtype=getattr(gradlab, dtype)).geometric_(p))
    assert streams_agree()


def test_exponential_geometric_errors():
    for case in ["empty(3).exponential_(-1)", "empty(3).exponential_(0)", "empty(3).exponential_(float('nan'))",
                 "empty(3, dtype=int64).exponential_()", "empty(3, dtype=int64).exponential_(-1)",
                 "empty(3).geometric_(0)", "empty(3).geometric_(1.0)", "empty(3).geometric_(1.5)",
                 "empty(3, dtype=bool).geometric_(0.5)"]:
        assert_same_outcome(lambda: eval("torch." + case.replace("int64", "torch.int64").replace("bool", "torch.bool")),
                            lambda: eval("gradlab." + case.replace("int64", "gradlab.int64")
                                         .replace("bool", "gradlab.bool")))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(5,), (3, 6), (2, 1000), (1, 2)])
@pytest.mark.parametrize("n, replacement", [(1, False), (2, False), (1, True), (10, True), (33, True)])
def test_multinomial(dtype, shape, n, replacement):
    seed(8)
    w_t = torch.rand(shape, dtype=getattr(torch, dtype))
    w_g = gradlab.rand(shape, dtype=getattr(gradlab, dtype))
    assert_same_outcome(lambda: torch.multinomial(w_t, n, replacement),
                        lambda: multinomial(w_g, n, replacement))
    assert_same_outcome(lambda: w_t.multinomial(n, replacement=replacement),
                        lambda: w_g.multinomial(n, replacement=replacement))
    assert streams_agree()


def test_multinomial_with_zero_weights_and_errors():
    seed(9)
    assert same(torch.multinomial(torch.tensor([0., 1., 0., 3.]), 2), multinomial(gradlab.tensor([0., 1., 0., 3.]), 2))
    assert same(torch.multinomial(torch.tensor([0., 1., 0., 3.]), 50, True),
                multinomial(gradlab.tensor([0., 1., 0., 3.]), 50, True))
    for case in ["multinomial(tensor([0.2, 0.8]), 3)", "multinomial(tensor([0.2, 0.8]), 0)",
                 "multinomial(tensor([[[0.2, 0.8]]]), 1)", "multinomial(tensor([1, 2]), 1)",
                 "multinomial(tensor([0., 0.]), 1)", "multinomial(tensor([-1., 2.]), 1)",
                 "multinomial(tensor([0., 0.]), 2, True)", "multinomial(tensor([-1., 2.]), 2, True)",
                 "multinomial(tensor([float('inf'), 2.]), 2, True)", "multinomial(tensor([float('nan'), 2.]), 1)",
                 "multinomial(tensor(2.), 1)", "multinomial(tensor([[0.3, 0.7], [0., 0.]]), 1)",
                 "multinomial(empty(0, 3), 2)", "multinomial(empty(2, 0), 2)",
                 "multinomial(tensor([0.3, 0.7]), num_samples=1)"]:
        assert_same_outcome(lambda: eval("torch." + case.replace("tensor(", "torch.tensor(")
                                         .replace("empty(", "torch.empty(")),
                            lambda: eval(case.replace("multinomial(", "multinomial(", 1)
                                         .replace("tensor(", "gradlab.tensor(").replace("empty(", "gradlab.empty(")))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_poisson(dtype):
    seed(10)
    rates = [0., 0.5, 3., 9.99, 10., 25., 300.] * 10
    assert same(torch.poisson(torch.tensor(rates, dtype=getattr(torch, dtype))),
                poisson(gradlab.tensor(rates, dtype=getattr(gradlab, dtype))))
    assert streams_agree()
    assert_same_outcome(lambda: torch.poisson(torch.tensor([1., -1.])), lambda: poisson(gradlab.tensor([1., -1.])))
    assert_same_outcome(lambda: torch.poisson(torch.tensor([1, 2])), lambda: poisson(gradlab.tensor([1, 2])))


@pytest.mark.parametrize("factory, args", [("rand", (3, 4)), ("randn", (20,)), ("randn", (3,)),
                                           ("randint", (0, 10, (6,)))])
def test_generator_keyword(factory, args):
    t, g = torch.Generator().manual_seed(123), gradlab.Generator().manual_seed(123)
    for dt in (torch.float32, torch.float64) if factory == "randn" else (None,):    # (randn: both, bit for bit)
        kw = {"dtype": dt} if dt else {}
        gkw = {"dtype": getattr(gradlab, str(dt).split(".")[1])} if dt else {}
        for _ in range(2):
            assert same(getattr(torch, factory)(*args, generator=t, **kw),
                        getattr(gradlab, factory)(*args, generator=g, **gkw))
    zt, zg = torch.zeros(5), gradlab.zeros(5)
    for name, kw in [("rand_like", {}), ("randn_like", {}), ("randint_like", {"high": 7})]:
        assert same(getattr(torch, name)(zt.double(), generator=t, **kw),
                    getattr(gradlab, name)(zg.double(), generator=g, **kw))
    assert same(torch.normal(0.5, 2.0, size=(7,), generator=t), gradlab.normal(0.5, 2.0, size=(7,), generator=g))
    for fill, fargs in itertools.product(["uniform_", "normal_", "exponential_", "bernoulli_"], [()]):
        assert same(getattr(torch.empty(9), fill)(*fargs, generator=t),
                    getattr(gradlab.empty(9), fill)(*fargs, generator=g))
    assert same(torch.empty(9).random_(0, 5, generator=t), gradlab.empty(9).random_(0, 5, generator=g))
    assert same(torch.randperm(12, generator=t), randperm(12, generator=g))
    assert same(torch.empty((), dtype=torch.int64).random_(generator=t),
                gradlab.empty((), dtype=gradlab.int64).random_(generator=g))


LAYOUTS = [((3, 4), (1, 0)), ((5, 6), (1, 0)), ((20, 3), (1, 0)), ((2, 3, 4), (2, 1, 0)), ((2, 3, 4), (0, 2, 1)),
           ((4, 5), (0, 1))]


@pytest.mark.parametrize("shape, perm", LAYOUTS)
@pytest.mark.parametrize("fill", ["uniform_()", "normal_()", "normal_(2.0, 3.0)", "random_(10)", "random_()",
                                  "bernoulli_(0.3)", "exponential_()", "geometric_(0.4)", "bernoulli_(p)",
                                  "cauchy_()", "log_normal_()"])
def test_fills_follow_memory_order(shape, perm, fill):
    """A transposed tensor is filled in the order of its memory, as PyTorch's kernels walk it."""
    seed(12)
    results = []
    for lib in (torch, gradlab):
        t = lib.zeros(*shape, dtype=lib.float64).permute(*perm)
        p = lib.rand(*t.shape, dtype=lib.float64)
        results.append(eval("t." + fill, {"t": t, "p": p}))
    assert same(*results)
    assert streams_agree()


@pytest.mark.parametrize("case", [
    "zeros(0, dtype=torch.int32).exponential_()", "zeros(0, dtype=torch.bool).geometric_(0.5)",
    "zeros(0, dtype=torch.complex64).random_()", "zeros(0).bernoulli_(zeros(0, dtype=torch.int64))",
    "zeros(0, dtype=torch.complex64).bernoulli_(0.5)", "zeros(0, dtype=torch.uint8).random_(-1, 3)",
    "zeros(0).bernoulli_(1.5)", "zeros(0).geometric_(2)", "zeros(0, dtype=torch.int64).random_(5, 3)",
    "zeros(0, dtype=torch.int32).exponential_(-1)"])
def test_empty_fills(case):
    seed(13)
    assert_same_outcome(lambda: eval("torch." + case.replace("(zeros", "(torch.zeros")),
                        lambda: eval("gradlab." + case.replace("(zeros", "(gradlab.zeros")
                                     .replace("torch.", "gradlab.")))
    assert streams_agree()


@pytest.mark.parametrize("fill", ["random_()", "random_(5)", "random_(1, 5)", "bernoulli_(0.5)", "exponential_()",
                                  "geometric_(0.5)", "uniform_()", "normal_()", "cauchy_()", "log_normal_()"])
def test_fills_on_a_non_leaf_pass_no_gradient(fill):
    seed(14)
    grads = []
    for lib in (torch, gradlab):
        x = lib.ones(2, 3, requires_grad=True)
        y = eval("x.clone()." + fill, {"x": x})
        (y * 2).sum().backward()
        grads.append(x.grad)
    assert same(*grads)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [5, 40])
@pytest.mark.parametrize("fill", ["cauchy_()", "cauchy_(0.5, 2.0)", "log_normal_()", "log_normal_(0.0, 0.5)"])
def test_cauchy_and_log_normal(dtype, n, fill):
    seed(15)
    assert same(eval("torch.empty(n, dtype=torch." + dtype + ")." + fill),
                eval("gradlab.empty(n, dtype=gradlab." + dtype + ")." + fill))
    assert streams_agree()


@pytest.mark.parametrize("case", ["empty(3).cauchy_(0, -1)", "empty(3).cauchy_(0, 0)", "empty(3, dtype=L).cauchy_()",
                                  "empty(3).log_normal_(0, -1)", "empty(3, dtype=L).log_normal_()",
                                  "empty(0, dtype=L).log_normal_()", "empty(0, dtype=L).cauchy_()",
                                  "empty(3, dtype=C).cauchy_()", "empty(3, dtype=C).log_normal_()",
                                  "empty(3).cauchy_(float('nan'))"])
def test_cauchy_and_log_normal_errors(case):
    assert_same_outcome(lambda: eval("torch." + case.replace("L", "torch.int64").replace("C", "torch.complex64")),
                        lambda: eval("gradlab." + case.replace("L", "gradlab.int64").replace("C", "gradlab.complex64")))
