"""Issue 17's pointwise, indexing and shape names against real PyTorch: the same call, written once for
both libraries, gives the same printed result (values, dtype, shape, grad_fn) or the same error
(type and message), over generated dtypes, shapes and dims; warnings too."""
import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


def outcome(T, fn):
    """What a call shows a user: the printed result (tensors, tuples of them, bools) or the error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(T)
        except Exception as e:             # noqa: BLE001  (the error itself is compared)
            return ("error", type(e).__name__, str(e)), [str(w.message) for w in caught]
    return ("ok", _shown(out)), [str(w.message) for w in caught]


def _shown(out):
    if isinstance(out, (tuple, list)):
        return tuple(_shown(o) for o in out)
    if hasattr(out, "shape") and hasattr(out, "dtype"):
        grad_fn = type(out.grad_fn).__name__ if out.grad_fn is not None else None
        return repr(out), str(out.dtype), tuple(out.shape), grad_fn
    return repr(out)


def same(fn, warns=True):
    # warn-once warnings (scatter's reduce=) come every time in both: what earlier tests did must not matter
    before = gradlab.is_warn_always_enabled(), torch.is_warn_always_enabled()
    gradlab.set_warn_always(True)
    torch.set_warn_always(True)
    try:
        got, got_warnings = outcome(gradlab, fn)
        want, want_warnings = outcome(torch, fn)
    finally:
        gradlab.set_warn_always(before[0])
        torch.set_warn_always(before[1])
    assert got == want
    if warns:
        assert got_warnings == want_warnings


DTYPES = ["float32", "float64", "int64", "int32", "bool"]
SHAPES = [(), (3,), (2, 3), (2, 1, 3)]


def _data(T, shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, shape).astype(np.float64) / 2
    if dtype == "bool":
        return T.tensor(a > 0)
    if dtype.startswith("int"):
        a = np.round(a * 2)
    return T.tensor(a.tolist() if shape else float(a), dtype=getattr(T, dtype))


# --- elementwise ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor", "isclose", "atan2", "arctan2", "hypot"])
@pytest.mark.parametrize("da,db", list(itertools.product(["float32", "int64", "bool"], repeat=2)) + [("float32", "float64")])
@pytest.mark.parametrize("sa,sb", [((2, 3), (2, 3)), ((3,), (2, 3)), ((2, 3), (4,)), ((), (3,))])
def test_binary(name, da, db, sa, sb):
    same(lambda T: getattr(T, name)(_data(T, sa, da), _data(T, sb, db, 1)))
    same(lambda T: getattr(_data(T, sa, da), name)(_data(T, sb, db, 1)))


@pytest.mark.parametrize("name", ["logical_and", "isclose", "atan2", "hypot"])
@pytest.mark.parametrize("other", [1, 2.5, True, None, [1.0, 2.0]])
def test_binary_wrong_other(name, other):
    same(lambda T: getattr(T, name)(T.ones(2), other))


def test_isclose_options():
    a = [1.0, 2.0, float("nan"), float("inf"), -float("inf"), 1e-9]
    b = [1.0 + 1e-6, 2.1, float("nan"), float("inf"), float("inf"), 0.0]
    for kw in [{}, {"equal_nan": True}, {"rtol": 0.1}, {"atol": 1e-8, "rtol": 0}, {"rtol": 0, "atol": 0},
               {"rtol": -1}, {"atol": -0.5}]:
        for dtype in ("float32", "float64"):
            same(lambda T: T.isclose(T.tensor(a, dtype=getattr(T, dtype)), T.tensor(b, dtype=getattr(T, dtype)), **kw))
    same(lambda T: T.isclose(T.tensor([1, 2, 3]), T.tensor([1, 3, 4]), atol=1))


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
@pytest.mark.parametrize("shape", SHAPES)
def test_unary(dtype, shape):
    special = [float("nan"), float("inf"), -float("inf"), -2.75, 0.5, 3.25]

    def x(T):
        if dtype in ("float32", "float64", "float16"):
            return T.tensor(np.resize(special, shape or ()).tolist() if shape else 1.5, dtype=getattr(T, dtype))
        return _data(T, shape, dtype)
    same(lambda T: x(T).frac())
    same(lambda T: T.frac(x(T)))
    same(lambda T: x(T).nan_to_num())
    same(lambda T: T.nan_to_num(x(T), nan=1.5, posinf=100.0, neginf=-1e300))
    same(lambda T: x(T).nan_to_num_(0.0))
    same(lambda T: x(T).fmod_(2))
    same(lambda T: x(T).fmod_(1.5))
    same(lambda T: x(T).logical_not_())


def test_gradients_of_elementwise():
    for fn in [lambda T, a, b: T.atan2(a, b), lambda T, a, b: a.hypot(b), lambda T, a, b: a.frac() * b,
               lambda T, a, b: T.nan_to_num(a / b)]:
        grads = []
        for T in (gradlab, torch):
            a = T.tensor([[0.5, -1.5, 2.0], [0.0, 3.0, -0.25]], requires_grad=True)
            b = T.tensor([[1.0, 2.0, -0.5], [0.0, 1.0, 4.0]], requires_grad=True)
            out = fn(T, a, b)
            out.backward(T.ones_like(out))
            grads.append((repr(out), repr(a.grad), repr(b.grad)))
        assert grads[0] == grads[1]


# --- scatter and friends --------------------------------------------------------------------------

INDEX = [[0, 1, 2, 0], [2, 0, 0, 1]]


@pytest.mark.parametrize("dim", [0, 1, -1, 2])
@pytest.mark.parametrize("how", ["src", "value", "add", "inplace", "add_inplace", "reduce_add", "reduce_mul"])
def test_scatter(dim, how):
    def run(T):
        x = T.arange(12.0).reshape(3, 4)
        i = T.tensor(INDEX) if dim in (0, 2) else T.tensor([[0, 1, 3], [3, 2, 1]])
        src = -T.arange(1.0, 13.0).reshape(3, 4)
        if how == "src":
            return x.scatter(dim, i, src)
        if how == "value":
            return T.scatter(x, dim, i, 2.5)
        if how == "add":
            return T.scatter_add(x, dim, i, src)
        if how == "inplace":
            return x.scatter_(dim, i, src), x
        if how == "add_inplace":
            return x.scatter_add_(dim, i, src), x
        if how == "reduce_add":
            return x.scatter(dim, i, src, reduce="add")
        return x.scatter(dim, i, 3.0, reduce="multiply")
    same(run)


@pytest.mark.parametrize("case", range(14))
def test_scatter_errors(case):
    def run(T):
        x, src = T.zeros(3, 4), T.arange(12.0).reshape(3, 4)
        i = T.tensor(INDEX)
        return [lambda: x.scatter(0, i.float(), src), lambda: x.scatter(0, i[0], src),
                lambda: x.scatter(0, T.tensor([[5]]), src), lambda: x.scatter(0, T.tensor([[-1]]), src),
                lambda: x.scatter(0, i, src.double()), lambda: x.scatter(0, T.zeros(4, 4, dtype=T.long), src),
                lambda: x.scatter(0, i, src[:1]), lambda: x.scatter(0, i, 1.0, reduce="mean"),
                lambda: x.scatter_add(0, i, 2.0), lambda: x.scatter_add(0, i, src.double()),
                lambda: x.scatter(0, i, T.tensor(2.0)), lambda: T.zeros(3, dtype=T.long).scatter(0, T.tensor([0]), 2.7),
                lambda: x.scatter(2, i, src), lambda: x.scatter(0, i, True)][case]()
    same(run)


def test_scatter_gradients():
    for how in ("src", "value", "add"):
        grads = []
        for T in (gradlab, torch):
            x = T.zeros(3, 4, requires_grad=True)
            s = T.arange(12.0).reshape(3, 4).requires_grad_()
            i = T.tensor(INDEX)
            out = x.scatter(0, i, s[:2]) if how == "src" else x.scatter(1, i, 3.0) if how == "value" else \
                (x * 2).scatter_add(0, i, s[:2])
            out.backward(T.arange(12.0).reshape(3, 4))
            grads.append((repr(out), repr(x.grad), repr(s.grad)))
        assert grads[0] == grads[1]
    same(lambda T: T.zeros(2, requires_grad=True).scatter(0, T.tensor([1]), T.ones(1), reduce="add").grad_fn.name())


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("alpha", [1, 2, -0.5])
def test_index_add_and_copy(dim, alpha):
    def x(T):
        return T.arange(12.0).reshape(3, 4)

    def source(T):
        return -T.ones(3, 2) if dim else -T.ones(2, 4)

    same(lambda T: x(T).index_add(dim, T.tensor([0, 2]), source(T), alpha=alpha))
    same(lambda T: T.index_add(x(T), dim, T.tensor([1, 1]), source(T), alpha=alpha))
    same(lambda T: x(T).index_add_(dim, T.tensor([0, 2]), source(T), alpha=alpha))
    same(lambda T: x(T).index_copy(dim, T.tensor([2, 0]), source(T)))
    same(lambda T: x(T).index_copy_(dim, T.tensor([1, 0]), source(T)))


@pytest.mark.parametrize("case", range(12))
def test_index_errors(case):
    def run(T):
        x, s = T.zeros(3, 4), T.arange(12.0).reshape(3, 4)
        i = T.tensor([0, 2])
        return [lambda: x.index_add(0, i.float(), s[:2]), lambda: x.index_add(0, i, s[:3]),
                lambda: x.index_add(0, T.tensor([0, 5]), s[:2]), lambda: x.index_add(0, T.tensor([[0, 2]]), s[:2]),
                lambda: x.index_add(0, i, s[:2].double()), lambda: x.index_add(0, i, s[:2, :3]),
                lambda: x.index_add(0, T.tensor([-1, 2]), s[:2]), lambda: x.index_copy(0, T.tensor([0, 5]), s[:2]),
                lambda: x.index_copy(0, i, s[:3]), lambda: x.index_copy(0, i.int(), s[:2]),
                lambda: x.index_copy(0, i, s[:2].double()), lambda: x.index_add(1, i, s[:2])][case]()
    same(run)


@pytest.mark.parametrize("mask_shape", [(3, 4), (4,), (1, 4), (2,)])
def test_masked_select_and_scatter(mask_shape):
    def mask(T):
        return T.tensor(np.resize([True, False, True, True, False], mask_shape).tolist())
    same(lambda T: T.arange(12.0).reshape(3, 4).masked_select(mask(T)))
    same(lambda T: T.masked_select(T.arange(12.0).reshape(3, 4), mask(T)))
    same(lambda T: T.zeros(3, 4).masked_scatter(mask(T), -T.arange(1.0, 13.0)))
    same(lambda T: T.zeros(3, 4).masked_scatter_(mask(T), -T.arange(1.0, 13.0)))
    same(lambda T: T.zeros(3, 4).masked_scatter(mask(T), T.ones(1)))
    same(lambda T: T.zeros(3, 4).masked_select(mask(T).float()))
    same(lambda T: T.zeros(3, 4).masked_scatter(mask(T).float(), T.ones(12)))
    same(lambda T: T.zeros(3, 4).masked_scatter(mask(T), T.ones(12).double()))


def test_take():
    same(lambda T: T.arange(12.0).reshape(3, 4).take(T.tensor([0, 5, -1])))
    same(lambda T: T.take(T.arange(12.0).reshape(3, 4), T.tensor([[1, 2], [3, 3]])))
    same(lambda T: T.arange(12.0).take(T.tensor([12])))
    same(lambda T: T.arange(12.0).take(T.tensor([1.0])))
    same(lambda T: T.arange(12.0).take(T.tensor([1]).int()))


# --- reductions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("kw", [{}, {"dim": 0}, {"dim": 1, "keepdim": True}, {"dim": (0, 1)}, {"dim": -1, "correction": 0},
                                {"unbiased": False}])
def test_var_mean_std_mean(dtype, kw):
    def x(T):
        return T.tensor([[1.5, -2.0, 0.25], [4.0, 0.5, -1.0]], dtype=getattr(T, dtype))
    same(lambda T: T.var_mean(x(T), **kw))
    same(lambda T: T.std_mean(x(T), **kw))


def test_var_mean_positional_and_warnings():
    same(lambda T: T.var_mean(T.arange(6.0).reshape(2, 3), 1, True))
    same(lambda T: T.std_mean(T.arange(6.0).reshape(2, 3), False))
    same(lambda T: T.var_mean(T.tensor([2.0])))
    same(lambda T: T.std_mean(T.tensor([[2.0, 3.0]]), 0))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
@pytest.mark.parametrize("kw", [{}, {"dim": 0}, {"dim": 1, "keepdim": True}, {"dim": (0, 1)}, {"dim": -1}])
def test_nansum_nanmean(dtype, kw):
    def x(T):
        if dtype.startswith("float"):
            return T.tensor([[1.5, float("nan"), 0.25], [float("nan"), float("nan"), -1.0]], dtype=getattr(T, dtype))
        return _data(T, (2, 3), dtype)
    same(lambda T: T.nansum(x(T), **kw))
    same(lambda T: x(T).nansum(**kw))
    same(lambda T: T.nanmean(x(T), **kw))
    same(lambda T: x(T).nanmean(**kw))


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
@pytest.mark.parametrize("kw", [{}, {"dim": 0}, {"dim": 1, "keepdim": True}, {"dim": -1}])
def test_aminmax(dtype, kw):
    same(lambda T: _data(T, (2, 3), dtype).aminmax(**kw))
    same(lambda T: T.aminmax(_data(T, (2, 3), dtype), **kw))
    same(lambda T: T.aminmax(_data(T, (2, 3), dtype), **kw).max)
    same(lambda T: T.tensor([]).aminmax(**kw))


def test_reduction_gradients():
    fns = [lambda T, x: sum(o.sum() * (i + 1) for i, o in enumerate(T.var_mean(x, 0))),
           lambda T, x: sum(o.sum() * (i + 1) for i, o in enumerate(T.std_mean(x, 1, keepdim=True))),
           lambda T, x: T.std_mean(x)[0], lambda T, x: T.nansum(x.log(), 1).sum(), lambda T, x: x.log().nanmean(),
           lambda T, x: sum(o.sum() * (i + 1) for i, o in enumerate(x.aminmax(dim=0)))]
    for fn in fns:
        got = []
        for T in (gradlab, torch):
            x = T.tensor([[1.5, -2.0, 0.25], [4.0, 0.5, 4.0]], requires_grad=True)
            out = fn(T, x)
            out.backward()
            got.append((repr(out), repr(x.grad)))
        assert got[0] == got[1]


# --- shape ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["hstack", "vstack", "row_stack", "dstack", "column_stack"])
@pytest.mark.parametrize("shapes", [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)], [(2, 3), (3,)], [(1, 3), (3,)],
                                    [(2, 3, 2), (2, 3, 1)], [(2,), (3,)], [(2, 3), (2, 1)]])
def test_stacks(name, shapes):
    def run(T):
        ts = [T.arange(float(int(np.prod(s)))).reshape(s) + 10 * i for i, s in enumerate(shapes)]
        return getattr(T, name)(ts)
    same(run, warns=False)      # (torch.row_stack may warn about its deprecation)


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack"])
def test_stack_errors(name):
    same(lambda T: getattr(T, name)([]))
    same(lambda T: getattr(T, name)(T.ones(2)))
    same(lambda T: getattr(T, name)([T.ones(2), 1]))
    same(lambda T: getattr(T, name)((T.ones(2), T.ones(2, dtype=T.int64))))


@pytest.mark.parametrize("indexing", [None, "ij", "xy", "foo"])
@pytest.mark.parametrize("sizes", [(3,), (2, 3), (2, 3, 4), (0, 2)])
def test_meshgrid(indexing, sizes):
    def run(T):
        ts = [T.arange(float(n)) * (i + 1) for i, n in enumerate(sizes)]
        grids = T.meshgrid(*ts) if indexing is None else T.meshgrid(ts, indexing=indexing)
        return grids
    got, _ = outcome(gradlab, run)
    want, _ = outcome(torch, run)
    assert got == want


def test_meshgrid_errors():
    same(lambda T: T.meshgrid(T.ones(2, 2), T.ones(2), indexing="ij"))
    same(lambda T: T.meshgrid(T.ones(2), T.ones(2).double(), indexing="ij"))
    same(lambda T: T.meshgrid(T.ones(2), 1, indexing="ij"))
    same(lambda T: T.meshgrid(T.tensor(1.0), indexing="xy"))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 3)])
def test_ravel_tile_broadcast_to(shape):
    def x(T):
        return T.arange(float(int(np.prod(shape)))).reshape(shape)
    same(lambda T: x(T).ravel())
    same(lambda T: T.ravel(x(T).t() if len(shape) == 2 else x(T)))
    for reps in [(2,), (2, 1), (1, 2, 2), ()]:
        same(lambda T: x(T).tile(reps))
        same(lambda T: T.tile(x(T), reps))
    for size in [(3,), (2, 3), (4, 2, 3), (2, -1, 3), (2, 1, 3, 1)]:
        same(lambda T: x(T).broadcast_to(size))
        same(lambda T: T.broadcast_to(x(T), size))


@pytest.mark.parametrize("src,dst", [(0, 1), (0, -1), (-1, 0), ((0, 1), (1, 0)), ([0, 2], [2, 0]), ((0,), (2,)),
                                     ((0, 1), (0,)), ((0, 0), (0, 1)), ((0, 1), (1, 1)), (3, 0), (0, 0)])
def test_movedim(src, dst):
    same(lambda T: T.arange(24.0).reshape(2, 3, 4).movedim(src, dst).shape)
    same(lambda T: T.moveaxis(T.arange(24.0).reshape(2, 3, 4), src, dst))
    same(lambda T: T.tensor(1.0, requires_grad=True).movedim(0, 0))


@pytest.mark.parametrize("repeats", [0, 2, -1, "t0", "t1", "t3", "tneg", "tfloat", "t2d"])
@pytest.mark.parametrize("dim", [None, 0, 1, -1, 2])
def test_repeat_interleave(repeats, dim):
    def run(T):
        r = {"t0": T.tensor(2), "t1": T.tensor([3]), "t3": T.tensor([1, 0, 2]), "tneg": T.tensor([1, -1, 1]),
             "tfloat": T.tensor([1.0, 2.0, 1.0]), "t2d": T.tensor([[1, 2, 1]])}.get(repeats, repeats)
        x = T.arange(6.0).reshape(2, 3).requires_grad_()
        out = x.repeat_interleave(r, dim=dim)
        out.backward(T.ones_like(out))
        return out, x.grad
    same(run)
    same(lambda T: T.repeat_interleave(T.tensor([1, 2, 0, 1])))
    same(lambda T: T.repeat_interleave(T.tensor([[1, 2]])))


@pytest.mark.parametrize("op", ["t_", "transpose_", "unsqueeze_", "squeeze_", "squeeze_dim", "squeeze_dims"])
@pytest.mark.parametrize("shape", [(1, 3), (2, 1, 3), (3,)])
def test_views_in_place(op, shape):
    def apply(x):
        return {"t_": lambda: x.t_(), "transpose_": lambda: x.transpose_(0, -1), "unsqueeze_": lambda: x.unsqueeze_(1),
                "squeeze_": lambda: x.squeeze_(), "squeeze_dim": lambda: x.squeeze_(0),
                "squeeze_dims": lambda: x.squeeze_((0, -1))}[op]()

    def run(T):
        x = T.arange(float(int(np.prod(shape)))).reshape(shape)
        y = apply(x)
        return y is x, x, x.stride(), x._version, x.is_contiguous()

    def run_graph(T):
        leaf = T.arange(float(int(np.prod(shape)))).reshape(shape).requires_grad_()
        x = leaf * 2
        apply(x)
        (x * T.arange(float(x.numel())).reshape(x.shape)).sum().backward()
        return x, leaf.grad

    same(run)
    same(run_graph)
    same(lambda T: apply(T.ones(shape, requires_grad=True)))


def test_resize_():
    def run(T):
        x = T.arange(6.0)
        return x.resize_(2, 3).clone(), x.resize_(2, 2).clone(), x.resize_((3,)), x._version
    same(run)
    same(lambda T: T.ones(2, requires_grad=True).resize_(3))
    same(lambda T: T.arange(4.0).reshape(2, 2).t().resize_(4))
