"""PyTorch's binary pointwise and product API that gradlab lacked (fmax, fmin, copysign, xlogy, logaddexp,
logaddexp2, ldexp, nextafter, gcd, lcm, igamma, igammac, the in-place comparisons and aliases, addr, the
in-place products, cumsum_/cumprod_, tril_/triu_, inner, ger, vdot, diagflat, chain_matmul), as generated
cases: each runs under gradlab and under torch, and the outcomes must be the same: values bit for bit (their
bytes), dtype, shape, strides, requires_grad, grad_fn and its next functions, gradients, version counters,
or the exception's type and message, and warnings.
"""
import random

import pytest

import gradlab
from test_missing_ops import _grads, _without_bits, outcome   # (the same comparison as the other missing-op files)

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool", "complex64"]
_FLOATS = "[[0., -1.5, 2., 0.5], [3., -0., 1., -2.], [float('nan'), 4., float('inf'), 0.]]"
_INTS = "[[0, -1, 2, 6], [3, -4, 1, -2], [9, 4, 12, 0]]"
_OTHERS = "[[1., -0., 2., 0.5], [3., 2., float('nan'), -2.], [-1., 4., 5., float('-inf')]]"


def _t(dt, values=None, grad=False):
    g = ", requires_grad=True" if grad else ""
    if values is None:
        values = _FLOATS if dt[0] in "fc" else _INTS
    if dt == "uint8":
        values = values.replace("-", "")
    return f"torch.tensor({values}, dtype=torch.{dt}{g})"


def _outcomes(code):
    """The outcome in gradlab and in torch, with PyTorch's once-per-process warnings shown every time in both
    (set_warn_always), so that a case's warnings do not depend on the cases run before it; the warnings are
    compared as a set (PyTorch repeats some of them then, once per internal call)."""
    for lib in (gradlab, torch):
        lib.set_warn_always(True)
    try:
        return tuple(o if isinstance(o, str) else (o[0], sorted(set(o[1])))
                     for o in (outcome(gradlab, code), outcome(torch, code)))
    finally:
        for lib in (gradlab, torch):
            lib.set_warn_always(False)


_SHAPES = ["", "[1:2]", "[:, :1]", "[0, 0]", ".t()", "[:2]", "[:, ::2]"]


# --- 1. the binary functions, out of place and in place ------------------------------------------------

_TENSOR_ONLY = ["fmax", "fmin", "logaddexp", "logaddexp2", "ldexp", "nextafter", "gcd", "lcm", "igamma", "igammac"]
_WITH_SCALAR = ["copysign", "xlogy"]
_INPLACE = {"ldexp", "nextafter", "gcd", "lcm", "igamma", "igammac", "copysign", "xlogy"}
_TORCH_INPLACE = {"xlogy", "gcd", "lcm", "ldexp"}       # (torch.xlogy_(x, y) too)
# (values computed by series or through log1p/exp in float64: compared as printed, not bit for bit)
_PRINTED = {"logaddexp", "logaddexp2", "igamma", "igammac"}


