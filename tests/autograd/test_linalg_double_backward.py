"""Gradients of gradients of the linear-algebra ops against live PyTorch, beyond the op samples' draws: the
branches of PyTorch's formulas (det of 1 x 1, singular and mixed batches, a wide or tall QR with one of its
factors used, solve with left=False, the undefined gradients of svd), and the fuzzer's findings (qr's second
derivative, the backward of the deprecated torch.cholesky on an empty non-square input).

Each case compares, as tests/autograd/test_double_backward_nodes.py does, the gradient's graph (node names
and the next_functions tree) and the second-order gradients; an exception must be PyTorch's, type and message.
"""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402

from test_double_backward_nodes import GRAD_TOL, double_backward  # noqa: E402


def _outcome(T, fn, arrays, weights):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # (torch.cholesky's deprecation warning)
            return double_backward(T, fn, arrays, weights)
    except Exception as error:      # noqa: BLE001 (an exception is an outcome to compare)
        return f"{type(error).__name__}: {error}", None


def assert_same_second_order(fn, *arrays):
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(np.shape(a)) for a in arrays]
    (g_tree, g_second), (t_tree, t_second) = (_outcome(T, fn, arrays, weights) for T in (gradlab, torch))
    assert g_tree == t_tree
    assert (g_second is None) == (t_second is None)
    for a, b in zip(g_second or (), t_second or ()):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, **GRAD_TOL)


def _singular(rng, n):
    """A random n x n matrix of rank n - 1."""
    a = rng.standard_normal((n, n))
    a[-1] = a[:-1].sum(0) * rng.uniform(0.5, 2.0)
    return a


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True, database=None)


@SETTINGS
@given(st.integers(1, 3), st.sampled_from(["invertible", "singular", "mixed"]), st.integers(0, 2 ** 16))
def test_det_branches(n, kind, seed):
    rng = np.random.default_rng(seed)
    make = {"invertible": lambda: rng.standard_normal((n, n)) + 3 * np.eye(n),
            "singular": lambda: _singular(rng, n) if n > 1 else np.zeros((1, 1))}
    if kind == "mixed":
        a = np.stack([make["invertible"](), make["singular"](), make["invertible"]()])
    else:
        a = np.stack([make[kind]() for _ in range(2)]) if seed % 2 else make[kind]()
    assert_same_second_order(lambda T, x: T.linalg.det(x), a)


@SETTINGS
@given(st.sampled_from([(3, 2), (2, 3), (3, 3), (2, 3, 2), (2, 2, 3)]), st.sampled_from(["Q", "R", "QR", "complete"]),
       st.integers(0, 2 ** 16))
def test_qr_second_derivative(shape, use, seed):
    a = np.random.default_rng(seed).standard_normal(shape)
    fns = {"Q": lambda T, x: x.qr()[0] * 2, "R": lambda T, x: T.linalg.qr(x)[1],
           "QR": lambda T, x: T.linalg.qr(x)[0].sum(-1, keepdim=True) * T.linalg.qr(x)[1][..., :1, :],
           "complete": lambda T, x: T.linalg.qr(x, mode="complete")[0]}
    assert_same_second_order(fns[use], a)


@SETTINGS
@given(st.integers(1, 3), st.integers(1, 3), st.booleans(), st.integers(0, 2 ** 16))
def test_solve_left_and_right(n, k, left, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n)) + 3 * np.eye(n)
    b = rng.standard_normal((n, k) if left else (k, n))
    assert_same_second_order(lambda T, x, y: T.linalg.solve(x, y, left=left), a, b)


@SETTINGS
@given(st.sampled_from([(2, 2), (3, 2), (2, 3)]), st.sampled_from(["U", "S", "Vh", "USVh"]), st.booleans(),
       st.integers(0, 2 ** 16))
def test_svd_undefined_gradients(shape, use, full, seed):
    a = np.random.default_rng(seed).standard_normal(shape)
    # (through what does not depend on the factors' signs, which are LAPACK's choice)
    fns = {"U": lambda r: r.U[..., :1] * r.U[..., :1], "S": lambda r: r.S, "Vh": lambda r: r.Vh[..., :1, :] ** 2,
           "USVh": lambda r: r.U[..., :, :1] @ r.Vh[..., :1, :] + r.S.sum()}
    assert_same_second_order(lambda T, x: fns[use](T.linalg.svd(x, full_matrices=full)), a)


