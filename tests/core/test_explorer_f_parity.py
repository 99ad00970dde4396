"""What explorer F (values and dtypes, issue 14) found, each finding widened into generated cases run under
gradlab and under live torch: the outcomes (dtype, shape, strides, every number bit for bit through its
integer view, nan aside; or the exception's type and message) must be the same.

Warnings are compared too.

- std_mean/var_mean of a complex tensor: the std/var is real, and PyTorch computes it (and std/var's) as the
  real part's variance plus the imaginary part's, each rounded to the real dtype first; the mean is the real
  and imaginary parts' own (Welford) means;
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_FLOAT_BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(t):
    """Every number of a tensor as an integer (a float through its bits, nan as one marker)."""
    a = t.detach().resolve_conj().resolve_neg().numpy() if t.dtype.is_complex else t.detach().numpy()
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    if a.dtype.kind == "f":
        return tuple("nan" if np.isnan(v) else int(b) for v, b in zip(a.ravel(), a.view(_FLOAT_BITS[a.itemsize]).ravel()))
    return tuple(a.ravel().tolist())


def _describe(value):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_describe(v) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        return ("Tensor", str(value.dtype), tuple(value.shape), value.stride(), _bits(value), value.requires_grad)
    if isinstance(value, float):
        return "float", value.hex()
    return type(value).__name__, repr(value)


def outcome(module, code):
    """What running `code` gives: its result `r` described, or the exception; and the warnings it raised."""
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            result = _describe(namespace["r"])
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
    return result, sorted({(w.category.__name__, str(w.message)) for w in caught})


def check(code):
    assert outcome(gradlab, code) == outcome(torch, code), code


def _floats(rng, n, special=True):
    pool = [0.5, -2.25, 3.0, 1e-8, 65504.0, -3.4e38, 1e30, 7.0, -0.0]
    out = []
    for _ in range(n):
        c = rng.random()
        out.append(rng.choice(pool) if c < 0.3 else
                   (rng.choice(["nan", "inf"]) if special and c < 0.35 else round(rng.uniform(-10, 10), rng.choice([1, 4, 9]))))
    return ", ".join(v if isinstance(v, str) and v in ("nan", "inf") and False else
                     (f"float('{v}')" if isinstance(v, str) else repr(v)) for v in out)


def _complex_tensor(rng, shape, dtype):
    n = int(np.prod(shape))
    parts = [f"complex({a}, {b})" for a, b in zip(_floats(rng, n).split(", "), _floats(rng, n).split(", "))] if n else []
    return f"torch.tensor([{', '.join(parts)}], dtype=torch.{dtype}).reshape{shape}"


# --- std_mean / var_mean / std / var of a complex tensor ----------------------------------------------------
_VAR_CASES = []
for _seed in range(48):
    _rng = random.Random(_seed)
    _shape = _rng.choice([(5,), (2, 3), (3, 2), (0,), (1,), (4, 1), ()])
    _x = _complex_tensor(_rng, _shape, _rng.choice(["complex64", "complex128"]))
    _f = _rng.choice(["std_mean", "var_mean", "std", "var"])
    _args = _rng.choice(["", ", dim=0", ", dim=-1, keepdim=True", ", correction=0", ", correction=2", ", unbiased=False"])
    if not _shape and "dim" in _args:
        _args = ""
    _VAR_CASES.append(f"r = torch.{_f}({_x}{_args})")


@pytest.mark.parametrize("code", _VAR_CASES)
def test_complex_var_and_std(code):
    check(code)


# --- nansum / nanmean: PyTorch's order of checks (dims, then a complex input, then the dtype) -----------------
_NAN_CASES = []
for _seed in range(40):
    _rng = random.Random(100 + _seed)
    _dtype = _rng.choice(["float32", "float64", "float16", "complex64", "complex128", "int32"])
    _shape = _rng.choice([(3,), (2, 2), ()])
    _n = int(np.prod(_shape))
    _x = (_complex_tensor(_rng, _shape, _dtype) if _dtype.startswith("complex") else
          f"torch.tensor([{_floats(_rng, _n)}]).reshape{_shape}.to(torch.{_dtype})")
    _dim = _rng.choice(["", "dim=-3, ", "dim=2, ", "dim=0, ", "dim=(0, -1), "])
    _kw = _rng.choice(["", "dtype=torch.float64", "dtype=torch.complex64", "dtype=torch.int64", "dtype=torch.float16"])
    _NAN_CASES.append(f"r = torch.{_rng.choice(['nansum', 'nanmean'])}({_x}, {_dim}{_kw})")
for _x in ["torch.zeros(0)", "torch.zeros(2, 0)", "torch.zeros(0, 3, dtype=torch.float16)"]:     # (no kernel reached)
    for _kw in ["dtype=torch.complex64", "dim=0, dtype=torch.complex128", "dim=-1, keepdim=True, dtype=torch.complex64"]:
        _NAN_CASES += [f"r = torch.nansum({_x}, {_kw})", f"r = torch.nanmean({_x}, {_kw})"]


@pytest.mark.parametrize("code", _NAN_CASES)
def test_nansum_nanmean_checks(code):
    check(code)


# --- lcm wraps before its abs; range's dtype refusals; aminmax of a complex 0-d tensor along a dim --------------
_INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2 ** 31, 2 ** 31 - 1),
              "int64": (-2 ** 63, 2 ** 63 - 1)}


def _ints(rng, dtype, n):
    lo, hi = _INT_RANGE[dtype]
    return ", ".join(str(rng.choice([lo, hi, lo + 1, hi - 1, 0]) if rng.random() < 0.3 else
                         rng.randint(max(lo, -300), min(hi, 300))) for _ in range(n))


_MISC_CASES = []
for _seed in range(40):
    _rng = random.Random(200 + _seed)
    _a, _b = _rng.choice(list(_INT_RANGE)), _rng.choice(list(_INT_RANGE))
    _MISC_CASES.append(f"r = torch.lcm(torch.tensor([{_ints(_rng, _a, 4)}], dtype=torch.{_a}), "
                       f"torch.tensor([{_ints(_rng, _b, 4)}], dtype=torch.{_b}))")
for _dtype in ["bool", "complex64", "complex128", "float16", "int8", "float64"]:
    for _args in ["0, 2", "2, 0", "0, 2, 0", "0, float('nan')", "1, 7, 2"]:
        _MISC_CASES.append(f"r = torch.range({_args}, dtype=torch.{_dtype})")
for _x in ["torch.tensor(1j)", "torch.tensor(complex(1, 2), dtype=torch.complex128)", "torch.tensor([1j])",
           "torch.tensor(2.5)", "torch.tensor([], dtype=torch.complex64)"]:
    for _dim in ["dim=0", "dim=-1, keepdim=True", "dim=1", ""]:
        _MISC_CASES.append(f"r = torch.aminmax({_x}, {_dim})")


@pytest.mark.parametrize("code", _MISC_CASES)
def test_lcm_range_aminmax(code):
    check(code)


# --- an empty numpy array's strides become the tensor's (torch.tensor, as_tensor, from_numpy) ----------------
_NUMPY_CASES = []
for _seed in range(30):
    _rng = random.Random(300 + _seed)
    _arr = _rng.choice(["np.zeros((0, 3))", "np.array([[], []], dtype=np.int16)", "np.zeros((2, 3))[:, :0]",
                        "np.zeros((3, 2), dtype=np.float32).T[:, :0]", "np.zeros((4, 0, 2))[::2]", "np.array([])",
                        "np.ones((2, 3))", "np.zeros((0,), dtype=np.uint8)[::-1]"])
    _call = _rng.choice(["torch.tensor(n)", "torch.from_numpy(n)", "torch.as_tensor(n)",
                         "torch.as_tensor(n, dtype=torch.float32)", "torch.tensor(n, dtype=torch.int8)"])
    _NUMPY_CASES.append(f"n = {_arr}\nr = {_call}")


@pytest.mark.parametrize("code", _NUMPY_CASES)
def test_empty_numpy_strides(code):
    check(code)


# --- 0-d tensors reach no kernel (mode, cummax/cummin of complex; cumsum/cumprod to bool); an integer nansum is
# sum (any dtype, complex too) ----------------------------------------------------------------------------------
_ZERO_D_CASES = []
for _x in ["torch.tensor(1j)", "torch.tensor(complex(2, -1), dtype=torch.complex128)", "torch.tensor([1j, 2])",
           "torch.tensor([], dtype=torch.complex64)", "torch.tensor(3, dtype=torch.uint8)",
           "torch.tensor([2, 0], dtype=torch.int8)", "torch.tensor([True, True])", "torch.tensor(1.5)",
           "torch.tensor([], dtype=torch.int16)", "torch.tensor([[1.5, float('nan')]])"]:
    for _call in ["torch.mode({}, 0)", "torch.mode({})", "{}.cummax(0)", "{}.cummin(-1)",
                  "torch.cumsum({}, 0, dtype=torch.bool)", "torch.cumprod({}, 0, dtype=torch.bool)",
                  "torch.nansum({}, dtype=torch.complex64)", "torch.nansum({}, 0, dtype=torch.int8)",
                  "torch.nansum({}, -1, keepdim=True)", "{}.nansum()"]:
        _ZERO_D_CASES.append("r = " + _call.format(_x))


@pytest.mark.parametrize("code", _ZERO_D_CASES)
def test_zero_d_and_integer_nansum(code):
    check(code)


# --- the abs of a complex128 number: libm's hypot (PyTorch's std::abs; its vector loop, 4 numbers at a time,
# is SLEEF's hypot, not emulated: these tensors are shorter) -----------------------------------------------------
_ABS_CASES = []
for _seed in range(40):
    _rng = random.Random(400 + _seed)
    _shape = _rng.choice([(), (1,), (2,), (3,), (3, 1)])
    _ABS_CASES.append(f"r = {_complex_tensor(_rng, _shape, 'complex128')}.abs()")


@pytest.mark.parametrize("code", _ABS_CASES)
def test_complex128_abs(code):
    check(code)


# --- torch.norm(p="nuc") is linalg.matrix_norm's (its checks in order, then the singular values' sum); the
# empty-tensor check of an inf or negative norm before the dtype's; mean/nanmean refuse a dtype before casting;
# an int clamp bound's overflow names C's int -----------------------------------------------------------------
_NORM_CASES = []
for _seed in range(60):
    _rng = random.Random(500 + _seed)
    _shape = _rng.choice([(2, 3), (3, 2, 2), (0, 2), (2,), (1, 1)])
    _dtype = _rng.choice(["float32", "float64", "complex64", "int64"])
    _n = int(np.prod(_shape))
    _x = (_complex_tensor(_rng, _shape, _dtype) if _dtype.startswith("complex") else
          f"torch.tensor([{_floats(_rng, _n, special=False)}]).reshape{_shape}.to(torch.{_dtype})")
    _p = _rng.choice(['"nuc"', '"nuc"', "float('inf')", "-1", "-float('inf')", "2"])
    _dim = _rng.choice(["", ", dim=(0, 1)", ", dim=(1, 1)", ", dim=(-1, 0)", ", dim=0", ", dim=1", ", dim=(0, 1, 2)"])
    _kw = _rng.choice(["", "", ", keepdim=True", ", dtype=torch.int32", ", dtype=torch.float64"])
    if _p == '"nuc"':      # (LAPACK's singular values differ in the last bits: small numbers, compared to 3 places)
        _x = f"(torch.tensor({[round(_rng.uniform(-5, 5), 2) for _ in range(_n)]}).reshape{_shape} * (1 + 0j)).to(torch.{_dtype})"
        _NORM_CASES.append(f"r = (torch.norm({_x}, p={_p}{_dim}{_kw}) * 1000).round()")
    elif not _dtype.startswith("complex"):   # (a complex abs of 4 numbers and more is SLEEF's hypot)
        _NORM_CASES.append(f"r = torch.norm({_x}, p={_p}{_dim}{_kw})")
for _x in ["torch.tensor([1j, 2])", "torch.tensor([[1.5, 2]])", "torch.tensor([3, 4])"]:
    for _call in ["{}.mean(dtype=torch.int8)", "{}.nanmean(dtype=torch.bool)", "{}.mean(0, dtype=torch.float16)",
                  "torch.mean({}, dtype=torch.int64)"]:
        _NORM_CASES.append("r = " + _call.format(_x))
for _dtype in _INT_RANGE:
    for _call in ["{}.clamp(max=2 ** 40)", "{}.clamp_min_(-2 ** 40)", "torch.clamp({}, 0, 2 ** 33)"]:
        _NORM_CASES.append("r = " + _call.format(f"torch.tensor([1, 2], dtype=torch.{_dtype})"))


@pytest.mark.parametrize("code", _NORM_CASES)
def test_norm_mean_clamp_checks(code):
    check(code)


# --- running sums and products in PyTorch's CPU acc_type (float for half, double for float, complex<double> for
# complex<float>); a float16 prod rounded to half after each product; nansum in sum's order ----------------------
def _random_array(rng, shape, dtype, nans=False):
    x = np.array([rng.uniform(-3, 3) for _ in range(int(np.prod(shape)))]).reshape(shape)
    if dtype.startswith("complex"):
        x = x + 1j * np.array([rng.uniform(-3, 3) for _ in range(x.size)]).reshape(shape)
    if nans:
        x[np.array([rng.random() < 0.2 for _ in range(x.size)]).reshape(shape)] = np.nan
    return f"np.array({x.tolist()!r}, dtype=np.{dtype})".replace("nan", "np.nan").replace("np.np.", "np.")


_ACC_CASES = []
for _seed in range(60):
    _rng = random.Random(600 + _seed)
    _shape = _rng.choice([(5,), (3, 4), (8, 3), (4, 6), (17,)])
    _dtype = _rng.choice(["float16", "float32", "float64", "complex64"])
    _call = _rng.choice(["x.cumsum(0)", "x.cumsum(-1)", "torch.cumsum(x, 0)", "x.cumprod(-1)", "x.prod()", "x.prod(0)",
                         "x.prod(-1, keepdim=True)", "x.nansum()", "x.nansum(0)", "x.nansum(-1, keepdim=True)"])
    if "prod" in _call and _dtype != "float16":
        _dtype = "float16"
    _nans = "nansum" in _call and not _dtype.startswith("complex")
    _ACC_CASES.append(f"x = torch.from_numpy({_random_array(_rng, _shape, _dtype, _nans)})\nr = {_call}")


@pytest.mark.parametrize("code", _ACC_CASES)
def test_accumulation_types_and_orders(code):
    check(code)