def _binary_cases():
    rng = random.Random(14)
    cases = []
    for name in _TENSOR_ONLY + _WITH_SCALAR:
        for dt in _DTYPES:
            for odt in dict.fromkeys([dt, rng.choice(_DTYPES), rng.choice(_DTYPES[:3])]):
                for shape in _SHAPES:
                    if {dt, odt} == {"complex64", "float16"} and shape == "[0, 0]":
                        continue           # (PyTorch's ComplexHalf, which gradlab does not have)
                    grad = dt in ("float32", "float64") and rng.random() < 0.6
                    ograd = odt in ("float32", "float64") and rng.random() < 0.5 and not name.startswith("igamma")
                    form = rng.choice([f"torch.{name}(x, w)", f"x.{name}(w)", f"torch.{name}(input=x, other=w)"])
                    pre = "x = x * 1; " if grad and rng.random() < 0.5 else ""
                    w = f"{_t(odt, _OTHERS if odt[0] in 'fc' else None, ograd)}{shape}"
                    cases.append((name, f"x = {_t(dt, None, grad)}; {pre}w = {w}; y = {form}; " + _grads("x, w")))
                    if name in _INPLACE:
                        leaf = grad and rng.random() < 0.3
                        x = _t(dt, None, grad) + ("" if leaf else " * 1" if grad else "")
                        call = (f"torch.{name}_(x, w)" if name in _TORCH_INPLACE and rng.random() < 0.3
                                else f"x.{name}_(w)")
                        cases.append((name, f"x = {x}; v = x._version; w = {w}; y = {call}; "
                                            f"r = (y is x, x._version - v, x)"))
                        if grad and not leaf and name != "igamma" and name != "igammac":
                            # (w's gradient only where w has x's dtype: gradlab's in-place ops give w the gradient
                            # in x's dtype, a difference of the in-place machinery, reported)
                            w = w if odt == dt else w.replace(", requires_grad=True", "")
                            cases.append((name, f"x0 = {_t(dt, None, True)}; x = x0 * 1; w = {w}; x.{name}_(w); "
                                                f"r = (x, torch.autograd.grad(x.sum(), [x0] + "
                                                f"([w] if w.requires_grad else [])))"))
        if name in _WITH_SCALAR:
            for dt in _DTYPES:
                for s in ("2", "-1.5", "0", "0.", "-0.", "True", "1j", "float('nan')", "2**70", "np.float64(-2.)"):
                    grad = dt in ("float32", "float64") and rng.random() < 0.6
                    form = rng.choice([f"torch.{name}(x, {s})", f"x.{name}({s})", f"torch.{name}(x, other={s})"])
                    cases.append((name, f"x = {_t(dt, None, grad)}; y = {form}; " + _grads("x")))
                    cases.append((name, f"x = {_t(dt)}; v = x._version; y = x.{name}_({s}); r = (y is x, x._version - v, x)"))
                    if name == "xlogy":
                        ograd = dt in ("float32", "float64") and rng.random() < 0.6
                        cases.append((name, f"w = {_t(dt, _OTHERS, ograd)}; y = torch.xlogy({s}, w); " + _grads("w")))
    cases += [("fmax", "r = torch.fmax(torch.ones(2), 1.)"), ("fmax", "r = torch.ones(2).fmax(2)"),
              ("gcd", "r = torch.gcd(torch.tensor([4, -6, 0, 7]), torch.tensor([6, 4, 0, -21]))"),
              ("lcm", "r = torch.lcm(torch.tensor([4, -6, 0, 7]), torch.tensor([6, 4, 0, -21]))"),
              ("igamma", "a = torch.tensor([1., 2.], requires_grad=True); x = torch.tensor([0.5, 3.]); "
                         "r = torch.igamma(a, x).sum().backward()"),
              ("igamma", "a = torch.tensor([0.5, 2., 10., 0., 3.], dtype=torch.float64); "
                         "x = torch.tensor([0.1, 3., 12., 1., 0.], dtype=torch.float64); r = (torch.igamma(a, x), torch.igammac(a, x))"),
              ("xlogy", "x = torch.tensor([0., 0., 1., 0., 2.], requires_grad=True); "
                        "o = torch.tensor([0., -1., 0., 2., float('nan')], requires_grad=True); y = torch.xlogy(x, o); "
                        + _grads("x, o")),
              ("xlogy", "r = torch.xlogy(2, 3)"), ("xlogy", "r = torch.xlogy(self=2., other=torch.tensor([1., 4.]))"),
              ("xlogy", "x = torch.tensor([1., 2.], requires_grad=True); "
                        "g = torch.autograd.grad(torch.xlogy(x, x).sum(), x, create_graph=True)[0]; "
                        "r = (g, torch.autograd.grad(g.sum(), x))"),
              ("fmax", "x = torch.tensor([1., 2.], requires_grad=True); y = torch.tensor([1., 1.], requires_grad=True); "
                       "g = torch.autograd.grad(torch.fmax(x, y).pow(2).sum(), [x, y], create_graph=True); "
                       "r = (g, torch.autograd.grad(g[0].sum(), x))"),
              ("logaddexp", "x = torch.tensor([1., -2.], requires_grad=True); "
                            "g = torch.autograd.grad(torch.logaddexp(x, x * 2).sum(), x, create_graph=True)[0]; "
                            "r = (g, torch.autograd.grad(g.sum(), x))"),
              ("copysign", "x = torch.tensor([1., -2.], requires_grad=True); r = x.copysign_(-1.)"),
              ("copysign", "x = torch.ones(1).expand(3); r = x.copysign_(torch.ones(3))"),
              ("copysign", "x = torch.tensor([1., 2.], requires_grad=True); y = x * 1; z = y.exp(); y.copysign_(-1.); "
                           "r = z.sum().backward()"),
              ("copysign", "x = torch.tensor([1., 2.], requires_grad=True); y = x * 1; z = torch.copysign(y, 2.); "
                           "y.add_(1); r = z.sum().backward()")]
    return cases


