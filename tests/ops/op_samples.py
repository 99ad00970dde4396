"""Sample inputs for every op in the op table (`gradlab.ops.OPS`).

Each op key maps to a `Sample`: a function that, given hypothesis's `draw`, returns a `Case`:

* `fn(T, *xs)`: how the op is reached through the PUBLIC API, written once for both libraries:
  `T` is the module (`gradlab` or `torch`), `xs` are the differentiable inputs. Most samples
  pick one of several spellings (`a + b`, `a + 2`, `2 + a`, `torch.add(a, b, alpha=2)`, ...);
* `arrays`: float64 numpy arrays, one per `xs` (the tests turn them into tensors requiring grad);
* `torch_fn`: only where torch needs a different spelling (default: `fn` itself).

Values are drawn away from the points where an op is not differentiable (relu at 0, ties of
max/min, clamp's bounds, integers for floor/round), so finite differences are meaningful.

tests/ops/test_ops_gradcheck.py checks gradients against finite differences and fails for any op
key without an entry here; tests/ops/test_ops_parity.py compares with real PyTorch.
"""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SAMPLES = {}


class Case:
    def __init__(self, fn, arrays, torch_fn=None):
        self.fn = fn
        self.arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
        self.torch_fn = torch_fn or fn


class Sample:
    """How to draw cases for one op key, and what the tests may compare for it.

    graph_names: compare grad_fn names / next_functions with torch (False where torch builds a
                 different double-backward graph, e.g. IndexPutImplBackward0).
    values:      compare forward values with torch (False for random ops).
    gradcheck:   extra keyword arguments for gradcheck (tolerances for float32 round trips).
    raises:      PyTorch has no derivative of the op: a backward through its node raises RuntimeError(raises).
    """

    def __init__(self, key, draw_case, graph_names=True, values=True, gradcheck=None, second_order=False, raises=None):
        self.raises = raises
        self.key = key
        self.draw_case = draw_case
        self.graph_names = graph_names
        self.values = values
        self.gradcheck = gradcheck or {}
        self.second_order = second_order


def check_backward_raises(sample, *libs):
    """For a sample with raises=, in each library of libs: see assert_backward_raises. (Tests call this before
    their own hypothesis check, which stays as it is: hypothesis seeds a derandomized test from its source.)"""
    from hypothesis import given, settings

    @settings(max_examples=3, derandomize=True, database=None, deadline=None)
    @given(st.data())
    def check(data):
        for T in libs:
            assert_backward_raises(sample, T, data.draw)
    check()


def assert_backward_raises(sample, T, draw):
    """For a sample with raises=: the op runs, and a backward through its node raises PyTorch's error."""
    import re

    import pytest
    case = sample.draw_case(draw)
    xs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in case.arrays]
    out = case.fn(T, *xs)
    with pytest.raises(RuntimeError, match="^" + re.escape(sample.raises) + "$"):
        out.sum().backward()


def sample(key, **options):
    def register(draw_case):
        SAMPLES[key] = Sample(key, draw_case, **options)
        return draw_case
    return register


# --- helpers --------------------------------------------------------------------------------------

def F(T):
    """T.nn.functional (gradlab's or torch's)."""
    import importlib
    return importlib.import_module(T.__name__ + ".nn.functional")


# Activations in the op table that gradlab.nn.functional may not offer (yet): reached through the op
# table so their gradients are still checked; test_ops_parity.test_activations_are_public fails
# while they are missing from gradlab.nn.functional.
ACTIVATIONS = ("leaky_relu", "gelu", "softplus", "silu", "elu")


def activation(T, name):
    public = getattr(F(T), name, None)
    if public is not None:
        return public
    from gradlab.ops import OPS
    defaults = {"leaky_relu": ("negative_slope", 0.01), "elu": ("alpha", 1.0)}

    def via_op_table(x, *args, **kwargs):
        if name in defaults:
            param, default = defaults[name]
            kwargs = {param: args[0] if args else kwargs.get(param, default)}
        return OPS[name](x, **kwargs)
    return via_op_table


def const(T, array, like):
    """A constant tensor (requires no grad) with the dtype of tensor `like`."""
    return T.tensor(np.asarray(array), dtype=like.dtype)


def rng(draw):
    return np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))


def shape(draw, min_dims=0, max_dims=3, min_side=1, max_side=3):
    return draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side))


def broadcast_pair(draw, min_dims=0, max_dims=3):
    """Two shapes that broadcast together (either may be smaller or have size-1 dims)."""
    shapes, _ = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=min_dims, max_dims=max_dims,
                                                         max_side=3))
    return shapes


def uniform(draw, shp, lo=-2.0, hi=2.0):
    return rng(draw).uniform(lo, hi, shp)


def distinct(draw, shp, lo=-2.0, hi=2.0):
    """Values that differ pairwise by at least (hi - lo) / (3 n): no ties for max/min/sort."""
    n = int(np.prod(shp))
    grid = np.linspace(lo, hi, 3 * max(n, 1))
    return rng(draw).choice(grid, size=n, replace=False).reshape(shp)


def away_from_zero(draw, shp, lo=0.2, hi=2.0):
    r = rng(draw)
    return r.uniform(lo, hi, shp) * r.choice([-1.0, 1.0], shp)


def positive(draw, shp, lo=0.3, hi=2.0):
    return uniform(draw, shp, lo, hi)


def pick(draw, options):
    """One of several spellings (a list of functions)."""
    return draw(st.sampled_from(options))


def dim_of(draw, shp, allow_none=False):
    if not shp:
        return draw(st.sampled_from([0, -1]))
    return draw(st.integers(-len(shp), len(shp) - 1))


# --- arithmetic -----------------------------------------------------------------------------------

@sample("add", second_order=True)
def _add(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: a + b, lambda T, a, b: T.add(a, b), lambda T, a, b: a.add(b, alpha=2),
                     lambda T, a, b: a + b + 1.5])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb)])


@sample("sub")
def _sub(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: a - b, lambda T, a, b: a.sub(b, alpha=3), lambda T, a, b: T.sub(a, b),
                     lambda T, a, b: const(T, np.ones(b.shape), b) - b + a * 0])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb)])


@sample("rsub")
def _rsub(draw):
    fn = pick(draw, [lambda T, x: 2 - x, lambda T, x: 1.5 - x, lambda T, x: 1 - x * 3])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("mul", second_order=True)
def _mul(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: a * b, lambda T, a, b: T.mul(a, b), lambda T, a, b: a * 2 * b,
                     lambda T, a, b: 3 * a * (b * b)])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb)])


@sample("div")
def _div(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: a / b, lambda T, a, b: T.div(a, b), lambda T, a, b: a / 2 + b * 0,
                     lambda T, a, b: a.div(b)])
    return Case(fn, [uniform(draw, sa), away_from_zero(draw, sb, 0.5)])


@sample("neg")
def _neg(draw):
    return Case(pick(draw, [lambda T, x: -x, lambda T, x: x.neg(), lambda T, x: T.neg(x)]),
                [uniform(draw, shape(draw))])


@sample("reciprocal")
def _reciprocal(draw):
    # `2 / x` is MulBackward0 whose input is ReciprocalBackward0, as in PyTorch
    fn = pick(draw, [lambda T, x: x.reciprocal(), lambda T, x: 2 / x, lambda T, x: 1.0 / x, lambda T, x: T.reciprocal(x)])
    return Case(fn, [away_from_zero(draw, shape(draw), 0.5)])


# --- powers ---------------------------------------------------------------------------------------

@sample("pow_scalar", second_order=True)
def _pow_scalar(draw):
    fn = pick(draw, [lambda T, x: x ** 2, lambda T, x: x ** 0.5, lambda T, x: x ** -1, lambda T, x: x.pow(3),
                     lambda T, x: T.pow(x, 2.5), lambda T, x: x.square(), lambda T, x: x ** 0])
    return Case(fn, [positive(draw, shape(draw))])


