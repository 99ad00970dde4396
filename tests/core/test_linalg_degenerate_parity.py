"""Singular and degenerate matrices in torch.linalg and its older names, against live torch (issue #14).

A seeded generator makes the matrices a student types or meets: all ones, zeros, rank-deficient integer
matrices, a zero row or column, a batch with one singular member, non-square, 0x0 and empty batches, not
positive-definite, nan and inf entries, in float32, float64 and complex128. Every function runs on each in
both libraries and the two transcripts must agree: the printed result (values, dtype, the infs and nans a
zero pivot leaves), or the exception's type and message, and the warnings. Functions whose values depend on
LAPACK's rounding order (svd, qr, eigh, pinv, lstsq, ...) are compared to 1e-12 (float64; float32 to 1e-5)
with the same inf/nan pattern instead of as printed text. Also nn.init's deprecated names and the
initialisers added with them (orthogonal_, sparse_, dirac_, trunc_normal_), under the same seed."""
import math
import re
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


# ------------------------------------------------------------------------------------------ matrices

def _matrices():
    """(name, numpy array) pairs: the degenerate cases, made with a seeded generator."""
    rng = np.random.default_rng(14)
    cases = [("ones2", np.ones((2, 2))), ("ones3", np.ones((3, 3))), ("zeros2", np.zeros((2, 2))),
             ("neg_ones2", -np.ones((2, 2))), ("empty0x0", np.zeros((0, 0))), ("empty_batch", np.zeros((0, 2, 2))),
             ("wide", np.arange(6.).reshape(2, 3)), ("tall", np.arange(6.).reshape(3, 2)),
             ("neg_eye", -np.eye(3)), ("indefinite", np.array([[1., 2.], [2., 1.]])),
             ("nan", np.array([[1., np.nan], [2., 3.]])), ("inf", np.array([[np.inf, 1.], [2., 3.]])),
             ("one_by_one_zero", np.zeros((1, 1))), ("nonsymmetric_pd", np.array([[4., 1.], [3., 5.]]))]
    for i in range(4):
        n = int(rng.integers(2, 5))
        u = rng.integers(-3, 4, (n, 1)).astype(float)
        v = rng.integers(-3, 4, (1, n)).astype(float)
        cases.append((f"rank1_int_{i}", u @ v))                           # rank-deficient, integer-valued
        m = rng.integers(-4, 5, (n, n)).astype(float)
        m[int(rng.integers(n))] = 0
        cases.append((f"zero_row_{i}", m))
        m = rng.integers(-4, 5, (n, n)).astype(float)
        m[:, int(rng.integers(n))] = 0
        cases.append((f"zero_col_{i}", m))
        m = rng.integers(-4, 5, (n, n)).astype(float)
        m[-1] = m[0] + m[1]                                               # a dependent row
        cases.append((f"dependent_{i}", m))
        good = rng.standard_normal((n, n)) + n * np.eye(n)
        cases.append((f"batch_one_singular_{i}", np.stack([good, np.ones((n, n)), good.T])))
        x = rng.standard_normal((n, n))
        cases.append((f"spd_{i}", x @ x.T + np.eye(n)))                  # (the regular case beside them)
    return cases


MATRICES = _matrices()
DTYPES = ["float64", "float32", "complex128"]


def _make(lib, array, dtype, requires_grad=False):
    t = lib.tensor(array.tolist(), dtype=getattr(lib, dtype)).reshape(array.shape)
    return t.requires_grad_() if requires_grad else t


def _rhs(lib, A):
    """A right-hand side of A's rows (a column of ones, batched as A)."""
    n = A.shape[-2] if A.dim() >= 2 else 1
    return lib.ones(*A.shape[:-2], n, 1, dtype=A.dtype)


# ------------------------------------------------------------------------------------------ functions

def _lu_parts(lib, A):
    LU, piv, _ = lib.linalg.lu_factor_ex(A)
    return LU, piv