BINARY_CASES = _binary_cases()


@pytest.mark.parametrize("name,code", BINARY_CASES)
def test_binary_functions(name, code):
    mine, theirs = _outcomes(code)
    if name in _PRINTED:
        mine, theirs = _without_bits(mine), _without_bits(theirs)
    assert mine == theirs


# --- 2. comparisons: torch.greater_equal, ..., and the in-place forms ------------------------------------

_COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal"]


def _comparison_cases():
    rng = random.Random(15)
    cases = []
    for name in _COMPARISONS:
        for dt in _DTYPES:
            for other in (f"{_t(rng.choice(_DTYPES), _OTHERS)}{rng.choice(_SHAPES)}", "1.5", "2", "True", "1j",
                          f"{_t(dt, _OTHERS)}[0, 1]", "300"):
                grad = dt in ("float32", "float64") and rng.random() < 0.6
                x = _t(dt, None, grad) + (" * 1" if grad and rng.random() < 0.8 else "")
                cases.append(f"x = {x}; v = x._version; y = x.{name}_({other}); r = (y is x, x._version - v, x)")
                if name in ("greater_equal", "less_equal", "not_equal"):
                    cases.append(f"r = torch.{name}({_t(dt)}, {other})")
        cases.append(f"x0 = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([1., 3.], requires_grad=True); "
                     f"x = x0 * 1; x.{name}_(w); r = (x, torch.autograd.grad(x.sum(), [x0, w]))")
    cases += ["r = torch.greater_equal(torch.ones(2), [1.])", "r = torch.ones(2).eq_([1., 2.])",
              "r = torch.ones(2).lt_(torch.ones(2, 2))", "r = torch.ones(1).expand(2).eq_(1)"]
    return cases


@pytest.mark.parametrize("code", _comparison_cases())
def test_comparisons(code):
    mine, theirs = _outcomes(code)
    assert mine == theirs


# --- 3. in-place aliases ------------------------------------------------------------------------------

def _alias_cases():
    cases = []
    for dt in ("float32", "int64", "bool"):
        for other in (f"{_t('float32', _OTHERS)}", f"{_t('int64')}", "2", "2.5", f"{_t(dt)}[0]"):
            for call in ("multiply_({})", "divide_({})", "divide_({}, rounding_mode='floor')",
                         "divide_({}, rounding_mode='trunc')", "subtract_({})", "subtract_({}, alpha=2)",
                         "true_divide_({})"):
                cases.append(f"x = {_t(dt)}; v = x._version; y = x.{call.format(other)}; r = (y is x, x._version - v, x)")
        cases.append(f"x0 = {_t('float32', None, True)}; x = x0 * 1; x.multiply_(3.); x.divide_(2.); x.subtract_(1.); "
                     "x.true_divide_(4.); r = (x, torch.autograd.grad(x.sum(), x0))")
    return cases


@pytest.mark.parametrize("code", _alias_cases())
def test_inplace_aliases(code):
    mine, theirs = _outcomes(code)
    assert mine == theirs


# --- 4. products and their in-place forms; cumulative and triangle in-place -------------------------------

