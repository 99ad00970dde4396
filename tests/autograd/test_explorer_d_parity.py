"""What a third, independent explorer of autograd programs found (generated programs of 2-8 statements
run under both libraries, transcripts compared): the result tuples of max/sort/topk named as PyTorch's C
types in messages, mse_loss's complex refusal, the order of the inference-tensor and leaf-view checks,
broadcast_tensors keeping a tensor of the full shape, .grad's layout when size-1 dims carry strides,
and the create_graph warning's place. Every case is checked against live torch."""
import itertools
import random
import zlib

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _run(lib, code, env=None):
    """Run `code` with `torch` bound to lib; return (what it left in `out`, the exception's type and text)."""
    ns = {"torch": lib, "F": lib.nn.functional, "out": []}
    ns.update(env or {})
    try:
        exec(code, ns)
    except Exception as e:          # (compared between the libraries)
        return ns["out"], (type(e).__name__, str(e))
    return ns["out"], None


def _same(code):
    got, want = _run(gradlab, code), _run(torch, code)
    assert got == want, code


# ---------------------------------------------------------------- result tuples named as C types

RESULTS = ["x.max(0)", "x.min(1)", "x.sort()", "x.topk(1)", "x.kthvalue(1)", "x.cummax(0)", "x.median(0)",
           "x.mode(0)", "x.aminmax()", "x.frexp()", "torch.linalg.slogdet(x)", "torch.linalg.qr(x)",
           "torch.linalg.svd(x)", "torch.linalg.eigh(x)", "torch.sort(x, 1)"]
MISUSES = ["r.sum()", "r.backward()", "float(r)", "torch.relu(r)", "x - r", "r.grad_fn", "r + x",
           "torch.autograd.grad(r, x)", "r.requires_grad_()", "torch.cat([r])", "out.append(type(r).__name__)",
           "out.append(repr(type(r)).replace('gradlab', 'torch'))"]


@pytest.mark.parametrize("result, misuse", list(itertools.product(RESULTS, MISUSES)))
def test_result_tuple_misuse(result, misuse):
    """`x.max(0).sum()`: Python's message names the type 'torch.return_types.max' (its tp_name), as
    the argument parser does; type(r).__name__ stays 'max'."""
    _same(f"x = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)\nr = {result}\n{misuse}")


# ---------------------------------------------------------------- losses refuse complex tensors

LOSSES = ["F.mse_loss(a, b)", "F.mse_loss(a, b, reduction='none')", "F.mse_loss(a, b, reduction='sum')",
          "F.mse_loss(a, b[:1])", "F.mse_loss(a, b.real)", "F.mse_loss(a.real, b)", "torch.nn.MSELoss()(a, b)",
          "F.mse_loss(a[:0], b[:0])", "F.l1_loss(a, b)", "F.smooth_l1_loss(a, b)", "F.smooth_l1_loss(a.real, b)",
          "F.huber_loss(a, b)", "F.huber_loss(a, b, delta=0.5)", "F.soft_margin_loss(a, b)",
          "F.kl_div(a, b, reduction='batchmean')", "F.kl_div(a.real, b, reduction='sum')",
          "F.binary_cross_entropy(a, b)", "F.binary_cross_entropy_with_logits(a, b)"]


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_loss_of_complex(loss, dtype, requires_grad):
    """The regression losses' kernels have real floating types only ('"mse_cpu" not implemented for
    'ComplexFloat''); kl_div refuses complex inputs; soft_margin_loss computes, then refuses to record a
    complex result; whatever passes is compared with its gradient."""
    rng = random.Random(zlib.crc32((loss + dtype).encode()))
    vals = [complex(rng.choice([0.5, -1.0, 2.0]), rng.choice([0.0, 1.5, -0.5])) for _ in range(4)]
    _same(f"a = torch.tensor({vals[:2]}, dtype=torch.{dtype}, requires_grad={requires_grad})\n"
          f"b = torch.tensor({vals[2:]}, dtype=torch.{dtype})\n"
          f"r = {loss}\nout.append(repr(r))\n"
          f"if r.requires_grad:\n    r.abs().sum().backward()\n    out.append(repr(a.grad))")


# ---------------------------------------------------------------- inference tensors refused before shapes

BINARIES = ["z * v", "v * z", "torch.mul(z, v)", "v.mul(z)", "z / v", "torch.atan2(z, v)", "z.pow(v)", "z + v",
            "z - v", "torch.maximum(z, v)", "z @ v", "z @ v.t()", "torch.mm(z, v)", "z.mm(v.t())",
            "torch.mm(z[0], v)", "z * v.detach()", "z * w", "torch.hypot(z, v)", "z.double() @ v.t()"]


@pytest.mark.parametrize("expr", BINARIES)
@pytest.mark.parametrize("shapes", [((3, 2), (2, 3)), ((2, 3), (2, 3)), ((4,), (2, 3)), ((3, 3), (3, 3))])
@pytest.mark.parametrize("grad", ["", "with torch.no_grad():\n    "])
def test_inference_tensor_before_shape_checks(expr, shapes, grad):
    """PyTorch saves a differentiable op's inputs before its kernel runs: an inference tensor meeting a
    tensor that requires grad is refused before a shape mismatch is noticed (add saves nothing)."""
    _same(f"v = torch.ones{shapes[1]}.requires_grad_()\nw = torch.ones{shapes[1]}\n"
          f"with torch.inference_mode():\n    z = torch.full({shapes[0]}, 2.0)\n"
          f"{grad}r = {expr}\nout.append(repr(r))")