# compared as printed text: LAPACK's getrf/getrs/potrf order is reproduced
EXACT = {
    "linalg.inv": lambda t, A: t.linalg.inv(A),
    "linalg.inv_ex": lambda t, A: t.linalg.inv_ex(A),
    "linalg.inv_ex(check_errors)": lambda t, A: t.linalg.inv_ex(A, check_errors=True),
    "inverse": lambda t, A: t.inverse(A),
    "Tensor.inverse": lambda t, A: A.inverse(),
    "linalg.solve": lambda t, A: t.linalg.solve(A, _rhs(t, A)),
    "linalg.solve_ex": lambda t, A: t.linalg.solve_ex(A, _rhs(t, A)),
    "linalg.solve_ex(check_errors)": lambda t, A: t.linalg.solve_ex(A, _rhs(t, A), check_errors=True),
    "linalg.cholesky": lambda t, A: t.linalg.cholesky(A),
    "linalg.cholesky_ex": lambda t, A: t.linalg.cholesky_ex(A),
    "linalg.cholesky_ex(upper)": lambda t, A: t.linalg.cholesky_ex(A, upper=True),
    "linalg.cholesky_ex(check_errors)": lambda t, A: t.linalg.cholesky_ex(A, check_errors=True),
    "cholesky": lambda t, A: t.cholesky(A),
    "linalg.lu_factor": lambda t, A: t.linalg.lu_factor(A),
    "linalg.lu_factor_ex": lambda t, A: t.linalg.lu_factor_ex(A),
    "linalg.lu_factor_ex(check_errors)": lambda t, A: t.linalg.lu_factor_ex(A, check_errors=True),
    "linalg.lu": lambda t, A: t.linalg.lu(A),
    "lu": lambda t, A: t.lu(A),
    "lu(get_infos)": lambda t, A: t.lu(A, get_infos=True),
    "Tensor.lu": lambda t, A: A.lu(),
    "Tensor.lu(get_infos)": lambda t, A: A.lu(get_infos=True),
    "lu_unpack": lambda t, A: t.lu_unpack(*_lu_parts(t, A)),
    "linalg.lu_solve": lambda t, A: t.linalg.lu_solve(*_lu_parts(t, A), _rhs(t, A)),
    "linalg.lu_solve(adjoint)": lambda t, A: t.linalg.lu_solve(*_lu_parts(t, A), _rhs(t, A), adjoint=True),
    "linalg.lu_solve(left=False)": lambda t, A: t.linalg.lu_solve(*_lu_parts(t, A), _rhs(t, A).mT, left=False),
    "lu_solve": lambda t, A: t.lu_solve(_rhs(t, A), *_lu_parts(t, A)),
    "linalg.det": lambda t, A: t.linalg.det(A),
    "det": lambda t, A: t.det(A),
    "linalg.slogdet": lambda t, A: t.linalg.slogdet(A),
    "logdet": lambda t, A: t.logdet(A),
    "linalg.matrix_power(-1)": lambda t, A: t.linalg.matrix_power(A, -1),
    "matrix_power(0)": lambda t, A: t.matrix_power(A, 0),
    "linalg.tensorinv": lambda t, A: t.linalg.tensorinv(A, ind=1),
    "cholesky_solve": lambda t, A: t.cholesky_solve(_rhs(t, A), A),
    "linalg.solve_triangular": lambda t, A: t.linalg.solve_triangular(A, _rhs(t, A), upper=True),
    "linalg.ldl_factor": lambda t, A: t.linalg.ldl_factor(A),
    "linalg.ldl_factor_ex": lambda t, A: t.linalg.ldl_factor_ex(A),
    "linalg.ldl_factor_ex(hermitian)": lambda t, A: t.linalg.ldl_factor_ex(A, hermitian=True),
    "linalg.ldl_factor_ex(check_errors)": lambda t, A: t.linalg.ldl_factor_ex(A, check_errors=True),
    "linalg.ldl_solve": lambda t, A: t.linalg.ldl_solve(*t.linalg.ldl_factor_ex(A)[:2], _rhs(t, A)),
    "linalg.ldl_solve(hermitian)": lambda t, A: t.linalg.ldl_solve(*t.linalg.ldl_factor_ex(A, hermitian=True)[:2],
                                                                   _rhs(t, A), hermitian=True),
}

