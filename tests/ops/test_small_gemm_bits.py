"""The order PyTorch's small float matrix products add their k terms in (gradlab/ops/dual.py,
`mkl_gemm_order`): generated shapes in each measured class, bits against live torch for mm, matmul,
addmm, F.linear and the products of their backward passes.

PyTorch computes these with MKL's sgemm/dgemm, whose kernels MKL picks by CPU; the rule was measured on
an AMD EPYC (where MKL_ENABLE_INSTRUCTIONS and MKL_DEBUG_CPU_TYPE changed nothing). On other CPUs the
order is not known, so these tests run on AMD's only (tests/machine.py)."""
import numpy as np
import pytest

import gradlab
from tests.machine import CPU_VENDOR

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch,
              pytest.mark.skipif(CPU_VENDOR != "AuthenticAMD",
                                 reason=f"MKL's small-gemm order was measured on AMD's CPUs, not this {CPU_VENDOR}'s")]


def _shapes(kind, count, seed):
    """(m, k, n) in one class of the rule: "plain" (n < 12 or m < 4), "fma" (m >= 4, n >= 12, at most 1024 products)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        if kind == "plain":
            m, n = (int(rng.integers(1, 40)), int(rng.integers(2, 12))) if rng.random() < 0.6 else \
                   (int(rng.integers(1, 4)), int(rng.integers(2, 70)))
            k = int(rng.integers(2, 100))
        else:
            m, n, k = int(rng.integers(4, 17)), int(rng.integers(12, 40)), int(rng.integers(2, 20))
            if m * n * k > 1 << 10:
                continue
        out.append((m, k, n))
    return out


def _aligned(m, n, itemsize):
    """The entries MKL computes in the vector order: not the ones before a row reaches 16-byte alignment."""
    width = 16 // itemsize
    keep = np.ones((m, n), bool)
    for i in range(m):
        peel = (-i * n) % width
        if peel and n - peel >= width:
            keep[i, :peel] = False
    return keep


def _pair(m, k, n, dtype, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)


def _same(got, want, keep=None):
    got, want = np.asarray(got), np.asarray(want)
    if keep is not None:
        got, want = got[keep], want[keep]
    return got.tobytes() == want.tobytes()


PLAIN = _shapes("plain", 40, 0)
FMA = _shapes("fma", 30, 1)


# (float64's m < 4, n >= 12 products are left out: MKL's order is not plain there for every entry, and gradlab
# keeps numpy's product for them)
@pytest.mark.parametrize("m,k,n,dtype", [(*s, d) for s in PLAIN for d in ("float32", "float64")
                                         if d == "float32" or s[2] < 12])
def test_plain_order_mm_matmul(m, k, n, dtype):
    a, b = _pair(m, k, n, dtype, m * 1000 + k * 10 + n)
    keep = _aligned(m, n, np.dtype(dtype).itemsize)
    want = (torch.from_numpy(a) @ torch.from_numpy(b)).numpy()
    A, B = gradlab.from_numpy(a), gradlab.from_numpy(b)
    assert _same((A @ B).numpy(), want, keep)
    assert _same(A.mm(B).numpy(), want, keep)
    # a column-major left operand (x.t() @ g, a weight's gradient): the same order
    at = np.ascontiguousarray(a.T)
    want_t = (torch.from_numpy(at).t() @ torch.from_numpy(b)).numpy()
    assert _same((gradlab.from_numpy(at).t() @ B).numpy(), want_t, keep)


@pytest.mark.parametrize("m,k,n", PLAIN[:20])
def test_plain_order_addmm_bias(m, k, n):
    a, b = _pair(m, k, n, np.float32, k)
    bias = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    keep = _aligned(m, n, 4)
    want = torch.addmm(torch.from_numpy(bias), torch.from_numpy(a), torch.from_numpy(b)).numpy()
    got = gradlab.addmm(gradlab.from_numpy(bias), gradlab.from_numpy(a), gradlab.from_numpy(b)).numpy()
    assert _same(got, want, keep)


def _run(lib, a, b, g, linear):
    A = lib.tensor(a, requires_grad=True)
    if linear:      # nn.Linear's x @ w.t(): the weight is stored (n, k)
        B = lib.tensor(np.ascontiguousarray(b.T), requires_grad=True)
        out = lib.nn.functional.linear(A, B)
    else:
        B = lib.tensor(b, requires_grad=True)
        out = A @ B
    out.backward(lib.tensor(g))
    return out.detach().numpy(), A.grad.numpy(), B.grad.numpy()


def _class(rows, cols, summed, right_column_major):
    """Which order the rule gives a product with a (rows, cols) result: "fma", "plain" or None (unknown)."""
    if summed < 2 or cols < 2:
        return None
    if rows >= 4 and cols >= 12:
        # (with 2 threads MKL hands the last rows % 4 rows of a 5..11-row result to its small kernel)
        # (and gradlab follows it up to 1024 multiplications, dual._FMA_MAX)
        return "fma" if (summed <= 192 and (rows >= 12 or rows % 4 == 0)
                         and rows * cols * summed <= 1 << 10) else None
    return None if right_column_major else "plain"


@pytest.mark.parametrize("linear", [False, True], ids=["matmul", "linear"])
@pytest.mark.parametrize("m,k,n", FMA + PLAIN[:20])
def test_forward_and_backward_products(m, k, n, linear):
    """The forward product and the two products of its backward (PyTorch's mm_mat1_backward and
    mm_mat2_backward, with their layouts: g @ b.t() has a column-major right operand, a.t() @ g a
    column-major left one; for F.linear g @ w and (g.t() @ x).t()), each checked where its class is known."""
    a, b = _pair(m, k, n, np.float32, m * 7 + k * 3 + n)
    g = np.random.default_rng(k).standard_normal((m, n)).astype(np.float32)
    want = _run(torch, a, b, g, linear)
    got = _run(gradlab, a, b, g, linear)
    if linear:
        products = [((m, n, k), True), ((m, k, n), False), ((n, k, m), False)]
    else:
        products = [((m, n, k), False), ((m, k, n), True), ((k, n, m), False)]
    for got_v, want_v, ((rows, cols, summed), column_major) in zip(got, want, products):
        kind = _class(rows, cols, summed, column_major)
        if kind is None:
            continue
        keep = _aligned(rows, cols, 4) if kind == "plain" else None
        assert _same(got_v, want_v, keep), (kind, rows, cols, summed)


@pytest.mark.parametrize("m,k,n", [s for s in PLAIN[:8] + FMA[:8] if _class(s[0], s[2], s[1], False) is not None])
def test_signed_zeros(m, k, n):
    """All-zero terms: MKL's sums start from +0 (an entry of -0 products is +0), addmm's from its bias
    (the shapes whose order is known)."""
    kind = _class(m, n, k, False)
    keep = _aligned(m, n, 4) if kind == "plain" else None
    rng = np.random.default_rng(m + k + n)
    a = np.full((m, k), -0.0, np.float32)      # times positive numbers: every product -0
    a[rng.random(m) < 0.3] = rng.standard_normal(k).astype(np.float32)
    b = np.abs(rng.standard_normal((k, n))).astype(np.float32)
    bias = np.where(rng.random(n) < 0.5, 0.0, -0.0).astype(np.float32)
    for call in (lambda T, x, y, c: x @ y, lambda T, x, y, c: T.addmm(c, x, y), lambda T, x, y, c: T.mm(x, y)):
        want = call(torch, torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(bias)).numpy()
        got = call(gradlab, gradlab.from_numpy(a), gradlab.from_numpy(b), gradlab.from_numpy(bias)).numpy()
        assert _same(got, want, keep)