@sample("pow", second_order=True)
def _pow(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: a ** b, lambda T, a, b: T.pow(a, b), lambda T, a, b: a.pow(b)])
    return Case(fn, [positive(draw, sa), uniform(draw, sb)])


@sample("rpow")
def _rpow(draw):
    fn = pick(draw, [lambda T, x: 2 ** x, lambda T, x: 0.5 ** x, lambda T, x: 3.0 ** (x * 2)])
    return Case(fn, [uniform(draw, shape(draw))])


# --- unary math -----------------------------------------------------------------------------------

def _unary(key, values=uniform, second_order=False, **options):
    method = key

    def draw_case(draw):
        fn = pick(draw, [lambda T, x: getattr(x, method)(), lambda T, x: getattr(T, method)(x)])
        return Case(fn, [values(draw, shape(draw))])
    sample(key, second_order=second_order, **options)(draw_case)


_unary("exp", second_order=True)
_unary("expm1")
_unary("log", positive)
_unary("log2", positive)
_unary("log10", positive)
_unary("log1p", lambda d, s: uniform(d, s, -0.7, 2.0))
_unary("sqrt", positive)
_unary("rsqrt", positive)
_unary("sin")
_unary("cos")
_unary("tan", lambda d, s: uniform(d, s, -1.2, 1.2))
_unary("asin", lambda d, s: uniform(d, s, -0.9, 0.9))
_unary("acos", lambda d, s: uniform(d, s, -0.9, 0.9))
_unary("atan")
_unary("sinh")
_unary("cosh")
_unary("tanh", second_order=True)
_unary("sigmoid", second_order=True)
_unary("relu", away_from_zero)
_unary("abs", away_from_zero)
_unary("sign", away_from_zero)
_unary("sgn", away_from_zero)
_unary("erf")


def _off_integers(draw, shp):
    """k + 0.1..0.4 or k + 0.6..0.9: away from integers and from .5 (round's ties)."""
    r = rng(draw)
    frac = r.uniform(0.1, 0.4, shp) + r.choice([0.0, 0.5], shp)
    return r.integers(-3, 3, shp) + frac


for _key in ("round", "floor", "ceil", "trunc"):
    _unary(_key, _off_integers)


@sample("round_decimals")
def _round_decimals(draw):
    # x.round(decimals=1) on values 0.01..0.04 away from the multiples of 0.05 (its ties)
    decimals = draw(st.sampled_from([0, 1, 2]))
    fn = pick(draw, [lambda T, x: x.round(decimals=decimals), lambda T, x: T.round(x, decimals=decimals)])
    return Case(fn, [_off_integers(draw, shape(draw)) / 10 ** decimals])


@sample("remainder")
def _remainder(draw):
    # x % 1.5 away from multiples of 1.5 (where it jumps)
    r = rng(draw)
    shp = shape(draw)
    x = r.integers(-2, 3, shp) * 1.5 + r.uniform(0.1, 1.4, shp)
    return Case(pick(draw, [lambda T, x: x % 1.5, lambda T, x: x.remainder(1.5), lambda T, x: T.remainder(x, 1.5)]),
                [x])


@sample("fmod")
def _fmod(draw):
    # fmod(x, 1.5) away from multiples of 1.5 (where it jumps)
    r = rng(draw)
    shp = shape(draw)
    x = r.integers(-2, 3, shp) * 1.5 + r.uniform(0.1, 1.4, shp)
    return Case(pick(draw, [lambda T, x: x.fmod(1.5), lambda T, x: T.fmod(x, -1.5)]), [x])


@sample("fmod_tensor")
def _fmod_tensor(draw):
    # fmod(x, y) with |y| in [1, 2] (broadcast over x) and x away from the multiples of y
    r = rng(draw)
    sa, sb = broadcast_pair(draw)
    full = np.broadcast_shapes(sa, sb)
    y = r.uniform(1.0, 2.0, sb) * r.choice([-1, 1], sb)
    x = (r.integers(-2, 3, full) + r.uniform(0.1, 0.9, full)) * y
    return Case(pick(draw, [lambda T, x, y: x.fmod(y), lambda T, x, y: T.fmod(x, y)]), [x, y])


@sample("div_rounding")
def _div_rounding(draw):
    # x.div(y, rounding_mode=...): x away from the multiples of y, where the quotient jumps
    r = rng(draw)
    sa, sb = broadcast_pair(draw)
    full = np.broadcast_shapes(sa, sb)
    y = r.uniform(1.0, 2.0, sb)
    x = (r.integers(-2, 3, full) + r.uniform(0.1, 0.9, full)) * y
    return Case(pick(draw, [lambda T, x, y: x.div(y, rounding_mode="trunc"), lambda T, x, y: x.div(y, rounding_mode="floor"),
                            lambda T, x, y: T.div(x, y, rounding_mode="floor"), lambda T, x, y: x.div(1.5, rounding_mode="trunc") + y * 0]),
                [x, y])


@sample("remainder_tensor")
def _remainder_tensor(draw):
    # x % y with y in [1, 2] (broadcast over x) and x away from the multiples of y, where it jumps
    r = rng(draw)
    sa, sb = broadcast_pair(draw)
    full = np.broadcast_shapes(sa, sb)
    y = r.uniform(1.0, 2.0, sb)
    x = (r.integers(-2, 3, full) + r.uniform(0.1, 0.9, full)) * y
    return Case(pick(draw, [lambda T, x, y: x % y, lambda T, x, y: x.remainder(y), lambda T, x, y: T.remainder(x, y)]),
                [x, y])


# --- clamping and choosing ------------------------------------------------------------------------

def _off_bounds(draw, shp, bounds=(-0.5, 0.5)):
    """Values at least 0.05 away from each bound."""
    x = uniform(draw, shp)
    for b in bounds:
        x = np.where(np.abs(x - b) < 0.05, b + 0.1, x)
    return x


@sample("clamp")
def _clamp(draw):
    fn = pick(draw, [lambda T, x: x.clamp(-0.5, 0.5), lambda T, x: x.clamp(min=-0.5), lambda T, x: x.clamp(max=0.5),
                     lambda T, x: T.clamp(x, -0.5, 0.5), lambda T, x: x.clip(-0.5, 0.5)])
    return Case(fn, [_off_bounds(draw, shape(draw))])


@sample("clamp_min")
def _clamp_min(draw):
    fn = pick(draw, [lambda T, x: x.clamp_min(0.5), lambda T, x: T.clamp_min(x, -0.5)])
    return Case(fn, [_off_bounds(draw, shape(draw))])


@sample("clamp_max")
def _clamp_max(draw):
    fn = pick(draw, [lambda T, x: x.clamp_max(0.5), lambda T, x: T.clamp_max(x, -0.5)])
    return Case(fn, [_off_bounds(draw, shape(draw))])


def _apart(draw, shp, others):
    """Values at least 0.05 away from every value of the arrays `others` (tensor bounds)."""
    x = uniform(draw, shp)
    for o in others:
        near = np.abs(x - o) < 0.05
        x = np.where(near, o + 0.1, x)
    return x


@sample("clamp_tensor")
def _clamp_tensor(draw):
    shp = shape(draw)
    lo, hi = uniform(draw, shp, -2.0, -0.2), uniform(draw, shp, 0.2, 2.0)
    fn = pick(draw, [lambda T, x, a, b: x.clamp(a, b), lambda T, x, a, b: x.clamp(min=a) * b,
                     lambda T, x, a, b: x.clamp(max=b) * a])
    return Case(fn, [_apart(draw, shp, (lo, hi)), lo, hi])


@sample("clamp_min_tensor")
def _clamp_min_tensor(draw):
    shp = shape(draw)
    lo = uniform(draw, shp)
    return Case(lambda T, x, a: x.clamp_min(a), [_apart(draw, shp, (lo,)), lo])