def _product_cases():
    rng = random.Random(16)
    cases = []
    mats = {"v2": "torch.tensor([1.5, -2.]{})", "v3": "torch.tensor([0.5, 3., -1.]{})",
            "v4": "torch.tensor([1., 2., 0.25, -3.]{})", "m23": "torch.tensor([[1., 2., 3.], [-1., 0.5, 4.]]{})",
            "m34": "torch.arange(12.{}).reshape(3, 4) / 7", "m32": "torch.tensor([[1., -2.], [0.5, 3.], [2., 1.]]{})",
            "m12": "torch.tensor([[1., -2.]]{})", "s": "torch.tensor(2.5{})", "b234": "torch.arange(24.{}).reshape(2, 3, 4)",
            "b242": "torch.arange(16.{}).reshape(2, 4, 2) - 3", "b232": "torch.arange(12.{}).reshape(2, 3, 2)",
            "m44": "torch.arange(16.{}).reshape(4, 4)", "m22": "torch.tensor([[1., 2.], [3., 4.]]{})"}

    def m(key, dt="float32", grad=False):
        extra = f", dtype=torch.{dt}" + (", requires_grad=True" if grad else "")
        return mats[key].format(extra)
    names = list(mats)
    for _ in range(80):                    # addr, addr_
        a, v1, v2 = rng.choice(["m23", "m22", "v3", "s", "m32", "m12"]), rng.choice(["v2", "v3", "m22"]), \
            rng.choice(["v3", "v2", "s"])
        dts = [rng.choice(["float32", "float64", "int64", "bool"]) for _ in range(3)]
        grads = [dt in ("float32", "float64") and rng.random() < 0.5 for dt in dts]
        kw = rng.choice(["", ", beta=2", ", alpha=0.5", ", beta=0, alpha=3", ", beta=True", ", alpha=2, beta=-1"])
        made = [m(k, dt, g) for k, dt, g in zip((a, v1, v2), dts, grads)]
        form = rng.choice(["torch.addr(x, v, w{})", "x.addr(v, w{})", "torch.addr(input=x, vec1=v, vec2=w{})"])
        cases.append(f"x, v, w = {', '.join(made)}; y = {form.format(kw)}; " + _grads("x, v, w"))
        made[0] = m(a, dts[0])
        cases.append(f"x, v, w = {', '.join(made)}; n = x._version; y = x.addr_(v, w{kw}); "
                     f"r = (y is x, x._version - n, x, torch.autograd.grad(x.sum(), [t for t in (v, w) if "
                     f"t.requires_grad]) if x.requires_grad else None)")
    for op, shapes in (("addmm", [("m32", "m23", "m32"), ("m22", "m23", "m32"), ("m12", "m23", "m32"),
                                  ("v2", "m23", "m32"), ("m32", "m34", "m23")]),
                       ("addmv", [("v2", "m23", "v3"), ("s", "m23", "v3"), ("m22", "m23", "v3"), ("v3", "m23", "v3")]),
                       ("baddbmm", [("b232", "b234", "b242"), ("m32", "b234", "b242"), ("b234", "b234", "b242")]),
                       ("addbmm", [("m32", "b234", "b242"), ("v2", "b234", "b242"), ("m23", "b234", "b242")])):
        for a, b, c in shapes:
            for dts in (("float32",) * 3, ("float64", "float32", "float32"), ("int64",) * 3, ("float32", "float64", "float64")):
                grad = dts[1] == "float32" and rng.random() < 0.6
                kw = rng.choice(["", ", beta=2", ", alpha=0.5", ", beta=0, alpha=3"])
                cases.append(f"x, p, q = {m(a, dts[0])}, {m(b, dts[1], grad)}, {m(c, dts[2])}; n = x._version; "
                             f"y = x.{op}_(p, q{kw}); r = (y is x, x._version - n, x, torch.autograd.grad(x.sum(), p) "
                             f"if grad else None)".replace("if grad", "if " + str(grad)))
                cases.append(f"x0 = {m(a, dts[0], dts[0] == 'float32')}; x = x0 * 1; p, q = {m(b, dts[1])}, "
                             f"{m(c, dts[2])}; x.{op}_(p, q{kw}); r = (x, torch.autograd.grad(x.sum(), x0) if "
                             f"x.requires_grad else None)")
    cases.append("r = torch.addmv_(torch.ones(3), torch.ones(3, 4), torch.ones(4))")
    for dt in ("float32", "float64", "int32", "int64", "bool", "float16"):     # cumsum_, cumprod_, tril_, triu_
        for call in ("cumsum_(0)", "cumsum_(-1)", "cumsum_(2)", "cumprod_(1)", "cumsum_(0, dtype=torch.float64)",
                     f"cumsum_(1, dtype=torch.{dt})", "tril_()", "triu_(1)", "tril_(-1)", "triu_(diagonal=-5)"):
            grad = dt in ("float32", "float64")
            cases.append(f"x0 = {m('m34', dt, grad)}; x = x0 * 1 if x0.requires_grad else x0; n = x._version; "
                         f"y = x.{call}; r = (y is x, x._version - n, x, torch.autograd.grad(x.sum() if x.dtype != "
                         f"torch.bool else x, x0) if grad else None)")
    cases += ["r = torch.ones(3).tril_()", "x = torch.ones(3, 3, requires_grad=True); r = x.triu_()",
              "x0 = torch.tensor([1., 2., 3.], requires_grad=True); x = x0 * 1; x.cumprod_(0); "
              "r = (x, torch.autograd.grad(x.sum(), x0))"]
    pairs = [("v3", "v3"), ("m23", "v3"), ("m23", "m23"), ("s", "m23"), ("m23", "s"), ("b234", "m34"), ("m23", "v4"),
             ("v2", "v3")]
    for a, b in pairs:                       # inner, ger, vdot
        for dts in (("float32", "float32"), ("float64", "float32"), ("int64", "int64"), ("bool", "bool")):
            ga, gb = (dt in ("float32", "float64") and rng.random() < 0.6 for dt in dts)
            for fn in ("torch.inner(x, w)", "x.inner(w)", "torch.ger(x, w)", "x.ger(w)", "torch.vdot(x, w)",
                       "x.vdot(w)"):
                cases.append(f"x, w = {m(a, dts[0], ga)}, {m(b, dts[1], gb)}; y = {fn}; " + _grads("x, w"))
    for key in ("v3", "m23", "s", "b234"):           # diagflat
        for off in ("", "1", "-2", "offset=3"):
            cases.append(f"x = {m(key, 'float32', True)}; y = torch.diagflat(x{', ' + off if off else ''}); "
                         + _grads("x"))
            cases.append(f"x = {m(key, 'int64')}; r = x.diagflat({off})")
    cases.append("x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).t(); y = torch.diagflat(x); " + _grads("x"))
    for ms in (("m23", "m32"), ("m23",), (), ("v3", "m32"), ("m23", "m34"), ("m23", "m32", "m23", "m34"),
               ("m22", "m22", "m22")):                # chain_matmul
        made = ", ".join(m(k, "float32", True) for k in ms)
        cases.append(f"ts = [{made}]; y = torch.chain_matmul(*ts); " + _grads("*ts").replace("(*ts,)", "ts"))
    cases += ["r = torch.chain_matmul(torch.ones(2, 2), 0)", "r = torch.chain_matmul(torch.ones(2, 2), [1.])",
              "r = torch.chain_matmul(torch.ones(2, 2, dtype=torch.int64), torch.ones(2, 2, dtype=torch.int64))"]
    return cases