# compared as numbers (1e-12 relative in float64, the same infs and nans): their LAPACK routines' order differs
CLOSE = {
    "linalg.svdvals": lambda t, A: t.linalg.svdvals(A),
    "linalg.pinv": lambda t, A: t.linalg.pinv(A),
    "pinverse": lambda t, A: t.pinverse(A),
    "linalg.matrix_rank": lambda t, A: t.linalg.matrix_rank(A),
    "linalg.eigvalsh": lambda t, A: t.linalg.eigvalsh(A),
    "linalg.lstsq(gelsd).solution": lambda t, A: t.linalg.lstsq(A, _rhs(t, A), driver="gelsd").solution,
    "linalg.cond(1)": lambda t, A: t.linalg.cond(A, 1),
    "linalg.cond(inf)": lambda t, A: t.linalg.cond(A, math.inf),
    "linalg.matrix_norm(nuc)": lambda t, A: t.linalg.matrix_norm(A, "nuc"),
    "linalg.matrix_exp": lambda t, A: t.linalg.matrix_exp(A),
    "geqrf": lambda t, A: t.geqrf(A),
    "linalg.householder_product(geqrf)": lambda t, A: t.linalg.householder_product(*t.geqrf(A)),
    "orgqr(geqrf)": lambda t, A: t.orgqr(*t.geqrf(A)),
    "ormqr(geqrf)": lambda t, A: t.ormqr(*t.geqrf(A), _rhs(t, A)),
    "ormqr(geqrf, left=False, transpose)": lambda t, A: t.ormqr(*t.geqrf(A), _rhs(t, A).mT, left=False,
                                                                transpose=True),
}


def _transcript(lib, fn, array, dtype):
    """What a student sees: the result's text (or the exception's type and message) and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(lib, _make(lib, array, dtype))
            text = repr(result)
        except Exception as error:     # noqa: BLE001 (the exception is the result)
            result, text = None, f"{type(error).__name__}: {error}"
    # (PyTorch's warn-once deprecations, "Triggered internally at ...", warn at a process's first call: which
    # test makes it depends on the order the tests run in; test_stats_parity checks their text)
    return result, text, [(w.category.__name__, str(w.message)) for w in caught
                          if "Triggered internally at" not in str(w.message)]


def _arrays(result):
    if result is None:
        return []
    parts = result if isinstance(result, tuple) else (result,)
    return [np.asarray(p._data if isinstance(p, gradlab.Tensor) else p.detach().resolve_conj().resolve_neg().numpy())
            for p in parts]


def _case_ids(table):
    return [pytest.param(f, m, d, id=f"{f}-{m}-{d}") for f in table for m, _ in MATRICES for d in DTYPES]


_ARRAYS = dict(MATRICES)


def _unsigned_zeros(text):
    """A complex result's text with its zeros' signs dropped: numpy's complex products and quotients sign a
    zero part differently from MKL's (1.8015-0.j against 1.8015+0.j), the numbers are equal."""
    text = re.sub(r"[-+]0\.(0*)j", r"+0.\1j", text)
    text = re.sub(r"(?<![\d.e])-(0\.0*)(?![\d])", r"\1", text)
    return re.sub(r"\[ ", "[", re.sub(r"\s+", " ", text))


# what gradlab does not match yet (each checked by hand against torch 2.13):
_COMPLEX_ZERO_PIVOT = ["cholesky_solve-one_by_one_zero", "cholesky_solve-zero_row_0", "cholesky_solve-zero_col_1",
                       "linalg.solve_triangular-zeros2", "linalg.solve_triangular-one_by_one_zero",
                       "linalg.solve_triangular-rank1_int_1", "linalg.solve_triangular-dependent_2",
                       "linalg.solve_triangular-dependent_3"] + [
    f"linalg.solve_triangular-zero_{w}_{i}" for w in ("row", "col") for i in range(4)]