@sample("clamp_max_tensor")
def _clamp_max_tensor(draw):
    shp = shape(draw)
    hi = uniform(draw, shp)
    return Case(lambda T, x, b: x.clamp_max(b), [_apart(draw, shp, (hi,)), hi])


@sample("lerp")
def _lerp(draw):
    shp = shape(draw)
    return Case(lambda T, x, e: x.lerp(e, 0.3), [uniform(draw, shp), uniform(draw, shp)])


@sample("lerp_tensor")
def _lerp_tensor(draw):
    shp = shape(draw)
    return Case(lambda T, x, e, w: x.lerp(e, w), [uniform(draw, shp), uniform(draw, shp), uniform(draw, shp)])


@sample("masked_fill_tensor")
def _masked_fill_tensor(draw):
    shp = shape(draw)
    mask = rng(draw).random(shp) > 0.5
    return Case(lambda T, x, v: x.masked_fill(T.tensor(mask), v), [uniform(draw, shp), uniform(draw, ())])


@sample("index_fill")
def _index_fill(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(0, shp[-1] - 1))
    return Case(lambda T, x: x.index_fill(-1, T.tensor([i]), 0.5), [uniform(draw, shp)])


@sample("addcmul")
def _addcmul(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, s, a, b: T.addcmul(s, a, b), lambda T, s, a, b: s.addcmul(a, b, value=-0.5)])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb), uniform(draw, sa)])


@sample("addcdiv")
def _addcdiv(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, s, a, b: T.addcdiv(s, a, b), lambda T, s, a, b: s.addcdiv(a, b, value=2)])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb), positive(draw, sa)])


@sample("logit")
def _logit(draw):
    fn = pick(draw, [lambda T, x: T.logit(x), lambda T, x: x.logit(0.2), lambda T, x: x.logit(eps=None)])
    return Case(fn, [uniform(draw, shape(draw), 0.05, 0.95)])


@sample("index_fill_tensor")
def _index_fill_tensor(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(0, shp[-1] - 1))
    return Case(lambda T, x, v: x.index_fill(-1, T.tensor([i, i]), v), [uniform(draw, shp), uniform(draw, ())])


@sample("maximum")
def _maximum(draw):
    sa, sb = broadcast_pair(draw)
    both = distinct(draw, (int(np.prod(sa)) + int(np.prod(sb)),))
    fn = pick(draw, [lambda T, a, b: T.maximum(a, b), lambda T, a, b: a.maximum(b), lambda T, a, b: T.max(a, b)])
    return Case(fn, [both[:int(np.prod(sa))].reshape(sa), both[int(np.prod(sa)):].reshape(sb)])


@sample("minimum")
def _minimum(draw):
    sa, sb = broadcast_pair(draw)
    both = distinct(draw, (int(np.prod(sa)) + int(np.prod(sb)),))
    fn = pick(draw, [lambda T, a, b: T.minimum(a, b), lambda T, a, b: a.minimum(b), lambda T, a, b: T.min(a, b)])
    return Case(fn, [both[:int(np.prod(sa))].reshape(sa), both[int(np.prod(sa)):].reshape(sb)])


@sample("where")
def _where(draw):
    sa, sb = broadcast_pair(draw)
    cond = rng(draw).random(np.broadcast_shapes(sa, sb)) > 0.5
    fn = pick(draw, [lambda T, a, b: T.where(T.tensor(cond), a, b),
                     lambda T, a, b: T.where(T.tensor(cond), a, 0.5) + b,
                     lambda T, a, b: T.where(T.tensor(cond), a, const(T, np.zeros(b.shape), b)) * b])
    return Case(fn, [uniform(draw, sa), uniform(draw, sb)])


@sample("masked_fill")
def _masked_fill(draw):
    shp = shape(draw)
    mask = rng(draw).random(shp) > 0.5
    fn = pick(draw, [lambda T, x: x.masked_fill(T.tensor(mask), 0.5), lambda T, x: T.masked_fill(x, T.tensor(mask), -1)])
    return Case(fn, [uniform(draw, shp)])


# --- activations (gradlab.nn.functional) ----------------------------------------------------------

@sample("leaky_relu")
def _leaky_relu(draw):
    fn = pick(draw, [lambda T, x: activation(T, "leaky_relu")(x), lambda T, x: activation(T, "leaky_relu")(x, 0.2)])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("gelu")
def _gelu(draw):
    return Case(lambda T, x: activation(T, "gelu")(x), [uniform(draw, shape(draw), -3, 3)])


@sample("softplus")
def _softplus(draw):
    fn = pick(draw, [lambda T, x: activation(T, "softplus")(x), lambda T, x: activation(T, "softplus")(x, beta=2.0)])
    return Case(fn, [uniform(draw, shape(draw), -3, 3)])


@sample("silu")
def _silu(draw):
    return Case(lambda T, x: activation(T, "silu")(x), [uniform(draw, shape(draw), -3, 3)])


@sample("elu")
def _elu(draw):
    fn = pick(draw, [lambda T, x: activation(T, "elu")(x), lambda T, x: activation(T, "elu")(x, alpha=0.5)])
    return Case(fn, [away_from_zero(draw, shape(draw))])


# in-place forms (torch's ...Backward1 nodes) and gelu's tanh approximation
@sample("leaky_relu_inplace")
def _leaky_relu_inplace(draw):
    return Case(lambda T, x: F(T).leaky_relu(x * 1, 0.2, inplace=True), [away_from_zero(draw, shape(draw))])


@sample("elu_inplace")
def _elu_inplace(draw):
    return Case(lambda T, x: F(T).elu(x * 1, 0.5, inplace=True), [away_from_zero(draw, shape(draw))])


@sample("gelu_tanh")
def _gelu_tanh(draw):
    return Case(lambda T, x: F(T).gelu(x, approximate="tanh"), [uniform(draw, shape(draw), -3, 3)])


# --- copies and dtype -----------------------------------------------------------------------------

@sample("to_dtype", gradcheck=dict(eps=1e-3, atol=1e-3))
def _to_dtype(draw):
    # float64 -> float32 -> float64: finite differences see float32 rounding, hence the looser tolerance
    fn = pick(draw, [lambda T, x: x.float(), lambda T, x: x.to(T.float32) * 2, lambda T, x: x.float().double()])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("clone")
def _clone(draw):
    fn = pick(draw, [lambda T, x: x.clone(), lambda T, x: T.clone(x), lambda T, x: x.t().contiguous() if x.ndim == 2 and min(x.shape) > 1
                     else x.clone()])
    return Case(fn, [uniform(draw, shape(draw))])


def _copy_backwards_fn(T, x, v):
    # x.grad after backward(create_graph=True) is a copy recorded as CopyBackwards
    w = x.detach().requires_grad_()
    (w * v).sum().backward(create_graph=True)
    return w.grad


@sample("copy_backwards", graph_names=False)
def _copy_backwards(draw):
    shp = shape(draw)
    return Case(_copy_backwards_fn, [uniform(draw, shp), uniform(draw, shp)])


def _zero_fn(T, x):
    y = x * 2
    y.zero_()
    return y


def _fill_fn(T, x):
    y = x * 2
    y.fill_(1.5)
    return y


@sample("zero")
def _zero(draw):
    return Case(_zero_fn, [uniform(draw, shape(draw))])


@sample("fill")
def _fill(draw):
    return Case(_fill_fn, [uniform(draw, shape(draw))])


# --- reductions -----------------------------------------------------------------------------------

def _dims(draw, shp):
    """A dim, a negative dim, or a tuple of distinct dims of shp."""
    nd = len(shp)
    if nd == 0:
        return draw(st.sampled_from([0, -1]))
    if draw(st.booleans()):
        return draw(st.integers(-nd, nd - 1))
    return tuple(draw(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True)))