PRODUCT_CASES = _product_cases()


@pytest.mark.parametrize("code", PRODUCT_CASES)
def test_products(code):
    mine, theirs = _outcomes(code)
    if "chain_matmul" in code or "inner" in code:     # (float32 matrix products: BLAS's order of sums, as printed)
        mine, theirs = _without_bits(mine), _without_bits(theirs)
    assert mine == theirs


# --- 5. complex numbers from two real tensors: torch.complex, torch.polar ----------------------------------

def _complex_cases():
    rng = random.Random(17)
    cases = []
    parts = ["[[0., -1.5, 2., 0.5], [3., -0., 1., -2.], [float('nan'), 4., float('inf'), 0.]]", "[1.25, -0.5, 3., 0.]",
             "2.5", "[[1.], [-2.], [0.5]]", "[1., 2.]"]
    for fn in ("complex", "polar"):
        for a in parts:
            for b in parts:
                for dts in (("float32", "float32"), ("float64", "float64"), ("float32", "float64"), ("int64", "int64"),
                            ("complex64", "complex64"), ("bool", "float32")):      # (float16: ComplexHalf)
                    ga, gb = (dt in ("float32", "float64") and rng.random() < 0.6 for dt in dts)
                    x = f"torch.tensor({a}, dtype=torch.{dts[0]}{', requires_grad=True' if ga else ''})"
                    w = f"torch.tensor({b}, dtype=torch.{dts[1]}{', requires_grad=True' if gb else ''})"
                    form = rng.choice([f"torch.{fn}(x, w)", f"torch.{fn}({'real' if fn == 'complex' else 'abs'}=x, "
                                                            f"{'imag' if fn == 'complex' else 'angle'}=w)"])
                    # (the gradient of a complex result: of (y * weights).real.sum(), weights complex)
                    cases.append(f"x = {x}; w = {w}; y = {form}; r = (y, torch.autograd.grad((y * torch.linspace(-1.5, "
                                 f"2., y.numel()).reshape(y.shape).to(y.dtype) * (1 - 2j)).real.sum(), "
                                 f"[t for t in (x, w) if t.requires_grad]) if y.requires_grad else None)")
    cases += ["r = torch.complex(torch.ones(2), 1.)", "r = torch.polar(1., torch.ones(2))",
              "x = torch.ones(2, requires_grad=True); y = torch.complex(x, x * 2); "
              "g = torch.autograd.grad(y.abs().sum(), x, create_graph=True)[0]; r = (g, torch.autograd.grad(g.sum(), x))"]
    return cases