KNOWN = {
    # a complex division by 0 or by inf: numpy's (x / 0j = inf+nanj) is not MKL's (nan+nanj), and MKL's LU of a
    # complex matrix with an inf entry is all nans
    **{f"{case}-complex128": "complex division by 0 or inf (MKL's complex arithmetic)" for case in
       _COMPLEX_ZERO_PIVOT + [f"{f}-inf" for f in EXACT]},
    # the complex LU's products round differently (numpy's complex multiply against MKL's): a singular complex
    # matrix's last pivot is 1e-16 where MKL's is exactly 0
    **{f"{f}-{m}-complex128": "complex LU rounding" for f in ("linalg.det", "det", "linalg.slogdet", "logdet")
       for m in ("dependent_1", "dependent_3")},
    "linalg.cholesky_ex(upper)-nan-complex128": "potrf 'U' with a nan: MKL's partial factor",
    # pinverse's rcond=1e-15 keeps a float32 rank-deficient matrix's rounding-noise singular value (1e-7):
    # its reciprocal is noise too, different in numpy's and MKL's SVD
    **{f"pinverse-{m}-float32": "float32 noise singular value kept by rcond=1e-15" for m in
       ("rank1_int_0", "dependent_1", "dependent_2", "rank1_int_3", "zero_col_3", "dependent_3",
        "batch_one_singular_3")},
    **{f"linalg.lstsq(gelsd).solution-inf-{d}": "gelsd with an inf entry (MKL's scaling)" for d in DTYPES},
    # the QR of a rank-deficient matrix: once the rank is used up, the next reflectors are made from the
    # rounding noise left below the diagonal (exact zeros in MKL, 1e-16 in numpy's LAPACK), so they differ
    **{f"{f}-{m}-{d}": "geqrf of a rank-deficient matrix: reflectors from rounding noise"
       for f in ("geqrf", "linalg.householder_product(geqrf)", "orgqr(geqrf)", "ormqr(geqrf)",
                 "ormqr(geqrf, left=False, transpose)") for d in DTYPES
       for m in ["ones3", "inf", "nan", "rank1_int_2", "rank1_int_3"] + [f"batch_one_singular_{i}" for i in range(4)]},
    # float32 Cholesky of [[inf, 1], [2, 3]]: MKL's blocked potrf finds the second minor not positive-definite
    **{f"{f}-inf-float32": "float32 potrf with an inf (MKL's blocked order)" for f in
       ("linalg.cholesky", "linalg.cholesky_ex", "linalg.cholesky_ex(upper)", "linalg.cholesky_ex(check_errors)",
        "cholesky")},
}


def _known(case_id):
    if case_id in KNOWN:
        pytest.xfail(KNOWN[case_id])


@pytest.mark.parametrize("fname,mname,dtype", _case_ids(EXACT))
def test_exact(fname, mname, dtype):
    fn, array = EXACT[fname], _ARRAYS[mname]
    expected, expected_text, expected_warnings = _transcript(torch, fn, array, dtype)
    got, got_text, got_warnings = _transcript(gradlab, fn, array, dtype)
    if (got_text, got_warnings) != (expected_text, expected_warnings):
        _known(f"{fname}-{mname}-{dtype}")
    if dtype == "complex128":
        expected_text, got_text = _unsigned_zeros(expected_text), _unsigned_zeros(got_text)
    assert got_text == expected_text
    assert got_warnings == expected_warnings
    for e, g in zip(_arrays(expected), _arrays(got)):
        assert e.dtype == g.dtype and e.shape == g.shape
        if dtype == "float64" and e.dtype.kind == "f":       # (the printed text rounds; float64: to 1e-12)
            np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-300, equal_nan=True)