@sample("sum", second_order=True)
def _sum(draw):
    fn = pick(draw, [lambda T, x: x.sum(), lambda T, x: T.sum(x), lambda T, x: (x * x).sum()])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("sum_dim", second_order=True)
def _sum_dim(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    return Case(lambda T, x: x.sum(dim, keepdim=keepdim), [uniform(draw, shp)])


@sample("mean", second_order=True)
def _mean(draw):
    fn = pick(draw, [lambda T, x: x.mean(), lambda T, x: T.mean(x)])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("mean_dim", second_order=True)
def _mean_dim(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    return Case(lambda T, x: x.mean(dim, keepdim=keepdim), [uniform(draw, shp)])


@sample("max_all")
def _max_all(draw):
    return Case(pick(draw, [lambda T, x: x.max(), lambda T, x: T.max(x)]), [distinct(draw, shape(draw))])


@sample("min_all")
def _min_all(draw):
    return Case(pick(draw, [lambda T, x: x.min(), lambda T, x: T.min(x)]), [distinct(draw, shape(draw))])


@sample("amax")
def _amax(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.amax(dim, keepdim=keepdim), lambda T, x: x.amax()])
    return Case(fn, [distinct(draw, shp)])


@sample("amin")
def _amin(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.amin(dim, keepdim=keepdim), lambda T, x: T.amin(x, dim)])
    return Case(fn, [distinct(draw, shp)])


@sample("max_dim")
def _max_dim(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = dim_of(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.max(dim, keepdim=keepdim)[0], lambda T, x: T.max(x, dim).values])
    return Case(fn, [distinct(draw, shp)])


@sample("min_dim")
def _min_dim(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = dim_of(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.min(dim, keepdim=keepdim)[0], lambda T, x: T.min(x, dim).values])
    return Case(fn, [distinct(draw, shp)])


def _prod_values(draw, shp):
    x = away_from_zero(draw, shp, 0.5, 1.5)
    if x.size and draw(st.booleans()):      # one exact zero: the gradient path without division
        x.reshape(-1)[0] = 0.0
    return x


@sample("prod")
def _prod(draw):
    shp = shape(draw)
    return Case(pick(draw, [lambda T, x: x.prod(), lambda T, x: T.prod(x)]), [_prod_values(draw, shp)])


@sample("prod_dim")
def _prod_dim(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = dim_of(draw, shp), draw(st.booleans())
    return Case(lambda T, x: x.prod(dim, keepdim=keepdim), [_prod_values(draw, shp)])


def _var_case(draw, method):
    shp = shape(draw, min_dims=1, min_side=2)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: getattr(x, method)(), lambda T, x: getattr(x, method)(dim, keepdim=keepdim),
                     lambda T, x: getattr(x, method)(dim, correction=0), lambda T, x: getattr(x, method)(unbiased=False)])
    return Case(fn, [uniform(draw, shp)])


@sample("var")
def _var(draw):
    return _var_case(draw, "var")


@sample("std")
def _std(draw):
    return _var_case(draw, "std")


@sample("norm")
def _norm(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.norm(), lambda T, x: x.norm(dim=dim, keepdim=keepdim), lambda T, x: x.norm(p=1),
                     lambda T, x: x.norm(3, dim), lambda T, x: x.norm(float("inf")), lambda T, x: T.norm(x)])
    return Case(fn, [distinct(draw, shp, 0.2, 2.0) * rng(draw).choice([-1.0, 1.0], shp)])


@sample("dist")
def _dist(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, x, y: T.dist(x, y), lambda T, x, y: x.dist(y, 1), lambda T, x, y: T.dist(x, y, p=3),
                     lambda T, x, y: x.dist(y, float("inf")), lambda T, x, y: T.dist(x, y, 2.5)])
    # (x - y in [1, 5]: away from 0, where the norms' gradients jump)
    return Case(fn, [distinct(draw, sa, 2.0, 4.0), uniform(draw, sb, -1.0, 1.0)])