@pytest.mark.parametrize("shape", [(2, 0), (0, 2), (3, 2, 0), (2, 0, 0)])
@pytest.mark.parametrize("upper", [False, True])
def test_deprecated_cholesky_backward_of_empty_input(shape, upper):
    """The fuzzer's case: torch.cholesky accepts an empty non-square input; its backward meets
    linalg.solve_triangular's square-matrix check."""
    outcomes = []
    for T in (gradlab, torch):
        a = T.zeros(*shape, dtype=T.float64, requires_grad=True)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                T.cholesky(a, upper=upper).sum().backward()
            outcomes.append(tuple(a.grad.shape))
        except Exception as error:      # noqa: BLE001
            outcomes.append(f"{type(error).__name__}: {error}")
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, float("inf")])
def test_cdist_has_no_second_derivative(p):
    """PyTorch's _cdist_backward has no derivative: the gradient's node is CdistBackwardBackward0, a backward
    through it raises NotImplementedError."""
    rng = np.random.default_rng(1)
    assert_same_second_order(lambda T, x, y: T.cdist(x, y, p=p), rng.standard_normal((2, 3)),
                             rng.standard_normal((3, 3)))


@SETTINGS
@given(st.sampled_from([(3, 2), (2, 3), (3, 3), (2, 3, 3)]), st.sampled_from(["L", "U", "LU", "factor", "unpack"]),
       st.integers(0, 2 ** 16))
def test_lu_wide_tall_and_one_factor(shape, use, seed):
    a = np.random.default_rng(seed).standard_normal(shape)
    fns = {"L": lambda T, x: T.linalg.lu(x)[1] * 2, "U": lambda T, x: T.linalg.lu(x)[2] * 2,
           "LU": lambda T, x: T.linalg.lu(x)[1].sum() + T.linalg.lu(x)[2],
           "factor": lambda T, x: T.linalg.lu_factor(x)[0] * 2,
           "unpack": lambda T, x: T.lu_unpack(*T.linalg.lu_factor(x))[1 + seed % 2] * 2}
    assert_same_second_order(fns[use], a)


@SETTINGS
@given(st.booleans(), st.booleans(), st.integers(0, 2 ** 16))
def test_lu_solve_left_and_adjoint(left, adjoint, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((3, 3)), rng.standard_normal((3, 2))
    assert_same_second_order(lambda T, x, y: T.linalg.lu_solve(
        *T.linalg.lu_factor(x + 3 * T.eye(3, dtype=x.dtype)), y if left else y.mT, left=left, adjoint=adjoint), a, b)


@SETTINGS
@given(st.integers(2, 3), st.sampled_from(["values", "vectors", "both"]), st.integers(0, 2 ** 16))
def test_eig_and_eigh_with_eigenvectors(n, use, seed):
    a = np.random.default_rng(seed).standard_normal((n, n))
    # (eigenvectors through what does not depend on their phase or sign)
    eig = {"values": lambda r: r[0].real * 2 + r[0].imag, "vectors": lambda r: r[1].abs(),
           "both": lambda r: r[1].abs() + r[0].real[..., None, :]}
    eigh = {"values": lambda r: r[0] * 2, "vectors": lambda r: r[1] ** 2, "both": lambda r: r[1] ** 2 + r[0]}
    assert_same_second_order(lambda T, x: eig[use](T.linalg.eig(x + x.mT)), a)
    assert_same_second_order(lambda T, x: eigh[use](T.linalg.eigh(x + x.mT)), a)


@SETTINGS
@given(st.booleans(), st.booleans(), st.booleans(), st.integers(0, 1), st.integers(0, 2 ** 16))
def test_triangular_solve_variants(upper, transpose, unit, output, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal((3, 2))
    assert_same_second_order(lambda T, y, x: T.triangular_solve(y, x, upper=upper, transpose=transpose,
                                                                unitriangular=unit)[output] * 2, b, a)


@pytest.mark.parametrize("left, vector", [(True, False), (True, True), (False, False)])
def test_complex_solve_gradient(left, vector):
    """linalg.solve's gradient of a complex system: A^-H and X^H, conjugated (found with eig's gradient)."""
    rng = np.random.default_rng(2)
    A = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)) + 3 * np.eye(3)
    B = rng.standard_normal((3,) if vector else (3, 2)) + 1j * rng.standard_normal((3,) if vector else (3, 2))
    grads = []
    for T in (gradlab, torch):
        a, b = T.tensor(A, requires_grad=True), T.tensor(B, requires_grad=True)
        (T.linalg.solve(a, b if left or vector else b.mT, left=left).abs() ** 2).sum().backward()
        grads.append([np.asarray(t.grad.resolve_conj().detach().numpy()) for t in (a, b)])
    for mine, theirs in zip(*grads):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("fn", ["det", "inv", "solve_vector"])
def test_complex_det_and_inverse_gradients(fn):
    """det's and inv's gradients of a complex matrix: conj(det) A^-H and -(A^-H g A^-H), as PyTorch's."""
    rng = np.random.default_rng(5)
    A = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)) + 3 * np.eye(3)
    b = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    grads = []
    for T in (gradlab, torch):
        a = T.tensor(A, requires_grad=True)
        y = {"det": lambda: T.linalg.det(a), "inv": lambda: T.linalg.inv(a),
             "solve_vector": lambda: T.linalg.solve(a, T.tensor(b))}[fn]()
        (y.abs() ** 2).sum().backward()
        grads.append(a.grad.resolve_conj().detach().numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)