def _close(e, g, dtype):
    assert e.dtype == g.dtype and e.shape == g.shape
    if e.dtype.kind in "fc":
        assert np.array_equal(np.isnan(e), np.isnan(g)) and np.array_equal(np.isinf(e), np.isinf(g))
        finite = np.isfinite(e)
        scale = np.abs(e[finite]).max() if finite.any() else 1.0
        tol = 1e-12 if dtype != "float32" else 1e-5
        np.testing.assert_allclose(g[finite], e[finite], rtol=tol, atol=tol * scale)
    else:
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("fname,mname,dtype", _case_ids(CLOSE))
def test_close(fname, mname, dtype):
    fn, array = CLOSE[fname], _ARRAYS[mname]
    expected, expected_text, expected_warnings = _transcript(torch, fn, array, dtype)
    got, got_text, got_warnings = _transcript(gradlab, fn, array, dtype)
    _known(f"{fname}-{mname}-{dtype}")
    if expected is None or got is None:
        assert got_text == expected_text
    assert got_warnings == expected_warnings
    for e, g in zip(_arrays(expected), _arrays(got)):
        _close(e, g, dtype)


# ------------------------------------------------------------------------------------------ gradients

GRADS = {
    "linalg.inv_ex": lambda t, A: t.linalg.inv_ex(A).inverse,
    "linalg.solve_ex": lambda t, A: t.linalg.solve_ex(A, _rhs(t, A)).result,
    "linalg.cholesky_ex": lambda t, A: t.linalg.cholesky_ex(A).L,
    "linalg.lu_factor_ex": lambda t, A: t.linalg.lu_factor_ex(A).LU,
    "lu": lambda t, A: t.lu(A)[0],
    "linalg.lu_solve": lambda t, A: t.linalg.lu_solve(*_lu_parts(t, A), _rhs(t, A)),
    "linalg.ldl_factor_ex": lambda t, A: t.linalg.ldl_factor_ex(A).LD,
    "geqrf": lambda t, A: t.geqrf(A).a,
    "linalg.householder_product": lambda t, A: t.linalg.householder_product(A, A.diagonal(0, -2, -1).tanh())
    if A.shape[-2] >= A.shape[-1] else t.linalg.householder_product(A),
    "ormqr": lambda t, A: t.ormqr(A, A.diagonal(0, -2, -1).tanh(), _rhs(t, A)),
    "linalg.det": lambda t, A: t.linalg.det(A),
    "linalg.slogdet": lambda t, A: t.linalg.slogdet(A).logabsdet,
}


@pytest.mark.parametrize("fname,mname", [pytest.param(f, m, id=f"{f}-{m}") for f in GRADS for m, a in MATRICES
                                         if a.ndim >= 2 and a.shape[-1] == a.shape[-2] and a.size
                                         and np.isfinite(a).all()])