@sample("logsumexp")
def _logsumexp(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = _dims(draw, shp), draw(st.booleans())
    return Case(lambda T, x: x.logsumexp(dim, keepdim=keepdim), [uniform(draw, shp)])


@sample("cumsum")
def _cumsum(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    return Case(pick(draw, [lambda T, x: x.cumsum(dim), lambda T, x: T.cumsum(x, dim)]), [uniform(draw, shp)])


# --- nn -------------------------------------------------------------------------------------------

@sample("softmax", second_order=True)
def _softmax(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    fn = pick(draw, [lambda T, x: x.softmax(dim), lambda T, x: T.softmax(x, dim), lambda T, x: F(T).softmax(x, dim=dim)])
    return Case(fn, [uniform(draw, shp)])


@sample("log_softmax", second_order=True)
def _log_softmax(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    fn = pick(draw, [lambda T, x: x.log_softmax(dim), lambda T, x: F(T).log_softmax(x, dim=dim)])
    return Case(fn, [uniform(draw, shp)])


@sample("nll_loss")
def _nll_loss(draw):
    n, c = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    target = rng(draw).integers(0, c, n)
    weight = rng(draw).uniform(0.5, 2.0, c)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    fn = pick(draw, [
        lambda T, x: F(T).nll_loss(x.log_softmax(1), T.tensor(target), reduction=reduction),
        lambda T, x: F(T).cross_entropy(x, T.tensor(target), reduction=reduction),
        lambda T, x: F(T).nll_loss(x, T.tensor(target), weight=const(T, weight, x), reduction=reduction),
        lambda T, x: F(T).nll_loss(x[0], T.tensor(target[0])),
    ])
    return Case(fn, [uniform(draw, (n, c))])


@sample("nll_loss2d")
def _nll_loss2d(draw):
    # (N, C, d1, ...) inputs: 4-d directly, other ranks through a view
    n, c = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    spatial = draw(st.sampled_from([(2,), (2, 2), (1, 3), (2, 1, 2)]))
    target = rng(draw).integers(0, c, (n,) + spatial)
    target[(0,) * target.ndim] = -100       # an ignored position
    weight = rng(draw).uniform(0.5, 2.0, c)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    fn = pick(draw, [
        lambda T, x: F(T).cross_entropy(x, T.tensor(target), reduction=reduction),
        lambda T, x: F(T).nll_loss(x, T.tensor(target), weight=const(T, weight, x), reduction=reduction),
    ])
    return Case(fn, [uniform(draw, (n, c) + spatial)])


@sample("nll_loss2d_backward", graph_names=False)
def _nll_loss2d_backward(draw):
    # nll_loss2d's gradient as an op of its own (create_graph: NllLoss2DBackwardBackward0), with the incoming
    # gradient requiring grad too, so that every input slot of the backward op is differentiated
    n, c = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    spatial = draw(st.sampled_from([(2, 2), (1, 3), (2,)]))
    target = rng(draw).integers(0, c, (n,) + spatial)
    target[(0,) * target.ndim] = -100       # an ignored position
    weight = rng(draw).uniform(0.5, 2.0, c)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    out = (n,) + spatial if reduction == "none" else ()

    def fn(T, x, g):
        loss = F(T).nll_loss(x, T.tensor(target), weight=const(T, weight, x), reduction=reduction)
        return T.autograd.grad(loss, x, g, create_graph=True)[0]
    return Case(fn, [uniform(draw, (n, c) + spatial), uniform(draw, out)])


@sample("mse_loss")
def _mse_loss(draw):
    shp = shape(draw)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    fn = pick(draw, [lambda T, a, b: F(T).mse_loss(a, b, reduction=reduction),
                     lambda T, a, b: F(T).mse_loss(a, const(T, np.full(a.shape, 0.5), a)) + b.sum()])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("binary_cross_entropy")
def _bce(draw):
    shp = shape(draw)
    y = rng(draw).uniform(0, 1, shp)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    fn = pick(draw, [lambda T, p: F(T).binary_cross_entropy(p, const(T, y, p), reduction=reduction),
                     lambda T, p: F(T).binary_cross_entropy(p, const(T, y, p), weight=const(T, y + 0.5, p))])
    return Case(fn, [uniform(draw, shp, 0.05, 0.95)])


@sample("binary_cross_entropy_with_logits_pos_weight")
def _bce_logits_pos_weight(draw):
    shp = shape(draw, min_dims=1)
    pos_weight = rng(draw).uniform(0.5, 3.0, shp[-1:])
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    # (the target is the sigmoid of the second input: its gradient is binary_cross_entropy_with_logits_target_backward)
    fn = pick(draw, [
        lambda T, x, t: F(T).binary_cross_entropy_with_logits(x, t.sigmoid(), pos_weight=const(T, pos_weight, x),
                                                             reduction=reduction),
        lambda T, x, t: F(T).binary_cross_entropy_with_logits(x, t.sigmoid(), weight=const(T, pos_weight / 2, x),
                                                             pos_weight=const(T, pos_weight, x))])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("binary_cross_entropy_with_logits")
def _bce_logits(draw):
    shp = shape(draw)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    fn = pick(draw, [lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, y.sigmoid(), reduction=reduction),
                     lambda T, x, y: F(T).binary_cross_entropy_with_logits(x, const(T, np.full(x.shape, 0.25), x))
                     + 0 * y.sum()])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


# The Scalar overloads derivatives.yaml's C++ formulas call: reached through a gradient's own graph (create_graph)
@sample("mul_scalar")
def _mul_scalar(draw):
    # sqrt's gradient is grad / (2 * result): MulBackward1
    return Case(lambda T, x: T.autograd.grad((x.abs() + 0.5).sqrt().sum(), x, create_graph=True)[0],
                [away_from_zero(draw, shape(draw))])


@sample("sub_scalar")
def _sub_scalar(draw):
    # pow's gradient for self is grad * exponent * self ** (exponent - 1): SubBackward1
    shp = shape(draw)
    return Case(lambda T, x, e: T.autograd.grad(x.pow(e).sum(), x, create_graph=True)[0],
                [positive(draw, shp), uniform(draw, shp)])


@sample("nn_div_by_number")
def _cross_entropy_probs(draw):
    # cross_entropy with class-probability targets divides by the batch size (DivBackward1)
    n, c = draw(st.integers(1, 3), ), draw(st.integers(2, 4))
    p = rng(draw).dirichlet(np.ones(c), n)
    return Case(lambda T, x: F(T).cross_entropy(x, const(T, p, x)), [uniform(draw, (n, c))])


def _dropout_fn(T, x):
    T.manual_seed(0)     # the same mask on every call, so finite differences see a fixed function
    return F(T).dropout(x, 0.5, training=True)


@sample("dropout_mask", values=False)
def _dropout(draw):
    return Case(_dropout_fn, [uniform(draw, shape(draw, min_dims=1))])


# --- matrix products ------------------------------------------------------------------------------

@sample("mm", second_order=True)
def _mm(draw):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    fn = pick(draw, [lambda T, a, b: a @ b, lambda T, a, b: a.mm(b), lambda T, a, b: T.matmul(a, b),
                     lambda T, a, b: T.mm(a, b)])
    return Case(fn, [uniform(draw, (n, k)), uniform(draw, (k, m))])


@sample("mv")
def _mv(draw):
    n, k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return Case(pick(draw, [lambda T, a, v: a @ v, lambda T, a, v: a.mv(v), lambda T, a, v: T.mv(a, v)]),
                [uniform(draw, (n, k)), uniform(draw, (k,))])


@sample("dot")
def _dot(draw):
    k = draw(st.integers(1, 4))
    return Case(pick(draw, [lambda T, a, b: a @ b, lambda T, a, b: a.dot(b), lambda T, a, b: T.dot(a, b)]),
                [uniform(draw, (k,)), uniform(draw, (k,))])


@sample("squeeze_matmul")
def _vec_mat(draw):
    k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return Case(lambda T, v, b: v @ b, [uniform(draw, (k,)), uniform(draw, (k, m))])


@sample("bmm")
def _bmm(draw):
    # torch.bmm, and matmul of batches with equal batch dims (both >= 3-d): one BmmBackward0.
    # Other matmul shape pairs follow torch's folding rules: tests/ops/test_ops_parity.py checks them.
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    batch = tuple(draw(st.lists(st.integers(2, 3), min_size=1, max_size=2)))
    fn = pick(draw, [lambda T, x, y: x.bmm(y) if x.ndim == 3 else x @ y, lambda T, x, y: T.matmul(x, y)])
    return Case(fn, [uniform(draw, batch + (n, k)), uniform(draw, batch + (k, m))])


@sample("unsafe_view")
def _unsafe_view(draw):
    kind = draw(st.sampled_from(["3d@2d", "reshape_copy"]))
    if kind == "3d@2d":     # batch folded into rows: UnsafeViewBackward0 -> MmBackward0
        b, n, k, m = (draw(st.integers(1, 3)) for _ in range(4))
        return Case(lambda T, x, w: x @ w, [uniform(draw, (b, n, k)), uniform(draw, (k, m))])
    shp = shape(draw, min_dims=2, max_dims=2, min_side=2)
    return Case(lambda T, x, w: x.t().reshape(-1) * w.sum(), [uniform(draw, shp), uniform(draw, (1,))])


@sample("addmm")
def _addmm(draw):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    fn = pick(draw, [lambda T, x, w, b: F(T).linear(x, w, b)])
    return Case(fn, [uniform(draw, (n, k)), uniform(draw, (m, k)), uniform(draw, (m,))])


@sample("trace")
def _trace(draw):
    shp = shape(draw, min_dims=2, max_dims=2)
    return Case(pick(draw, [lambda T, x: x.trace(), lambda T, x: T.trace(x)]), [uniform(draw, shp)])


# --- shape ----------------------------------------------------------------------------------------

@sample("view")
def _view(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, x: x.view(-1), lambda T, x: x.reshape(1, -1), lambda T, x: x.flatten() if x.ndim != 1
                     else x.view(1, x.shape[0]), lambda T, x: x.view(x.shape + (1,))])
    return Case(fn, [uniform(draw, shp)])


@sample("reshape_alias")
def _reshape_alias(draw):
    # reshape of a non-contiguous tensor that can be viewed: ReshapeAliasBackward0
    shp = shape(draw, min_dims=2, max_dims=2, min_side=2)
    fn = pick(draw, [lambda T, x: x.t().reshape(x.shape[1], 1, x.shape[0]), lambda T, x: x[:, :1].reshape(-1),
                     lambda T, x: x.t().reshape(-1, x.shape[0])])
    return Case(fn, [uniform(draw, shp)])


@sample("transpose")
def _transpose(draw):
    shp = shape(draw, min_dims=2)
    d0, d1 = dim_of(draw, shp), dim_of(draw, shp)
    return Case(pick(draw, [lambda T, x: x.transpose(d0, d1), lambda T, x: T.transpose(x, d0, d1)]),
                [uniform(draw, shp)])


@sample("t")
def _t(draw):
    return Case(pick(draw, [lambda T, x: x.t(), lambda T, x: T.t(x)]), [uniform(draw, shape(draw, max_dims=2))])


@sample("permute")
def _permute(draw):
    shp = shape(draw, min_dims=1)
    dims = draw(st.permutations(range(len(shp))))
    return Case(pick(draw, [lambda T, x: x.permute(*dims), lambda T, x: x.T if x.ndim == 2 else x.permute(dims),
                            lambda T, x: T.permute(x, dims)]), [uniform(draw, shp)])


def _with_ones(draw):
    shp = list(shape(draw, min_dims=1))
    for i in range(len(shp)):
        if draw(st.booleans()):
            shp[i] = 1
    return tuple(shp)


@sample("squeeze_dims")
def _squeeze_dims(draw):
    shp = _with_ones(draw)
    dims = tuple(sorted(set(draw(st.lists(st.integers(0, len(shp) - 1), max_size=3))))) if shp else ()
    return Case(lambda T, x: x.squeeze(dims), [uniform(draw, shp)])


@sample("squeeze")
def _squeeze(draw):
    return Case(pick(draw, [lambda T, x: x.squeeze(), lambda T, x: T.squeeze(x)]), [uniform(draw, _with_ones(draw))])


@sample("squeeze_dim")
def _squeeze_dim(draw):
    shp = _with_ones(draw)
    dim = dim_of(draw, shp)
    return Case(pick(draw, [lambda T, x: x.squeeze(dim), lambda T, x: T.squeeze(x, dim)]), [uniform(draw, shp)])


@sample("unsqueeze")
def _unsqueeze(draw):
    shp = shape(draw)
    dim = draw(st.integers(-len(shp) - 1, len(shp)))
    return Case(pick(draw, [lambda T, x: x.unsqueeze(dim), lambda T, x: x[None], lambda T, x: x[..., None]]),
                [uniform(draw, shp)])


@sample("expand")
def _expand(draw):
    small, big = broadcast_pair(draw)
    target = np.broadcast_shapes(small, big)
    fn = pick(draw, [lambda T, x, y: x.expand(*target) * y if target else x.expand(target) * y, lambda T, x, y: x.expand_as(y * 1) + y,
                     lambda T, x, y: x.expand(target)])
    return Case(fn, [uniform(draw, small), uniform(draw, target)])


@sample("repeat")
def _repeat(draw):
    shp = shape(draw, max_dims=2)
    reps = tuple(draw(st.lists(st.integers(1, 3), min_size=max(len(shp), 1), max_size=len(shp) + 1)))
    return Case(lambda T, x: x.repeat(*reps), [uniform(draw, shp)])


@sample("flip")
def _flip(draw):
    shp = shape(draw, min_dims=1)
    dims = tuple(draw(st.lists(st.integers(0, len(shp) - 1), min_size=1, unique=True)))
    return Case(pick(draw, [lambda T, x: x.flip(dims), lambda T, x: T.flip(x, dims)]), [uniform(draw, shp)])


@sample("roll")
def _roll(draw):
    shp = shape(draw, min_dims=1)
    dim, shift = dim_of(draw, shp), draw(st.integers(-3, 3))
    return Case(pick(draw, [lambda T, x: x.roll(shift, dim), lambda T, x: T.roll(x, shift, dim)]),
                [uniform(draw, shp)])


@sample("rot90")
def _rot90(draw):
    shp = shape(draw, min_dims=2)
    k = draw(st.integers(-5, 5))
    d0, d1 = draw(st.lists(st.integers(0, len(shp) - 1), min_size=2, max_size=2, unique=True))
    return Case(pick(draw, [lambda T, x: x.rot90(k, [d0, d1]), lambda T, x: T.rot90(x, k, (d0, d1)),
                            lambda T, x: T.rot90(x)]), [uniform(draw, shp)])


# --- indexing -------------------------------------------------------------------------------------

@sample("select")
def _select(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    i = draw(st.integers(-shp[dim], shp[dim] - 1))
    fn = pick(draw, [lambda T, x: x.select(dim, i), lambda T, x: x[(slice(None),) * (dim % x.ndim) + (i,)],
                     lambda T, x: x[(Ellipsis, i) + (slice(None),) * (-1 - dim % x.ndim + x.ndim)],
                     lambda T, x: T.select(x, dim, i)])
    return Case(fn, [uniform(draw, shp)])


# complex views, reached from real leaves without a complex product (gradlab's formulas are real ones):
# pairs of floats viewed as complex numbers, then their real or imaginary parts, maybe conjugated
@sample("view_as_complex")
def _view_as_complex(draw):
    shp = shape(draw, min_dims=1)
    part = draw(st.sampled_from(["real", "imag"]))
    return Case(lambda T, x, y: getattr(T.view_as_complex(T.stack([x, y], -1)), part), [uniform(draw, shp)] * 2)


@sample("view_as_real")
def _view_as_real(draw):
    shp = shape(draw, min_dims=1)
    fn = pick(draw, [lambda T, x, y: T.view_as_complex(T.stack([x, y], -1)).imag,
                     lambda T, x, y: T.view_as_complex(T.stack([x, y], -1)).real * 2,
                     lambda T, x, y: T.view_as_real(T.view_as_complex(T.stack([x, y], -1)))])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("conj")
def _conj(draw):
    shp = shape(draw, min_dims=1)
    # (PyTorch's conj is a lazy view: its parts and view_as_real see a conj bit and record other nodes; a
    # product resolves it)
    fn = pick(draw, [lambda T, x, y: T.view_as_real(T.view_as_complex(T.stack([x, y], -1)).conj() * 2),
                     lambda T, x, y: T.view_as_real(T.view_as_complex(T.stack([x, y], -1)).conj() * 0.5).sum(-1)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("slice")
def _slice(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    start = draw(st.integers(1, shp[0] - 1))
    fn = pick(draw, [lambda T, x: x[start:], lambda T, x: x[::2], lambda T, x: x[..., 1:],
                     lambda T, x: x.narrow(0, start, 1), lambda T, x: x[:] * 1])
    return Case(fn, [uniform(draw, shp)])


def _as_strided_fn(kind):
    # a view reads through its base's new history after an in-place change (of the base, or
    # through the view itself, where the base's grad_fn becomes CopySlices)
    def fn(T, x):
        y = x * 1
        if kind == "base changed":
            v = y[0]
            y.mul_(2)
            return v
        if kind == "transposed view, base changed":
            v = y.t() if y.dim() == 2 else y.unsqueeze(0)
            y.exp_()
            return v * 1
        if kind == "written through the view":
            v = y[0]
            v.mul_(3)
            return y, v
        v = y[:1]                          # written through the view with a tensor that needs grad
        v.mul_(x[:1].sin())
        return y, v
    return fn


@sample("as_strided")
def _as_strided(draw):
    kind = draw(st.sampled_from(["base changed", "transposed view, base changed", "written through the view",
                                 "written through the view by a tensor"]))
    return Case(_as_strided_fn(kind), [uniform(draw, shape(draw, min_dims=1))])


def _as_strided_scatter_fn(T, x, g):
    # the gradient of a view read through its base is scattered back: differentiable in g
    y = x * 1
    v = y[0]
    y.mul_(2)
    return T.autograd.grad(v, x, g, create_graph=True)[0]


@sample("as_strided_scatter", graph_names=False)
def _as_strided_scatter(draw):
    shp = shape(draw, min_dims=1)
    return Case(_as_strided_scatter_fn, [uniform(draw, shp), uniform(draw, shp[1:])])


def _threshold_backward_fn(T, x, g):
    # relu's gradient is recorded as an op of its own with create_graph (differentiable in g)
    return T.autograd.grad(x.relu(), x, g, create_graph=True)[0]


@sample("threshold_backward", graph_names=False)
def _threshold_backward(draw):
    shp = shape(draw)
    return Case(_threshold_backward_fn, [away_from_zero(draw, shp, 0.2), uniform(draw, shp)])


def _leaky_relu_backward_fn(T, x, g):
    # leaky_relu's gradient, an op of its own with create_graph (as threshold_backward)
    return T.autograd.grad(T.nn.functional.leaky_relu(x, 0.2), x, g, create_graph=True)[0]


@sample("leaky_relu_backward", graph_names=False)
def _leaky_relu_backward(draw):
    shp = shape(draw)
    return Case(_leaky_relu_backward_fn, [away_from_zero(draw, shp, 0.2), uniform(draw, shp)])


@sample("alias")
def _alias(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, x: x[...] * 1, lambda T, x: x[(slice(None),) * x.dim()] * 1 if x.dim() else x[...]])
    return Case(fn, [uniform(draw, shp)])


@sample("index")
def _index(draw):
    shp = shape(draw, min_dims=1)
    r = rng(draw)
    idx = r.integers(0, shp[0], draw(st.integers(1, 4)))     # repeats allowed: gradients add up
    mask = r.random(shp) > 0.4
    fn = pick(draw, [lambda T, x: x[idx.tolist()], lambda T, x: x[T.tensor(idx)], lambda T, x: x[T.tensor(mask)],
                     lambda T, x: x[..., T.tensor([0])]])
    return Case(fn, [uniform(draw, shp)])


def _index_put_fn(idx):
    # the gradient of x[idx] is scattered with index_put_add; with create_graph it is differentiable in v
    def fn(T, x, v):
        return T.autograd.grad(x[T.tensor(idx)], x, v, create_graph=True)[0]
    return fn


@sample("index_put_add", graph_names=False)
def _index_put_add(draw):
    shp = shape(draw, min_dims=1)
    idx = rng(draw).integers(0, shp[0], draw(st.integers(1, 4)))
    return Case(_index_put_fn(idx), [uniform(draw, shp), uniform(draw, (len(idx),) + shp[1:])])


def _copy_slices_fn(i):
    def fn(T, x, v):
        y = x * 1
        y[i] = v
        return y
    return fn


@sample("copy_slices")
def _copy_slices(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(0, shp[0] - 1))
    return Case(_copy_slices_fn(i), [uniform(draw, shp), uniform(draw, shp[1:])])


def _index_put_values_fn(i):
    def fn(T, x, v):
        y = x * 1
        y[[i]] = v
        return y
    return fn


@sample("index_put_values")
def _index_put(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(0, shp[0] - 1))
    return Case(_index_put_values_fn(i), [uniform(draw, shp), uniform(draw, shp[1:])])


def _copy_fn(T, x, v):
    y = x * 1
    y[...] = v
    return y


@sample("copy")
def _copy(draw):
    shp = shape(draw, min_dims=2)        # (the value has dims: a 0-d value would be a fill)
    return Case(_copy_fn, [uniform(draw, shp), uniform(draw, shp[1:])])


def _fill_tensor_fn(T, x, v):
    y = x * 1
    y[...] = v
    return y


@sample("fill_tensor")
def _fill_tensor(draw):
    return Case(_fill_tensor_fn, [uniform(draw, shape(draw, min_dims=1)), uniform(draw, ())])


def _index_fill_zero_fn(i):
    # the gradient of `y[i] = v` with respect to y's old value is g with zeros at i (differentiable in g)
    def fn(T, x, g):
        y = x * 1
        y[i] = 0.0
        return T.autograd.grad(y, x, g, create_graph=True)[0]
    return fn


@sample("index_fill_zero", graph_names=False)
def _index_fill_zero(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(0, shp[0] - 1))
    return Case(_index_fill_zero_fn(i), [uniform(draw, shp), uniform(draw, shp)])


def _put_fn(positions, accumulate):
    def fn(T, x, v):
        return x.put(T.tensor(positions), v, accumulate=accumulate)
    return fn


@sample("put_positions")
def _put(draw):
    shp = shape(draw, min_dims=1)
    n = int(np.prod(shp))
    positions = rng(draw).permutation(n)[:draw(st.integers(1, n))] - draw(st.sampled_from([0, n]))   # (negative too)
    return Case(_put_fn(positions.tolist(), False), [uniform(draw, shp), uniform(draw, (len(positions),))])


@sample("put_positions_add")
def _put_accumulate(draw):
    shp = shape(draw, min_dims=1)
    positions = rng(draw).integers(0, int(np.prod(shp)), draw(st.integers(1, 5)))    # repeats add up
    return Case(_put_fn(positions.tolist(), True), [uniform(draw, shp), uniform(draw, (len(positions),))])


@sample("index_put_accumulate")
def _index_put_accumulate(draw):
    shp = shape(draw, min_dims=1)
    idx = rng(draw).integers(0, shp[0], draw(st.integers(1, 4)))     # repeats add up
    return Case(lambda T, x, v: x.index_put((T.tensor(idx),), v, accumulate=True),
                [uniform(draw, shp), uniform(draw, (len(idx),) + shp[1:])])


@sample("gather")
def _gather(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = rng(draw).integers(0, shp[dim], shp)
    return Case(pick(draw, [lambda T, x: x.gather(dim, T.tensor(idx)), lambda T, x: T.gather(x, dim, T.tensor(idx))]),
                [uniform(draw, shp)])


@sample("index_select")
def _index_select(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = rng(draw).integers(0, shp[dim], draw(st.integers(1, 4)))
    return Case(pick(draw, [lambda T, x: x.index_select(dim, T.tensor(idx)),
                            lambda T, x: T.index_select(x, dim, T.tensor(idx))]), [uniform(draw, shp)])


# --- joining and splitting ------------------------------------------------------------------------

@sample("cat")
def _cat(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    other = list(shp)
    other[dim] = draw(st.integers(1, 3))
    fn = pick(draw, [lambda T, a, b: T.cat([a, b], dim), lambda T, a, b: T.cat([a, const(T, np.ones(b.shape), b), b], dim),
                     lambda T, a, b: T.cat((a, b, a), dim=dim)])
    return Case(fn, [uniform(draw, shp), uniform(draw, tuple(other))])


@sample("stack")
def _stack(draw):
    shp = shape(draw)
    dim = draw(st.integers(-len(shp) - 1, len(shp)))
    fn = pick(draw, [lambda T, a, b: T.stack([a, b], dim), lambda T, a, b: T.stack([a, const(T, np.ones(b.shape), b), b], dim)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("block_diag")
def _block_diag(draw):
    a, b = shape(draw, max_dims=2), shape(draw, max_dims=2)
    fn = pick(draw, [lambda T, x, y: T.block_diag(x, y), lambda T, x, y: T.block_diag(y, const(T, np.ones((2, 1)), x), x)])
    return Case(fn, [uniform(draw, a), uniform(draw, b)])


@sample("split")
def _split(draw):
    shp = shape(draw, min_dims=1, max_side=4)
    dim = dim_of(draw, shp)
    size = draw(st.integers(1, shp[dim]))
    fn = pick(draw, [lambda T, x: x.split(size, dim), lambda T, x: x.chunk(2, dim), lambda T, x: T.split(x, size, dim),
                     lambda T, x: x.split(size, dim)[0]])
    return Case(fn, [uniform(draw, shp)])


@sample("split_with_sizes")
def _split_with_sizes(draw):
    shp = shape(draw, min_dims=1, max_side=4)
    dim = dim_of(draw, shp)
    first = draw(st.integers(0, shp[dim]))
    sizes = [first, shp[dim] - first]
    fn = pick(draw, [lambda T, x: x.split(sizes, dim), lambda T, x: T.split(x, sizes, dim), lambda T, x: x.split(sizes, dim)[1]])
    return Case(fn, [uniform(draw, shp)])


@sample("unbind")
def _unbind(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    fn = pick(draw, [lambda T, x: x.unbind(dim), lambda T, x: T.unbind(x, dim), lambda T, x: x.unbind(dim)[-1]])
    return Case(fn, [uniform(draw, shp)])


# --- softmax's and nll_loss's gradients: ops of their own with create_graph (torch's
# _softmax_backward_data, _log_softmax_backward_data, nll_loss_backward) --------------------------
def _grad_of(T, y, x, g):
    return T.autograd.grad(y, x, g, create_graph=True)[0]


@sample("softmax_backward_data", graph_names=False)
def _softmax_backward_data(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    return Case(lambda T, x, g: _grad_of(T, x.softmax(dim), x, g), [uniform(draw, shp), uniform(draw, shp)])


@sample("log_softmax_backward_data", graph_names=False)
def _log_softmax_backward_data(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    return Case(lambda T, x, g: _grad_of(T, x.log_softmax(dim), x, g), [uniform(draw, shp), uniform(draw, shp)])


@sample("nll_loss_backward", graph_names=False)
def _nll_loss_backward(draw):
    n, c = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    target = rng(draw).integers(0, c, n)
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))

    def fn(T, x, g):
        loss = F(T).nll_loss(x * x, T.tensor(target), reduction=reduction)
        return _grad_of(T, loss, x, g if reduction == "none" else g.sum())
    return Case(fn, [uniform(draw, (n, c)), uniform(draw, (n,))])


# --- gradients recorded as ops of their own with create_graph (helper P3) -----------------------------

def _p3_grad_of(forward):
    # the gradient of forward(x) for the upstream g, with its own graph: differentiable in x and g
    def fn(T, x, g):
        return T.autograd.grad(forward(T, x), x, g, create_graph=True)[0]
    return fn


@sample("tanh_backward")
def _tanh_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: x.tanh()), [uniform(draw, shp), uniform(draw, shp)])


@sample("select_backward")
def _select_backward(draw):
    shp = shape(draw, min_dims=1)
    i = draw(st.integers(-shp[0], shp[0] - 1))
    return Case(_p3_grad_of(lambda T, x: x[i]), [uniform(draw, shp), uniform(draw, shp[1:])])


@sample("slice_backward")
def _slice_backward(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    start, step = draw(st.integers(0, shp[0] - 1)), draw(st.integers(1, 2))
    n = len(range(start, shp[0], step))
    return Case(_p3_grad_of(lambda T, x: x[start::step]), [uniform(draw, shp), uniform(draw, (n,) + shp[1:])])


@sample("scatter_add")
def _scatter_add(draw):
    # gather's gradient: zeros.scatter_add(dim, index, g)
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = rng(draw).integers(0, shp[dim], shp)
    return Case(_p3_grad_of(lambda T, x: x.gather(dim, T.tensor(idx))), [uniform(draw, shp), uniform(draw, shp)])


@sample("index_add")
def _index_add(draw):
    # index_select's gradient: zeros.index_add(dim, index, g)
    shp = shape(draw, min_dims=1)
    idx = rng(draw).integers(0, shp[0], draw(st.integers(1, 4)))
    return Case(_p3_grad_of(lambda T, x: x.index_select(0, T.tensor(idx))),
                [uniform(draw, shp), uniform(draw, (len(idx),) + shp[1:])])


def _drawn_fn(method):
    # x.normal_() / x.uniform_() on a non-leaf: recorded (NormalBackward0), no gradient flows through it
    def fn(T, x):
        T.manual_seed(0)
        y = x * 1
        getattr(y, method)(0.5, 2.0)
        return y * x
    return fn


@sample("normal_")
def _normal_(draw):
    return Case(_drawn_fn("normal_"), [uniform(draw, shape(draw))])


@sample("uniform_")
def _uniform_(draw):
    return Case(_drawn_fn("uniform_"), [uniform(draw, shape(draw))])


def _filled_fn(call):
    # another random fill on a non-leaf: recorded under PyTorch's name, no gradient flows through it
    def fn(T, x):
        T.manual_seed(0)
        y = x * 1
        eval(f"y.{call}", {"y": y, "T": T})
        return y * x
    return fn


for _key, _call in (("random_0", "random_(0, 5)"), ("random_1", "random_(5)"), ("random_2", "random_()"),
                    ("bernoulli_1", "bernoulli_(T.full(y.shape, 0.5, dtype=y.dtype))"),
                    ("bernoulli_2", "bernoulli_(0.3)"), ("exponential_", "exponential_()"),
                    ("geometric_", "geometric_(0.5)"), ("cauchy_", "cauchy_()"), ("log_normal_", "log_normal_()")):
    # (PyTorch's BernoulliBackward1 also lists the probabilities tensor among its inputs; gradlab's node
    # has only self: its graph is compared without that second, gradient-less edge)
    sample(_key, graph_names=_key != "bernoulli_1")(
        lambda draw, _call=_call: Case(_filled_fn(_call), [uniform(draw, shape(draw))]))


@sample("bernoulli_0")
def _bernoulli_0(draw):
    # torch.bernoulli(p) of probabilities that require grad: BernoulliBackward0, a zero gradient for p
    def fn(T, p):
        T.manual_seed(0)
        return T.bernoulli(p.sigmoid()) * p
    return Case(fn, [uniform(draw, shape(draw))])


@sample("normal_Tensor_float")
def _normal_tensor_float(draw):
    # torch.normal(mean, 0.5) of a mean that requires grad: NormalBackward1, a zero gradient for the mean.
    # (n - n.detach() is 0 whatever the mean: its true derivative is PyTorch's zero, so gradcheck agrees)
    def fn(T, m):
        T.manual_seed(0)
        n = T.normal(m, 0.5)
        return (n - n.detach()) * m + m
    return Case(fn, [uniform(draw, shape(draw))])


@sample("normal_float_Tensor")
def _normal_float_tensor(draw):
    # torch.normal(1.0, std): NormalBackward2, a zero gradient for the std
    def fn(T, s):
        T.manual_seed(0)
        n = T.normal(1.0, s.abs() + 0.1)
        return (n - n.detach()) * s + s
    return Case(fn, [uniform(draw, shape(draw))])


@sample("normal_Tensor_Tensor")
def _normal_tensor_tensor(draw):
    # torch.normal(mean, std): NormalBackward3, zero gradients for both
    def fn(T, m, s):
        T.manual_seed(0)
        n = T.normal(m, s.abs() + 0.1)
        return (n - n.detach()) * m + m * s
    shp = shape(draw)
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


# --- activations' gradients recorded as ops of their own with create_graph (helper P6) ----------------

@sample("sigmoid_backward")
def _sigmoid_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: x.sigmoid()), [uniform(draw, shp), uniform(draw, shp)])


@sample("elu_backward")
def _elu_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: T.nn.functional.elu(x, 1.5)), [away_from_zero(draw, shp, 0.2), uniform(draw, shp)])


@sample("gelu_backward")
def _gelu_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: T.nn.functional.gelu(x)), [uniform(draw, shp), uniform(draw, shp)])


@sample("softplus_backward")
def _softplus_backward(draw):
    shp = shape(draw)
    return Case(_p3_grad_of(lambda T, x: T.nn.functional.softplus(x, beta=2, threshold=1)),
                [away_from_zero(draw, shp, 0.2), uniform(draw, shp)])


@sample("rsub_tensor")
def _rsub_tensor(draw):
    shp = shape(draw)
    return Case(lambda T, x, y: x.__rsub__(y), [uniform(draw, shp), uniform(draw, shp)])


# the samples of the other op files, by topic (each registers into SAMPLES with @sample)
import op_samples_complex  # noqa: E402,F401
import op_samples_conv  # noqa: E402,F401
import op_samples_linalg  # noqa: E402,F401
import op_samples_loss  # noqa: E402,F401
import op_samples_norm  # noqa: E402,F401
import op_samples_pointwise  # noqa: E402,F401
import op_samples_sorting  # noqa: E402,F401
import op_samples_unary  # noqa: E402,F401
import op_samples_nnact  # noqa: E402,F401
import op_samples_stats  # noqa: E402,F401
import op_samples_binary  # noqa: E402,F401
import op_samples_views  # noqa: E402,F401
import op_samples_nnlayers  # noqa: E402,F401
import op_samples_seq  # noqa: E402,F401
import op_samples_nn3d  # noqa: E402,F401
import op_samples_special  # noqa: E402,F401
import op_samples_spectral  # noqa: E402,F401
import op_samples_bicubic  # noqa: E402,F401