@pytest.mark.parametrize("code", _complex_cases())
def test_complex_and_polar(code):
    mine, theirs = _outcomes(code)
    if "polar" in code:            # (cos and sin of float32: C's against numpy's float64 rounded, as printed)
        mine, theirs = _without_bits(mine), _without_bits(theirs)
    assert mine == theirs


# --- 6. the logical in-place ops on tensors in a graph -------------------------------------------------
# PyTorch's logical_and_/or_/xor_/not_ are not differentiable and leave autograd alone: a leaf that requires
# grad stays a leaf (no "leaf Variable ... in-place" error), a non-leaf keeps its grad_fn, and only the
# version counter moves (a view then reads as AsStridedBackward0, a saved tensor refuses a backward).

def _logical_inplace_cases():
    rng = random.Random(61)
    cases = []
    calls = ["logical_not_()", "logical_and_(o)", "logical_or_(o)", "logical_xor_(o)"]
    setups = {
        "leaf": "y = x",
        "nonleaf": "y = x * 2",
        "view": "y = x[1:]",
        "nonleaf_view": "y = (x * 2)[:, 1]",
        "saved": "y = x * 2; s = y * y",
        "exp_saves_result": "y = x * 2; s = y.exp()",
    }
    for call in calls:
        for setup_name, setup in setups.items():
            for dt in ("float32", "float64"):
                o = rng.choice([_t("float32", _OTHERS), _t("int64"), _t("bool", "[[True, False, True, False]] * 3"),
                                _t("float32", _OTHERS)[:-1] + ")[0]"])
                if setup_name in ("view",):
                    o = o if o.endswith("[0]") else o + "[1:]"
                if setup_name == "nonleaf_view":
                    o = "torch.tensor([1., 0., 2.])"
                tail = ("r = (y is z, y, x._version, y._version, type(y.grad_fn).__name__, x.is_leaf, x.requires_grad, "
                        "torch.autograd.grad((s if 's' in dir() else y).sum(), x, allow_unused=True))")
                cases.append(f"x = {_t(dt, None, True)}; {setup}; o = {o}; z = y.{call}; {tail}")
    # an integer tensor given another that requires grad: the result stays a plain integer tensor
    for call in calls[1:]:
        cases.append(f"x = {_t('int64')}; w = {_t('float32', _OTHERS, True)}; z = x.{call.replace('(o)', '(w)')}; "
                     "r = (z is x, x, x.requires_grad, x.grad_fn)")
    return cases


@pytest.mark.parametrize("code", _logical_inplace_cases())
def test_logical_inplace_in_a_graph(code):
    mine, theirs = _outcomes(code)
    assert mine == theirs


# --- 7. scatter's shape checks in PyTorch's order ---------------------------------------------------
# ScatterGatherChecks: self's dims against index's, index no larger than self (but along dim) and then than src,
# reading src.size(d) for each of self's dims (an IndexError when src has fewer), then src's dims.

def _scatter_shape_cases():
    rng = random.Random(71)
    shapes = [(4,), (4, 3), (2, 3, 2), (), (3, 1)]
    cases = []
    for _ in range(80):
        s, i, src = rng.choice(shapes), rng.choice(shapes + [(2, 2), (2,), (1, 1, 1)]), rng.choice(shapes + [(3, 3, 3)])
        dim = rng.randrange(-1, max(len(s), 1))
        call = rng.choice(["scatter_", "scatter", "scatter_add_", "scatter_add"])
        value = rng.choice([f"torch.ones({src})", "1.5"]) if call.startswith("scatter_") or call == "scatter" else f"torch.ones({src})"
        if "add" in call:
            value = f"torch.ones({src})"
        cases.append(f"x = torch.zeros({s}); i = torch.zeros({i}, dtype=torch.long); y = x.{call}({dim}, i, {value}); r = y")
    return cases


@pytest.mark.parametrize("code", _scatter_shape_cases())
def test_scatter_shape_checks(code):
    mine, theirs = _outcomes(code)
    assert mine == theirs