def test_gradients(fname, mname):
    """grad_fn's name, and the gradient of the sum where torch gives one (with the same infs and nans)."""
    fn, array = GRADS[fname], _ARRAYS[mname]
    results = []
    for lib in (torch, gradlab):
        A = _make(lib, array, "float64", requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = fn(lib, A)
            except Exception as error:       # noqa: BLE001
                results.append(("raised", type(error).__name__, str(error)))
                continue
            name = type(out.grad_fn).__name__
            try:
                out.sum().backward()
                grad = A.grad.detach().numpy() if lib is torch else A.grad._data
            except Exception as error:       # noqa: BLE001
                grad = f"{type(error).__name__}: {error}"
        results.append((name, grad))
    expected, got = results
    assert got[0] == expected[0]
    if expected[0] == "raised":
        assert got == expected
        return
    if isinstance(expected[1], str) or isinstance(got[1], str):
        assert got[1] == expected[1]
    elif np.isfinite(expected[1]).all():      # (a singular matrix's gradient: infs and nans in both, any order)
        _close(expected[1], np.asarray(got[1]), "float64")
    else:
        assert not np.isfinite(got[1]).all()


# ------------------------------------------------------------------------------------------ nn.init

INIT = {
    "uniform": lambda t: t.nn.init.uniform(t.empty(3, 4), -1, 2),
    "normal": lambda t: t.nn.init.normal(t.empty(3, 4), std=3.0),
    "constant": lambda t: t.nn.init.constant(t.empty(2, 3), 0.5),
    "eye": lambda t: t.nn.init.eye(t.empty(2, 3)),
    "dirac": lambda t: t.nn.init.dirac(t.empty(4, 2, 3)),
    "xavier_uniform": lambda t: t.nn.init.xavier_uniform(t.empty(3, 5)),
    "xavier_normal": lambda t: t.nn.init.xavier_normal(t.empty(3, 5), gain=2),
    "kaiming_uniform": lambda t: t.nn.init.kaiming_uniform(t.empty(3, 5)),
    "kaiming_normal": lambda t: t.nn.init.kaiming_normal(t.empty(3, 5), mode="fan_out"),
    "orthogonal": lambda t: t.nn.init.orthogonal(t.empty(3, 5)),
    "sparse": lambda t: t.nn.init.sparse(t.empty(5, 3), 0.4),
    "orthogonal_ tall": lambda t: t.nn.init.orthogonal_(t.empty(5, 3), gain=2),
    "orthogonal_ 3d float64": lambda t: t.nn.init.orthogonal_(t.empty(4, 2, 3, dtype=t.float64)),
    "orthogonal_ 1d": lambda t: t.nn.init.orthogonal_(t.empty(4)),
    "orthogonal_ empty": lambda t: t.nn.init.orthogonal_(t.empty(0, 3)),
    "sparse_ std": lambda t: t.nn.init.sparse_(t.empty(4, 6), 0.1, std=1.0),
    "sparse_ 1d": lambda t: t.nn.init.sparse_(t.empty(4), 0.1),
    "dirac_ groups": lambda t: t.nn.init.dirac_(t.empty(4, 4, 3, 3), 2),
    "dirac_ 5d": lambda t: t.nn.init.dirac_(t.empty(2, 2, 3, 3, 3)),
    "dirac_ 2d": lambda t: t.nn.init.dirac_(t.empty(3, 2)),
    "dirac_ groups indivisible": lambda t: t.nn.init.dirac_(t.empty(3, 2, 2), 2),
    "trunc_normal_": lambda t: t.nn.init.trunc_normal_(t.empty(3, 4)),
    "trunc_normal_ narrow": lambda t: t.nn.init.trunc_normal_(t.empty(3, 4), a=1.5, b=3.0),
    "trunc_normal_ far mean": lambda t: t.nn.init.trunc_normal_(t.empty(3, 4), mean=10.0, a=-1, b=1),
    "trunc_normal_ float64": lambda t: t.nn.init.trunc_normal_(t.empty(3, 4, dtype=t.float64), std=0.5, a=-.1, b=.1),
}


@pytest.mark.parametrize("name", list(INIT))
@pytest.mark.parametrize("seed", [0, 7])
def test_init(name, seed):
    """The deprecated names warn as torch's (FutureWarning) and fill as the underscore function, with the
    same random draws: the tensors' bits agree."""
    outcomes = []
    for lib in (torch, gradlab):
        lib.manual_seed(seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = INIT[name](lib)
                values = result.numpy() if lib is torch else result._data
                text = repr(result)
            except Exception as error:       # noqa: BLE001
                values, text = None, f"{type(error).__name__}: {error}"
        # (where a warning points is not compared: gradlab's point at the caller's line, PyTorch's Python ones at
        # its own files; tests/project/test_warning_location.py checks gradlab's rule)
        outcomes.append((text, values, [(w.category.__name__, str(w.message)) for w in caught]))
    (e_text, e_values, e_warn), (g_text, g_values, g_warn) = outcomes
    assert g_warn == e_warn
    if e_values is None:
        assert g_text == e_text
    elif name in ROUNDED:
        np.testing.assert_allclose(g_values, e_values, rtol=1e-6 if e_values.dtype == np.float32 else 1e-14,
                                   atol=1e-6 if e_values.dtype == np.float32 else 1e-14)
    else:
        assert g_text == e_text
        np.testing.assert_array_equal(g_values, e_values)


# not bit for bit: QR's Householder sums in MKL's order, and normal_ on 16 or more numbers (torch's vectorized
# Box-Muller, whose log/sin/cos differ from numpy's in the last bit for a few of them)
ROUNDED = {"orthogonal", "orthogonal_ tall", "orthogonal_ 3d float64", "sparse_ std"}
